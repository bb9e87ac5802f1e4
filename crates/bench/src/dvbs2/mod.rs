//! The DVB-S2 transmitter and receiver (issues 19 and 20): [`tx`] (`bench dvbs2-tx`, against
//! gr-dtv), [`rx`] (`bench dvbs2-rx`, against gr-dvbs2rx) and [`fer`] (`bench dvbs2-fer`, error
//! rates against Es/N0); here, what they share: the MODCOD settings measured.

pub mod fer;
pub mod rx;
pub mod tx;

use crate::measurement::BenchError;
use radioflow_dvbs2::FrameSize;

/// One MODCOD setting measured.
#[derive(Debug, Clone)]
pub struct Dvbs2Case {
    /// MODCOD name, e.g. `qpsk-8/9`.
    pub modcod: String,
    /// Frame size.
    pub frame: FrameSize,
    /// Pilots on.
    pub pilots: bool,
}

impl Dvbs2Case {
    /// `qpsk-8/9 short pilots`.
    pub fn label(&self) -> String {
        format!(
            "{} {} {}",
            self.modcod,
            if self.frame == FrameSize::Short {
                "short"
            } else {
                "normal"
            },
            if self.pilots { "pilots" } else { "no pilots" }
        )
    }
}

/// `--cases`: `MODCOD:FRAME:PILOTS`, comma separated.
pub(crate) fn parse_cases(s: &str) -> Result<Vec<Dvbs2Case>, BenchError> {
    s.split(',')
        .map(|c| {
            let f: Vec<&str> = c.trim().split(':').collect();
            let [modcod, frame, pilots] = f[..] else {
                return Err(BenchError::Params(format!(
                    "--cases: {c:?} is not MODCOD:FRAME:on|off"
                )));
            };
            Ok(Dvbs2Case {
                modcod: modcod.to_string(),
                frame: frame
                    .parse()
                    .map_err(|e| BenchError::Params(format!("--cases {c:?}: {e}")))?,
                pilots: match pilots {
                    "on" => true,
                    "off" => false,
                    _ => {
                        return Err(BenchError::Params(format!(
                            "--cases {c:?}: pilots must be on or off"
                        )))
                    }
                },
            })
        })
        .collect()
}
