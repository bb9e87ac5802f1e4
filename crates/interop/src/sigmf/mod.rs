//! SigMF recordings (the Signal Metadata Format, <https://sigmf.org>): a `.sigmf-meta` JSON
//! document beside a `.sigmf-data` file of samples, or both in a `.sigmf` tar archive.
//!
//! - [`Recording::open`] finds the metadata and the samples of a recording (any of its names,
//!   or an archive, whose data is read in place).
//! - [`Metadata`] is the document; [`Datatype`] the sample format with its conversions.
//! - [`stream_tags`] turns captures and annotations into stream tags with GNU Radio's keys
//!   (`rx_rate`, `rx_freq`, `rx_time` as UHD's source sends them; `annotation`), and
//!   [`CaptureLog`] turns such tags back into captures and annotations.
//!
//! The blocks are [`SigmfSource`] and [`SigmfSink`].

mod datatype;
mod error;
mod item;
mod meta;
mod recording;
mod sink;
mod source;
mod tags;
pub mod time;

pub use datatype::{Datatype, ScalarFormat, UnknownDatatype};
pub use error::SigmfError;
pub use item::SigmfItem;
pub use meta::{Annotation, Capture, Global, Metadata, VERSION};
#[doc(hidden)]
pub use recording::archive_data_span;
pub use recording::{is_sigmf, Location, Recording};
pub use sink::SigmfSink;
pub use source::SigmfSource;
pub use tags::{stream_tags, CaptureLog, ANNOTATION, RX_FREQ, RX_RATE, RX_TIME};

pub(crate) use item::check_item;
pub(crate) use recording::sha512_hex;

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::Pmt;
    use std::path::Path;

    fn parse(json: &str) -> Result<Metadata, SigmfError> {
        Metadata::parse(Path::new("x.sigmf-meta"), json.as_bytes())
    }

    #[test]
    fn locations_from_any_name() {
        let pair = Location::Pair {
            meta: "d/rec.sigmf-meta".into(),
            data: "d/rec.sigmf-data".into(),
        };
        for name in ["d/rec", "d/rec.sigmf-meta", "d/rec.sigmf-data"] {
            assert_eq!(Location::of(Path::new(name)), pair, "{name}");
        }
        assert_eq!(
            Location::of(Path::new("d/rec.sigmf")),
            Location::Archive("d/rec.sigmf".into())
        );
    }

    #[test]
    fn malformed_metadata_names_the_field() {
        let cases = [
            (r#"{"global": {"core:version": "1.0.0"}}"#, "x.sigmf-meta: global: missing field `core:datatype`"),
            (
                r#"{"global": {"core:datatype": "cf33_le", "core:version": "1.0.0"}}"#,
                "x.sigmf-meta: global.core:datatype: 'cf33_le' is not a SigMF datatype",
            ),
            (
                r#"{"global": {"core:datatype": "cf32_le", "core:version": "1", "core:sample_rate": "fast"}}"#,
                "x.sigmf-meta: global.core:sample_rate: invalid type: string \"fast\", expected f64",
            ),
            (
                r#"{"global": {"core:datatype": "cf32_le", "core:version": "1"}, "captures": [{"core:sample_start": 0, "core:datetime": "yesterday"}]}"#,
                "x.sigmf-meta: captures[0].core:datetime: 'yesterday' is not an RFC 3339 UTC time",
            ),
            (
                r#"{"global": {"core:datatype": "cf32_le", "core:version": "1"}, "captures": [{"core:frequency": 1e6}]}"#,
                "x.sigmf-meta: captures[0]: missing field `core:sample_start`",
            ),
            (
                r#"{"global": {"core:datatype": "cf32_le", "core:version": "1"}, "captures": [{"core:sample_start": 5}, {"core:sample_start": 5}]}"#,
                "x.sigmf-meta: captures[1].core:sample_start: captures must be in increasing order",
            ),
            (
                r#"{"global": {"core:datatype": "cf32_le", "core:version": "1", "core:num_channels": 2}}"#,
                "x.sigmf-meta: global.core:num_channels: 2 channels",
            ),
            ("{\"global\": ", "x.sigmf-meta: global: EOF while parsing"),
        ];
        for (json, want) in cases {
            let e = parse(json).unwrap_err().to_string();
            assert!(e.starts_with(want), "{json}\n  gave: {e}\n  want: {want}");
        }
    }

    #[test]
    fn errors_cut_long_echoes_of_the_file() {
        let huge = "x".repeat(5 << 20);
        for json in [
            format!(r#"{{"global": {{"core:datatype": "{huge}", "core:version": "1"}}}}"#),
            format!(
                r#"{{"global": {{"core:datatype": "cf32_le", "core:version": "1", "core:sample_rate": "{huge}"}}}}"#
            ),
            format!(
                r#"{{"global": {{"core:datatype": "cf32_le", "core:version": "1"}}, "captures": [{{"core:sample_start": 0, "core:datetime": "{huge}"}}]}}"#
            ),
        ] {
            let e = parse(&json).unwrap_err().to_string();
            assert!(e.len() < 1200, "{} bytes: {}...", e.len(), &e[..100]);
            assert!(e.contains("bytes cut"), "{e}");
        }
    }

    #[test]
    fn captures_and_annotations_become_tags_and_back() {
        let meta = parse(
            r#"{"global": {"core:datatype": "ci16_le", "core:version": "1.2.0", "core:sample_rate": 2e6},
                "captures": [
                  {"core:sample_start": 0, "core:frequency": 100e6, "core:datetime": "2023-11-14T22:13:20.25Z"},
                  {"core:sample_start": 1000, "core:frequency": 101e6}],
                "annotations": [{"core:sample_start": 10, "core:sample_count": 20, "core:label": "burst",
                                 "core:freq_lower_edge": 99e6, "core:freq_upper_edge": 100.5e6, "x:snr": 12.5}]}"#,
        )
        .unwrap();
        let tags = stream_tags(&meta);
        let time = Pmt::Tuple(vec![Pmt::Uint64(1_700_000_000), Pmt::Double(0.25)].into());
        let keys: Vec<(u64, &str)> = tags
            .iter()
            .map(|t| (t.offset, t.key.as_symbol().unwrap()))
            .collect();
        assert_eq!(
            keys,
            [
                (0, RX_RATE),
                (0, RX_FREQ),
                (0, RX_TIME),
                (10, ANNOTATION),
                (1000, RX_RATE),
                (1000, RX_FREQ)
            ]
        );
        assert_eq!(tags[0].value, Pmt::Double(2e6));
        assert_eq!(tags[2].value, time);
        let mut log = CaptureLog::new(Datatype::parse("ci16_le").unwrap(), None);
        for t in &tags {
            log.add(t);
        }
        let back = log.finish();
        assert_eq!(back.global.sample_rate, Some(2e6));
        assert_eq!(back.captures, meta.captures);
        assert_eq!(back.annotations, meta.annotations);
    }
}
