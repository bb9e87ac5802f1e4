//! What each runtime wrote in the check run compared, sink by sink: the item counts always,
//! the values where the flowgraph is deterministic (within a tolerance for floating point: the
//! two runtimes' kernels round differently).

use super::transform::Sink;
use std::path::Path;

/// The outcome of comparing what both runtimes wrote.
#[derive(Clone, Debug, PartialEq)]
pub enum Check {
    /// Counts equal and values equal within the tolerance; the largest difference seen
    /// (relative to the largest magnitude of GNU Radio's stream).
    Equal(f64),
    /// Counts equal; values not compared (a random generator in the graph).
    CountsOnly,
    /// What differs.
    Differs(String),
}

impl Check {
    /// The table's cell.
    pub fn cell(&self) -> String {
        match self {
            Check::Equal(d) if *d == 0.0 => "equal".into(),
            Check::Equal(d) => format!("equal ({d:.0e})"),
            Check::CountsOnly => "counts only".into(),
            Check::Differs(why) => format!("DIFFERS: {why}"),
        }
    }

    /// Counts (and values where compared) agree.
    pub fn ok(&self) -> bool {
        !matches!(self, Check::Differs(_))
    }
}

/// Relative difference above which two floating-point streams are said to differ.
pub const TOLERANCE: f64 = 1e-3;

/// Bytes of one scalar of GRC's item type `item`.
pub fn scalar_bytes(item: &str) -> usize {
    match item {
        "complex" | "float" | "int" => 4,
        "short" => 2,
        _ => 1,
    }
}

/// The scalars of `bytes` as f64 (a complex item is two scalars).
fn scalars(item: &str, bytes: &[u8]) -> Vec<f64> {
    match item {
        "complex" | "float" => bytes
            .chunks_exact(4)
            .map(|c| f64::from(f32::from_le_bytes([c[0], c[1], c[2], c[3]])))
            .collect(),
        "int" => bytes
            .chunks_exact(4)
            .map(|c| f64::from(i32::from_le_bytes([c[0], c[1], c[2], c[3]])))
            .collect(),
        "short" => bytes
            .chunks_exact(2)
            .map(|c| f64::from(i16::from_le_bytes([c[0], c[1]])))
            .collect(),
        _ => bytes.iter().map(|b| f64::from(*b)).collect(),
    }
}

/// Compares the streams of one sink: `ours` against `theirs` (GNU Radio's); values only when
/// `values`.
pub fn compare(sink: &Sink, ours: &[u8], theirs: &[u8], values: bool) -> Check {
    let per_item = scalar_bytes(sink.item) * if sink.item == "complex" { 2 } else { 1 } * sink.vlen;
    let (n, m) = (ours.len() / per_item, theirs.len() / per_item);
    if n != m {
        return Check::Differs(format!(
            "{} ({}) read {n} items in radioflow, {m} in GNU Radio",
            sink.name, sink.from
        ));
    }
    if !values {
        return Check::CountsOnly;
    }
    let (a, b) = (scalars(sink.item, ours), scalars(sink.item, theirs));
    let exact = !matches!(sink.item, "complex" | "float");
    let peak = b.iter().fold(0.0f64, |p, v| p.max(v.abs())).max(1e-30);
    let mut worst = (0.0f64, 0usize);
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        let d = if x.is_nan() && y.is_nan() {
            0.0
        } else {
            (x - y).abs()
        };
        if d > worst.0 || d.is_nan() {
            worst = (d, i);
        }
    }
    let relative = worst.0 / peak;
    let per_item_scalars = per_item / scalar_bytes(sink.item);
    let at = worst.1 / per_item_scalars;
    if (exact && worst.0 > 0.0) || relative.is_nan() || relative > TOLERANCE {
        return Check::Differs(format!(
            "{} ({}) item {at}: {} in radioflow, {} in GNU Radio",
            sink.name, sink.from, a[worst.1], b[worst.1]
        ));
    }
    Check::Equal(relative)
}

/// Compares every sink's files in `ours` and `theirs` (`<sink>.bin`); the worst outcome.
pub fn compare_files(sinks: &[Sink], ours: &Path, theirs: &Path, values: bool) -> Check {
    let mut worst = if values {
        Check::Equal(0.0)
    } else {
        Check::CountsOnly
    };
    for s in sinks {
        let read = |dir: &Path| std::fs::read(dir.join(format!("{}.bin", s.name)));
        let (a, b) = match (read(ours), read(theirs)) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(e), _) | (_, Err(e)) => {
                return Check::Differs(format!("{}: {e}", s.name));
            }
        };
        match compare(s, &a, &b, values) {
            d @ Check::Differs(_) => return d,
            Check::Equal(r) => {
                if let Check::Equal(w) = &mut worst {
                    *w = w.max(r);
                }
            }
            Check::CountsOnly => {}
        }
    }
    worst
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sink(item: &'static str) -> Sink {
        Sink {
            name: "rfbench_sink_0".into(),
            item,
            vlen: 1,
            from: "src:0".into(),
        }
    }

    fn floats(v: &[f32]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    #[test]
    fn counts_and_values_are_compared() {
        let s = sink("complex");
        let a = floats(&[1.0, 0.0, 0.5, -0.5]);
        assert_eq!(compare(&s, &a, &a, true), Check::Equal(0.0));
        let near = floats(&[1.0, 0.0, 0.5, -0.5001]);
        assert!(
            matches!(compare(&s, &a, &near, true), Check::Equal(r) if r > 0.0 && r < TOLERANCE)
        );
        let far = floats(&[1.0, 0.0, 0.5, 0.5]);
        let Check::Differs(why) = compare(&s, &a, &far, true) else {
            panic!("a sign flipped is a difference");
        };
        assert!(why.contains("item 1"), "{why}");
        let short = floats(&[1.0, 0.0]);
        let Check::Differs(why) = compare(&s, &a, &short, false) else {
            panic!("a missing item is a difference even for counts only");
        };
        assert!(
            why.contains("2 items in radioflow, 1 in GNU Radio"),
            "{why}"
        );
        assert_eq!(compare(&s, &a, &far, false), Check::CountsOnly);
    }

    #[test]
    fn integers_compare_exactly() {
        let s = sink("short");
        let a: Vec<u8> = [1i16, 2, 3].iter().flat_map(|x| x.to_le_bytes()).collect();
        let b: Vec<u8> = [1i16, 2, 4].iter().flat_map(|x| x.to_le_bytes()).collect();
        assert_eq!(compare(&s, &a, &a, true), Check::Equal(0.0));
        assert!(!compare(&s, &a, &b, true).ok());
    }
}
