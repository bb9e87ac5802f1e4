//! The shared token a `serve` endpoint was started with, and comparing a peer's against it.

use rand::Rng;

/// A fresh random token (128 bits, hex).
pub fn generate_token() -> String {
    let mut rng = rand::thread_rng();
    (0..16)
        .map(|_| format!("{:02x}", rng.r#gen::<u8>()))
        .collect()
}

/// Compares without an early exit, so the time taken does not tell how much of a guess was
/// right (only whether its length was).
pub(crate) fn same(given: &str, expected: &str) -> bool {
    let (a, b) = (given.as_bytes(), expected.as_bytes());
    let mut diff = u8::from(a.len() != b.len());
    for (i, x) in a.iter().enumerate() {
        let y = b.get(i).copied().unwrap_or(!x);
        diff |= std::hint::black_box(x ^ y);
    }
    diff == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_same_token_passes() {
        assert!(same("abc", "abc"));
        assert!(!same("abd", "abc"));
        assert!(!same("ab", "abc"));
        assert!(!same("abcd", "abc"));
        assert!(!same("", "abc"));
        assert_ne!(generate_token(), generate_token());
        assert_eq!(generate_token().len(), 32);
    }
}
