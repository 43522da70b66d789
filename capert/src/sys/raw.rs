//! Typed access to application memory and to the program's combiners.
//!
//! The compiled program hands the ABI addresses of its variables (reduction and atomic
//! targets, threadprivate and copyprivate variables) and of its combine functions. The FFI
//! layer wraps them once, with `unsafe` constructors that state what the C caller guarantees,
//! into [`ProgramBytes`] and [`Combiner`]; the rest of the runtime reads, writes and calls
//! through these handles with safe methods. Addresses named by other ranks' merge records
//! become handles through [`SameProgram`], the one explicit trust step.

use std::ffi::c_void;
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering};

/// The C signature of a reduction combiner: `*inout = *inout OP *in`.
pub type CombineFn = extern "C" fn(*mut c_void, *const c_void);

/// The word at `addr`, a pointer-sized variable the compiler listed among the current region's
/// shared objects (`__cape_region_objects`), for reports; 0 for a misaligned address.
pub fn read_listed_word(addr: usize) -> usize {
    if addr == 0 || !addr.is_multiple_of(std::mem::align_of::<usize>()) {
        return 0;
    }
    // SAFETY: by the contract of `__cape_region_objects`, `addr` is a live variable of the
    // region's scope whose size (checked by the caller) is a word; aligned (checked above).
    unsafe { std::ptr::read_volatile(addr as *const usize) }
}

/// `len` bytes of application memory at `addr`: a live object of the program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProgramBytes {
    addr: usize,
    len: usize,
}

impl ProgramBytes {
    /// # Safety
    /// `[addr, addr+len)` must be readable and writable application memory (not memory the
    /// runtime holds references into) for as long as the handle is used.
    pub unsafe fn new(addr: usize, len: usize) -> ProgramBytes {
        ProgramBytes { addr, len }
    }

    pub fn addr(&self) -> usize {
        self.addr
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// `[addr, addr + len)` of this object, if it lies inside it.
    pub fn part(&self, addr: usize, len: usize) -> Option<ProgramBytes> {
        let inside = addr >= self.addr && addr.checked_add(len)? <= self.addr + self.len;
        inside.then_some(ProgramBytes { addr, len })
    }

    /// Appends the object's bytes to `out` (one copy, into `out`'s spare capacity).
    pub fn append_to(&self, out: &mut Vec<u8>) {
        if self.addr == 0 || self.len == 0 {
            return;
        }
        // SAFETY: readable by the constructor's contract; `out` is runtime memory, which the
        // contract excludes, so the two do not overlap.
        out.extend_from_slice(unsafe {
            std::slice::from_raw_parts(self.addr as *const u8, self.len)
        });
    }

    /// A copy of the object's bytes.
    pub fn read(&self) -> Vec<u8> {
        if self.addr == 0 || self.len == 0 {
            return Vec::new();
        }
        // SAFETY: readable by the constructor's contract.
        unsafe { std::slice::from_raw_parts(self.addr as *const u8, self.len).to_vec() }
    }

    /// Writes `bytes` at the object's start; never past its end (a longer `bytes` is cut).
    pub fn write(&self, bytes: &[u8]) {
        let len = bytes.len().min(self.len);
        if self.addr == 0 || len == 0 {
            return;
        }
        // SAFETY: `len` bytes from `addr` are writable by the constructor's contract; `bytes`
        // is runtime memory, which the contract excludes, so the two do not overlap.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.addr as *mut u8, len) }
    }
}

/// A combine function of the program, for objects of `size` bytes.
#[derive(Debug, Clone, Copy)]
pub struct Combiner {
    f: CombineFn,
    size: usize,
}

impl Combiner {
    /// # Safety
    /// `f(inout, in)` must read an object of `size` bytes at `in` and update one at `inout`,
    /// and touch nothing else the runtime relies on.
    pub unsafe fn new(f: CombineFn, size: usize) -> Combiner {
        Combiner { f, size }
    }

    /// The function's address, the same on every rank (programs are linked without PIE).
    pub fn address(&self) -> usize {
        self.f as usize
    }

    /// `target = target OP operand`; nothing when the sizes differ from the combiner's.
    pub fn apply(&self, target: ProgramBytes, operand: &[u8]) {
        if target.addr == 0 || target.len != self.size || operand.len() != self.size {
            return;
        }
        // The combiner may expect alignment: pass an aligned copy of the operand (on the
        // stack for scalars and small structs: this runs for every reduction of every region).
        let mut small = [0u128; 4];
        let mut large = Vec::new();
        let aligned: &mut [u128] = if operand.len() <= std::mem::size_of_val(&small) {
            &mut small
        } else {
            large.resize(operand.len().div_ceil(16), 0u128);
            &mut large
        };
        // SAFETY: `aligned` has at least operand.len() bytes; the two do not overlap.
        unsafe {
            std::ptr::copy_nonoverlapping(
                operand.as_ptr(),
                aligned.as_mut_ptr().cast::<u8>(),
                operand.len(),
            )
        };
        (self.f)(target.addr as *mut c_void, aligned.as_ptr().cast());
    }

    /// `acc = acc OP operand` on two operands of an associative and commutative update whose
    /// operand has the target's type (an integer `+`, `*`, `&`, `|`, `^`, max or min): two
    /// updates of one variable become one, `x OP a OP b == x OP (a OP b)`. Nothing when the
    /// sizes differ from the combiner's or exceed 16 bytes.
    pub fn fold(&self, acc: &mut [u8], operand: &[u8]) {
        if acc.len() != self.size || operand.len() != self.size || self.size > 16 {
            return;
        }
        let (mut a, mut b) = ([0u128; 1], [0u128; 1]);
        // SAFETY: `a` and `b` have 16 bytes each, at least size; no overlap with the slices.
        unsafe {
            std::ptr::copy_nonoverlapping(acc.as_ptr(), a.as_mut_ptr().cast::<u8>(), self.size);
            std::ptr::copy_nonoverlapping(operand.as_ptr(), b.as_mut_ptr().cast::<u8>(), self.size);
        }
        // an object of the combiner's type at `a` (the operand's type is the target's)
        (self.f)(a.as_mut_ptr().cast(), b.as_ptr().cast());
        // SAFETY: as above, back into `acc`.
        unsafe {
            std::ptr::copy_nonoverlapping(a.as_ptr().cast::<u8>(), acc.as_mut_ptr(), self.size)
        };
    }

    /// Whether `target` has a compare-and-swap (1, 2, 4 or 8 bytes, aligned): then
    /// `apply_atomically` makes every update of it, as the translated code's own loop does.
    pub fn has_cas(target: ProgramBytes) -> bool {
        matches!(target.len, 1 | 2 | 4 | 8)
            && target.addr != 0
            && target.addr.is_multiple_of(target.len)
    }

    /// `target = target OP operand` as one compare-and-swap loop on the target's word (the
    /// combiner runs on a copy), atomic against the other threads' updates of it. False,
    /// with nothing done, when `target` has no compare-and-swap (`has_cas`) or the sizes
    /// differ from the combiner's.
    pub fn apply_atomically(&self, target: ProgramBytes, operand: &[u8]) -> bool {
        if !Combiner::has_cas(target) || target.len != self.size || operand.len() != self.size {
            return false;
        }
        let mut op = [0u64; 1];
        // SAFETY: `op` has 8 bytes, operand.len() <= 8; the two do not overlap.
        unsafe {
            std::ptr::copy_nonoverlapping(
                operand.as_ptr(),
                op.as_mut_ptr().cast::<u8>(),
                operand.len(),
            )
        };
        // the combiner on an aligned copy of the word: `new = old OP operand`
        let combine = |old: u64| -> u64 {
            let mut word = [old];
            (self.f)(word.as_mut_ptr().cast(), op.as_ptr().cast());
            word[0]
        };
        macro_rules! cas_loop {
            ($atomic:ty, $int:ty) => {{
                // SAFETY: `target` is live program memory of this size (the constructor's
                // contract), aligned (checked above); every other thread updates it with
                // atomic instructions too (this loop, or the translated code's).
                let cell = unsafe { <$atomic>::from_ptr(target.addr as *mut $int) };
                let mut old = cell.load(Ordering::Relaxed);
                loop {
                    // little-endian: the low bytes of the word are the object
                    let new = combine(u64::from(old)) as $int;
                    match cell.compare_exchange_weak(old, new, Ordering::Relaxed, Ordering::Relaxed)
                    {
                        Ok(_) => break,
                        Err(seen) => old = seen,
                    }
                }
            }};
        }
        match target.len {
            1 => cas_loop!(AtomicU8, u8),
            2 => cas_loop!(AtomicU16, u16),
            4 => cas_loop!(AtomicU32, u32),
            _ => cas_loop!(AtomicU64, u64),
        }
        true
    }
}

/// The trust that the addresses in merge records from other ranks name this process's
/// objects and functions: every rank of the job runs the same non-PIE executable.
#[derive(Debug, Clone, Copy)]
pub struct SameProgram(());

impl SameProgram {
    /// # Safety
    /// Every rank of the job must run this same executable, linked without PIE, and merge
    /// records must only be made by [`crate::region`] from handles of [`ProgramBytes`] and
    /// [`Combiner`] on those ranks.
    pub unsafe fn assume() -> SameProgram {
        SameProgram(())
    }

    /// Program memory the merge names: a record's target (on every rank the same variable),
    /// or shared memory of this process between two runs of a change.
    pub fn object(self, addr: usize, len: usize) -> ProgramBytes {
        ProgramBytes { addr, len }
    }

    /// The combiner a record names, if `addr` lies in the executable's code.
    pub fn combiner(self, addr: usize, size: usize) -> Option<Combiner> {
        let (start, end) = super::bounds::executable_code();
        if addr == 0 || (end > start && !(start..end).contains(&addr)) {
            return None;
        }
        // SAFETY: by `assume`'s contract this is the address of the combiner another rank
        // wrapped from a `__cape_reduce`/`__cape_atomic_update` argument, whose C contract
        // is the CombineFn signature for objects of `size` bytes; it lies in our code.
        let f = unsafe { std::mem::transmute::<usize, CombineFn>(addr) };
        Some(Combiner { f, size })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    extern "C" fn add_u16(inout: *mut c_void, operand: *const c_void) {
        // SAFETY: the combiner's contract: two u16 objects (the test passes them).
        unsafe { *inout.cast::<u16>() = (*inout.cast::<u16>()).wrapping_add(*operand.cast()) };
    }

    extern "C" fn add_f64(inout: *mut c_void, operand: *const c_void) {
        // SAFETY: the combiner's contract: two f64 objects (the test passes them).
        unsafe { *inout.cast::<f64>() += *operand.cast::<f64>() };
    }

    #[test]
    fn updates_by_compare_and_swap_add_up_across_threads() {
        let mut words = [0u64; 2];
        let at = words.as_mut_ptr() as usize;
        // SAFETY: `words` outlives the threads, which update it only through these handles.
        let (counter, sum) = unsafe {
            (
                (ProgramBytes::new(at + 2, 2), Combiner::new(add_u16, 2)),
                (ProgramBytes::new(at + 8, 8), Combiner::new(add_f64, 8)),
            )
        };
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..10_000 {
                        assert!(counter.1.apply_atomically(counter.0, &1u16.to_le_bytes()));
                        assert!(sum.1.apply_atomically(sum.0, &0.5f64.to_le_bytes()));
                    }
                });
            }
        });
        assert_eq!(counter.0.read(), 40_000u16.to_le_bytes());
        assert_eq!(sum.0.read(), 20_000f64.to_le_bytes());
        // the bytes beside the counter are untouched
        assert_eq!(&words[0].to_le_bytes()[..2], &[0, 0]);
        assert_eq!(&words[0].to_le_bytes()[4..], &[0, 0, 0, 0]);
    }

    #[test]
    fn no_compare_and_swap_without_its_size_and_alignment() {
        let mut words = [0u64; 4];
        let at = words.as_mut_ptr() as usize;
        // SAFETY: `words` outlives the handles; nothing else uses it.
        let (misaligned, wide, add) = unsafe {
            (
                ProgramBytes::new(at + 1, 2),
                ProgramBytes::new(at, 16),
                Combiner::new(add_u16, 2),
            )
        };
        assert!(!Combiner::has_cas(misaligned));
        assert!(!Combiner::has_cas(wide));
        assert!(!add.apply_atomically(misaligned, &1u16.to_le_bytes()));
        assert_eq!(words, [0; 4]);
    }
}
