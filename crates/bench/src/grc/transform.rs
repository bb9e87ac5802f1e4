//! One rewrite of a `.grc` flowgraph that both runtimes then read, so that both run the same
//! finite graph: a `blocks_head` of N items after every source, throttles removed (they cap
//! the rate on purpose), every sink (QT GUI displays, null, file, vector and tag-debug sinks)
//! replaced by one null sink (timed runs) or one file sink (the check run) per stream it
//! received, message-only GUI widgets removed, GUI variables made plain variables, and the
//! options set to a Python flowgraph without GUI. Flowgraphs that cannot be made finite and
//! comparable this way are refused with the reason.

use radioflow_library::gnuradio::{self, HeadlessInputs};
use radioflow_runtime::registry::Dtype;
use std::collections::HashSet;
use std::path::PathBuf;
use yaml_rust2::yaml::Hash;
use yaml_rust2::{Yaml, YamlEmitter, YamlLoader};

/// The name the rewritten flowgraph's options give it: `grcc` writes `<ID>.py` holding a
/// top block class of that name.
pub const TOP_BLOCK: &str = "rfbench_top";

/// The prefix of the sinks the rewrite adds (`rfbench_sink_0`, ...), each one stream.
pub const SINK_PREFIX: &str = "rfbench_sink_";

/// What the added sinks do with their stream.
#[derive(Clone, Debug, PartialEq)]
pub enum Sinks {
    /// Discard it (`blocks_null_sink`): the timed runs.
    Null,
    /// Write it to `<folder>/<sink name>.bin` (`blocks_file_sink`): the check run.
    Files(PathBuf),
}

/// One sink the rewrite added.
#[derive(Clone, Debug, PartialEq)]
pub struct Sink {
    /// Its block name (`rfbench_sink_0`).
    pub name: String,
    /// GRC's item type option (`complex`, `float`, `int`, `short`, `byte`).
    pub item: &'static str,
    /// Items per vector.
    pub vlen: usize,
    /// The stream it received, as `block:port`.
    pub from: String,
}

/// A flowgraph rewritten.
#[derive(Clone, Debug)]
pub struct Rewritten {
    /// The rewritten `.grc` (YAML).
    pub yaml: String,
    /// The sinks added, one per stream that reached a sink.
    pub sinks: Vec<Sink>,
    /// Names of the throttles removed.
    pub throttles: Vec<String>,
    /// Names of the noise and random sources: their streams differ between runtimes (each
    /// has its own generator), so only their counts compare.
    pub random: Vec<String>,
    /// Some block between the sources and the sinks computes: not only null sources feeding
    /// null sinks (GNU Radio's GUI examples keep their window alive with such a stream,
    /// which times nothing but the runtimes' overhead per item).
    pub signal_work: bool,
}

/// Sources whose stream ends with a head and is the same in every runtime (signal
/// generators, constant and vector sources, files) or differs only by generator (noise).
const SOURCES: &[&str] = &[
    "analog_sig_source_x",
    "analog_const_source_x",
    "analog_noise_source_x",
    "analog_fastnoise_source_x",
    "analog_random_source_x",
    "analog_random_uniform_source_x",
    "blocks_null_source",
    "blocks_vector_source_x",
    "blocks_file_source",
    "digital_glfsr_source_x",
    "blocks_lfsr_32k_source_s",
];

/// Sources and blocks whose streams come from a random generator.
const RANDOM: &[&str] = &[
    "analog_noise_source_x",
    "analog_fastnoise_source_x",
    "analog_random_source_x",
    "analog_random_uniform_source_x",
    "channels_channel_model",
    "channels_fading_model",
    "channels_selective_fading_model",
    "channels_dynamic_channel_model",
];

/// Sinks that the rewrite replaces by its own: they show, keep or print what they receive, and
/// the comparison needs each stream counted (and in the check run written) the same way.
const SINKS: &[&str] = &[
    "blocks_null_sink",
    "blocks_file_sink",
    "blocks_vector_sink_x",
    "blocks_tag_debug",
];

/// Id prefixes of blocks that talk to sockets, devices or other processes: their timing is
/// the peer's or the network's, not the runtime's.
const OUTSIDE: &[&str] = &[
    "network_",
    "zeromq_",
    "audio_",
    "soapy_",
    "uhd_",
    "iio_",
    "osmosdr_",
    "blocks_udp_",
    "blocks_tcp_",
    "blocks_socket_pdu",
];

/// Blocks that post messages on their own, by a clock: the graph does not end when its
/// streams do.
const MESSAGE_SOURCES: &[&str] = &[
    "blocks_message_strobe",
    "blocks_message_strobe_random",
    "pdu_random_pdu",
    "blocks_random_pdu",
];

/// Blocks of the file that are not part of the graph.
const NOT_BLOCKS: &[&str] = &["options", "import", "note", "variable", "parameter"];

/// GRC's item type options that a head, a null sink and a file sink all take.
const ITEMS: &[&str] = &["complex", "float", "int", "short", "byte"];

fn key(k: &str) -> Yaml {
    Yaml::String(k.to_owned())
}

fn text(y: &Yaml) -> Option<String> {
    match y {
        Yaml::String(s) | Yaml::Real(s) => Some(s.clone()),
        Yaml::Integer(i) => Some(i.to_string()),
        Yaml::Boolean(b) => Some(if *b { "True" } else { "False" }.into()),
        _ => None,
    }
}

/// A block entry's parameter as written.
fn param(block: &Yaml, name: &str) -> Option<String> {
    text(&block["parameters"][name])
}

/// Whether a block entry is enabled (GRC writes `enabled`, `disabled` or `bypassed`; older
/// files `true`/`false`).
fn enabled(block: &Yaml) -> bool {
    !matches!(
        text(&block["states"]["state"]).as_deref(),
        Some("disabled" | "False" | "false")
    )
}

/// A block entry: `name: ...`, `id: ...`, `parameters: {...}`, `states: {state: enabled}`.
fn entry(name: &str, id: &str, params: &[(&str, String)]) -> Yaml {
    let mut p = Hash::new();
    for (k, v) in params {
        p.insert(key(k), Yaml::String(v.clone()));
    }
    p.insert(key("comment"), Yaml::String(String::new()));
    let mut states = Hash::new();
    states.insert(key("state"), key("enabled"));
    let mut h = Hash::new();
    h.insert(key("name"), key(name));
    h.insert(key("id"), key(id));
    h.insert(key("parameters"), Yaml::Hash(p));
    h.insert(key("states"), Yaml::Hash(states));
    Yaml::Hash(h)
}

/// One connection of the file: `[from block, from port, to block, to port]`.
#[derive(Clone, Debug, PartialEq)]
struct Link {
    from: String,
    out: String,
    to: String,
    input: String,
}

impl Link {
    /// Streams connect numbered ports; messages named ones.
    fn is_stream(&self) -> bool {
        self.out.parse::<usize>().is_ok() && self.input.parse::<usize>().is_ok()
    }

    fn yaml(&self) -> Yaml {
        Yaml::Array(vec![
            key(&self.from),
            key(&self.out),
            key(&self.to),
            key(&self.input),
        ])
    }
}

fn links(doc: &Yaml) -> Result<Vec<Link>, String> {
    let Yaml::Array(list) = &doc["connections"] else {
        return Ok(Vec::new());
    };
    list.iter()
        .map(|c| match c {
            Yaml::Array(v) if v.len() == 4 => {
                let t: Vec<String> = v.iter().filter_map(text).collect();
                if t.len() == 4 {
                    Ok(Link {
                        from: t[0].clone(),
                        out: t[1].clone(),
                        to: t[2].clone(),
                        input: t[3].clone(),
                    })
                } else {
                    Err(format!("connection {c:?} is not four names"))
                }
            }
            other => Err(format!(
                "connection {other:?} is not [block, port, block, port]"
            )),
        })
        .collect()
}

/// GRC's type option of an item type.
fn option(d: Dtype) -> Option<&'static str> {
    Some(match d {
        Dtype::Complex32 => "complex",
        Dtype::Float32 => "float",
        Dtype::Int32 => "int",
        Dtype::Int16 => "short",
        Dtype::Uint8 => "byte",
        _ => return None,
    })
}

/// The item type (GRC option) and vector length a sink of id `id` takes on its stream
/// inputs, as its entry says.
fn sink_item(id: &str, block: &Yaml) -> Result<(&'static str, usize), String> {
    let vlen = match param(block, "vlen") {
        None => 1,
        Some(v) => v
            .trim()
            .parse::<usize>()
            .map_err(|_| format!("vlen '{v}' is not a number (expressions are not rewritten)"))?,
    };
    let named = |t: Option<String>| {
        let t = t.unwrap_or_else(|| "complex".into());
        ITEMS
            .iter()
            .copied()
            .find(|o| *o == t)
            .ok_or_else(|| format!("item type '{t}'"))
    };
    if let Some(gui) = gnuradio::headless(id) {
        return match gui.inputs {
            HeadlessInputs::Typed { .. } => Ok((named(param(block, "type"))?, 1)),
            HeadlessInputs::Fixed { dtype, .. } => Ok((
                option(dtype).ok_or_else(|| format!("item type {}", dtype.name()))?,
                vlen,
            )),
            HeadlessInputs::None => Err("no stream input".into()),
        };
    }
    Ok((named(param(block, "type"))?, vlen))
}

/// Rewrites the flowgraph `grc` (see the module's documentation): `items` per source, the
/// sinks as `sinks` says.
///
/// # Errors
/// Why the flowgraph cannot be compared: not YAML, a hierarchical block, a block that talks to
/// a socket or device, a source that is neither a generator nor a file, a message source, an
/// item type a head cannot take, or no stream reaching a sink.
pub fn rewrite(grc: &str, items: u64, sinks: &Sinks) -> Result<Rewritten, String> {
    let mut doc = YamlLoader::load_from_str(grc)
        .map_err(|e| format!("not YAML: {e}"))?
        .into_iter()
        .next()
        .ok_or("empty file")?;
    let generate = param(&doc["options"], "generate_options");
    if generate.as_deref().is_some_and(|g| g.starts_with("hb")) {
        return Err("a hierarchical block, not a flowgraph".into());
    }
    let Yaml::Array(all) = doc["blocks"].clone() else {
        return Err("no 'blocks' list (is this a GRC file?)".into());
    };
    let blocks: Vec<Yaml> = all.into_iter().filter(enabled).collect();
    let names: HashSet<String> = blocks.iter().filter_map(|b| text(&b["name"])).collect();
    // Connections of disabled blocks go with them, as both runtimes drop them.
    let mut links: Vec<Link> = links(&doc)?
        .into_iter()
        .filter(|l| names.contains(&l.from) && names.contains(&l.to))
        .collect();
    let mut random = Vec::new();
    for b in &blocks {
        let (name, id) = name_id(b);
        if let Some(p) = OUTSIDE.iter().find(|p| id.starts_with(*p)) {
            let what = p.trim_end_matches('_');
            return Err(format!(
                "'{name}' ({id}) talks to {what}: its time is not the runtime's"
            ));
        }
        if MESSAGE_SOURCES.contains(&id.as_str()) {
            return Err(format!(
                "'{name}' ({id}) posts messages by a clock: the graph does not end with its streams"
            ));
        }
        if RANDOM.contains(&id.as_str()) {
            random.push(name);
        }
    }

    // Throttles: what fed each now feeds what it fed (one after the other, so chains of
    // throttles go too).
    let mut throttles = Vec::new();
    for b in &blocks {
        let (name, id) = name_id(b);
        if id != "blocks_throttle" && id != "blocks_throttle2" {
            continue;
        }
        let ins: Vec<Link> = links.iter().filter(|l| l.to == name).cloned().collect();
        let outs: Vec<Link> = links.iter().filter(|l| l.from == name).cloned().collect();
        links.retain(|l| l.to != name && l.from != name);
        for i in &ins {
            for o in &outs {
                links.push(Link {
                    from: i.from.clone(),
                    out: i.out.clone(),
                    to: o.to.clone(),
                    input: o.input.clone(),
                });
            }
        }
        throttles.push(name);
    }

    // Sinks and GUI blocks: each stream they received goes to a sink of the rewrite's; GUI
    // variables become plain variables; the rest of the GUI goes.
    let mut kept = Vec::new();
    let mut added: Vec<Sink> = Vec::new();
    let mut removed: HashSet<String> = throttles.iter().cloned().collect();
    for b in &blocks {
        let (name, id) = name_id(b);
        if removed.contains(&name) || id == "options" {
            continue;
        }
        let gui = id.starts_with("qtgui_") || id.starts_with("variable_qtgui_");
        let streams_in = links.iter().any(|l| l.to == name && l.is_stream());
        if gui && !streams_in {
            // A widget with a value is also a variable in GRC (`self.freq = freq = ...`,
            // used by other blocks' expressions): it stays one, without its widget.
            if let Some(value) = param(b, "value") {
                kept.push(entry(&name, "variable", &[("value", value)]));
            }
            // A variable is no block: the messages the widget sent or took go with it.
            removed.insert(name);
            continue;
        }
        if gui || SINKS.contains(&id.as_str()) {
            for l in links.iter().filter(|l| l.to == name && l.is_stream()) {
                let (item, vlen) =
                    sink_item(&id, b).map_err(|e| format!("sink '{name}' ({id}): {e}"))?;
                added.push(Sink {
                    name: format!("{SINK_PREFIX}{}", added.len()),
                    item,
                    vlen,
                    from: format!("{}:{}", l.from, l.out),
                });
            }
            removed.insert(name);
            continue;
        }
        kept.push(b.clone());
    }
    links.retain(|l| !removed.contains(&l.from) && !removed.contains(&l.to));
    // Streams whose only reader was a widget removed: their sink reads them instead.
    added.retain(|s| !removed.iter().any(|r| s.from.starts_with(&format!("{r}:"))));
    if added.is_empty() {
        return Err("no stream reaches a sink: nothing to time (messages or GUI only)".into());
    }
    for s in &added {
        let (from, out) = s.from.split_once(':').unwrap_or((&s.from, "0"));
        links.push(Link {
            from: from.to_owned(),
            out: out.to_owned(),
            to: s.name.clone(),
            input: "0".into(),
        });
        let mut params = vec![("type", s.item.to_owned()), ("vlen", s.vlen.to_string())];
        let sink_id = match sinks {
            Sinks::Null => {
                params.push(("num_inputs", "1".into()));
                "blocks_null_sink"
            }
            Sinks::Files(dir) => {
                let file = dir.join(format!("{}.bin", s.name));
                params.push(("file", file.display().to_string()));
                params.push(("append", "False".into()));
                params.push(("unbuffered", "False".into()));
                "blocks_file_sink"
            }
        };
        kept.push(entry(&s.name, sink_id, &params));
    }

    // Sources: every stream port of a block without stream inputs goes through a head.
    let mut heads = Vec::new();
    for b in &kept {
        let (name, id) = name_id(b);
        if NOT_BLOCKS.contains(&id.as_str())
            || id.starts_with("virtual_")
            || name.starts_with(SINK_PREFIX)
            || links.iter().any(|l| l.to == name && l.is_stream())
        {
            continue;
        }
        let mut ports: Vec<String> = links
            .iter()
            .filter(|l| l.from == name && l.is_stream())
            .map(|l| l.out.clone())
            .collect();
        ports.sort();
        ports.dedup();
        if ports.is_empty() {
            continue;
        }
        if !SOURCES.contains(&id.as_str()) {
            return Err(format!(
                "source '{name}' ({id}) is not a signal generator or a file: it cannot be made finite the same way in both"
            ));
        }
        let item = param(b, "type").unwrap_or_default();
        let item = ITEMS
            .iter()
            .copied()
            .find(|o| *o == item)
            .ok_or_else(|| format!("source '{name}' ({id}): item type '{item}' has no head"))?;
        let vlen = param(b, "vlen").unwrap_or_else(|| "1".into());
        for port in ports {
            heads.push((name.clone(), port, item, vlen.clone()));
        }
    }
    for (k, (source, port, item, vlen)) in heads.into_iter().enumerate() {
        let head = format!("rfbench_head_{k}");
        for l in links.iter_mut() {
            if l.from == source && l.out == port {
                l.from.clone_from(&head);
                l.out = "0".into();
            }
        }
        links.push(Link {
            from: source,
            out: port,
            to: head.clone(),
            input: "0".into(),
        });
        kept.push(entry(
            &head,
            "blocks_head",
            &[
                ("type", item.to_owned()),
                ("num_items", items.to_string()),
                ("vlen", vlen),
            ],
        ));
    }

    let streaming: HashSet<&str> = links
        .iter()
        .filter(|l| l.is_stream())
        .flat_map(|l| [l.from.as_str(), l.to.as_str()])
        .collect();
    let signal_work = kept.iter().any(|b| {
        let (name, id) = name_id(b);
        streaming.contains(name.as_str())
            && !matches!(
                id.as_str(),
                "blocks_null_source" | "blocks_head" | "blocks_null_sink" | "blocks_file_sink"
            )
    });

    if let Yaml::Hash(h) = &mut doc {
        if let Some(o) = h.get_mut(&key("options")) {
            set_options(o);
        }
        h.insert(key("blocks"), Yaml::Array(kept));
        h.insert(
            key("connections"),
            Yaml::Array(links.iter().map(Link::yaml).collect()),
        );
    }
    let mut yaml = String::new();
    YamlEmitter::new(&mut yaml)
        .dump(&doc)
        .map_err(|e| format!("cannot write the rewritten YAML: {e}"))?;
    yaml.push('\n');
    Ok(Rewritten {
        yaml,
        sinks: added,
        throttles,
        random,
        signal_work,
    })
}

fn name_id(b: &Yaml) -> (String, String) {
    (
        text(&b["name"]).unwrap_or_default(),
        text(&b["id"]).unwrap_or_default(),
    )
}

/// The options made those of a Python flowgraph without GUI, named [`TOP_BLOCK`], that runs
/// to its end.
fn set_options(options: &mut Yaml) {
    if let Yaml::Hash(h) = options {
        let params = h
            .entry(key("parameters"))
            .or_insert_with(|| Yaml::Hash(Hash::new()));
        if let Yaml::Hash(p) = params {
            p.insert(key("id"), key(TOP_BLOCK));
            p.insert(key("generate_options"), key("no_gui"));
            p.insert(key("run_options"), key("run"));
            p.insert(key("output_language"), key("python"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small flowgraph in GRC's format: `blocks` as `name id [key=value ...]`, `links` as
    /// `from port to port`.
    fn grc(generate: &str, blocks: &[&str], links: &[&str]) -> String {
        let mut s = format!(
            "options:\n  parameters:\n    id: demo\n    generate_options: {generate}\n  states:\n    state: enabled\nblocks:\n"
        );
        for b in blocks {
            let mut words = b.split_whitespace();
            let (name, id) = (words.next().unwrap(), words.next().unwrap());
            s += &format!("- name: {name}\n  id: {id}\n  parameters:\n    comment: ''\n");
            let mut state = "enabled";
            for kv in words {
                let (k, v) = kv.split_once('=').unwrap();
                if k == "state" {
                    state = v;
                } else {
                    s += &format!("    {k}: '{v}'\n");
                }
            }
            s += &format!("  states:\n    state: {state}\n");
        }
        s += "connections:\n";
        for l in links {
            let w: Vec<&str> = l.split_whitespace().collect();
            s += &format!("- [{}, '{}', {}, '{}']\n", w[0], w[1], w[2], w[3]);
        }
        s + "metadata:\n  file_format: 1\n"
    }

    fn parsed(r: &Rewritten) -> (Yaml, Vec<Link>) {
        let doc = YamlLoader::load_from_str(&r.yaml).unwrap().remove(0);
        let l = links(&doc).unwrap();
        (doc, l)
    }

    fn block<'a>(doc: &'a Yaml, name: &str) -> Option<&'a Yaml> {
        doc["blocks"]
            .as_vec()
            .unwrap()
            .iter()
            .find(|b| text(&b["name"]).as_deref() == Some(name))
    }

    fn has(l: &[Link], s: &str) -> bool {
        let w: Vec<&str> = s.split_whitespace().collect();
        l.iter()
            .any(|l| l.from == w[0] && l.out == w[1] && l.to == w[2] && l.input == w[3])
    }

    const SIMPLE: &[&str] = &[
        "samp_rate variable value=32000",
        "src analog_sig_source_x type=complex samp_rate=samp_rate waveform=analog.GR_COS_WAVE freq=1000 amp=1 offset=0 phase=0",
        "thr blocks_throttle type=complex samples_per_second=samp_rate",
        "gui qtgui_time_sink_x type=complex nconnections=1",
    ];

    #[test]
    fn a_source_gets_a_head_the_throttle_goes_and_the_display_becomes_a_null_sink() {
        let file = grc("qt_gui", SIMPLE, &["src 0 thr 0", "thr 0 gui 0"]);
        let r = rewrite(&file, 5000, &Sinks::Null).unwrap();
        let (doc, l) = parsed(&r);
        assert_eq!(r.throttles, ["thr"]);
        assert!(r.random.is_empty());
        assert!(r.signal_work, "a signal source computes");
        assert_eq!(
            r.sinks,
            [Sink {
                name: "rfbench_sink_0".into(),
                item: "complex",
                vlen: 1,
                from: "src:0".into(),
            }]
        );
        assert!(block(&doc, "thr").is_none() && block(&doc, "gui").is_none());
        let head = block(&doc, "rfbench_head_0").unwrap();
        assert_eq!(param(head, "num_items").as_deref(), Some("5000"));
        assert_eq!(param(head, "type").as_deref(), Some("complex"));
        let sink = block(&doc, "rfbench_sink_0").unwrap();
        assert_eq!(text(&sink["id"]).as_deref(), Some("blocks_null_sink"));
        assert_eq!(l.len(), 2, "{l:?}");
        assert!(has(&l, "src 0 rfbench_head_0 0"));
        assert!(has(&l, "rfbench_head_0 0 rfbench_sink_0 0"));
        let o = &doc["options"]["parameters"];
        assert_eq!(text(&o["generate_options"]).as_deref(), Some("no_gui"));
        assert_eq!(text(&o["id"]).as_deref(), Some(TOP_BLOCK));
        assert_eq!(text(&o["run_options"]).as_deref(), Some("run"));
        // Variables stay as written.
        assert_eq!(
            param(block(&doc, "samp_rate").unwrap(), "value").as_deref(),
            Some("32000")
        );
    }

    #[test]
    fn the_check_run_writes_each_stream_to_its_own_file() {
        let blocks = [
            "src analog_sig_source_x type=float",
            "mul blocks_multiply_const_vxx type=float const=2",
            "gui qtgui_time_sink_x type=float nconnections=2",
            "discard blocks_null_sink type=float vlen=1",
        ];
        let file = grc(
            "qt_gui",
            &blocks,
            &[
                "src 0 mul 0",
                "src 0 gui 0",
                "mul 0 gui 1",
                "mul 0 discard 0",
            ],
        );
        let r = rewrite(&file, 10, &Sinks::Files("/tmp/out".into())).unwrap();
        let (doc, l) = parsed(&r);
        let from: Vec<&str> = r.sinks.iter().map(|s| s.from.as_str()).collect();
        assert_eq!(from, ["src:0", "mul:0", "mul:0"]);
        for s in &r.sinks {
            let b = block(&doc, &s.name).unwrap();
            assert_eq!(text(&b["id"]).as_deref(), Some("blocks_file_sink"));
            assert_eq!(param(b, "file"), Some(format!("/tmp/out/{}.bin", s.name)));
            assert_eq!(param(b, "type").as_deref(), Some("float"));
        }
        // One head, before everything the source fed.
        assert!(has(&l, "src 0 rfbench_head_0 0"));
        assert!(has(&l, "rfbench_head_0 0 mul 0"));
        assert!(has(&l, "rfbench_head_0 0 rfbench_sink_0 0"));
        assert!(block(&doc, "rfbench_head_1").is_none());
    }

    #[test]
    fn chained_throttles_disabled_blocks_and_gui_widgets_go() {
        let blocks = [
            "src analog_noise_source_x type=short",
            "t1 blocks_throttle type=short",
            "t2 blocks_throttle2 type=short",
            "off blocks_null_sink type=short state=disabled",
            "sink blocks_file_sink type=short file=/somewhere/unwritable",
            "knob variable_qtgui_range value=3",
            "btn qtgui_msgpushbutton",
            "freq qtgui_msgdigitalnumbercontrol value=1e6",
            "dbg blocks_message_debug",
        ];
        let file = grc(
            "qt_gui",
            &blocks,
            &[
                "src 0 t1 0",
                "t1 0 t2 0",
                "t2 0 sink 0",
                "t2 0 off 0",
                "btn pressed dbg print",
                "knob value dbg print",
                "freq valueout dbg print",
            ],
        );
        let r = rewrite(&file, 7, &Sinks::Null).unwrap();
        let (doc, l) = parsed(&r);
        assert_eq!(r.throttles, ["t1", "t2"]);
        assert_eq!(r.random, ["src"]);
        assert_eq!(r.sinks.len(), 1, "the disabled sink is not one");
        assert_eq!(r.sinks[0].item, "short");
        assert!(has(&l, "rfbench_head_0 0 rfbench_sink_0 0"));
        assert!(block(&doc, "off").is_none() && block(&doc, "btn").is_none());
        assert!(
            !l.iter().any(|l| l.from == "btn" || l.from == "knob"),
            "{l:?}"
        );
        assert!(r.signal_work, "a noise source computes");
        let knob = block(&doc, "knob").unwrap();
        assert_eq!(text(&knob["id"]).as_deref(), Some("variable"));
        assert_eq!(param(knob, "value").as_deref(), Some("3"));
    }

    #[test]
    fn a_null_stream_that_keeps_a_window_alive_is_no_signal_work() {
        let blocks = [
            "src blocks_null_source type=complex",
            "thr blocks_throttle type=complex",
            "sink blocks_null_sink type=complex",
        ];
        let r = rewrite(
            &grc("qt_gui", &blocks, &["src 0 thr 0", "thr 0 sink 0"]),
            9,
            &Sinks::Null,
        )
        .unwrap();
        assert!(!r.signal_work);
        assert_eq!(r.sinks.len(), 1);
    }

    #[test]
    fn what_cannot_be_compared_is_refused_with_the_reason() {
        let refuse = |blocks: &[&str], links: &[&str]| {
            rewrite(&grc("no_gui", blocks, links), 10, &Sinks::Null).unwrap_err()
        };
        let e = refuse(
            &[
                "src network_udp_source type=float",
                "s blocks_null_sink type=float",
            ],
            &["src 0 s 0"],
        );
        assert!(
            e.contains("'src' (network_udp_source) talks to network"),
            "{e}"
        );
        let e = refuse(
            &["src blocks_message_strobe", "d blocks_message_debug"],
            &["src strobe d print"],
        );
        assert!(e.contains("posts messages by a clock"), "{e}");
        let e = refuse(
            &["src blocks_wavfile_source", "s blocks_null_sink type=float"],
            &["src 0 s 0"],
        );
        assert!(
            e.contains("source 'src' (blocks_wavfile_source) is not a signal generator"),
            "{e}"
        );
        let e = refuse(&["w qtgui_ledindicator"], &[]);
        assert!(e.contains("no stream reaches a sink"), "{e}");
        let e = rewrite(&grc("hb", &[], &[]), 10, &Sinks::Null).unwrap_err();
        assert!(e.contains("hierarchical block"), "{e}");
        assert!(rewrite("blocks: [", 10, &Sinks::Null)
            .unwrap_err()
            .starts_with("not YAML"));
    }

    #[test]
    fn the_rewrite_reads_back_in_radioflows_loader() {
        let file = grc("qt_gui", SIMPLE, &["src 0 thr 0", "thr 0 gui 0"]);
        let r = rewrite(&file, 100, &Sinks::Null).unwrap();
        let d = radioflow_graphfile::describe_grc(&r.yaml, "simple.grc").unwrap();
        let mut names: Vec<&str> = d.blocks.iter().map(|b| b.name.as_str()).collect();
        names.sort_unstable();
        assert_eq!(names, ["rfbench_head_0", "rfbench_sink_0", "src"]);
        assert!(
            d.notes.is_empty(),
            "nothing left to run headless: {:?}",
            d.notes
        );
    }
}
