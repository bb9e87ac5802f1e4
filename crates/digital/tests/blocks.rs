//! The blocks' edges, where GNU Radio is not the reference: bad parameters refused with errors
//! naming the block and the parameter, the symbol table changed by a tag or a message, a
//! chunk beyond the table, a soft decoder's constellation of two dimensions, the Costas
//! loop's noise message, the clock sync's whole symbols at the end of a stream; a packet
//! receiver's back end (header/payload demux, slicer, header parser answering the demux) on
//! bursts among false triggers, under every scheduler.

use radioflow_blocks::{VectorSink, VectorSource};
use radioflow_digital::{
    BinarySlicer, ChunksToSymbols, ChunksToSymbolsInt, ChunksToSymbolsShort, Constellation,
    ConstellationSoftDecoder, HeaderPayloadDemux, ProtocolParser,
};
use radioflow_runtime::registry::{self, Dtype};
use radioflow_runtime::testing::Harness;
use radioflow_runtime::{
    Complex32, FlowScheduler, Flowgraph, Pmt, Scheduler, SingleThread, Tag, ThreadPerBlock,
};

fn refusal(id: &str, dtype: Option<Dtype>, params: &[(&str, Pmt)]) -> String {
    let d = registry::find(id).unwrap_or_else(|| panic!("{id} is registered"));
    let given = params.iter().map(|(k, v)| ((*k).to_owned(), v.clone()));
    match registry::make(d, dtype, given) {
        Ok(_) => panic!("{id} made with {params:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bad_parameters_are_refused_naming_the_block_and_the_parameter() {
    // (block, item type, parameters, the error's start)
    type Case = (
        &'static str,
        Option<Dtype>,
        Vec<(&'static str, Pmt)>,
        &'static str,
    );
    let cases: Vec<Case> = vec![
        (
            "constellation_decoder",
            None,
            vec![("constellation", Pmt::symbol("qam64"))],
            "constellation_decoder: constellation is refused: constellation: 'qam64' is not a constellation",
        ),
        (
            "constellation_soft_decoder",
            None,
            vec![("constellation", Pmt::symbol("calcdist points=1,0;-1,0 dim=2"))],
            "constellation_soft_decoder: constellation has dimensionality 2",
        ),
        (
            "chunks_to_symbols",
            Some(Dtype::Float32),
            vec![
                ("symbol_table", Pmt::Vector(vec![Pmt::Double(1.0); 4].into())),
                ("dimension", Pmt::Int(3)),
            ],
            "chunks_to_symbols: symbol_table has 4 symbols, not a whole number of groups of dimension 3",
        ),
        (
            "diff_encoder",
            None,
            vec![("modulus", Pmt::Int(4)), ("coding", Pmt::symbol("nrzi"))],
            "diff_encoder: modulus is 4: NRZI codes bits",
        ),
        (
            "diff_decoder",
            None,
            vec![("modulus", Pmt::Int(0))],
            "diff_decoder: modulus must be",
        ),
        (
            "additive_scrambler",
            None,
            vec![("bits_per_byte", Pmt::Int(9))],
            "additive_scrambler: bits_per_byte is 9, not 1 to 8",
        ),
        (
            "scrambler",
            None,
            vec![("len", Pmt::Int(64))],
            "scrambler: len 64 is over 63",
        ),
        (
            "map_bytes",
            None,
            vec![("map", Pmt::Vector(vec![Pmt::Int(1), Pmt::Int(300)].into()))],
            "map_bytes: map holds 300, not a byte value",
        ),
        (
            "symbol_sync",
            Some(Dtype::Float32),
            vec![("ted_type", Pmt::symbol("ted_gardner")), ("sps", Pmt::Double(1.0))],
            "symbol_sync: sps is 1, must be above 1",
        ),
        (
            "symbol_sync",
            Some(Dtype::Complex32),
            vec![
                ("ted_type", Pmt::symbol("ted_gardner")),
                ("sps", Pmt::Double(4.0)),
                ("ted_gain", Pmt::Double(0.0)),
            ],
            "symbol_sync: ted_gain is 0, must be above 0",
        ),
        (
            "symbol_sync",
            Some(Dtype::Complex32),
            vec![
                ("ted_type", Pmt::symbol("ted_gardner")),
                ("sps", Pmt::Double(4.0)),
                ("resamp_type", Pmt::symbol("ir_pfb_mf")),
                ("nfilters", Pmt::Int(32)),
                ("pfb_mf_taps", Pmt::F32Vector(vec![1.0; 8].into())),
            ],
            "symbol_sync: pfb_mf_taps has 8 taps, fewer than the 32 filter arms",
        ),
        (
            "symbol_sync",
            Some(Dtype::Complex32),
            vec![
                ("ted_type", Pmt::symbol("ted_zero_crossing")),
                ("sps", Pmt::Double(4.0)),
                ("constellation", Pmt::symbol("calcdist points=1,0;-1,0 dim=2")),
            ],
            "symbol_sync: constellation has 2 complex numbers per symbol",
        ),
        (
            "meas_evm",
            None,
            vec![("constellation", Pmt::symbol("calcdist points=1,0;-1,0 dim=2"))],
            "meas_evm: constellation has 2 complex numbers per symbol",
        ),
        (
            "meas_evm",
            None,
            vec![
                ("constellation", Pmt::symbol("qpsk")),
                ("meas_type", Pmt::symbol("evm_rms")),
            ],
            "meas_evm: unknown meas_type 'evm_rms'",
        ),
    ];
    for (id, dtype, params, want) in cases {
        let e = refusal(id, dtype, &params);
        assert!(e.starts_with(want), "{id}: {e}");
    }
}

#[test]
fn a_set_symbol_table_tag_changes_the_table_from_its_item_on() {
    let table = vec![1.0f32, 2.0, 3.0, 4.0];
    let mut h = Harness::new(ChunksToSymbols::new(table, 2).unwrap());
    h.push_tag(
        "in",
        2,
        "set_symbol_table",
        Pmt::F32Vector(vec![-1.0, -2.0, -3.0, -4.0].into()),
    );
    h.push("in", &[0u8, 1, 0, 1]);
    h.work().unwrap();
    let (out, tags) = h.take_output_with_tags::<f32>("out");
    assert_eq!(out, [1.0, 2.0, 3.0, 4.0, -1.0, -2.0, -3.0, -4.0]);
    assert_eq!(tags.len(), 1);
    assert_eq!(
        tags[0].offset, 4,
        "the tag moves to the first symbol of its byte"
    );

    // A byte beyond the table stops the run with an error naming the block.
    let mut h = Harness::new(ChunksToSymbols::new(vec![Complex32::new(1.0, 0.0)], 1).unwrap());
    h.push("in", &[0u8, 1]);
    let e = h.work().unwrap_err().to_string();
    assert!(
        e.contains("chunks_to_symbols: chunk 1 is beyond the symbol table"),
        "{e}"
    );

    // A negative chunk (GNU Radio reads it as a huge index) too.
    let mut h = Harness::new(ChunksToSymbolsShort::new(vec![1.0f32, 2.0], 1).unwrap());
    h.push("in", &[1i16, -1]);
    let e = h.work().unwrap_err().to_string();
    assert!(
        e.contains("chunks_to_symbols_short: chunk -1 is beyond"),
        "{e}"
    );

    // The set_symbol_table message port: the table from the next work call on.
    let mut h = Harness::new(ChunksToSymbolsInt::new(vec![1.0f32, 2.0], 1).unwrap());
    h.push("in", &[1i32, 0]);
    h.work().unwrap();
    h.post("set_symbol_table", Pmt::F32Vector(vec![5.0, 6.0].into()))
        .unwrap();
    h.push("in", &[1i32, 0]);
    h.work().unwrap();
    assert_eq!(h.take_output::<f32>("out"), [2.0, 1.0, 6.0, 5.0]);
    let e = h
        .post("set_symbol_table", Pmt::C32Vector(vec![].into()))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("chunks_to_symbols_int: a set_symbol_table message's value is not a vector"),
        "{e}"
    );

    // A tag whose value is not a vector of the item type is an error too.
    let mut h = Harness::new(ChunksToSymbols::new(vec![Complex32::new(1.0, 0.0)], 1).unwrap());
    h.push_tag("in", 0, "set_symbol_table", Pmt::Int(3));
    h.push("in", &[0u8]);
    let e = h.work().unwrap_err().to_string();
    assert!(
        e.contains("set_symbol_table tag's value is not a vector"),
        "{e}"
    );
}

#[test]
fn the_soft_decoder_writes_whole_symbols_only() {
    let c: Constellation = "16qam".parse().unwrap();
    let mut h = Harness::new(ConstellationSoftDecoder::new(c).unwrap());
    h.push("in", &[Complex32::new(0.3, 0.3); 3]);
    // Room for two symbols and a half: two are written.
    h.set_space("out", 10);
    h.work().unwrap();
    assert_eq!((h.consumed("in"), h.produced("out")), (2, 8));
}

#[test]
fn the_synchronizers_refuse_bad_parameters_naming_them() {
    let taps = Pmt::Vector(vec![Pmt::Double(0.2), Pmt::Double(1.0), Pmt::Double(0.5)].into());
    let pfb = |name: &'static str, v: Pmt| {
        let mut p = vec![
            ("sps", Pmt::Double(2.0)),
            ("loop_bw", Pmt::Double(0.01)),
            ("taps", taps.clone()),
        ];
        p.retain(|(k, _)| *k != name);
        p.push((name, v));
        refusal("pfb_clock_sync", Some(Dtype::Complex32), &p)
    };
    assert!(
        pfb("sps", Pmt::Double(0.5)).contains("sps"),
        "{}",
        pfb("sps", Pmt::Double(0.5))
    );
    assert!(pfb("loop_bw", Pmt::Double(-1.0)).contains("loop_bw"));
    let e = pfb("taps", Pmt::Vector(vec![Pmt::Double(1.0); 4].into()));
    assert!(
        e.starts_with("pfb_clock_sync: ") && e.contains("taps") && e.contains("derivative"),
        "{e}"
    );
    let e = refusal(
        "costas_loop",
        None,
        &[("loop_bw", Pmt::Double(0.1)), ("order", Pmt::Int(3))],
    );
    assert!(
        e.starts_with("costas_loop: ") && e.contains("order") && e.contains("2, 4 or 8"),
        "{e}"
    );
    let e = refusal(
        "fll_band_edge",
        None,
        &[
            ("samps_per_sym", Pmt::Double(4.0)),
            ("rolloff", Pmt::Double(1.5)),
            ("filter_size", Pmt::Int(45)),
            ("loop_bw", Pmt::Double(0.01)),
        ],
    );
    assert!(
        e.starts_with("fll_band_edge: ") && e.contains("rolloff"),
        "{e}"
    );
    let e = refusal(
        "burst_shaper",
        Some(Dtype::Complex32),
        &[
            ("window", Pmt::Vector(vec![Pmt::Double(1.0)].into())),
            ("pre_padding", Pmt::Int(-1)),
        ],
    );
    assert!(
        e.starts_with("burst_shaper: ") && e.contains("pre_padding"),
        "{e}"
    );
    for (key, value) in [
        ("samples_per_symbol", Pmt::Double(1.5)),
        ("excess_bw", Pmt::Double(0.0)),
    ] {
        let e = refusal(
            "constellation_modulator",
            None,
            &[("constellation", Pmt::symbol("qpsk")), (key, value)],
        );
        assert!(
            e.starts_with("constellation_modulator: ") && e.contains(key),
            "{e}"
        );
    }
}

#[test]
fn the_costas_noise_message_sets_the_snr_floor() {
    // With use_snr, the detector weighs by tanh(|y|²·y / noise): a higher floor, a smaller
    // error, so the loop moves less.
    let x = vec![Complex32::from_polar(1.0, 0.3); 50];
    let run = |db: Option<f64>| {
        let mut h = Harness::new(radioflow_digital::CostasLoop::new(0.1, 2, true).unwrap());
        if let Some(db) = db {
            h.post("noise", Pmt::Double(db)).unwrap();
        }
        h.push("in", &x);
        h.work().unwrap();
        h.take_output::<Complex32>("out")
    };
    let (quiet, loud) = (run(None), run(Some(10.0)));
    // The first sample is turned by phase 0 either way; then a 10 dB floor slows the loop.
    assert_eq!(quiet[0], loud[0]);
    assert!(
        loud[5].arg().abs() > quiet[5].arg().abs(),
        "{} {}",
        loud[5],
        quiet[5]
    );
    // Other messages are ignored, as GNU Radio ignores them.
    assert_eq!(run(None), {
        let mut h = Harness::new(radioflow_digital::CostasLoop::new(0.1, 2, true).unwrap());
        h.post("noise", Pmt::symbol("loud")).unwrap();
        h.push("in", &x);
        h.work().unwrap();
        h.take_output::<Complex32>("out")
    });
}

#[test]
fn the_clock_sync_makes_whole_symbols_only() {
    // 2 outputs per symbol: however the input ends, the outputs come in pairs.
    let taps: Vec<f32> = (0..64).map(|i| (i as f32 * 0.1).sin() + 1.5).collect();
    for n in [0, 1, 57, 130, 131] {
        let mut h = Harness::new(
            radioflow_digital::PfbClockSync::<f32>::new(4.0, 0.01, &taps, 8, 4.0, 1.5, 2).unwrap(),
        );
        h.push("in", &vec![0.25f32; n]);
        h.work().unwrap();
        let y = h.take_output::<f32>("out");
        assert_eq!(y.len() % 2, 0, "{n} inputs: {} outputs", y.len());
    }
}

#[test]
fn a_packet_receiver_s_back_end_decodes_every_burst_and_passes_false_triggers() {
    // Bursts of soft bits (+-1 with a little noise): access code, the payload length twice
    // (16 bits each), the payload; each starts with a `time_est` tag, as corr_est tags
    // them in GNU Radio's packet_rx. False triggers between them: their "headers" hold no
    // access code, the parser answers #f and the demux searches on.
    let code = "1011001110001111";
    let format = format!("default access_code={code} threshold=0 bps=1");
    let mut values = Vec::new();
    let mut tags = Vec::new();
    let mut payloads = Vec::new();
    let mut noise = 0u32;
    let mut push = |values: &mut Vec<f32>, bit: u8| {
        noise = noise.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        let n = (noise >> 16) as f32 / 65_536.0 * 0.6 - 0.3;
        values.push(if bit == 1 { 1.0 + n } else { -1.0 + n });
    };
    // Lengths in bytes (the header's field); the payload is 8 bits a byte (bps 1).
    for (p, len) in [5usize, 1, 12, 2, 8].into_iter().enumerate() {
        // Junk with a false trigger in it.
        for i in 0..60 {
            push(&mut values, ((i * 5 + p) % 3 == 0) as u8);
        }
        tags.push(Tag::new(values.len() as u64 - 55, "time_est", 0.5));
        tags.push(Tag::new(values.len() as u64, "time_est", 0.25));
        for b in code.bytes() {
            push(&mut values, b - b'0');
        }
        for _ in 0..2 {
            for k in (0..16).rev() {
                push(&mut values, ((len >> k) & 1) as u8);
            }
        }
        let bits: Vec<u8> = (0..8 * len)
            .map(|i| ((i * 7 + p * 3) % 5 < 2) as u8)
            .collect();
        for &b in &bits {
            push(&mut values, b);
        }
        payloads.extend(bits);
    }
    values.extend([0.5; 20]);
    let schedulers: [Box<dyn Scheduler>; 3] = [
        Box::new(ThreadPerBlock::new()),
        Box::new(SingleThread::new()),
        Box::new(FlowScheduler::new()),
    ];
    for s in schedulers {
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(values.clone()).tags(tags.clone()));
        let demux = fg.add(
            HeaderPayloadDemux::<f32>::new(
                code.len() + 32,
                1,
                0,
                "payload symbols",
                "time_est",
                false,
                "rx_time",
                1.0,
                Vec::new(),
                0,
            )
            .unwrap(),
        );
        let hdr_slicer = fg.add(BinarySlicer::new());
        let parser = fg.add(ProtocolParser::new(format.parse().unwrap()));
        let pld_slicer = fg.add(BinarySlicer::new());
        let sink = fg.add(VectorSink::<u8>::new());
        fg.connect(src, demux).unwrap();
        fg.connect((demux, "out_hdr"), hdr_slicer).unwrap();
        fg.connect(hdr_slicer, parser).unwrap();
        fg.connect_message((parser, "info"), (demux, "header_data"))
            .unwrap();
        fg.connect((demux, "out_payload"), pld_slicer).unwrap();
        fg.connect(pld_slicer, sink).unwrap();
        fg.run_with(s.as_ref()).unwrap();
        let sink = fg.block::<VectorSink<u8>>(sink).unwrap();
        assert_eq!(sink.data(), payloads, "payload bits under {}", s.name());
        let starts: Vec<(u64, i64)> = sink
            .tags()
            .iter()
            .filter(|t| t.key.to_string() == "payload symbols")
            .map(|t| (t.offset, t.value.as_i64().unwrap()))
            .collect();
        assert_eq!(
            starts,
            [(0, 40), (40, 8), (48, 96), (144, 16), (160, 64)],
            "payload length tags under {}",
            s.name()
        );
    }
}
