//! The OpenMP lock API (`omp_*_lock`, `omp_*_nest_lock`).

use super::guard;
use crate::region::{threads, with_state};
use std::ffi::{c_char, c_int};
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize};

// Locks: word 0 holds the state, a flag (simple lock) or, for a nestable lock, a mutex word
// with the depth and owner in words 1 and 2 (`NestLock`). Outside a parallel region and in a
// team its rank runs alone that is all a lock needs. Inside a region of several ranks the
// team's threads are processes: the
// compiler turns every lock call it can follow into a cross-rank lock call (`__cape_lock_*`)
// with the stores made under the lock reported; one it cannot follow (through a function
// pointer, from a file built without capecc) reaches these and is a clear error rather than a
// silent wrong result.

fn refuse_in_region(what: &str) {
    if with_state(|s| s.team.in_team_region()) {
        crate::runtime::fatal(&format!(
            "`{what}` inside a parallel region was reached from code capecc did not instrument (a call through a function pointer, or from a file built without capecc): the stores made while the lock is held would be lost; call the lock routines, or the functions of this file that call them, by name, or use `#pragma omp critical`"
        ));
    }
}

fn lock_word(lock: *mut u64) -> Option<&'static mut u64> {
    // SAFETY: the program passes a pointer to its omp_lock_t / omp_nest_lock_t, whose first
    // member is an unsigned long long.
    unsafe { lock.as_mut() }
}

#[no_mangle]
pub extern "C" fn omp_init_lock(lock: *mut u64) {
    guard(|| {
        if let Some(w) = lock_word(lock) {
            *w = 0;
        }
    })
}
/// A hint (`omp_sync_hint_t`) changes nothing: the lock is the same.
#[no_mangle]
pub extern "C" fn omp_init_lock_with_hint(lock: *mut u64, _hint: c_int) {
    guard(|| omp_init_lock(lock))
}
#[no_mangle]
pub extern "C" fn omp_destroy_lock(lock: *mut u64) {
    guard(|| omp_init_lock(lock))
}
#[no_mangle]
pub extern "C" fn omp_set_lock(lock: *mut u64) {
    guard(|| {
        refuse_in_region("omp_set_lock");
        if let Some(w) = lock_word(lock) {
            *w = 1;
        }
    })
}
#[no_mangle]
pub extern "C" fn omp_unset_lock(lock: *mut u64) {
    guard(|| {
        if let Some(w) = direct_simple_lock(lock) {
            mutex_unlock(w);
            return;
        }
        // the unset that ends a lock test's block inside a region
        if holds_across_ranks(lock) {
            cross_rank_exit(crate::region::lock::slot_of_address(lock as usize));
            return;
        }
        if let Some(w) = lock_word(lock) {
            *w = 0;
        }
    })
}
#[no_mangle]
pub extern "C" fn omp_test_lock(lock: *mut u64) -> c_int {
    guard(|| {
        refuse_in_region("omp_test_lock");
        match lock_word(lock) {
            Some(w) if *w == 0 => {
                *w = 1;
                1
            }
            _ => 0,
        }
    })
}
#[no_mangle]
pub extern "C" fn omp_init_nest_lock(lock: *mut u64) {
    guard(|| {
        if let Some(l) = nest_lock(lock) {
            l.mutex.store(0, Relaxed);
            l.depth.store(0, Relaxed);
            l.owner.store(0, Relaxed);
        }
    })
}
#[no_mangle]
pub extern "C" fn omp_init_nest_lock_with_hint(lock: *mut u64, _hint: c_int) {
    guard(|| omp_init_nest_lock(lock))
}
#[no_mangle]
pub extern "C" fn omp_destroy_nest_lock(lock: *mut u64) {
    guard(|| omp_init_nest_lock(lock))
}
/// A nest lock set, unset or tested inside a region, inside a section of that lock that the
/// compiler lowered: the cross-rank lock's depth changes (Some(depth) after the change).
fn nested_in_region(lock: *mut u64, delta: i32) -> Option<c_int> {
    let slot = crate::region::lock::slot_of_address(lock as usize);
    let depth = threads::section_nest(slot, delta)
        .unwrap_or_else(|| with_state(|s| crate::region::lock::nest(s, slot, delta)));
    match depth {
        Ok(depth) => depth.map(|d| d as c_int),
        Err(e) => crate::runtime::fatal(&e),
    }
}

#[no_mangle]
pub extern "C" fn omp_set_nest_lock(lock: *mut u64) {
    guard(|| {
        if let Some(l) = direct_nest_lock(lock) {
            l.set();
            return;
        }
        if nested_in_region(lock, 1).is_some() {
            return;
        }
        refuse_in_region("omp_set_nest_lock");
        if let Some(l) = nest_lock(lock) {
            l.set();
        }
    })
}
#[no_mangle]
pub extern "C" fn omp_unset_nest_lock(lock: *mut u64) {
    guard(|| {
        if let Some(l) = direct_nest_lock(lock) {
            l.unset();
            return;
        }
        if nested_in_region(lock, -1).is_some() {
            return;
        }
        if let Some(l) = nest_lock(lock) {
            l.unset();
        }
    })
}
#[no_mangle]
pub extern "C" fn omp_test_nest_lock(lock: *mut u64) -> c_int {
    guard(|| {
        if let Some(l) = direct_nest_lock(lock) {
            return l.test();
        }
        if let Some(depth) = nested_in_region(lock, 1) {
            return depth;
        }
        refuse_in_region("omp_test_nest_lock");
        nest_lock(lock).map_or(0, |l| l.test())
    })
}

// Cross-rank locks (`region/lock.rs`): general `critical` sections and lock pairs around any
// code inside a region, lowered by the compiler with every store of the section reported. A
// thread of a rank that runs several takes its rank's lock first (`region/rank_locks.rs`).

/// Takes lock `slot`: false when no lock is needed (outside parallel regions).
fn cross_rank_enter(slot: usize) -> bool {
    if let Some(entered) = threads::section_enter(slot) {
        if let Err(e) = entered {
            crate::runtime::fatal(&e);
        }
        return true;
    }
    match with_state(|s| crate::region::lock::enter(s, slot)) {
        Ok(taken) => taken,
        Err(e) => crate::runtime::fatal(&e),
    }
}

fn cross_rank_exit(slot: usize) {
    let left = threads::section_exit(slot)
        .unwrap_or_else(|| with_state(|s| crate::region::lock::exit(s, slot)));
    if let Err(e) = left {
        crate::runtime::fatal(&e);
    }
}

fn name_slot(name: *const c_char) -> usize {
    if name.is_null() {
        return crate::region::lock::slot_of_name(b"");
    }
    // SAFETY: the compiler passes a string literal (the critical section's name).
    let name = unsafe { std::ffi::CStr::from_ptr(name) };
    crate::region::lock::slot_of_name(name.to_bytes())
}

/// From a constructor of every translated file with a general critical section or lock pair:
/// the lock window is opened at start-up.
#[no_mangle]
pub extern "C" fn __cape_critical_used() {
    guard(|| {
        crate::sys::mpi_lock::WANTED.store(true, std::sync::atomic::Ordering::Relaxed);
    })
}

/// A `critical` made of updates whose operands call code a general section cannot hold,
/// reached in a program that also has general sections of its name (`location`: file:line).
#[no_mangle]
pub extern "C" fn __cape_critical_mixed(location: *const c_char, name: *const c_char) {
    guard(|| {
        // SAFETY: the compiler passes two string literals.
        let (location, name) = unsafe {
            (
                std::ffi::CStr::from_ptr(location).to_string_lossy(),
                std::ffi::CStr::from_ptr(name).to_string_lossy(),
            )
        };
        let shown = if name.is_empty() {
            "unnamed".to_string()
        } else {
            format!("`{name}`")
        };
        crate::runtime::fatal(&format!(
            "the {shown} critical section at {location} is made of updates whose operands call functions capecc cannot follow, and the program also has general critical sections of that name, which it must exclude: compute the operands before the section, or give the sections different names"
        ));
    })
}

/// Start of a `critical` section (`name`: its name, "" when unnamed) whose body is any code.
#[no_mangle]
pub extern "C" fn __cape_critical_begin(name: *const c_char) {
    guard(|| {
        cross_rank_enter(name_slot(name));
    })
}

/// End of the section `__cape_critical_begin(name)` started.
#[no_mangle]
pub extern "C" fn __cape_critical_end(name: *const c_char) {
    guard(|| cross_rank_exit(name_slot(name)))
}

/// A store of `size` bytes at `addr` inside a section: returns `addr` (the store follows).
#[no_mangle]
pub extern "C" fn __cape_critical_store(
    addr: *mut std::ffi::c_void,
    size: usize,
) -> *mut std::ffi::c_void {
    guard(|| {
        if !threads::section_store(addr as usize, size) {
            with_state(|s| crate::region::lock::store(s, addr as usize, size));
        }
        addr
    })
}

/// `omp_set_lock` / `omp_set_nest_lock` (nest != 0) that the compiler paired with an unset
/// around code whose stores it reports: a cross-rank lock inside a region.
#[no_mangle]
pub extern "C" fn __cape_lock_set(lock: *mut u64, nest: c_int) {
    guard(|| {
        if let Some(w) = direct_simple_lock(lock).filter(|_| nest == 0) {
            mutex_lock(w);
            return;
        }
        if let Some(l) = direct_nest_lock(lock).filter(|_| nest != 0) {
            l.set();
            return;
        }
        if !cross_rank_enter(crate::region::lock::slot_of_address(lock as usize)) {
            if nest != 0 {
                omp_set_nest_lock(lock)
            } else {
                omp_set_lock(lock)
            }
        }
    })
}

/// The unset of a `__cape_lock_set` pair.
#[no_mangle]
pub extern "C" fn __cape_lock_unset(lock: *mut u64, nest: c_int) {
    guard(|| {
        if let Some(w) = direct_simple_lock(lock).filter(|_| nest == 0) {
            mutex_unlock(w);
            return;
        }
        if let Some(l) = direct_nest_lock(lock).filter(|_| nest != 0) {
            l.unset();
            return;
        }
        let in_region = threads::in_rank_team() || with_state(|s| s.team.in_team_region());
        if in_region {
            cross_rank_exit(crate::region::lock::slot_of_address(lock as usize));
        } else if nest != 0 {
            omp_unset_nest_lock(lock)
        } else {
            omp_unset_lock(lock)
        }
    })
}

fn holds_across_ranks(lock: *mut u64) -> bool {
    let slot = crate::region::lock::slot_of_address(lock as usize);
    threads::section_holds(slot)
        .unwrap_or_else(|| with_state(|s| crate::region::lock::holds(s, slot)))
}

/// `omp_test_lock` / `omp_test_nest_lock` (nest != 0) that the compiler found as the
/// condition of a block ending with the unset: inside a region it waits for the lock across
/// ranks and succeeds (a simple lock this thread holds: 0; a nest lock: the new depth). A
/// simple lock in a team its rank runs alone is tested as libgomp tests it: taken if free (a
/// nest lock: also when this thread holds it, the new depth).
#[no_mangle]
pub extern "C" fn __cape_lock_test(lock: *mut u64, nest: c_int) -> c_int {
    guard(|| {
        if let Some(w) = direct_simple_lock(lock).filter(|_| nest == 0) {
            return c_int::from(w.compare_exchange(0, 1, Acquire, Relaxed).is_ok());
        }
        if let Some(l) = direct_nest_lock(lock).filter(|_| nest != 0) {
            return l.test();
        }
        if nest != 0 {
            if let Some(depth) = nested_in_region(lock, 1) {
                return depth;
            }
        } else if holds_across_ranks(lock) {
            return 0;
        }
        if cross_rank_enter(crate::region::lock::slot_of_address(lock as usize)) {
            1
        } else if nest != 0 {
            omp_test_nest_lock(lock)
        } else {
            omp_test_lock(lock)
        }
    })
}

// The mutex of a general `critical` section in a team its rank runs alone
// (`__cape_team_direct`): the translated code takes the section's lock word (0 free, 1 taken,
// 2 taken with sleepers) with one compare-and-swap and frees it with one exchange, as
// libgomp's mutex does; it calls here only to wait for a taken word or to wake a sleeper.

/// Spins on a taken word before sleeping on it.
const MUTEX_SPINS: u32 = 1000;

fn mutex_word<'a>(word: *mut u32) -> Option<&'a AtomicU32> {
    if word.is_null() || !word.is_aligned() {
        return None;
    }
    // SAFETY: the translated code passes the address of a section's lock word: a live,
    // aligned unsigned int of the program that it and this code only access atomically.
    Some(unsafe { AtomicU32::from_ptr(word) })
}

/// The compare-and-swap of the translated code found the lock word `word` taken: returns
/// when this thread holds it (spin, then sleep on the word marked 2).
#[no_mangle]
pub extern "C" fn __cape_mutex_wait(word: *mut u32) {
    guard(|| {
        if let Some(w) = mutex_word(word) {
            mutex_wait(w);
        }
    })
}

/// The translated code freed the lock word `word`, which a thread sleeps on: wakes one.
#[no_mangle]
pub extern "C" fn __cape_mutex_wake(word: *mut u32) {
    guard(|| {
        if let Some(w) = mutex_word(word) {
            crate::sys::futex::wake_one(w);
        }
    })
}

fn mutex_wait(w: &AtomicU32) {
    for _ in 0..MUTEX_SPINS {
        if w.load(Relaxed) == 0 && w.compare_exchange(0, 1, Acquire, Relaxed).is_ok() {
            return;
        }
        std::hint::spin_loop();
    }
    while w.swap(2, Acquire) != 0 {
        crate::sys::futex::wait(w, 2);
    }
}

fn mutex_lock(w: &AtomicU32) {
    if w.compare_exchange(0, 1, Acquire, Relaxed).is_err() {
        mutex_wait(w);
    }
}

fn mutex_unlock(w: &AtomicU32) {
    if w.swap(0, Release) == 2 {
        crate::sys::futex::wake_one(w);
    }
}

/// A simple lock in a team its rank runs alone (`__cape_team_direct`): nothing to carry to
/// other ranks, so the lock is the program's lock word itself (its low 32 bits, 0 when the
/// lock is free) under the mutex above, as libgomp takes it; None elsewhere.
fn direct_simple_lock<'a>(lock: *mut u64) -> Option<&'a AtomicU32> {
    if !threads::atomic_direct() {
        return None;
    }
    mutex_word(lock.cast::<u32>())
}

/// A nest lock (`omp_nest_lock_t`: four words) as libgomp's: word 0's low 32 bits are the
/// mutex above, word 1 the depth, word 2 the owner (a token of the holding thread, 0 when
/// free). Sequential code and a team its rank runs alone take it so; inside a region of
/// several ranks the cross-rank lock of its address stands for it (`region/lock.rs`).
struct NestLock<'a> {
    mutex: &'a AtomicU32,
    depth: &'a AtomicU64,
    owner: &'a AtomicUsize,
}

thread_local! {
    /// Its address is this thread's token as a nest lock's owner.
    static OWNER_TOKEN: u8 = const { 0 };
}

fn owner_token() -> usize {
    OWNER_TOKEN.with(|t| t as *const u8 as usize)
}

impl NestLock<'_> {
    fn set(&self) {
        let me = owner_token();
        if self.owner.load(Relaxed) != me {
            mutex_lock(self.mutex);
            self.owner.store(me, Relaxed);
        }
        self.depth.fetch_add(1, Relaxed);
    }

    fn unset(&self) {
        if self.owner.load(Relaxed) != owner_token() {
            return;
        }
        if self.depth.fetch_sub(1, Relaxed) <= 1 {
            self.depth.store(0, Relaxed);
            self.owner.store(0, Relaxed);
            mutex_unlock(self.mutex);
        }
    }

    /// The new depth, or 0 when another thread holds the lock.
    fn test(&self) -> c_int {
        let me = owner_token();
        if self.owner.load(Relaxed) != me {
            if self.mutex.compare_exchange(0, 1, Acquire, Relaxed).is_err() {
                return 0;
            }
            self.owner.store(me, Relaxed);
        }
        (self.depth.fetch_add(1, Relaxed) + 1) as c_int
    }
}

fn nest_lock<'a>(lock: *mut u64) -> Option<NestLock<'a>> {
    if lock.is_null() || !lock.is_aligned() {
        return None;
    }
    let words = lock.cast::<[u64; 4]>();
    // SAFETY: the program passes a pointer to its omp_nest_lock_t, four aligned unsigned long
    // longs (omp.h) that only these functions access, atomically while threads share it.
    unsafe {
        Some(NestLock {
            mutex: AtomicU32::from_ptr(lock.cast::<u32>()),
            depth: AtomicU64::from_ptr(std::ptr::addr_of_mut!((*words)[1])),
            owner: AtomicUsize::from_ptr(std::ptr::addr_of_mut!((*words)[2]).cast::<usize>()),
        })
    }
}

/// A nest lock in a team its rank runs alone (`__cape_team_direct`), taken as libgomp takes
/// it (`NestLock`); None elsewhere.
fn direct_nest_lock<'a>(lock: *mut u64) -> Option<NestLock<'a>> {
    if !threads::atomic_direct() {
        return None;
    }
    nest_lock(lock)
}
