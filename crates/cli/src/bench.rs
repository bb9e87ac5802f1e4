//! `radioflow bench ...`: the experiments, their arguments and their printing are the bench
//! crate's (`radioflow_bench`); here, what the binary adds: the `--out` folder checked as every
//! command checks what it writes, and the live view of every run (`--control`).

use radioflow_bench::observe::RunObserver;
pub(crate) use radioflow_bench::BenchArgs;
use std::sync::Arc;

pub(crate) fn main(args: BenchArgs) -> anyhow::Result<()> {
    // Everything that can be refused is refused before anything runs or prints.
    args.check()?;
    if let Some(dir) = args.out() {
        crate::values::writable_dir(dir, "--out")?;
    }
    let observer = args.control().map(|(addr, token, origins)| {
        Arc::new(crate::control::ServeEachRun::new(addr, token, origins)) as Arc<dyn RunObserver>
    });
    radioflow_bench::run(args, observer)?;
    Ok(())
}
