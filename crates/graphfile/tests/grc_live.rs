//! GRC variables set while the graph runs ([`LiveGrc`]): the widgets of a file with their
//! ranges and options, a change re-evaluating the file and naming the running blocks'
//! settable parameters it changes (and those it cannot), values the widgets refuse, and the
//! QT GUI sinks as the live page's views.

use radioflow_graphfile::grc::{LiveGrc, Value, WidgetKind};
use radioflow_graphfile::{End, GraphError};
use radioflow_runtime::{Pmt, PortName};
use std::path::PathBuf;

fn example() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/graphs/gui_tone.grc")
}

fn value(grc: &LiveGrc, name: &str) -> Value {
    grc.widgets()
        .iter()
        .find(|w| w.name == name)
        .unwrap_or_else(|| panic!("no widget {name}"))
        .value
        .clone()
}

fn param(grc: &LiveGrc, block: &str, name: &str) -> Pmt {
    let b = grc
        .description()
        .blocks
        .iter()
        .find(|b| b.name == block)
        .unwrap();
    b.params.iter().find(|(k, _)| k == name).unwrap().1.clone()
}

#[test]
fn the_widgets_of_a_file_with_their_ranges_options_and_values() {
    let grc = LiveGrc::open(example()).unwrap();
    let w = |name: &str| {
        grc.widgets()
            .iter()
            .find(|w| w.name == name)
            .unwrap()
            .clone()
    };
    assert_eq!(
        w("freq").kind,
        WidgetKind::Range {
            start: 0.0,
            stop: 23000.0,
            step: 100.0,
            integer: false,
            style: "counter_slider".into()
        }
    );
    assert_eq!(w("freq").label, "Tone frequency (Hz)");
    assert_eq!(w("freq").gui_hint, "0,0,1,2");
    // As in GNU Radio's generated Python (`self.freq = freq = 3000`): the file's value as
    // written until the widget moves.
    assert_eq!(w("freq").value, Value::Int(3000));
    assert_eq!(
        w("level").kind,
        WidgetKind::Chooser {
            options: vec![Value::Float(0.25), Value::Float(0.5), Value::Float(1.0)],
            labels: vec!["Quiet".into(), "Medium".into(), "Loud".into()],
            radio: true
        }
    );
    assert_eq!(
        w("dc").kind,
        WidgetKind::Entry {
            kind: "real".into()
        }
    );
    assert_eq!(w("twice").kind, WidgetKind::Label);
    assert_eq!(w("twice").value, Value::Int(6000));
    assert_eq!(w("samp_rate").kind, WidgetKind::Variable);
    assert_eq!(w("samp_rate").value, Value::Int(48000));
}

#[test]
fn setting_a_range_sets_the_running_sources_frequency_and_updates_what_depends_on_it() {
    let mut grc = LiveGrc::open(example()).unwrap();
    let change = grc.set("freq", Value::Int(9000)).unwrap();
    assert_eq!(change.value, Some(Value::Float(9000.0)));
    assert_eq!(
        change.params,
        vec![(
            "analog_sig_source_x_0".to_owned(),
            "frequency".to_owned(),
            Pmt::Double(9000.0)
        )]
    );
    assert!(change.fixed.is_empty(), "{:?}", change.fixed);
    assert_eq!(value(&grc, "twice"), Value::Float(18000.0));
    assert_eq!(
        param(&grc, "analog_sig_source_x_0", "frequency"),
        Pmt::Double(9000.0)
    );
    // The same value again changes nothing.
    let again = grc.set("freq", Value::Float(9000.0)).unwrap();
    assert!(again.params.is_empty() && again.fixed.is_empty());
}

#[test]
fn a_chooser_takes_one_of_its_options_and_sets_the_amplitude() {
    let mut grc = LiveGrc::open(example()).unwrap();
    let change = grc.set("level", Value::Int(1)).unwrap();
    assert_eq!(change.value, Some(Value::Float(1.0)));
    assert_eq!(change.params.len(), 1, "{:?}", change.params);
    let (block, name, v) = &change.params[0];
    assert_eq!(
        (block.as_str(), name.as_str()),
        ("analog_sig_source_x_0", "amplitude")
    );
    assert_eq!(v.as_f64(), Some(1.0));
    let err = grc.set("level", Value::Float(0.3)).unwrap_err();
    assert!(
        matches!(&err, GraphError::Variable { name, message, .. }
            if name == "level" && message.contains("not one of the options (Quiet, Medium, Loud)")),
        "{err}"
    );
    assert_eq!(
        value(&grc, "level"),
        Value::Float(1.0),
        "a refused value changes nothing"
    );
}

#[test]
fn values_the_widgets_refuse_change_nothing() {
    let mut grc = LiveGrc::open(example()).unwrap();
    let refused = |grc: &mut LiveGrc, name: &str, v: Value, what: &str| {
        let err = grc.set(name, v).unwrap_err().to_string();
        assert!(
            err.contains(&format!("variable '{name}'")) && err.contains(what),
            "{err}"
        );
    };
    refused(
        &mut grc,
        "freq",
        Value::Int(30000),
        "outside the range 0 to 23000",
    );
    refused(
        &mut grc,
        "freq",
        Value::Str("high".into()),
        "is not a number",
    );
    refused(&mut grc, "twice", Value::Int(3), "a label shows a value");
    refused(
        &mut grc,
        "nothing",
        Value::Int(3),
        "those that can: samp_rate, freq, level, dc",
    );
    refused(
        &mut grc,
        "dc",
        Value::Str("x".into()),
        "is not of type real",
    );
    assert_eq!(value(&grc, "freq"), Value::Int(3000));
    assert_eq!(
        param(&grc, "analog_sig_source_x_0", "frequency"),
        Pmt::Int(3000)
    );
}

#[test]
fn a_parameter_without_a_run_time_setter_is_named_not_dropped() {
    let mut grc = LiveGrc::open(example()).unwrap();
    // GNU Radio's callbacks set the source's offset and sample rate and the throttle's rate,
    // and radioflow's blocks have the same setters.
    let change = grc.set("dc", Value::Float(0.25)).unwrap();
    assert_eq!(
        change.params,
        vec![(
            "analog_sig_source_x_0".to_owned(),
            "offset".to_owned(),
            Pmt::Double(0.25)
        )]
    );
    assert!(change.fixed.is_empty(), "{:?}", change.fixed);
    // A plain variable many things depend on: the range's end follows it.
    let change = grc.set("samp_rate", Value::Int(96000)).unwrap();
    assert_eq!(
        change.params,
        vec![
            (
                "analog_sig_source_x_0".to_owned(),
                "sample_rate".to_owned(),
                Pmt::Int(96000)
            ),
            (
                "blocks_throttle_0".to_owned(),
                "sample_rate".to_owned(),
                Pmt::Int(96000)
            ),
        ]
    );
    assert!(change.fixed.is_empty(), "{:?}", change.fixed);
    let freq = grc.widgets().iter().find(|w| w.name == "freq").unwrap();
    assert!(
        matches!(freq.kind, WidgetKind::Range { stop, .. } if stop == 47000.0),
        "{:?}",
        freq.kind
    );
    // A FIR filter's taps have no run-time setter in radioflow yet: named, not dropped.
    let mut grc = LiveGrc::parse(FIXED_TAPS.into(), "fixed_taps.grc").unwrap();
    let change = grc.set("g", Value::Float(2.0)).unwrap();
    assert!(change.params.is_empty(), "{:?}", change.params);
    assert_eq!(change.fixed.len(), 1, "{:?}", change.fixed);
    assert!(
        change.fixed[0].contains("block 'fir': parameter 'taps'")
            && change.fixed[0].contains("cannot change it while running"),
        "{:?}",
        change.fixed
    );
}

const FIXED_TAPS: &str = r#"
options:
  parameters: {id: fixed_taps, generate_options: qt_gui}
blocks:
- name: g
  id: variable_qtgui_entry
  parameters: {type: real, value: '1.0', label: Gain}
- name: src
  id: analog_sig_source_x
  parameters: {type: float, samp_rate: '48000', waveform: analog.GR_SIN_WAVE, freq: '1000', amp: '1', offset: '0', phase: '0'}
- name: fir
  id: fir_filter_xxx
  parameters: {type: fff, decim: '1', taps: '[g, 0.5]', samp_delay: '0'}
- name: sink
  id: blocks_null_sink
  parameters: {type: float, vlen: '1', num_inputs: '1', bus_structure_sink: '[[0,],]'}
connections:
- [src, '0', fir, '0']
- [fir, '0', sink, '0']
metadata: {file_format: 1}
"#;

const WIDGETS: &str = r#"
options:
  parameters: {id: widgets, generate_options: qt_gui}
blocks:
- name: base
  id: variable
  parameters: {value: '1000'}
- name: f
  id: variable_qtgui_entry
  parameters: {type: raw, value: base * 2, label: Frequency}
- name: on
  id: variable_qtgui_check_box
  parameters: {type: real, value: '2.0', 'true': '2.0', 'false': '0.5', label: Loud}
- name: kick
  id: variable_qtgui_push_button
  parameters: {type: int, value: '0', pressed: '1', released: '0', label: Kick}
- name: pick
  id: variable_qtgui_chooser
  parameters: {type: string, num_opts: '0', options: "['a', 'b']", labels: "['First']", value: "'a'", widget: combo_box}
- name: broken
  id: variable_qtgui_label
  parameters: {type: real, value: nowhere, label: Broken}
- name: src
  id: analog_sig_source_x
  parameters: {type: float, samp_rate: '48000', waveform: analog.GR_SIN_WAVE, freq: f, amp: 'on', offset: '0', phase: '0'}
- name: sink
  id: blocks_null_sink
  parameters: {type: float, vlen: '1', num_inputs: '1', bus_structure_sink: '[[0,],]'}
connections:
- [src, '0', sink, '0']
metadata: {file_format: 1}
"#;

#[test]
fn raw_entries_check_boxes_push_buttons_and_listed_choosers() {
    let mut grc = LiveGrc::parse(WIDGETS.into(), "widgets.grc").unwrap();
    assert_eq!(value(&grc, "f"), Value::Int(2000));
    // A label of a name nothing defines (as in some of GNU Radio's examples): left off the
    // page with a note; the graph does not need it.
    assert!(grc.widgets().iter().all(|w| w.name != "broken"));
    assert!(
        grc.description()
            .notes
            .iter()
            .any(|n| n.contains("variable_qtgui_label 'broken' is not on the page")),
        "{:?}",
        grc.description().notes
    );
    // A raw entry's text is an expression of the file's variables.
    let change = grc.set("f", Value::Str("base * 3 + 0.5".into())).unwrap();
    assert_eq!(
        change.params,
        vec![(
            "src".to_owned(),
            "frequency".to_owned(),
            Pmt::Double(3000.5)
        )]
    );
    assert!(grc.set("f", Value::Str("base *".into())).is_err());
    assert_eq!(value(&grc, "f"), Value::Float(3000.5));
    // A check box: unchecked is its `false` value.
    let change = grc.set("on", Value::Bool(false)).unwrap();
    assert_eq!(change.value, Some(Value::Float(0.5)));
    assert_eq!(change.params[0].1, "amplitude");
    assert_eq!(change.params[0].2.as_f64(), Some(0.5));
    // A push button pressed: nothing depends on it.
    let change = grc.set("kick", Value::Bool(true)).unwrap();
    assert_eq!(change.value, Some(Value::Int(1)));
    assert!(change.params.is_empty() && change.fixed.is_empty());
    // A chooser of listed options, the missing label shown as the option.
    let pick = grc.widgets().iter().find(|w| w.name == "pick").unwrap();
    assert_eq!(
        pick.kind,
        WidgetKind::Chooser {
            options: vec![Value::Str("a".into()), Value::Str("b".into())],
            labels: vec!["First".into(), "b".into()],
            radio: false
        }
    );
    assert_eq!(
        grc.set("pick", Value::Str("b".into())).unwrap().value,
        Some(Value::Str("b".into()))
    );
    assert!(grc.set("pick", Value::Str("c".into())).is_err());
}

#[test]
fn the_gui_sinks_become_views_of_the_outputs_that_feed_them() {
    let grc = LiveGrc::open(example()).unwrap();
    let all = &grc.description().gui;
    // The tab widget the sinks sit in, then the sinks.
    assert_eq!(all.len(), 4, "{all:?}");
    assert_eq!((all[0].kind, all[0].name.as_str()), ("tabs", "displays"));
    assert_eq!(all[0].labels, ["Spectrum", "Time", "Waterfall"]);
    assert_eq!(all[0].gui_hint, "3,0,1,2");
    let views = &all[1..];
    let throttle = End {
        block: "blocks_throttle_0".into(),
        port: PortName::Index(0),
    };
    let freq = &views[0];
    assert_eq!(
        (freq.name.as_str(), freq.kind, freq.title.as_str()),
        ("qtgui_freq_sink_x_0", "spectrum", "Tone")
    );
    assert_eq!(
        (freq.rate, freq.centre, freq.size),
        (Some(48000.0), 0.0, Some(1024))
    );
    assert_eq!(freq.inputs, vec![(0, throttle.clone())]);
    assert_eq!(freq.gui_hint, "displays@0:0,0,1,1");
    let option = |v: &radioflow_graphfile::GuiView, key: &str| {
        v.options.iter().find(|(k, _)| k == key).map(|(_, x)| *x)
    };
    // Not autoscaling: GRC's fixed limits; no averaging; its redraw period and rate.
    assert_eq!(option(freq, "ymin"), Some(-140.0));
    assert_eq!(option(freq, "ymax"), Some(10.0));
    assert_eq!(option(freq, "average"), Some(1.0));
    assert_eq!(option(freq, "update"), Some(0.1));
    assert_eq!(option(freq, "rate"), Some(48000.0));
    // GRC's Blackman-Harris window by GNU Radio's number, not normalized.
    assert_eq!(option(freq, "window"), Some(5.0));
    assert_eq!(option(freq, "norm"), Some(0.0));
    assert_eq!(freq.labels[0], "");
    let time = &views[1];
    assert_eq!(
        (time.kind, time.title.as_str(), time.size),
        ("time", "Tone in time", Some(256))
    );
    assert_eq!(time.inputs, vec![(0, throttle)]);
    // A free-running trigger on the rising slope; limits of +-1.5.
    assert_eq!(option(time, "trigger"), Some(0.0));
    assert_eq!(option(time, "slope"), Some(1.0));
    assert_eq!(
        (option(time, "ymin"), option(time, "ymax")),
        (Some(-1.5), Some(1.5))
    );
    // The sinks themselves run headless: their inputs go to discarding sinks.
    assert!(grc
        .description()
        .blocks
        .iter()
        .any(|b| b.name == "qtgui_freq_sink_x_0/0"));
}

fn option(v: &radioflow_graphfile::GuiView, key: &str) -> Option<f64> {
    v.options.iter().find(|(k, _)| k == key).map(|(_, x)| *x)
}

#[test]
fn number_histogram_eye_raster_and_vector_sinks_become_views() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/graphs/gui_sinks.grc");
    let grc = LiveGrc::open(path).unwrap();
    let views = &grc.description().gui;
    let kinds: Vec<_> = views.iter().map(|v| (v.name.as_str(), v.kind)).collect();
    assert_eq!(
        kinds,
        [
            ("level", "number"),
            ("histogram", "histogram"),
            ("eye", "eye"),
            ("raster", "raster"),
            ("vector", "vector")
        ]
    );
    let throttle = vec![(
        0,
        End {
            block: "throttle".into(),
            port: PortName::Index(0),
        },
    )];
    let [number, histogram, eye, raster, vector] = &views[..] else {
        unreachable!()
    };
    // The number sink: one-pole average, the bar's range, its unit and label.
    assert_eq!(number.inputs, throttle);
    assert_eq!(
        ["avg", "min", "max", "autoscale", "bar", "factor0"].map(|k| option(number, k)),
        [0.01, -1.5, 1.5, 0.0, 0.0, 1.0].map(Some)
    );
    assert_eq!(
        (number.units[0].as_str(), number.labels[0].as_str()),
        ("V", "filtered")
    );
    // The histogram: its frame, bins and fixed range (it does not autoscale); its line's
    // colour, width, style (solid) and marker (none) as GRC sets them.
    assert_eq!(histogram.size, Some(1024));
    assert_eq!(histogram.colours[..2], ["blue", "red"]);
    assert_eq!(
        ["width0", "style0", "marker0", "alpha0"].map(|k| option(histogram, k)),
        [1.0, 1.0, -1.0, 1.0].map(Some)
    );
    assert_eq!(
        ["bins", "accumulate", "xmin", "xmax"].map(|k| option(histogram, k)),
        [64.0, 0.0, -2.0, 2.0].map(Some)
    );
    // The eye: samples per symbol, the rate its time axis is in, fixed limits.
    assert_eq!((eye.size, eye.rate), (Some(1024), Some(32000.0)));
    assert_eq!(
        ["sps", "ymin", "ymax"].map(|k| option(eye, k)),
        [16.0, -2.0, 2.0].map(Some)
    );
    // The raster: rows times columns in a frame, its intensity range; axes left to QT's
    // defaults (0 to 0 in the file).
    assert_eq!(raster.size, Some(64 * 32));
    assert_eq!(
        ["rows", "all_rows", "cols", "zmin", "zmax"].map(|k| option(raster, k)),
        [64.0, 64.0, 32.0, -1.5, 1.5].map(Some)
    );
    assert_eq!(option(raster, "x_start"), None);
    // The vector sink: one vector a frame, its x axis, reference level and axis titles.
    assert_eq!(vector.size, Some(128));
    assert_eq!(vector.inputs[0].1.block, "to_vector");
    assert_eq!(
        ["x_start", "x_step", "ref_level", "ymin", "ymax"].map(|k| option(vector, k)),
        [0.0, 1.0, 1.0, -2.0, 2.0].map(Some)
    );
    assert_eq!(vector.units, ["sample", "value (V)"]);
}

/// A file with one GUI sink `id` of `params` fed by a float source.
fn one_sink(id: &str, params: &str) -> String {
    format!(
        r#"
options:
  parameters: {{id: sinks, generate_options: qt_gui}}
blocks:
- name: src
  id: analog_sig_source_x
  parameters: {{type: float, samp_rate: '48000', waveform: analog.GR_SIN_WAVE, freq: '1000', amp: '1', offset: '0', phase: '0'}}
- name: sink
  id: {id}
  parameters: {{{params}}}
connections:
- [src, '0', sink, '0']
metadata: {{file_format: 1}}
"#
    )
}

#[test]
fn a_rasters_scaling_axes_and_rows_that_do_not_fit_a_frame() {
    let text = one_sink(
        "qtgui_time_raster_sink_x",
        "type: float, samp_rate: '48000', nrows: '1000', ncols: '256', zmin: '0', zmax: '2', \
         mult: '[2, 0.5]', offset: '[1]', x_start_value: '0', x_end_value: '1e-3', \
         y_start_value: '0', y_end_value: '0', nconnections: '1', name: '\"R\"'",
    );
    let grc = LiveGrc::parse(text, "raster.grc").unwrap();
    let raster = &grc.description().gui[0];
    // 1000 rows of 256 do not fit in a frame of 65,536 samples: the latest 256 are shown.
    assert_eq!(raster.size, Some(256 * 256));
    assert_eq!(
        ["rows", "all_rows", "mult0", "mult1", "offset0", "x_start", "x_end"]
            .map(|k| option(raster, k)),
        [256.0, 1000.0, 2.0, 0.5, 1.0, 0.0, 1e-3].map(Some)
    );
    assert_eq!(
        (option(raster, "offset1"), option(raster, "y_start")),
        (None, None)
    );
    // A scaling that is not a list is refused, naming the parameter.
    let bad = one_sink(
        "qtgui_time_raster_sink_x",
        "type: float, samp_rate: '48000', nrows: '8', ncols: '8', mult: '3', nconnections: '1'",
    );
    let err = LiveGrc::parse(bad, "raster.grc").unwrap_err().to_string();
    assert!(err.contains("mult = 3 is not a list"), "{err}");
}

#[test]
fn a_time_sink_triggered_on_a_tag() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/graphs/gui_tags.grc");
    let grc = LiveGrc::open(path).unwrap();
    let scope = &grc.description().gui[0];
    assert_eq!(scope.tag_key, "strobe");
    assert_eq!(
        ["trigger", "tags", "delay"].map(|k| option(scope, k)),
        [3.0, 1.0, 0.001].map(Some)
    );
    // The strobe's key and value, written `pmt.intern("...")`, are those symbols.
    let strobe = grc
        .description()
        .blocks
        .iter()
        .find(|b| b.name == "strobe")
        .unwrap();
    let param = |name: &str| {
        strobe
            .params
            .iter()
            .find(|(k, _)| k == name)
            .unwrap()
            .1
            .clone()
    };
    assert_eq!(param("key"), radioflow_runtime::Pmt::symbol("strobe"));
    assert_eq!(param("value"), radioflow_runtime::Pmt::symbol("burst"));
}

#[test]
fn a_frequency_sinks_window_and_its_normalization() {
    let text = one_sink(
        "qtgui_freq_sink_x",
        "type: float, fftsize: '512', wintype: window.WIN_FLATTOP, norm_window: 'True', \
         fc: '0', bw: '48000', nconnections: '1'",
    );
    let grc = LiveGrc::parse(text, "freq.grc").unwrap();
    let freq = &grc.description().gui[0];
    assert_eq!(
        ["window", "norm"].map(|k| option(freq, k)),
        [7.0, 1.0].map(Some)
    );
    // A window the sink's GRC definition does not offer (by expression) is refused by name.
    let bad = one_sink(
        "qtgui_waterfall_sink_x",
        "type: float, fftsize: '512', wintype: window.WIN_BARTLETT, fc: '0', bw: '48000', \
         nconnections: '1'",
    );
    let err = LiveGrc::parse(bad, "waterfall.grc")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("wintype = 6 is not one of the windows GRC offers"),
        "{err}"
    );
}

#[test]
fn number_sinks_bars_and_averages_and_what_they_refuse() {
    let text = one_sink(
        "qtgui_number_sink",
        "type: float, avg: '0', graph_type: qtgui.NUM_GRAPH_NONE, autoscale: 'True', \
         min: '-1', max: '1', nconnections: '1', factor1: '1000', unit1: '\"mV\"', name: '\"N\"'",
    );
    let grc = LiveGrc::parse(text, "number.grc").unwrap();
    let number = &grc.description().gui[0];
    assert_eq!(
        ["avg", "bar", "autoscale", "factor0", "factor1"].map(|k| option(number, k)),
        [0.0, 2.0, 1.0, 1000.0, 1.0].map(Some)
    );
    assert_eq!(number.units[0], "mV");
    let bad = one_sink(
        "qtgui_number_sink",
        "type: float, avg: '2', graph_type: qtgui.NUM_GRAPH_HORIZ, nconnections: '1'",
    );
    let err = LiveGrc::parse(bad, "number.grc").unwrap_err().to_string();
    assert!(err.contains("avg = 2 is not between 0 and 1"), "{err}");
    // An eye sink without samples per symbol cannot draw its traces.
    let eye = one_sink(
        "qtgui_eye_sink_x",
        "type: float, size: '256', samp_per_symbol: '0', srate: '48000', nconnections: '1'",
    );
    let err = LiveGrc::parse(eye, "eye.grc").unwrap_err().to_string();
    assert!(err.contains("samp_per_symbol"), "{err}");
}

const MESSAGE_WIDGETS: &str = r#"
options:
  parameters: {id: message_widgets, generate_options: qt_gui}
blocks:
- name: dial
  id: variable_qtgui_dial_control
  parameters: {type: float, value: '100', minimum: '0', maximum: '100', scaleFactor: '10', outputmsgname: level, label: Level}
- name: toggle
  id: variable_qtgui_toggle_button_msg
  parameters: {type: int, value: '0', pressed: '1', released: '0', outputmsgname: 'on', label: Power}
- name: go
  id: variable_qtgui_msg_push_button
  parameters: {type: int, msgName: go, value: '7', label: Go}
- name: edit
  id: qtgui_edit_box_msg
  parameters: {type: float, value: '', key: freq, is_pair: 'True', is_static: 'True', label: Frequency}
- name: led
  id: qtgui_ledindicator
  parameters: {label: '"State"'}
- name: debug
  id: blocks_message_debug
  parameters: {en_uvec: 'True'}
- name: src
  id: analog_sig_source_x
  parameters: {type: float, samp_rate: '48000', waveform: analog.GR_SIN_WAVE, freq: dial * 2, amp: '1', offset: '0', phase: '0'}
- name: sink
  id: blocks_null_sink
  parameters: {type: float, vlen: '1', num_inputs: '1', bus_structure_sink: '[[0,],]'}
connections:
- [src, '0', sink, '0']
- [dial, value, debug, print]
- [toggle, state, debug, print]
- [toggle, state, led, state]
- [go, pressed, debug, store]
- [edit, msg, debug, print]
metadata: {file_format: 1}
"#;

#[test]
fn message_widgets_send_gnu_radios_messages_through_relays_in_the_graph() {
    let mut grc = LiveGrc::parse(MESSAGE_WIDGETS.into(), "message_widgets.grc").unwrap();
    let d = grc.description();
    // Each connected widget is a relay block of its name; its connections leave from `out`.
    for name in ["dial", "toggle", "go", "edit"] {
        let b = d
            .blocks
            .iter()
            .find(|b| b.name == name)
            .unwrap_or_else(|| panic!("{name}"));
        assert_eq!(b.block, "message_relay");
    }
    let from: Vec<String> = d
        .messages
        .iter()
        .map(|c| format!("{} -> {}", c.from, c.to))
        .collect();
    assert!(
        from.contains(&"dial.out -> debug.print".to_owned()),
        "{from:?}"
    );
    assert!(
        from.contains(&"go.out -> debug.store".to_owned()),
        "{from:?}"
    );
    // The LED shows the toggle's messages: a view of the relay's output (its connection is
    // the page's, not the graph's).
    assert!(!from.iter().any(|c| c.contains("led")), "{from:?}");
    let led = d.gui.iter().find(|v| v.name == "led").unwrap();
    assert_eq!(led.kind, "led");
    assert_eq!(
        led.messages,
        [End {
            block: "toggle".into(),
            port: PortName::Name("out".into())
        }]
    );
    assert!(
        !d.notes.iter().any(|n| n.contains("not to led")),
        "{:?}",
        d.notes
    );
    assert!(!d.notes.iter().any(|n| n.contains("'dial' runs headless")));
    // The dial: positions 0..100 times 10; a variable the source's frequency follows, and a
    // (level . value) pair of a double.
    let kind = |grc: &LiveGrc, name: &str| {
        grc.widgets()
            .iter()
            .find(|w| w.name == name)
            .unwrap()
            .kind
            .clone()
    };
    assert_eq!(
        kind(&grc, "dial"),
        WidgetKind::Range {
            start: 0.0,
            stop: 1000.0,
            step: 10.0,
            integer: false,
            style: "dial".into()
        }
    );
    let change = grc.set("dial", Value::Float(250.0)).unwrap();
    assert_eq!(
        change.params,
        [("src".to_owned(), "frequency".to_owned(), Pmt::Double(500.0))]
    );
    assert_eq!(
        change.messages,
        [(
            "dial".to_owned(),
            "in".to_owned(),
            Pmt::pair(Pmt::symbol("level"), Pmt::Double(250.0))
        )]
    );
    // The toggle: (on . 1) as a long when pressed, (on . 0) when released.
    let on = grc.set("toggle", Value::Bool(true)).unwrap();
    assert_eq!(on.messages[0].2, Pmt::pair(Pmt::symbol("on"), Pmt::Int(1)));
    let off = grc.set("toggle", Value::Bool(false)).unwrap();
    assert_eq!(off.messages[0].2, Pmt::pair(Pmt::symbol("on"), Pmt::Int(0)));
    // The push button sends (go . 7) and is no variable: nothing else changes.
    let go = grc.set("go", Value::Bool(true)).unwrap();
    assert_eq!(go.messages[0].2, Pmt::pair(Pmt::symbol("go"), Pmt::Int(7)));
    assert!(go.params.is_empty() && go.fixed.is_empty());
    // The edit box sends what is entered as its type, in a pair with its key.
    let edit = grc.set("edit", Value::Str("2.5e3".into())).unwrap();
    assert_eq!(
        edit.messages[0].2,
        Pmt::pair(Pmt::symbol("freq"), Pmt::Double(2500.0))
    );
    let err = grc
        .set("edit", Value::Str("fast".into()))
        .unwrap_err()
        .to_string();
    assert!(err.contains("'fast' is not a number"), "{err}");
}

#[test]
fn message_widgets_run_headless_send_nothing() {
    // Without the page (`radioflow run --no-gui`), the widgets run headless: no relay, their
    // connections dropped, a note for each.
    let d = radioflow_graphfile::grc::describe_grc(MESSAGE_WIDGETS, "message_widgets.grc").unwrap();
    assert!(!d.blocks.iter().any(|b| b.block == "message_relay"));
    assert!(!d.messages.iter().any(|c| c.from.block == "dial"));
    assert!(
        d.notes.iter().any(|n| n.contains("'dial' runs headless")),
        "{:?}",
        d.notes
    );
}

#[test]
fn gauges_and_leds_follow_their_variables_and_show_the_messages_sent_to_them() {
    let text = r#"
options:
  parameters: {id: indicators, generate_options: qt_gui}
blocks:
- name: gain
  id: variable_qtgui_range
  parameters: {value: '6', start: '0', stop: '100', step: '1', rangeType: int, widget: counter_slider}
- name: lit
  id: variable_qtgui_check_box
  parameters: {type: bool, value: 'True', 'true': 'True', 'false': 'False'}
- name: meter
  id: qtgui_levelgauge
  parameters: {label: Gain, type: int, value: gain, minimum: '0', maximum: '100', scaleFactor: '2', isVertical: 'False'}
- name: dial
  id: qtgui_dialgauge
  parameters: {label: Dial, type: int, value: '3', minimum: '0', maximum: '10'}
- name: lamp
  id: qtgui_ledindicator
  parameters: {label: '"On"', state: lit, onColor: green, offColor: red}
- name: strobe
  id: blocks_message_strobe
  parameters: {msg: 'pmt.cons(pmt.intern("v"), pmt.from_long(5))', period: '1000'}
connections:
- [strobe, strobe, dial, value]
metadata: {file_format: 1}
"#;
    let mut grc = LiveGrc::parse(text.into(), "indicators.grc").unwrap();
    let view = |grc: &LiveGrc, name: &str| {
        grc.description()
            .gui
            .iter()
            .find(|v| v.name == name)
            .unwrap()
            .clone()
    };
    let meter = view(&grc, "meter");
    assert_eq!(meter.kind, "gauge");
    assert_eq!(
        ["min", "max", "value", "scale", "vertical"].map(|k| option(&meter, k)),
        [0.0, 100.0, 6.0, 2.0, 0.0].map(Some)
    );
    // The dial gauge shows the strobe's messages (a tap on its output).
    let dial = view(&grc, "dial");
    assert_eq!(
        dial.messages,
        [End {
            block: "strobe".into(),
            port: PortName::Name("strobe".into())
        }]
    );
    assert_eq!(option(&view(&grc, "lamp"), "state"), Some(1.0));
    assert_eq!(view(&grc, "lamp").units, ["green", "red"]);
    // A variable the gauge's value is written as: the view follows it (GNU Radio's set_value).
    grc.set("gain", Value::Int(40)).unwrap();
    assert_eq!(option(&view(&grc, "meter"), "value"), Some(40.0));
    grc.set("lit", Value::Bool(false)).unwrap();
    assert_eq!(option(&view(&grc, "lamp"), "state"), Some(0.0));
}

#[test]
fn a_string_chooser_takes_its_value_as_written_where_it_is_no_expression() {
    // GNU Radio's uhd_msg_tune.grc: `type: string, value: TX/RX` is the text TX/RX (GRC
    // evaluates a string parameter and, where that fails, takes what is written), and so are
    // its options; a variable built from it sees the string.
    let text = r#"
options:
  parameters: {id: antennas, generate_options: qt_gui}
blocks:
- name: ant
  id: variable_qtgui_chooser
  parameters: {type: string, value: TX/RX, num_opts: '2', option0: TX/RX, option1: RX2, label0: '', label1: '', labels: '[]', options: '[0, 1, 2]', widget: combo_box, gui_hint: ''}
- name: quoted
  id: variable_qtgui_chooser
  parameters: {type: string, value: '"RX2"', num_opts: '2', option0: TX/RX, option1: RX2, label0: '', label1: '', labels: '[]', options: '[0, 1, 2]', widget: combo_box, gui_hint: ''}
- name: both
  id: variable
  parameters: {value: 'ant + "," + quoted'}
- name: src
  id: analog_sig_source_x
  parameters: {type: float, samp_rate: '48000', waveform: analog.GR_SIN_WAVE, freq: '1000', amp: '1', offset: '0', phase: '0'}
- name: sink
  id: blocks_null_sink
  parameters: {type: float, vlen: '1', num_inputs: '1'}
connections:
- [src, '0', sink, '0']
metadata: {file_format: 1}
"#;
    let grc = LiveGrc::parse(text.to_owned(), "antennas.grc").unwrap();
    assert_eq!(value(&grc, "ant"), Value::Str("TX/RX".into()));
    assert_eq!(value(&grc, "quoted"), Value::Str("RX2".into()));
    assert_eq!(value(&grc, "both"), Value::Str("TX/RX,RX2".into()));
}

/// GNU Radio's `test_qtgui_msg.grc` in small: the frequency sink's `freq` output feeds a
/// message edit box, which retunes the filter and feeds a digital number control, whose
/// variable sets the source's frequency.
const FOLLOWING: &str = r#"
options:
  parameters: {id: following, generate_options: qt_gui}
blocks:
- name: tune
  id: qtgui_msgdigitalnumbercontrol
  parameters: {value: '1000', minFreqHz: '0', maxFreqHz: '20000', outputmsgname: tuned, lbl: Tune}
- name: src
  id: analog_sig_source_x
  parameters: {type: complex, samp_rate: '48000', waveform: analog.GR_COS_WAVE, freq: tune, amp: '1', offset: '0', phase: '0'}
- name: xlate
  id: freq_xlating_fir_filter_xxx
  parameters: {type: ccf, decim: '1', taps: '[1.0]', center_freq: '0', samp_rate: '48000'}
- name: spectrum
  id: qtgui_freq_sink_x
  parameters: {type: complex, fftsize: '1024', fc: '0', bw: '48000', nconnections: '1', name: '""'}
- name: edit
  id: qtgui_edit_box_msg
  parameters: {type: float, value: '0', key: freq, is_pair: 'True', is_static: 'True', label: Frequency}
- name: loose
  id: qtgui_edit_box_msg
  parameters: {type: int, value: '0', key: n, is_pair: 'True', is_static: 'False', label: Loose}
- name: debug
  id: blocks_message_debug
  parameters: {en_uvec: 'True'}
connections:
- [src, '0', xlate, '0']
- [xlate, '0', spectrum, '0']
- [spectrum, freq, edit, val]
- [edit, msg, xlate, freq]
- [edit, msg, tune, valuein]
- [edit, msg, spectrum, freq]
- [tune, valueout, debug, print]
- [loose, msg, debug, print]
metadata: {file_format: 1}
"#;

#[test]
fn widgets_with_message_inputs_follow_the_outputs_connected_to_them() {
    let grc = LiveGrc::parse(FOLLOWING.into(), "following.grc").unwrap();
    let d = grc.description();
    // The sink's `freq` output and the edit box leave from relays named as them.
    for name in ["spectrum", "edit", "tune"] {
        let b = d.blocks.iter().find(|b| b.name == name).unwrap();
        assert_eq!(b.block, "message_relay", "{name}");
    }
    let view = d.gui.iter().find(|v| v.name == "spectrum").unwrap();
    assert_eq!(view.clicks.as_deref(), Some("spectrum"));
    assert_eq!(
        view.centre_from,
        [End {
            block: "edit".into(),
            port: PortName::Name("out".into())
        }]
    );
    assert!(
        !d.notes.iter().any(|n| n.contains("not to")),
        "{:?}",
        d.notes
    );
    let out = |block: &str| End {
        block: block.into(),
        port: PortName::Name("out".into()),
    };
    let follows = |name: &str| {
        grc.widgets()
            .iter()
            .find(|w| w.name == name)
            .unwrap()
            .follows
            .clone()
    };
    assert_eq!(follows("edit"), [out("spectrum")]);
    assert_eq!(follows("tune"), [out("edit")]);
    assert!(follows("loose").is_empty());
    // The page's taps carry the messages into widgets: the graph has no connection to them.
    let conns: Vec<String> = d
        .messages
        .iter()
        .map(|c| format!("{} -> {}", c.from, c.to))
        .collect();
    assert_eq!(
        conns,
        [
            "edit.out -> xlate.freq",
            "tune.out -> debug.print",
            "loose.out -> debug.print"
        ],
        "{conns:?}"
    );
}

#[test]
fn a_message_edit_box_takes_what_qts_takes_and_sends_it_on() {
    let mut grc = LiveGrc::parse(FOLLOWING.into(), "following.grc").unwrap();
    let msg = Pmt::pair(Pmt::symbol("freq"), Pmt::Double(2500.0));
    let change = grc.receive("edit", &msg).unwrap().expect("taken");
    assert_eq!(change.value, Some(Value::Float(2500.0)));
    assert_eq!(value(&grc, "edit"), Value::Float(2500.0));
    // Sent on unchanged, the same message (not a copy).
    assert_eq!(change.messages.len(), 1);
    let (relay, port, sent) = &change.messages[0];
    assert_eq!((relay.as_str(), port.as_str()), ("edit", "in"));
    assert!(matches!((sent, &msg), (Pmt::Pair(a), Pmt::Pair(b)) if std::sync::Arc::ptr_eq(a, b)));
    // The same message again is ignored (GNU Radio's `pmt::eqv`: loops end there).
    assert_eq!(grc.receive("edit", &msg).unwrap(), None);
    // What QT's box refuses, each saying why; the value shown stays.
    let refused = [
        (Pmt::Double(3.0), "did not find a PMT pair"),
        (
            Pmt::pair(Pmt::symbol("gain"), Pmt::Double(3.0)),
            "got key 'gain' but expected 'freq'",
        ),
        (
            Pmt::pair(Pmt::symbol("freq"), Pmt::Int(3)),
            "3 is not of type float",
        ),
        (
            Pmt::pair(Pmt::Int(1), Pmt::Double(3.0)),
            "the pair's key is not a symbol",
        ),
    ];
    for (msg, why) in refused {
        let err = grc.receive("edit", &msg).unwrap_err().to_string();
        assert!(err.contains(why) && err.contains("edit"), "{err}");
    }
    assert_eq!(value(&grc, "edit"), Value::Float(2500.0));
    // A box whose key is not static takes the pair's key; what it then sends carries it.
    let change = grc
        .receive("loose", &Pmt::pair(Pmt::symbol("count"), Pmt::Int(9)))
        .unwrap()
        .unwrap();
    assert_eq!(change.value, Some(Value::Int(9)));
    let typed = grc.set("loose", Value::Str("12".into())).unwrap();
    assert_eq!(
        typed.messages,
        [(
            "loose".to_owned(),
            "in".to_owned(),
            Pmt::pair(Pmt::symbol("count"), Pmt::Int(12))
        )]
    );
    // Another variable's change does not reset what the boxes show.
    grc.set("tune", Value::Float(1500.0)).unwrap();
    assert_eq!(value(&grc, "edit"), Value::Float(2500.0));
    assert_eq!(value(&grc, "loose"), Value::Int(12));
}

#[test]
fn a_digital_number_control_sets_its_variable_from_the_pair_it_receives() {
    let mut grc = LiveGrc::parse(FOLLOWING.into(), "following.grc").unwrap();
    assert_eq!(param(&grc, "src", "frequency").as_f64(), Some(1000.0));
    // Any key; a long or a double; the source's frequency follows, and the control sends
    // `(outputmsgname . value)` as a double.
    let change = grc
        .receive("tune", &Pmt::pair(Pmt::symbol("freq"), Pmt::Int(4000)))
        .unwrap()
        .unwrap();
    assert_eq!(value(&grc, "tune"), Value::Float(4000.0));
    assert_eq!(
        change.params,
        [(
            "src".to_owned(),
            "frequency".to_owned(),
            Pmt::Double(4000.0)
        )]
    );
    assert_eq!(
        change.messages,
        [(
            "tune".to_owned(),
            "in".to_owned(),
            Pmt::pair(Pmt::symbol("tuned"), Pmt::Double(4000.0))
        )]
    );
    for (msg, why) in [
        (Pmt::Double(5.0), "takes a pair"),
        (
            Pmt::pair(Pmt::symbol("freq"), Pmt::symbol("x")),
            "is not an int or a float",
        ),
    ] {
        let err = grc.receive("tune", &msg).unwrap_err().to_string();
        assert!(err.contains(why), "{err}");
    }
    // A widget without a message input receives nothing.
    let err = grc.receive("debug", &Pmt::Null).unwrap_err().to_string();
    assert!(
        err.contains("no widget of this name has a message input"),
        "{err}"
    );
}
