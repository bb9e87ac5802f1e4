//! Buffer sizes: the default, and the largest one the machine can hold.

/// Default buffer size in bytes. Large enough that a work call moves thousands of items, small
/// enough that a chain of ten buffers stays in a 1 MiB L2 cache.
pub const DEFAULT_BUFFER_BYTES: usize = 64 * 1024;

/// The largest buffer the runtime sets up: the machine's physical memory (a buffer is touched
/// whole as it wraps, so a larger one could only end in the kernel's out-of-memory killer),
/// 64 GiB where it is unknown.
pub(crate) fn max_buffer_bytes() -> usize {
    const UNKNOWN: u64 = 64 << 30;
    #[cfg(all(target_os = "linux", not(miri), not(feature = "loom")))]
    {
        // SAFETY: sysconf has no preconditions.
        let pages = unsafe { libc::sysconf(libc::_SC_PHYS_PAGES) };
        if pages > 0 {
            let bytes = (pages as u64).saturating_mul(super::mapping::page_size() as u64);
            return usize::try_from(bytes).unwrap_or(usize::MAX);
        }
    }
    usize::try_from(UNKNOWN).unwrap_or(usize::MAX)
}

/// Why a buffer of `bytes` is refused (more than [`max_buffer_bytes`]).
pub(crate) fn too_large(bytes: usize) -> String {
    format!(
        "{bytes} bytes is more than one buffer may take ({} bytes, the machine's memory)",
        max_buffer_bytes()
    )
}
