//! `radioflow blocks [ID]`: the block library (every registered block), or one block's
//! parameters and ports: what a graph file can name.

use anyhow::bail;
use clap::Args;
use radioflow_runtime::registry::{self, BlockDescription, Dtype};

// The library's blocks register themselves when linked.
use radioflow_graphfile as _;

#[derive(Args)]
pub(crate) struct BlocksArgs {
    /// Show this block's parameters and ports (without: list every block).
    id: Option<String>,
}

pub(crate) fn main(a: BlocksArgs) -> anyhow::Result<()> {
    let Some(id) = a.id else {
        let all = registry::descriptions();
        let width = all.iter().map(|d| d.id.len()).max().unwrap_or(0);
        for d in &all {
            println!("{:width$}  {}", d.id, d.summary);
        }
        println!("\n{} blocks; `radioflow blocks ID` shows one.", all.len());
        return Ok(());
    };
    let Some(d) = registry::find(&id) else {
        let ids: Vec<_> = registry::descriptions().iter().map(|d| d.id).collect();
        bail!("no block '{id}' in the library; blocks: {}", ids.join(", "));
    };
    print_block(d);
    Ok(())
}

fn print_block(d: &BlockDescription) {
    println!("{}: {}", d.id, d.summary);
    if !d.dtypes.is_empty() {
        println!(
            "\nitem types (dtype): {} (default {})",
            Dtype::list(d.dtypes),
            d.dtypes[0]
        );
    }
    if !d.params.is_empty() {
        println!("\nparameters:");
        for p in d.params {
            let mut default = p
                .default
                .map_or("required".into(), |v| format!("default {v}"));
            if p.settable {
                default += "; settable while running";
            }
            println!(
                "  {:12} {} ({}; {default})",
                p.name,
                p.doc,
                p.kind.describe()
            );
        }
    }
    println!("\nports:");
    for p in (d.ports)() {
        println!("  {p}");
    }
}
