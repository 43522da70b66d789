//! Data-path micro-benchmark (not a test), run by scripts/bench_datapath.sh:
//!
//!     bench_datapath [--runs N] [--mib M]
//!
//! For each change pattern (dense, every 8th byte, 2 bytes per double, one byte per page) over
//! M MiB of pages (default 64, beyond the caches), the speed of each step a merge point takes:
//! - diff: page vs twin -> the change set, in the form it is sent (`diff_page`, page by page
//!   as the runtime calls it, the twin brought up to date);
//! - check: the validation of a received change set (`ChangeSet::parse`);
//! - merge: two ranks' change sets (rank 0 changed the even pages, rank 1 the odd ones);
//! - inject: the merged changes written into tracked memory and its twin (`inject_others`);
//!
//! and memcpy of the same span for comparison. Every speed is span bytes / median time, so the
//! columns compare directly with memcpy. Also the changed bytes, records and bytes on the wire.
//! Output: a markdown table on stdout.

use std::hint::black_box;
use std::time::{Duration, Instant};

use cape_format::changeset::{Buf, ChangeSet, Merge, Writer};
use capert::diff::diff_page;
use capert::inject::{inject_others, Target};
use capert::sys::mprotect::TwinMapping;
use capert::tickpt::Stamp;
use capert::track::{Tracker, PAGE_SIZE};

/// How a region changed a page relative to its twin.
#[derive(Clone, Copy)]
enum Pattern {
    /// Every byte.
    Dense,
    /// Byte 0 of every 8.
    Every8th,
    /// The two high bytes of every 8-byte double (0.0 -> a value like 3.0 or 2786.5).
    TwoPerDouble,
    /// One byte per page.
    Sparse,
}

impl Pattern {
    const ALL: [Pattern; 4] = [
        Pattern::Dense,
        Pattern::Every8th,
        Pattern::TwoPerDouble,
        Pattern::Sparse,
    ];

    fn name(self) -> &'static str {
        match self {
            Pattern::Dense => "dense",
            Pattern::Every8th => "every 8th byte",
            Pattern::TwoPerDouble => "2 bytes per double",
            Pattern::Sparse => "1 byte per page",
        }
    }

    fn changes(self, offset_in_page: usize) -> bool {
        match self {
            Pattern::Dense => true,
            Pattern::Every8th => offset_in_page.is_multiple_of(8),
            Pattern::TwoPerDouble => offset_in_page % 8 >= 6,
            Pattern::Sparse => offset_in_page == 64,
        }
    }
}

fn fail(message: &str) -> ! {
    eprintln!("bench_datapath: error: {message}");
    std::process::exit(1)
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort_unstable();
    samples[samples.len() / 2]
}

/// Median time of `runs` calls of `f` after one warm-up call.
fn timed(runs: usize, mut f: impl FnMut()) -> Duration {
    f();
    median(
        (0..runs)
            .map(|_| {
                let start = Instant::now();
                f();
                start.elapsed()
            })
            .collect(),
    )
}

fn gb_per_s(bytes: usize, t: Duration) -> f64 {
    bytes as f64 / t.as_secs_f64() / 1e9
}

/// The change set of `pages` (page indices into `mem`/`twin`) by `stamp`'s rank, diffed page
/// by page into `out`; the twin pages end equal to memory.
fn diff_pages(
    mem: &[u8],
    twin: &mut [u8],
    base: u64,
    pages: &[usize],
    stamp: Stamp,
    out: &mut Buf,
) {
    out.clear();
    let mut w = Writer::new(out, 1, [stamp]);
    for &p in pages {
        let r = p * PAGE_SIZE..(p + 1) * PAGE_SIZE;
        diff_page(
            &mem[r.clone()],
            &mut twin[r.clone()],
            base + r.start as u64,
            stamp.rank,
            None,
            &mut w,
        );
    }
    w.finish();
}

/// Injects into the tracked span through the tracker (the twins follow), as the runtime does.
struct Tracked<'t>(&'t mut Tracker);

impl Target for Tracked<'_> {
    fn inject(&mut self, addr: usize, bytes: &[u8]) {
        self.0.inject(addr, bytes);
    }
    fn read(&self, addr: usize, out: &mut [u8]) {
        let page = addr & !(PAGE_SIZE - 1);
        out.copy_from_slice(&self.0.memory(page)[addr - page..addr - page + out.len()]);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let option = |name: &str, default: usize| match args.iter().position(|a| a == name) {
        Some(i) => args
            .get(i + 1)
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| fail(&format!("{name} needs a number"))),
        None => default,
    };
    let runs = option("--runs", 11);
    let span = option("--mib", 64) << 20;
    let pages = span / PAGE_SIZE;

    let (mut tracker, tracker_name) = Tracker::new(None).unwrap_or_else(|e| fail(&e.0));
    let mut target = TwinMapping::new(span).unwrap_or_else(|e| fail(&e.to_string()));
    tracker
        .add_range(target.base(), span)
        .unwrap_or_else(|e| fail(&e.0));
    target.bytes_mut(0, span).fill(0);

    let twin: Vec<u8> = (0..span).map(|i| ((i * 13) % 251) as u8 | 1).collect();
    let mut copy = vec![0u8; span];
    let t_memcpy = timed(runs, || {
        copy.copy_from_slice(&twin);
        black_box(&copy);
    });
    println!(
        "span {} MiB of {PAGE_SIZE}-byte pages; medians of {runs} runs; inject through the {tracker_name}",
        span >> 20
    );
    println!();
    println!(
        "memcpy of the same span: {:.2} GB/s",
        gb_per_s(span, t_memcpy)
    );
    println!();
    println!("| pattern | changed bytes | records | wire bytes | wire / changed | diff GB/s | check GB/s | merge GB/s | inject GB/s |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");

    let all: Vec<usize> = (0..pages).collect();
    let even: Vec<usize> = (0..pages).step_by(2).collect();
    let odd: Vec<usize> = (1..pages).step_by(2).collect();
    let base = target.base() as u64;
    let (mut whole, mut a, mut b, mut merged) = (Buf::new(), Buf::new(), Buf::new(), Buf::new());
    let mut scratch = Vec::new();
    for pattern in Pattern::ALL {
        let mut mem = twin.clone();
        for (i, b) in mem.iter_mut().enumerate() {
            if pattern.changes(i % PAGE_SIZE) {
                // twin bytes are odd, so +1 always changes them; the double pattern starts at 0.0
                *b = match pattern {
                    Pattern::TwoPerDouble => 0x40,
                    _ => b.wrapping_add(1),
                };
            }
        }
        let twin_of_pattern: Vec<u8> = match pattern {
            Pattern::TwoPerDouble => twin
                .iter()
                .enumerate()
                .map(|(i, &b)| if pattern.changes(i % PAGE_SIZE) { 0 } else { b })
                .collect(),
            _ => twin.clone(),
        };
        let rank0 = Stamp { order: 1, rank: 0 };
        let rank1 = Stamp { order: 2, rank: 1 };
        // the diff brings the twin up to date: each run starts from a fresh copy (not timed)
        let mut scratch_twin = twin_of_pattern.clone();
        let t_diff = median(
            (0..=runs)
                .map(|_| {
                    scratch_twin.copy_from_slice(&twin_of_pattern);
                    let start = Instant::now();
                    diff_pages(&mem, &mut scratch_twin, base, &all, rank1, &mut whole);
                    start.elapsed()
                })
                .skip(1)
                .collect(),
        );
        let set = ChangeSet::parse(whole.as_slice()).unwrap_or_else(|e| fail(&e.to_string()));
        let changed: usize = set.records().map(|r| r.changed_bytes()).sum();
        let records = set.records().count();
        let t_check = timed(runs, || {
            black_box(ChangeSet::parse(whole.as_slice()).unwrap_or_else(|e| fail(&e.to_string())));
        });
        scratch_twin.copy_from_slice(&twin_of_pattern);
        diff_pages(&mem, &mut scratch_twin, base, &even, rank0, &mut a);
        diff_pages(&mem, &mut scratch_twin, base, &odd, rank1, &mut b);
        let t_merge = timed(runs, || {
            merged.clear();
            let a = ChangeSet::parse(a.as_slice()).unwrap_or_else(|e| fail(&e.to_string()));
            let mut m = Merge::new(a, false, &mut merged, None, &mut scratch);
            m.feed(b.as_slice())
                .unwrap_or_else(|e| fail(&e.to_string()));
            black_box(m.finish().unwrap_or_else(|e| fail(&e.to_string())));
        });
        let merged_set =
            ChangeSet::parse(merged.as_slice()).unwrap_or_else(|e| fail(&e.to_string()));
        let merged_changed: usize = merged_set.records().map(|r| r.changed_bytes()).sum();
        if merged_changed != changed {
            fail("the merge of the halves lost or invented bytes");
        }
        target.bytes_mut(0, span).copy_from_slice(&twin_of_pattern);
        let t_inject = timed(runs, || {
            black_box(inject_others(
                &mut Tracked(&mut tracker),
                u32::MAX,
                &merged_set,
            ));
        });
        if target.bytes(0, span) != mem.as_slice() {
            fail("inject did not reproduce the changed memory");
        }
        println!(
            "| {} | {} | {} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} |",
            pattern.name(),
            changed,
            records,
            whole.len(),
            whole.len() as f64 / changed as f64,
            gb_per_s(span, t_diff),
            gb_per_s(span, t_check),
            gb_per_s(span, t_merge),
            gb_per_s(span, t_inject),
        );
    }
}
