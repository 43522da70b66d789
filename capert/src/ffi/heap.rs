//! The program's heap calls (`malloc` and its family, `strdup`): the shared arena or libc,
//! see `arena.rs` and `region_heap.rs`. A thread other than its rank's first that runs a
//! `masked` block in a team of several ranks hands its calls to the rank's thread 0, which owns
//! the arena (`region/threads.rs::heap_call_on_thread_0`).

use super::guard;
use crate::region::{threads, with_state};
use crate::region_heap;
use crate::runtime;
use crate::sys::heap::Heap;
use crate::sys::signals::set_errno;
use std::ffi::{c_char, c_int, c_void};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, Ordering};

const MIN_ALIGN: usize = 16;

enum Owner {
    Arena,
    Libc,
}

/// Who serves heap calls now: the arena in sequential code (same addresses on every rank)
/// and in a `single`/`master` block of an active region on the rank that runs it (merged,
/// see `region_heap`); libc elsewhere inside a parallel region (ranks allocate differently
/// there; such memory is private).
fn allocator() -> Owner {
    if threads::is_worker() {
        // the arena is the rank's thread 0's (a `masked` block's calls are made there)
        return Owner::Libc;
    }
    if with_state(|s| s.rt.is_none()) || !arena_usable() {
        Owner::Libc
    } else {
        Owner::Arena
    }
}

/// The arena may change now: outside active regions, or in a block one rank runs.
fn arena_usable() -> bool {
    // a worker never: the arena is its rank's thread 0's
    !threads::is_worker() && (!crate::arena::in_active_region() || region_heap::owns_arena())
}

fn in_arena(ptr: *mut c_void) -> bool {
    if threads::is_worker() {
        return threads::in_arena(ptr as usize);
    }
    with_state(|s| {
        s.rt.as_ref()
            .is_some_and(|rt| rt.arena.contains(ptr as usize))
    })
}

fn arena_alloc(size: usize, align: usize) -> *mut c_void {
    region_heap::note_arena_change();
    match with_state(|s| {
        s.rt.as_mut()
            .map(|rt| rt.arena.alloc(size.max(1), align.max(MIN_ALIGN)))
    }) {
        Some(Ok(p)) => {
            crate::objects::note_block(p.as_ptr() as usize, size);
            p.as_ptr().cast()
        }
        Some(Err(e)) => allocation_failed(&e),
        None => std::ptr::null_mut(),
    }
}

/// An allocation the arena cannot make: NULL with `ENOMEM`, as the C library's `malloc` gives
/// (a program may try a smaller size; every rank of sequential code fails alike, the arena
/// being the same on all). Rank 0 says once why, as most programs do not look.
fn allocation_failed(why: &str) -> *mut c_void {
    static WARNED: AtomicBool = AtomicBool::new(false);
    let rank = with_state(|s| s.rt.as_ref().map_or(0, |rt| rt.rank));
    if rank == 0 && !WARNED.swap(true, Ordering::Relaxed) {
        crate::diag::eprint_line(&format!(
            "capert: warning: {why}; the allocation returns NULL"
        ));
    }
    set_errno(libc::ENOMEM);
    std::ptr::null_mut()
}

fn alloc_aligned(size: usize, align: usize) -> *mut c_void {
    if let Some(p) = threads::heap_call_on_thread_0(move || alloc_aligned(size, align) as usize) {
        return p as *mut c_void;
    }
    match allocator() {
        Owner::Arena => arena_alloc(size, align),
        Owner::Libc => {
            let mut out = std::ptr::null_mut();
            // SAFETY: posix_memalign writes a pointer to `out` or returns an error.
            let rc = unsafe { libc::posix_memalign(&mut out, align.max(MIN_ALIGN), size.max(1)) };
            if rc == 0 {
                out
            } else {
                std::ptr::null_mut()
            }
        }
    }
}

/// `malloc` of the program: same address on every rank in sequential code.
#[no_mangle]
pub extern "C" fn __cape_malloc(size: usize) -> *mut c_void {
    guard(|| {
        if let Some(p) = threads::heap_call_on_thread_0(move || __cape_malloc(size) as usize) {
            return p as *mut c_void;
        }
        if let Some(p) = section_alloc(size) {
            return p;
        }
        plain_malloc(size)
    })
}

/// `malloc` in a section under a cross-rank lock: the sections' heap (`region/lock.rs`).
fn section_alloc(size: usize) -> Option<*mut c_void> {
    let block = threads::section_alloc(size)
        .unwrap_or_else(|| with_state(|s| crate::region::lock::section_alloc(s, size)));
    match block {
        Ok(p) => p.map(|p| p as *mut c_void),
        Err(e) => runtime::fatal(&e),
    }
}

fn plain_malloc(size: usize) -> *mut c_void {
    match allocator() {
        Owner::Arena => arena_alloc(size, MIN_ALIGN),
        // SAFETY: plain libc malloc.
        Owner::Libc => unsafe { libc::malloc(size) },
    }
}

/// `calloc` of the program.
#[no_mangle]
pub extern "C" fn __cape_calloc(count: usize, size: usize) -> *mut c_void {
    guard(|| {
        if let Some(p) = threads::heap_call_on_thread_0(move || __cape_calloc(count, size) as usize)
        {
            return p as *mut c_void;
        }
        let Some(total) = count.checked_mul(size) else {
            return std::ptr::null_mut();
        };
        // the sections' heap is fresh, zeroed memory on every rank
        if let Some(p) = section_alloc(total) {
            return p;
        }
        match allocator() {
            Owner::Arena => {
                let p = arena_alloc(total, MIN_ALIGN);
                if !p.is_null() {
                    // SAFETY: the block has at least `total` bytes (freed arena memory is not
                    // zero).
                    unsafe { std::ptr::write_bytes(p.cast::<u8>(), 0, total) };
                }
                p
            }
            // SAFETY: plain libc calloc.
            Owner::Libc => unsafe { libc::calloc(count, size) },
        }
    })
}

/// `realloc` of the program. Accepts arena blocks and blocks from libc (e.g. `getline`).
#[no_mangle]
pub extern "C" fn __cape_realloc(ptr: *mut c_void, size: usize) -> *mut c_void {
    guard(|| {
        let at = ptr as usize;
        if let Some(p) =
            threads::heap_call_on_thread_0(move || __cape_realloc(at as *mut c_void, size) as usize)
        {
            return p as *mut c_void;
        }
        if ptr.is_null() {
            return __cape_malloc(size);
        }
        if crate::region::lock::in_section_heap(ptr as usize) {
            runtime::fatal(
                "`realloc` of a block allocated inside a critical section: such blocks cannot \
                 move; allocate a new block and copy instead",
            );
        }
        if !in_arena(ptr) {
            // a block the C library allocated (`getline`, `realpath`): moved into the arena,
            // where the ranks share it, unless the arena must not change now
            if !arena_usable() || size == 0 {
                // SAFETY: not ours, so it came from libc.
                return unsafe { libc::realloc(ptr, size) };
            }
            let new = __cape_malloc(size);
            if !new.is_null() {
                // SAFETY: `ptr` is a live libc block of `malloc_usable_size` bytes, `new` an
                // arena block of `size`; the copy stays within both; the libc block is freed
                // once, here, as realloc would.
                unsafe {
                    let old = libc::malloc_usable_size(ptr);
                    std::ptr::copy_nonoverlapping(
                        ptr.cast::<u8>(),
                        new.cast::<u8>(),
                        old.min(size),
                    );
                    libc::free(ptr);
                }
            }
            return new;
        }
        // SAFETY: arena pointers the program holds are live arena blocks.
        let nn = unsafe { NonNull::new_unchecked(ptr.cast::<u8>()) };
        if !arena_usable() {
            // The arena must not change here: move the data to private memory and leave the
            // old block alone.
            // SAFETY: `nn` is a live arena block.
            let old = unsafe { Heap::usable_size(nn) };
            // SAFETY: plain libc malloc; the copy stays within both blocks.
            unsafe {
                let new = libc::malloc(size.max(1));
                if !new.is_null() {
                    std::ptr::copy_nonoverlapping(
                        ptr.cast::<u8>(),
                        new.cast::<u8>(),
                        old.min(size),
                    );
                }
                return new;
            }
        }
        if size == 0 {
            __cape_free(ptr);
            return std::ptr::null_mut();
        }
        region_heap::note_arena_change();
        // SAFETY: `nn` is a live arena block.
        let result = with_state(|s| {
            let rt = s.rt.as_mut()?;
            // SAFETY: `nn` is a live arena block.
            let moved = unsafe { rt.arena.heap_mut().realloc(nn, size) };
            if let Ok(block) = moved {
                rt.arena.forget_block(ptr as usize);
                rt.arena.note_block(block.as_ptr() as usize, size);
                crate::objects::forget_block(ptr as usize);
                crate::objects::note_block(block.as_ptr() as usize, size);
            }
            Some(moved.map_err(|e| rt.arena.describe(e, size)))
        });
        match result {
            Some(Ok(p)) => p.as_ptr().cast(),
            Some(Err(msg)) => allocation_failed(&msg),
            None => std::ptr::null_mut(),
        }
    })
}

/// `free` of the program. Accepts arena blocks and blocks from libc. Freeing an arena block
/// inside a parallel region, outside a `single`/`master` block, leaks the block: ranks free
/// different blocks there, and the arena must stay identical on every rank.
#[no_mangle]
pub extern "C" fn __cape_free(ptr: *mut c_void) {
    guard(|| {
        let at = ptr as usize;
        if threads::heap_call_on_thread_0(move || {
            __cape_free(at as *mut c_void);
            0
        })
        .is_some()
        {
            return;
        }
        if ptr.is_null() || crate::region::lock::in_section_heap(ptr as usize) {
            return;
        }
        if !in_arena(ptr) {
            // SAFETY: not ours, so it came from libc.
            unsafe { libc::free(ptr) };
            return;
        }
        if !arena_usable() {
            return;
        }
        region_heap::note_arena_change();
        // SAFETY: arena pointers the program holds are live arena blocks.
        let nn = unsafe { NonNull::new_unchecked(ptr.cast::<u8>()) };
        with_state(|s| {
            if let Some(rt) = s.rt.as_mut() {
                // SAFETY: as above; freed once by the program's contract.
                unsafe { rt.arena.heap_mut().free(nn) };
                rt.arena.forget_block(ptr as usize);
                crate::objects::forget_block(ptr as usize);
            }
        });
    })
}

/// `posix_memalign` of the program.
#[no_mangle]
pub extern "C" fn __cape_posix_memalign(out: *mut *mut c_void, align: usize, size: usize) -> c_int {
    guard(|| {
        if out.is_null()
            || !align.is_power_of_two()
            || !align.is_multiple_of(std::mem::size_of::<usize>())
        {
            return libc::EINVAL;
        }
        let p = alloc_aligned(size, align);
        if p.is_null() {
            return libc::ENOMEM;
        }
        // SAFETY: `out` is a valid pointer by the posix_memalign contract.
        unsafe { *out = p };
        0
    })
}

/// `aligned_alloc` of the program.
#[no_mangle]
pub extern "C" fn __cape_aligned_alloc(align: usize, size: usize) -> *mut c_void {
    guard(|| {
        if !align.is_power_of_two() {
            return std::ptr::null_mut();
        }
        alloc_aligned(size, align)
    })
}

/// `memalign` of the program.
#[no_mangle]
pub extern "C" fn __cape_memalign(align: usize, size: usize) -> *mut c_void {
    guard(|| __cape_aligned_alloc(align, size))
}

/// `valloc` of the program (page aligned).
#[no_mangle]
pub extern "C" fn __cape_valloc(size: usize) -> *mut c_void {
    guard(|| __cape_aligned_alloc(crate::track::PAGE_SIZE, size))
}

/// `reallocarray` of the program: `realloc` of `count * size` bytes, NULL (`ENOMEM`) when
/// that overflows.
#[no_mangle]
pub extern "C" fn __cape_reallocarray(ptr: *mut c_void, count: usize, size: usize) -> *mut c_void {
    guard(|| match count.checked_mul(size) {
        Some(bytes) => __cape_realloc(ptr, bytes),
        None => {
            set_errno(libc::ENOMEM);
            std::ptr::null_mut()
        }
    })
}

/// `pvalloc` of the program: page-aligned, the size rounded up to whole pages.
#[no_mangle]
pub extern "C" fn __cape_pvalloc(size: usize) -> *mut c_void {
    guard(|| {
        let page = crate::track::PAGE_SIZE;
        let Some(rounded) = size.max(1).checked_next_multiple_of(page) else {
            set_errno(libc::ENOMEM);
            return std::ptr::null_mut();
        };
        __cape_aligned_alloc(page, rounded)
    })
}

extern "C" {
    /// POSIX 2008 (the libc crate does not declare it).
    fn getdelim(
        line: *mut *mut c_char,
        capacity: *mut usize,
        delim: c_int,
        stream: *mut libc::FILE,
    ) -> isize;
}

/// `getdelim` of the program: the line in a block of the arena (grown with `__cape_realloc`,
/// which also takes in a block the C library allocated), so that the ranks share it.
#[no_mangle]
pub extern "C" fn __cape_getdelim(
    line: *mut *mut c_char,
    capacity: *mut usize,
    delim: c_int,
    stream: *mut c_void,
) -> isize {
    guard(|| {
        if line.is_null() || capacity.is_null() {
            set_errno(libc::EINVAL);
            return -1;
        }
        let mut own: *mut c_char = std::ptr::null_mut();
        let mut own_capacity = 0usize;
        // SAFETY: libc's getdelim with its own buffer (NULL, 0: it allocates), freed below;
        // `stream` is the program's `FILE *`.
        let read = unsafe { getdelim(&mut own, &mut own_capacity, delim, stream.cast()) };
        if read >= 0 {
            let needed = read as usize + 1;
            // SAFETY: `line` and `capacity` are the caller's valid out-pointers (checked for
            // NULL); `*line` is NULL or a block of at least `*capacity` bytes, which
            // `__cape_realloc` takes from either heap.
            unsafe {
                if (*line).is_null() || *capacity < needed {
                    let grown = __cape_realloc((*line).cast(), needed).cast::<c_char>();
                    if grown.is_null() {
                        libc::free(own.cast());
                        set_errno(libc::ENOMEM);
                        return -1;
                    }
                    *line = grown;
                    *capacity = needed;
                }
                std::ptr::copy_nonoverlapping(own, *line, needed);
            }
        }
        // SAFETY: `own` came from libc's getdelim (or is NULL).
        unsafe { libc::free(own.cast()) };
        read
    })
}

/// `getline` of the program: `getdelim` up to a newline.
#[no_mangle]
pub extern "C" fn __cape_getline(
    line: *mut *mut c_char,
    capacity: *mut usize,
    stream: *mut c_void,
) -> isize {
    guard(|| __cape_getdelim(line, capacity, c_int::from(b'\n'), stream))
}

/// `strdup` of the program.
#[no_mangle]
pub extern "C" fn __cape_strdup(s: *const c_char) -> *mut c_char {
    guard(|| {
        if s.is_null() {
            return std::ptr::null_mut();
        }
        // SAFETY: `s` is a NUL-terminated string by the strdup contract.
        let len = unsafe { libc::strlen(s) };
        __cape_strndup(s, len)
    })
}

/// `strndup` of the program.
#[no_mangle]
pub extern "C" fn __cape_strndup(s: *const c_char, n: usize) -> *mut c_char {
    guard(|| {
        if s.is_null() {
            return std::ptr::null_mut();
        }
        // SAFETY: strnlen reads at most `n` bytes of a valid string.
        let len = unsafe { libc::strnlen(s, n) };
        let p = __cape_malloc(len + 1).cast::<c_char>();
        if !p.is_null() {
            // SAFETY: `p` has len + 1 bytes; `s` has at least `len` readable bytes.
            unsafe {
                std::ptr::copy_nonoverlapping(s, p, len);
                *p.add(len) = 0;
            }
        }
        p
    })
}
