//! Rows for gr-analog's sources beside `sig_source`: noise, fast noise, constant and random
//! sources.

use super::common::{param, ty};
use super::table::{GrBlock, GrParam, GrType, To};
use radioflow_runtime::registry::Dtype;
use radioflow_runtime::Pmt;

/// GNU Radio's noise type (`analog.GR_GAUSSIAN`, its number 201, or a name:
/// `uniform`, `gaussian`, `laplacian`, `impulse`) as radioflow's `noise_type` name.
fn noise_type(v: &Pmt) -> Result<Pmt, String> {
    // gr::analog::noise_type_t (gnuradio/analog/noise_type.h): 200 uniform, 201 gaussian,
    // 202 laplacian, 203 impulse.
    const NAMES: [&str; 4] = ["uniform", "gaussian", "laplacian", "impulse"];
    let name = match v {
        Pmt::Int(n @ 200..=203) => NAMES[(n - 200) as usize],
        Pmt::Symbol(s) if NAMES.contains(&&**s) => return Ok(v.clone()),
        _ => {
            return Err(
                "not a noise type (analog.GR_UNIFORM, GR_GAUSSIAN, GR_LAPLACIAN, GR_IMPULSE)"
                    .into(),
            )
        }
    };
    Ok(Pmt::symbol(name))
}

/// The item types of the noise sources (`type.fcn` c, f, i, s).
const NOISE_TYPES: &[GrType] = &[
    ty("complex", Dtype::Complex32),
    ty("float", Dtype::Float32),
    ty("int", Dtype::Int32),
    ty("short", Dtype::Int16),
];

const NOISE_TYPE: GrParam = GrParam {
    key: "noise_type",
    to: To::Convert("noise_type", noise_type),
};

pub(crate) const ROWS: &[GrBlock] = &[
    GrBlock {
        id: "analog_noise_source_x",
        make: "analog.noise_source_{type.fcn}({noise_type},{amp},{seed})",
        block: "noise_source",
        types: NOISE_TYPES,
        params: &[NOISE_TYPE, param("amp", "amplitude"), param("seed", "seed")],
        fixed: &[],
        extra: &[],
        choose: None,
    },
    GrBlock {
        id: "analog_fastnoise_source_x",
        make: "analog.fastnoise_source_{type.fcn}({noise_type},{amp},{seed},{samples})",
        block: "fastnoise_source",
        types: NOISE_TYPES,
        params: &[
            NOISE_TYPE,
            param("amp", "amplitude"),
            param("seed", "seed"),
            param("samples", "samples"),
        ],
        fixed: &[],
        extra: &[],
        choose: None,
    },
    GrBlock {
        id: "analog_const_source_x",
        make: "analog.sig_source_{type.fcn}(0,analog.GR_CONST_WAVE,0,0,{const})",
        block: "const_source",
        // GNU Radio's sig_source_b makes signed bytes.
        types: &[
            ty("complex", Dtype::Complex32),
            ty("float", Dtype::Float32),
            ty("int", Dtype::Int32),
            ty("short", Dtype::Int16),
            ty("byte", Dtype::Int8),
        ],
        params: &[param("const", "value")],
        fixed: &[],
        extra: &[],
        choose: None,
    },
    GrBlock {
        id: "analog_random_source_x",
        make: "blocks.vector_source_{type.fcn}(list(map(int,numpy.random.randint({min},{max},{num_samps}))),{repeat})",
        block: "random_source",
        // GNU Radio's vector_source_b plays unsigned bytes.
        types: &[
            ty("int", Dtype::Int32),
            ty("short", Dtype::Int16),
            ty("byte", Dtype::Uint8),
        ],
        params: &[
            param("min", "min"),
            param("max", "max"),
            param("num_samps", "num_samps"),
            param("repeat", "repeat"),
        ],
        fixed: &[],
        extra: &[],
        choose: None,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_types_are_gnu_radio_s_numbers_or_names() {
        assert_eq!(noise_type(&Pmt::Int(201)), Ok(Pmt::symbol("gaussian")));
        assert_eq!(noise_type(&Pmt::Int(203)), Ok(Pmt::symbol("impulse")));
        assert_eq!(
            noise_type(&Pmt::symbol("uniform")),
            Ok(Pmt::symbol("uniform"))
        );
        assert!(noise_type(&Pmt::Int(204)).is_err());
        assert!(noise_type(&Pmt::symbol("pink")).is_err());
    }
}
