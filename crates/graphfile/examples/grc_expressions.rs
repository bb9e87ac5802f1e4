//! Measures the GRC expression evaluator on a folder of flowgraphs: evaluates every variable
//! and every block parameter of every YAML `.grc` under the folder, as `radioflow run` does,
//! and prints the failures grouped by cause, most frequent first, each with an example.
//!
//! ```text
//! cargo run -p radioflow-graphfile --example grc_expressions -- /usr/share/gnuradio/examples
//! ```
//!
//! Which parameters are expressions: GNU Radio Companion's block definitions say
//! (`/usr/share/gnuradio/grc/blocks/*.block.yml`, or the folder given second): parameters
//! GRC takes as text (`string`, file names, GUI hints, code) are left out, and so are `enum`
//! parameters whose choice is a plain word (`complex`, `float`); an `enum` choice that names
//! a module constant (`window.WIN_HAMMING`) is evaluated. A failure is counted once, where
//! it arises: a parameter (or variable) that fails only because a variable it names failed
//! is counted apart, as "through a variable".

use radioflow_graphfile::grc::{evaluate, ExprError};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use yaml_rust2::{Yaml, YamlLoader};

/// The block ids whose `value` is a variable of the flowgraph (as in `grc/mod.rs`).
const VARIABLES: &[&str] = &[
    "variable",
    "parameter",
    "variable_qtgui_range",
    "variable_qtgui_entry",
    "variable_qtgui_chooser",
    "variable_qtgui_label",
    "variable_qtgui_check_box",
];

/// Block ids that are not blocks of the graph, or whose parameters are code or text.
const IGNORED: &[&str] = &[
    "options",
    "import",
    "note",
    "epy_block",
    "epy_module",
    "virtual_sink",
    "virtual_source",
];

/// Parameters every block has that are not expressions, and those `radioflow run` takes as
/// written (`type`, `file`: `RAW` in `grc/mod.rs`).
const TEXT_PARAMS: &[&str] = &["comment", "alias", "affinity", "type", "file"];

/// Parameter types GRC does not evaluate.
const TEXT_TYPES: &[&str] = &[
    "string",
    "file_open",
    "file_save",
    "dir_select",
    "gui_hint",
    "_multiline",
    "_multiline_python_external",
    "name",
    "id",
];

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next() else {
        eprintln!("usage: grc_expressions DIR [GRC_BLOCKS_DIR]");
        std::process::exit(2);
    };
    let defs_dir = args
        .next()
        .unwrap_or_else(|| "/usr/share/gnuradio/grc/blocks".into());
    let types = param_types(Path::new(&defs_dir));
    let mut files = Vec::new();
    walk(Path::new(&dir), &mut files);
    files.sort();

    let mut tally = Tally::default();
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let Some(doc) = YamlLoader::load_from_str(&text)
            .ok()
            .and_then(|d| d.into_iter().next())
            .filter(|d| matches!(d["metadata"]["file_format"], Yaml::Integer(1)))
        else {
            tally.not_yaml += 1;
            continue;
        };
        tally.files += 1;
        let short = file
            .strip_prefix(&dir)
            .unwrap_or(file)
            .display()
            .to_string();
        measure(&doc, &short, &types, &mut tally);
    }
    tally.print();
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out);
        } else if path.extension().is_some_and(|e| e == "grc") {
            out.push(path);
        }
    }
}

/// (block id, parameter id) -> GRC's dtype, from the block definitions. Read line by line:
/// GNU Radio writes them in one layout (`id:` at the top, `-   id:` and `    dtype:` for
/// each parameter), and a few of them are YAML that yaml-rust2 refuses.
fn param_types(dir: &Path) -> HashMap<(String, String), String> {
    let mut types = HashMap::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        eprintln!(
            "note: no block definitions in {}: every parameter is evaluated",
            dir.display()
        );
        return types;
    };
    for entry in entries.flatten() {
        let Ok(text) = std::fs::read_to_string(entry.path()) else {
            continue;
        };
        let (mut block, mut param) = (None, None);
        for line in text.lines() {
            let value = |key: &str| line.split_once(key).map(|(_, v)| v.trim().to_owned());
            if line.starts_with("id:") {
                block = value("id:");
            } else if line.starts_with('-') && line[1..].trim_start().starts_with("id:") {
                param = value("id:");
            } else if line.trim_start().starts_with("dtype:") && line.starts_with(' ') {
                if let (Some(b), Some(p), Some(t)) = (&block, &param, value("dtype:")) {
                    types.insert((b.clone(), p.clone()), t);
                }
            } else if !line.starts_with([' ', '-']) {
                param = None;
            }
        }
    }
    types
}

fn scalar(y: &Yaml) -> Option<String> {
    match y {
        Yaml::String(s) | Yaml::Real(s) => Some(s.clone()),
        Yaml::Integer(i) => Some(i.to_string()),
        Yaml::Boolean(b) => Some(if *b { "True" } else { "False" }.into()),
        _ => None,
    }
}

struct Block {
    name: String,
    id: String,
    params: Vec<(String, String)>,
    enabled: bool,
}

fn blocks(doc: &Yaml) -> Vec<Block> {
    doc["blocks"]
        .as_vec()
        .into_iter()
        .flatten()
        .filter_map(|b| {
            let params = b["parameters"]
                .as_hash()
                .into_iter()
                .flatten()
                .filter_map(|(k, v)| Some((scalar(k)?, scalar(v)?)))
                .collect();
            let state = scalar(&b["states"]["state"]);
            Some(Block {
                name: scalar(&b["name"])?,
                id: scalar(&b["id"])?,
                params,
                enabled: !matches!(state.as_deref(), Some("disabled" | "False" | "false")),
            })
        })
        .collect()
}

fn measure(doc: &Yaml, file: &str, types: &HashMap<(String, String), String>, tally: &mut Tally) {
    let all = blocks(doc);
    let vars: Vec<(&str, &str)> = all
        .iter()
        .filter(|b| b.enabled && VARIABLES.contains(&b.id.as_str()))
        .filter_map(|b| {
            let value = b.params.iter().find(|(k, _)| k == "value")?;
            Some((b.name.as_str(), value.1.as_str()))
        })
        .collect();
    let mut own_failed_here = 0;
    for &(name, text) in &vars {
        tally.variables += 1;
        if let Err(e) = evaluate(name, &vars) {
            let at = format!("{file}: {name} = {}", short(text));
            match e {
                ExprError::Variable {
                    name: culprit,
                    source,
                    ..
                } if culprit == name => {
                    tally.variables_failed += 1;
                    own_failed_here += 1;
                    tally.add(&source, at);
                }
                ExprError::Variable { source, .. } => {
                    tally.variables_through += 1;
                    tally.add_through(&source);
                }
                _ => {}
            }
        }
    }
    if own_failed_here > 0 {
        tally.files_with_failed_variables += 1;
    }
    for b in &all {
        if !b.enabled || VARIABLES.contains(&b.id.as_str()) || IGNORED.contains(&b.id.as_str()) {
            continue;
        }
        for (k, text) in &b.params {
            if TEXT_PARAMS.contains(&k.as_str()) || text.trim().is_empty() {
                continue;
            }
            match types.get(&(b.id.clone(), k.clone())).map(String::as_str) {
                Some(t) if TEXT_TYPES.contains(&t) => continue,
                Some("enum") if !text.contains('.') => continue,
                _ => {}
            }
            tally.params += 1;
            match evaluate(text, &vars) {
                Ok(_) => {}
                Err(ExprError::Variable { source, .. }) => {
                    tally.params_through += 1;
                    tally.add_through(&source);
                }
                Err(e) => {
                    tally.params_failed += 1;
                    tally.add(&e, format!("{file}: {}.{k} = {}", b.name, short(text)));
                }
            }
        }
    }
}

fn short(text: &str) -> String {
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match one_line.char_indices().nth(90) {
        Some((i, _)) => format!("{}...", &one_line[..i]),
        None => one_line,
    }
}

/// The cause of a failure, general enough to group: the error's message, cut.
fn kind(e: &ExprError) -> String {
    let message = e.to_string();
    match message.char_indices().nth(70) {
        Some((i, _)) => format!("{}...", &message[..i]),
        None => message,
    }
}

#[derive(Default)]
struct Tally {
    files: usize,
    not_yaml: usize,
    variables: usize,
    variables_failed: usize,
    variables_through: usize,
    files_with_failed_variables: usize,
    params: usize,
    params_failed: usize,
    params_through: usize,
    /// Cause -> (failures of its own, failures through a variable of this cause, first
    /// example).
    kinds: BTreeMap<String, (usize, usize, String)>,
}

impl Tally {
    fn add(&mut self, e: &ExprError, at: String) {
        let k = self.kinds.entry(kind(e)).or_default();
        k.0 += 1;
        if k.2.is_empty() {
            k.2 = at;
        }
    }

    fn add_through(&mut self, e: &ExprError) {
        self.kinds.entry(kind(e)).or_default().1 += 1;
    }

    fn print(&self) {
        println!(
            "{} flowgraphs (YAML); {} other .grc files skipped (XML or not GRC)",
            self.files, self.not_yaml
        );
        println!(
            "variables:  {} evaluated, {} fail ({} flowgraphs), {} more only through a failing variable",
            self.variables,
            self.variables_failed,
            self.files_with_failed_variables,
            self.variables_through
        );
        println!(
            "parameters: {} evaluated, {} fail, {} more only through a failing variable",
            self.params, self.params_failed, self.params_through
        );
        let mut kinds: Vec<_> = self.kinds.iter().collect();
        kinds.sort_by(|a, b| (b.1 .0 + b.1 .1).cmp(&(a.1 .0 + a.1 .1)).then(a.0.cmp(b.0)));
        println!(
            "\ncauses, most frequent first: failures of their own (variables and parameters), \
             + more through a variable that fails of it"
        );
        for (kind, (own, through, example)) in kinds {
            println!("{own:5} +{through:4}  {kind}\n             e.g. {example}");
        }
    }
}
