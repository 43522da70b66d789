//! Micro-benchmarks of the pure runtime core (not a test):
//!
//!     cargo run --release -p capert --example bench_core [diff|merge|tickpt]...
//!
//! diff: written page vs twin into runs (identical, sparse, all changed); merge: two ranks'
//! interleaved runs; tickpt: XXH64, encode and decode of the on-disk format. No argument runs
//! all. (The merge point's data path, change sets, is measured by bench_datapath.)

use std::hint::black_box;
use std::time::Instant;

use capert::diff::diff_into;
use capert::merge::merge;
use capert::tickpt::{xxh64, Stamp, Tickpt};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let wanted = |name: &str| args.is_empty() || args.iter().any(|a| a == name);
    if wanted("diff") {
        bench_diff();
    }
    if wanted("merge") {
        bench_merge();
    }
    if wanted("tickpt") {
        bench_checksum_and_encode();
    }
}

/// Best of `reps` timings, so that other load on the machine does not hide the real speed.
fn gb_per_s(bytes: usize, reps: usize, mut f: impl FnMut()) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..reps {
        let start = Instant::now();
        f();
        best = best.min(start.elapsed().as_secs_f64());
    }
    bytes as f64 / best / 1e9
}

fn bench_diff() {
    const STAMP: Stamp = Stamp { order: 4, rank: 2 };
    for size in [256usize << 10, 64 << 20] {
        let twin: Vec<u8> = (0..size as u32).map(|i| (i * 13) as u8).collect();
        let mut mem = twin.clone();
        let mut out = Tickpt::new(0);
        let reps = ((16usize << 20) / size).max(1);
        let mut run = |mem: &[u8]| {
            gb_per_s(reps * size, 30, || {
                for _ in 0..reps {
                    out.clear(0);
                    diff_into(black_box(mem), &twin, 0, STAMP, &mut out);
                }
            })
        };
        let identical = run(&mem);
        // Two changed bytes per 4 KiB page, as in a sparse update.
        for page in mem.chunks_mut(4096) {
            page[1000] ^= 0xFF;
            page[1001] ^= 0xFF;
        }
        let sparse = run(&mem);
        for b in &mut mem {
            *b = !*b;
        }
        let dense = run(&mem);
        println!(
            "diff {:>6} KiB: identical {identical:.2} GB/s, sparse {sparse:.2} GB/s, \
             all changed {dense:.2} GB/s",
            size >> 10
        );
    }
}

fn bench_merge() {
    // Two ranks, interleaved 1 KiB runs over 64 MiB, half of them overlapping.
    let run = vec![3u8; 1024];
    let mut a = Tickpt::new(0);
    let mut b = Tickpt::new(0);
    for k in 0..32 * 1024u64 {
        a.push(k * 2048, Stamp { order: k, rank: 0 }, &run);
        b.push(k * 2048 + 512, Stamp { order: k, rank: 1 }, &run);
    }
    let mut m = Tickpt::new(0);
    let mut secs = f64::MAX;
    for _ in 0..10 {
        let start = Instant::now();
        let mut races = Vec::new();
        m = merge(&a, &b, Some(&mut races));
        secs = secs.min(start.elapsed().as_secs_f64());
    }
    println!(
        "merge: {:.2} GB/s of input, {} runs out",
        (a.data_bytes() + b.data_bytes()) as f64 / secs / 1e9,
        m.run_count()
    );
}

fn bench_checksum_and_encode() {
    for size in [256usize << 10, 64 << 20] {
        let data: Vec<u8> = (0..size as u32).map(|i| (i * 31) as u8).collect();
        let hash = gb_per_s(size, 20, || {
            black_box(xxh64(black_box(&data), 0));
        });
        // One run per 4 KiB page, as when every written page changed completely.
        let mut t = Tickpt::new(1);
        for (i, page) in data.chunks(4096).enumerate() {
            t.push(i as u64 * 8192, Stamp { order: 0, rank: 0 }, page);
        }
        let mut buf = Vec::new();
        let encode = gb_per_s(size, 20, || {
            buf.clear();
            t.encode_into(&mut buf);
        });
        let decode = gb_per_s(size, 20, || {
            black_box(Tickpt::decode(black_box(&buf)).is_ok());
        });
        assert_eq!(Tickpt::decode(&buf).as_ref(), Ok(&t));
        println!(
            "tickpt {:>6} KiB: xxh64 {hash:.2} GB/s, encode {encode:.2} GB/s, \
             decode {decode:.2} GB/s",
            size >> 10
        );
    }
}
