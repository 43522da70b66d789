//! The mprotect + SIGSEGV tracker.

mod track_shared;

use capert::track::{TrackerKind, PAGE_SIZE};
use track_shared::*;

const KIND: TrackerKind = TrackerKind::Mprotect;

#[test]
fn exact_pages_seed_1() {
    exact_pages_over_many_regions(KIND, 1);
}

#[test]
fn exact_pages_seed_2() {
    exact_pages_over_many_regions(KIND, 2);
}

#[test]
fn elision_seed_1_commit() {
    elision::elision_over_many_regions(KIND, 1, false, true);
}

#[test]
fn elision_seed_2_diff_updates_twins() {
    elision::elision_over_many_regions(KIND, 2, true, true);
}

#[test]
fn injected_pages() {
    elision::injected_pages_protected_again(KIND, 3);
}

#[test]
fn few_injected_pages() {
    elision::few_injected_pages_left_to_the_scan(KIND, 4);
}

#[test]
fn single_predicted_pages() {
    elision::single_predicted_pages_stay_protected(KIND, 5);
}

#[test]
fn scoped() {
    scoped_scans(KIND);
}

#[test]
fn empty() {
    empty_region(KIND);
}

#[test]
fn kernel_writes_outside_regions_work() {
    kernel_write_outside_region(KIND);
}

/// Documented limitation: the kernel cannot write a page that is still read-only, so read(2)
/// into a tracked page not yet written in this region fails with EFAULT and writes nothing.
#[test]
fn kernel_write_inside_region_fails_with_efault() {
    let (n, errno, written, map) = kernel_write_inside_region(KIND);
    assert_eq!((n, errno), (-1, libc::EFAULT));
    assert!(written.is_empty());
    assert_eq!(&map.bytes()[PAGE_SIZE + 10..PAGE_SIZE + 16], b"before");
}

static DATA: PageAligned = PageAligned([7; 4 * PAGE_SIZE]);

#[test]
fn data_section() {
    static_data(KIND, &DATA);
}

#[test]
fn misuse() {
    bad_ranges(KIND);
}

/// Writing every other page of a big range splits it into more mappings than
/// `vm.max_map_count` allows: end_region must say so in one clear line.
#[test]
fn map_count_limit_is_reported() {
    let _serial = serial();
    let limit: usize = std::fs::read_to_string("/proc/sys/vm/max_map_count")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(65530);
    if limit > 200_000 {
        eprintln!("skipped: vm.max_map_count = {limit} is too large to reach cheaply");
        return;
    }
    let mut tracker = new_tracker(KIND);
    let pages = 2 * limit + 64;
    let map = Mapping::new(pages);
    tracker.add_range(map.base, map.len).expect("add_range");
    tracker.begin_region().expect("begin_region");
    for p in (0..pages).step_by(2) {
        map.write(p * PAGE_SIZE, &[1]);
    }
    let mut written = Vec::new();
    let error = tracker
        .end_region(&mut written)
        .expect_err("the mapping limit must be reported");
    eprintln!("{error}");
    assert!(error.0.contains("vm.max_map_count") && error.0.contains("CAPE_TRACKER=uffd"));
    tracker.finish_region();
}

/// A fault outside tracked memory during a region still kills the process with SIGSEGV
/// (chained to the previous handler / default action), in a child process.
#[test]
fn foreign_fault_still_crashes() {
    if std::env::var_os("CAPE_TRACK_CHILD").is_some() {
        let mut tracker = new_tracker(KIND);
        let map = Mapping::new(2);
        tracker.add_range(map.base, map.len).expect("add_range");
        tracker.begin_region().expect("begin_region");
        let readonly = Mapping::new(1);
        capert::sys::mprotect::protect(readonly.base, PAGE_SIZE, false).expect("mprotect");
        readonly.write(0, &[1]); // must die here
        std::process::exit(0);
    }
    let _serial = serial();
    let status = std::process::Command::new(std::env::current_exe().expect("current_exe"))
        .args([
            "--exact",
            "foreign_fault_still_crashes",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("CAPE_TRACK_CHILD", "1")
        .output()
        .expect("spawn child");
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(
        status.status.signal(),
        Some(libc::SIGSEGV),
        "child should die of SIGSEGV: {:?}\n{}",
        status.status,
        String::from_utf8_lossy(&status.stderr)
    );
}

#[test]
fn exact_pages_in_memory_populated_after_add_range() {
    let huge = exact_pages_in_huge_memory(KIND, 3);
    assert_eq!(huge, 0, "the mprotect tracker asks for 4 KiB pages");
}

#[test]
fn private_file_mapping() {
    file_backed_private_mapping(KIND);
}

#[test]
fn invalid_pages_fetched_at_first_access() {
    invalid::fetched_at_first_access(KIND, 7);
}

#[test]
fn invalid_predicted_pages() {
    invalid::predicted_pages_invalidated(KIND);
}

#[test]
fn invalid_pages_fetched_in_batches() {
    invalid::fetched_in_batches(KIND);
}
