//! [`FrameSpec`]: what one frame is (MODCOD, size, pilots), as the transmitter's stages and
//! the VCM schedule pass it on.

use crate::modcod::{FecParams, FrameSize, Modcod};
use crate::plframe::{self, SLOT};
use crate::tx::transmitter::TxError;

/// The settings of one frame, carried from stage to stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameSpec {
    /// MODCOD.
    pub modcod: Modcod,
    /// FECFRAME size.
    pub frame: FrameSize,
    /// Pilots on.
    pub pilots: bool,
}

impl FrameSpec {
    /// FEC parameters (the pair is checked when a spec is made, so this cannot fail for a
    /// spec of a running transmitter).
    ///
    /// # Errors
    /// A MODCOD/frame pair the standard does not define.
    pub fn fec(&self) -> Result<FecParams, TxError> {
        Ok(self.modcod.fec(self.frame)?)
    }

    /// PLFRAME length in symbols.
    ///
    /// # Errors
    /// As for [`fec`](Self::fec).
    pub fn plframe_len(&self) -> Result<usize, TxError> {
        let fec = self.fec()?;
        let slots = fec.nldpc / self.modcod.constellation().bits_per_symbol() / SLOT;
        Ok(plframe::plframe_len(slots, self.pilots))
    }

    /// Packs the spec into three words (for a frame socket).
    pub fn to_words(&self) -> [u32; 3] {
        [
            u32::from(self.modcod.pls_modcod()),
            u32::from(self.frame == FrameSize::Short),
            u32::from(self.pilots),
        ]
    }

    /// Unpacks [`to_words`](Self::to_words); `None` for words no spec packs to.
    pub fn from_words(w: [u32; 3]) -> Option<Self> {
        let modcod = Modcod::all().nth(usize::try_from(w[0]).ok()?.checked_sub(1)?)?;
        let frame = if w[1] != 0 {
            FrameSize::Short
        } else {
            FrameSize::Normal
        };
        Some(FrameSpec {
            modcod,
            frame,
            pilots: w[2] != 0,
        })
    }
}
