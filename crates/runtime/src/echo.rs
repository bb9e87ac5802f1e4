//! [`Echo`]: what a user or a file gave, repeated in an error message at a readable length.

use std::fmt;

/// Characters kept from the start of a long echo.
const HEAD_CHARS: usize = 120;
/// Characters kept from its end (where an error text often says what was wrong).
const TAIL_CHARS: usize = 60;

/// Text from outside (a parameter's value, a file's bytes, a name in an archive) as an error
/// message repeats it: whole when short, else its first 120 and last 60 characters around
/// how many bytes were left out, so that a value of megabytes never becomes a line of
/// megabytes on the terminal. Formatting it allocates nothing.
///
/// ```
/// use radioflow_runtime::Echo;
///
/// assert_eq!(Echo("cf33_le").to_string(), "cf33_le");
/// let long = format!("'{}' is not a datatype", "x".repeat(5_000_000));
/// let shown = Echo(&long).to_string();
/// assert!(shown.len() < 250, "{}", shown.len());
/// assert!(shown.starts_with("'xxx") && shown.ends_with("x' is not a datatype"));
/// assert!(shown.contains("[4999840 bytes left out]"));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Echo<'a>(pub &'a str);

impl fmt::Display for Echo<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.0;
        // Where the first HEAD_CHARS characters end and the last TAIL_CHARS begin; the text is
        // cut when at least 40 characters lie between (else it is kept whole).
        let head = text.char_indices().nth(HEAD_CHARS).map(|(i, _)| i);
        let tail = text
            .char_indices()
            .rev()
            .nth(TAIL_CHARS - 1)
            .map(|(i, _)| i);
        match (head, tail) {
            (Some(head), Some(tail))
                if head < tail && text[head..tail].chars().nth(40).is_some() =>
            {
                write!(
                    f,
                    "{} ... [{} bytes left out] ... {}",
                    &text[..head],
                    tail - head,
                    &text[tail..]
                )
            }
            _ => f.write_str(text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_whole_and_long_text_keeps_both_ends_on_char_boundaries() {
        for n in [0, 1, 180, 220] {
            let t = "é".repeat(n);
            assert_eq!(Echo(&t).to_string(), t, "{n} characters");
        }
        let t = "é".repeat(1000);
        let shown = Echo(&t).to_string();
        assert!(shown.starts_with(&"é".repeat(HEAD_CHARS)));
        assert!(shown.ends_with(&"é".repeat(TAIL_CHARS)));
        assert!(shown.contains("[1640 bytes left out]"), "{shown}");
    }
}
