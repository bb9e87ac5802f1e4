//! `radioflow serve --listen ADDR --token T`: a host's endpoint for graphs spread across hosts
//! (`radioflow run GRAPH --hosts ...`, see `radioflow_hosts`).

use clap::Args;
use std::net::SocketAddr;

#[derive(Args)]
pub(crate) struct ServeArgs {
    /// The control address. Loopback unless told otherwise; the data links bind on the same
    /// IP (on ports the system picks).
    #[arg(long, default_value = "127.0.0.1:7300")]
    listen: SocketAddr,
    /// The token a coordinator must present (or the environment's RADIOFLOW_TOKEN); generated
    /// and printed when neither is given.
    #[arg(long, env = "RADIOFLOW_TOKEN", hide_env_values = true)]
    token: Option<String>,
    /// Serve one coordinator's session, then exit.
    #[arg(long)]
    once: bool,
}

pub(crate) fn main(a: ServeArgs) -> anyhow::Result<()> {
    let token = match a.token {
        Some(t) if !t.is_empty() => t,
        _ => {
            let t = radioflow_hosts::generate_token();
            eprintln!("serve: token {t}");
            t
        }
    };
    let mut config = radioflow_hosts::ServeConfig::new(a.listen, token);
    config.once = a.once;
    let server = radioflow_hosts::Server::bind(config)?;
    // The line tests and scripts wait for.
    eprintln!("serve: listening on {}", server.local_addr()?);
    server.run()?;
    Ok(())
}
