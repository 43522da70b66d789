//! The userfaultfd WP_ASYNC + PAGEMAP_SCAN tracker.

mod track_shared;

use capert::track::{Tracker, TrackerKind, PAGE_SIZE};
use track_shared::*;

const KIND: TrackerKind = TrackerKind::Uffd;

#[test]
fn uffd_is_the_default_on_this_kernel() {
    let _serial = serial();
    let (tracker, why) = Tracker::new(None).expect("tracker");
    eprintln!("{why}");
    assert_eq!(tracker.kind(), KIND, "{why}");
}

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
fn elision_seed_3_none_kept() {
    elision::elision_over_many_regions(KIND, 3, true, false);
}

#[test]
fn kept_pages() {
    elision::kept_pages(KIND, 6);
}

#[test]
fn kept_pages_limit_and_scope() {
    elision::kept_pages_limit_and_scope(KIND, 7);
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

#[test]
fn kernel_write_inside_region_is_reported() {
    let (n, errno, written, map) = kernel_write_inside_region(KIND);
    assert_eq!(n, 15, "read(2) into a tracked page failed: errno {errno}");
    assert_eq!(written, vec![map.page(1)]);
    assert_eq!(
        &map.bytes()[PAGE_SIZE + 10..PAGE_SIZE + 25],
        b"from the kernel"
    );
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

#[test]
fn exact_pages_in_transparent_huge_pages() {
    let huge = exact_pages_in_huge_memory(KIND, 3);
    let thp =
        std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled").unwrap_or_default();
    eprintln!("huge pages used: {huge} bytes (THP: {})", thp.trim());
    if !thp.contains("[never]") {
        assert!(huge > 0, "the test did not exercise transparent huge pages");
    }
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

#[test]
fn invalid_pages_dropped() {
    invalid::dropped_pages_keep_the_mapping_whole(KIND);
}

/// The twins' zero marks: a page found equal to a twin of zeros is told unchanged from memory
/// alone afterwards, and no longer once memory or the twin holds anything else (a commit or an
/// injection writes the twin: its mark must go).
#[test]
fn zero_twins_tell_unchanged_pages() {
    let _serial = serial();
    let mut tracker = new_tracker(KIND);
    let map = Mapping::new(4);
    map.write(0, &[0; 4 * PAGE_SIZE]);
    tracker.add_range(map.base, map.len).expect("add_range");
    let page = map.page(1);
    let region = |tracker: &mut capert::track::Tracker, byte: u8| {
        tracker.begin_region().expect("begin_region");
        map.write(PAGE_SIZE + 7, &[byte]);
        let mut written = Vec::new();
        tracker.end_region(&mut written).expect("end_region");
        assert!(written.contains(&page), "page 1 written, got {written:x?}");
        written
    };
    // zeros over zeros: the diff's compare finds them equal (twin == memory already)
    let written = region(&mut tracker, 0);
    assert!(
        !tracker.unchanged_zero(page),
        "no mark before a compare found the page equal"
    );
    tracker.note_unchanged(page);
    tracker.commit_diffed(&written);
    tracker.finish_region();
    let written = region(&mut tracker, 0);
    assert!(tracker.unchanged_zero(page), "marked: zeros over zeros");
    tracker.commit_diffed(&written);
    tracker.finish_region();
    let written = region(&mut tracker, 5);
    assert!(!tracker.unchanged_zero(page), "memory changed");
    tracker.commit(&written);
    tracker.finish_region();
    assert_eq!(tracker.twin(page)[7], 5);
    // the twin holds 5: a compare that found memory equal does not mark it
    tracker.note_unchanged(page);
    tracker.inject(page + 7, &[0]);
    let written = region(&mut tracker, 0);
    assert!(
        !tracker.unchanged_zero(page),
        "twin of 5 then injected: no mark"
    );
    tracker.note_unchanged(page);
    tracker.commit_diffed(&written);
    tracker.finish_region();
    tracker.inject(page + 7, &[9]);
    let written = region(&mut tracker, 0);
    assert!(
        !tracker.unchanged_zero(page),
        "an injection wrote the twin: the mark is gone"
    );
    assert_eq!(tracker.twin(page)[7], 9);
    tracker.commit(&written);
    tracker.finish_region();
}
