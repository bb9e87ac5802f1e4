//! Memory behind a stream buffer: `capacity` bytes that can be addressed as `2 * capacity`
//! contiguous bytes, so that a window starting anywhere in the ring is one slice.
//!
//! On Linux the same memfd pages are mapped twice back to back ([`Mapping::double_mapped`]).
//! Where that is unavailable (Miri, loom, other systems, or an `mmap` failure) a heap region of
//! `2 * capacity` bytes is used and every write is mirrored into the other half at commit
//! ([`Mapping::mirrored`]); readers see the same contents either way.

use std::ptr::NonNull;

/// Size of a page; buffer capacities are multiples of it.
pub(crate) fn page_size() -> usize {
    #[cfg(all(target_os = "linux", not(miri), not(feature = "loom")))]
    {
        // SAFETY: sysconf has no preconditions.
        let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        if p > 0 {
            return p as usize;
        }
    }
    4096
}

#[derive(Debug)]
#[cfg_attr(any(miri, feature = "loom"), allow(dead_code))]
enum Kind {
    DoubleMapped,
    Mirrored,
}

/// `capacity` bytes visible twice in a row starting at `base`.
#[derive(Debug)]
pub(crate) struct Mapping {
    base: NonNull<u8>,
    capacity: usize,
    kind: Kind,
}

// SAFETY: the mapping is plain memory; who may touch which bytes when is decided by the
// buffer's atomic positions (one writer, readers only behind the write position).
unsafe impl Send for Mapping {}
// SAFETY: as above; `Mapping` itself exposes only raw pointers.
unsafe impl Sync for Mapping {}

impl Mapping {
    /// Double-mapped memory if the platform allows, mirrored heap memory otherwise.
    /// `capacity` must be a non-zero multiple of [`page_size`].
    ///
    /// # Errors
    /// `capacity` is zero, not a multiple of the page size, or twice it does not fit the
    /// address space; or the system has not the memory (never an abort).
    pub(crate) fn new(capacity: usize) -> std::io::Result<Self> {
        if capacity == 0
            || !capacity.is_multiple_of(page_size())
            || capacity > isize::MAX as usize / 2
        {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("{capacity} bytes cannot be mapped twice"),
            ));
        }
        #[cfg(all(target_os = "linux", not(miri), not(feature = "loom")))]
        {
            match Self::double_mapped(capacity) {
                Ok(m) => return Ok(m),
                Err(e) => tracing::warn!("double mapping failed ({e}); using a mirrored buffer"),
            }
        }
        Self::mirrored(capacity)
    }

    /// Heap memory of `2 * capacity` bytes; writes must be mirrored with [`Mapping::mirror`].
    /// Page-aligned like a real mapping, so that every item type is aligned in it.
    ///
    /// # Errors
    /// The allocator has not the memory (reported, not aborted on).
    pub(crate) fn mirrored(capacity: usize) -> std::io::Result<Self> {
        let layout = Self::mirrored_layout(capacity)?;
        if layout.size() == 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "a buffer needs at least one byte",
            ));
        }
        // SAFETY: the layout has a non-zero size (checked above).
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
        let base = NonNull::new(ptr).ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::OutOfMemory,
                format!("cannot allocate {} bytes", layout.size()),
            )
        })?;
        Ok(Self {
            base,
            capacity,
            kind: Kind::Mirrored,
        })
    }

    fn mirrored_layout(capacity: usize) -> std::io::Result<std::alloc::Layout> {
        capacity
            .checked_mul(2)
            .and_then(|bytes| std::alloc::Layout::from_size_align(bytes, page_size()).ok())
            .ok_or_else(|| {
                std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    format!("{capacity} bytes cannot be allocated twice"),
                )
            })
    }

    #[cfg(all(target_os = "linux", not(miri), not(feature = "loom")))]
    fn double_mapped(capacity: usize) -> std::io::Result<Self> {
        use std::io::Error;
        // SAFETY: plain libc calls with valid arguments; every failure is checked, and on failure
        // everything created so far is released before returning.
        unsafe {
            let fd = libc::memfd_create(c"radioflow-buffer".as_ptr(), libc::MFD_CLOEXEC);
            if fd < 0 {
                return Err(Error::last_os_error());
            }
            if libc::ftruncate(fd, capacity as libc::off_t) != 0 {
                let e = Error::last_os_error();
                libc::close(fd);
                return Err(e);
            }
            // Reserve 2 * capacity of address space, then map the file twice into it.
            let reserve = libc::mmap(
                std::ptr::null_mut(),
                2 * capacity,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            if reserve == libc::MAP_FAILED {
                let e = Error::last_os_error();
                libc::close(fd);
                return Err(e);
            }
            for half in 0..2 {
                let at = (reserve as *mut u8).add(half * capacity) as *mut libc::c_void;
                let p = libc::mmap(
                    at,
                    capacity,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_SHARED | libc::MAP_FIXED,
                    fd,
                    0,
                );
                if p == libc::MAP_FAILED {
                    let e = Error::last_os_error();
                    libc::munmap(reserve, 2 * capacity);
                    libc::close(fd);
                    return Err(e);
                }
            }
            libc::close(fd);
            Ok(Self {
                base: NonNull::new_unchecked(reserve as *mut u8),
                capacity,
                kind: Kind::DoubleMapped,
            })
        }
    }

    /// Start of the `2 * capacity` byte window.
    pub(crate) fn base(&self) -> *mut u8 {
        self.base.as_ptr()
    }

    /// Bytes in one copy of the ring.
    pub(crate) fn capacity(&self) -> usize {
        self.capacity
    }

    /// Whether writes must be copied into the other half with [`Mapping::mirror`] (heap
    /// memory); double-mapped memory shows them there by itself.
    pub(crate) fn needs_mirror(&self) -> bool {
        matches!(self.kind, Kind::Mirrored)
    }

    /// Makes `len` bytes just written at ring offset `offset` (< capacity) visible in both halves.
    /// A no-op for double-mapped memory.
    ///
    /// # Safety
    /// The caller must be the buffer's single writer and the range must be its own (not visible
    /// to readers yet); `offset < capacity` and `len <= capacity`.
    pub(crate) unsafe fn mirror(&self, offset: usize, len: usize) {
        if matches!(self.kind, Kind::DoubleMapped) || len == 0 {
            return;
        }
        debug_assert!(offset < self.capacity && len <= self.capacity);
        let cap = self.capacity;
        let base = self.base.as_ptr();
        // The written range [offset, offset+len) lies in [0, 2cap). Copy each part to its twin.
        let first = len.min(cap - offset); // part in the first half
                                           // SAFETY: all ranges are inside the 2*cap allocation; source and destination are in
                                           // different halves so they do not overlap; the caller owns these bytes.
        unsafe {
            std::ptr::copy_nonoverlapping(base.add(offset), base.add(offset + cap), first);
            if len > first {
                std::ptr::copy_nonoverlapping(base.add(cap), base, len - first);
            }
        }
    }

    /// Whether both halves are the same physical memory.
    #[cfg(all(test, not(feature = "loom")))]
    pub(crate) fn is_double_mapped(&self) -> bool {
        matches!(self.kind, Kind::DoubleMapped)
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        match self.kind {
            Kind::DoubleMapped => {
                #[cfg(all(target_os = "linux", not(miri), not(feature = "loom")))]
                // SAFETY: unmaps exactly the 2 * capacity region mapped in `double_mapped`.
                unsafe {
                    libc::munmap(self.base.as_ptr() as *mut libc::c_void, 2 * self.capacity);
                }
            }
            Kind::Mirrored => {
                if let Ok(layout) = Self::mirrored_layout(self.capacity) {
                    // SAFETY: `base` came from `alloc_zeroed` with exactly this layout (the
                    // same capacity gave it when the mapping was made).
                    unsafe { std::alloc::dealloc(self.base.as_ptr(), layout) };
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_wraps(m: &Mapping) {
        let cap = m.capacity();
        let base = m.base();
        // A writer's window crosses the end of the ring: it writes contiguously from
        // cap - 100 into the second copy; every byte must then read the same in both copies.
        for i in 0..cap {
            // SAFETY: cap - 100 + i < 2 * cap; single thread.
            unsafe { *base.add(cap - 100 + i) = (i % 251) as u8 };
        }
        // SAFETY: the whole region is ours.
        unsafe { m.mirror(cap - 100, cap) };
        for i in 0..cap {
            let ring = (cap - 100 + i) % cap;
            // SAFETY: ring and ring + cap are inside the 2 * cap region.
            let (a, b) = unsafe { (*base.add(ring), *base.add(ring + cap)) };
            assert_eq!((a, b), ((i % 251) as u8, (i % 251) as u8), "byte {i}");
        }
    }

    #[test]
    fn mirrored_mapping_reads_contiguously_across_the_wrap() {
        check_wraps(&Mapping::mirrored(page_size()).unwrap());
    }

    #[test]
    #[cfg_attr(miri, ignore)]
    fn default_mapping_reads_contiguously_across_the_wrap() {
        let m = Mapping::new(4 * page_size()).unwrap();
        #[cfg(all(target_os = "linux", not(feature = "loom")))]
        assert!(m.is_double_mapped());
        check_wraps(&m);
    }
}
