//! The GNU Radio table against the two things it joins: radioflow's registry (always) and GNU
//! Radio's own block definitions (the `.block.yml` files of an installed GNU Radio 3.10;
//! SKIPPED where there are none).

use radioflow_library::gnuradio::{self, GrBlock, To};
use radioflow_runtime::registry;
use std::collections::HashMap;
use std::path::Path;
use yaml_rust2::{Yaml, YamlLoader};

/// Where Debian's GNU Radio puts its block definitions.
const GRC_BLOCKS: &str = "/usr/share/gnuradio/grc/blocks";

/// Every radioflow parameter a row can give its block.
fn our_params(row: &GrBlock) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = row
        .params
        .iter()
        .filter_map(|p| match p.to {
            To::Param(n) | To::Convert(n, _) | To::Word(n) => Some(n),
            To::Only(..) | To::NoEffect(_) => None,
        })
        .collect();
    names.extend(row.fixed.iter().map(|(n, _)| *n));
    names.extend(row.extra.iter().copied());
    names
}

#[test]
fn every_row_names_a_block_its_parameters_and_types_of_the_registry() {
    radioflow_library::link();
    let mut ids = std::collections::HashSet::new();
    for row in gnuradio::rows() {
        assert!(ids.insert(row.id), "{} has two rows", row.id);
        let d = registry::find(row.block)
            .unwrap_or_else(|| panic!("{}: radioflow has no block {}", row.id, row.block));
        for name in our_params(row) {
            // A chosen block (a decimating FIR) takes what the row's block does not; what
            // chooses the block and its item type (chunks_to_symbols' `in_type`, `out_type`)
            // and psk_mod's `mod_code`, which chooses its constellation, are not parameters of
            // the block.
            // The FIR rows' `delay` (GNU Radio's samp_delay) goes to the complex-taps blocks;
            // their `choose` refuses a nonzero one for the real-taps ones.
            // Names starting with `_` are read by `choose` only (a filter's firdes design).
            let chosen = (matches!(
                name,
                "decimation" | "interpolation" | "in_type" | "out_type" | "delay" | "mod_code"
            ) || name.starts_with('_'))
                && row.choose.is_some();
            assert!(
                d.param(name).is_some() || chosen,
                "{}: {} has no parameter {name}",
                row.id,
                row.block
            );
        }
        for t in row.types {
            // An option that becomes another block takes its parameters too.
            let (block, d) = match t.block {
                Some(b) => (
                    b,
                    registry::find(b)
                        .unwrap_or_else(|| panic!("{}: radioflow has no block {b}", row.id)),
                ),
                None => (row.block, d),
            };
            if t.block.is_some() {
                for name in our_params(row) {
                    let chosen = (matches!(name, "decimation" | "interpolation" | "delay")
                        || name.starts_with('_'))
                        && row.choose.is_some();
                    assert!(
                        d.param(name).is_some() || chosen,
                        "{}: type {}: {block} has no parameter {name}",
                        row.id,
                        t.option
                    );
                }
            }
            match t.dtype {
                Some(dtype) => assert!(
                    d.dtypes.contains(&dtype),
                    "{}: type {} is {dtype:?}, which {block} does not take",
                    row.id,
                    t.option
                ),
                None => assert!(
                    !t.why.is_empty(),
                    "{}: {} refused without a reason",
                    row.id,
                    t.option
                ),
            }
        }
        for p in row.params {
            if let To::Only(_, why) | To::NoEffect(why) = p.to {
                assert!(!why.is_empty(), "{}: {} without a reason", row.id, p.key);
            }
        }
    }
}

/// GNU Radio's definitions by id (several files may hold one id's versions: the last wins).
fn gnuradio_definitions(dir: &Path) -> HashMap<String, Yaml> {
    let mut defs = HashMap::new();
    for entry in std::fs::read_dir(dir).expect("GNU Radio's block folder") {
        let path = entry.expect("a file").path();
        if !path.to_string_lossy().ends_with(".block.yml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable");
        let Ok(docs) = YamlLoader::load_from_str(&text) else {
            continue;
        };
        if let Some(doc) = docs.into_iter().next()
            && let Some(id) = doc["id"].as_str()
        {
            defs.insert(id.to_owned(), doc);
        }
    }
    defs
}

/// A GRC template as the table writes it: blanks removed, `${x}` as `{x}`.
fn normalized(template: &str) -> String {
    template
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .replace("${", "{")
}

#[test]
fn every_row_agrees_with_gnu_radio_s_own_definition() {
    let dir = Path::new(GRC_BLOCKS);
    if !dir.is_dir() {
        println!("SKIPPED: GNU Radio's block definitions ({GRC_BLOCKS}) are not installed");
        return;
    }
    let defs = gnuradio_definitions(dir);
    let mut checked = 0;
    for row in gnuradio::rows() {
        let Some(def) = defs.get(row.id) else {
            assert!(
                row.make.is_empty(),
                "{} is not in the installed GNU Radio but its row gives a make template",
                row.id
            );
            println!("not in the installed GNU Radio, not checked: {}", row.id);
            continue;
        };
        let params = def["parameters"].as_vec().cloned().unwrap_or_default();
        let mut keys: Vec<&str> = params.iter().filter_map(|p| p["id"].as_str()).collect();
        // Every GNU Radio parameter is decided, and the row names no other.
        let type_param = params.iter().find(|p| p["id"].as_str() == Some("type"));
        keys.retain(|k| *k != "type");
        let mut ours: Vec<&str> = row.params.iter().map(|p| p.key).collect();
        keys.sort_unstable();
        ours.sort_unstable();
        assert_eq!(
            ours, keys,
            "{}: the row's parameters are not GNU Radio's",
            row.id
        );
        // Every option of `type` is mapped or refused, in GRC's order.
        let options: Vec<&str> = type_param
            .and_then(|t| t["options"].as_vec())
            .map(|o| o.iter().filter_map(Yaml::as_str).collect())
            .unwrap_or_default();
        let our_options: Vec<&str> = row.types.iter().map(|t| t.option).collect();
        assert_eq!(
            our_options, options,
            "{}: the row's types are not GNU Radio's",
            row.id
        );
        // The Python constructor is GNU Radio's.
        let make = def["templates"]["make"].as_str().unwrap_or_default();
        assert!(
            normalized(make).starts_with(row.make) && !row.make.is_empty(),
            "{}: the row's make template {:?} is not GNU Radio's {:?}",
            row.id,
            row.make,
            normalized(make)
        );
        checked += 1;
    }
    assert!(checked > 0);
    println!("{checked} rows agree with GNU Radio's definitions");
}
