//! `radioflow devices [ARGS]`: the radios SoapySDR finds, with what each channel offers
//! (frequencies, sample rates, bandwidths, gains and their elements, antennas), so that a
//! user knows what to give `soapy_source`, `radioflow fm --device` or a .grc's device block.

use clap::Args;

#[derive(Args)]
pub(crate) struct DevicesArgs {
    /// SoapySDR device arguments narrowing the search (`driver=rtlsdr`; a device on the network
    /// may need its address: `driver=redpitaya,addr=192.168.1.100`); none: every device.
    #[arg(default_value = "")]
    args: String,
}

#[cfg(feature = "soapysdr")]
pub(crate) fn main(args: DevicesArgs) -> anyhow::Result<()> {
    let found = radioflow_interop::soapy::find_devices(&args.args)?;
    if found.is_empty() {
        println!(
            "SoapySDR found no device{} (is one plugged in, and its driver's module installed? \
             `SoapySDRUtil --info` lists the modules)",
            if args.args.is_empty() {
                String::new()
            } else {
                format!(" for '{}'", args.args)
            }
        );
    }
    for d in found {
        print!("{d}");
    }
    Ok(())
}

#[cfg(not(feature = "soapysdr"))]
pub(crate) fn main(_: DevicesArgs) -> anyhow::Result<()> {
    anyhow::bail!("this radioflow was built without SoapySDR (the soapysdr feature)")
}
