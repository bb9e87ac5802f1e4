//! The SigMF metadata document (`.sigmf-meta`): the core fields of `global`, `captures` and
//! `annotations`, read with serde_json. Fields of extensions and unknown core fields are kept
//! as they are (`extra`) and written back.

use super::{datatype::Datatype, time, SigmfError};
use radioflow_runtime::echo::{cut, cut_message};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::path::Path;

/// The SigMF specification version written.
pub const VERSION: &str = "1.2.0";

/// A `.sigmf-meta` document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Metadata {
    /// The `global` object.
    pub global: Global,
    /// Segments of the recording, in order of `core:sample_start`.
    #[serde(default)]
    pub captures: Vec<Capture>,
    /// Annotations, in order of `core:sample_start`.
    #[serde(default)]
    pub annotations: Vec<Annotation>,
}

/// The `global` object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Global {
    /// `core:datatype`.
    #[serde(rename = "core:datatype")]
    pub datatype: Datatype,
    /// `core:sample_rate`, samples per second.
    #[serde(
        rename = "core:sample_rate",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub sample_rate: Option<f64>,
    /// `core:version`.
    #[serde(rename = "core:version")]
    pub version: String,
    /// `core:num_channels` (only 1 is read).
    #[serde(
        rename = "core:num_channels",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub num_channels: Option<u64>,
    /// `core:offset`: the index of the first sample in a larger recording.
    #[serde(
        rename = "core:offset",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub offset: Option<u64>,
    /// `core:description`.
    #[serde(
        rename = "core:description",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub description: Option<String>,
    /// `core:author`.
    #[serde(
        rename = "core:author",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub author: Option<String>,
    /// `core:recorder`: the program that wrote the recording.
    #[serde(
        rename = "core:recorder",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub recorder: Option<String>,
    /// `core:hw`.
    #[serde(rename = "core:hw", default, skip_serializing_if = "Option::is_none")]
    pub hw: Option<String>,
    /// `core:license`.
    #[serde(
        rename = "core:license",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub license: Option<String>,
    /// `core:sha512` of the data file.
    #[serde(
        rename = "core:sha512",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub sha512: Option<String>,
    /// Every other field.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One entry of `captures`: where a segment starts and how it was received.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Capture {
    /// `core:sample_start`: the segment's first sample.
    #[serde(rename = "core:sample_start")]
    pub sample_start: u64,
    /// `core:frequency`: the center frequency, Hz.
    #[serde(
        rename = "core:frequency",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub frequency: Option<f64>,
    /// `core:datetime`: the time of `sample_start` (RFC 3339, UTC).
    #[serde(
        rename = "core:datetime",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub datetime: Option<String>,
    /// `core:global_index`: the sample's index in the recorder's own count.
    #[serde(
        rename = "core:global_index",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub global_index: Option<u64>,
    /// `core:header_bytes`: bytes to skip before the segment (only 0 is read).
    #[serde(
        rename = "core:header_bytes",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub header_bytes: Option<u64>,
    /// Every other field.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One entry of `annotations`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Annotation {
    /// `core:sample_start`.
    #[serde(rename = "core:sample_start")]
    pub sample_start: u64,
    /// `core:sample_count`.
    #[serde(
        rename = "core:sample_count",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub sample_count: Option<u64>,
    /// `core:freq_lower_edge`, Hz.
    #[serde(
        rename = "core:freq_lower_edge",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub freq_lower_edge: Option<f64>,
    /// `core:freq_upper_edge`, Hz.
    #[serde(
        rename = "core:freq_upper_edge",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub freq_upper_edge: Option<f64>,
    /// `core:label`.
    #[serde(
        rename = "core:label",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub label: Option<String>,
    /// `core:comment`.
    #[serde(
        rename = "core:comment",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub comment: Option<String>,
    /// `core:generator`.
    #[serde(
        rename = "core:generator",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub generator: Option<String>,
    /// `core:uuid`.
    #[serde(rename = "core:uuid", default, skip_serializing_if = "Option::is_none")]
    pub uuid: Option<String>,
    /// Every other field.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Metadata {
    /// A document for `datatype` (at `sample_rate`, if known) with no captures.
    pub fn new(datatype: Datatype, sample_rate: Option<f64>) -> Self {
        Self {
            global: Global {
                datatype,
                sample_rate,
                version: VERSION.to_owned(),
                num_channels: None,
                offset: None,
                description: None,
                author: None,
                recorder: Some(concat!("radioflow ", env!("CARGO_PKG_VERSION")).to_owned()),
                hw: None,
                license: None,
                sha512: None,
                extra: Map::new(),
            },
            captures: Vec::new(),
            annotations: Vec::new(),
        }
    }

    /// Parses and checks a document read from `file` (named in errors).
    ///
    /// # Errors
    /// [`SigmfError::Field`] naming the field (`global.core:sample_rate`,
    /// `captures[2].core:datetime`, ...): malformed JSON, a missing or mistyped field, an
    /// unknown datatype, a time that is not RFC 3339 UTC, captures or annotations out of order,
    /// and what is not read (several channels, header bytes).
    pub fn parse(file: &Path, bytes: &[u8]) -> Result<Self, SigmfError> {
        // Both may repeat what the file holds (a key, a value of any length): cut long echoes.
        let field = |field: String, message: String| SigmfError::Field {
            file: file.to_owned(),
            field: cut(&field).into_owned(),
            message: cut_message(&message).into_owned(),
        };
        let mut de = serde_json::Deserializer::from_slice(bytes);
        let meta: Metadata = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            let at = if path == "." { "document".into() } else { path };
            field(at, inner.to_string())
        })?;
        if let Some(n) = meta.global.num_channels.filter(|&n| n != 1) {
            return Err(field(
                "global.core:num_channels".into(),
                format!("{n} channels: only single-channel recordings are read"),
            ));
        }
        if meta
            .global
            .sample_rate
            .is_some_and(|r| !(r.is_finite() && r > 0.0))
        {
            return Err(field(
                "global.core:sample_rate".into(),
                "must be a positive number".into(),
            ));
        }
        for (i, c) in meta.captures.iter().enumerate() {
            if let Some(text) = &c.datetime {
                time::parse(text).map_err(|m| field(format!("captures[{i}].core:datetime"), m))?;
            }
            if c.header_bytes.is_some_and(|b| b != 0) {
                return Err(field(
                    format!("captures[{i}].core:header_bytes"),
                    "header bytes inside the data are not read".into(),
                ));
            }
            if i > 0 && c.sample_start <= meta.captures[i - 1].sample_start {
                return Err(field(
                    format!("captures[{i}].core:sample_start"),
                    "captures must be in increasing order of sample_start".into(),
                ));
            }
        }
        for (i, a) in meta.annotations.iter().enumerate() {
            if i > 0 && a.sample_start < meta.annotations[i - 1].sample_start {
                return Err(field(
                    format!("annotations[{i}].core:sample_start"),
                    "annotations must be in order of sample_start".into(),
                ));
            }
        }
        Ok(meta)
    }

    /// The document as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("metadata serializes")
    }
}
