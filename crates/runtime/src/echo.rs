//! Outside text echoed in an error (a graph file's expression or line, a parameter's value, a
//! recording's metadata, a name in an archive), cut to a readable length: an error names what
//! is wrong without repeating a 100 MB expression, line or value on stderr. One module for
//! every crate that reports on outside input (graph files, the registry, the block library).
//!
//! ```
//! use radioflow_runtime::echo::{cut, cut_message};
//!
//! assert_eq!(cut("cf33_le"), "cf33_le");
//! let long = format!("'{}' is not a datatype", "x".repeat(5_000_000));
//! assert!(cut(&long).ends_with("... (5000020 bytes)"));
//! let shown = cut_message(&long);
//! assert!(shown.len() < 1100 && shown.ends_with("x' is not a datatype"));
//! ```

use std::borrow::Cow;
use std::fmt::{self, Write};

/// Characters of an echoed text (a name, an expression, a value) shown before the cut.
const ECHO: usize = 100;

/// The longest message shown whole; a longer one keeps its start and its end.
const MESSAGE: usize = 1000;

/// `text` whole if it is short, else its first 100 characters and its length.
pub fn cut(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(ECHO) {
        None => Cow::Borrowed(text),
        Some((end, _)) => Cow::Owned(format!("{}... ({} bytes)", &text[..end], text.len())),
    }
}

/// `value` as displayed, cut as [`cut`] does; a long value is formatted only as far as shown.
pub fn cut_display(value: &(impl fmt::Display + ?Sized)) -> String {
    /// Takes characters until it holds one more than [`ECHO`], then refuses.
    struct Bounded {
        text: String,
        chars: usize,
    }
    impl Write for Bounded {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            for c in s.chars() {
                if self.chars == ECHO {
                    return Err(fmt::Error);
                }
                self.text.push(c);
                self.chars += 1;
            }
            Ok(())
        }
    }
    let mut out = Bounded {
        text: String::new(),
        chars: 0,
    };
    if write!(out, "{value}").is_err() && out.chars == ECHO {
        out.text.push_str("...");
    }
    out.text
}

/// `message` whole if it is short, else its start and its end around a note of what was cut
/// (the last line of defence: the echoes inside are cut where they are written).
pub fn cut_message(message: &str) -> Cow<'_, str> {
    if message.len() <= MESSAGE {
        return Cow::Borrowed(message);
    }
    let floor = |mut i: usize| {
        while !message.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let head = floor(MESSAGE * 3 / 5);
    let tail = floor(message.len() - MESSAGE / 3);
    Cow::Owned(format!(
        "{} [... {} bytes cut ...] {}",
        &message[..head],
        tail - head,
        &message[tail..]
    ))
}

/// `items` joined by ", ", at most 20 of them and how many more.
pub fn cut_list(items: &[String]) -> String {
    const SHOWN: usize = 20;
    let mut text = items
        .iter()
        .take(SHOWN)
        .map(|i| cut(i))
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > SHOWN {
        text += &format!(" and {} more", items.len() - SHOWN);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_echoes_are_cut_and_short_ones_kept() {
        assert_eq!(cut("samp_rate"), "samp_rate");
        let long = "x".repeat(10_000_000);
        let c = cut(&long);
        assert!(c.starts_with("xxx") && c.ends_with("... (10000000 bytes)") && c.len() < 130);
        assert_eq!(cut_display(&42), "42");
        let d = cut_display(&long);
        assert_eq!(d.len(), ECHO + 3);
        assert_eq!(cut_message("short"), "short");
        let m = format!("start {long} end");
        let m = cut_message(&m);
        assert!(m.starts_with("start x") && m.ends_with("x end") && m.len() < MESSAGE + 50);
        let names: Vec<String> = (0..25).map(|i| i.to_string()).collect();
        assert!(cut_list(&names).ends_with("19 and 5 more"));
    }
}
