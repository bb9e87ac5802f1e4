//! [`Station`]: what the groups received so far say about the station (PI, PS, RadioText,
//! PTY, TP/TA), assembled from groups 0A/0B and 2A/2B.

use crate::group::{Group, Version};
use std::fmt;

/// The 8-character programme service name (EN 50067 §3.1.5.1), as transmitted (RDS
/// character set, Annex E: ASCII in 0x20..=0x7D).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct PsName(pub [u8; 8]);

/// A RadioText message (EN 50067 §3.1.5.3): up to 64 characters (32 from version B groups),
/// ended by a carriage return (0x0D) or the last segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RadioText {
    bytes: [u8; 64],
    len: u8,
}

impl Default for RadioText {
    fn default() -> Self {
        Self {
            bytes: [b' '; 64],
            len: 0,
        }
    }
}

impl RadioText {
    /// The characters as transmitted, without the end marker.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    /// The text with the trailing spaces stations pad it with removed.
    pub fn trimmed(&self) -> String {
        self.to_string().trim_end_matches(' ').to_string()
    }
}

/// Characters of the RDS basic set (EN 50067 Annex E) shown as their ASCII look-alikes;
/// anything outside 0x20..=0x7D as U+FFFD.
fn write_rds_chars(bytes: &[u8], f: &mut fmt::Formatter<'_>) -> fmt::Result {
    for &b in bytes {
        let c = if (0x20..=0x7d).contains(&b) {
            char::from(b)
        } else {
            char::REPLACEMENT_CHARACTER
        };
        write!(f, "{c}")?;
    }
    Ok(())
}

impl fmt::Display for PsName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_rds_chars(&self.0, f)
    }
}

impl fmt::Display for RadioText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_rds_chars(self.as_bytes(), f)
    }
}

/// What the [`Decoder`](crate::Decoder) reports as it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// Block synchronisation acquired.
    SyncGained,
    /// Block synchronisation lost (too many bad blocks in a row).
    SyncLost,
    /// A group, possibly with lost blocks.
    Group(Group),
    /// A new programme identification code.
    Pi(u16),
    /// A new programme type.
    Pty(u8),
    /// A complete programme service name, different from the last one reported.
    Ps(PsName),
    /// A complete RadioText, different from the last one reported.
    RadioText(RadioText),
}

/// A snapshot of the station as decoded so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Station {
    /// Programme identification code (from error-free blocks only).
    pub pi: Option<u16>,
    /// Programme type (0..=31).
    pub pty: Option<u8>,
    /// Traffic programme flag.
    pub tp: Option<bool>,
    /// Traffic announcement flag (groups 0A/0B).
    pub ta: Option<bool>,
    /// The last complete programme service name.
    pub ps: Option<PsName>,
    /// The last complete RadioText.
    pub radiotext: Option<RadioText>,
    /// Blocks received while in sync (error-free or corrected).
    pub good_blocks: u64,
    /// Of those, blocks received with a corrected error.
    pub corrected_blocks: u64,
    /// Blocks lost (uncorrectable) while in sync.
    pub bad_blocks: u64,
    /// Groups reported.
    pub groups: u64,
    /// PS being assembled: characters and which of the 4 segments are in.
    ps_work: [u8; 8],
    ps_have: u8,
    /// RadioText being assembled: characters, segments in, the A/B flag and version.
    rt_work: RadioText,
    rt_have: u16,
    rt_flag: Option<(bool, Version)>,
}

impl Station {
    /// Updates the station from `group`, reporting changes through `emit`.
    pub(crate) fn update(&mut self, group: &Group, emit: &mut impl FnMut(Event)) {
        self.groups += 1;
        if let Some(pi) = group.pi_error_free()
            && self.pi != Some(pi)
        {
            self.pi = Some(pi);
            emit(Event::Pi(pi));
        }
        let Some(b) = group.blocks[1] else {
            return;
        };
        let pty = group.pty().unwrap_or_default();
        if self.pty != Some(pty) {
            self.pty = Some(pty);
            emit(Event::Pty(pty));
        }
        self.tp = group.tp();
        match group.kind() {
            Some((0, _)) => {
                self.ta = Some(b & 0x10 != 0);
                if let Some(d) = group.blocks[3] {
                    self.ps_segment(usize::from(b & 3), d, emit);
                }
            }
            Some((2, version)) => self.rt_segment(group, b, version, emit),
            _ => {}
        }
    }

    fn ps_segment(&mut self, segment: usize, d: u16, emit: &mut impl FnMut(Event)) {
        let chars = d.to_be_bytes();
        let slot = &mut self.ps_work[2 * segment..2 * segment + 2];
        if slot != chars {
            // A segment received before that changed starts a new name (a dynamic PS must
            // not mix two names).
            slot.copy_from_slice(&chars);
            if self.ps_have & (1 << segment) != 0 {
                self.ps_have = 0;
            }
        }
        self.ps_have |= 1 << segment;
        if self.ps_have == 0xf {
            let name = PsName(self.ps_work);
            if self.ps != Some(name) {
                self.ps = Some(name);
                emit(Event::Ps(name));
            }
        }
    }

    fn rt_segment(
        &mut self,
        group: &Group,
        b: u16,
        version: Version,
        emit: &mut impl FnMut(Event),
    ) {
        let flag = (b & 0x10 != 0, version);
        if self.rt_flag != Some(flag) {
            // A/B flag toggled (or the version changed): a new message.
            self.rt_flag = Some(flag);
            self.rt_have = 0;
            self.rt_work = RadioText::default();
        }
        let segment = usize::from(b & 0xf);
        let (chars, width): ([u8; 4], usize) = match version {
            Version::A => match (group.blocks[2], group.blocks[3]) {
                (Some(c), Some(d)) => {
                    let (c, d) = (c.to_be_bytes(), d.to_be_bytes());
                    ([c[0], c[1], d[0], d[1]], 4)
                }
                _ => return,
            },
            Version::B => match group.blocks[3] {
                Some(d) => {
                    let d = d.to_be_bytes();
                    ([d[0], d[1], 0, 0], 2)
                }
                None => return,
            },
        };
        let at = segment * width;
        let slot = &mut self.rt_work.bytes[at..at + width];
        if slot != &chars[..width] {
            slot.copy_from_slice(&chars[..width]);
            // A segment received before that changed: the others belong to an older text.
            if self.rt_have & (1 << segment) != 0 {
                self.rt_have = 0;
            }
        }
        self.rt_have |= 1 << segment;
        // The message ends at the first carriage return or after the last segment.
        let capacity = 16 * width;
        let len = self.rt_work.bytes[..capacity]
            .iter()
            .position(|&c| c == 0x0d)
            .unwrap_or(capacity);
        let segments = len.div_ceil(width).max(1);
        let needed = if segments == 16 {
            u16::MAX
        } else {
            (1u16 << segments) - 1
        };
        if self.rt_have & needed == needed {
            let mut text = RadioText::default();
            text.bytes[..len].copy_from_slice(&self.rt_work.bytes[..len]);
            text.len = len as u8;
            if self.radiotext != Some(text) {
                self.radiotext = Some(text);
                emit(Event::RadioText(text));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(b: u16, c: u16, d: u16) -> Group {
        Group {
            blocks: [Some(0xC201), Some(b), Some(c), Some(d)],
            c_prime: false,
            corrected: 0,
        }
    }

    fn feed(station: &mut Station, groups: &[Group]) -> Vec<Event> {
        let mut events = Vec::new();
        for g in groups {
            station.update(g, &mut |e| events.push(e));
        }
        events
    }

    #[test]
    fn ps_completes_after_four_segments_and_reports_changes_once() {
        let mut st = Station::default();
        let ps = *b"RADIO  1";
        let groups: Vec<_> = (0..8u16)
            .map(|k| {
                let seg = usize::from(k % 4);
                group(
                    (5 << 5) | 0x10 | (k % 4),
                    0,
                    u16::from_be_bytes([ps[2 * seg], ps[2 * seg + 1]]),
                )
            })
            .collect();
        let events = feed(&mut st, &groups);
        assert_eq!(
            events,
            [Event::Pi(0xC201), Event::Pty(5), Event::Ps(PsName(ps))]
        );
        assert_eq!(st.ps.unwrap().to_string(), "RADIO  1");
        assert_eq!(st.ta, Some(true));
    }

    #[test]
    fn version_b_radiotext_has_two_characters_per_group_and_pi_in_block_3() {
        let mut st = Station::default();
        let text = b"RDS 2B\r ";
        let groups: Vec<_> = (0..4usize)
            .map(|k| Group {
                blocks: [
                    None,
                    Some((2 << 12) | 0x0800 | k as u16),
                    Some(0x9ABC),
                    Some(u16::from_be_bytes([text[2 * k], text[2 * k + 1]])),
                ],
                c_prime: true,
                corrected: 0,
            })
            .collect();
        feed(&mut st, &groups);
        assert_eq!(st.pi, Some(0x9ABC));
        assert_eq!(st.radiotext.unwrap().to_string(), "RDS 2B");
    }

    #[test]
    fn radiotext_ends_at_carriage_return_and_restarts_on_ab_flag() {
        let mut st = Station::default();
        let text = b"Hello\r";
        let seg = |k: usize, flag: u16| {
            let c = |i: usize| *text.get(i).unwrap_or(&b' ');
            group(
                (2 << 12) | flag | k as u16,
                u16::from_be_bytes([c(4 * k), c(4 * k + 1)]),
                u16::from_be_bytes([c(4 * k + 2), c(4 * k + 3)]),
            )
        };
        let events = feed(&mut st, &[seg(1, 0), seg(0, 0)]);
        assert_eq!(st.radiotext.unwrap().to_string(), "Hello");
        assert!(matches!(events.last(), Some(Event::RadioText(_))));
        // The A/B flag toggles: the old segments are dropped, the new text needs both.
        let events = feed(&mut st, &[seg(0, 0x10)]);
        assert!(!events.iter().any(|e| matches!(e, Event::RadioText(_))));
    }
}
