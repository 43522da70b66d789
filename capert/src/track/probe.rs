//! What the tracker learns from the kernel at start-up: whether userfaultfd write protection
//! and `PAGEMAP_SCAN` work, and which parts of a range are mapped from files.

use super::{Backend, PAGE_SIZE};
use crate::sys::mprotect::TwinMapping;
use crate::sys::uffd::{PagemapScan, Uffd};

/// The parts of [start, end) mapped from a file (non-zero inode in `/proc/self/maps`). When the
/// maps cannot be read, the whole range counts as file-backed: slower, never wrong.
pub(super) fn file_backed_parts(start: usize, end: usize) -> Vec<(usize, usize)> {
    let Ok(maps) = std::fs::read_to_string("/proc/self/maps") else {
        return vec![(start, end)];
    };
    let mut parts = Vec::new();
    for line in maps.lines() {
        let mut fields = line.split_whitespace();
        let (Some(range), Some(inode)) = (fields.next(), fields.nth(3)) else {
            continue;
        };
        let Some((from, to)) = range.split_once('-') else {
            continue;
        };
        let (Ok(from), Ok(to)) = (
            usize::from_str_radix(from, 16),
            usize::from_str_radix(to, 16),
        ) else {
            continue;
        };
        if inode != "0" && from < end && to > start {
            parts.push((from.max(start), to.min(end)));
        }
    }
    parts
}

/// Opens a userfaultfd with WP_ASYNC and checks PAGEMAP_SCAN on a scratch page.
pub(super) fn probe_uffd() -> Result<(Backend, &'static str), String> {
    let uffd = Uffd::open()?;
    let mut scan =
        PagemapScan::open().map_err(|e| format!("cannot open `/proc/self/pagemap`: {e}"))?;
    let scratch =
        TwinMapping::new(PAGE_SIZE).map_err(|e| format!("cannot map a probe page: {e}"))?;
    let start = scratch.base();
    let probe = uffd
        .register_wp(start, PAGE_SIZE)
        .map_err(|e| format!("userfaultfd write-protect registration failed: {e}"))
        .and_then(|()| {
            scan.written(start, start + PAGE_SIZE, true, |_, _| {})
                .map_err(|e| format!("kernel lacks `PAGEMAP_SCAN` (Linux >= 6.7): {e}"))
        });
    let _ = uffd.unregister(start, PAGE_SIZE);
    probe?;
    let how = uffd.how;
    Ok((Backend::Uffd { uffd, scan }, how))
}
