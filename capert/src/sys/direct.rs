//! Runtime data that translated code reads without a call: the flag of a team its rank runs
//! alone, before each `atomic` update and general `critical` section (templates/prelude.c).

use std::sync::atomic::AtomicI32;

/// 1 while a team of several threads that this rank runs alone is running (the world is one
/// rank: nothing is merged); set by the rank's thread 0 around the pool's job
/// (`region/threads.rs`). Translated code reads it as `__cape_team_direct` before each
/// `atomic` update and general `critical` section, so that their fast paths, made in the
/// translated code as libgomp makes them, cost a load, not a call.
// SAFETY: the only symbol of this name in the program (the translated code declares it
// `extern int`, which an `AtomicI32` is laid out as, and reads it with atomic loads).
#[export_name = "__cape_team_direct"]
pub static TEAM_DIRECT: AtomicI32 = AtomicI32::new(0);
