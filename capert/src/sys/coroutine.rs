//! User-level threads on the calling OS thread (`ucontext`): the team of a region whose
//! threads wait for each other through shared flags (region/cooperative.rs). Each thread has
//! its own stack and gives the processor back only when it yields, so the team runs one
//! thread at a time, in an order the caller's scheduler decides.

use std::cell::Cell;
use std::ffi::c_void;

/// Stack of each user-level thread (reserved, not committed: `MAP_NORESERVE`).
const STACK_BYTES: usize = 16 << 20;
const GUARD_BYTES: usize = 64 << 10;

struct Team {
    scheduler: libc::ucontext_t,
    threads: Vec<libc::ucontext_t>,
    done: Vec<bool>,
    current: usize,
    /// `&dyn Fn(usize)`: the body every thread runs with its number (`Fn`: the threads are
    /// all inside it at once)
    body: *mut c_void,
}

thread_local! {
    static TEAM: Cell<*mut Team> = const { Cell::new(std::ptr::null_mut()) };
}

/// Runs `n` user-level threads, thread k calling `body(k)`, until all have returned; each
/// time the scheduler gets the processor back (at the start, a yield, a thread's return),
/// `next(done)` names the thread to resume next (None: stop; only valid when all are done).
pub fn run_team(
    n: usize,
    body: &dyn Fn(usize),
    next: &mut dyn FnMut(&[bool]) -> Option<usize>,
) -> Result<(), String> {
    if !TEAM.with(Cell::get).is_null() {
        return Err("internal error: a team of user-level threads inside another".into());
    }
    let slot = STACK_BYTES + GUARD_BYTES;
    let total = slot * n;
    // SAFETY: a fresh private anonymous mapping, unmapped below before returning.
    let stacks = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            total,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | libc::MAP_STACK,
            -1,
            0,
        )
    };
    if stacks == libc::MAP_FAILED {
        return Err(format!(
            "cannot map the stacks of the team's threads: {}",
            std::io::Error::last_os_error()
        ));
    }
    let mut team = Box::new(Team {
        // SAFETY: ucontext_t is plain data; getcontext below fills what is used.
        scheduler: unsafe { std::mem::zeroed() },
        threads: Vec::with_capacity(n),
        done: vec![false; n],
        current: 0,
        body: std::ptr::addr_of!(body).cast_mut().cast::<c_void>(),
    });
    for k in 0..n {
        let base = stacks as usize + k * slot;
        // SAFETY: the guard pages lie inside our mapping; ucontext_t is plain data, filled by
        // getcontext, then given the thread's stack and the scheduler as its successor.
        unsafe {
            libc::mprotect(base as *mut c_void, GUARD_BYTES, libc::PROT_NONE);
            let mut ctx: libc::ucontext_t = std::mem::zeroed();
            if libc::getcontext(&mut ctx) != 0 {
                libc::munmap(stacks, total);
                return Err("getcontext failed".into());
            }
            ctx.uc_stack.ss_sp = (base + GUARD_BYTES) as *mut c_void;
            ctx.uc_stack.ss_size = STACK_BYTES;
            ctx.uc_link = &mut team.scheduler;
            team.threads.push(ctx);
        }
    }
    for ctx in team.threads.iter_mut() {
        // SAFETY: each context has its own stack; `trampoline` takes no arguments.
        unsafe { libc::makecontext(ctx, trampoline, 0) };
    }
    let team_ptr: *mut Team = &mut *team;
    TEAM.with(|t| t.set(team_ptr));
    let mut result = Ok(());
    loop {
        // SAFETY: only this function and the threads it runs touch the team, one at a time.
        let done = unsafe { (*team_ptr).done.clone() };
        let Some(k) = next(&done) else { break };
        if k >= n || done[k] {
            result = Err("internal error: the scheduler resumed a finished thread".into());
            break;
        }
        // SAFETY: the team outlives the switch; thread k runs until it yields or returns, and
        // both lead back here through `scheduler` (yield_now, uc_link).
        unsafe {
            (*team_ptr).current = k;
            let thread: *mut libc::ucontext_t = &mut (&mut (*team_ptr).threads)[k];
            libc::swapcontext(&mut (*team_ptr).scheduler, thread);
        }
    }
    TEAM.with(|t| t.set(std::ptr::null_mut()));
    // SAFETY: every thread has returned (or the job stops): nothing runs on these stacks.
    unsafe { libc::munmap(stacks, total) };
    result
}

extern "C" fn trampoline() {
    let team = TEAM.with(Cell::get);
    // SAFETY: set by run_team before any thread runs; `body` points to its `&dyn Fn`, alive
    // for the whole team.
    let (body, k) = unsafe { (*(*team).body.cast::<&dyn Fn(usize)>(), (*team).current) };
    if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| body(k))).is_err() {
        super::mpi::abort_job(70);
    }
    // SAFETY: as above; returning switches to `uc_link`, the scheduler.
    unsafe { (&mut (*team).done)[k] = true };
}

/// Inside a thread of [`run_team`]: back to the scheduler, which resumes this thread later.
/// False (and nothing happens) outside a team.
pub fn yield_now() -> bool {
    let team = TEAM.with(Cell::get);
    if team.is_null() {
        return false;
    }
    // SAFETY: the team is alive while its threads run; the current thread's context is saved
    // and the scheduler's restored, which resumes it at its own swapcontext.
    unsafe {
        let k = (*team).current;
        let thread: *mut libc::ucontext_t = &mut (&mut (*team).threads)[k];
        libc::swapcontext(thread, &(*team).scheduler);
    }
    true
}

/// CPU time the calling thread has used: the clock of a team's spins, which a loaded machine
/// (the process preempted) does not advance.
pub fn thread_cpu_time() -> std::time::Duration {
    // SAFETY: clock_gettime writes one timespec into our local.
    let ts = unsafe {
        let mut ts: libc::timespec = std::mem::zeroed();
        libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts);
        ts
    };
    std::time::Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_take_turns_at_each_yield_and_the_stacks_are_their_own() {
        let log = std::cell::RefCell::new(Vec::new());
        let mut last = 2;
        run_team(
            3,
            &|k| {
                let mut private = [k as u32; 64];
                for step in 0..3 {
                    log.borrow_mut().push((k, step + private[63] * 10));
                    assert!(yield_now());
                }
                private[0] += 1;
                assert_eq!(private[0], k as u32 + 1);
            },
            &mut |done| {
                let n = done.len();
                let k = (1..=n).map(|i| (last + i) % n).find(|&k| !done[k])?;
                last = k;
                Some(k)
            },
        )
        .unwrap();
        let expected: Vec<(usize, u32)> = (0..3)
            .flat_map(|step| (0..3).map(move |k| (k, step + k as u32 * 10)))
            .collect();
        assert_eq!(log.into_inner(), expected);
        assert!(!yield_now());
    }
}
