//! Checks shared by the tracker test binaries (one binary per backend: one tracker per process).
//! The oracle is a plain model of memory kept by the test itself, never the tracker's own output.
// These tests map and write raw memory to exercise the trackers, as a C program would.
#![allow(unsafe_code)]
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::sync::{Mutex, MutexGuard};

use capert::track::{Tracker, TrackerKind, PAGE_SIZE};

pub mod elision;
pub mod invalid;

/// Tests in one binary share the process-wide tracker: run them one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

pub fn serial() -> MutexGuard<'static, ()> {
    SERIAL
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// An anonymous private mapping owned by the test.
pub struct Mapping {
    pub base: usize,
    pub len: usize,
}

impl Mapping {
    pub fn new(pages: usize) -> Mapping {
        let len = pages * PAGE_SIZE;
        // SAFETY: fresh anonymous mapping chosen by the kernel.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        assert_ne!(base, libc::MAP_FAILED, "mmap failed");
        Mapping {
            base: base as usize,
            len,
        }
    }
    pub fn page(&self, index: usize) -> usize {
        self.base + index * PAGE_SIZE
    }
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: our live mapping; the tests write it only through `write`.
        unsafe { std::slice::from_raw_parts(self.base as *const u8, self.len) }
    }
    /// Writes as the application would (volatile so the compiler cannot elide or merge it).
    pub fn write(&self, offset: usize, bytes: &[u8]) {
        assert!(offset + bytes.len() <= self.len);
        for (i, &b) in bytes.iter().enumerate() {
            // SAFETY: in bounds of our live mapping.
            unsafe { std::ptr::write_volatile((self.base + offset + i) as *mut u8, b) };
        }
    }
    pub fn read_byte(&self, offset: usize) -> u8 {
        // SAFETY: in bounds of our live mapping.
        unsafe { std::ptr::read_volatile((self.base + offset) as *const u8) }
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: unmaps our own mapping.
        unsafe { libc::munmap(self.base as *mut libc::c_void, self.len) };
    }
}

pub fn new_tracker(kind: TrackerKind) -> Tracker {
    let (tracker, why) = match Tracker::new(Some(kind)) {
        Ok(made) => made,
        Err(e) => panic!("cannot create the {kind} tracker: {e}"),
    };
    assert_eq!(tracker.kind(), kind);
    assert!(
        why.contains(kind.name()),
        "reason `{why}` does not name {kind}"
    );
    tracker
}

fn random_bytes(rng: &mut Rng, n: usize) -> Vec<u8> {
    (0..n).map(|_| rng.next() as u8).collect()
}

/// Writes a few random bytes into each page of `pages` (in `map`), mirroring them into `model`.
fn scribble(rng: &mut Rng, map: &Mapping, model: &mut [u8], pages: &BTreeSet<usize>) {
    for &p in pages {
        for _ in 0..1 + rng.below(4) {
            let len = 1 + rng.below(16);
            let offset = p * PAGE_SIZE + rng.below(PAGE_SIZE - len);
            let bytes = random_bytes(rng, len);
            map.write(offset, &bytes);
            model[offset..offset + len].copy_from_slice(&bytes);
        }
    }
}

fn random_pages(rng: &mut Rng, total: usize, count: usize) -> BTreeSet<usize> {
    (0..count).map(|_| rng.below(total)).collect()
}

fn assert_twins(tracker: &Tracker, map: &Mapping, expected: &[u8], when: &str) {
    for p in 0..map.len / PAGE_SIZE {
        let range = p * PAGE_SIZE..(p + 1) * PAGE_SIZE;
        assert!(
            tracker.twin(map.page(p)) == &expected[range],
            "{when}: twin of page {p} is wrong"
        );
    }
}

/// Two tracked mappings; regions with random page writes, sequential writes between regions,
/// reads of untouched pages, commits and injections, all checked against a model.
pub fn exact_pages_over_many_regions(kind: TrackerKind, seed: u64) {
    let _serial = serial();
    let mut rng = Rng::new(seed);
    let mut tracker = new_tracker(kind);
    // exactly the written pages: no predicted ones (elision.rs covers those)
    tracker.set_write_fault_elision(false);
    let maps = [Mapping::new(96), Mapping::new(40)];
    let mut models: Vec<Vec<u8>> = maps.iter().map(|m| vec![0u8; m.len]).collect();
    // Populate some pages before tracking starts: the twin must start from that content.
    for (map, model) in maps.iter().zip(&mut models) {
        let pages = random_pages(&mut rng, map.len / PAGE_SIZE, 20);
        scribble(&mut rng, map, model, &pages);
    }
    for map in &maps {
        tracker.add_range(map.base, map.len).expect("add_range");
    }
    for round in 0..12 {
        // Sequential code between regions writes some pages.
        for (map, model) in maps.iter().zip(&mut models) {
            let count = rng.below(10);
            let pages = random_pages(&mut rng, map.len / PAGE_SIZE, count);
            scribble(&mut rng, map, model, &pages);
        }
        tracker.begin_region().expect("begin_region");
        for (map, model) in maps.iter().zip(&models) {
            assert!(
                map.bytes() == &model[..],
                "round {round}: memory differs from the model"
            );
            assert_twins(&tracker, map, model, &format!("round {round} after begin"));
        }
        let before: Vec<Vec<u8>> = models.clone();
        let mut expected = Vec::new();
        for (map, model) in maps.iter().zip(&mut models) {
            let count = rng.below(30);
            let pages = random_pages(&mut rng, map.len / PAGE_SIZE, count);
            scribble(&mut rng, map, model, &pages);
            // Reading other pages (possibly never touched) must not count as a write.
            for _ in 0..10 {
                let p = rng.below(map.len / PAGE_SIZE);
                std::hint::black_box(map.read_byte(p * PAGE_SIZE + 7));
            }
            expected.extend(pages.iter().map(|&p| map.page(p)));
        }
        expected.sort_unstable();
        let mut written = vec![usize::MAX]; // end_region appends: keep what was there
        tracker.end_region(&mut written).expect("end_region");
        assert_eq!(written[0], usize::MAX, "end_region must append");
        assert_eq!(
            &written[1..],
            &expected[..],
            "round {round}: written pages differ"
        );
        for (map, before) in maps.iter().zip(&before) {
            assert_twins(&tracker, map, before, &format!("round {round} at end"));
        }
        for &page in &written[1..] {
            let map = maps
                .iter()
                .find(|m| page >= m.base && page < m.base + m.len)
                .unwrap();
            let model = &models[maps.iter().position(|m| m.base == map.base).unwrap()];
            let offset = page - map.base;
            assert!(tracker.memory(page) == &model[offset..offset + PAGE_SIZE]);
        }
        tracker.commit(&written[1..]);
        for (map, model) in maps.iter().zip(&models) {
            assert_twins(&tracker, map, model, &format!("round {round} after commit"));
        }
        tracker.finish_region();
        // Injection of "other ranks'" bytes, sometimes across a page boundary.
        for _ in 0..rng.below(6) {
            let m = rng.below(maps.len());
            let len = 1 + rng.below(2 * PAGE_SIZE);
            let offset = rng.below(maps[m].len - len);
            let bytes = random_bytes(&mut rng, len);
            tracker.inject(maps[m].base + offset, &bytes);
            models[m][offset..offset + len].copy_from_slice(&bytes);
        }
        for (map, model) in maps.iter().zip(&models) {
            assert!(
                map.bytes() == &model[..],
                "round {round}: injection did not reach memory"
            );
            assert_twins(&tracker, map, model, &format!("round {round} after inject"));
        }
    }
    assert!(tracker.contains(maps[1].base + 5));
    let untracked = Mapping::new(1);
    assert!(!tracker.contains(untracked.base));
    assert!(!tracker.contains(maps[1].base - 1) || maps[1].base == maps[0].base + maps[0].len);
}

/// A region that writes nothing reports nothing; twins stay equal to memory.
pub fn empty_region(kind: TrackerKind) {
    let _serial = serial();
    let mut tracker = new_tracker(kind);
    let map = Mapping::new(8);
    map.write(3 * PAGE_SIZE, b"hello");
    tracker.add_range(map.base, map.len).expect("add_range");
    tracker.begin_region().expect("begin_region");
    let mut written = Vec::new();
    tracker.end_region(&mut written).expect("end_region");
    assert!(written.is_empty(), "nothing was written, got {written:x?}");
    tracker.commit(&written);
    tracker.finish_region();
    assert_eq!(&tracker.twin(map.page(3))[..5], b"hello");
}

/// Scans limited to a scope: a page written outside it is not reported (uffd) and keeps its
/// state; a later region whose scope holds it (here: all memory) brings its twin up to date at
/// begin and does not report it, whatever the sequential writes in between.
pub fn scoped_scans(kind: TrackerKind) {
    let _serial = serial();
    let mut tracker = new_tracker(kind);
    let map = Mapping::new(64);
    map.write(0, &[1; 64 * PAGE_SIZE]);
    tracker.add_range(map.base, map.len).expect("add_range");
    let scope = [(map.page(0), map.page(8))];
    tracker.set_scope(Some(&scope));
    tracker.begin_region().expect("begin_region");
    map.write(3 * PAGE_SIZE, b"in");
    map.write(40 * PAGE_SIZE, b"out");
    let mut written = Vec::new();
    tracker.end_region(&mut written).expect("end_region");
    assert!(written.contains(&map.page(3)), "{written:x?}");
    if kind == TrackerKind::Uffd {
        assert!(!written.contains(&map.page(40)), "{written:x?}");
    }
    tracker.commit(&written);
    tracker.finish_region();
    // sequential code writes outside the scope again
    map.write(40 * PAGE_SIZE + 10, b"seq");
    tracker.set_scope(None);
    tracker.begin_region().expect("begin_region");
    assert_eq!(&tracker.twin(map.page(40))[..3], b"out");
    assert_eq!(&tracker.twin(map.page(40))[10..13], b"seq");
    assert_eq!(&tracker.twin(map.page(3))[..2], b"in");
    let mut written = Vec::new();
    tracker.end_region(&mut written).expect("end_region");
    let unexpected: Vec<usize> = written
        .iter()
        .copied()
        .filter(|&p| p == map.page(40) || p == map.page(3))
        .collect();
    assert!(
        unexpected.is_empty() || kind == TrackerKind::Mprotect,
        "{written:x?}"
    );
    tracker.commit(&written);
    tracker.finish_region();
}

fn pipe_with(bytes: &[u8]) -> [libc::c_int; 2] {
    let mut fds = [0; 2];
    // SAFETY: pipe writes two descriptors into the array.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: writes from a live Rust slice.
    let n = unsafe { libc::write(fds[1], bytes.as_ptr() as *const libc::c_void, bytes.len()) };
    assert_eq!(n, bytes.len() as isize);
    fds
}

fn read_into(fd: libc::c_int, addr: usize, len: usize) -> (isize, i32) {
    // SAFETY: the destination is a live test mapping of at least `len` bytes.
    let n = unsafe { libc::read(fd, addr as *mut libc::c_void, len) };
    (
        n,
        std::io::Error::last_os_error().raw_os_error().unwrap_or(0),
    )
}

fn close(fds: [libc::c_int; 2]) {
    // SAFETY: closes descriptors this test opened.
    unsafe {
        libc::close(fds[0]);
        libc::close(fds[1]);
    }
}

/// Kernel writes (read(2) from a pipe) into tracked pages outside a region always work, and the
/// next begin_region brings the twin up to date.
pub fn kernel_write_outside_region(kind: TrackerKind) {
    let _serial = serial();
    let mut tracker = new_tracker(kind);
    let map = Mapping::new(4);
    tracker.add_range(map.base, map.len).expect("add_range");
    for round in 0..2u8 {
        let payload = [b'k' + round; 100];
        let fds = pipe_with(&payload);
        let (n, errno) = read_into(fds[0], map.page(2) + 50, 100);
        close(fds);
        assert_eq!(
            n, 100,
            "read(2) into tracked memory outside a region failed: errno {errno}"
        );
        tracker.begin_region().expect("begin_region");
        assert!(
            tracker.twin(map.page(2)) == tracker.memory(map.page(2)),
            "twin missed kernel write"
        );
        assert_eq!(tracker.twin(map.page(2))[50..150], payload);
        let mut written = Vec::new();
        tracker.end_region(&mut written).expect("end_region");
        assert!(
            written.is_empty(),
            "sequential kernel write reported as a region write"
        );
        tracker.finish_region();
    }
}

/// read(2) into a tracked page during a region. Returns (bytes read, errno, pages reported).
pub fn kernel_write_inside_region(kind: TrackerKind) -> (isize, i32, Vec<usize>, Mapping) {
    let _serial = serial();
    let mut tracker = new_tracker(kind);
    let map = Mapping::new(4);
    map.write(PAGE_SIZE + 10, b"before");
    tracker.add_range(map.base, map.len).expect("add_range");
    tracker.begin_region().expect("begin_region");
    let fds = pipe_with(b"from the kernel");
    let (n, errno) = read_into(fds[0], map.page(1) + 10, 15);
    close(fds);
    let mut written = Vec::new();
    tracker.end_region(&mut written).expect("end_region");
    if n > 0 {
        assert_eq!(
            &tracker.twin(map.page(1))[10..16],
            b"before",
            "twin lost the before-image"
        );
    }
    tracker.commit(&written);
    tracker.finish_region();
    (n, errno, written, map)
}

/// Static data of this test binary (`.data`, file-backed private mapping) can be tracked.
#[repr(C, align(4096))]
pub struct PageAligned(pub [u8; 4 * PAGE_SIZE]);

pub fn static_data(kind: TrackerKind, data: &'static PageAligned) {
    let _serial = serial();
    let mut tracker = new_tracker(kind);
    let base = data.0.as_ptr() as usize;
    tracker
        .add_range(base, 4 * PAGE_SIZE)
        .expect("add_range on .data");
    assert_eq!(
        tracker.twin(base + PAGE_SIZE)[0],
        7,
        "twin of .data not initialised"
    );
    tracker.begin_region().expect("begin_region");
    // SAFETY: the static is ours; written volatile as C code would, nothing else borrows it now.
    unsafe { std::ptr::write_volatile((base + 2 * PAGE_SIZE + 5) as *mut u8, 42) };
    let mut written = Vec::new();
    tracker.end_region(&mut written).expect("end_region");
    assert_eq!(written, vec![base + 2 * PAGE_SIZE]);
    assert_eq!(tracker.twin(base + 2 * PAGE_SIZE)[5], 7);
    assert_eq!(tracker.memory(base + 2 * PAGE_SIZE)[5], 42);
    tracker.commit(&written);
    tracker.finish_region();
}

/// Misuse is reported as errors, not crashes.
pub fn bad_ranges(kind: TrackerKind) {
    let _serial = serial();
    let mut tracker = new_tracker(kind);
    assert!(
        Tracker::new(Some(kind)).is_err(),
        "a second tracker must be refused"
    );
    let map = Mapping::new(8);
    assert!(tracker.add_range(map.base + 1, PAGE_SIZE).is_err());
    assert!(tracker.add_range(map.base, 100).is_err());
    assert!(tracker.add_range(map.base, 0).is_err());
    tracker
        .add_range(map.base, 4 * PAGE_SIZE)
        .expect("add_range");
    let overlap = tracker.add_range(map.base + 3 * PAGE_SIZE, 2 * PAGE_SIZE);
    assert!(overlap.unwrap_err().0.contains("overlaps"));
    // Adjacent growth is fine.
    tracker
        .add_range(map.base + 4 * PAGE_SIZE, 2 * PAGE_SIZE)
        .expect("adjacent add_range");
    // Page zero is below vm.mmap_min_addr, so nothing is ever mapped there; a hole made by
    // munmap could be reused at once by another test thread's mmap (seen on CI).
    let unmapped = tracker.add_range(0, PAGE_SIZE).unwrap_err();
    assert!(unmapped.0.contains("not mapped"), "{unmapped}");
    tracker.begin_region().expect("begin_region");
    assert!(tracker
        .add_range(map.base + 6 * PAGE_SIZE, PAGE_SIZE)
        .is_err());
    let mut written = Vec::new();
    tracker.end_region(&mut written).expect("end_region");
    tracker.finish_region();
    drop(tracker);
    let (again, _) = Tracker::new(Some(kind)).expect("a tracker can be created after drop");
    drop(again);
}

/// Bytes of anonymous transparent huge pages in [base, base+len) according to /proc/self/smaps.
pub fn anon_huge_bytes(base: usize, len: usize) -> usize {
    let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap_or_default();
    let mut inside = false;
    let mut total = 0;
    for line in smaps.lines() {
        if let Some((range, _)) = line.split_once(' ') {
            if let Some((from, to)) = range.split_once('-') {
                if let (Ok(from), Ok(to)) = (
                    usize::from_str_radix(from, 16),
                    usize::from_str_radix(to, 16),
                ) {
                    inside = from < base + len && to > base;
                    continue;
                }
            }
        }
        if inside {
            if let Some(kb) = line.strip_prefix("AnonHugePages:") {
                let kb = kb.trim().trim_end_matches("kB").trim();
                total += kb.parse::<usize>().unwrap_or(0) * 1024;
            }
        }
    }
    total
}

/// Memory that is populated after tracking starts may come in transparent huge pages (the uffd
/// tracker asks for them): written pages must still be reported exactly, at 4 KiB.
/// Returns the bytes of huge pages seen, so the caller can tell whether THP was exercised.
pub fn exact_pages_in_huge_memory(kind: TrackerKind, seed: u64) -> usize {
    const HUGE: usize = 2 << 20;
    let _serial = serial();
    let mut rng = Rng::new(seed);
    let mut tracker = new_tracker(kind);
    tracker.set_write_fault_elision(false);
    let raw = Mapping::new(5 * HUGE / PAGE_SIZE);
    let base = (raw.base + HUGE - 1) & !(HUGE - 1);
    let len = 4 * HUGE;
    let pages = len / PAGE_SIZE;
    tracker.add_range(base, len).expect("add_range");
    let view = Mapping { base, len };
    let mut model = vec![0u8; len];
    // Populate after tracking starts, outside a region: faults may allocate huge pages.
    for p in 0..pages {
        view.write(p * PAGE_SIZE, &[p as u8 | 1]);
        model[p * PAGE_SIZE] = p as u8 | 1;
    }
    let huge = anon_huge_bytes(base, len);
    for round in 0..6 {
        tracker.begin_region().expect("begin_region");
        assert!(view.bytes() == &model[..]);
        for p in (0..pages).step_by(97) {
            assert!(
                tracker.twin(base + p * PAGE_SIZE) == &model[p * PAGE_SIZE..(p + 1) * PAGE_SIZE]
            );
        }
        let count = 1 + rng.below(40);
        let chosen = random_pages(&mut rng, pages, count);
        scribble(&mut rng, &view, &mut model, &chosen);
        let mut written = Vec::new();
        tracker.end_region(&mut written).expect("end_region");
        let expected: Vec<usize> = chosen.iter().map(|&p| base + p * PAGE_SIZE).collect();
        assert_eq!(written, expected, "round {round}: written pages differ");
        tracker.commit(&written);
        tracker.finish_region();
        // Sequential writes between regions, caught by the next sync.
        let count = rng.below(20);
        let sequential = random_pages(&mut rng, pages, count);
        scribble(&mut rng, &view, &mut model, &sequential);
    }
    std::mem::forget(view); // `raw` owns the mapping
    huge
}

/// A private file mapping whose pages are not mapped yet reads as the file's content, not as
/// zero: twins must hold that content, and only written pages are reported.
pub fn file_backed_private_mapping(kind: TrackerKind) {
    let _serial = serial();
    let pages = 16;
    let content: Vec<u8> = (0..pages * PAGE_SIZE)
        .map(|i| (i / PAGE_SIZE) as u8 + 100)
        .collect();
    let path = std::env::temp_dir().join(format!("capert-track-{}-{kind}", std::process::id()));
    std::fs::write(&path, &content).expect("write temp file");
    let file = std::fs::File::open(&path).expect("open temp file");
    let _ = std::fs::remove_file(&path);
    use std::os::fd::AsRawFd;
    // SAFETY: private writable mapping of our own file; the kernel picks the address.
    let base = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            pages * PAGE_SIZE,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE,
            file.as_raw_fd(),
            0,
        )
    };
    assert_ne!(base, libc::MAP_FAILED);
    let map = Mapping {
        base: base as usize,
        len: pages * PAGE_SIZE,
    };
    let mut tracker = new_tracker(kind);
    tracker.add_range(map.base, map.len).expect("add_range");
    for p in 0..pages {
        let expected = &content[p * PAGE_SIZE..(p + 1) * PAGE_SIZE];
        assert!(
            tracker.twin(map.page(p)) == expected,
            "twin of file page {p} after add_range"
        );
    }
    tracker.begin_region().expect("begin_region");
    map.write(5 * PAGE_SIZE + 9, b"xyz");
    let mut written = Vec::new();
    tracker.end_region(&mut written).expect("end_region");
    assert_eq!(written, vec![map.page(5)]);
    for p in 0..pages {
        let expected = &content[p * PAGE_SIZE..(p + 1) * PAGE_SIZE];
        assert!(
            tracker.twin(map.page(p)) == expected,
            "twin of file page {p} is wrong"
        );
    }
    tracker.commit(&written);
    tracker.finish_region();
}
