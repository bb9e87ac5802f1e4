//! The paper's Fig. 1 / Listing 1: a chain of four tasks run 100 times, then its profile.
//!
//! `cargo run -p radioflow-framed --example chain`

use radioflow_framed::{Sequence, Status, TaskGraph};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    const N: usize = 256;
    let mut g = TaskGraph::new();
    // t1: a stateful source (a counter module).
    let m1 = g.sequential_module("M1", 0u32);
    let t1 = g.task(m1, "t1");
    let t1_out = g.output::<f32>(t1, "out", N);
    g.codelet(t1, move |n: &mut u32, io| {
        for (i, x) in io.output(t1_out).iter_mut().enumerate() {
            *x = (*n as usize * N + i) as f32;
        }
        *n += 1;
        Status::Continue
    });
    // t2..t4: stateless tasks from closures.
    let mut prev = t1_out;
    for (name, k) in [("t2", 2.0f32), ("t3", 0.5), ("t4", 3.0)] {
        let t = g.stateless(name);
        let i = g.input::<f32>(t, "in", N);
        let o = g.output::<f32>(t, "out", N);
        g.codelet(t, move |_, io| {
            for (o, i) in io.output(o).iter_mut().zip(io.input(i)) {
                *o = i * k;
            }
            Status::Continue
        });
        g.bind(i, prev)?;
        prev = o;
    }
    let mut seq = Sequence::new(g)?;
    println!("order: {:?}", seq.order());
    seq.set_profiling(true);
    let mut count = 0;
    seq.exec(|| {
        count += 1;
        count >= 100
    })?;
    println!("last frame starts with {:?}", &seq.read(prev)[..4]);
    print!("{}", seq.profile().table(N as f64 * 32.0));
    Ok(())
}
