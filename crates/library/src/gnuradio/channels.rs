//! Rows for gr-channels: the channel, dynamic channel, fading, selective fading, CFO and SRO
//! models, the quantizer and the amplitude balance.

use super::common::{param, row};
use super::table::{GrBlock, GrParam, To};
use radioflow_runtime::Pmt;

/// GRC's `complex_vector`: a list as it is, a single number as a list of one (GRC makes
/// `(x, )` of a scalar when it writes the Python).
fn taps(v: &Pmt) -> Result<Pmt, String> {
    match v {
        Pmt::Int(_) | Pmt::Double(_) | Pmt::Complex(_) => Ok(Pmt::Vector(vec![v.clone()].into())),
        _ => Ok(v.clone()),
    }
}

pub(crate) const ROWS: &[GrBlock] = &[
    row(
    "channels_channel_model",
    "channels.channel_model(noise_voltage={noise_voltage},frequency_offset={freq_offset},epsilon={epsilon},taps={taps},noise_seed={seed},block_tags={block_tags})",
    "channel_model",
    &[],
    &[
        param("noise_voltage", "noise_voltage"),
        param("freq_offset", "frequency_offset"),
        param("epsilon", "epsilon"),
        GrParam {
            key: "taps",
            to: To::Convert("taps", taps),
        },
        param("seed", "noise_seed"),
        param("block_tags", "block_tags"),
    ],
    ),
    row(
        "channels_dynamic_channel_model",
        "channels.dynamic_channel_model({samp_rate},{sro_stdev},{sro_maxdev},{cfo_stdev},{cfo_maxdev},{N},{fD},{LOS},{K},{delays},{mags},{ntaps},{noise_amp},{seed})",
        "dynamic_channel_model",
        &[],
        &[
            param("samp_rate", "sample_rate"),
            param("cfo_stdev", "cfo_std_dev"),
            param("cfo_maxdev", "cfo_max_dev"),
            param("sro_stdev", "sro_std_dev"),
            param("sro_maxdev", "sro_max_dev"),
            param("noise_amp", "noise_amp"),
            param("N", "sinusoids"),
            param("fD", "doppler_freq"),
            param("LOS", "los"),
            param("K", "k"),
            param("seed", "seed"),
            param("delays", "delays"),
            param("mags", "mags"),
            param("ntaps", "ntaps"),
        ],
    ),
    row(
        "channels_fading_model",
        "channels.fading_model({N},{fDTs},{LOS},{K},{seed})",
        "fading_model",
        &[],
        &[
            param("N", "sinusoids"),
            param("fDTs", "doppler"),
            param("LOS", "los"),
            param("K", "k"),
            param("seed", "seed"),
        ],
    ),
    row(
        "channels_selective_fading_model",
        "channels.selective_fading_model({N},{fDTs},{LOS},{K},{seed},{delays},{mags},{ntaps})",
        "selective_fading_model",
        &[],
        &[
            param("N", "sinusoids"),
            param("fDTs", "doppler"),
            param("LOS", "los"),
            param("K", "k"),
            param("seed", "seed"),
            param("delays", "delays"),
            param("mags", "mags"),
            param("ntaps", "ntaps"),
        ],
    ),
    row(
        "channels_cfo_model",
        "channels.cfo_model({srate},{stdev},{maxdev},{seed})",
        "cfo_model",
        &[],
        &[
            param("srate", "sample_rate"),
            param("stdev", "std_dev"),
            param("maxdev", "max_dev"),
            param("seed", "seed"),
        ],
    ),
    row(
        "channels_amp_bal",
        "channels.amp_bal({alpha})",
        "amp_bal",
        &[],
        &[param("alpha", "alpha")],
    ),
    row(
        "channels_quantizer",
        "channels.quantizer({bits})",
        "quantizer",
        &[],
        &[param("bits", "bits")],
    ),
    row(
        "channels_sro_model",
        "channels.sro_model({srate},{stdev},{maxdev},{seed})",
        "sro_model",
        &[],
        &[
            param("srate", "sample_rate"),
            param("stdev", "std_dev"),
            param("maxdev", "max_dev"),
            param("seed", "seed"),
        ],
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_single_tap_is_a_list_of_one() {
        assert_eq!(
            taps(&Pmt::Double(1.0)),
            Ok(Pmt::Vector(vec![Pmt::Double(1.0)].into()))
        );
        let list = Pmt::Tuple(vec![Pmt::Int(1), Pmt::Double(0.5)].into());
        assert_eq!(taps(&list), Ok(list.clone()));
    }
}
