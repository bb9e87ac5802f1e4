//! [`PolarListDecoder`]: GNU Radio's successive cancellation list decoder
//! (`fec.polar_decoder_sc_list.make(L, N, K, positions, values)`), with its bookkeeping kept.
//!
//! GNU Radio keeps `2L` path slots and `L` state buffers. A data bit doubles the paths while
//! there are fewer than `L` (each copied, the copy deciding 1); once there are `L`, each
//! path's second slot takes the bit 1 on the same buffer, all `2L` slots are sorted by path
//! metric (stably: GNU Radio's `std::sort` on at most 16 slots is an insertion sort), and
//! each of the best `L` that shares a buffer copies it into the buffer of the first slot
//! past the best `L` that still holds one. Where that buffer was another survivor's, GNU
//! Radio's copy takes the state already copied there: radioflow does the same copies in the
//! same order, so it decides as GNU Radio does. A path's metric grows by `|ratio|` for each
//! bit decided against its ratio; the block's output is the first path of least metric.

use crate::code::{Decoder, Soft};
use crate::polar::PolarCode;
use crate::polar_sc::{extract, ScState};

/// A path slot: its metric and the buffer it reads (`owns`: the buffer is its own).
#[derive(Debug, Clone, Copy)]
struct Slot {
    metric: f32,
    owns: bool,
    buffer: usize,
}

/// GNU Radio's `update_path_metric`: unchanged where `bit` agrees with the ratio's sign.
fn penalty(metric: f32, llr: f32, bit: u8) -> f32 {
    if (bit == 0 && llr > 0.0) || (bit == 1 && llr < 0.0) {
        metric
    } else {
        metric + llr.abs()
    }
}

/// GNU Radio's list decoder of a polar code, `list` paths (a power of 2).
#[derive(Debug, Clone)]
pub struct PolarListDecoder {
    code: PolarCode,
    list: usize,
    slots: Vec<Slot>,
    buffers: Vec<ScState>,
    active: usize,
    /// Per best slot, the bit it decides at this step.
    bits: Vec<u8>,
    frame: Vec<u8>,
}

/// No buffer (a slot past the first `L` before it shares one).
const NONE: usize = usize::MAX;

impl PolarListDecoder {
    /// A decoder of `code` keeping `list` paths.
    ///
    /// # Errors
    /// `list` is not a power of 2 (GNU Radio's decoder then writes through a null buffer).
    pub fn new(code: PolarCode, list: usize) -> Result<Self, String> {
        if !list.is_power_of_two() || list > 1024 {
            return Err(format!(
                "{list} is not a power of 2 up to 1024 (GNU Radio's list decoder fails on others)"
            ));
        }
        let slots = (0..2 * list)
            .map(|i| Slot {
                metric: 0.0,
                owns: i < list,
                buffer: if i < list { i } else { NONE },
            })
            .collect();
        Ok(Self {
            buffers: (0..list).map(|_| ScState::new(&code)).collect(),
            frame: vec![0; code.n()],
            bits: vec![0; list],
            slots,
            active: 1,
            list,
            code,
        })
    }

    /// Copies buffer `from` into buffer `to`.
    fn copy(&mut self, from: usize, to: usize) {
        if from != to {
            let (a, b) = if from < to {
                let (l, r) = self.buffers.split_at_mut(to);
                (&l[from], &mut r[0])
            } else {
                let (l, r) = self.buffers.split_at_mut(from);
                (&r[0], &mut l[to])
            };
            b.copy_from(a);
        }
    }

    fn data_bit(&mut self, phi: usize) {
        let l = self.list;
        if self.active < l {
            let offset = self.active;
            for i in 0..offset {
                let (from, to) = (self.slots[i].buffer, self.slots[i + offset].buffer);
                self.copy(from, to);
                let llr = self.buffers[from].llr;
                let metric = self.slots[i].metric;
                self.slots[i + offset].metric = penalty(metric, llr, 1);
                self.slots[i].metric = penalty(metric, llr, 0);
                self.active += 1;
                self.buffers[from].decide(phi, 0);
                self.buffers[to].decide(phi, 1);
            }
            return;
        }
        for i in 0..l {
            let buffer = self.slots[i].buffer;
            let (metric, llr) = (self.slots[i].metric, self.buffers[buffer].llr);
            let t = &mut self.slots[i + l];
            t.metric = penalty(metric, llr, 1);
            t.buffer = buffer;
            self.slots[i].metric = penalty(metric, llr, 0);
        }
        // Insertion sort, as GNU Radio's std::sort does on 16 slots or fewer.
        for i in 1..self.slots.len() {
            let mut j = i;
            while j > 0 && self.slots[j].metric < self.slots[j - 1].metric {
                self.slots.swap(j, j - 1);
                j -= 1;
            }
        }
        for i in 0..l {
            if self.slots[i].owns {
                self.bits[i] = 0;
                continue;
            }
            let t = (l..2 * l)
                .find(|t| self.slots[*t].owns)
                .expect("a slot past the best holds a buffer for each best one without");
            let (from, to) = (self.slots[i].buffer, self.slots[t].buffer);
            self.copy(from, to);
            self.slots[i].buffer = to;
            self.slots[i].owns = true;
            self.slots[t].owns = false;
            self.bits[i] = 1;
        }
        for i in 0..l {
            let b = self.slots[i].buffer;
            self.buffers[b].decide(phi, self.bits[i]);
        }
    }
}

impl Decoder for PolarListDecoder {
    fn input_size(&self) -> usize {
        self.code.n()
    }
    fn output_size(&self) -> usize {
        self.code.k()
    }
    fn decode(&mut self, input: Soft<'_>, output: &mut [u8]) {
        let Soft::Float(input) = input else {
            panic!("the polar list decoder takes floats");
        };
        let first = self.slots[0].buffer;
        self.buffers[first].init(input);
        for phi in 0..self.code.n() {
            for i in 0..self.active {
                let b = self.slots[i].buffer;
                self.buffers[b].compute(phi);
            }
            match self.code.frozen_value(phi) {
                Some(bit) => {
                    for i in 0..self.active {
                        let b = self.slots[i].buffer;
                        let llr = self.buffers[b].llr;
                        self.slots[i].metric = penalty(self.slots[i].metric, llr, bit);
                        self.buffers[b].decide(phi, bit);
                    }
                }
                None => self.data_bit(phi),
            }
        }
        // The first path of least metric, then the list starts again from slot 0.
        let mut best = 0;
        for i in 1..self.active {
            if self.slots[i].metric < self.slots[best].metric {
                best = i;
            }
        }
        let b = self.slots[best].buffer;
        extract(
            &self.code,
            false,
            &self.buffers[b].u,
            &mut self.frame,
            output,
        );
        for s in &mut self.slots {
            s.metric = 0.0;
        }
        self.active = 1;
    }
    fn rate(&self) -> f64 {
        self.code.k() as f64 / self.code.n() as f64
    }
    /// Refused (`false`) whatever `bits` is: one block per frame, as GNU Radio's.
    fn set_frame_size(&mut self, _bits: usize) -> bool {
        false
    }
}
