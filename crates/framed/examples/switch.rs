//! The paper's Fig. 4: a 3-way switch; a control task picks the path from the data (here the
//! signal level, as a receiver would pick a path by SNR), and one task aborts frames it cannot
//! use (early exit).
//!
//! `cargo run -p radioflow-framed --example switch`

use radioflow_framed::{Sequence, Status, TaskGraph};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    const N: usize = 64;
    let mut g = TaskGraph::new();
    let m = g.sequential_module("radio", 0u32);
    let rx = g.task(m, "receive");
    let samples = g.output::<f32>(rx, "out", N);
    g.codelet(rx, move |k: &mut u32, io| {
        let level = (*k % 7) as f32;
        io.output(samples).fill(level);
        *k += 1;
        Status::Continue
    });
    // Control: 0 when weak, 1 when medium, 2 when strong; abort silent frames.
    let ctl = g.stateless("classify");
    let (c_in, c_out) = (
        g.input::<f32>(ctl, "in", N),
        g.output::<u32>(ctl, "path", 1),
    );
    g.codelet(ctl, move |_, io| {
        let level = io.input(c_in)[0];
        if level == 0.0 {
            return Status::Abort;
        }
        io.output(c_out)[0] = if level < 3.0 {
            0
        } else if level < 5.0 {
            1
        } else {
            2
        };
        Status::Continue
    });
    g.bind(c_in, samples)?;
    let sw = g.switcher::<f32>("sw", 3, N);
    g.bind(sw.commute_in(), samples)?;
    g.bind(sw.commute_path(), c_out)?;
    for (k, gain) in [(0, 100.0f32), (1, 10.0), (2, 1.0)] {
        let t = g.stateless(&format!("path{k}"));
        let (i, o) = (g.input::<f32>(t, "in", N), g.output::<f32>(t, "out", N));
        g.codelet(t, move |_, io| {
            for (o, i) in io.output(o).iter_mut().zip(io.input(i)) {
                *o = i * gain;
            }
            Status::Continue
        });
        g.bind(i, sw.commute_out(k))?;
        g.bind(sw.select_in(k), o)?;
    }
    let sink = g.stateless("sink");
    let (s_in, s_out) = (
        g.input::<f32>(sink, "in", N),
        g.output::<f32>(sink, "out", N),
    );
    g.codelet(sink, move |_, io| {
        io.output(s_out).copy_from_slice(io.input(s_in));
        Status::Continue
    });
    g.bind(s_in, sw.select_out())?;

    let mut seq = Sequence::new(g)?;
    println!("order: {:?}", seq.order());
    for frame in 0..8 {
        match seq.exec_once()? {
            Status::Continue => println!("frame {frame}: {}", seq.read(s_out)[0]),
            Status::Abort => println!("frame {frame}: aborted"),
        }
    }
    Ok(())
}
