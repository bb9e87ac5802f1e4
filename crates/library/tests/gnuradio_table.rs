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
        // GNU Radio 3.10's digital_decision_feedback_equalizer.block.yml repeats a key on
        // the next line (`optional: true`), which Python's YAML reader takes (the last wins)
        // and yaml-rust refuses: read such a file without the repeated line.
        let docs = YamlLoader::load_from_str(&text).or_else(|_| {
            let mut lines: Vec<&str> = text.lines().collect();
            lines.dedup();
            YamlLoader::load_from_str(&lines.join("\n"))
        });
        let Ok(docs) = docs else {
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

/// GNU Radio parameters that GNU Radio sets on a running block (its `templates: callbacks:`)
/// but radioflow's block cannot yet (GRC id, GRC key, why). A slider bound to one of these
/// is reported as "cannot change it while running". Remove an entry when the parameter
/// becomes settable; the test fails on an entry that is no longer a gap.
const CALLBACK_GAPS: &[(&str, &str, &str)] = &[
    (
        "blocks_file_source",
        "file",
        "the file is opened when the block is made",
    ),
    (
        "blocks_file_source",
        "repeat",
        "the file is opened when the block is made",
    ),
    (
        "blocks_file_sink",
        "file",
        "the file is opened when the block is made",
    ),
    (
        "blocks_vector_source_x",
        "vector",
        "the vector and its tags are read when the block is made",
    ),
    (
        "blocks_vector_source_x",
        "tags",
        "the vector and its tags are read when the block is made",
    ),
    (
        "blocks_message_debug",
        "en_uvec",
        "printing vectors is chosen when the block is made",
    ),
    (
        "blocks_repack_bits_bb",
        "k",
        "k and l size the block's bit buffer when it is made",
    ),
    (
        "blocks_repack_bits_bb",
        "l",
        "k and l size the block's bit buffer when it is made",
    ),
    (
        "blocks_message_strobe_random",
        "msg",
        "the message and its timing are read when the block is made",
    ),
    (
        "blocks_message_strobe_random",
        "dist",
        "the message and its timing are read when the block is made",
    ),
    (
        "blocks_message_strobe_random",
        "mean",
        "the message and its timing are read when the block is made",
    ),
    (
        "blocks_message_strobe_random",
        "std",
        "the message and its timing are read when the block is made",
    ),
    (
        "fir_filter_xxx",
        "taps",
        "taps are read when the filter is made",
    ),
    (
        "freq_xlating_fir_filter_xxx",
        "taps",
        "taps are read when the filter is made (its centre is settable)",
    ),
    (
        "interp_fir_filter_xxx",
        "taps",
        "taps are read when the filter is made",
    ),
    (
        "fft_filter_xxx",
        "taps",
        "taps are read when the filter is made",
    ),
    (
        "pfb_arb_resampler_xxx",
        "taps",
        "the filter bank and rate are built when the block is made",
    ),
    (
        "low_pass_filter",
        "gain",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "low_pass_filter",
        "samp_rate",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "low_pass_filter",
        "cutoff_freq",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "low_pass_filter",
        "width",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "low_pass_filter",
        "win",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "low_pass_filter",
        "beta",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "high_pass_filter",
        "gain",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "high_pass_filter",
        "samp_rate",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "high_pass_filter",
        "cutoff_freq",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "high_pass_filter",
        "width",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "high_pass_filter",
        "win",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "high_pass_filter",
        "beta",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "filter_fft_low_pass_filter",
        "gain",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "filter_fft_low_pass_filter",
        "samp_rate",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "filter_fft_low_pass_filter",
        "cutoff_freq",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "filter_fft_low_pass_filter",
        "width",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "filter_fft_low_pass_filter",
        "win",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "filter_fft_low_pass_filter",
        "beta",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "band_pass_filter",
        "gain",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "band_pass_filter",
        "samp_rate",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "band_pass_filter",
        "low_cutoff_freq",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "band_pass_filter",
        "high_cutoff_freq",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "band_pass_filter",
        "width",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "band_pass_filter",
        "win",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "band_pass_filter",
        "beta",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "band_reject_filter",
        "gain",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "band_reject_filter",
        "samp_rate",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "band_reject_filter",
        "low_cutoff_freq",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "band_reject_filter",
        "high_cutoff_freq",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "band_reject_filter",
        "width",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "band_reject_filter",
        "win",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "band_reject_filter",
        "beta",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "root_raised_cosine_filter",
        "gain",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "root_raised_cosine_filter",
        "samp_rate",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "root_raised_cosine_filter",
        "sym_rate",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "root_raised_cosine_filter",
        "alpha",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "root_raised_cosine_filter",
        "ntaps",
        "a firdes design: the taps are designed when the graph is built",
    ),
    (
        "pdu_pdu_set",
        "k",
        "the key and value are read when the block is made",
    ),
    (
        "pdu_pdu_set",
        "v",
        "the key and value are read when the block is made",
    ),
    (
        "pdu_pdu_remove",
        "k",
        "the key is read when the block is made",
    ),
    (
        "pdu_pdu_filter",
        "k",
        "the key, value and sense are read when the block is made",
    ),
    (
        "pdu_pdu_filter",
        "v",
        "the key, value and sense are read when the block is made",
    ),
    (
        "pdu_pdu_filter",
        "invert",
        "the key, value and sense are read when the block is made",
    ),
    (
        "blocks_keep_m_in_n",
        "offset",
        "m, n and the offset are read when the block is made",
    ),
    (
        "blocks_keep_m_in_n",
        "m",
        "m, n and the offset are read when the block is made",
    ),
    (
        "blocks_keep_m_in_n",
        "n",
        "m, n and the offset are read when the block is made",
    ),
    (
        "blocks_moving_average_xx",
        "length",
        "the length and scale are read when the block is made",
    ),
    (
        "blocks_moving_average_xx",
        "scale",
        "the length and scale are read when the block is made",
    ),
    (
        "blocks_peak_detector_xb",
        "threshold_factor_rise",
        "the thresholds and alpha are read when the block is made",
    ),
    (
        "blocks_peak_detector_xb",
        "threshold_factor_fall",
        "the thresholds and alpha are read when the block is made",
    ),
    (
        "blocks_peak_detector_xb",
        "alpha",
        "the thresholds and alpha are read when the block is made",
    ),
    (
        "blocks_peak_detector2_fb",
        "threshold_factor_rise",
        "the threshold, look-ahead and alpha are read when the block is made",
    ),
    (
        "blocks_peak_detector2_fb",
        "look_ahead",
        "the threshold, look-ahead and alpha are read when the block is made",
    ),
    (
        "blocks_peak_detector2_fb",
        "alpha",
        "the threshold, look-ahead and alpha are read when the block is made",
    ),
    (
        "channels_amp_bal",
        "alpha",
        "alpha is read when the block is made",
    ),
    (
        "channels_quantizer",
        "bits",
        "the bit count is read when the block is made",
    ),
    (
        "blocks_file_meta_sink",
        "unbuffered",
        "the file is opened when the block is made",
    ),
    (
        "blocks_file_meta_sink",
        "file",
        "the file is opened when the block is made",
    ),
    (
        "blocks_file_meta_source",
        "file",
        "the file is opened when the block is made",
    ),
    (
        "blocks_file_meta_source",
        "repeat",
        "the file is opened when the block is made",
    ),
    (
        "blocks_tags_strobe",
        "value",
        "the tag and its period are read when the block is made",
    ),
    (
        "blocks_tags_strobe",
        "key",
        "the tag and its period are read when the block is made",
    ),
    (
        "blocks_tags_strobe",
        "nsamps",
        "the tag and its period are read when the block is made",
    ),
    (
        "digital_pfb_clock_sync_xxx",
        "taps",
        "the filter bank and loop are built when the block is made",
    ),
    (
        "digital_pfb_clock_sync_xxx",
        "loop_bw",
        "the filter bank and loop are built when the block is made",
    ),
    (
        "soapy_source",
        "ant0",
        "the device is configured when the graph starts (frequency is settable)",
    ),
    (
        "soapy_source",
        "bw0",
        "the device is configured when the graph starts (frequency is settable)",
    ),
    (
        "soapy_source",
        "overall_gain0",
        "the device is configured when the graph starts (frequency is settable)",
    ),
    (
        "soapy_source",
        "pga_gain0",
        "the device is configured when the graph starts (frequency is settable)",
    ),
    (
        "soapy_source",
        "lna_gain0",
        "the device is configured when the graph starts (frequency is settable)",
    ),
    (
        "soapy_source",
        "tia_gain0",
        "the device is configured when the graph starts (frequency is settable)",
    ),
    (
        "soapy_source",
        "mix_gain0",
        "the device is configured when the graph starts (frequency is settable)",
    ),
    (
        "soapy_source",
        "rf_gain0",
        "the device is configured when the graph starts (frequency is settable)",
    ),
    (
        "soapy_source",
        "vga_gain0",
        "the device is configured when the graph starts (frequency is settable)",
    ),
    (
        "soapy_source",
        "tuner_gain0",
        "the device is configured when the graph starts (frequency is settable)",
    ),
    (
        "soapy_source",
        "amp_gain0",
        "the device is configured when the graph starts (frequency is settable)",
    ),
    (
        "soapy_source",
        "ifgr_gain",
        "the device is configured when the graph starts (frequency is settable)",
    ),
    (
        "soapy_source",
        "rfgr_gain",
        "the device is configured when the graph starts (frequency is settable)",
    ),
    (
        "soapy_source",
        "rxvga1_gain",
        "the device is configured when the graph starts (frequency is settable)",
    ),
    (
        "soapy_source",
        "rxvga2_gain",
        "the device is configured when the graph starts (frequency is settable)",
    ),
    (
        "soapy_source",
        "dc_removal0",
        "the device is configured when the graph starts (frequency is settable)",
    ),
    (
        "soapy_source",
        "dc_offset0",
        "the device is configured when the graph starts (frequency is settable)",
    ),
    (
        "soapy_source",
        "balance0",
        "the device is configured when the graph starts (frequency is settable)",
    ),
    (
        "soapy_source",
        "agc0",
        "the device is configured when the graph starts (frequency is settable)",
    ),
    (
        "soapy_sink",
        "ant0",
        "the device is configured when the graph starts (frequency is settable)",
    ),
    (
        "soapy_sink",
        "overall_gain0",
        "the device is configured when the graph starts (frequency is settable)",
    ),
    (
        "soapy_sink",
        "pga_gain0",
        "the device is configured when the graph starts (frequency is settable)",
    ),
    (
        "soapy_sink",
        "pad_gain0",
        "the device is configured when the graph starts (frequency is settable)",
    ),
    (
        "soapy_sink",
        "iamp_gain0",
        "the device is configured when the graph starts (frequency is settable)",
    ),
    (
        "soapy_sink",
        "vga_gain0",
        "the device is configured when the graph starts (frequency is settable)",
    ),
    (
        "soapy_sink",
        "txvga1_gain",
        "the device is configured when the graph starts (frequency is settable)",
    ),
    (
        "soapy_sink",
        "txvga2_gain",
        "the device is configured when the graph starts (frequency is settable)",
    ),
    (
        "soapy_sink",
        "balance0",
        "the device is configured when the graph starts (frequency is settable)",
    ),
    (
        "uhd_usrp_source",
        "center_freq1",
        "channel 1's settings are start commands naming it (a command message with chan 1 changes them while running)",
    ),
    (
        "uhd_usrp_source",
        "gain1",
        "channel 1's settings are start commands naming it (a command message with chan 1 changes them while running)",
    ),
    (
        "uhd_usrp_source",
        "ant1",
        "channel 1's settings are start commands naming it (a command message with chan 1 changes them while running)",
    ),
    (
        "uhd_usrp_source",
        "bw1",
        "channel 1's settings are start commands naming it (a command message with chan 1 changes them while running)",
    ),
    (
        "uhd_usrp_sink",
        "center_freq1",
        "channel 1's settings are start commands naming it (a command message with chan 1 changes them while running)",
    ),
    (
        "uhd_usrp_sink",
        "gain1",
        "channel 1's settings are start commands naming it (a command message with chan 1 changes them while running)",
    ),
    (
        "uhd_usrp_sink",
        "ant1",
        "channel 1's settings are start commands naming it (a command message with chan 1 changes them while running)",
    ),
    (
        "uhd_usrp_sink",
        "bw1",
        "channel 1's settings are start commands naming it (a command message with chan 1 changes them while running)",
    ),
    (
        "soapy_custom_source",
        "bandwidth1",
        "channel 1's settings are start commands naming it (a cmd message with chan 1 changes them while running)",
    ),
    (
        "soapy_custom_source",
        "antenna1",
        "channel 1's settings are start commands naming it (a cmd message with chan 1 changes them while running)",
    ),
    (
        "soapy_custom_source",
        "center_freq1",
        "channel 1's settings are start commands naming it (a cmd message with chan 1 changes them while running)",
    ),
    (
        "soapy_custom_source",
        "freq_correction1",
        "channel 1's settings are start commands naming it (a cmd message with chan 1 changes them while running)",
    ),
    (
        "soapy_custom_source",
        "agc1",
        "channel 1's settings are start commands naming it (a cmd message with chan 1 changes them while running)",
    ),
    (
        "soapy_custom_source",
        "gain1",
        "channel 1's settings are start commands naming it (a cmd message with chan 1 changes them while running)",
    ),
    (
        "soapy_custom_source",
        "dc_removal1",
        "channel 1's settings are start commands naming it (a cmd message with chan 1 changes them while running)",
    ),
    (
        "soapy_custom_source",
        "iq_balance1",
        "channel 1's settings are start commands naming it (a cmd message with chan 1 changes them while running)",
    ),
    (
        "soapy_custom_sink",
        "bandwidth1",
        "channel 1's settings are start commands naming it (a cmd message with chan 1 changes them while running)",
    ),
    (
        "soapy_custom_sink",
        "antenna1",
        "channel 1's settings are start commands naming it (a cmd message with chan 1 changes them while running)",
    ),
    (
        "soapy_custom_sink",
        "center_freq1",
        "channel 1's settings are start commands naming it (a cmd message with chan 1 changes them while running)",
    ),
    (
        "soapy_custom_sink",
        "freq_correction1",
        "channel 1's settings are start commands naming it (a cmd message with chan 1 changes them while running)",
    ),
    (
        "soapy_custom_sink",
        "gain1",
        "channel 1's settings are start commands naming it (a cmd message with chan 1 changes them while running)",
    ),
    (
        "soapy_custom_sink",
        "iq_balance1",
        "channel 1's settings are start commands naming it (a cmd message with chan 1 changes them while running)",
    ),
    (
        "soapy_rtlsdr_source",
        "samp_rate",
        "the device's rate is set when it is opened (a cmd/command message {rate: ...} changes it while running)",
    ),
    (
        "soapy_rtlsdr_source",
        "agc",
        "the device is configured when the graph starts (frequency and overall gain are settable; the cmd/command message changes the rest)",
    ),
    (
        "soapy_rtlsdr_source",
        "gain",
        "the device is configured when the graph starts (frequency and overall gain are settable; the cmd/command message changes the rest)",
    ),
    (
        "soapy_hackrf_source",
        "samp_rate",
        "the device's rate is set when it is opened (a cmd/command message {rate: ...} changes it while running)",
    ),
    (
        "soapy_hackrf_source",
        "bandwidth",
        "the device is configured when the graph starts (frequency and overall gain are settable; the cmd/command message changes the rest)",
    ),
    (
        "soapy_hackrf_source",
        "amp",
        "the device is configured when the graph starts (frequency and overall gain are settable; the cmd/command message changes the rest)",
    ),
    (
        "soapy_hackrf_source",
        "gain",
        "the device is configured when the graph starts (frequency and overall gain are settable; the cmd/command message changes the rest)",
    ),
    (
        "soapy_hackrf_source",
        "vga",
        "the device is configured when the graph starts (frequency and overall gain are settable; the cmd/command message changes the rest)",
    ),
    (
        "soapy_hackrf_sink",
        "samp_rate",
        "the device's rate is set when it is opened (a cmd/command message {rate: ...} changes it while running)",
    ),
    (
        "soapy_hackrf_sink",
        "bandwidth",
        "the device is configured when the graph starts (frequency and overall gain are settable; the cmd/command message changes the rest)",
    ),
    (
        "soapy_hackrf_sink",
        "amp",
        "the device is configured when the graph starts (frequency and overall gain are settable; the cmd/command message changes the rest)",
    ),
    (
        "soapy_hackrf_sink",
        "vga",
        "the device is configured when the graph starts (frequency and overall gain are settable; the cmd/command message changes the rest)",
    ),
    (
        "soapy_plutosdr_source",
        "samp_rate",
        "the device's rate is set when it is opened (a cmd/command message {rate: ...} changes it while running)",
    ),
    (
        "soapy_plutosdr_source",
        "bandwidth",
        "the device is configured when the graph starts (frequency and overall gain are settable; the cmd/command message changes the rest)",
    ),
    (
        "soapy_plutosdr_source",
        "agc",
        "the device is configured when the graph starts (frequency and overall gain are settable; the cmd/command message changes the rest)",
    ),
    (
        "soapy_plutosdr_sink",
        "samp_rate",
        "the device's rate is set when it is opened (a cmd/command message {rate: ...} changes it while running)",
    ),
    (
        "soapy_plutosdr_sink",
        "bandwidth",
        "the device is configured when the graph starts (frequency and overall gain are settable; the cmd/command message changes the rest)",
    ),
    (
        "soapy_bladerf_source",
        "samp_rate",
        "the device's rate is set when it is opened (a cmd/command message {rate: ...} changes it while running)",
    ),
    (
        "soapy_bladerf_source",
        "bandwidth",
        "the device is configured when the graph starts (frequency and overall gain are settable; the cmd/command message changes the rest)",
    ),
    (
        "soapy_bladerf_sink",
        "samp_rate",
        "the device's rate is set when it is opened (a cmd/command message {rate: ...} changes it while running)",
    ),
    (
        "soapy_bladerf_sink",
        "bandwidth",
        "the device is configured when the graph starts (frequency and overall gain are settable; the cmd/command message changes the rest)",
    ),
    (
        "soapy_limesdr_source",
        "samp_rate",
        "the device's rate is set when it is opened (a cmd/command message {rate: ...} changes it while running)",
    ),
    (
        "soapy_limesdr_source",
        "bandwidth",
        "the device is configured when the graph starts (frequency and overall gain are settable; the cmd/command message changes the rest)",
    ),
    (
        "soapy_limesdr_sink",
        "samp_rate",
        "the device's rate is set when it is opened (a cmd/command message {rate: ...} changes it while running)",
    ),
    (
        "soapy_limesdr_sink",
        "bandwidth",
        "the device is configured when the graph starts (frequency and overall gain are settable; the cmd/command message changes the rest)",
    ),
    (
        "soapy_airspyhf_source",
        "samp_rate",
        "the device's rate is set when it is opened (a cmd/command message {rate: ...} changes it while running)",
    ),
    (
        "soapy_airspyhf_source",
        "agc",
        "the device is configured when the graph starts (frequency and overall gain are settable; the cmd/command message changes the rest)",
    ),
    (
        "soapy_airspyhf_source",
        "gain",
        "the device is configured when the graph starts (frequency and overall gain are settable; the cmd/command message changes the rest)",
    ),
    (
        "soapy_airspyhf_source",
        "lna",
        "the device is configured when the graph starts (frequency and overall gain are settable; the cmd/command message changes the rest)",
    ),
    (
        "soapy_sdrplay_source",
        "samp_rate",
        "the device's rate is set when it is opened (a cmd/command message {rate: ...} changes it while running)",
    ),
    (
        "soapy_sdrplay_source",
        "bandwidth",
        "the device is configured when the graph starts (frequency and overall gain are settable; the cmd/command message changes the rest)",
    ),
    (
        "soapy_sdrplay_source",
        "antenna",
        "the device is configured when the graph starts (frequency and overall gain are settable; the cmd/command message changes the rest)",
    ),
    (
        "soapy_sdrplay_source",
        "agc",
        "the device is configured when the graph starts (frequency and overall gain are settable; the cmd/command message changes the rest)",
    ),
    (
        "uhd_usrp_source",
        "samp_rate",
        "the device's rate is set when it is opened (a cmd/command message {rate: ...} changes it while running)",
    ),
    (
        "uhd_usrp_source",
        "ant0",
        "the device is configured when the graph starts (frequency and overall gain are settable; the cmd/command message changes the rest)",
    ),
    (
        "uhd_usrp_source",
        "bw0",
        "the device is configured when the graph starts (frequency and overall gain are settable; the cmd/command message changes the rest)",
    ),
    (
        "uhd_usrp_sink",
        "samp_rate",
        "the device's rate is set when it is opened (a cmd/command message {rate: ...} changes it while running)",
    ),
    (
        "uhd_usrp_sink",
        "ant0",
        "the device is configured when the graph starts (frequency and overall gain are settable; the cmd/command message changes the rest)",
    ),
    (
        "uhd_usrp_sink",
        "bw0",
        "the device is configured when the graph starts (frequency and overall gain are settable; the cmd/command message changes the rest)",
    ),
    (
        "soapy_custom_source",
        "bandwidth0",
        "the device is configured when the graph starts",
    ),
    (
        "soapy_custom_source",
        "antenna0",
        "the device is configured when the graph starts",
    ),
    (
        "soapy_custom_source",
        "agc0",
        "the device is configured when the graph starts",
    ),
    (
        "soapy_custom_source",
        "dc_removal0",
        "the device is configured when the graph starts",
    ),
    (
        "soapy_custom_source",
        "dc_offset0",
        "the device is configured when the graph starts",
    ),
    (
        "soapy_custom_source",
        "iq_balance0",
        "the device is configured when the graph starts",
    ),
    (
        "soapy_custom_sink",
        "bandwidth0",
        "the device is configured when the graph starts",
    ),
    (
        "soapy_custom_sink",
        "antenna0",
        "the device is configured when the graph starts",
    ),
    (
        "soapy_custom_sink",
        "dc_offset0",
        "the device is configured when the graph starts",
    ),
    (
        "soapy_custom_sink",
        "iq_balance0",
        "the device is configured when the graph starts",
    ),
    (
        "digital_symbol_sync_xx",
        "loop_bw",
        "the loop is built when the block is made",
    ),
    (
        "digital_symbol_sync_xx",
        "damping",
        "the loop is built when the block is made",
    ),
    (
        "digital_symbol_sync_xx",
        "ted_gain",
        "the loop is built when the block is made",
    ),
    (
        "blocks_multiply_matrix_xx",
        "A",
        "the matrix is read when the block is made",
    ),
    (
        "blocks_matrix_interleaver",
        "rows",
        "the shape is read when the block is made",
    ),
    (
        "blocks_matrix_interleaver",
        "cols",
        "the shape is read when the block is made",
    ),
    (
        "blocks_matrix_interleaver",
        "deint",
        "the shape is read when the block is made",
    ),
    (
        "blocks_tagged_stream_multiply_length",
        "c",
        "the factor is read when the block is made",
    ),
    (
        "digital_corr_est_cc",
        "mark_delay",
        "the delay and threshold are read when the block is made",
    ),
    (
        "digital_corr_est_cc",
        "threshold",
        "the delay and threshold are read when the block is made",
    ),
    (
        "digital_clock_recovery_mm_xx",
        "omega",
        "the loop is built when the block is made",
    ),
    (
        "digital_clock_recovery_mm_xx",
        "gain_omega",
        "the loop is built when the block is made",
    ),
    (
        "digital_clock_recovery_mm_xx",
        "mu",
        "the loop is built when the block is made",
    ),
    (
        "digital_clock_recovery_mm_xx",
        "gain_mu",
        "the loop is built when the block is made",
    ),
    (
        "pdu_pdu_to_stream_x",
        "depth",
        "the queue depth is read when the block is made",
    ),
    (
        "pdu_take_skip_to_pdu",
        "take",
        "take and skip are read when the block is made",
    ),
    (
        "pdu_take_skip_to_pdu",
        "skip",
        "take and skip are read when the block is made",
    ),
    (
        "pdu_tags_to_pdu_x",
        "start_tag",
        "the tags and sizes are read when the block is made",
    ),
    (
        "pdu_tags_to_pdu_x",
        "end_tag",
        "the tags and sizes are read when the block is made",
    ),
    (
        "pdu_tags_to_pdu_x",
        "max_pdu_size",
        "the tags and sizes are read when the block is made",
    ),
    (
        "pdu_tags_to_pdu_x",
        "rate",
        "the tags and sizes are read when the block is made",
    ),
    (
        "pdu_tags_to_pdu_x",
        "prepend",
        "the tags and sizes are read when the block is made",
    ),
    (
        "pdu_tags_to_pdu_x",
        "tail_size",
        "the tags and sizes are read when the block is made",
    ),
    (
        "pdu_tags_to_pdu_x",
        "eob_alignment",
        "the tags and sizes are read when the block is made",
    ),
    (
        "pdu_tags_to_pdu_x",
        "eob_offset",
        "the tags and sizes are read when the block is made",
    ),
    (
        "blocks_burst_tagger",
        "true_key",
        "the tags are read when the block is made",
    ),
    (
        "blocks_burst_tagger",
        "true_value",
        "the tags are read when the block is made",
    ),
    (
        "blocks_burst_tagger",
        "false_key",
        "the tags are read when the block is made",
    ),
    (
        "blocks_burst_tagger",
        "false_value",
        "the tags are read when the block is made",
    ),
    (
        "blocks_rotator_cc",
        "phase_inc",
        "the phase increment is read when the block is made",
    ),
];

/// The GRC keys a callback template reads (`set_taps(${taps})` reads `taps`; `${id}` is the
/// block itself).
fn callback_keys(template: &str) -> Vec<String> {
    let mut keys = Vec::new();
    let mut rest = template;
    while let Some(at) = rest.find("${") {
        rest = &rest[at + 2..];
        let key: String = rest
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !key.is_empty() && key != "id" && !keys.contains(&key) {
            keys.push(key);
        }
    }
    keys
}

#[test]
fn every_callback_of_gnu_radio_sets_a_settable_parameter_or_is_a_known_gap() {
    let dir = Path::new(GRC_BLOCKS);
    if !dir.is_dir() {
        println!("SKIPPED: GNU Radio's block definitions ({GRC_BLOCKS}) are not installed");
        return;
    }
    radioflow_library::link();
    let defs = gnuradio_definitions(dir);
    let mut gaps = Vec::new();
    let mut settable = 0;
    for row in gnuradio::rows() {
        let Some(def) = defs.get(row.id) else {
            continue;
        };
        let templates: Vec<&str> = match &def["templates"]["callbacks"] {
            Yaml::Array(list) => list.iter().filter_map(Yaml::as_str).collect(),
            Yaml::String(one) => vec![one.as_str()],
            _ => Vec::new(),
        };
        // Every block the row can become by its item type.
        let mut blocks = vec![row.block];
        for t in row.types {
            if let (Some(b), Some(_)) = (t.block, t.dtype)
                && !blocks.contains(&b)
            {
                blocks.push(b);
            }
        }
        let mut keys: Vec<String> = Vec::new();
        for key in templates.iter().flat_map(|t| callback_keys(t)) {
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
        for key in keys {
            // A key that is refused unless at one value, or has no effect, cannot change
            // what the block computes: a new value is refused, or changes nothing.
            let Some(name) = row
                .params
                .iter()
                .find(|p| p.key == key)
                .and_then(|p| match p.to {
                    To::Param(n) | To::Convert(n, _) | To::Word(n) => Some(n),
                    To::Only(..) | To::NoEffect(_) => None,
                })
            else {
                continue;
            };
            let all = blocks.iter().all(|b| {
                registry::find(b)
                    .and_then(|d| d.param(name).map(|p| p.settable))
                    .unwrap_or(false)
            });
            if all {
                settable += 1;
            } else {
                gaps.push((row.id, key, name));
            }
        }
    }
    let known = |id: &str, key: &str| CALLBACK_GAPS.iter().any(|(i, k, _)| *i == id && *k == key);
    let unknown: Vec<String> = gaps
        .iter()
        .filter(|(id, key, _)| !known(id, key))
        .map(|(id, key, name)| format!("{id} {key} (radioflow's {name})"))
        .collect();
    // A row compiled out (Soapy without its feature) is neither a gap nor closed.
    let closed: Vec<String> = CALLBACK_GAPS
        .iter()
        .filter(|(id, _, _)| gnuradio::find(id).is_some())
        .filter(|(id, key, _)| !gaps.iter().any(|(i, k, _)| i == id && k == key))
        .map(|(id, key, _)| format!("{id} {key}"))
        .collect();
    for (id, key, why) in CALLBACK_GAPS {
        assert!(!why.is_empty(), "{id} {key}: a known gap without a reason");
    }
    println!(
        "GNU Radio callbacks of mapped blocks: {settable} set a settable parameter, {} are known gaps",
        gaps.len()
    );
    assert!(
        unknown.is_empty(),
        "GNU Radio sets these on a running block; radioflow's parameter is not settable \
         and they are not listed as known gaps:\n{}",
        unknown.join("\n")
    );
    assert!(
        closed.is_empty(),
        "listed as known gaps but settable now (remove them from CALLBACK_GAPS):\n{}",
        closed.join("\n")
    );
}
