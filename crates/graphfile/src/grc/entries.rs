//! The block entries of a `.grc` file's YAML (`blocks:`): name, id, parameters as written,
//! state.

use radioflow_runtime::echo::cut;
use std::collections::HashMap;
use yaml_rust2::Yaml;

/// One block entry of the file.
pub(super) struct Entry {
    pub(super) name: String,
    pub(super) id: String,
    pub(super) params: HashMap<String, String>,
    pub(super) state: String,
}

pub(super) fn scalar(y: &Yaml) -> Option<String> {
    match y {
        Yaml::String(s) | Yaml::Real(s) => Some(s.clone()),
        Yaml::Integer(i) => Some(i.to_string()),
        Yaml::Boolean(b) => Some(if *b { "True" } else { "False" }.into()),
        Yaml::Null => Some(String::new()),
        _ => None,
    }
}

pub(super) fn entries(doc: &Yaml) -> Result<Vec<Entry>, String> {
    let Yaml::Array(list) = &doc["blocks"] else {
        return Err("no 'blocks' list (is this a GRC file?)".into());
    };
    list.iter()
        .enumerate()
        .map(|(i, b)| {
            let name = scalar(&b["name"]).ok_or_else(|| format!("block {i} has no name"))?;
            let id = scalar(&b["id"]).ok_or_else(|| format!("block '{}' has no id", cut(&name)))?;
            let mut params = HashMap::new();
            if let Yaml::Hash(h) = &b["parameters"] {
                for (k, v) in h {
                    if let (Some(k), Some(v)) = (scalar(k), scalar(v)) {
                        params.insert(k, v);
                    }
                }
            }
            // GRC writes `enabled`, `disabled` or `bypassed`; older files `true`/`false`.
            let state = match scalar(&b["states"]["state"]).as_deref() {
                None | Some("True" | "true" | "enabled") => "enabled".to_owned(),
                Some("False" | "false" | "disabled") => "disabled".to_owned(),
                Some(other) => other.to_owned(),
            };
            Ok(Entry {
                name,
                id,
                params,
                state,
            })
        })
        .collect()
}
