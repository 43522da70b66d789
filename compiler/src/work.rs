//! How many elements the translator's searches looked at, per thread. A test translates
//! programs of n and 4n constructs and checks that the count grows linearly: a guard against
//! per-construct rescans of the whole file coming back, without timing anything.

use std::cell::Cell;

thread_local! {
    static WORK: Cell<u64> = const { Cell::new(0) };
}

/// Records that a search looked at `n` more elements.
pub fn count(n: usize) {
    WORK.with(|w| w.set(w.get().saturating_add(n as u64)));
}

/// The count so far on this thread; starts a new one.
pub fn take() -> u64 {
    WORK.with(|w| w.replace(0))
}
