//! Write-fault elision (uffd): pages changed two regions ago stay writable and are reported
//! whether written or not. Checked against a model: every changed byte is found, twins equal
//! memory at every region begin, and the prediction follows the write pattern.

use super::*;

/// Page groups of the 64-page mapping and when each is written.
const EVERY: std::ops::Range<usize> = 0..8;
const ALTERNATE: std::ops::Range<usize> = 8..16;
const STOPPED: std::ops::Range<usize> = 16..24;
const RANDOM: std::ops::Range<usize> = 24..32;
/// Written by read(2) in even rounds (uffd only: mprotect refuses kernel writes into pages it
/// protects; with mprotect the kernel writes into a predicted page of `EVERY` instead).
const KERNEL_PAGE: usize = 40;
/// Where other ranks' bytes are injected besides `EVERY`.
const INJECTED: std::ops::Range<usize> = 46..64;
/// The last round that writes `STOPPED`.
const STOP_AFTER: usize = 5;

fn minor_faults() -> i64 {
    // SAFETY: rusage is plain integers: all zero is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage fills the struct we pass; RUSAGE_THREAD counts this thread only.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut usage) };
    assert_eq!(rc, 0);
    usage.ru_minflt
}

/// The data path's diff of `written`: each twin brought up to date through `pair_mut`, the
/// unchanged pages named, then `commit_diffed`.
fn diff_and_commit(tracker: &mut Tracker, written: &[usize]) {
    let mut unchanged = Vec::new();
    for &page in written {
        let (memory, twin) = tracker.pair_mut(page);
        if memory == &twin[..] {
            unchanged.push(page);
        } else {
            twin.copy_from_slice(memory);
        }
    }
    tracker.unchanged(&unchanged);
    tracker.commit_diffed(written);
}

/// Sixteen regions over the page groups above. `diff_updates_twins`: the caller diffs through
/// `pair_mut`, names unchanged pages and calls `commit_diffed` (the data path); otherwise
/// `commit` (callers that do not diff). `keep`: predicted pages may stay writable between
/// regions (uffd; otherwise every written page is protected at every region end).
pub fn elision_over_many_regions(
    kind: TrackerKind,
    seed: u64,
    diff_updates_twins: bool,
    keep: bool,
) {
    let _serial = serial();
    let mut rng = Rng::new(seed);
    let mut tracker = new_tracker(kind);
    if !keep {
        tracker.set_kept_pages_max(0);
    }
    let elision = tracker.write_fault_elision();
    assert!(elision, "elision is on by default");
    let map = Mapping::new(64);
    let mut model = vec![0u8; map.len];
    let all: BTreeSet<usize> = (0..64).collect();
    scribble(&mut rng, &map, &mut model, &all);
    tracker.add_range(map.base, map.len).expect("add_range");
    for round in 0..16 {
        tracker.begin_region().expect("begin_region");
        assert!(
            map.bytes() == &model[..],
            "round {round}: memory differs from the model"
        );
        assert_twins(
            &tracker,
            &map,
            &model,
            &format!("round {round} after begin"),
        );
        let before = model.clone();
        let faults = minor_faults();
        scribble(&mut rng, &map, &mut model, &EVERY.collect());
        let every_faults = minor_faults() - faults;
        if elision && round >= 2 {
            assert_eq!(
                every_faults, 0,
                "round {round}: predicted pages took write faults"
            );
        }
        if round % 2 == 0 {
            scribble(&mut rng, &map, &mut model, &ALTERNATE.collect());
        }
        if round <= STOP_AFTER {
            scribble(&mut rng, &map, &mut model, &STOPPED.collect());
        }
        let count = rng.below(6);
        let random: BTreeSet<usize> = random_pages(&mut rng, RANDOM.len(), count)
            .into_iter()
            .map(|p| p + RANDOM.start)
            .collect();
        scribble(&mut rng, &map, &mut model, &random);
        // A write of the value already there changes nothing.
        let same = RANDOM.start * PAGE_SIZE + rng.below(RANDOM.len() * PAGE_SIZE);
        map.write(same, &[model[same]]);
        let kernel_page = match kind {
            TrackerKind::Uffd if round % 2 == 0 => Some(KERNEL_PAGE),
            TrackerKind::Mprotect if round >= 2 => Some(EVERY.start + rng.below(EVERY.len())),
            _ => None,
        };
        if let Some(page) = kernel_page {
            let payload = random_bytes(&mut rng, 64);
            let fds = pipe_with(&payload);
            let at = page * PAGE_SIZE + rng.below(PAGE_SIZE - 64);
            let (n, errno) = read_into(fds[0], map.base + at, 64);
            close(fds);
            assert_eq!(
                n, 64,
                "round {round}: read(2) into tracked memory: errno {errno}"
            );
            model[at..at + 64].copy_from_slice(&payload);
        }

        let mut written = Vec::new();
        tracker.end_region(&mut written).expect("end_region");
        let reported: BTreeSet<usize> = written
            .iter()
            .map(|&a| (a - map.base) / PAGE_SIZE)
            .collect();
        // Every changed byte is found on a reported page; no other byte differs from its twin.
        for p in 0..64 {
            let range = p * PAGE_SIZE..(p + 1) * PAGE_SIZE;
            if reported.contains(&p) {
                assert!(
                    tracker.twin(map.page(p)) == &before[range.clone()],
                    "round {round}: twin of page {p}"
                );
                assert!(
                    tracker.memory(map.page(p)) == &model[range],
                    "round {round}: memory of page {p}"
                );
            } else {
                assert!(
                    model[range.clone()] == before[range],
                    "round {round}: page {p} changed unreported"
                );
            }
        }
        if elision {
            // predicted exactly in the regions that write them: no extra diff
            for p in ALTERNATE {
                assert_eq!(
                    reported.contains(&p),
                    round % 2 == 0,
                    "round {round}: alternate page {p}"
                );
            }
            for p in STOPPED {
                // predicted for two regions after the last change, then protected again
                let expected = round <= STOP_AFTER + 2;
                assert_eq!(
                    reported.contains(&p),
                    expected,
                    "round {round}: stopped page {p}"
                );
            }
        } else {
            let changed: BTreeSet<usize> = (0..64)
                .filter(|&p| {
                    model[p * PAGE_SIZE..(p + 1) * PAGE_SIZE]
                        != before[p * PAGE_SIZE..(p + 1) * PAGE_SIZE]
                })
                .collect();
            assert!(
                reported.is_superset(&changed) && reported.len() <= changed.len() + 1,
                "round {round}: written pages"
            );
        }

        if diff_updates_twins {
            diff_and_commit(&mut tracker, &written);
        } else {
            tracker.commit(&written);
        }
        assert_twins(
            &tracker,
            &map,
            &model,
            &format!("round {round} after commit"),
        );
        tracker.finish_region();
        // Other ranks' bytes, sometimes into predicted pages; sequential writes between regions.
        // Injected pages are predicted too (kept writable and reported): they go where that
        // cannot reach the groups whose reports are checked above (EVERY is reported anyway,
        // and INJECTED lies further from the others than the gaps the prediction bridges).
        for _ in 0..rng.below(4) {
            let len = 1 + rng.below(PAGE_SIZE);
            let offset = if rng.below(2) == 0 {
                rng.below(EVERY.end * PAGE_SIZE - len)
            } else {
                INJECTED.start * PAGE_SIZE + rng.below(INJECTED.len() * PAGE_SIZE - len)
            };
            let bytes = random_bytes(&mut rng, len);
            tracker.inject(map.base + offset, &bytes);
            model[offset..offset + len].copy_from_slice(&bytes);
        }
        if round % 3 == 0 {
            let p = EVERY.start + rng.below(ALTERNATE.end);
            scribble(&mut rng, &map, &mut model, &[p].into());
        }
    }
}

/// A tracker over `pages` pages filled with random bytes before they were tracked, and the
/// model of their content.
fn filled_and_tracked(
    kind: TrackerKind,
    pages: usize,
    rng: &mut Rng,
) -> (Tracker, Mapping, Vec<u8>) {
    let mut tracker = new_tracker(kind);
    let map = Mapping::new(pages);
    let mut model = vec![0u8; map.len];
    scribble(rng, &map, &mut model, &(0..pages).collect());
    tracker.add_range(map.base, map.len).expect("add_range");
    (tracker, map, model)
}

/// Injected pages: twins follow `inject`; after `protect_injected` (uffd) they are protected
/// again, so a later write faults and is seen by the next begin_region; without the call the
/// scan copies them. `expect_injections` right after a region spares `inject` its write faults.
/// Twins equal memory at every begin in every case.
pub fn injected_pages_protected_again(kind: TrackerKind, seed: u64) {
    let _serial = serial();
    let mut rng = Rng::new(seed);
    let (mut tracker, map, mut model) = filled_and_tracked(kind, 16, &mut rng);
    // pages protected at every region end (none kept writable: see `kept_pages`)
    tracker.set_kept_pages_max(0);
    for round in 0..9 {
        tracker.begin_region().expect("begin_region");
        assert_twins(
            &tracker,
            &map,
            &model,
            &format!("round {round} after begin"),
        );
        let page = rng.below(16);
        scribble(&mut rng, &map, &mut model, &[page].into());
        let mut written = Vec::new();
        tracker.end_region(&mut written).expect("end_region");
        tracker.commit(&written);
        tracker.finish_region();
        // across a page boundary: pages 4 and 5
        let bytes = random_bytes(&mut rng, 300);
        let offset = 5 * PAGE_SIZE - 100;
        let (expect, protect) = match round % 3 {
            0 => (true, true),
            1 => (false, false),
            _ => (false, true),
        };
        let expect = expect || round == 8;
        if round == 8 {
            // too late: something wrote since the region end (here: nothing but the call
            // to protect_injected that ends the window)
            tracker.protect_injected();
        }
        // and page 8: pages 6 and 7 lie in a gap the unprotection bridges
        let far = 8 * PAGE_SIZE + 10;
        let faults = minor_faults();
        if expect {
            let runs = [(map.base + offset, 300), (map.base + far, 20)];
            tracker.expect_injections(runs.into_iter());
        }
        tracker.inject(map.base + offset, &bytes);
        tracker.inject(map.base + far, &bytes[..20]);
        let inject_faults = minor_faults() - faults;
        model[offset..offset + 300].copy_from_slice(&bytes);
        model[far..far + 20].copy_from_slice(&bytes[..20]);
        assert_twins(
            &tracker,
            &map,
            &model,
            &format!("round {round} after inject"),
        );
        if protect {
            tracker.protect_injected();
        }
        let faults = minor_faults();
        let at = 5 * PAGE_SIZE + rng.below(PAGE_SIZE);
        let value = model[at].wrapping_add(1);
        map.write(at, &[value]);
        model[at] = value;
        let write_faults = minor_faults() - faults;
        // a page of the gap: protected again as well
        let faults = minor_faults();
        let gap = 6 * PAGE_SIZE + rng.below(PAGE_SIZE);
        let value = model[gap].wrapping_add(1);
        map.write(gap, &[value]);
        model[gap] = value;
        if kind == TrackerKind::Uffd {
            assert_eq!(
                minor_faults() - faults,
                1,
                "round {round}: write into the gap"
            );
            let expected = if expect && round != 8 { 0 } else { 3 };
            assert_eq!(inject_faults, expected, "round {round}: faults of inject");
            let expected = i64::from(protect);
            assert_eq!(write_faults, expected, "round {round}: write after inject");
        }
    }
}

/// `settle_injected` after a few injected pages leaves them writable (no fault on the next
/// write) and the next begin scan brings their twins up to date; after many it protects them
/// (uffd). Twins equal memory at every begin either way.
pub fn few_injected_pages_left_to_the_scan(kind: TrackerKind, seed: u64) {
    let _serial = serial();
    let mut rng = Rng::new(seed);
    let (mut tracker, map, mut model) = filled_and_tracked(kind, 128, &mut rng);
    // pages protected at every region end (none kept writable: see `kept_pages`)
    tracker.set_kept_pages_max(0);
    for round in 0..6 {
        tracker.begin_region().expect("begin_region");
        assert_twins(
            &tracker,
            &map,
            &model,
            &format!("round {round} after begin"),
        );
        let mut written = Vec::new();
        tracker.end_region(&mut written).expect("end_region");
        tracker.commit(&written);
        tracker.finish_region();
        let pages = if round % 2 == 0 { 2 } else { 100 };
        let runs: Vec<(usize, usize)> = (0..pages)
            .map(|p| (map.base + p * PAGE_SIZE + 8, 16))
            .collect();
        tracker.expect_injections(runs.iter().copied());
        for &(addr, len) in &runs {
            let bytes = random_bytes(&mut rng, len);
            tracker.inject(addr, &bytes);
            let at = addr - map.base;
            model[at..at + len].copy_from_slice(&bytes);
        }
        tracker.settle_injected();
        let faults = minor_faults();
        let at = PAGE_SIZE + rng.below(PAGE_SIZE);
        let value = model[at].wrapping_add(1);
        map.write(at, &[value]);
        model[at] = value;
        if kind == TrackerKind::Uffd {
            let expected = i64::from(pages >= 48);
            assert_eq!(
                minor_faults() - faults,
                expected,
                "round {round}: write after {pages} injected pages"
            );
        }
    }
}

/// uffd: a page written in every region alone stays protected (it faults each time), while a
/// run of two such pages is left writable (no fault once predicted). The two lie further apart
/// than the gaps the elision bridges.
pub fn single_predicted_pages_stay_protected(kind: TrackerKind, seed: u64) {
    let _serial = serial();
    let mut rng = Rng::new(seed);
    let (mut tracker, map, mut model) = filled_and_tracked(kind, 16, &mut rng);
    // pages protected at every region end (none kept writable: see `kept_pages`)
    tracker.set_kept_pages_max(0);
    for round in 0..6 {
        tracker.begin_region().expect("begin_region");
        let faults = minor_faults();
        scribble(&mut rng, &map, &mut model, &[1].into());
        let alone = minor_faults() - faults;
        let faults = minor_faults();
        scribble(&mut rng, &map, &mut model, &[12, 13].into());
        let run = minor_faults() - faults;
        let mut written = Vec::new();
        tracker.end_region(&mut written).expect("end_region");
        tracker.commit(&written);
        tracker.finish_region();
        if kind == TrackerKind::Uffd && round >= 2 {
            assert_eq!(alone, 1, "round {round}: the page alone");
            assert_eq!(run, 0, "round {round}: the run of two");
        }
    }
}

/// uffd: pages written in every region (alone or in a run) and pages the merge injects into
/// after every region stay writable once predicted: no write fault in the region, in `inject`
/// or in sequential code, no protecting ioctl. Their twins are synced at every begin, so a
/// sequential write between regions is in the before-image (twins equal memory at every begin)
/// and every byte the region changed is on a reported page.
pub fn kept_pages(kind: TrackerKind, seed: u64) {
    let _serial = serial();
    let mut rng = Rng::new(seed);
    let (mut tracker, map, mut model) = filled_and_tracked(kind, 16, &mut rng);
    for round in 0..10 {
        tracker.begin_region().expect("begin_region");
        assert_twins(
            &tracker,
            &map,
            &model,
            &format!("round {round} after begin"),
        );
        let before = model.clone();
        let faults = minor_faults();
        scribble(&mut rng, &map, &mut model, &[1, 12, 13].into());
        let region_faults = minor_faults() - faults;
        let mut written = Vec::new();
        tracker.end_region(&mut written).expect("end_region");
        for p in 0..16 {
            let range = p * PAGE_SIZE..(p + 1) * PAGE_SIZE;
            if !written.contains(&map.page(p)) {
                assert!(
                    model[range.clone()] == before[range],
                    "round {round}: page {p} changed unreported"
                );
            }
        }
        diff_and_commit(&mut tracker, &written);
        tracker.finish_region();
        let runs = [(map.page(5) + 8, 100), (map.page(8), 16)];
        tracker.expect_injections(runs.into_iter());
        let faults = minor_faults();
        for &(addr, len) in &runs {
            let bytes = random_bytes(&mut rng, len);
            tracker.inject(addr, &bytes);
            let at = addr - map.base;
            model[at..at + len].copy_from_slice(&bytes);
        }
        let inject_faults = minor_faults() - faults;
        tracker.settle_injected();
        // sequential code writes kept pages and one that is not kept
        let faults = minor_faults();
        scribble(&mut rng, &map, &mut model, &[1, 5].into());
        let sequential_faults = minor_faults() - faults;
        if round % 3 == 0 {
            scribble(&mut rng, &map, &mut model, &[10].into());
        }
        if kind == TrackerKind::Uffd && round >= 3 {
            assert_eq!(region_faults, 0, "round {round}: writes in the region");
            assert_eq!(inject_faults, 0, "round {round}: inject");
            assert_eq!(sequential_faults, 0, "round {round}: sequential writes");
            for p in [1, 5, 8, 12, 13] {
                assert!(
                    written.contains(&map.page(p)),
                    "round {round}: kept page {p} reported"
                );
            }
        }
    }
}

/// uffd: a region whose predicted pages are more than the tracker keeps writable protects them
/// at its end as before (a sequential write after it faults); within the limit they stay
/// writable. A kept page outside a later region's scope is neither scanned nor reported there,
/// and its twin is synced when a region's scope holds it again.
pub fn kept_pages_limit_and_scope(kind: TrackerKind, seed: u64) {
    let _serial = serial();
    let mut rng = Rng::new(seed);
    let (mut tracker, map, mut model) = filled_and_tracked(kind, 32, &mut rng);
    let run: BTreeSet<usize> = (0..6).collect();
    for (limit, expected) in [(4, 1), (8, 0)] {
        tracker.set_kept_pages_max(limit);
        for round in 0..4 {
            tracker.begin_region().expect("begin_region");
            assert_twins(
                &tracker,
                &map,
                &model,
                &format!("limit {limit} round {round}"),
            );
            scribble(&mut rng, &map, &mut model, &run);
            let mut written = Vec::new();
            tracker.end_region(&mut written).expect("end_region");
            tracker.commit(&written);
            tracker.finish_region();
            let faults = minor_faults();
            scribble(&mut rng, &map, &mut model, &[2].into());
            if kind == TrackerKind::Uffd && round >= 2 {
                assert_eq!(
                    minor_faults() - faults,
                    expected,
                    "limit {limit} round {round}: sequential write after the region"
                );
            }
        }
    }
    // pages 0..6 are kept now; a region scoped elsewhere
    tracker.set_scope(Some(&[(map.page(16), map.page(24))]));
    tracker.begin_region().expect("begin_region");
    scribble(&mut rng, &map, &mut model, &[20].into());
    let mut written = Vec::new();
    tracker.end_region(&mut written).expect("end_region");
    assert!(written.contains(&map.page(20)), "{written:x?}");
    if kind == TrackerKind::Uffd {
        assert!(written.iter().all(|&p| p >= map.page(16)), "{written:x?}");
    }
    tracker.commit(&written);
    tracker.finish_region();
    scribble(&mut rng, &map, &mut model, &[3].into());
    tracker.set_scope(Some(&[(map.page(0), map.page(8))]));
    tracker.begin_region().expect("begin_region");
    assert_twins(&tracker, &map, &model, "scope back on the kept pages");
    let before = model.clone();
    scribble(&mut rng, &map, &mut model, &[4].into());
    let mut written = Vec::new();
    tracker.end_region(&mut written).expect("end_region");
    assert!(written.contains(&map.page(4)), "{written:x?}");
    assert_eq!(
        tracker.twin(map.page(3)),
        &before[3 * PAGE_SIZE..4 * PAGE_SIZE]
    );
    tracker.commit(&written);
    tracker.finish_region();
    tracker.set_scope(None);
}
