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

// Safe entry points over the ABI contract: every address reaching them was handed to the ABI
// by the compiled program (or, in a merge record, by the same program on another rank).

/// Combines a partial reduction value into the shared variable at `shared` with the combiner
/// at address `combine`. Both come from `__cape_reduce` calls of the compiled program (its
/// ABI contract: `shared` is a live object of `partial.len()` bytes, `combine` a
/// `void (*)(void *, const void *)` for that type).
pub fn combine(shared: usize, partial: &[u8], combine: usize) {
    if shared == 0 || combine == 0 {
        return;
    }
    // SAFETY: guaranteed by the `__cape_reduce` contract described above; the function
    // address is the same on every rank because programs are linked without PIE.
    unsafe { combine_into(shared, partial, combine) }
}

/// Copies `len` bytes of program memory at `addr`. Only used on addresses the compiled program
/// handed to the ABI (reduction/atomic targets, threadprivate and copyprivate variables),
/// which its contract makes live objects of at least that size.
pub fn read_memory(addr: usize, len: usize) -> Vec<u8> {
    if addr == 0 || len == 0 {
        return Vec::new();
    }
    // SAFETY: guaranteed by the ABI contract described above.
    unsafe { read_bytes(addr, len) }
}

/// Writes `bytes` to program memory at `addr` (same contract as [`read_memory`]).
pub fn write_memory(addr: usize, bytes: &[u8]) {
    if addr == 0 || bytes.is_empty() {
        return;
    }
    // SAFETY: guaranteed by the ABI contract; `bytes` is runtime memory, never the target.
    unsafe { write_bytes(addr, bytes) }
}
