//! Raw access to application memory at addresses the compiled program handed us
//! (reduction variables and their partial values) and calls through C function addresses.

use std::ffi::c_void;

/// The C signature of a reduction combiner: `*inout = *inout OP *in`.
pub type CombineFn = extern "C" fn(*mut c_void, *const c_void);

/// Copies `len` bytes at `addr` into a vector.
///
/// # Safety
/// `[addr, addr+len)` must be readable.
pub unsafe fn read_bytes(addr: usize, len: usize) -> Vec<u8> {
    // SAFETY: guaranteed by the caller.
    unsafe { std::slice::from_raw_parts(addr as *const u8, len).to_vec() }
}

/// Combines `partial` into the variable at `shared` with the combiner at address `combine`.
/// `combine` is a function address of the (non-PIE) executable, identical on every rank.
///
/// # Safety
/// `shared` must be a live object of `partial.len()` bytes, `combine` the address of a
/// function with the [`CombineFn`] signature that works on objects of that size.
pub unsafe fn combine_into(shared: usize, partial: &[u8], combine: usize) {
    // SAFETY: guaranteed by the caller: `combine` is a valid CombineFn address.
    let f: CombineFn = unsafe { std::mem::transmute::<usize, CombineFn>(combine) };
    // The combiner may expect alignment: pass an aligned copy of the partial value.
    let mut aligned = vec![0u128; partial.len().div_ceil(16).max(1)];
    // SAFETY: `aligned` has at least partial.len() bytes; the two do not overlap.
    unsafe {
        std::ptr::copy_nonoverlapping(
            partial.as_ptr(),
            aligned.as_mut_ptr().cast::<u8>(),
            partial.len(),
        )
    };
    f(shared as *mut c_void, aligned.as_ptr().cast());
}

/// Copies `bytes` to `addr`.
///
/// # Safety
/// `[addr, addr+bytes.len())` must be writable and not overlap `bytes`.
pub unsafe fn write_bytes(addr: usize, bytes: &[u8]) {
    // SAFETY: guaranteed by the caller.
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), addr as *mut u8, bytes.len()) }
}
