//! What gr-pdu's time blocks share: the system time as they read it, and their test of a PDU.

use radioflow_runtime::Pmt;

/// Seconds since 1970 now, as GNU Radio's PDU time blocks read it (`system_clock`, as a
/// double). Read through the vDSO on Linux: no system call.
pub(crate) fn system_time() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// `(metadata, vector)` of a PDU as GNU Radio's `pmt::is_pdu` takes it (a pair of a dict and
/// a uniform vector); anything else `None`, with the warning GNU Radio's block logs when it
/// drops the message (`block` names it).
pub(crate) fn gnu_radio_pdu<'a>(msg: &'a Pmt, block: &str) -> Option<(&'a Pmt, &'a Pmt)> {
    match msg.as_pair() {
        Some((meta, data)) if meta.is_dict() && crate::pdu_item::uniform_bytes(data).is_some() => {
            Some((meta, data))
        }
        _ => {
            tracing::warn!(
                "{block}: a message that is not a PDU (a metadata dict and a uniform vector), \
                 dropped: {}",
                radioflow_runtime::echo::cut(&msg.to_string())
            );
            None
        }
    }
}
