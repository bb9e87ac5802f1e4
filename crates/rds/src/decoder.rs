//! [`Decoder`]: FM multiplex samples in, RDS groups, events and a [`Station`] out.

use crate::demod::Demodulator;
use crate::error::RdsError;
use crate::group::Group;
use crate::station::{Event, Station};
use crate::sync::{BlockSync, SyncEvent};

/// Longest error burst corrected by default: 2 bits, the burst one wrong channel bit makes
/// after differential decoding. Up to [`MAX_BURST`](crate::MAX_BURST) (5) is possible but
/// accepts about 40% of random blocks as "corrected", against about 7% for 2.
pub const DEFAULT_MAX_BURST: u8 = 2;

/// Bad blocks in a row that lose block synchronisation by default (about 0.2 s).
pub const DEFAULT_SYNC_LOSS: u32 = 10;

/// An RDS decoder for the FM-demodulated multiplex (MPX) baseband.
///
/// Feed it the multiplex as `f32` samples at the rate given to [`new`](Self::new) (at least
/// 128 kHz, any scale: the subcarrier's level is normalised); it reports what it decodes as
/// [`Event`]s and keeps a [`Station`] snapshot. No 19 kHz pilot is needed. Take the
/// multiplex straight from the FM demodulator: before de-emphasis or any audio filter, which
/// would remove the 57 kHz subcarrier. It allocates only
/// in `new`, and when one `process` call yields more events than ever before.
///
/// ```
/// use radioflow_rds::{Decoder, Encoder, Event, StationInfo};
/// let rate = 240e3;
/// let info = StationInfo::new(0xC0DE, "RUST FM", "Hello from radioflow")?;
/// let mut mpx = vec![0.0f32; 240_000]; // one second
/// Encoder::new(rate, &info)?.add_to(&mut mpx);
/// let mut decoder = Decoder::new(rate)?;
/// let events = decoder.process(&mpx);
/// assert!(events.contains(&Event::SyncGained));
/// let station = decoder.station();
/// assert_eq!(station.pi, Some(0xC0DE));
/// assert_eq!(station.ps.unwrap().to_string(), "RUST FM ");
/// # Ok::<(), radioflow_rds::RdsError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Decoder {
    demod: Demodulator,
    sync: BlockSync,
    station: Station,
    group: Group,
    /// Whether `group` holds any block yet.
    pending: bool,
    events: Vec<Event>,
}

impl Decoder {
    /// A decoder for a multiplex sampled at `mpx_rate_hz`, correcting bursts of up to
    /// [`DEFAULT_MAX_BURST`] bits.
    ///
    /// # Errors
    /// [`RdsError::SampleRate`] if the rate is not finite or below 128 kHz.
    pub fn new(mpx_rate_hz: f64) -> Result<Self, RdsError> {
        Self::with_options(mpx_rate_hz, DEFAULT_MAX_BURST, DEFAULT_SYNC_LOSS)
    }

    /// A decoder correcting bursts of up to `max_burst` bits (0 only detects errors; above 5
    /// is taken as 5) and losing synchronisation after `sync_loss` bad blocks in a row (at
    /// least 1).
    ///
    /// # Errors
    /// As [`new`](Self::new).
    pub fn with_options(mpx_rate_hz: f64, max_burst: u8, sync_loss: u32) -> Result<Self, RdsError> {
        Ok(Self {
            demod: Demodulator::new(mpx_rate_hz)?,
            sync: BlockSync::new(max_burst, sync_loss),
            station: Station::default(),
            group: Group::default(),
            pending: false,
            events: Vec::with_capacity(64),
        })
    }

    /// Decodes `mpx`, returning the events it produced (valid until the next call).
    pub fn process(&mut self, mpx: &[f32]) -> &[Event] {
        self.events.clear();
        let Self {
            demod,
            sync,
            station,
            group,
            pending,
            events,
        } = self;
        demod.process(mpx, |bit| {
            sync.push(bit, |e| match e {
                SyncEvent::Gained => events.push(Event::SyncGained),
                SyncEvent::Lost => {
                    if std::mem::take(pending) {
                        finish(group, station, events);
                    }
                    events.push(Event::SyncLost);
                }
                SyncEvent::Block {
                    index,
                    offset,
                    info,
                    corrected,
                } => {
                    match (info, corrected) {
                        (None, _) => station.bad_blocks += 1,
                        (Some(_), true) => {
                            station.good_blocks += 1;
                            station.corrected_blocks += 1;
                        }
                        (Some(_), false) => station.good_blocks += 1,
                    }
                    group.blocks[index] = info;
                    if index == 2 {
                        group.c_prime = offset == crate::Offset::CPrime;
                    }
                    group.corrected |= u8::from(corrected) << index;
                    *pending = true;
                    if index == 3 {
                        *pending = false;
                        finish(group, station, events);
                    }
                }
            })
        });
        &self.events
    }

    /// The station as decoded so far.
    pub fn station(&self) -> &Station {
        &self.station
    }

    /// Whether the decoder is in block synchronisation.
    pub fn is_synced(&self) -> bool {
        self.sync.is_synced()
    }

    /// The carrier loop's estimate of the subcarrier's offset from 57 kHz, Hz.
    pub fn carrier_offset_hz(&self) -> f64 {
        self.demod.carrier_offset_hz()
    }

    /// The timing loop's estimate of the bit rate's deviation from 1187.5 bit/s, parts per
    /// million of the nominal rate.
    pub fn timing_offset_ppm(&self) -> f64 {
        self.demod.timing_offset_ppm()
    }
}

/// Reports the group collected so far and starts the next.
fn finish(group: &mut Group, station: &mut Station, events: &mut Vec<Event>) {
    let g = std::mem::take(group);
    events.push(Event::Group(g));
    station.update(&g, &mut |e| events.push(e));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoder_can_move_to_a_block_thread() {
        fn send<T: Send + 'static>(_: &T) {}
        send(&Decoder::new(240e3).unwrap());
    }

    #[test]
    fn options_are_clamped_not_rejected() {
        // 9-bit bursts are more than the code corrects: clamped to 5. A loss run of 0 is 1.
        let mut decoder = Decoder::with_options(240e3, 9, 0).unwrap();
        assert!(decoder.process(&[0.0; 10_000]).is_empty());
        assert!(!decoder.is_synced());
    }
}
