//! CAPE's formats, pure and without `unsafe`: change sets (merge messages), TICKPT (the incremental checkpoint of a region,
//! on disk and on the wire), the checkpoint log `cape.log` and the MAC key that seals it.
//! capert writes and reads them; caperun reads the log header.

#![forbid(unsafe_code)]

pub mod changeset;
pub mod log;
pub mod log_compact;
pub mod log_key;
pub mod tickpt;
