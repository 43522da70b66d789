//! The diff of a region's written pages split over the rank's threads (hybrid execution): at
//! the region's end the pool's threads idle while thread 0 diffs, so each thread diffs a
//! contiguous share of the written pages (ascending) into a buffer of its own, and thread 0
//! appends the shares' records in page order: the change set is byte for byte the serial
//! diff's. Used where the pool is idle: the last merge point of an active region and the
//! serial diff of a logged region that one rank runs alone. Measured in docs/hybrid.md.

use super::epoch::{diff_written, diff_written_page};
use crate::config::SplitDiff;
use crate::sys::borrowed_job::run_borrowed;
use crate::tickpt::{Stamp, Tickpt};
use crate::track::{PagePair, Tracker, PAGE_SIZE};
use cape_format::changeset::{to_tickpt, Buf, ChangeSet, Writer};
use std::sync::{Mutex, OnceLock};

/// Fewest written pages per thread for the split to pay for its hand-off
/// (`CAPE_SPLIT_DIFF=auto`; measured in docs/hybrid.md): the pool's threads still spin when
/// the rank runs the team alone (the split already gains at 64 pages over two threads), and
/// sleep when it merges with other ranks (a wake-up costs about what 128 pages' diff saves).
const MIN_PAGES_PER_SPINNING_THREAD: usize = 32;
const MIN_PAGES_PER_SLEEPING_THREAD: usize = 128;

/// How many threads diff `pages` written pages of a rank that runs `rank_threads` threads;
/// `alone`: no other rank is in the team (the pool's threads still spin).
pub(super) fn diff_threads(
    mode: SplitDiff,
    rank_threads: u32,
    pages: usize,
    world: usize,
    alone: bool,
) -> u32 {
    let most = rank_threads.min(u32::try_from(pages).unwrap_or(u32::MAX));
    let threads = match mode {
        SplitDiff::Off => 1,
        SplitDiff::Always => most,
        SplitDiff::Auto => {
            let per_thread = if alone {
                MIN_PAGES_PER_SPINNING_THREAD
            } else {
                MIN_PAGES_PER_SLEEPING_THREAD
            };
            let by_pages = pages / per_thread;
            let by_cores = free_cores_per_rank(world);
            most.min(u32::try_from(by_pages.min(by_cores)).unwrap_or(u32::MAX))
        }
    };
    threads.max(1)
}

/// The cores of this node per rank on it: a second diff thread only helps where no other rank
/// needs the core. The launcher tells the ranks on the node (Open MPI, MPICH/Hydra); without
/// it every rank of the world is taken to be here.
fn free_cores_per_rank(world: usize) -> usize {
    static PER_RANK: OnceLock<usize> = OnceLock::new();
    *PER_RANK.get_or_init(|| {
        let local = ["OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"]
            .iter()
            .find_map(|name| std::env::var(name).ok()?.trim().parse::<usize>().ok())
            .unwrap_or(world)
            .max(1);
        crate::pool::cores() / local
    })
}

/// One thread's share of the written pages and what its diff gave.
struct Share<'s, 't> {
    pairs: &'s mut [PagePair<'t>],
    buf: &'s mut Buf,
    done: Done,
}

/// What one share's diff gave: its records are in its buffer.
#[derive(Default)]
struct Done {
    unchanged: Vec<usize>,
    recorded: u64,
    records: u64,
    /// The records as runs (`to_runs`).
    runs: Option<Result<Tickpt, String>>,
}

impl Share<'_, '_> {
    fn diff(&mut self, scope: &DiffScope<'_>) {
        self.buf.clear();
        let stamp = Stamp {
            order: 0,
            rank: scope.rank,
        };
        let mut out = Writer::new(self.buf, 0, [stamp]);
        let mut pieces = Vec::new();
        for (page, mem, twin) in self.pairs.iter_mut() {
            let (n, differed) = diff_written_page(
                *page,
                mem,
                twin,
                scope.ranges,
                scope.excluded,
                scope.rank,
                &mut pieces,
                &mut out,
            );
            self.done.recorded += n as u64;
            self.done.records += u64::from(n > 0);
            if !differed {
                self.done.unchanged.push(*page);
            }
        }
        out.finish();
        if scope.to_runs {
            self.done.runs = Some(share_set(self.buf).map(|set| to_tickpt(&set)));
        }
    }
}

fn share_set(buf: &Buf) -> Result<ChangeSet<'_>, String> {
    ChangeSet::trusted(buf.as_slice())
        .map_err(|e| format!("internal error: a share of the diff: {e}"))
}

/// What a diff records: bytes inside `ranges` minus `excluded`, as records of `rank`;
/// `to_runs`: each share also gives its records as runs (the log's form).
struct DiffScope<'a> {
    ranges: &'a [(usize, usize)],
    excluded: &'a [(usize, usize)],
    rank: u32,
    to_runs: bool,
}

/// Can `written` be split?
fn splittable(written: &[usize], threads: u32) -> bool {
    threads >= 2 && written.len() >= 2 && written.windows(2).all(|w| w[0] < w[1])
}

/// [`diff_written`] on `threads` threads of the rank (the pool's, which must be idle; `merges`
/// as in `Pool::run`); `shares` keeps the threads' buffers from call to call.
#[allow(clippy::too_many_arguments)]
pub(super) fn diff_written_split(
    tracker: &mut Tracker,
    written: &[usize],
    ranges: &[(usize, usize)],
    excluded: &[(usize, usize)],
    rank: u32,
    threads: u32,
    merges: bool,
    shares: &mut Vec<Buf>,
    out: &mut Writer<'_>,
) -> Result<(u64, u64, u64), String> {
    if !splittable(written, threads) {
        return Ok(diff_written(tracker, written, ranges, excluded, rank, out));
    }
    let scope = DiffScope {
        ranges,
        excluded,
        rank,
        to_runs: false,
    };
    let done = diff_tracked(tracker, written, &scope, threads, merges, shares)?;
    let (mut recorded, mut records) = (0, 0);
    for (d, buf) in done.iter().zip(shares.iter()) {
        out.copy_records(share_set(buf)?.raw_records());
        recorded += d.recorded;
        records += d.records;
    }
    Ok(((written.len() * PAGE_SIZE) as u64, recorded, records))
}

/// The serial diff of a logged region (rank 0's records of everything written inside
/// `ranges`) as runs, on `threads` threads of the rank (the pool's, idle): each thread also
/// turns its share into runs, and the shares' runs are joined in page order, which gives the
/// runs of the whole (a run that crosses from one share into the next is joined again).
/// Returns the bytes compared and the runs.
pub(super) fn diff_written_runs(
    tracker: &mut Tracker,
    written: &[usize],
    ranges: &[(usize, usize)],
    threads: u32,
    shares: &mut Vec<Buf>,
) -> Result<(u64, Tickpt), String> {
    let compared = (written.len() * PAGE_SIZE) as u64;
    if !splittable(written, threads) {
        let mut buf = shares.pop().unwrap_or_default();
        buf.clear();
        let mut w = Writer::new(&mut buf, 0, [Stamp { order: 0, rank: 0 }]);
        diff_written(tracker, written, ranges, &[], 0, &mut w);
        w.finish();
        let runs = to_tickpt(&share_set(&buf)?);
        shares.push(buf);
        return Ok((compared, runs));
    }
    let scope = DiffScope {
        ranges,
        excluded: &[],
        rank: 0,
        to_runs: true,
    };
    let done = diff_tracked(tracker, written, &scope, threads, false, shares)?;
    let runs = done
        .into_iter()
        .map(|d| {
            d.runs
                .unwrap_or_else(|| Err("internal error: a share without runs".into()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((compared, joined(runs)))
}

/// The runs of consecutive shares as one: `push` joins a run that crosses into the next share
/// with its start, as the serial conversion would have made it.
fn joined(shares: Vec<Tickpt>) -> Tickpt {
    let mut shares = shares.into_iter();
    let mut all = shares.next().unwrap_or_else(|| Tickpt::new(0));
    for runs in shares {
        for run in runs.runs() {
            all.push(run.addr, run.stamp, run.bytes);
        }
    }
    all
}

/// Diffs the tracked pages `written` (ascending) on `threads` threads and tells the tracker
/// which did not change; the shares' records are in `shares`, in page order.
fn diff_tracked(
    tracker: &mut Tracker,
    written: &[usize],
    scope: &DiffScope<'_>,
    threads: u32,
    merges: bool,
    shares: &mut Vec<Buf>,
) -> Result<Vec<Done>, String> {
    let done = {
        let Some(mut pairs) = tracker.pairs_mut(written) else {
            return Err("internal error: written pages out of order".into());
        };
        diff_pairs(&mut pairs, scope, threads, merges, shares)
    };
    // pages left writable on a guess that they would be written: they were not
    for d in &done {
        tracker.unchanged(&d.unchanged);
    }
    Ok(done)
}

/// Diffs `pairs` (ascending pages) on `threads` threads into the first buffers of `shares`;
/// returns what each share gave, in page order.
fn diff_pairs(
    pairs: &mut [PagePair<'_>],
    scope: &DiffScope<'_>,
    threads: u32,
    merges: bool,
    shares: &mut Vec<Buf>,
) -> Vec<Done> {
    let per_thread = pairs.len().div_ceil(threads.max(1) as usize).max(1);
    if shares.len() < threads as usize {
        shares.resize_with(threads as usize, Buf::new);
    }
    let parts: Vec<Mutex<Share>> = pairs
        .chunks_mut(per_thread)
        .zip(shares.iter_mut())
        .map(|(pairs, buf)| {
            Mutex::new(Share {
                pairs,
                buf,
                done: Done::default(),
            })
        })
        .collect();
    let job = |t: u32| {
        if let Some(part) = parts.get(t as usize) {
            part.lock().unwrap_or_else(|e| e.into_inner()).diff(scope);
        }
    };
    run_borrowed(parts.len() as u32, merges, &job);
    parts
        .into_iter()
        .map(|part| part.into_inner().unwrap_or_else(|e| e.into_inner()).done)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Page-aligned like tracked memory (the page addresses only label the records here).
    const BASE: usize = 0x7000_0000;

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// Memory and twins of `n` pages: every kind of page a diff meets, by `page % 8`.
    fn pages(n: usize, rng: &mut Rng) -> (Vec<u8>, Vec<u8>) {
        let mut twin: Vec<u8> = (0..n * PAGE_SIZE).map(|_| rng.next() as u8).collect();
        let mut mem = twin.clone();
        for p in 0..n {
            let page = p * PAGE_SIZE..(p + 1) * PAGE_SIZE;
            let (m, t) = (&mut mem[page.clone()], &mut twin[page]);
            match p % 8 {
                // unchanged, and unchanged zero pages
                0 => {}
                1 => {
                    m.fill(0);
                    t.fill(0);
                }
                // scattered bytes
                2 | 3 => {
                    for _ in 0..1 + rng.below(40) {
                        let at = rng.below(PAGE_SIZE);
                        m[at] = m[at].wrapping_add(1 + rng.below(255) as u8);
                    }
                }
                // the first line, the last line
                4 => m[..64].iter_mut().for_each(|b| *b = !*b),
                5 => m[PAGE_SIZE - 1] ^= 0x5a,
                // a zero page written, a whole page changed
                6 => t.fill(0),
                _ => m.iter_mut().for_each(|b| *b = b.wrapping_add(1)),
            }
        }
        (mem, twin)
    }

    fn as_pairs<'a>(written: &[usize], mem: &'a [u8], twin: &'a mut [u8]) -> Vec<PagePair<'a>> {
        let mut out = Vec::new();
        let mut twins: Vec<Option<&mut [u8]>> = twin.chunks_mut(PAGE_SIZE).map(Some).collect();
        for &page in written {
            let p = (page - BASE) / PAGE_SIZE;
            let twin = twins[p].take().expect("each page once");
            out.push((page, &mem[p * PAGE_SIZE..(p + 1) * PAGE_SIZE], twin));
        }
        out
    }

    #[test]
    fn split_diff_is_the_serial_diff_byte_for_byte() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let n = 701;
        let (mem, twin) = pages(n, &mut rng);
        // every page but a few, ascending; part of the memory outside the shared ranges or
        // excluded, so that some pages record only some bytes
        let written: Vec<usize> = (0..n)
            .filter(|p| p % 97 != 50)
            .map(|p| BASE + p * PAGE_SIZE)
            .collect();
        // the pages on both sides of every cut change whole
        let (mut mem, twin) = (mem, twin);
        for threads in 2..=5 {
            let cut = written.len().div_ceil(threads);
            for page in [written[cut - 1], written[cut]] {
                let at = page - BASE;
                mem[at..at + PAGE_SIZE]
                    .iter_mut()
                    .zip(&twin[at..at + PAGE_SIZE])
                    .for_each(|(m, t)| *m = !*t);
            }
        }
        let ranges = [
            (BASE, BASE + 300 * PAGE_SIZE + 100),
            (BASE + 301 * PAGE_SIZE, BASE + n * PAGE_SIZE - 7),
        ];
        let excluded = [
            (BASE + 10 * PAGE_SIZE + 64, BASE + 10 * PAGE_SIZE + 200),
            (BASE + 400 * PAGE_SIZE, BASE + 402 * PAGE_SIZE + 1),
        ];
        let rank = 3;
        // the stamp and region of the logged diff, whose runs come from the shares' own sets
        let stamp = [Stamp { order: 0, rank }];

        let mut serial_twin = twin.clone();
        let mut serial = Buf::new();
        let mut serial_unchanged = Vec::new();
        let mut w = Writer::new(&mut serial, 0, stamp);
        let mut pieces = Vec::new();
        let mut serial_recorded = 0u64;
        for (page, m, t) in as_pairs(&written, &mem, &mut serial_twin) {
            let (bytes, differed) =
                diff_written_page(page, m, t, &ranges, &excluded, rank, &mut pieces, &mut w);
            serial_recorded += bytes as u64;
            if !differed {
                serial_unchanged.push(page);
            }
        }
        w.finish();
        assert!(serial_recorded > 0 && !serial_unchanged.is_empty());

        let serial_runs = to_tickpt(&ChangeSet::parse(serial.as_slice()).unwrap()).encode();
        let mut shares = Vec::new();
        for (threads, to_runs) in [(2u32, false), (3, true), (4, false), (2, true), (5, true)] {
            let scope = DiffScope {
                ranges: &ranges,
                excluded: &excluded,
                rank,
                to_runs,
            };
            let mut split_twin = twin.clone();
            let mut pairs = as_pairs(&written, &mem, &mut split_twin);
            let done = diff_pairs(&mut pairs, &scope, threads, false, &mut shares);
            drop(pairs);
            let mut split = Buf::new();
            let mut w = Writer::new(&mut split, 0, stamp);
            for buf in shares.iter().take(done.len()) {
                w.copy_records(share_set(buf).unwrap().raw_records());
            }
            w.finish();
            let what = format!("{threads} threads");
            assert_eq!(done.len(), threads as usize, "{what}");
            assert!(split.as_slice() == serial.as_slice(), "{what}: other bytes");
            let unchanged: Vec<usize> = done.iter().flat_map(|d| d.unchanged.clone()).collect();
            assert_eq!(unchanged, serial_unchanged, "{what}");
            let recorded: u64 = done.iter().map(|d| d.recorded).sum();
            assert_eq!(recorded, serial_recorded, "{what}");
            assert!(split_twin == serial_twin, "{what}: other twins");
            if to_runs {
                let runs: Vec<Tickpt> = done
                    .iter()
                    .map(|d| d.runs.clone().unwrap().unwrap())
                    .collect();
                let apart: usize = runs.iter().map(|r| r.runs().count()).sum();
                let all = joined(runs);
                // runs cross from one share into the next (the pages at the cuts changed whole)
                assert!(all.runs().count() < apart, "{what}: no run crosses a cut");
                assert!(all.encode() == serial_runs, "{what}: other runs");
            }
        }
        assert!(ChangeSet::parse(serial.as_slice()).is_ok());
    }
}
