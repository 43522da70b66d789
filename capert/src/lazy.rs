//! The demand-driven merge (`CAPE_MERGE=lazy`, docs/lazy-merge.md): a page changed by one
//! rank only at a merge point is not sent; that rank becomes its *home*, publishes the page
//! in its served buffers, and every other rank invalidates its copy, which is fetched from
//! the home at its first access (`sys/invalid.rs`, `sys/mpi_pages.rs`). Pages changed by
//! several ranks go through the eager merge as before.
//!
//! Every rank keeps, for every page that was ever published, its home and which of the
//! home's two buffers holds the newest version. All ranks update this table identically
//! from the same notices, so a reader computes the offset to fetch without asking. The home
//! writes a new version into the buffer that does not hold the current one: a reader still
//! fetching the current version (it has not reached the merge point yet) is never served a
//! half-written page, and the older buffer is overwritten only at a later merge point, which
//! every rank has passed by then.

use std::sync::Arc;

use crate::sys::mpi::Comm;

mod auto;
mod homes;
use crate::sys::mpi_pages::{gets_progress, PageWindow};
use crate::track::{Tracker, PAGE_SIZE};
pub use auto::Auto;
use homes::{Homes, PageTable, NO_HOME};

/// Where each eligible page has its two served buffers: spans of application memory (page
/// aligned, ascending), each followed by its two buffers in the served area.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// (start, len, offset of buffer 0; buffer 1 follows at offset + len)
    spans: Vec<(usize, usize, usize)>,
    total: usize,
}

impl Layout {
    pub fn new(spans: &[(usize, usize)]) -> Layout {
        let mut sorted = spans.to_vec();
        sorted.sort_unstable();
        let mut total = 0;
        let spans = sorted
            .into_iter()
            .map(|(start, len)| {
                let at = total;
                total += 2 * len;
                (start, len, at)
            })
            .collect();
        Layout { spans, total }
    }

    /// Bytes of served buffers.
    pub fn len(&self) -> usize {
        self.total
    }

    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The offset of `page`'s buffer `buffer` (None: not an eligible page).
    pub fn offset(&self, page: usize, buffer: u8) -> Option<usize> {
        let index = self.spans.partition_point(|&(s, l, _)| s + l <= page);
        let &(start, len, at) = self.spans.get(index).filter(|&&(s, _, _)| s <= page)?;
        Some(at + usize::from(buffer) * len + (page - start))
    }
}

/// A rank's message of phase 1: its write notices (the eligible pages it changed) and its
/// vetoes (pages holding bytes it excluded from its diff: targets of its atomic updates and
/// reductions, which the records rewrite on every rank after the merge, so they must be held
/// by every rank), each a list of runs of pages. Compact, because every rank receives every
/// rank's message at every merge point: a run is the gap in pages from the end of the run
/// before it and its length, both LEB128 varints (a Jacobi sweep's changed pages make one
/// run per row: two bytes a run, where pairs of 64-bit addresses took sixteen and the
/// notices moved as many bytes as the sweep's fetched rows).
pub fn encode_notices(notices: &[usize], vetoes: &[usize]) -> Vec<u8> {
    let notices = runs_of(notices);
    let vetoes = runs_of(vetoes);
    let mut out = Vec::with_capacity(4 + 4 * (notices.len() + vetoes.len()));
    put_varint(&mut out, notices.len() as u64);
    put_runs(&mut out, &notices);
    put_runs(&mut out, &vetoes);
    out
}

/// Pages (addresses, in any order) as runs `(first page number, count)`, ascending.
fn runs_of(pages: &[usize]) -> Vec<(u64, u64)> {
    let mut numbers: Vec<u64> = pages.iter().map(|&p| (p / PAGE_SIZE) as u64).collect();
    if !numbers.is_sorted() {
        numbers.sort_unstable();
    }
    numbers.dedup();
    let mut runs: Vec<(u64, u64)> = Vec::new();
    for n in numbers {
        match runs.last_mut() {
            Some((first, count)) if *first + *count == n => *count += 1,
            _ => runs.push((n, 1)),
        }
    }
    runs
}

fn put_runs(out: &mut Vec<u8>, runs: &[(u64, u64)]) {
    let mut end = 0;
    for &(first, count) in runs {
        put_varint(out, first - end);
        put_varint(out, count);
        end = first + count;
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The varint at `*at`, advancing it; None at the end or on a malformed one.
fn get_varint(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *bytes.get(*at)?;
        *at += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return Some(v);
        }
    }
    None
}

/// (notices, vetoes) of one rank's message.
fn decode_notices(bytes: &[u8]) -> (Vec<usize>, Vec<usize>) {
    let mut at = 0;
    let count = get_varint(bytes, &mut at).unwrap_or(0);
    let mut pages = |runs: Option<u64>| {
        let (mut out, mut end, mut n) = (Vec::new(), 0u64, 0u64);
        while runs.is_none_or(|r| n < r) {
            let Some(gap) = get_varint(bytes, &mut at) else {
                break;
            };
            let Some(len) = get_varint(bytes, &mut at) else {
                break;
            };
            let first = end.saturating_add(gap);
            end = first.saturating_add(len);
            out.extend((first..end).map(|p| p as usize * PAGE_SIZE));
            n += 1;
        }
        out
    };
    let notices = pages(Some(count));
    (notices, pages(None))
}

/// The pages every rank's notices name (index = rank), split into pages with one writer and
/// no veto (page, writer) and the others (several writers, or a veto), both ascending.
pub fn classify(messages: &[Vec<u8>]) -> (Vec<(usize, u32)>, Vec<usize>) {
    let mut all: Vec<(usize, u32)> = Vec::new();
    let mut vetoed: Vec<usize> = Vec::new();
    for (rank, bytes) in messages.iter().enumerate() {
        let (notices, vetoes) = decode_notices(bytes);
        all.extend(notices.into_iter().map(|p| (p, rank as u32)));
        vetoed.extend(vetoes);
    }
    all.sort_unstable();
    vetoed.sort_unstable();
    let (mut single, mut several) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < all.len() {
        let mut j = i + 1;
        while j < all.len() && all[j].0 == all[i].0 {
            j += 1;
        }
        if j - i == 1 && vetoed.binary_search(&all[i].0).is_err() {
            single.push(all[i]);
        } else {
            several.push(all[i].0);
        }
        i = j;
    }
    (single, several)
}

/// Counters of the demand-driven merge for `CAPE_STATS`.
#[derive(Debug, Default, Clone, Copy)]
pub struct LazyCounts {
    /// Pages this rank announced with a notice instead of sending them.
    pub notices: u64,
    /// Pages this rank published as their home.
    pub published: u64,
}

/// The state of the demand-driven merge on one rank: the engine once started (at start-up
/// with `CAPE_MERGE=lazy`, at the first trial with `auto`).
pub struct Lazy {
    engine: Option<Engine>,
    /// The eligible memory, for starting the engine.
    spans: Vec<(usize, usize)>,
    /// `sys::invalid::counters()` when last taken.
    counted: (u64, u64),
    /// `CAPE_MERGE=auto`: the per-region measurements (None: always lazy).
    auto: Option<Auto>,
    /// `auto` found that the engine cannot start: always eager.
    unavailable: bool,
    /// Per page this rank published, what it knows of its own last publication of it
    /// (indexed like the table of homes: a hash map's insert per published page cost 2 % of
    /// a Jacobi sweep).
    published: PageTable<Published>,
    /// Per page another rank homes, what this rank learnt of its own reads of it
    /// (`Reads`): the pages it read after their last publication are fetched at the next
    /// merge point that publishes them, in one batch, instead of at a fault each.
    reads: PageTable<u8>,
    /// Scratch of `fetch_many`.
    gets: Vec<Get>,
}

/// What a rank knows of its reads of a page another rank publishes (`Lazy::reads`); 0, the
/// table's default: nothing (never invalidated by this rank, or homed by it since).
struct Reads;

impl Reads {
    /// Invalidated at a merge point: valid again at the next one means it was fetched, read.
    const INVALIDATED: u8 = 1;
    /// Fetched at a merge point (the page reads as valid, read or not); `PREFETCHED + k`:
    /// fetched again at the next `k` publications, then invalidated to learn whether it is
    /// still read. A page read in every interval faults once in `CREDIT + 1` publications;
    /// one no longer read costs at most `CREDIT` fetches for nothing.
    const PREFETCHED: u8 = 2;
    const CREDIT: u8 = 7;

    /// At a merge point that publishes a page another rank homes, with what this rank knew
    /// (`reads`) and whether it holds the page invalid now: fetch it now, and what it knows
    /// next.
    fn next(reads: u8, invalid: bool) -> (bool, u8) {
        if invalid {
            // not read since it was invalidated
            (false, Reads::INVALIDATED)
        } else if reads == Reads::INVALIDATED {
            // fetched since: read
            (true, Reads::PREFETCHED + Reads::CREDIT)
        } else if reads > Reads::PREFETCHED {
            (true, reads - 1)
        } else {
            (false, Reads::INVALIDATED)
        }
    }
}

/// This rank's last publication of a page (the default: none known).
#[derive(Debug, Clone, Copy, Default)]
struct Published {
    /// The lines in which that version differed from the version before it, when known
    /// exactly (the twin held the version before: [`Tracker::twin_holds_published`]).
    lines: Option<u64>,
    /// This rank was already the page's home then: the buffer that version did not go into
    /// held this rank's own previous version.
    chained: bool,
}

/// The served pages, their window and the table of homes.
struct Engine {
    window: Arc<PageWindow>,
    layout: Arc<Layout>,
    pages: Arc<Homes>,
    rank: u32,
}

/// The largest value of each of `mine` over the ranks (every rank calls it).
fn max_over_ranks(comm: &Comm, mine: [f64; 3]) -> [f64; 3] {
    let bytes: Vec<u8> = mine.iter().flat_map(|v| v.to_le_bytes()).collect();
    let mut max = [0.0f64; 3];
    for theirs in comm.all_gather_bytes(&bytes) {
        for (i, m) in max.iter_mut().enumerate() {
            let v = theirs
                .get(i * 8..i * 8 + 8)
                .and_then(|b| b.try_into().ok())
                .map_or(0.0, f64::from_le_bytes);
            *m = m.max(v);
        }
    }
    max
}

impl Engine {
    /// Collective: the window over the served buffers of `spans` (the eligible memory), the
    /// progress check, the fetch thread. `Err`: why the merge stays eager (on every rank: each
    /// step that can fail on one rank only is agreed on).
    fn start(
        comm: &Comm,
        tracker: &mut Tracker,
        spans: &[(usize, usize)],
    ) -> Result<Engine, String> {
        let layout = Arc::new(Layout::new(spans));
        let window = Arc::new(PageWindow::create(comm, layout.len())?);
        if !gets_progress(comm, &window) {
            return Err("one-sided `MPI_Get` waits for the target's next MPI call in this MPI installation (Open MPI's `osc rdma` does not; MPICH does), so a fetch would wait for its home's whole loop".into());
        }
        let pages = Arc::new(Homes::new(spans));
        let engine = Engine {
            window,
            layout,
            pages,
            rank: comm.rank() as u32,
        };
        let served = engine.clone_handles();
        let mut gets = Vec::new();
        let serving = tracker
            .serve_invalid_pages(Box::new(move |pages: &[usize], out: &mut [u8]| {
                served.fetch_many(pages, out, &mut gets)
            }))
            .map_err(|e| e.to_string());
        // the engine starts on every rank or on none (a rank whose fetch thread is not
        // running merges eagerly, so the others must too)
        if comm.all_sum(u64::from(serving.is_err())) > 0 {
            return Err(serving
                .err()
                .unwrap_or_else(|| "another rank cannot serve invalid pages".into()));
        }
        Ok(engine)
    }

    fn clone_handles(&self) -> Engine {
        Engine {
            window: self.window.clone(),
            layout: self.layout.clone(),
            pages: self.pages.clone(),
            rank: self.rank,
        }
    }

    /// Reads the newest version of each of `pages` from its home into `out` (`PAGE_SIZE`
    /// bytes per page, in order): one passive-target epoch per home, one `MPI_Get` per run
    /// of pages that lie next to each other both in its served buffers and in `out`.
    /// `gets` is scratch.
    fn fetch_many(
        &self,
        pages: &[usize],
        out: &mut [u8],
        gets: &mut Vec<Get>,
    ) -> Result<(), String> {
        if out.len() != pages.len() * PAGE_SIZE {
            return Err(format!("{} bytes for {} pages", out.len(), pages.len()));
        }
        gets.clear();
        for (i, &page) in pages.iter().enumerate() {
            let state = Some(self.pages.get(page))
                .filter(|s| s.home != NO_HOME)
                .ok_or_else(|| format!("the page at {page:#x} has no home"))?;
            let offset = self
                .layout
                .offset(page, state.buffer)
                .ok_or_else(|| format!("the page at {page:#x} has no served buffer"))?;
            gets.push(Get {
                home: state.home,
                offset,
                at: i * PAGE_SIZE,
                len: PAGE_SIZE,
            });
        }
        coalesce(gets);
        let mut rest = gets.as_slice();
        let mut runs = Vec::new();
        while let Some(first) = rest.first() {
            let n = rest.partition_point(|g| g.home == first.home);
            runs.clear();
            runs.extend(rest[..n].iter().map(|g| (g.offset, g.at, g.len)));
            self.window.get_many(first.home as usize, &runs, out)?;
            rest = &rest[n..];
        }
        Ok(())
    }
}

/// One `MPI_Get` of a batch: `len` bytes at `offset` of `home`'s served buffers into the
/// batch's buffer at `at`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Get {
    home: u32,
    offset: usize,
    at: usize,
    len: usize,
}

/// Sorts the gets of a batch by home and offset and joins each run that is contiguous both
/// in the served buffers and in the batch's buffer into one get (a block of pages that one
/// rank homes, published at the same merge points, lies in one buffer).
fn coalesce(gets: &mut Vec<Get>) {
    gets.sort_unstable();
    let mut kept = 0usize;
    for i in 0..gets.len() {
        let g = gets[i];
        match kept.checked_sub(1).map(|k| &mut gets[k]) {
            Some(last)
                if last.home == g.home
                    && last.offset + last.len == g.offset
                    && last.at + last.len == g.at =>
            {
                last.len += g.len
            }
            _ => {
                gets[kept] = g;
                kept += 1;
            }
        }
    }
    gets.truncate(kept);
}

impl Lazy {
    /// `auto`: measure per region whether to use the demand-driven merge, and start it at
    /// the first trial; otherwise start it now (collective). `Err`: why the merge stays
    /// eager (the same on every rank).
    pub fn start(
        comm: &Comm,
        tracker: &mut Tracker,
        spans: &[(usize, usize)],
        auto: bool,
    ) -> Result<Lazy, String> {
        let engine = if auto {
            None
        } else {
            Some(Engine::start(comm, tracker, spans)?)
        };
        Ok(Lazy {
            engine,
            spans: spans.to_vec(),
            counted: (0, 0),
            auto: auto.then(|| Auto::new(comm.size())),
            unavailable: false,
            published: PageTable::new(spans),
            reads: PageTable::new(spans),
            gets: Vec::new(),
        })
    }

    /// Does this instance of the region `site` use the demand-driven merge? `merged`: the
    /// time this rank spent in merges so far. (Collective in `auto` mode: every rank calls it
    /// at the begin of every active region of the world.)
    pub fn choose(
        &mut self,
        site: usize,
        merged: std::time::Duration,
        comm: &Comm,
        tracker: &mut Tracker,
    ) -> bool {
        let Some(auto) = self.auto.as_mut() else {
            return true;
        };
        if self.unavailable
            || !auto.choose(site, std::time::Instant::now(), merged, &mut |mine| {
                max_over_ranks(comm, mine)
            })
        {
            return false;
        }
        if self.engine.is_none() {
            let started = std::time::Instant::now();
            let engine = Engine::start(comm, tracker, &self.spans);
            auto.leave_out(site, started.elapsed());
            match engine {
                Ok(engine) => self.engine = Some(engine),
                Err(_) => {
                    // the eager merge is what `auto` falls back to, without a word
                    self.unavailable = true;
                    return false;
                }
            }
        }
        true
    }

    /// Pages fetched and the time waited for them since the last call.
    pub fn take_fetch_counts(&mut self) -> (u64, std::time::Duration) {
        let now = crate::sys::invalid::counters();
        let (pages, ns) = (now.0 - self.counted.0, now.1 - self.counted.1);
        self.counted = now;
        (pages, std::time::Duration::from_nanos(ns))
    }

    /// May `page` be merged on demand?
    pub fn eligible(&self, page: usize) -> bool {
        self.engine
            .as_ref()
            .is_some_and(|e| e.layout.offset(page, 0).is_some())
    }

    /// This rank is the single writer of `page`, whose bytes are `bytes`: writes them into
    /// the buffer that does not hold the current version (made current by `settle`).
    /// `lines`: the lines that differ from the twin; `exact`: the twin held this rank's last
    /// published version, so `lines` are exactly what changed since. When that buffer holds
    /// this rank's version before the current one, and the lines of both changes are known,
    /// only those lines are copied (a stencil changes a few lines of each page it writes).
    pub fn publish(&mut self, page: usize, bytes: &[u8], lines: u64, exact: bool) {
        let Some(e) = self.engine.as_ref() else {
            return;
        };
        let state = e.pages.get(page);
        let home = state.home == e.rank;
        let Some(offset) = e.layout.offset(page, state.buffer ^ 1) else {
            return;
        };
        // the current version is this rank's last one (`home`), the older buffer holds the
        // one before (`chained`), and both changes are known line by line
        let known = match self.published.get(page) {
            Published {
                lines: Some(before),
                chained: true,
            } if home && exact => Some(before | lines),
            _ => None,
        };
        match known {
            Some(changed) => e.window.publish_lines(offset, bytes, changed),
            None => e.window.publish(offset, bytes),
        }
        self.published.set(
            page,
            Published {
                lines: exact.then_some(lines),
                chained: home,
            },
        );
    }

    /// Reads the newest version of each of `pages` (pages other ranks home, at most
    /// `sys::invalid::BATCH`) into `out`, `PAGE_SIZE` bytes each: one passive-target epoch
    /// per home. On the runtime's thread only at a merge point (no fault is served then).
    pub fn fetch_many(&mut self, pages: &[usize], out: &mut [u8]) -> Result<(), String> {
        match self.engine.as_ref() {
            Some(e) => e.fetch_many(pages, out, &mut self.gets),
            None => Err("the demand-driven merge is not started".into()),
        }
    }

    /// After the merge point's eager part: the single-writer pages get their new home and
    /// version (invalidated on the other ranks unless `keep_valid`: the caller fetches them),
    /// the pages merged eagerly lose theirs. Returns the pages another rank published that
    /// this rank read after their last publication (`Reads`): the caller fetches them now
    /// instead of invalidating them.
    pub fn settle(
        &mut self,
        tracker: &mut Tracker,
        single: &[(usize, u32)],
        several: &[usize],
        keep_valid: bool,
    ) -> Result<Vec<(usize, u32)>, String> {
        let Some(e) = self.engine.as_ref() else {
            return Ok(Vec::new());
        };
        let mut runs: Vec<(usize, usize)> = Vec::new();
        let mut prefetch = Vec::new();
        for &(page, writer) in single {
            e.pages.update(page, |state| {
                state.home = writer;
                state.buffer ^= 1;
            });
            if keep_valid {
                continue;
            }
            let reads = self.reads.get(page);
            if writer == e.rank {
                if reads != 0 {
                    self.reads.set(page, 0);
                }
                continue;
            }
            let invalid = tracker.is_invalid(page);
            let (fetch, next) = Reads::next(reads, invalid);
            self.reads.set(page, next);
            if fetch {
                prefetch.push((page, writer));
            } else if !invalid {
                match runs.last_mut() {
                    Some((_, end)) if *end == page => *end += PAGE_SIZE,
                    _ => runs.push((page, page + PAGE_SIZE)),
                }
            }
        }
        for &page in several {
            e.pages.update(page, |state| state.home = NO_HOME);
        }
        for (from, to) in runs {
            tracker
                .invalidate(from, to - from)
                .map_err(|e| e.to_string())?;
        }
        Ok(prefetch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: usize = PAGE_SIZE;

    #[test]
    fn notices_round_trip_as_runs() {
        let pages = [P, 2 * P, 3 * P, 7 * P, 9 * P, 10 * P];
        let bytes = encode_notices(&pages, &[4 * P]);
        assert_eq!(bytes.len(), 1 + 4 * 2, "a count, three runs, one veto run");
        assert_eq!(decode_notices(&bytes), (pages.to_vec(), vec![4 * P]));
        assert_eq!(decode_notices(&encode_notices(&[], &[])), (vec![], vec![]));
        // far apart, long, unsorted, repeated: varints of several bytes
        let far = [1 << 40, P, (1 << 40) + P, 3 * P, 3 * P];
        let runs = (0..300).map(|k| (k + 5) * P).chain(far);
        let pages: Vec<usize> = runs.collect();
        let mut sorted = pages.clone();
        sorted.sort_unstable();
        sorted.dedup();
        let bytes = encode_notices(&pages, &sorted);
        assert_eq!(decode_notices(&bytes), (sorted.clone(), sorted));
        // a cut message yields what it holds and no panic
        for cut in 0..bytes.len() {
            let _ = decode_notices(&bytes[..cut]);
        }
    }

    #[test]
    fn a_page_read_after_each_publication_is_fetched_at_the_merge_point() {
        // (held invalid at this merge point?) -> fetched now?
        let mut reads = 0;
        let mut run = |invalid| {
            let (fetch, next) = Reads::next(reads, invalid);
            reads = next;
            fetch
        };
        assert!(!run(false), "first publication: invalidated, to learn");
        assert!(!run(true), "not read since: stays invalid");
        assert!(
            run(false),
            "read since (fetched at a fault): fetched from now on"
        );
        let credit = usize::from(Reads::CREDIT);
        assert!((0..credit).all(|_| run(false)), "the next publications too");
        assert!(!run(false), "then invalidated again, to learn");
        assert!(run(false), "read again: fetched");
        assert!((0..credit).all(|_| run(false)));
        assert!(!run(false));
        assert!(!run(true), "no longer read: left invalid");
        assert!(!run(true));
    }

    #[test]
    fn pages_with_one_writer_and_with_several() {
        let notices = vec![
            encode_notices(&[P, 2 * P, 5 * P], &[]),
            encode_notices(&[2 * P, 3 * P], &[]),
            encode_notices(&[], &[9 * P, 10 * P]),
            encode_notices(&[5 * P, 8 * P, 9 * P], &[]),
        ];
        let (single, several) = classify(&notices);
        assert_eq!(single, vec![(P, 0), (3 * P, 1), (8 * P, 3)]);
        assert_eq!(several, vec![2 * P, 5 * P, 9 * P], "9: one writer, vetoed");
    }

    #[test]
    fn a_batch_is_one_get_per_contiguous_run_per_home() {
        let get = |home, offset, page: usize| Get {
            home,
            offset: offset * P,
            at: page * P,
            len: P,
        };
        // pages 0..6 of a batch: 0-2 homed on rank 1 (buffers next to each other), 3 on
        // rank 0, 4 on rank 1 again but in the other buffer, 5 on rank 1 after 4
        let mut gets = vec![
            get(1, 10, 0),
            get(1, 11, 1),
            get(1, 12, 2),
            get(0, 13, 3),
            get(1, 40, 4),
            get(1, 41, 5),
        ];
        coalesce(&mut gets);
        assert_eq!(
            gets,
            vec![
                Get {
                    home: 0,
                    offset: 13 * P,
                    at: 3 * P,
                    len: P
                },
                Get {
                    home: 1,
                    offset: 10 * P,
                    at: 0,
                    len: 3 * P
                },
                Get {
                    home: 1,
                    offset: 40 * P,
                    at: 4 * P,
                    len: 2 * P
                },
            ]
        );
        // contiguous in the served buffers but not in the batch (a page of another home
        // between them): two gets
        let mut gets = vec![get(2, 5, 0), get(3, 9, 1), get(2, 6, 2)];
        coalesce(&mut gets);
        assert_eq!(gets.len(), 3);
        // a page that is in the batch twice is fetched twice (the caller dedups)
        let mut gets = vec![get(0, 7, 0), get(0, 7, 1)];
        coalesce(&mut gets);
        assert_eq!(gets.len(), 2);
    }

    #[test]
    fn layout_offsets_two_buffers_per_span() {
        let layout = Layout::new(&[(100 * P, 10 * P), (4 * P, 2 * P)]);
        assert_eq!(layout.len(), 24 * P);
        assert_eq!(layout.offset(4 * P, 0), Some(0));
        assert_eq!(layout.offset(5 * P, 1), Some(3 * P));
        assert_eq!(layout.offset(100 * P, 0), Some(4 * P));
        assert_eq!(layout.offset(109 * P, 1), Some(4 * P + 10 * P + 9 * P));
        assert_eq!(layout.offset(6 * P, 0), None);
        assert_eq!(layout.offset(110 * P, 0), None);
        assert_eq!(layout.offset(0, 0), None);
    }
}
