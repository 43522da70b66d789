//! The runtime's whole state in one place. Each exported call borrows it once
//! ([`with_state`]) and passes `&mut State` down; nothing below reaches for a global.
//!
//! It lives in a thread-local of the thread that runs the user program (every exported call
//! comes from there; the fault-tolerance output thread never touches it), so no `Send` claim
//! is needed. `ManuallyDrop`: no thread-local destructor, so that the exit hook (run by
//! `exit()` after glibc has run the thread's destructors) still finds the state.

use super::replay::LoggedSerial;
use super::team::Team;
use super::threadprivate::Threadprivates;
use crate::runtime::Runtime;
use std::cell::RefCell;
use std::mem::ManuallyDrop;

pub struct State {
    /// None before start-up (C constructors registering threadprivate variables run then)
    /// and in unit tests.
    pub rt: Option<Runtime>,
    pub team: Team,
    pub threadprivates: Threadprivates,
    /// A logged region with a team of one in progress.
    pub(super) logged_serial: Option<LoggedSerial>,
}

impl State {
    pub const fn new() -> State {
        State {
            rt: None,
            team: Team::new(),
            threadprivates: Threadprivates::new(),
            logged_serial: None,
        }
    }

    /// (world rank, world size); (0, 1) without a runtime.
    pub fn rank_size(&self) -> (usize, usize) {
        self.rt.as_ref().map_or((0, 1), |rt| (rt.rank, rt.size))
    }
}

impl Default for State {
    fn default() -> State {
        State::new()
    }
}

thread_local! {
    static STATE: ManuallyDrop<RefCell<State>> =
        const { ManuallyDrop::new(RefCell::new(State::new())) };
}

/// Runs `f` on the state. A call back into the runtime while the state is borrowed (user code
/// such as a reduction combiner calling an OpenMP function) is a clear error, not a deadlock.
pub fn with_state<R>(f: impl FnOnce(&mut State) -> R) -> R {
    STATE.with(|cell| match cell.try_borrow_mut() {
        Ok(mut state) => f(&mut state),
        Err(_) => crate::runtime::fatal(
            "the program called into the OpenMP runtime from code the runtime was running \
             (a reduction combiner or an atomic update), which is not supported",
        ),
    })
}

/// Like [`with_state`], but None instead of an error when the state is borrowed (the exit
/// hook, reached through `exit()` from inside the runtime).
pub fn try_with_state<R>(f: impl FnOnce(&mut State) -> R) -> Option<R> {
    STATE.with(|cell| cell.try_borrow_mut().ok().map(|mut state| f(&mut state)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A call back into the runtime while the state is borrowed is seen, not a deadlock.
    #[test]
    fn nested_borrow_is_detected() {
        with_state(|outer| {
            outer.team.omp_set_num_threads(3);
            assert!(try_with_state(|_| ()).is_none());
        });
        assert_eq!(try_with_state(|s| s.team.num_threads), Some(Some(3)));
    }
}
