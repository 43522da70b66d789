//! The checkpoint API of `capert.h` (`cape_checkpoint_*`).

use super::guard;
use crate::region::{self, with_state};
use std::ffi::{c_int, c_longlong};

/// Checkpoint now. Outside a parallel region: every completed region is made durable in the
/// log before it returns 0. Inside a region, or in snapshot mode (`CAPE_CHECKPOINT_EVERY` a
/// time, the default): requests it at the next region end and returns 1.
/// Returns -1 when checkpointing is off (neither `CAPE_CHECKPOINT` nor `CAPE_RESTART` set).
/// SIGUSR1 does the same at the next region end.
#[no_mangle]
pub extern "C" fn cape_checkpoint_now() -> c_int {
    guard(|| with_state(region::replay::checkpoint_now))
}

/// The number of parallel regions durable in the checkpoint log (-1 when checkpointing is
/// off). Outside regions every rank gets rank 0's value.
#[no_mangle]
pub extern "C" fn cape_checkpoint_regions() -> c_longlong {
    guard(|| with_state(|s| region::replay::checkpoint_regions(s)))
}
