//! A GRC file's YAML, read with bounds: yaml-rust2 copies an anchored node at every alias
//! (nine levels of nine aliases, the "billion laughs", are 10^9 nodes from 1 KB) and recurses
//! once per level of nesting, and it has no limit of its own for either. Its parser is a state
//! machine that hands out one event at a time, so a first pass over the events measures what
//! the aliases would add and how deep the nesting goes, without building anything, and the
//! tree is built only when both are within bounds.

use radioflow_runtime::echo::cut_message;
use std::collections::HashMap;
use yaml_rust2::parser::{Event, Parser};
use yaml_rust2::{Yaml, YamlLoader};

/// How deep collections may nest (a GRC file nests 4 levels).
const MAX_DEPTH: usize = 64;

/// The most that aliases may add to the document, in nodes plus scalar bytes (GNU Radio
/// Companion writes no aliases at all).
const MAX_ALIASED: usize = 1 << 20;

/// The first document of `text`.
///
/// # Errors
/// Not YAML, nested more than [`MAX_DEPTH`] levels, aliases that would add more than
/// [`MAX_ALIASED`] nodes and bytes, or no document.
pub(super) fn load(text: &str) -> Result<Yaml, String> {
    check(text)?;
    let not_yaml = |e: yaml_rust2::ScanError| format!("not YAML: {}", cut_message(&e.to_string()));
    let docs = YamlLoader::load_from_str(text).map_err(not_yaml)?;
    docs.into_iter().next().ok_or_else(|| "empty file".into())
}

fn check(text: &str) -> Result<(), String> {
    let mut parser = Parser::new_from_str(text);
    // Collections open: (anchor id, document size when it opened).
    let mut open: Vec<(usize, usize)> = Vec::new();
    // The size of each anchored node, its own aliases expanded.
    let mut anchored: HashMap<usize, usize> = HashMap::new();
    let (mut size, mut aliased) = (0usize, 0usize);
    loop {
        let (event, mark) = parser
            .next_token()
            .map_err(|e| format!("not YAML: {}", cut_message(&e.to_string())))?;
        match event {
            Event::StreamEnd => return Ok(()),
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                if open.len() == MAX_DEPTH {
                    return Err(format!(
                        "YAML nested more than {MAX_DEPTH} levels deep (line {})",
                        mark.line()
                    ));
                }
                open.push((anchor, size));
                size += 1;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some((anchor, start)) = open.pop()
                    && anchor > 0
                {
                    anchored.insert(anchor, size - start);
                }
            }
            Event::Scalar(value, _, anchor, _) => {
                let weight = 1 + value.len();
                size += weight;
                if anchor > 0 {
                    anchored.insert(anchor, weight);
                }
            }
            Event::Alias(anchor) => {
                let weight = anchored.get(&anchor).copied().unwrap_or(1);
                aliased = aliased.saturating_add(weight);
                size = size.saturating_add(weight);
                if aliased > MAX_ALIASED {
                    return Err(format!(
                        "YAML aliases would expand the file by more than {MAX_ALIASED} nodes and bytes \
                         (line {}): refused as an alias bomb (GNU Radio Companion writes no aliases)",
                        mark.line()
                    ));
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_are_expanded_within_a_bound() {
        let doc = load("a: &x [1, 2]\nb: *x\n").unwrap();
        assert_eq!(doc["b"], doc["a"]);
        let mut bomb = String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for i in 1..=9 {
            bomb += &format!(
                "a{i}: &a{i} [{}]\n",
                vec![format!("*a{}", i - 1); 9].join(", ")
            );
        }
        let e = load(&bomb).unwrap_err();
        assert!(e.contains("alias bomb"), "{e}");
    }

    #[test]
    fn nesting_is_bounded() {
        let ok = format!("{}x\n", "- ".repeat(MAX_DEPTH));
        assert!(load(&ok).is_ok());
        let e = load(&format!("{}x\n", "- ".repeat(100_000))).unwrap_err();
        assert!(e.starts_with("YAML nested more than 64 levels"), "{e}");
    }
}
