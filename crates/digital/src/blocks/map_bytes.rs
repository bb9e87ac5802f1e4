//! [`MapBytes`]: each byte through a table.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Each byte `b` as `map[b]`, bytes beyond the map unchanged (GNU Radio's `map_bb`); tags
/// kept.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_digital::MapBytes;
/// use radioflow_runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0u8, 1, 2, 3, 7]));
/// let map = fg.add(MapBytes::new(&[0, 1, 3, 2]));
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, map)?;
/// fg.connect(map, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &[0, 1, 3, 2, 7]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "map_bytes",
    summary = "Each byte b as map[b], bytes beyond the map unchanged (GNU Radio's map_bb).",
    make = Self::new(&bytes(&map).map_err(|e| Refused::param("map", e))?)
)]
#[param(map: Vec<f64>, doc = "the byte each byte value becomes (whole numbers -128 to 255, a negative one as the signed byte GNU Radio stores it: -1 is 255; entries past 256 unused)")]
#[derive(Debug)]
pub struct MapBytes {
    /// Bytes.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// The mapped bytes, with the input's tags.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    table: [u8; 256],
}

/// The map's values as bytes. GNU Radio's map_bb casts its ints to `unsigned char`:
/// `map_bb([-1, 1])` followed by `char_to_float` is its usual BPSK mapping, so a value a
/// signed byte holds becomes that byte (-1 is 255).
fn bytes(map: &[f64]) -> Result<Vec<u8>, String> {
    map.iter()
        .map(|&v| {
            if v.fract() == 0.0 && (-128.0..=255.0).contains(&v) {
                Ok(v as i16 as u8)
            } else {
                Err(format!("holds {v}, not a byte value (-128 to 255)"))
            }
        })
        .collect()
}

#[block]
impl MapBytes {
    /// Maps byte `b` to `map[b]` (the identity beyond `map`; entries past 256 unused).
    pub fn new(map: &[u8]) -> Self {
        let mut table = [0u8; 256];
        for (i, t) in table.iter_mut().enumerate() {
            *t = map.get(i).copied().unwrap_or(i as u8);
        }
        Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            table,
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let table = &self.table;
        one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |x, y| {
            for (o, i) in y.iter_mut().zip(x) {
                *o = table[usize::from(*i)];
            }
        });
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negative_values_are_signed_bytes_as_in_gnu_radio() {
        // GNU Radio 3.10: map_bb([-1, 1]) maps 0 to 255, 1 to 1.
        assert_eq!(
            bytes(&[-1.0, 1.0, -128.0, 255.0]).unwrap(),
            [255, 1, 128, 255]
        );
        assert!(bytes(&[300.0]).is_err());
        assert!(bytes(&[-129.0]).is_err());
        assert!(bytes(&[0.5]).is_err());
    }
}
