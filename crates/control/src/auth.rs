//! The token every request must carry when the control port is reachable from elsewhere:
//! `Authorization: Bearer TOKEN` or `?token=TOKEN` (the page and its WebSocket use the query).

use axum::http::HeaderMap;
use rand::Rng;

/// A fresh random token (128 bits, hex).
pub fn generate_token() -> String {
    let mut rng = rand::thread_rng();
    (0..16)
        .map(|_| format!("{:02x}", rng.r#gen::<u8>()))
        .collect()
}

/// The token a request carries, from its header or its query string.
pub(crate) fn token_of<'a>(headers: &'a HeaderMap, query: Option<&'a str>) -> Option<&'a str> {
    if let Some(t) = headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
    {
        return Some(t.trim());
    }
    query?.split('&').find_map(|kv| kv.strip_prefix("token="))
}

/// Compares without an early exit, so the time taken does not tell how much of a guess was
/// right.
pub(crate) fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_token_in_the_header_or_the_query() {
        let mut h = HeaderMap::new();
        assert_eq!(token_of(&h, Some("a=1&token=xyz")), Some("xyz"));
        assert_eq!(token_of(&h, Some("a=1")), None);
        h.insert("authorization", "Bearer abc".parse().unwrap());
        assert_eq!(token_of(&h, Some("token=xyz")), Some("abc"));
        assert!(same("abc", "abc") && !same("abc", "abd") && !same("abc", "ab"));
        assert_eq!(generate_token().len(), 32);
    }
}
