//! The paper's Fig. 3: a while loop whose number of iterations depends on the data
//! (halve a value until it is below 1), with a switcher's select and commute.
//!
//! `cargo run -p radioflow-framed --example loop`

use radioflow_framed::{Sequence, Status, TaskGraph};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut g = TaskGraph::new();
    let m = g.sequential_module("source", 1.0f64);
    let t1 = g.task(m, "t1");
    let t1_out = g.output::<f64>(t1, "out", 1);
    g.codelet(t1, move |v: &mut f64, io| {
        io.output(t1_out)[0] = *v;
        *v *= 3.0;
        Status::Continue
    });
    let sw = g.switcher::<f64>("sw", 2, 1);
    g.bind(sw.select_in(1), t1_out)?; // the loop is entered on the last path
                                      // t2: the loop condition, from the data: path 0 = once more, path 1 = exit.
    let t2 = g.stateless("t2");
    let (c_in, c_out) = (g.input::<f64>(t2, "in", 1), g.output::<u32>(t2, "path", 1));
    g.codelet(t2, move |_, io| {
        io.output(c_out)[0] = u32::from(io.input(c_in)[0] < 1.0);
        Status::Continue
    });
    g.bind(c_in, sw.select_out())?;
    g.bind(sw.commute_in(), sw.select_out())?;
    g.bind(sw.commute_path(), c_out)?;
    // t3, t4: the loop body (halve, count), back into the select.
    let rounds = g.module("rounds", 0u32);
    let t3 = g.task(rounds, "t3");
    let (h_in, h_out) = (g.input::<f64>(t3, "in", 1), g.output::<f64>(t3, "out", 1));
    g.codelet(t3, move |r: &mut u32, io| {
        *r += 1;
        io.output(h_out)[0] = io.input(h_in)[0] / 2.0;
        Status::Continue
    });
    let t4 = g.stateless("t4");
    let (p_in, p_out) = (g.input::<f64>(t4, "in", 1), g.output::<f64>(t4, "out", 1));
    g.codelet(t4, move |_, io| {
        io.output(p_out)[0] = io.input(p_in)[0];
        Status::Continue
    });
    g.bind(h_in, sw.commute_out(0))?;
    g.bind(p_in, h_out)?;
    g.bind(sw.select_in(0), p_out)?;
    // t5: after the loop.
    let t5 = g.stateless("t5");
    let (e_in, e_out) = (g.input::<f64>(t5, "in", 1), g.output::<f64>(t5, "out", 1));
    g.codelet(t5, move |_, io| {
        io.output(e_out)[0] = io.input(e_in)[0];
        Status::Continue
    });
    g.bind(e_in, sw.commute_out(1))?;

    let mut seq = Sequence::new(g)?;
    println!("order: {:?}", seq.order());
    seq.set_profiling(true);
    for frame in 0..5 {
        seq.exec_once()?;
        println!("frame {frame}: result {}", seq.read(e_out)[0]);
    }
    let p = seq.profile();
    for t in &p.tasks {
        println!("{:<12} ran {} times", t.name, t.stats.count);
    }
    Ok(())
}
