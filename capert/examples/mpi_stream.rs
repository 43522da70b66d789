//! The streamed MPI exchange of the merge, under mpirun:
//!
//!     mpirun -np P mpi_stream check [--chunk BYTES]
//!     mpirun -np 2 mpi_stream bench [--runs N] [--mib M] [--chunk BYTES]
//!
//! `check` (run by capert/tests/run_c_tests.sh at P = 2, 3, 5) runs the allreduce's
//! communication steps for messages of 0 B, 1 B, chunk - 1, chunk, chunk + 1 and 20 MiB, every
//! pair streaming both ways at once (one way for the fold steps of non-powers of two), and
//! checks every byte, the prefixes given to the consumer, the buffer's reuse and the bytes-sent
//! count; then again with a different piece size on every rank; then a consumer that fails.
//! Prints `ok` on rank 0.
//!
//! `bench` (run by scripts/bench_datapath.sh) is the ping-pong of that script, M MiB from rank
//! 0 to rank 1 and back, and the exchange of a merge round (both ranks send at once), each as
//! one plain MPI message and streamed, alternately in every run so that both meet the same
//! load on a shared machine; prints markdown table rows of the GB/s in one direction (medians
//! of N runs).

use capert::allreduce::{steps, Step, Transport};
use capert::sys::mpi::Comm;
use mpi::point_to_point::{Destination, Source};
use mpi::topology::{Communicator, SimpleCommunicator};
use std::time::Instant;

fn fail(rank: usize, message: &str) -> ! {
    eprintln!("mpi_stream: rank {rank}: error: {message}");
    capert::sys::mpi::abort_job(1)
}

/// The bytes `from` sends to `to` in a message of `len` bytes.
fn message(from: usize, to: usize, len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| {
            (i ^ (i >> 11) ^ (i >> 19))
                .wrapping_mul(31)
                .wrapping_add(from * 17 + to * 5) as u8
        })
        .collect()
}

/// Receives the `len`-byte stream of `peer` (exchanging `data` when given) and checks what the
/// consumer saw: growing prefixes of the expected message, the last one whole. Returns the
/// number of consumer calls.
fn receive_checked(
    comm: &mut Comm,
    peer: usize,
    data: Option<&[u8]>,
    len: usize,
    into: &mut Vec<u8>,
) -> usize {
    let rank = comm.rank();
    let want = message(peer, rank, len);
    let mut seen: Vec<usize> = Vec::new();
    let mut progress = |prefix: &[u8]| {
        if seen.last().is_some_and(|&n| n >= prefix.len()) {
            return Err(format!("a prefix of {} bytes after {seen:?}", prefix.len()));
        }
        if want.get(..prefix.len()) != Some(prefix) {
            return Err(format!(
                "the {}-byte prefix from rank {peer} differs",
                prefix.len()
            ));
        }
        seen.push(prefix.len());
        Ok(())
    };
    let result = match data {
        Some(d) => comm.exchange_stream(peer, d, into, &mut progress),
        None => comm.recv_stream(peer, into, &mut progress),
    };
    result.unwrap_or_else(|e| fail(rank, &e));
    if into.as_slice() != want.as_slice() {
        fail(
            rank,
            &format!(
                "{} bytes from rank {peer}, want {len}, or they differ",
                into.len()
            ),
        );
    }
    if seen.last() != Some(&len) {
        fail(
            rank,
            &format!("consumer calls {seen:?} for a {len}-byte message"),
        );
    }
    seen.len()
}

/// One pass of every size through the allreduce's steps; `chunk` is the piece size every rank
/// uses when `uniform`, else this rank's own.
fn check_pass(comm: &mut Comm, chunk: usize, uniform: bool) {
    let (rank, size) = (comm.rank(), comm.size());
    let mine = if uniform {
        chunk
    } else {
        chunk / 2 + 1000 * rank + 7
    };
    comm.set_merge_chunk(mine);
    let mut into = Vec::new();
    let mut capacity = 0;
    // Whether a message of several pieces was consumed in several steps (a 20 MiB one cannot
    // arrive all at once every time, or nothing overlaps).
    let (mut big, mut split) = (0, 0);
    // around the head (the first 16 KiB travel with the header) and around a piece
    let head = 16 << 10;
    for len in [
        20 << 20,
        0,
        1,
        head - 1,
        head,
        head + 1,
        chunk - 1,
        chunk,
        chunk + 1,
    ] {
        for step in steps(size, rank) {
            let sent_before = comm.bytes_sent;
            let (peer, sent, calls) = match step {
                Step::Exchange(peer) => {
                    let data = message(rank, peer, len);
                    (
                        peer,
                        len,
                        Some(receive_checked(comm, peer, Some(&data), len, &mut into)),
                    )
                }
                Step::SendTo(peer) => {
                    let data = message(rank, peer, len);
                    comm.send_stream(peer, &data)
                        .unwrap_or_else(|e| fail(rank, &e));
                    (peer, len, None)
                }
                Step::RecvFrom(peer) => (
                    peer,
                    0,
                    Some(receive_checked(comm, peer, None, len, &mut into)),
                ),
            };
            if comm.bytes_sent - sent_before != sent as u64 {
                fail(
                    rank,
                    &format!(
                        "bytes_sent grew by {} for {sent} bytes",
                        comm.bytes_sent - sent_before
                    ),
                );
            }
            let Some(calls) = calls else { continue };
            let peer_piece = if uniform {
                chunk
            } else {
                chunk / 2 + 1000 * peer + 7
            };
            let pieces = 1 + len.saturating_sub(head).div_ceil(peer_piece);
            if calls > pieces {
                fail(
                    rank,
                    &format!("{calls} consumer calls for {len} bytes in pieces of {peer_piece}"),
                );
            }
            if len == 20 << 20 {
                big += 1;
                split += usize::from(calls > 1);
            }
            if into.capacity() < capacity {
                fail(rank, "the receive buffer shrank");
            }
            capacity = into.capacity();
        }
    }
    if big > 0 && split == 0 {
        fail(
            rank,
            "every 20 MiB message reached the consumer in one piece",
        );
    }
}

/// A consumer that fails on a large message: the error comes back, the buffer is empty, and
/// the next message between the same ranks arrives intact.
fn check_failing_consumer(comm: &mut Comm, chunk: usize) {
    let rank = comm.rank();
    comm.set_merge_chunk(chunk);
    let mut into = Vec::new();
    for (len, fails) in [(3 * chunk + 5, true), (chunk + 1, false)] {
        for step in steps(comm.size(), rank) {
            let mut calls = 0;
            let mut refuse = |_: &[u8]| {
                calls += 1;
                Err("refused".to_string())
            };
            let result = match step {
                Step::SendTo(peer) => {
                    let data = message(rank, peer, len);
                    comm.send_stream(peer, &data)
                        .unwrap_or_else(|e| fail(rank, &e));
                    continue;
                }
                Step::Exchange(peer) if !fails => {
                    let data = message(rank, peer, len);
                    receive_checked(comm, peer, Some(&data), len, &mut into);
                    continue;
                }
                Step::RecvFrom(peer) if !fails => {
                    receive_checked(comm, peer, None, len, &mut into);
                    continue;
                }
                Step::Exchange(peer) => {
                    let data = message(rank, peer, len);
                    comm.exchange_stream(peer, &data, &mut into, &mut refuse)
                }
                Step::RecvFrom(peer) => comm.recv_stream(peer, &mut into, &mut refuse),
            };
            if result != Err("refused".to_string()) || calls != 1 || !into.is_empty() {
                fail(
                    rank,
                    &format!(
                        "a refusing consumer: {result:?} after {calls} calls, {} bytes left",
                        into.len()
                    ),
                );
            }
        }
    }
}

fn option(args: &[String], name: &str, default: usize) -> usize {
    match args.iter().position(|a| a == name) {
        Some(i) => args
            .get(i + 1)
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| fail(0, &format!("{name} needs a number"))),
        None => default,
    }
}

fn median_seconds(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// Ping-pong and simultaneous exchange of `len` bytes between ranks 0 and 1, as one plain MPI
/// message into a ready buffer and streamed, alternately in every run so both see the same load.
fn bench(comm: &mut Comm, runs: usize, len: usize, chunk: usize) {
    let rank = comm.rank();
    if comm.size() != 2 {
        fail(rank, "bench runs on 2 ranks");
    }
    comm.set_merge_chunk(chunk);
    let world = SimpleCommunicator::world();
    let (peer, other) = (1 - rank, world.process_at_rank(1 - rank as i32));
    let data = message(rank, peer, len);
    let mut whole = vec![0u8; len];
    let mut into = Vec::new();
    let mut ignore = |_: &[u8]| Ok(());
    // [whole ping-pong, streamed ping-pong, whole exchange, streamed exchange]
    let mut times: [Vec<f64>; 4] = Default::default();
    for run in 0..=runs {
        // run 0 warms up (and grows the buffers)
        for (kind, samples) in times.iter_mut().enumerate() {
            comm.barrier();
            let start = Instant::now();
            let result = match (kind, rank) {
                (0, 0) => {
                    other.send(&data[..]);
                    other.receive_into(&mut whole[..]);
                    Ok(())
                }
                (0, _) => {
                    other.receive_into(&mut whole[..]);
                    other.send(&whole[..]);
                    Ok(())
                }
                (1, 0) => comm
                    .send_stream(peer, &data)
                    .and_then(|()| comm.recv_stream(peer, &mut into, &mut ignore)),
                (1, _) => comm
                    .recv_stream(peer, &mut into, &mut ignore)
                    .and_then(|()| comm.send_stream(peer, &into)),
                (2, _) => {
                    mpi::request::scope(|scope| {
                        let sent = other.immediate_send(scope, &data[..]);
                        other.receive_into(&mut whole[..]);
                        sent.wait();
                    });
                    Ok(())
                }
                _ => comm.exchange_stream(peer, &data, &mut into, &mut ignore),
            };
            result.unwrap_or_else(|e| fail(rank, &e));
            if run > 0 {
                samples.push(start.elapsed().as_secs_f64());
            }
        }
    }
    if rank == 0 {
        let (mib, kib) = (len >> 20, chunk >> 10);
        let gbs =
            |samples: Vec<f64>, trips: f64| len as f64 * trips / median_seconds(samples) / 1e9;
        let [pp_whole, pp_streamed, x_whole, x_streamed] = times;
        println!(
            "| {mib} MiB, one message (Rust, same run) | {:.2} |",
            gbs(pp_whole, 2.0)
        );
        println!(
            "| {mib} MiB, streamed in {kib} KiB pieces | {:.2} |",
            gbs(pp_streamed, 2.0)
        );
        println!(
            "| {mib} MiB, both ranks at once, one message each way | {:.2} |",
            gbs(x_whole, 1.0)
        );
        println!(
            "| {mib} MiB, both ranks at once, streamed in {kib} KiB pieces | {:.2} |",
            gbs(x_streamed, 1.0)
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut comm = Comm::init(false).unwrap_or_else(|e| fail(0, &e));
    let chunk = option(&args, "--chunk", capert::config::DEFAULT_MERGE_CHUNK);
    match args.get(1).map(String::as_str) {
        Some("check") => {
            if chunk < 2 {
                fail(comm.rank(), "--chunk must be at least 2");
            }
            check_pass(&mut comm, chunk, true);
            check_pass(&mut comm, chunk, false);
            check_failing_consumer(&mut comm, chunk);
            comm.barrier();
            if comm.rank() == 0 {
                println!("ok");
            }
        }
        Some("bench") => {
            let runs = option(&args, "--runs", 11);
            let len = option(&args, "--mib", 64) << 20;
            bench(&mut comm, runs, len, chunk);
        }
        _ => fail(
            comm.rank(),
            "usage: mpi_stream check|bench [--chunk BYTES] [--runs N] [--mib M]",
        ),
    }
    comm.finalize();
}
