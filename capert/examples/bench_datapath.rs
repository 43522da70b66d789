//! Data-path micro-benchmark (not a test), run by scripts/bench_datapath.sh:
//!
//!     bench_datapath [--runs N] [--mib M]
//!
//! For each change pattern (dense, every 8th byte, 2 bytes per double, one byte per page) over
//! M MiB of pages (default 64, beyond the caches), the speed of each step a merge point takes:
//! - diff: page vs twin -> runs (`diff_into`, page by page as the runtime calls it);
//! - encode / decode: runs <-> the merge message (`encode_wire_into` / `decode_wire`);
//! - merge: two ranks' change sets (rank 0 changed the even pages, rank 1 the odd ones);
//! - inject: the merged runs written into tracked memory and its twin (`Tracker::inject`);
//!
//! and memcpy of the same span for comparison. Every speed is span bytes / median time, so the
//! columns compare directly with memcpy. Also the changed bytes, runs and bytes on the wire.
//! Output: a markdown table on stdout.

use std::hint::black_box;
use std::time::{Duration, Instant};

use capert::diff::diff_into;
use capert::merge::merge;
use capert::sys::mprotect::TwinMapping;
use capert::tickpt::{Stamp, Tickpt};
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

/// The change set of `pages` (page indices into `mem`/`twin`), diffed page by page.
fn diff_pages(mem: &[u8], twin: &[u8], base: u64, pages: &[usize], stamp: Stamp, out: &mut Tickpt) {
    out.clear(1);
    for &p in pages {
        let r = p * PAGE_SIZE..(p + 1) * PAGE_SIZE;
        diff_into(
            &mem[r.clone()],
            &twin[r.clone()],
            base + r.start as u64,
            stamp,
            out,
        );
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
    println!("memcpy: {:.2} GB/s", gb_per_s(span, t_memcpy));
    println!();
    println!("| pattern | changed bytes | runs | wire bytes | wire / changed | diff GB/s | encode GB/s | decode GB/s | merge GB/s | inject GB/s |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");

    let all: Vec<usize> = (0..pages).collect();
    let even: Vec<usize> = (0..pages).step_by(2).collect();
    let odd: Vec<usize> = (1..pages).step_by(2).collect();
    let base = target.base() as u64;
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
        let mut whole = Tickpt::new(1);
        let t_diff = timed(runs, || {
            diff_pages(&mem, &twin_of_pattern, base, &all, rank1, &mut whole);
            black_box(&whole);
        });
        let changed = whole.data_bytes();
        let mut wire = Vec::new();
        let t_encode = timed(runs, || {
            wire.clear();
            whole.encode_wire_into(&mut wire);
            black_box(&wire);
        });
        let t_decode = timed(runs, || {
            let decoded = Tickpt::decode_wire(&wire).unwrap_or_else(|e| fail(&e.to_string()));
            black_box(decoded);
        });
        let (mut a, mut b, mut a_page) = (Tickpt::new(1), Tickpt::new(1), Tickpt::new(1));
        diff_pages(&mem, &twin_of_pattern, base, &even, rank0, &mut a);
        diff_pages(&mem, &twin_of_pattern, base, &odd, rank1, &mut b);
        let t_merge = timed(runs, || {
            black_box(merge(&a, &b, None));
        });
        let mut expected = Tickpt::new(1);
        for &p in &all {
            let stamp = if p.is_multiple_of(2) { rank0 } else { rank1 };
            diff_pages(&mem, &twin_of_pattern, base, &[p], stamp, &mut a_page);
            for run in a_page.runs() {
                expected.push(run.addr, stamp, run.bytes);
            }
        }
        if merge(&a, &b, None) != expected {
            fail("merge of the halves differs from the whole change set");
        }
        target.bytes_mut(0, span).copy_from_slice(&twin_of_pattern);
        let t_inject = timed(runs, || {
            for run in whole.runs() {
                tracker.inject(run.addr as usize, run.bytes);
            }
        });
        if target.bytes(0, span) != mem.as_slice() {
            fail("inject did not reproduce the changed memory");
        }
        println!(
            "| {} | {} | {} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} |",
            pattern.name(),
            changed,
            whole.run_count(),
            wire.len(),
            wire.len() as f64 / changed as f64,
            gb_per_s(span, t_diff),
            gb_per_s(span, t_encode),
            gb_per_s(span, t_decode),
            gb_per_s(span, t_merge),
            gb_per_s(span, t_inject),
        );
    }
}
