//! GNU Radio's device blocks as their GRC parameters make them, through SoapySDR's real
//! module interface: each row of the table (uhd_usrp_source/sink, the per-radio gr-soapy
//! blocks) mapped, made by the registry and run against a SoapySDR module built by the test
//! that records every call it gets (crates/interop/tests/soapy/recording_module.cpp). The
//! device arguments name that module (`driver=radioflowtest` after the row's own driver: the
//! last `driver` wins in SoapySDR's arguments); what reaches it is compared with what GNU
//! Radio's GRC template sets, in its order.
#![cfg(feature = "soapysdr")]

#[path = "../../interop/tests/soapy/recording_module.rs"]
mod recording_module;

use radioflow_blocks::{Head, VectorSink, VectorSource};
use radioflow_library::gnuradio::{self, GrValues};
use radioflow_runtime::registry;
use radioflow_runtime::{Complex32, Flowgraph, Pmt};
use recording_module::{exclusive, log, skip_without_recording_module, READER};

/// GRC parameters as the table takes them (evaluated values by key).
struct Values(Vec<(&'static str, Pmt)>);

impl GrValues for Values {
    fn value(&self, key: &str) -> Option<Result<Pmt, String>> {
        self.0
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| Ok(v.clone()))
    }
    fn keys(&self) -> Vec<String> {
        self.0.iter().map(|(k, _)| (*k).to_owned()).collect()
    }
    fn show(&self, key: &str) -> String {
        self.value(key)
            .map_or_else(String::new, |v| format!("{v:?}"))
    }
}

fn s(text: &str) -> Pmt {
    Pmt::symbol(text)
}

/// The lines the recording device logs while a graph of GRC block `id` with `params` runs
/// `samples` samples (a source into a sink, or samples into a sink block).
fn run(id: &str, params: Vec<(&'static str, Pmt)>, samples: usize) -> Vec<String> {
    let row = gnuradio::find(id).unwrap();
    let mapped = row.map(&Values(params)).unwrap();
    let before = log().len();
    let block = registry::make(
        registry::find(mapped.block).unwrap(),
        mapped.dtype,
        mapped.params.clone(),
    )
    .unwrap_or_else(|e| panic!("{id}: {e}"));
    let mut fg = Flowgraph::new();
    let dev = fg.add_boxed(None, block);
    let nchan = mapped
        .param("nchan")
        .and_then(Pmt::as_u64)
        .map_or(1, |n| n as usize);
    if mapped.block == "soapy_source" {
        let mut sinks = Vec::new();
        for c in 0..nchan {
            let head = fg.add(Head::<Complex32>::new(samples as u64));
            let sink = fg.add(VectorSink::<Complex32>::new());
            fg.connect((dev, c), head).unwrap();
            fg.connect(head, sink).unwrap();
            sinks.push(sink);
        }
        fg.run().unwrap();
        // Channel c's sample k is (k, c).
        for (c, &sink) in sinks.iter().enumerate() {
            let got = fg.block::<VectorSink<Complex32>>(sink).unwrap().data();
            assert_eq!(got.len(), samples);
            assert!(got
                .iter()
                .enumerate()
                .all(|(k, &x)| x == Complex32::new(k as f32, c as f32)));
        }
    } else {
        for c in 0..nchan {
            let src = fg.add(VectorSource::new(vec![Complex32::new(0.5, 0.0); samples]));
            fg.connect(src, (dev, c)).unwrap();
        }
        fg.run().unwrap();
    }
    // The log after the run, without the devices that read it.
    let mut lines = log()[before..].to_vec();
    lines.retain(|l| l != READER);
    lines
}

/// GNU Radio's uhd_packet_rx.grc's USRP settings on the recording device (its `dev_addr`
/// naming the device): GRC's template order, the tune request's LO offset as SoapySDR's
/// OFFSET, Unknown PPS as SoapyUHD's UNKNOWN_PPS hardware time.
#[test]
fn a_uhd_source_sets_the_device_as_gr_uhd_s_template() {
    if skip_without_recording_module("a_uhd_source_sets_the_device_as_gr_uhd_s_template") {
        return;
    }
    let _turn = exclusive();
    let tune = Pmt::dict_from([
        (s("freq"), Pmt::Double(915e6)),
        (s("lo_offset"), Pmt::Double(500e3)),
    ]);
    let lines = run(
        "uhd_usrp_source",
        vec![
            ("type", s("fc32")),
            ("dev_addr", s("driver=radioflowtest,addr=192.168.10.2")),
            ("dev_args", s("")),
            ("sync", s("sync")),
            ("clock_rate", Pmt::Double(0.0)),
            ("num_mboards", Pmt::Int(1)),
            ("clock_source0", s("gpsdo")),
            ("time_source0", s("gpsdo")),
            ("sd_spec0", s("A:0")),
            ("nchan", Pmt::Int(1)),
            ("samp_rate", Pmt::Double(1e6)),
            ("center_freq0", tune),
            ("rx_agc0", s("Disabled")),
            ("gain0", Pmt::Double(0.25)),
            ("gain_type0", s("normalized")),
            ("ant0", s("TX/RX")),
            ("bw0", Pmt::Double(2e6)),
            ("dc_offs_enb0", s("manual")),
            ("dc_offs0", Pmt::Double(0.125)),
            ("iq_imbal_enb0", s("default")),
            ("show_lo_controls", Pmt::Bool(false)),
            ("center_freq1", Pmt::Double(0.0)),
        ],
        5000,
    );
    assert_eq!(
        lines,
        [
            "make addr=192.168.10.2 driver=radioflowtest",
            "clock_source gpsdo",
            "time_source gpsdo",
            "frontend_mapping rx A:0",
            "hardware_time UNKNOWN_PPS 0",
            "rate rx 0 1000000",
            "antenna rx 0 TX/RX",
            "gain_mode rx 0 off",
            "gain rx 0 0",
            "freq rx 0 915000000 OFFSET=500000",
            "bandwidth rx 0 2000000",
            // normalized 0.25 of the device's 0..76 dB
            "gain_mode rx 0 off",
            "gain rx 0 19",
            "dc_offset rx 0 0.125 0",
            "stream rx CF32 0",
            "activate rx",
        ]
    );
}

/// The sink on the recording device: the clock rate as UHD's `master_clock_rate` argument, no
/// sync, the gain in dB; what it is given is written.
#[test]
fn a_uhd_sink_sets_the_device_and_writes_its_samples() {
    if skip_without_recording_module("a_uhd_sink_sets_the_device_and_writes_its_samples") {
        return;
    }
    let _turn = exclusive();
    let lines = run(
        "uhd_usrp_sink",
        vec![
            ("type", s("fc32")),
            ("dev_addr", s("driver=radioflowtest")),
            ("dev_args", s("")),
            ("sync", s("none")),
            ("clock_rate", Pmt::Double(30.72e6)),
            ("num_mboards", Pmt::Int(1)),
            ("nchan", Pmt::Int(1)),
            ("samp_rate", Pmt::Double(2e6)),
            ("center_freq0", Pmt::Double(2.4e9)),
            ("gain0", Pmt::Double(10.0)),
            ("gain_type0", s("default")),
            ("ant0", s("")),
            ("bw0", Pmt::Double(0.0)),
            ("len_tag_name", s("")),
        ],
        3000,
    );
    let writes: usize = lines
        .iter()
        .filter_map(|l| l.strip_prefix("write "))
        .map(|n| n.parse::<usize>().unwrap())
        .sum();
    assert_eq!(writes, 3000);
    let settings: Vec<&String> = lines.iter().filter(|l| !l.starts_with("write ")).collect();
    assert_eq!(
        settings,
        [
            "make driver=radioflowtest master_clock_rate=30720000",
            "rate tx 0 2000000",
            "gain_mode tx 0 off",
            "gain tx 0 10",
            "freq tx 0 2400000000",
            "stream tx CF32 0",
            "activate tx",
        ]
    );
}

/// gr-soapy's per-radio blocks: the HackRF's AMP, LNA and VGA clamped as its template clamps
/// them, after an overall gain of 0; the PlutoSDR's overall gain clamped, its automatic gain.
#[test]
fn per_radio_soapy_blocks_set_what_their_templates_set() {
    if skip_without_recording_module("per_radio_soapy_blocks_set_what_their_templates_set") {
        return;
    }
    let _turn = exclusive();
    let lines = run(
        "soapy_hackrf_source",
        vec![
            ("type", s("fc32")),
            ("dev_args", s("driver=radioflowtest")),
            ("samp_rate", Pmt::Double(2e6)),
            ("bandwidth", Pmt::Double(0.0)),
            ("center_freq", Pmt::Double(100e6)),
            ("amp", Pmt::Bool(false)),
            ("gain", Pmt::Double(50.0)),
            ("vga", Pmt::Double(16.0)),
        ],
        2000,
    );
    assert_eq!(
        lines,
        [
            "make driver=radioflowtest",
            "rate rx 0 2000000",
            "gain_mode rx 0 off",
            "gain rx 0 0",
            "freq rx 0 100000000",
            "bandwidth rx 0 0",
            "gain rx 0 AMP 0",
            "gain rx 0 LNA 40",
            "gain rx 0 VGA 16",
            "stream rx CF32 0",
            "activate rx",
        ]
    );
    let lines = run(
        "soapy_plutosdr_sink",
        vec![
            ("type", s("fc32")),
            ("dev_args", s("driver=radioflowtest")),
            ("samp_rate", Pmt::Double(1e6)),
            ("bandwidth", Pmt::Double(1e6)),
            ("center_freq", Pmt::Double(433e6)),
            ("gain", Pmt::Double(95.0)),
        ],
        100,
    );
    let settings: Vec<&String> = lines.iter().filter(|l| !l.starts_with("write ")).collect();
    assert_eq!(
        settings,
        [
            "make driver=radioflowtest",
            "rate tx 0 1000000",
            "gain_mode tx 0 off",
            "gain tx 0 89",
            "freq tx 0 433000000",
            "bandwidth tx 0 1000000",
            "stream tx CF32 0",
            "activate tx",
        ]
    );
}

/// gr-soapy's custom source with two channels: one stream of channels 0 and 1, channel 0 with
/// the block's settings, channel 1 with its own as GRC's template sets them after channel 0's.
#[test]
fn a_two_channel_custom_source_sets_each_channel() {
    if skip_without_recording_module("a_two_channel_custom_source_sets_each_channel") {
        return;
    }
    let _turn = exclusive();
    let lines = run(
        "soapy_custom_source",
        vec![
            ("type", s("fc32")),
            ("driver", s("radioflowtest")),
            ("nchan", Pmt::Int(2)),
            ("dev_args", s("test=custom")),
            ("stream_args", s("")),
            ("samp_rate", Pmt::Double(1e6)),
            ("tune_args0", s("")),
            ("settings0", s("")),
            ("bandwidth0", Pmt::Double(0.0)),
            ("antenna0", s("RX2")),
            ("center_freq0", Pmt::Double(100e6)),
            ("freq_correction0", Pmt::Double(0.0)),
            ("agc0", Pmt::Bool(false)),
            ("gain0", Pmt::Double(10.0)),
            ("dc_removal0", Pmt::Bool(true)),
            ("dc_offset0", Pmt::Double(0.0)),
            ("iq_balance0", Pmt::Double(0.0)),
            ("tune_args1", s("")),
            ("settings1", s("")),
            ("bandwidth1", Pmt::Double(5e6)),
            ("antenna1", s("TX/RX")),
            ("center_freq1", Pmt::Double(150e6)),
            ("freq_correction1", Pmt::Double(0.0)),
            ("agc1", Pmt::Bool(false)),
            ("gain1", Pmt::Double(20.0)),
            ("dc_removal1", Pmt::Bool(false)),
            ("dc_offset1", Pmt::Double(0.0)),
            ("iq_balance1", Pmt::Double(0.0)),
        ],
        2000,
    );
    assert_eq!(
        lines,
        [
            "make driver=radioflowtest test=custom",
            "rate rx 0 1000000",
            "antenna rx 0 RX2",
            "gain_mode rx 0 off",
            "gain rx 0 10",
            "freq rx 0 100000000",
            "bandwidth rx 0 0",
            "dc_offset_mode rx 0 on",
            "dc_offset rx 0 0 0",
            "iq_balance rx 0 0 0",
            "rate rx 1 1000000",
            "antenna rx 1 TX/RX",
            "gain_mode rx 1 off",
            "gain rx 1 20",
            "freq rx 1 150000000",
            "bandwidth rx 1 5000000",
            "dc_offset_mode rx 1 off",
            "dc_offset rx 1 0 0",
            "iq_balance rx 1 0 0",
            "stream rx CF32 0 1",
            "activate rx",
        ]
    );
}

/// GNU Radio's two-channel USRP sink (`dtv/vv018-miso.grc`'s: both channels tuned with
/// `uhd.tune_request(center_freq, 4e6)`, the same gain): one stream of channels 0 and 1, each
/// tuned with the LO offset, each input written.
#[test]
fn a_two_channel_uhd_sink_tunes_each_channel_with_its_offset() {
    if skip_without_recording_module("a_two_channel_uhd_sink_tunes_each_channel_with_its_offset") {
        return;
    }
    let _turn = exclusive();
    let tune = Pmt::dict_from([
        (s("freq"), Pmt::Double(429e6)),
        (s("lo_offset"), Pmt::Double(4e6)),
    ]);
    let lines = run(
        "uhd_usrp_sink",
        vec![
            ("type", s("fc32")),
            ("dev_addr", s("driver=radioflowtest,send_frame_size=8192")),
            ("dev_args", s("")),
            ("sync", s("sync")),
            ("start_time", Pmt::Double(-1.0)),
            ("clock_rate", Pmt::Double(0.0)),
            ("num_mboards", Pmt::Int(1)),
            ("nchan", Pmt::Int(2)),
            ("stream_chans", Pmt::Vector(Vec::new().into())),
            ("samp_rate", Pmt::Double(9142857.0)),
            ("center_freq0", tune.clone()),
            ("gain0", Pmt::Double(0.0)),
            ("gain_type0", s("default")),
            ("ant0", s("")),
            ("bw0", Pmt::Double(0.0)),
            ("center_freq1", tune),
            ("gain1", Pmt::Double(3.0)),
            ("gain_type1", s("default")),
            ("ant1", s("")),
            ("bw1", Pmt::Double(0.0)),
            ("len_tag_name", s("")),
        ],
        1500,
    );
    let writes: usize = lines
        .iter()
        .filter_map(|l| l.strip_prefix("write "))
        .map(|n| n.parse::<usize>().unwrap())
        .sum();
    assert_eq!(writes, 1500);
    let settings: Vec<&String> = lines.iter().filter(|l| !l.starts_with("write ")).collect();
    assert_eq!(
        settings,
        [
            "make driver=radioflowtest send_frame_size=8192",
            "hardware_time UNKNOWN_PPS 0",
            "rate tx 0 9142857",
            "gain_mode tx 0 off",
            "gain tx 0 0",
            "freq tx 0 429000000 OFFSET=4000000",
            "rate tx 1 9142857",
            "gain_mode tx 1 off",
            "gain tx 1 3",
            "freq tx 1 429000000 OFFSET=4000000",
            "stream tx CF32 0 1",
            "activate tx",
        ]
    );
}

/// The other per-radio blocks' gains, automatic gain, bandwidth and antenna as their templates
/// set them (each template's clamp; the SDRplay's gain reduction; the RTL-SDR's TUNER; the
/// Airspy HF+'s RF and LNA switch), through the recording module.
#[test]
fn every_per_radio_block_sets_its_gains_as_its_template() {
    if skip_without_recording_module("every_per_radio_block_sets_its_gains_as_its_template") {
        return;
    }
    let _turn = exclusive();
    let common = |extra: Vec<(&'static str, Pmt)>| {
        let mut v = vec![
            ("type", s("fc32")),
            ("dev_args", s("driver=radioflowtest")),
            ("samp_rate", Pmt::Double(1e6)),
            ("center_freq", Pmt::Double(14e6)),
        ];
        v.extend(extra);
        v
    };
    // What a run logs between the frequency (set by every block) and the stream.
    let settings = |id: &str, extra: Vec<(&'static str, Pmt)>| -> Vec<String> {
        run(id, common(extra), 100)
            .into_iter()
            .filter(|l| {
                !l.starts_with("write ") && !l.starts_with("make ") && !l.starts_with("rate ")
            })
            .filter(|l| !l.starts_with("stream ") && !l.starts_with("activate "))
            .collect()
    };
    let f0 = Pmt::Double(0.0);
    assert_eq!(
        settings(
            "soapy_rtlsdr_source",
            vec![
                ("freq_correction", f0.clone()),
                ("agc", Pmt::Bool(false)),
                ("gain", Pmt::Double(33.8))
            ]
        ),
        [
            "gain_mode rx 0 off",
            "gain rx 0 0",
            "freq rx 0 14000000",
            "gain rx 0 TUNER 33.799999999999997"
        ]
    );
    assert_eq!(
        settings(
            "soapy_airspyhf_source",
            vec![
                ("freq_correction", f0.clone()),
                ("agc", Pmt::Bool(true)),
                ("gain", Pmt::Double(-60.0)),
                ("lna", Pmt::Bool(true)),
            ]
        ),
        [
            "gain_mode rx 0 on",
            "freq rx 0 14000000",
            "gain rx 0 RF -48",
            "gain rx 0 LNA 6"
        ]
    );
    assert_eq!(
        settings(
            "soapy_sdrplay_source",
            vec![
                ("bandwidth", Pmt::Double(200e3)),
                ("antenna", s("Antenna B")),
                ("freq_correction", f0.clone()),
                ("agc", Pmt::Bool(false)),
                ("gain", Pmt::Double(-20.0)),
            ]
        ),
        [
            "antenna rx 0 Antenna B",
            "gain_mode rx 0 off",
            "gain rx 0 20",
            "freq rx 0 14000000",
            "bandwidth rx 0 200000",
        ]
    );
    for (id, gain, clamped, dir) in [
        ("soapy_bladerf_source", 70.0, "60", "rx"),
        ("soapy_bladerf_sink", 10.0, "17", "tx"),
        ("soapy_limesdr_source", 70.0, "61", "rx"),
        ("soapy_limesdr_sink", -20.0, "-12", "tx"),
    ] {
        assert_eq!(
            settings(
                id,
                vec![
                    ("bandwidth", Pmt::Double(1.5e6)),
                    ("freq_correction", f0.clone()),
                    ("gain", Pmt::Double(gain)),
                ]
            ),
            [
                format!("gain_mode {dir} 0 off"),
                format!("gain {dir} 0 {clamped}"),
                format!("freq {dir} 0 14000000"),
                format!("bandwidth {dir} 0 1500000"),
            ],
            "{id}"
        );
    }
    assert_eq!(
        settings(
            "soapy_hackrf_sink",
            vec![
                ("bandwidth", f0.clone()),
                ("amp", Pmt::Bool(true)),
                ("vga", Pmt::Double(50.0))
            ]
        ),
        [
            "gain_mode tx 0 off",
            "gain tx 0 0",
            "freq tx 0 14000000",
            "bandwidth tx 0 0",
            "gain tx 0 AMP 1",
            "gain tx 0 VGA 47",
        ]
    );
    // The PlutoSDR's automatic gain: on, no gain written.
    assert_eq!(
        settings(
            "soapy_plutosdr_source",
            vec![
                ("bandwidth", f0),
                ("agc", Pmt::Bool(true)),
                ("gain", Pmt::Double(30.0))
            ]
        ),
        [
            "gain_mode rx 0 on",
            "freq rx 0 14000000",
            "bandwidth rx 0 0"
        ]
    );
}
