//! Hostile GRC flowgraphs: expressions nested deeper than any stack, values that double until
//! memory runs out, YAML alias bombs, 64-bit edge cases. Each is a clear error naming the limit
//! (or, for a long chain of variables, a value), never a crash and never unbounded memory.
//!
//! Each case runs in a child process (this test binary again, with the case named in
//! `CASE_ENV`), on a test thread's 2 MiB stack and with its address space limited to 4 GiB:
//! a stack overflow or an allocation failure there fails the case instead of aborting every
//! test, and a memory bomb cannot take the machine with it.

use radioflow_graphfile::describe_grc;
use radioflow_runtime::Pmt;
use std::process::Command;

const CASE_ENV: &str = "RADIOFLOW_GRC_HOSTILE_CASE";
/// What the child prints before its result, so the parent finds it among the test harness's
/// own output.
const RESULT: &str = "hostile-case-result: ";

/// A .grc flowgraph with `variables` (name, expression) and one head block whose number of
/// items is `num_items`; `extra` is appended as more top-level YAML.
fn grc(variables: &[(String, String)], num_items: &str, extra: &str) -> String {
    // YAML single-quoted scalars hold any one-line text, a quote written twice.
    let quote = |s: &str| format!("'{}'", s.replace('\'', "''"));
    let mut text = String::from("options:\n  parameters: {id: hostile}\nblocks:\n");
    for (name, value) in variables {
        text += &format!(
            "- name: {name}\n  id: variable\n  parameters: {{value: {}}}\n",
            quote(value)
        );
    }
    text += &format!(
        "- name: head\n  id: blocks_head\n  parameters: {{num_items: {}, type: float, vlen: '1'}}\n",
        quote(num_items)
    );
    text += "connections: []\nmetadata:\n  file_format: 1\n";
    text + extra
}

fn head_only(num_items: &str) -> String {
    grc(&[], num_items, "")
}

/// The GRC text of the case `name`.
fn case(name: &str) -> String {
    match name {
        "parentheses" => head_only(&format!("{}1{}", "(".repeat(6000), ")".repeat(6000))),
        "unary_minus" => head_only(&format!("{}1", "-".repeat(100_000))),
        "brackets" => head_only(&format!("len({}0{})", "[".repeat(6000), "]".repeat(6000))),
        "power_chain" => head_only(&format!("{}1", "1**".repeat(50_000))),
        "variable_chain" => {
            // v3999 = v3998 + 1, ..., v0 = 1: each names the next, 4,000 deep.
            let mut vars: Vec<(String, String)> = (1..4000)
                .rev()
                .map(|i| (format!("v{i}"), format!("v{} + 1", i - 1)))
                .collect();
            vars.push(("v0".into(), "1".into()));
            grc(&vars, "v3999", "")
        }
        "nested_list_variables" => {
            // Each variable a list holding the one before: values nest 4,000 deep.
            let mut vars = vec![("v0".to_owned(), "[0]".to_owned())];
            vars.extend((1..4000).map(|i| (format!("v{i}"), format!("[v{}]", i - 1))));
            grc(&vars, "len(v3999)", "")
        }
        "doubling_strings" => {
            let mut vars = vec![("v0".to_owned(), "'ab'".to_owned())];
            vars.extend((1..=40).map(|i| (format!("v{i}"), format!("v{0} + v{0}", i - 1))));
            grc(&vars, "len(v40)", "")
        }
        "doubling_lists" => {
            let mut vars = vec![("v0".to_owned(), "[0]".to_owned())];
            vars.extend((1..=40).map(|i| (format!("v{i}"), format!("v{0} + v{0}", i - 1))));
            grc(&vars, "len(v40)", "")
        }
        "repeated_lists" => head_only("len([[0]*10**7]*10**7)"),
        "many_large_lists" => {
            // Each below the limit of one value, together far above what a file may make.
            let vars: Vec<_> = (0..100)
                .map(|i| (format!("v{i}"), "[0] * 4000000".to_owned()))
                .collect();
            let sum: Vec<String> = (0..100).map(|i| format!("len(v{i})")).collect();
            grc(&vars, &sum.join(" + "), "")
        }
        "yaml_aliases" => {
            // The "billion laughs": nine levels of nine aliases, 10^9 strings once expanded.
            let mut bomb =
                String::from("lol:\n  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
            for i in 1..=9 {
                let p = format!("*a{}", i - 1);
                bomb += &format!("  a{i}: &a{i} [{}]\n", [p.as_str(); 9].join(", "));
            }
            head_only("1") + &bomb
        }
        "yaml_nesting" => head_only("1") + &format!("deep:\n{}x\n", "- ".repeat(200_000)),
        "long_expression" => head_only(&format!("{} + 1", "x".repeat(2_000_000))),
        "long_variable" => grc(
            &[("v".into(), format!("[{}] + 'a'", "1, ".repeat(600_000)))],
            "len(v)",
            "",
        ),
        "long_string" => head_only(&format!("'{}' * 2", "y".repeat(5_000_000))),
        "virtual_sink_fan" | "bypass_fan" => {
            // 10,000 connections into one virtual sink (or bypassed block) and 10,000 out of
            // its source: joined pairwise, 10^8 connections.
            let middle = if name == "virtual_sink_fan" {
                "- name: vsink\n  id: virtual_sink\n  parameters: {stream_id: s}\n\
                 - name: vsource\n  id: virtual_source\n  parameters: {stream_id: s}\n"
            } else {
                "- name: vsink\n  id: blocks_copy\n  parameters: {type: float, vlen: '1'}\n  \
                 states: {state: bypassed}\n"
            };
            let out = if name == "virtual_sink_fan" {
                "vsource"
            } else {
                "vsink"
            };
            let text = head_only("1").replace("connections: []\n", "");
            let text = text.replace("blocks:\n", &format!("blocks:\n{middle}"));
            let mut connections = String::from("connections:\n");
            for _ in 0..10_000 {
                connections += "- [head, '0', vsink, '0']\n";
                connections += &format!("- [{out}, '0', head, '0']\n");
            }
            text + &connections
        }
        "min_int_floor_division" => head_only("(-9223372036854775807-1)//-1"),
        "min_int_modulo" => head_only("(-9223372036854775807-1) % -1"),
        other => panic!("no case {other}"),
    }
}

/// Runs the case named by `CASE_ENV` (a no-op in a normal test run).
#[test]
fn hostile_case_in_child() {
    let Ok(name) = std::env::var(CASE_ENV) else {
        return;
    };
    // SAFETY: setrlimit with a valid, initialized struct; it only lowers this process's limit.
    unsafe {
        let limit = libc::rlimit {
            rlim_cur: 4 << 30,
            rlim_max: 4 << 30,
        };
        assert_eq!(libc::setrlimit(libc::RLIMIT_AS, &limit), 0);
    }
    let text = case(&name);
    let result = match describe_grc(&text, "hostile.grc") {
        // The head's `n` (beside its `vlen`, 1 in every case).
        Ok(graph) => match &graph.block("head").expect("the head block").params[..] {
            [(v, Pmt::Int(1)), (k, Pmt::Int(n))] if v == "vlen" && k == "n" => format!("n = {n}"),
            other => format!("params {other:?}"),
        },
        Err(e) => format!("error: {e}"),
    };
    println!("{RESULT}{result}");
}

/// Runs case `name` in a child process; what it printed (`n = ...` or `error: ...`).
fn run(name: &str) -> String {
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "hostile_case_in_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CASE_ENV, name)
        .env_remove("RUST_MIN_STACK")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let tail = |s: &str| {
        s.chars()
            .rev()
            .take(600)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect::<String>()
    };
    assert!(
        out.status.success(),
        "case {name}: the child failed ({}):\n{}\n{}",
        out.status,
        tail(&stdout),
        tail(&stderr)
    );
    let line = stdout
        .lines()
        .find_map(|l| l.split_once(RESULT).map(|(_, r)| r.to_owned()))
        .unwrap_or_else(|| panic!("case {name}: no result in {}", tail(&stdout)));
    assert!(
        line.len() < 1000,
        "case {name}: an error of {} bytes",
        line.len()
    );
    line
}

#[track_caller]
fn assert_error(name: &str, wanted: &[&str]) {
    let got = run(name);
    assert!(
        got.starts_with("error: hostile.grc: "),
        "case {name}: {got}"
    );
    for w in wanted {
        assert!(got.contains(w), "case {name}: {got:?} does not say {w:?}");
    }
}

#[test]
fn nesting_deeper_than_the_limit_is_an_error_not_a_stack_overflow() {
    for name in ["parentheses", "unary_minus", "brackets", "power_chain"] {
        assert_error(name, &["block 'head'", "nested more than 100 levels"]);
    }
}

#[test]
fn a_long_chain_of_variables_is_evaluated_without_recursion() {
    assert_eq!(run("variable_chain"), "n = 4000");
}

#[test]
fn values_nested_deeper_than_the_limit_through_variables_are_an_error() {
    assert_error(
        "nested_list_variables",
        &["variable 'v100'", "nested more than 100 levels"],
    );
}

#[test]
fn values_larger_than_the_limit_are_an_error_before_they_are_made() {
    assert_error(
        "doubling_strings",
        &["variable 'v", "more than 4194304 items"],
    );
    assert_error(
        "doubling_lists",
        &["variable 'v", "more than 4194304 items"],
    );
    assert_error(
        "repeated_lists",
        &["block 'head'", "more than 4194304 items"],
    );
    assert_error("many_large_lists", &["more than 16777216 items in all"]);
}

#[test]
fn yaml_aliases_and_nesting_are_bounded() {
    assert_error("yaml_aliases", &["YAML aliases", "more than"]);
    assert_error("yaml_nesting", &["YAML", "nested more than"]);
}

#[test]
fn the_smallest_integer_divided_by_minus_one_is_an_error_or_python_s_value() {
    // Python: 2**63, which does not fit in 64 bits; and 0.
    assert_error("min_int_floor_division", &["does not fit in 64 bits"]);
    assert_eq!(run("min_int_modulo"), "n = 0");
}

#[test]
fn long_expressions_and_values_are_not_echoed_whole() {
    // `run` checks that each error is shorter than 1,000 bytes.
    assert_error(
        "long_expression",
        &["unknown name 'xxx", "... (2000000 bytes)"],
    );
    assert_error(
        "long_variable",
        &["variable 'v' = [1, 1, 1,", "cannot apply '+' to [1, 1,"],
    );
    assert_error("long_string", &["num_items: \"'yyy", "too long"]);
}

#[test]
fn connections_joined_through_virtual_sinks_and_bypassed_blocks_do_not_multiply() {
    assert_error(
        "virtual_sink_fan",
        &[
            "connection 'head:0 -> vsink:0'",
            "a second connection into a virtual sink",
        ],
    );
    assert_error(
        "bypass_fan",
        &[
            "connection 'head:0 -> vsink:0'",
            "a second stream into a bypassed block",
        ],
    );
}
