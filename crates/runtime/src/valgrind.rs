//! Annotations that teach valgrind's race detectors (helgrind, DRD) the synchronisation that
//! radioflow builds from atomics, which neither tool models.
//!
//! - [`happens_before`] right before a Release publication, [`happens_after`] right after the
//!   Acquire that observed it: the tools then order the plain memory accesses around them (ring
//!   items, tags, messages) as the C11 model does.
//! - [`untracked`] on the atomic variables themselves: concurrent accesses to an atomic are not
//!   data races, but the tools see plain `mov`s and would report them.
//!
//! With the `valgrind` feature on x86_64 these are valgrind client requests: a "magic" instruction
//! sequence that does nothing on real hardware and that valgrind recognises. Otherwise they are
//! empty and compile to nothing.

#[cfg(all(feature = "valgrind", target_arch = "x86_64"))]
mod imp {
    // Request numbers (a stable ABI), printed by a C program built against valgrind 3.19's
    // /usr/include/valgrind/helgrind.h and drd.h. drd.h gives VG_USERREQ__DRD_ANNOTATE_HAPPENS_
    // BEFORE / _AFTER the same values as helgrind's, so one pair serves both tools.
    /// `_VG_USERREQ__HG_USERSO_SEND_PRE` (helgrind `ANNOTATE_HAPPENS_BEFORE`).
    const HG_USERSO_SEND_PRE: usize = 0x4847_0121;
    /// `_VG_USERREQ__HG_USERSO_RECV_POST` (helgrind `ANNOTATE_HAPPENS_AFTER`).
    const HG_USERSO_RECV_POST: usize = 0x4847_0122;
    /// `_VG_USERREQ__HG_ARANGE_MAKE_UNTRACKED` (`VALGRIND_HG_DISABLE_CHECKING`).
    const HG_ARANGE_MAKE_UNTRACKED: usize = 0x4847_0127;
    /// `VG_USERREQ__DRD_START_SUPPRESSION` from drd.h (DRD's `ANNOTATE_BENIGN_RACE_SIZED`).
    const DRD_START_SUPPRESSION: usize = 0x4452_0002;

    /// `VALGRIND_DO_CLIENT_REQUEST_EXPR` of valgrind.h for amd64, with default result 0.
    /// A tool that does not know `request` ignores it.
    #[inline(always)]
    fn client_request(request: usize, a1: usize, a2: usize) {
        let args: [usize; 6] = [request, a1, a2, 0, 0, 0];
        // SAFETY: natively the sequence is a no-op: rdi is rotated by 3 + 13 + 61 + 51 = 128
        // bits (back to its value) and `xchg rbx, rbx` changes nothing; only flags change, which
        // asm! assumes anyway. Under valgrind it reads the six words behind rax, which live
        // until the asm returns, and writes the result to rdx, declared as an output. Without
        // `nomem` the compiler keeps memory accesses on either side of the request in order.
        unsafe {
            std::arch::asm!(
                "rol rdi, 3",
                "rol rdi, 13",
                "rol rdi, 61",
                "rol rdi, 51",
                "xchg rbx, rbx",
                in("rax") args.as_ptr(),
                inout("rdx") 0usize => _,
                inout("rdi") 0usize => _,
                options(nostack),
            );
        }
    }

    fn addr<T: ?Sized>(obj: &T) -> usize {
        obj as *const T as *const u8 as usize
    }

    #[inline(always)]
    pub(crate) fn happens_before<T: ?Sized>(obj: &T) {
        client_request(HG_USERSO_SEND_PRE, addr(obj), 0);
    }

    #[inline(always)]
    pub(crate) fn happens_after<T: ?Sized>(obj: &T) {
        client_request(HG_USERSO_RECV_POST, addr(obj), 0);
    }

    #[inline(always)]
    pub(crate) fn untracked<T: ?Sized>(var: &T) {
        let len = std::mem::size_of_val(var);
        client_request(HG_ARANGE_MAKE_UNTRACKED, addr(var), len);
        client_request(DRD_START_SUPPRESSION, addr(var), len);
    }
}

#[cfg(not(all(feature = "valgrind", target_arch = "x86_64")))]
mod imp {
    #[inline(always)]
    pub(crate) fn happens_before<T: ?Sized>(_obj: &T) {}

    #[inline(always)]
    pub(crate) fn happens_after<T: ?Sized>(_obj: &T) {}

    #[inline(always)]
    pub(crate) fn untracked<T: ?Sized>(_var: &T) {}
}

/// Everything this thread did so far happens before whatever a later [`happens_after`] on the
/// same `obj` is followed by. Call right before the Release store (or RMW) that publishes it.
#[inline(always)]
pub(crate) fn happens_before<T: ?Sized>(obj: &T) {
    imp::happens_before(obj);
}

/// Pairs with every earlier [`happens_before`] on `obj`. Call right after the Acquire load
/// that observed the publication.
#[inline(always)]
pub(crate) fn happens_after<T: ?Sized>(obj: &T) {
    imp::happens_after(obj);
}

/// Stops race detection on the memory of `var`, an atomic (or a struct of atomics) whose
/// accesses are synchronised by definition. Lasts until the memory is freed; calling it again
/// is harmless, so it may sit right before a store.
#[inline(always)]
pub(crate) fn untracked<T: ?Sized>(var: &T) {
    imp::untracked(var);
}
