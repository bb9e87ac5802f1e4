//! Decodes RDS from an FM multiplex recording: raw little-endian `f32` samples.
//!
//! ```text
//! cargo run --release -p radioflow-rds --example decode_mpx -- FILE RATE_HZ
//! ```
//!
//! Prints synchronisation changes, PI, PTY, PS and RadioText as they are decoded, then the
//! station and block counts. Exits with status 1 on bad arguments or an unreadable file, 2 if
//! no PS name was decoded.

use radioflow_rds::{Decoder, Event};
use std::io::Read;
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(2),
        Err(e) => {
            eprintln!("decode_mpx: {e}");
            ExitCode::from(1)
        }
    }
}

fn run() -> Result<bool, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [path, rate] = args.as_slice() else {
        return Err("usage: decode_mpx FILE RATE_HZ (FILE: raw little-endian f32 MPX)".into());
    };
    let rate: f64 = rate
        .parse()
        .map_err(|e| format!("RATE_HZ {rate:?} is not a number: {e}"))?;
    let mut decoder = Decoder::new(rate).map_err(|e| format!("RATE_HZ: {e}"))?;
    let mut file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let mut bytes = vec![0u8; 1 << 16];
    let mut samples = vec![0f32; bytes.len() / 4];
    let mut carry = 0usize; // bytes of an incomplete sample held over
    let mut total = 0u64;
    loop {
        let n = file
            .read(&mut bytes[carry..])
            .map_err(|e| format!("{path}: {e}"))?;
        if n == 0 {
            break;
        }
        let have = carry + n;
        let whole = have / 4;
        for (s, b) in samples.iter_mut().zip(bytes[..whole * 4].chunks_exact(4)) {
            *s = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        }
        bytes.copy_within(whole * 4..have, 0);
        carry = have - whole * 4;
        for event in decoder.process(&samples[..whole]) {
            let t = total as f64 / rate;
            match event {
                Event::SyncGained => println!("{t:8.3} s  sync gained"),
                Event::SyncLost => println!("{t:8.3} s  sync lost"),
                Event::Pi(pi) => println!("{t:8.3} s  PI {pi:04X}"),
                Event::Pty(pty) => println!("{t:8.3} s  PTY {pty}"),
                Event::Ps(ps) => println!("{t:8.3} s  PS \"{ps}\""),
                Event::RadioText(rt) => println!("{t:8.3} s  RT \"{}\"", rt.trimmed()),
                Event::Group(_) => {}
            }
        }
        total += whole as u64;
    }
    if carry != 0 {
        return Err(format!(
            "{path}: {} bytes is not a whole number of f32 samples",
            total * 4 + carry as u64
        ));
    }
    let st = decoder.station();
    println!(
        "{:.3} s of MPX at {rate} Hz: PI {}, PS {}, RT {}, PTY {}, TP {:?}, TA {:?}",
        total as f64 / rate,
        st.pi.map_or("-".into(), |p| format!("{p:04X}")),
        st.ps.map_or("-".into(), |p| format!("\"{p}\"")),
        st.radiotext
            .map_or("-".into(), |r| format!("\"{}\"", r.trimmed())),
        st.pty.map_or("-".into(), |p| p.to_string()),
        st.tp,
        st.ta,
    );
    println!(
        "groups {}, blocks good {} (corrected {}), bad {}",
        st.groups, st.good_blocks, st.corrected_blocks, st.bad_blocks
    );
    Ok(st.ps.is_some())
}
