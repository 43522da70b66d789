//! Invalid pages of the demand-driven merge: fetched at their first access (read or write,
//! inside or outside a region) from a source the test controls, installed into memory and
//! twin, then tracked like any other page. The oracle is the test's own model.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, Once};

use capert::sys::invalid;
use capert::track::{Tracker, TrackerKind, PAGE_SIZE};

use super::{new_tracker, serial, Mapping, Rng};

/// What the other ranks hold: the newest bytes of each page, by address.
static HOMES: Mutex<Option<HashMap<usize, Vec<u8>>>> = Mutex::new(None);
static SERVER: Once = Once::new();
/// Calls of the source, and the most pages one call asked for.
static CALLS: AtomicUsize = AtomicUsize::new(0);
static LARGEST: AtomicUsize = AtomicUsize::new(0);

fn set_home(page: usize, bytes: Vec<u8>) {
    let mut homes = HOMES.lock().unwrap();
    homes.get_or_insert_with(HashMap::new).insert(page, bytes);
}

fn serve(tracker: &mut Tracker) {
    // one fetch thread per process, which outlives the tests' trackers
    SERVER.call_once(|| {
        tracker
            .serve_invalid_pages(Box::new(|pages: &[usize], out: &mut [u8]| {
                CALLS.fetch_add(1, Ordering::Relaxed);
                LARGEST.fetch_max(pages.len(), Ordering::Relaxed);
                let homes = HOMES.lock().map_err(|_| "poisoned".to_string())?;
                for (&page, out) in pages.iter().zip(out.chunks_exact_mut(PAGE_SIZE)) {
                    let bytes = homes
                        .as_ref()
                        .and_then(|h| h.get(&page))
                        .ok_or_else(|| format!("no home for {page:#x}"))?;
                    out.copy_from_slice(bytes);
                }
                Ok(())
            }))
            .expect("fetch thread");
    });
    let missing = tracker.enable_missing_faults().expect("missing faults");
    assert_eq!(
        missing,
        tracker.kind() == TrackerKind::Uffd,
        "missing faults"
    );
}

fn faults() -> u64 {
    invalid::counters().0
}

fn page_bytes(map: &Mapping, index: usize) -> Vec<u8> {
    map.bytes()[index * PAGE_SIZE..(index + 1) * PAGE_SIZE].to_vec()
}

/// Page `i` of the mapping holds `i + 1` locally, `0x80 | i` plus a random tail at its home.
pub fn fetched_at_first_access(kind: TrackerKind, seed: u64) {
    let _serial = serial();
    let mut rng = Rng::new(seed);
    let mut tracker = new_tracker(kind);
    serve(&mut tracker);
    let pages = 16;
    let map = Mapping::new(pages);
    for i in 0..pages {
        map.write(i * PAGE_SIZE, &vec![i as u8 + 1; PAGE_SIZE]);
    }
    tracker.add_range(map.base, map.len).expect("add_range");
    let mut remote = HashMap::new();
    for i in 3..9 {
        let mut bytes = vec![0x80 | i as u8; PAGE_SIZE];
        for b in bytes.iter_mut().skip(100).take(50) {
            *b = rng.next() as u8;
        }
        set_home(map.page(i), bytes.clone());
        remote.insert(i, bytes);
    }
    tracker
        .invalidate(map.page(3), 6 * PAGE_SIZE)
        .expect("invalidate");
    assert_eq!(tracker.invalid_pages(), 6);
    assert!(tracker.is_invalid(map.page(3)) && tracker.is_invalid(map.page(8)));
    assert!(!tracker.is_invalid(map.page(2)) && !tracker.is_invalid(map.page(9)));
    // the runtime's reads and injections fetch an invalid page first
    let before = faults();
    assert_eq!(tracker.memory(map.page(7)), remote[&7].as_slice());
    tracker.inject(map.page(8) + 5, b"merged");
    let mut expected = remote[&8].clone();
    expected[5..11].copy_from_slice(b"merged");
    assert_eq!(page_bytes(&map, 8), expected);
    assert_eq!(tracker.twin(map.page(8)), expected.as_slice());
    assert_eq!(faults(), before + 2);

    // outside a region: a read fetches the page, and only that page
    let before = faults();
    assert_eq!(map.read_byte(4 * PAGE_SIZE + 120), remote[&4][120]);
    assert_eq!(faults(), before + 1);
    assert_eq!(page_bytes(&map, 4), remote[&4]);
    assert_eq!(tracker.twin(map.page(4)), remote[&4].as_slice());
    assert_eq!(tracker.invalid_pages(), 3);
    // a valid neighbour is untouched
    assert_eq!(map.read_byte(2 * PAGE_SIZE), 3);

    // inside a region: a read of page 5, a write into page 6 (fetched first), page 3 untouched
    tracker.begin_region().expect("begin_region");
    assert_eq!(map.read_byte(5 * PAGE_SIZE + 130), remote[&5][130]);
    map.write(6 * PAGE_SIZE + 7, b"written");
    let mut written = Vec::new();
    tracker.end_region(&mut written).expect("end_region");
    assert_eq!(
        written,
        vec![map.page(6)],
        "only the page written in the region"
    );
    assert_eq!(
        tracker.twin(map.page(6)),
        remote[&6].as_slice(),
        "before-image = fetched"
    );
    let mut expected = remote[&6].clone();
    expected[7..14].copy_from_slice(b"written");
    assert_eq!(tracker.memory(map.page(6)), expected.as_slice());
    assert_eq!(page_bytes(&map, 5), remote[&5]);
    tracker.commit(&written);
    tracker.finish_region();
    assert_eq!(faults(), before + 3);

    // pages never touched stay invalid through begin/end/finish (which reprotect ranges)
    assert!(tracker.is_invalid(map.page(3)));
    assert_eq!(map.read_byte(3 * PAGE_SIZE + 110), remote[&3][110]);
    assert_eq!(page_bytes(&map, 3), remote[&3]);

    // an installed page is tracked as usual afterwards: a write in the next region is seen,
    // a page only read is not reported
    tracker.begin_region().expect("begin_region");
    map.write(4 * PAGE_SIZE + 1, b"x");
    assert_eq!(map.read_byte(5 * PAGE_SIZE), remote[&5][0]);
    let mut written = Vec::new();
    tracker.end_region(&mut written).expect("end_region");
    // besides page 4, pages kept writable are reported (uffd: page 8, injected into
    // earlier), unchanged; the page only read is not
    assert!(written.contains(&map.page(4)), "{written:x?}");
    assert!(!written.contains(&map.page(5)), "{written:x?}");
    for &page in written.iter().filter(|&&p| p != map.page(4)) {
        assert_eq!(tracker.twin(page), tracker.memory(page), "{page:x}");
    }
    assert_eq!(tracker.twin(map.page(4)), remote[&4].as_slice());
    tracker.commit(&written);
    tracker.finish_region();
    assert_eq!(tracker.invalid_pages(), 0);
    drop(tracker);
}

/// A page written in every region (left writable by write-fault elision, reported written
/// whatever happens) that another rank then changes: invalidated, it is neither reported
/// nor read by the tracker until the program touches it.
pub fn predicted_pages_invalidated(kind: TrackerKind) {
    let _serial = serial();
    let mut tracker = new_tracker(kind);
    serve(&mut tracker);
    let pages = 8;
    let map = Mapping::new(pages);
    map.write(0, &vec![1; map.len]);
    tracker.add_range(map.base, map.len).expect("add_range");
    for round in 0..4u8 {
        tracker.begin_region().expect("begin_region");
        map.write(2 * PAGE_SIZE, &vec![round; 3 * PAGE_SIZE]);
        let mut written = Vec::new();
        tracker.end_region(&mut written).expect("end_region");
        assert!(written.contains(&map.page(3)), "round {round}");
        tracker.commit(&written);
        tracker.finish_region();
    }
    let home = vec![0xee; PAGE_SIZE];
    set_home(map.page(3), home.clone());
    tracker
        .invalidate(map.page(3), PAGE_SIZE)
        .expect("invalidate");
    let before = faults();
    tracker.begin_region().expect("begin_region");
    map.write(2 * PAGE_SIZE, &[9]);
    let mut written = Vec::new();
    tracker.end_region(&mut written).expect("end_region");
    assert!(
        !written.contains(&map.page(3)),
        "an invalid page is never reported"
    );
    tracker.commit(&written);
    tracker.finish_region();
    assert_eq!(faults(), before, "the tracker itself must not fault");
    assert!(tracker.is_invalid(map.page(3)));
    assert_eq!(page_bytes(&map, 3), home);
    assert_eq!(faults(), before + 1);
    drop(tracker);
}

/// The mappings of `/proc/self/maps` that overlap `map`.
fn mappings_over(map: &Mapping) -> usize {
    let maps = std::fs::read_to_string("/proc/self/maps").unwrap();
    maps.lines()
        .filter(|l| {
            let range = l.split(' ').next().unwrap_or("");
            let (lo, hi) = range.split_once('-').unwrap_or(("0", "0"));
            let at = |h: &str| usize::from_str_radix(h, 16).unwrap_or(0);
            at(lo) < map.base + map.len && at(hi) > map.base
        })
        .count()
}

/// uffd: invalid pages are dropped, not `PROT_NONE`: every other page invalidated leaves the
/// mapping whole, fetched pages are tracked as usual, and the kernel reads valid pages that
/// were never touched (the holes are filled when missing faults are turned on).
pub fn dropped_pages_keep_the_mapping_whole(kind: TrackerKind) {
    let _serial = serial();
    let mut tracker = new_tracker(kind);
    serve(&mut tracker);
    let pages = 64;
    let map = Mapping::new(pages);
    // the last 8 pages stay untouched holes
    for i in 0..pages - 8 {
        map.write(i * PAGE_SIZE, &vec![i as u8; PAGE_SIZE]);
    }
    tracker.add_range(map.base, map.len).expect("add_range");
    let mut remote = HashMap::new();
    for i in (0..pages - 8).step_by(2) {
        let bytes = vec![0x80 | i as u8; PAGE_SIZE];
        set_home(map.page(i), bytes.clone());
        remote.insert(i, bytes);
        tracker
            .invalidate(map.page(i), PAGE_SIZE)
            .expect("invalidate");
    }
    assert_eq!(tracker.invalid_pages(), 28);
    assert_eq!(mappings_over(&map), 1, "invalidation split the mapping");
    // the kernel reads a never-touched page (zeros) and a valid page without faulting
    let mut fds = [0; 2];
    // SAFETY: a pipe of this test, closed below.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    for page in [pages - 1, 3] {
        // SAFETY: one page of our live mapping into our pipe.
        let n = unsafe { libc::write(fds[1], map.page(page) as *const libc::c_void, 16) };
        assert_eq!(n, 16, "the kernel could not read page {page}");
        let mut back = [0xffu8; 16];
        // SAFETY: reads back into a local buffer.
        unsafe { libc::read(fds[0], back.as_mut_ptr() as *mut libc::c_void, 16) };
        let expected = if page == 3 { 3 } else { 0 };
        assert_eq!(back, [expected; 16]);
    }
    // SAFETY: our pipe's descriptors.
    unsafe { libc::close(fds[0]) };
    // SAFETY: as above.
    unsafe { libc::close(fds[1]) };
    // a region reads one fetched page and writes another: only the written one is reported
    tracker.begin_region().expect("begin_region");
    assert_eq!(map.read_byte(10 * PAGE_SIZE + 5), 0x80 | 10);
    map.write(20 * PAGE_SIZE + 9, b"w");
    let mut written = Vec::new();
    tracker.end_region(&mut written).expect("end_region");
    assert_eq!(written, vec![map.page(20)]);
    assert_eq!(tracker.twin(map.page(20)), remote[&20].as_slice());
    tracker.commit(&written);
    tracker.finish_region();
    for (&i, bytes) in &remote {
        let mut expected = bytes.clone();
        if i == 20 {
            expected[9] = b'w';
        }
        assert_eq!(page_bytes(&map, i), expected, "page {i}");
    }
    assert_eq!(tracker.invalid_pages(), 0);
    assert_eq!(mappings_over(&map), 1, "installing split the mapping");
    drop(tracker);
}

/// The runtime fetches many invalid pages at once (`Tracker::fetch_invalid`, before the
/// merge injects into them): one source call per `invalid::BATCH` invalid pages, valid,
/// untracked and repeated pages skipped, each installed into memory and twin, no fault.
pub fn fetched_in_batches(kind: TrackerKind) {
    let _serial = serial();
    let mut tracker = new_tracker(kind);
    serve(&mut tracker);
    let pages = 2 * invalid::BATCH + 100;
    let map = Mapping::new(pages);
    for i in 0..pages {
        map.write(i * PAGE_SIZE, &vec![i as u8; PAGE_SIZE]);
    }
    // the last page is not tracked
    tracker
        .add_range(map.base, map.len - PAGE_SIZE)
        .expect("add_range");
    let mut remote = HashMap::new();
    // every page but each seventh one is invalid
    for i in (0..pages - 1).filter(|i| i % 7 != 3) {
        let bytes = vec![(0x80 | i) as u8 ^ 0x55; PAGE_SIZE];
        set_home(map.page(i), bytes.clone());
        remote.insert(i, bytes);
        tracker
            .invalidate(map.page(i), PAGE_SIZE)
            .expect("invalidate");
    }
    let invalid_now = remote.len();
    assert_eq!(tracker.invalid_pages(), invalid_now);
    let (calls, before) = (CALLS.load(Ordering::Relaxed), faults());
    LARGEST.store(0, Ordering::Relaxed);
    // every page, some twice and at an offset inside the page, and the untracked one
    let asked = (0..pages)
        .flat_map(|i| [map.page(i) + 5, map.page(i) + 99])
        .chain([map.page(4) + 1]);
    assert_eq!(tracker.fetch_invalid(asked), invalid_now);
    assert_eq!(
        CALLS.load(Ordering::Relaxed) - calls,
        invalid_now.div_ceil(invalid::BATCH),
        "one source call per batch of pages"
    );
    assert_eq!(LARGEST.load(Ordering::Relaxed), invalid::BATCH);
    assert_eq!(faults(), before + invalid_now as u64);
    assert_eq!(tracker.invalid_pages(), 0);
    for i in 0..pages {
        let expected = remote.get(&i).cloned().unwrap_or(vec![i as u8; PAGE_SIZE]);
        assert_eq!(page_bytes(&map, i), expected, "page {i}");
        if i + 1 < pages {
            assert_eq!(tracker.twin(map.page(i)), expected.as_slice(), "twin {i}");
        }
    }
    // nothing invalid: no call at all
    let calls = CALLS.load(Ordering::Relaxed);
    assert_eq!(tracker.fetch_invalid((0..pages).map(|i| map.page(i))), 0);
    assert_eq!(CALLS.load(Ordering::Relaxed), calls);
    // installed pages are tracked as usual: a write in a region is reported, with the
    // fetched bytes as its before-image
    tracker.begin_region().expect("begin_region");
    map.write(9 * PAGE_SIZE + 3, b"w");
    let mut written = Vec::new();
    tracker.end_region(&mut written).expect("end_region");
    assert_eq!(written, vec![map.page(9)]);
    assert_eq!(tracker.twin(map.page(9)), remote[&9].as_slice());
    tracker.commit(&written);
    tracker.finish_region();

    // an I/O buffer (`validate_range`): its invalid pages in one call
    for i in 20..40 {
        tracker
            .invalidate(map.page(i), PAGE_SIZE)
            .expect("invalidate");
        set_home(map.page(i), vec![i as u8 ^ 0xaa; PAGE_SIZE]);
    }
    let calls = CALLS.load(Ordering::Relaxed);
    invalid::validate_range(map.page(18) + 100, 30 * PAGE_SIZE);
    assert_eq!(CALLS.load(Ordering::Relaxed), calls + 1);
    assert_eq!(tracker.invalid_pages(), 0);
    assert_eq!(page_bytes(&map, 33), vec![33 ^ 0xaa; PAGE_SIZE]);
    drop(tracker);
}
