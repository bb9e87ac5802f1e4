//! Rows for GNU Radio's `fft` module (gr-fft): `fft_vxx`.

use super::common::{no_effect, param, ty};
use super::table::{GrBlock, GrParam, Mapped, To};
use radioflow_runtime::registry::Dtype;
use radioflow_runtime::Pmt;

/// GNU Radio's window: a list of coefficients, where `()` or `[]` (GRC's "no window") is an
/// empty one.
fn window(v: &Pmt) -> Result<Pmt, String> {
    match v {
        Pmt::Null => Ok(Pmt::Vector(Vec::new().into())),
        Pmt::Tuple(items) | Pmt::Vector(items) => Ok(Pmt::Vector(items.clone())),
        Pmt::F32Vector(_) | Pmt::F64Vector(_) => Ok(v.clone()),
        _ => Err("not a list of window coefficients".into()),
    }
}

/// No window (GRC's `()`) is a window of ones for radioflow's block, which takes one always
/// (a sample times 1.0 is the sample: the same bins).
fn no_window_is_ones(m: &mut Mapped) -> Result<(), String> {
    let empty = m
        .param("window")
        .is_none_or(|w| matches!(w, Pmt::Vector(v) if v.is_empty()));
    if empty {
        let Some(&Pmt::Int(size)) = m.param("size") else {
            return Err("fft_size is not an integer".into());
        };
        let size = usize::try_from(size).map_err(|_| format!("fft_size {size} is negative"))?;
        m.params.retain(|(n, _)| n != "window");
        m.params
            .push(("window".into(), Pmt::from(&vec![1.0f32; size][..])));
    }
    Ok(())
}

pub(crate) const ROWS: &[GrBlock] = &[GrBlock {
    id: "fft_vxx",
    make: "%iftype==\"complex\":fft.fft_vcc({fft_size},{forward},{window},{shift},{nthreads})",
    block: "fft",
    types: &[ty("complex", Dtype::Complex32), ty("float", Dtype::Float32)],
    params: &[
        param("fft_size", "size"),
        param("forward", "forward"),
        GrParam {
            key: "window",
            to: To::Convert("window", window),
        },
        param("shift", "shift"),
        no_effect(
            "nthreads",
            "the threads FFTW splits one transform over; radioflow's FFT (rustfft) computes the \
             same transform on one thread, so the results do not change",
        ),
    ],
    fixed: &[],
    extra: &[],
    choose: Some(no_window_is_ones),
}];
