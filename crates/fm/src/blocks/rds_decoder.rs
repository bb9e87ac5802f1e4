//! [`RdsDecoder`]: RDS station information from an FM multiplex.

use radioflow_rds::{Decoder, Event, Station};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Decodes RDS (IEC 62106) from the demodulated FM multiplex (MPX, before de-emphasis or any
/// audio filter: the 57 kHz subcarrier must be there) with `radioflow_rds::Decoder`, and posts
/// what it learns: programme identification, programme type, service name (PS) and
/// RadioText, each when it changes.
///
/// # Stream inputs
/// - `in`: `f32`, the multiplex at `sample_rate` (at least 128 kHz).
///
/// # Stream outputs
/// None.
///
/// # Message ports
/// - `station` (output): a dict per change, `{"pi": int}`, `{"pty": int}`, `{"ps": str}` or
///   `{"radiotext": str}`, and `{"sync": bool}` when block synchronisation is gained or lost.
///
/// # Parameters
/// - `sample_rate`: of the multiplex, in Hz.
///
/// After the run, [`station`](Self::station) has everything decoded and the block counts.
#[derive(Ports)]
pub struct RdsDecoder {
    #[input(name = "in")]
    input: StreamInput<f32>,
    #[message_output]
    station: MessageOutput,
    decoder: Decoder,
}

impl std::fmt::Debug for RdsDecoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RdsDecoder")
            .field("station", self.decoder.station())
            .finish_non_exhaustive()
    }
}

#[block]
impl RdsDecoder {
    /// A decoder of a multiplex at `sample_rate` Hz.
    ///
    /// # Errors
    /// A rate below 128 kHz (too low for the 57 kHz subcarrier) or not finite.
    pub fn new(sample_rate: f64) -> Result<Self, radioflow_rds::RdsError> {
        Ok(Self {
            input: StreamInput::new(),
            station: MessageOutput::new(),
            decoder: Decoder::new(sample_rate)?,
        })
    }

    /// The station as decoded so far.
    pub fn station(&self) -> &Station {
        self.decoder.station()
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let n = self.input.slice().len();
        for event in self.decoder.process(&self.input.slice()[..n]) {
            let (key, value) = match *event {
                Event::SyncGained => ("sync", Pmt::Bool(true)),
                Event::SyncLost => ("sync", Pmt::Bool(false)),
                Event::Pi(pi) => ("pi", Pmt::Int(i64::from(pi))),
                Event::Pty(pty) => ("pty", Pmt::Int(i64::from(pty))),
                Event::Ps(ps) => ("ps", Pmt::symbol(ps.to_string())),
                Event::RadioText(rt) => ("radiotext", Pmt::symbol(rt.to_string().trim_end())),
                Event::Group(_) => continue,
            };
            self.station.post(Pmt::dict_from([(key, value)]));
        }
        self.input.consume(n);
        Ok(WorkStatus::Continue)
    }
}

register_block!(BlockDescription {
    id: "rds_decoder",
    summary: "Decodes RDS from an FM multiplex (before de-emphasis) and posts PI, PTY, PS and RadioText as they change.",
    dtypes: &[Dtype::Float32],
    params: &[ParamDescription::required(
        "sample_rate",
        // From what carries the 57 kHz subcarrier to 10 MHz (as fm_stereo_decoder): the
        // demodulator decimates to 19-38 kHz within one 2048-sample chunk up to 39 MHz.
        ParamKind::Float(FloatRange::at_least(128e3).at_most(10e6)),
        "of the multiplex in Hz"
    )
    .with_example(DefaultValue::Float(240e3))],
    ports: declared_ports::<RdsDecoder>,
    make: |a| {
        let b = RdsDecoder::new(a.float("sample_rate")?)
            .map_err(|e| a.error("sample_rate", format!("is refused: {e}")))?;
        Ok(Box::new(b))
    },
});

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_rds::{Encoder, StationInfo};
    use radioflow_runtime::testing::Harness;

    #[test]
    fn a_multiplex_with_rds_gives_the_station_as_messages() {
        let rate = 240_000.0;
        let info = StationInfo::new(0xD393, "RADIOFLW", "Hello from radioflow").unwrap();
        let mut encoder = Encoder::new(rate, &info).unwrap();
        let mut mpx = vec![0.0f32; (rate * 3.0) as usize];
        encoder.add_to(&mut mpx);
        let mut h = Harness::new(RdsDecoder::new(rate).unwrap());
        for chunk in mpx.chunks(10_000) {
            h.push("in", chunk);
            h.work().unwrap();
        }
        let station = h.block().station();
        assert_eq!(station.pi, Some(0xD393));
        assert_eq!(
            station.ps.map(|p| p.to_string()).as_deref(),
            Some("RADIOFLW")
        );
        let messages = h.take_messages("station");
        assert!(
            messages.contains(&Pmt::dict_from([("ps", Pmt::symbol("RADIOFLW"))])),
            "{messages:?}"
        );
        assert!(messages.contains(&Pmt::dict_from([("pi", Pmt::Int(0xD393))])));
        assert!(
            messages.contains(&Pmt::dict_from([(
                "radiotext",
                Pmt::symbol("Hello from radioflow")
            )])),
            "{messages:?}"
        );
        assert_eq!(h.consumed("in"), mpx.len() as u64);
    }

    #[test]
    fn a_rate_too_low_is_refused() {
        assert!(RdsDecoder::new(100_000.0).is_err());
    }
}
