//! Waiting loops (`while (flag == 0) { #pragma omp flush(flag) }`): the compiler reports the
//! variables such a loop waits on at every flush; `crate::wait_watch` decides whether it can
//! ever end.

use super::guard;
use crate::region::cooperative::Spin;
use crate::region::with_state;
use std::ffi::{c_char, c_void, CStr};

/// One iteration of a loop that flushes: `count` variables at `addresses` (`sizes` bytes each)
/// are what it waits on; `site` (`file:line`) and `condition` (its text) name it in the error.
#[no_mangle]
pub extern "C" fn __cape_wait_check(
    site: *const c_char,
    condition: *const c_char,
    count: usize,
    addresses: *const *const c_void,
    sizes: *const usize,
) {
    guard(|| {
        let team = with_state(|s| s.team.omp_num_threads());
        if team < 2 || site.is_null() || (count > 0 && (addresses.is_null() || sizes.is_null())) {
            return;
        }
        let mut hash = crate::wait_watch::Hash::new();
        for i in 0..count {
            // SAFETY: by the ABI contract both arrays hold `count` entries, and each address
            // points to a live variable of the given size (the compiler passes `&v, sizeof v`).
            let bytes = unsafe {
                let addr = *addresses.add(i);
                let size = *sizes.add(i);
                if addr.is_null() {
                    continue;
                }
                std::slice::from_raw_parts(addr.cast::<u8>(), size)
            };
            hash.add(bytes);
        }
        let waited = match crate::region::cooperative::spin(site as usize, hash.finish()) {
            Spin::NotCooperative => crate::wait_watch::observe(site as usize, hash.finish()),
            Spin::Yield => {
                crate::sys::coroutine::yield_now();
                None
            }
            Spin::Stuck(waited) => Some(waited),
        };
        if let Some(waited) = waited {
            // SAFETY: the compiler passes string literals, NUL-terminated and static.
            let (site, condition) = unsafe {
                (
                    CStr::from_ptr(site).to_string_lossy().into_owned(),
                    (!condition.is_null())
                        .then(|| CStr::from_ptr(condition).to_string_lossy().into_owned()),
                )
            };
            crate::wait_watch::stuck(&site, condition.as_deref(), waited);
        }
    })
}
