//! The SoapySDR blocks through a real SoapySDR module and an emulated device: SoapySDR's
//! `redpitaya` module talking TCP to a Red Pitaya emulated on loopback (tests/soapy). What
//! the device streams arrives whole and in order, what the sink sends reaches the device
//! whole and in order, the settings reach the device, and what goes wrong is an error naming
//! the block and the device. Without the module these tests say SKIPPED and pass; CI installs
//! it (scripts/system-deps.sh).
#![cfg(feature = "soapysdr")]

#[path = "soapy/recording_module.rs"]
mod recording_module;
#[path = "soapy/red_pitaya.rs"]
mod red_pitaya;

use radioflow_blocks::runtime::registry::{self, Dtype};
use radioflow_blocks::runtime::{default_scheduler, Complex32, Flowgraph, Pmt, RunError};
use radioflow_blocks::{Head, Throttle, VectorSink, VectorSource};
use radioflow_interop::{SoapySink, SoapySource};
use red_pitaya::{rate_command, skip_without_module, RedPitaya};
use std::time::{Duration, Instant};

/// Runs `fg`; a stream that stalls fails the test after a minute instead of hanging it.
fn run_within_a_minute(fg: &mut Flowgraph) -> Result<(), RunError> {
    fg.start(default_scheduler().as_ref())?;
    let deadline = Instant::now() + Duration::from_secs(60);
    while !fg.is_finished() {
        if Instant::now() > deadline {
            fg.stop();
            let _ = fg.wait();
            panic!("the graph did not finish within a minute (a stalled stream?)");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    fg.wait()
}

/// Sample `k` of the emulated device's stream: the count itself, exact in `f32` below 2^24.
fn counter(k: u64) -> [f32; 2] {
    let k = (k % (1 << 24)) as f32;
    [k, -k]
}

#[test]
fn the_device_stream_arrives_whole_and_in_order() {
    if skip_without_module("the_device_stream_arrives_whole_and_in_order") {
        return;
    }
    let device = RedPitaya::start(1.25e6, counter);
    const N: u64 = 1_250_000; // 1 s
    let t0 = Instant::now();
    let mut fg = Flowgraph::new();
    // 1.25 Msps (the Red Pitaya's rate code 5) at 10 MHz.
    let src = SoapySource::new(device.args(), 1.25e6, 10e6)
        .gain(Some(20.0))
        .limit(N)
        .open()
        .unwrap();
    let src = fg.add(src);
    let sink = fg.add(VectorSink::<Complex32>::new());
    fg.connect(src, sink).unwrap();
    run_within_a_minute(&mut fg).unwrap();
    let got = fg.block::<VectorSink<Complex32>>(sink).unwrap().data();
    assert_eq!(got.len() as u64, N);
    if let Some(k) = (0..N as usize).find(|&k| got[k] != Complex32::new(k as f32, -(k as f32))) {
        panic!("sample {k} is {}, not {k}", got[k]);
    }
    assert_eq!(fg.block::<SoapySource>(src).unwrap().overflows(), 0);
    // On activation the module tells the device the frequency, then the rate.
    let log = device.wait_for(Duration::from_secs(5), |l| l.rx_commands.len() >= 2);
    assert_eq!(log.rx_commands, [10_000_000, rate_command(5)]);
    assert_eq!(log.rx_streams, 1);
    eprintln!("{N} samples through SoapySDR in {:?}", t0.elapsed());
}

/// The graph paced at a fifth of the device's rate: it falls behind from the start, the
/// module's socket fills with partly read buffers and less than a whole read stays queued
/// (tests/soapy/red_pitaya.rs). The source's shorter reads after a timeout keep the stream
/// going: every sample arrives, in order (TCP slows the device down; nothing is lost).
/// Stalled for good before the source halved its reads.
#[test]
fn a_graph_slower_than_the_device_still_gets_every_sample_in_order() {
    if skip_without_module("a_graph_slower_than_the_device_still_gets_every_sample_in_order") {
        return;
    }
    let device = RedPitaya::start(1.25e6, counter);
    const N: u64 = 200_000; // 0.8 s at the graph's pace
    let mut fg = Flowgraph::new();
    let src = SoapySource::new(device.args(), 1.25e6, 10e6)
        .limit(N)
        .open()
        .unwrap();
    let src = fg.add(src);
    let slow = fg.add(Throttle::<Complex32>::new(250e3));
    let sink = fg.add(VectorSink::<Complex32>::new());
    fg.connect(src, slow).unwrap();
    fg.connect(slow, sink).unwrap();
    run_within_a_minute(&mut fg).unwrap();
    let got = fg.block::<VectorSink<Complex32>>(sink).unwrap().data();
    assert_eq!(got.len() as u64, N);
    if let Some(k) = (0..N as usize).find(|&k| got[k] != Complex32::new(k as f32, -(k as f32))) {
        panic!("sample {k} is {}, not {k}", got[k]);
    }
}

#[test]
fn a_source_made_by_the_registry_streams_until_the_graph_ends_downstream() {
    if skip_without_module("a_source_made_by_the_registry_streams_until_the_graph_ends_downstream")
    {
        return;
    }
    let device = RedPitaya::start(500e3, counter);
    let given = vec![
        ("args".to_owned(), Pmt::symbol(device.args())),
        ("sample_rate".to_owned(), Pmt::Double(500e3)),
        ("frequency".to_owned(), Pmt::Double(7.1e6)),
    ];
    let block = registry::make(
        registry::find("soapy_source").unwrap(),
        Some(Dtype::Complex32),
        given,
    )
    .unwrap();
    let mut fg = Flowgraph::new();
    let src = fg.add_boxed(None, block);
    let head = fg.add(Head::<Complex32>::new(100_000));
    let sink = fg.add(VectorSink::<Complex32>::new());
    fg.connect(src, head).unwrap();
    fg.connect(head, sink).unwrap();
    run_within_a_minute(&mut fg).unwrap();
    let got = fg.block::<VectorSink<Complex32>>(sink).unwrap().data();
    assert!(got
        .iter()
        .enumerate()
        .all(|(k, &s)| s == Complex32::new(k as f32, -(k as f32))));
    assert_eq!(got.len(), 100_000);
    let log = device.wait_for(Duration::from_secs(5), |l| l.rx_commands.len() >= 2);
    assert_eq!(log.rx_commands, [7_100_000, rate_command(4)]);
}

#[test]
fn the_sink_sends_every_sample_in_order() {
    if skip_without_module("the_sink_sends_every_sample_in_order") {
        return;
    }
    let device = RedPitaya::start(250e3, counter);
    const N: usize = 1_000_000;
    let data: Vec<Complex32> = (0..N)
        .map(|k| Complex32::new(k as f32, 0.5 - k as f32))
        .collect();
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(data.clone()));
    let sink = fg.add(SoapySink::new(device.args(), 250e3, 14.2e6).open().unwrap());
    fg.connect(src, sink).unwrap();
    run_within_a_minute(&mut fg).unwrap();
    // The graph's end closes the stream; the device has everything by the time it sees that.
    let log = device.wait_for(Duration::from_secs(10), |l| l.tx_closed);
    assert!(
        log.tx_closed,
        "the module did not close the transmit stream"
    );
    assert_eq!(log.tx_samples.len(), N);
    if let Some(k) = (0..N).find(|&k| log.tx_samples[k] != [data[k].re, data[k].im]) {
        panic!("sample {k} is {:?}, not {}", log.tx_samples[k], data[k]);
    }
    assert_eq!(log.tx_commands, [14_200_000, rate_command(3)]);
    assert!(log.rx_commands.is_empty());
}

#[test]
fn a_frequency_the_device_does_not_keep_is_an_error_saying_what_it_did() {
    if skip_without_module("a_frequency_the_device_does_not_keep_is_an_error_saying_what_it_did") {
        return;
    }
    let device = RedPitaya::start(1.25e6, counter);
    // The Red Pitaya tunes up to 60 MHz and keeps its frequency (600 kHz) when asked for more.
    let e = SoapySource::new(device.args(), 1.25e6, 100e6)
        .open()
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "soapy_source (device '{}'): the device is tuned to 600000 Hz, not the 100000000 Hz \
             asked for (its range: 625000-60000000 Hz)",
            device.args()
        )
    );
    assert!(!e.is_not_found());
}

#[test]
fn a_device_that_does_not_answer_fails_the_start_naming_block_and_device() {
    if skip_without_module("a_device_that_does_not_answer_fails_the_start_naming_block_and_device")
    {
        return;
    }
    // A port nobody listens on: the module finds its device by the arguments alone, and
    // connects when the stream starts.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let args = format!("driver=redpitaya,addr=127.0.0.1,port={port}");
    let mut fg = Flowgraph::new();
    let src = fg.add(SoapySource::new(args.clone(), 1.25e6, 10e6).open().unwrap());
    let sink = fg.add(VectorSink::<Complex32>::new());
    fg.connect(src, sink).unwrap();
    let e = run_within_a_minute(&mut fg).unwrap_err().to_string();
    assert!(
        e.contains(&format!(
            "soapy_source (device '{args}'): cannot start streaming: "
        )),
        "{e}"
    );
}

#[test]
fn no_device_is_an_error_naming_the_arguments() {
    let e = SoapySource::new("driver=radioflow_no_such_driver", 2.4e6, 100e6)
        .open()
        .unwrap_err();
    assert!(e.is_not_found());
    assert_eq!(
        e.to_string(),
        "soapy_source (device 'driver=radioflow_no_such_driver'): no SoapySDR device matches \
         (is it plugged in, and its driver's module installed? SoapySDRUtil --find lists the \
         devices found)"
    );
    // The same from the registry: made, then failing when the graph starts.
    let given = vec![
        (
            "args".to_owned(),
            Pmt::symbol("driver=radioflow_no_such_driver"),
        ),
        ("sample_rate".to_owned(), Pmt::Double(2.4e6)),
        ("frequency".to_owned(), Pmt::Double(100e6)),
    ];
    let block = registry::make(registry::find("soapy_sink").unwrap(), None, given).unwrap();
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(vec![Complex32::new(0.0, 0.0); 4]));
    let sink = fg.add_boxed(None, block);
    fg.connect(src, sink).unwrap();
    let e = run_within_a_minute(&mut fg).unwrap_err().to_string();
    assert!(
        e.contains(
            "soapy_sink (device 'driver=radioflow_no_such_driver'): no SoapySDR device matches"
        ),
        "{e}"
    );
    // Arguments that are not key=value pairs, from the registry: refused when made.
    let given = vec![
        ("args".to_owned(), Pmt::symbol("rtlsdr")),
        ("sample_rate".to_owned(), Pmt::Double(2.4e6)),
        ("frequency".to_owned(), Pmt::Double(100e6)),
    ];
    let e = registry::make(registry::find("soapy_source").unwrap(), None, given).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("soapy_source: 'rtlsdr' is not a key=value pair"),
        "{e}"
    );
}

/// Retuned while streaming, as a GRC slider or GNU Radio's `cmd` message does: the frequency
/// message input and the `cmd` dict reach the device in the order posted (the module sends
/// each frequency on its control connection); a command it cannot carry out is skipped with
/// the stream going on.
#[test]
fn a_running_source_is_retuned_by_its_message_inputs() {
    if skip_without_module("a_running_source_is_retuned_by_its_message_inputs") {
        return;
    }
    use radioflow_blocks::runtime::Direction;
    let device = RedPitaya::start(500e3, counter);
    let mut fg = Flowgraph::new();
    let src = fg.add(SoapySource::new(device.args(), 500e3, 10e6).open().unwrap());
    let sink = fg.add(VectorSink::<Complex32>::new());
    fg.connect(src, sink).unwrap();
    let inputs = fg.port_names(src, Direction::MessageInput);
    let port = |name: &str| inputs.iter().position(|p| *p == name).unwrap();
    let (frequency, cmd) = (port("frequency"), port("cmd"));
    fg.start(default_scheduler().as_ref()).unwrap();
    // Streaming: the module has sent the frequency and the rate, and samples came (their
    // first has the start's tags).
    device.wait_for(Duration::from_secs(20), |l| l.rx_commands.len() >= 2);
    let stats = fg.stats_handle().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while stats.get(src).unwrap().items_produced == 0 {
        assert!(Instant::now() < deadline, "no sample within a minute");
        std::thread::sleep(Duration::from_millis(5));
    }
    let poster = fg.message_poster().unwrap();
    let dict = |entries: &[(&str, Pmt)]| {
        Pmt::dict_from(entries.iter().map(|(k, v)| (Pmt::symbol(*k), v.clone())))
    };
    assert!(poster.post(src, frequency, Pmt::Double(7.1e6)));
    assert!(poster.post(
        src,
        cmd,
        dict(&[("freq", Pmt::symbol("high")), ("volume", Pmt::Int(1))])
    ));
    assert!(poster.post(src, cmd, dict(&[("freq", Pmt::Double(14.2e6))])));
    // Above the device's range: it keeps its frequency, the block says so and goes on.
    assert!(poster.post(src, frequency, Pmt::Double(100e6)));
    // For another channel: not this block's.
    assert!(poster.post(
        src,
        cmd,
        dict(&[("chan", Pmt::Int(1)), ("freq", Pmt::Double(3.5e6))])
    ));
    assert!(poster.post(src, cmd, dict(&[("freq", Pmt::Int(21_000_000))])));
    let log = device.wait_for(Duration::from_secs(20), |l| l.rx_commands.len() >= 5);
    fg.stop();
    fg.wait().unwrap();
    assert_eq!(
        log.rx_commands,
        [
            10_000_000,
            rate_command(4),
            7_100_000,
            14_200_000,
            21_000_000
        ]
    );
    assert_eq!(fg.block::<SoapySource>(src).unwrap().overflows(), 0);
    let src_block = fg.block::<SoapySource>(src).unwrap();
    assert_eq!(src_block.frequency(), 21e6);
    // rx_freq/rx_rate at the first sample and after each retune carried out, in order.
    let sink = fg.block::<VectorSink<Complex32>>(sink).unwrap();
    let tags: Vec<(u64, String, f64)> = sink
        .tags()
        .iter()
        .map(|t| (t.offset, t.key.to_string(), t.value.as_f64().unwrap()))
        .collect();
    let freqs: Vec<f64> = tags
        .iter()
        .filter(|t| t.1 == "rx_freq")
        .map(|t| t.2)
        .collect();
    // Retunes carried out between the same two reads share one tag (the frequency the next
    // sample is read at), and the graph may stop before a read after the last: those tagged
    // are, in order, some of those carried out (not the one refused), the first always.
    let done = [10e6, 7.1e6, 14.2e6, 21e6];
    let mut rest = done.iter();
    assert!(freqs.iter().all(|f| rest.any(|d| d == f)), "{tags:?}");
    assert_eq!(freqs[0], 10e6, "{tags:?}");
    // Each with the rate, at the same sample; the first at sample 0.
    for pair in tags.chunks(2) {
        assert_eq!(
            (pair[0].0, &*pair[1].1, pair[1].2),
            (pair[1].0, "rx_rate", 500e3)
        );
    }
    assert_eq!(tags[0].0, 0);
    assert!(tags.windows(2).all(|w| w[0].0 <= w[1].0), "{tags:?}");
    assert!(tags.last().unwrap().0 < sink.data().len() as u64);
}

/// GNU Radio's UHD blocks' settings, through SoapySDR's module interface: the start's
/// commands for the device's time (GRC's `sync`), frontend mapping (the subdevice spec) and
/// normalized gain are accepted, and a running source follows gr-uhd's `command` dicts on the
/// `command` input: `freq` retunes; `lo_offset` goes to the module as SoapySDR's `OFFSET`
/// tune argument (the Red Pitaya, which has no DSP stage to take the offset, tunes its one
/// oscillator to frequency + offset, and the block says it is not where asked and goes on);
/// a key SoapySDR cannot express (`mtune`) is skipped.
#[test]
fn gr_uhd_s_command_dicts_and_start_settings_reach_the_device() {
    if skip_without_module("gr_uhd_s_command_dicts_and_start_settings_reach_the_device") {
        return;
    }
    use radioflow_blocks::runtime::Direction;
    let dict = |entries: &[(&str, Pmt)]| {
        Pmt::dict_from(entries.iter().map(|(k, v)| (Pmt::symbol(*k), v.clone())))
    };
    let device = RedPitaya::start(500e3, counter);
    let given = vec![
        ("args".to_owned(), Pmt::symbol(device.args())),
        ("sample_rate".to_owned(), Pmt::Double(500e3)),
        ("frequency".to_owned(), Pmt::Double(10e6)),
        ("agc".to_owned(), Pmt::Bool(false)),
        (
            "commands".to_owned(),
            Pmt::Vector(
                vec![
                    dict(&[("time_sync", Pmt::symbol("unknown_pps"))]),
                    dict(&[("frontend_mapping", Pmt::symbol("A:0"))]),
                    dict(&[("normalized_gain", Pmt::Double(0.5))]),
                ]
                .into(),
            ),
        ),
    ];
    let block = registry::make(
        registry::find("soapy_source").unwrap(),
        Some(Dtype::Complex32),
        given,
    )
    .unwrap();
    let mut fg = Flowgraph::new();
    let src = fg.add_boxed(None, block);
    let sink = fg.add(VectorSink::<Complex32>::new());
    fg.connect(src, sink).unwrap();
    let inputs = fg.port_names(src, Direction::MessageInput);
    let command = inputs.iter().position(|p| *p == "command").unwrap();
    fg.start(default_scheduler().as_ref()).unwrap();
    device.wait_for(Duration::from_secs(20), |l| l.rx_commands.len() >= 2);
    let poster = fg.message_poster().unwrap();
    assert!(poster.post(
        src,
        command,
        dict(&[("chan", Pmt::Int(0)), ("freq", Pmt::Double(7.1e6))])
    ));
    assert!(poster.post(src, command, dict(&[("mtune", Pmt::Double(1.0))])));
    assert!(poster.post(
        src,
        command,
        dict(&[
            ("freq", Pmt::Double(14.2e6)),
            ("lo_offset", Pmt::Double(100e3))
        ])
    ));
    // The offset is kept only with a tune that went where asked: none here.
    assert!(poster.post(src, command, dict(&[("freq", Pmt::Double(21e6))])));
    let log = device.wait_for(Duration::from_secs(20), |l| l.rx_commands.len() >= 5);
    fg.stop();
    fg.wait().unwrap();
    assert_eq!(
        log.rx_commands,
        [
            10_000_000,
            rate_command(4),
            7_100_000,
            14_300_000,
            21_000_000
        ]
    );
    assert_eq!(fg.block::<SoapySource>(src).unwrap().frequency(), 21e6);
}

/// On a device that keeps time (the recording test module: its reads stamped from the time
/// set), the first sample has `rx_time` in UHD's form and, with `rx_freq`/`rx_rate`, so has the
/// first after an overflow (counted), whose time says how many samples were lost.
#[test]
fn rx_time_tags_follow_the_device_s_timestamps_across_an_overflow() {
    if recording_module::skip_without_recording_module(
        "rx_time_tags_follow_the_device_s_timestamps_across_an_overflow",
    ) {
        return;
    }
    let _turn = recording_module::exclusive();
    let dict = |entries: &[(&str, Pmt)]| {
        Pmt::dict_from(entries.iter().map(|(k, v)| (Pmt::symbol(*k), v.clone())))
    };
    let src = SoapySource::new("driver=radioflowtest,test=rx_time", 1e6, 100e6)
        .gain(Some(10.0))
        .commands(&[
            dict(&[("time_sync", Pmt::symbol("unknown_pps"))]),
            dict(&[(
                "setting",
                dict(&[
                    ("key", Pmt::symbol("overflow_after")),
                    ("value", Pmt::Int(3000)),
                ]),
            )]),
        ])
        .open()
        .unwrap();
    let mut fg = Flowgraph::new();
    let src = fg.add(src);
    let head = fg.add(Head::<Complex32>::new(5000));
    let sink = fg.add(VectorSink::<Complex32>::new());
    fg.connect(src, head).unwrap();
    fg.connect(head, sink).unwrap();
    run_within_a_minute(&mut fg).unwrap();
    assert_eq!(fg.block::<SoapySource>(src).unwrap().overflows(), 1);
    // The block's event counters, with its counters (the live page reads them the same way).
    let events = &fg.stats(src).unwrap().events;
    assert_eq!(events.first(), Some(&("overflows", 1)), "{events:?}");
    assert_eq!(events.get(1).map(|e| e.0), Some("timeouts"), "{events:?}");
    let sink = fg.block::<VectorSink<Complex32>>(sink).unwrap();
    // Samples 0..3000, then (1000 lost) 4000 on.
    let data = sink.data();
    assert_eq!(data[2999], Complex32::new(2999.0, 0.0));
    assert_eq!(data[3000], Complex32::new(4000.0, 0.0));
    let time = |secs: u64, frac: f64| Pmt::Tuple([Pmt::Uint64(secs), Pmt::Double(frac)].into());
    let tags: Vec<(u64, String, Pmt)> = sink
        .tags()
        .iter()
        .map(|t| (t.offset, t.key.to_string(), t.value.clone()))
        .collect();
    assert_eq!(
        tags,
        [
            (0, "rx_freq".into(), Pmt::Double(100e6)),
            (0, "rx_rate".into(), Pmt::Double(1e6)),
            (0, "rx_time".into(), time(0, 0.0)),
            (3000, "rx_freq".into(), Pmt::Double(100e6)),
            (3000, "rx_rate".into(), Pmt::Double(1e6)),
            (3000, "rx_time".into(), time(0, 0.004)),
        ]
    );
}

/// Two channels in one stream, through the recording module: one output per channel, read
/// together (channel c's sample k is (k, c)); the block's settings go to both channels, a
/// start command naming a channel (`chan`) to that one, the device's own (the time) once; the
/// `rx_freq` tags say each channel's frequency. The sink sends its two inputs together.
#[test]
fn two_channels_stream_together_each_with_its_settings() {
    if recording_module::skip_without_recording_module(
        "two_channels_stream_together_each_with_its_settings",
    ) {
        return;
    }
    let _turn = recording_module::exclusive();
    let dict = |entries: &[(&str, Pmt)]| {
        Pmt::dict_from(entries.iter().map(|(k, v)| (Pmt::symbol(*k), v.clone())))
    };
    let before = recording_module::log().len();
    // (Arguments of its own: SoapySDR shares one device among equal arguments.)
    let src = SoapySource::new("driver=radioflowtest,test=two_channels", 1e6, 100e6)
        .nchan(2)
        .gain(Some(10.0))
        .commands(&[
            dict(&[("time_sync", Pmt::symbol("unknown_pps"))]),
            dict(&[("chan", Pmt::Int(1)), ("freq", Pmt::Double(200e6))]),
            dict(&[("chan", Pmt::Int(1)), ("antenna", Pmt::symbol("RX2"))]),
        ]);
    let mut fg = Flowgraph::new();
    let src = fg.add(src);
    let heads = [0, 1].map(|_| fg.add(Head::<Complex32>::new(3000)));
    let sinks = [0, 1].map(|_| fg.add(VectorSink::<Complex32>::new()));
    for c in 0..2 {
        fg.connect((src, c), heads[c]).unwrap();
        fg.connect(heads[c], sinks[c]).unwrap();
    }
    run_within_a_minute(&mut fg).unwrap();
    for (c, &sink) in sinks.iter().enumerate() {
        let sink = fg.block::<VectorSink<Complex32>>(sink).unwrap();
        assert_eq!(sink.data().len(), 3000);
        assert!(sink
            .data()
            .iter()
            .enumerate()
            .all(|(k, &x)| x == Complex32::new(k as f32, c as f32)));
        let freq = sink
            .tags()
            .iter()
            .find(|t| t.key.as_symbol() == Some("rx_freq"))
            .unwrap();
        assert_eq!(
            (freq.offset, freq.value.as_f64()),
            (0, Some([100e6, 200e6][c]))
        );
    }
    let mut lines = recording_module::log()[before..].to_vec();
    lines.retain(|l| l != recording_module::READER);
    assert_eq!(
        lines,
        [
            "make driver=radioflowtest test=two_channels",
            "hardware_time UNKNOWN_PPS 0",
            "rate rx 0 1000000",
            "gain_mode rx 0 off",
            "gain rx 0 10",
            "freq rx 0 100000000",
            "rate rx 1 1000000",
            "antenna rx 1 RX2",
            "gain_mode rx 1 off",
            "gain rx 1 10",
            "freq rx 1 200000000",
            "stream rx CF32 0 1",
            "activate rx",
        ]
    );

    let before = recording_module::log().len();
    let mut fg = Flowgraph::new();
    let sink = fg.add(
        SoapySink::new("driver=radioflowtest,test=two_channel_sink", 1e6, 100e6)
            .nchan(2)
            .gain(Some(5.0)),
    );
    for c in 0..2 {
        let src = fg.add(VectorSource::new(vec![Complex32::new(0.5, 0.0); 2000]));
        fg.connect(src, (sink, c)).unwrap();
    }
    run_within_a_minute(&mut fg).unwrap();
    let lines = recording_module::log()[before..].to_vec();
    let written: usize = lines
        .iter()
        .filter_map(|l| l.strip_prefix("write "))
        .map(|n| n.parse::<usize>().unwrap())
        .sum();
    assert_eq!(written, 2000);
    assert!(
        lines.contains(&"stream tx CF32 0 1".to_owned()),
        "{lines:?}"
    );
    assert!(lines.contains(&"gain tx 1 5".to_owned()), "{lines:?}");
}

/// A device that runs out of samples (an underflow SoapySDR reports on a write): the sink
/// counts it, live with the block's counters, and writes the samples again, so none is lost.
#[test]
fn an_underflow_is_counted_and_no_sample_is_lost() {
    if recording_module::skip_without_recording_module(
        "an_underflow_is_counted_and_no_sample_is_lost",
    ) {
        return;
    }
    let _turn = recording_module::exclusive();
    let setting = Pmt::dict_from([(
        Pmt::symbol("setting"),
        Pmt::dict_from([
            (Pmt::symbol("key"), Pmt::symbol("underflow_after")),
            (Pmt::symbol("value"), Pmt::Int(1500)),
        ]),
    )]);
    let before = recording_module::log().len();
    let mut fg = Flowgraph::new();
    let sink = fg.add(
        SoapySink::new("driver=radioflowtest,test=underflow", 1e6, 100e6)
            .commands(&[setting])
            .open()
            .unwrap(),
    );
    let src = fg.add(VectorSource::new(vec![Complex32::new(0.5, 0.0); 4000]));
    fg.connect(src, sink).unwrap();
    run_within_a_minute(&mut fg).unwrap();
    let lines = recording_module::log()[before..].to_vec();
    let written: usize = lines
        .iter()
        .filter_map(|l| l.strip_prefix("write "))
        .map(|n| n.parse::<usize>().unwrap())
        .sum();
    assert_eq!(written, 4000, "{lines:?}");
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("underflow at "))
            .count(),
        1,
        "{lines:?}"
    );
    assert_eq!(fg.block::<SoapySink>(sink).unwrap().underflows(), 1);
    let events = &fg.stats(sink).unwrap().events;
    assert_eq!(events.first(), Some(&("underflows", 1)), "{events:?}");
}

/// A device that vanishes while streaming (its driver's stream fails, as when a USB radio is
/// unplugged): the run ends with an error naming the block, the device and what failed; a
/// sink has sent every sample before the failure.
#[test]
fn a_device_that_vanishes_mid_run_is_an_error_naming_it() {
    if recording_module::skip_without_recording_module(
        "a_device_that_vanishes_mid_run_is_an_error_naming_it",
    ) {
        return;
    }
    let _turn = recording_module::exclusive();
    let vanish = || {
        Pmt::dict_from([(
            Pmt::symbol("setting"),
            Pmt::dict_from([
                (Pmt::symbol("key"), Pmt::symbol("vanish_after")),
                (Pmt::symbol("value"), Pmt::Int(3000)),
            ]),
        )])
    };
    // Receiving.
    let mut fg = Flowgraph::new();
    let src = fg.add(
        SoapySource::new("driver=radioflowtest,test=vanish_rx", 1e6, 100e6)
            .commands(&[vanish()])
            .open()
            .unwrap(),
    );
    let sink = fg.add(VectorSink::<Complex32>::new());
    fg.connect(src, sink).unwrap();
    let err = run_within_a_minute(&mut fg).unwrap_err().to_string();
    for part in [
        "soapy_source",
        "driver=radioflowtest,test=vanish_rx",
        "reading the stream",
    ] {
        assert!(err.contains(part), "{part}: {err}");
    }
    // (What the vector sink had taken by then depends on timing: a failure stops the whole
    // graph, as in GNU Radio, without draining the buffers.)
    let data = fg.block::<VectorSink<Complex32>>(sink).unwrap().data();
    assert!(data.len() <= 3000, "{}", data.len());
    // Sending.
    let before = recording_module::log().len();
    let mut fg = Flowgraph::new();
    let sink = fg.add(
        SoapySink::new("driver=radioflowtest,test=vanish_tx", 1e6, 100e6)
            .commands(&[vanish()])
            .open()
            .unwrap(),
    );
    let src = fg.add(VectorSource::new(vec![Complex32::new(0.5, 0.0); 5000]));
    fg.connect(src, sink).unwrap();
    let err = run_within_a_minute(&mut fg).unwrap_err().to_string();
    for part in [
        "soapy_sink",
        "driver=radioflowtest,test=vanish_tx",
        "writing the stream",
    ] {
        assert!(err.contains(part), "{part}: {err}");
    }
    let written: usize = recording_module::log()[before..]
        .iter()
        .filter_map(|l| l.strip_prefix("write "))
        .map(|n| n.parse::<usize>().unwrap())
        .sum();
    assert_eq!(written, 3000);
}
