//! Page-tracker micro-benchmark (not a test). One backend per process (one tracker per process):
//!
//!     bench_tracker uffd|mprotect [--runs N] [--no-elision]
//!
//! (`--no-elision`: write-fault elision off, so every written page takes a write fault.)
//!
//! 1. cost per written page: a region writes one byte in each of P pages of a populated,
//!    tracked array; timed from begin_region to the encoded TICKPT (track + diff + encode + commit
//!    + finish). Reported per page, minus the same write loop on untracked memory.
//! 3. injected pages: after a region, other ranks' bytes are injected into P pages (one 8-byte
//!    run per 64 bytes), then the next begin_region; timed from the first inject to the end of
//!    begin_region: plain, with `protect_injected` after the injections, and with
//!    `expect_injections` before them too. Per page.
//! 2. fixed overhead: the same region protocol with 1 page written while 1 MiB / 64 MiB / 1 GiB of
//!    tracked memory is populated but untouched.
//!
//! Medians of `runs` (default 11) after one warm-up run. The memory is tracked first and written
//! afterwards (outside regions), as the runtime does with its arena.

use std::time::{Duration, Instant};

use capert::diff::diff_into;
use capert::sys::mprotect::TwinMapping;
use capert::tickpt::{Stamp, Tickpt};
use capert::track::{Tracker, TrackerKind, PAGE_SIZE};

/// Anonymous memory for the "application" (a twin-style NORESERVE mapping gives safe slices).
fn mapping(len: usize) -> TwinMapping {
    TwinMapping::new(len).unwrap_or_else(|e| fail(&format!("cannot map {len} bytes: {e}")))
}

/// Writes every page once, as a program filling its arrays between regions.
fn populate(map: &mut TwinMapping, len: usize) {
    for page in map.bytes_mut(0, len).chunks_mut(PAGE_SIZE) {
        page[0] = 1;
    }
}

/// Memory tracked first and filled afterwards, as the runtime tracks the arena before the
/// program uses it (the uffd tracker can then back it with transparent huge pages).
fn tracked(tracker: &mut Tracker, len: usize) -> TwinMapping {
    let mut map = mapping(len);
    tracker
        .add_range(map.base(), len)
        .unwrap_or_else(|e| fail(&e.0));
    populate(&mut map, len);
    map
}

fn fail(message: &str) -> ! {
    eprintln!("bench_tracker: error: {message}");
    std::process::exit(1)
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort_unstable();
    samples[samples.len() / 2]
}

/// One region writing one byte in each of `pages` pages (stride `stride` pages) of `map`;
/// returns the time from begin_region to the encoded TICKPT.
#[allow(clippy::too_many_arguments)]
fn region(
    tracker: &mut Tracker,
    map: &mut TwinMapping,
    pages: usize,
    stride: usize,
    round: u64,
    interleaved: bool,
    written: &mut Vec<usize>,
    tickpt: &mut Tickpt,
    encoded: &mut Vec<u8>,
) -> Duration {
    let len = pages * stride * PAGE_SIZE;
    let mut marks = [Duration::ZERO; 6];
    let t0 = Instant::now();
    tracker.begin_region().unwrap_or_else(|e| fail(&e.0));
    marks[0] = t0.elapsed();
    let bytes = map.bytes_mut(0, len);
    for p in 0..pages {
        let at = p * stride * PAGE_SIZE + 64;
        bytes[at] = bytes[at].wrapping_add(1); // always a change for the diff to find
    }
    std::hint::black_box(&bytes[..]);
    marks[1] = t0.elapsed();
    written.clear();
    tracker.end_region(written).unwrap_or_else(|e| fail(&e.0));
    marks[2] = t0.elapsed();
    tickpt.clear(round);
    let stamp = Stamp {
        order: round,
        rank: 0,
    };
    if interleaved {
        // Commit each page right after its diff, while both copies are still in cache.
        for &page in written.iter() {
            diff_into(
                tracker.memory(page),
                tracker.twin(page),
                page as u64,
                stamp,
                tickpt,
            );
            tracker.commit(&[page]);
        }
        marks[3] = t0.elapsed();
    } else {
        for &page in written.iter() {
            diff_into(
                tracker.memory(page),
                tracker.twin(page),
                page as u64,
                stamp,
                tickpt,
            );
        }
        marks[3] = t0.elapsed();
        tracker.commit(written);
    }
    tracker.finish_region();
    marks[4] = t0.elapsed();
    encoded.clear();
    tickpt.encode_into(encoded);
    let elapsed = t0.elapsed();
    marks[5] = elapsed;
    if std::env::var_os("BENCH_PHASES").is_some() {
        let mut last = Duration::ZERO;
        let names = ["begin", "writes", "end", "diff", "commit+finish", "encode"];
        let parts: Vec<String> = names
            .iter()
            .zip(marks)
            .map(|(n, m)| {
                let part = format!("{n}={:.1}us", (m - last).as_secs_f64() * 1e6);
                last = m;
                part
            })
            .collect();
        eprintln!("  phases ({pages} pages): {}", parts.join(" "));
    }
    if written.len() != pages {
        fail(&format!(
            "tracker reported {} written pages, expected {pages}",
            written.len()
        ));
    }
    if tickpt.run_count() != pages {
        fail(&format!(
            "diff found {} runs, expected {pages}",
            tickpt.run_count()
        ));
    }
    elapsed
}

/// The write loop alone on untracked memory, to separate the application's own cost.
/// `region` writing one byte in the first page, diff and commit interleaved.
fn one_page_region(
    tracker: &mut Tracker,
    map: &mut TwinMapping,
    round: u64,
    (written, tickpt, encoded): (&mut Vec<usize>, &mut Tickpt, &mut Vec<u8>),
) -> Duration {
    region(tracker, map, 1, 1, round, true, written, tickpt, encoded)
}

fn bare_writes(map: &mut TwinMapping, pages: usize) -> Duration {
    let bytes = map.bytes_mut(0, pages * PAGE_SIZE);
    let t0 = Instant::now();
    for p in 0..pages {
        bytes[p * PAGE_SIZE + 64] = bytes[p * PAGE_SIZE + 64].wrapping_add(1);
    }
    std::hint::black_box(&bytes[..]);
    t0.elapsed()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let kind = match args.get(1).map(String::as_str) {
        Some("uffd") => TrackerKind::Uffd,
        Some("mprotect") => TrackerKind::Mprotect,
        _ => fail("usage: bench_tracker uffd|mprotect [--runs N] [--no-elision]"),
    };
    let runs: usize = match args.iter().position(|a| a == "--runs") {
        Some(i) => args.get(i + 1).and_then(|n| n.parse().ok()).unwrap_or(11),
        None => 11,
    };
    let elision = !args.iter().any(|a| a == "--no-elision");
    let new_tracker = || {
        let (mut tracker, why) = Tracker::new(Some(kind)).unwrap_or_else(|e| fail(&e.0));
        tracker.set_write_fault_elision(elision);
        (tracker, why)
    };
    let (tracker, why) = new_tracker();
    let on = if tracker.write_fault_elision() {
        "on"
    } else {
        "off"
    };
    drop(tracker);
    println!("# {why}; write-fault elision {on}; medians of {runs} runs");
    let mut written = Vec::new();
    let mut tickpt = Tickpt::new(0);
    let mut encoded = Vec::new();
    let mut round = 0u64;

    println!("## cost per written page (track + diff + encode + commit)");
    println!("# batched: diff all written pages, then commit(all); interleaved: commit(&[page])");
    println!("# right after each page's diff. us_per_page excludes the bare write loop.");
    println!(
        "{:>8} {:>10} {:>16} {:>20}",
        "pages", "bare_ms", "batched_us/page", "interleaved_us/page"
    );
    for pages in [1_000usize, 10_000, 65_536] {
        let len = pages * PAGE_SIZE;
        // A fresh tracker per case: only this case's memory is tracked.
        let mut tracker = new_tracker().0;
        let mut map = tracked(&mut tracker, len);
        let mut bare_map = mapping(len);
        populate(&mut bare_map, len);
        let mut batched = Vec::new();
        let mut interleaved = Vec::new();
        let mut bare = Vec::new();
        for run in 0..=runs {
            for (mode, samples) in [(false, &mut batched), (true, &mut interleaved)] {
                round += 1;
                let t = region(
                    &mut tracker,
                    &mut map,
                    pages,
                    1,
                    round,
                    mode,
                    &mut written,
                    &mut tickpt,
                    &mut encoded,
                );
                if run > 0 {
                    samples.push(t);
                }
            }
            let b = bare_writes(&mut bare_map, pages);
            if run > 0 {
                bare.push(b);
            }
        }
        let b = median(bare);
        let per_page = |t: Duration| t.saturating_sub(b).as_secs_f64() * 1e6 / pages as f64;
        println!(
            "{pages:>8} {:>10.3} {:>16.3} {:>20.3}",
            b.as_secs_f64() * 1e3,
            per_page(median(batched)),
            per_page(median(interleaved))
        );
    }

    println!("## injected pages: inject + next begin_region, per page");
    println!(
        "{:>8} {:>14} {:>18} {:>17}",
        "pages", "rescan_us/page", "protected_us/page", "expected_us/page"
    );
    for pages in [1_000usize, 10_000] {
        let len = pages * PAGE_SIZE;
        let mut tracker = new_tracker().0;
        let mut map = tracked(&mut tracker, len);
        let run = [7u8; 8];
        let mut cases = [Vec::new(), Vec::new(), Vec::new()];
        for r in 0..=runs {
            for (protect, samples) in cases.iter_mut().enumerate() {
                round += 1;
                one_page_region(
                    &mut tracker,
                    &mut map,
                    round,
                    (&mut written, &mut tickpt, &mut encoded),
                );
                let t0 = Instant::now();
                if protect == 2 {
                    tracker.expect_injections(std::iter::once((map.base(), len)));
                }
                for at in (0..len).step_by(64) {
                    tracker.inject(map.base() + at, &run);
                }
                if protect >= 1 {
                    tracker.protect_injected();
                }
                tracker.begin_region().unwrap_or_else(|e| fail(&e.0));
                let t = t0.elapsed();
                let mut unused = Vec::new();
                tracker
                    .end_region(&mut unused)
                    .unwrap_or_else(|e| fail(&e.0));
                tracker.commit(&unused);
                tracker.finish_region();
                if r > 0 {
                    samples.push(t);
                }
            }
        }
        let [rescan, protected, expected] =
            cases.map(|c| median(c).as_secs_f64() * 1e6 / pages as f64);
        println!("{pages:>8} {rescan:>14.3} {protected:>18.3} {expected:>17.3}");
    }

    println!("## fixed overhead: 1 page written, rest tracked, populated and untouched");
    println!("{:>10} {:>12}", "tracked", "region_us");
    let mut base_line = None;
    for mib in [1usize, 64, 1024] {
        let len = mib << 20;
        let mut tracker = new_tracker().0;
        let mut map = tracked(&mut tracker, len);
        let mut times = Vec::new();
        for run in 0..=runs {
            round += 1;
            let t = one_page_region(
                &mut tracker,
                &mut map,
                round,
                (&mut written, &mut tickpt, &mut encoded),
            );
            if run > 0 {
                times.push(t);
            }
        }
        let us = median(times).as_secs_f64() * 1e6;
        let ratio = us / *base_line.get_or_insert(us);
        println!("{:>7}MiB {us:>12.1}   ({ratio:.1}x the 1 MiB case)", mib);
    }
}
