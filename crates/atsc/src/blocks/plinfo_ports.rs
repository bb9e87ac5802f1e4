//! The receiver blocks' second port: gr-dtv's pipeline information as GRC declares it,
//! vectors of two shorts (flags, segment number), and tags across their two port pairs.

use crate::layout::Plinfo;
use radioflow_runtime::prelude::*;

/// The header `p` as the two shorts of a plinfo port.
pub(crate) fn to_shorts(p: Plinfo, out: &mut [i16]) {
    out[0] = p.flags as i16;
    out[1] = p.segno;
}

/// The header in the two shorts `s` of a plinfo port.
pub(crate) fn from_shorts(s: &[i16]) -> Plinfo {
    Plinfo {
        flags: s[0] as u16,
        segno: s[1],
    }
}

/// GNU Radio's tags of a sync block of two inputs and two outputs: every tag on the next `n`
/// items of either input goes to the same item of both outputs. Call before
/// `consume`/`produce`.
pub(crate) fn tags_to_both<A: Item, B: Item>(
    (data, plinfo): (&StreamInput<A>, &StreamInput<i16>),
    (out, plinfo_out): (&mut StreamOutput<B>, &mut StreamOutput<i16>),
    n: usize,
) {
    for (input_tags, from) in [
        (data.tags(), data.offset()),
        (plinfo.tags(), plinfo.offset()),
    ] {
        for t in input_tags.iter().take_while(|t| t.offset < from + n as u64) {
            let item = t.offset - from;
            out.push_tag(Tag {
                offset: out.offset() + item,
                ..t.clone()
            });
            plinfo_out.push_tag(Tag {
                offset: plinfo_out.offset() + item,
                ..t.clone()
            });
        }
    }
}
