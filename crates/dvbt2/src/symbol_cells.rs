//! [`SymbolCells`]: how many cells each OFDM symbol of a T2 frame carries.

use crate::error::SettingsError;
use crate::params::FftSize;

/// The cells of each kind of symbol of a T2 frame (ETSI EN 302 755 clause 8.3.1's tables):
/// N_P2 P2 symbols of C_P2 cells, data symbols of C_DATA cells and, where the frame has one, a
/// frame closing symbol of N_FC cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SymbolCells {
    /// P2 symbols (N_P2).
    pub p2_symbols: usize,
    /// Cells of a P2 symbol (C_P2).
    pub p2: usize,
    /// Cells of a data symbol (C_DATA).
    pub data: usize,
    /// Cells of the frame closing symbol (N_FC), 0 where the frame has none.
    pub closing: usize,
    /// The closing symbol's active cells (C_FC, clause 8.3.1's tables), those that carry
    /// data or dummy cells; the others are sent as zeros. 0 where the frame has no closing
    /// symbol.
    pub closing_active: usize,
}

impl SymbolCells {
    /// The cells for FFT size `fft`, extended carriers or not, scattered pilot pattern `pp`
    /// (1 to 8), guard interval `gi` (numerator, denominator), tone reservation on or not, a
    /// MISO preamble or not; `None` where the standard has no such combination of FFT size
    /// and pilot pattern (clause 9.2.3.1: PP6 to PP8 and PP1, PP3, PP5 are not everywhere).
    pub fn new(
        fft: FftSize,
        extended: bool,
        pp: u8,
        gi: (u32, u32),
        tone_reservation: bool,
        miso: bool,
    ) -> Option<Self> {
        use FftSize::*;
        let (p2_symbols, p2) = match (fft, miso) {
            (K1, false) => (16, 558),
            (K2, false) => (8, 1118),
            (K4, false) => (4, 2236),
            (K8, false) => (2, 4472),
            (K16, false) => (1, 8944),
            (K32, false) => (1, 22432),
            (K1, true) => (16, 546),
            (K2, true) => (8, 1098),
            (K4, true) => (4, 2198),
            (K8, true) => (2, 4398),
            (K16, true) => (1, 8814),
            (K32, true) => (1, 17612),
        };
        // (C_DATA, N_FC) for PP1..PP8; 0 where the pattern does not exist (C_DATA) or the
        // frame has no closing symbol (N_FC).
        let table: [(usize, usize); 8] = match (fft, extended) {
            (K1, _) => [
                (764, 568),
                (768, 710),
                (798, 710),
                (804, 780),
                (818, 780),
                (0, 0),
                (0, 0),
                (0, 0),
            ],
            (K2, _) => [
                (1522, 1136),
                (1532, 1420),
                (1596, 1420),
                (1602, 1562),
                (1632, 1562),
                (0, 0),
                (1646, 1632),
                (0, 0),
            ],
            (K4, _) => [
                (3084, 2272),
                (3092, 2840),
                (3228, 2840),
                (3234, 3124),
                (3298, 3124),
                (0, 0),
                (3328, 3266),
                (0, 0),
            ],
            (K8, false) => [
                (6208, 4544),
                (6214, 5680),
                (6494, 5680),
                (6498, 6248),
                (6634, 6248),
                (0, 0),
                (6698, 6532),
                (6698, 0),
            ],
            (K8, true) => [
                (6296, 4608),
                (6298, 5760),
                (6584, 5760),
                (6588, 6336),
                (6728, 6336),
                (0, 0),
                (6788, 6624),
                (6788, 0),
            ],
            (K16, false) => [
                (12418, 9088),
                (12436, 11360),
                (12988, 11360),
                (13002, 12496),
                (13272, 12496),
                (13288, 13064),
                (13416, 13064),
                (13406, 0),
            ],
            (K16, true) => [
                (12678, 9280),
                (12698, 11600),
                (13262, 11600),
                (13276, 12760),
                (13552, 12760),
                (13568, 13340),
                (13698, 13340),
                (13688, 0),
            ],
            (K32, false) => [
                (0, 0),
                (24886, 22720),
                (0, 0),
                (26022, 24992),
                (0, 0),
                (26592, 26128),
                (26836, 0),
                (26812, 0),
            ],
            (K32, true) => [
                (0, 0),
                (25412, 23200),
                (0, 0),
                (26572, 25520),
                (0, 0),
                (27152, 26680),
                (27404, 0),
                (27376, 0),
            ],
        };
        // C_FC for PP1..PP8, 0 where N_FC is.
        let active: [usize; 8] = match (fft, extended) {
            (K1, _) => [402, 654, 490, 707, 544, 0, 0, 0],
            (K2, _) => [804, 1309, 980, 1415, 1088, 0, 1396, 0],
            (K4, _) => [1609, 2619, 1961, 2831, 2177, 0, 2792, 0],
            (K8, false) => [3218, 5238, 3922, 5662, 4354, 0, 5585, 0],
            (K8, true) => [3264, 5312, 3978, 5742, 4416, 0, 5664, 0],
            (K16, false) => [6437, 10476, 7845, 11324, 8709, 11801, 11170, 0],
            (K16, true) => [6573, 10697, 8011, 11563, 8893, 12051, 11406, 0],
            (K32, false) => [0, 20952, 0, 22649, 0, 23603, 0, 0],
            (K32, true) => [0, 21395, 0, 23127, 0, 24102, 0, 0],
        };
        let index = usize::from(pp).checked_sub(1)?;
        let (mut data, mut closing) = *table.get(index)?;
        let mut closing_active = active[index];
        if data == 0 {
            return None;
        }
        if tone_reservation {
            // Reserved carriers per symbol (clause 9.6.2.1).
            let reserved = match fft {
                K1 => 10,
                K2 => 18,
                K4 => 36,
                K8 => 72,
                K16 => 144,
                K32 => 288,
            };
            data -= reserved;
            closing = closing.saturating_sub(reserved);
            closing_active = closing_active.saturating_sub(reserved);
        }
        // Combinations whose last data symbol needs no closing symbol (clause 9.2.7.1), as
        // gr-dtv lists them for SISO preambles.
        if !miso
            && matches!(
                (gi, pp),
                ((1, 128), 7) | ((1, 32), 4) | ((1, 16), 2) | ((19, 256), 2)
            )
        {
            closing = 0;
            closing_active = 0;
        }
        Some(Self {
            p2_symbols,
            p2,
            data,
            closing,
            closing_active,
        })
    }

    /// The OFDM symbols after P1 of a T2 frame of `data_symbols` data symbols (the closing
    /// symbol counted among them, as L1's NUM_DATA_SYMBOLS counts it).
    pub fn symbols(&self, data_symbols: usize) -> usize {
        self.p2_symbols + data_symbols
    }

    /// The cells of a T2 frame of `data_symbols` data symbols (`data_symbols` >= 1).
    pub fn frame_cells(&self, data_symbols: usize) -> usize {
        let plain = if self.closing == 0 {
            data_symbols
        } else {
            data_symbols - 1
        };
        self.p2_symbols * self.p2 + plain * self.data + self.closing
    }
}

/// The cells of `cells` (`SymbolCells::new` of the block's words), or the pilot pattern named
/// as not one of the FFT size's (clause 9.2.3.1), as every OFDM block of the crate refuses it.
pub(crate) fn require_cells(
    block: &'static str,
    fftsize: &str,
    pilotpattern: &str,
    cells: Option<SymbolCells>,
) -> Result<SymbolCells, SettingsError> {
    cells.ok_or_else(|| {
        SettingsError::param(
            block,
            "pilotpattern",
            format!(
                "{pilotpattern} is not one of FFT size {fftsize}'s (ETSI EN 302 755 clause \
                 9.2.3.1)"
            ),
        )
    })
}
