//! Exactly-once output across restarts. On rank 0, with a checkpoint directory, fds 1 and 2
//! are pipes read by a forwarding thread (which makes no MPI calls) that writes the bytes to
//! the real descriptors and stores how many bytes of each stream were delivered in
//! `DIR/output`. A restarted run re-executes the same sequential code, so it prints the same
//! bytes again: the thread discards the first `delivered` bytes of each stream.
//!
//! Inside regions rank 0 writes directly (uncounted), like every other rank: replayed regions
//! do not run, so their output must not be part of the counted stream. The pipes are drained
//! before each switch so that the order on the terminal is kept.
//!
//! A chunk is counted after it is written: a kill between the two repeats at most that chunk.

use crate::sys::checkpoint_dir::CheckpointDir;
use crate::sys::fd;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

struct Streams {
    read: [i32; 2],
    real: [i32; 2],
    /// Bytes delivered by earlier attempts (discarded now).
    skip: [u64; 2],
    /// Bytes the program wrote to each stream since it started (as far as this attempt knows).
    count: [u64; 2],
    /// Replaying regions a snapshot thinned: the sequential code runs on an earlier state, so
    /// what it prints is dropped, uncounted, until the snapshot's region (`rebase`).
    discard: bool,
    counts_file: File,
}

impl Streams {
    fn forward(&mut self, i: usize, bytes: &[u8]) {
        if self.discard {
            return;
        }
        let before = self.count[i];
        self.count[i] += bytes.len() as u64;
        let skip_here = self.skip[i].saturating_sub(before).min(bytes.len() as u64) as usize;
        fd::write_all(self.real[i], &bytes[skip_here..]);
    }

    fn persist(&self) {
        let line = format!(
            "{:020} {:020}\n",
            self.count[0].max(self.skip[0]),
            self.count[1].max(self.skip[1])
        );
        let _ = self.counts_file.write_all_at(line.as_bytes(), 0);
    }

    /// Moves everything waiting in the pipes to the real descriptors.
    fn pump(&mut self, buf: &mut [u8]) -> bool {
        let mut any = false;
        for i in 0..2 {
            loop {
                let n = fd::read_some(self.read[i], buf);
                if n == 0 {
                    break;
                }
                any = true;
                self.forward(i, &buf[..n]);
            }
        }
        if any {
            self.persist();
        }
        any
    }
}

struct Output {
    streams: Arc<Mutex<Streams>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    write: [i32; 2],
    real: [i32; 2],
}

static OUTPUT: Mutex<Option<Output>> = Mutex::new(None);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Reads `DIR/output` (missing or unreadable: nothing delivered yet).
pub fn delivered(dir: &CheckpointDir) -> [u64; 2] {
    let bytes = dir.read_at_most("output", 4096).unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes);
    let mut it = text
        .split_whitespace()
        .map(|w| w.parse::<u64>().unwrap_or(0));
    [it.next().unwrap_or(0), it.next().unwrap_or(0)]
}

/// Starts forwarding fds 1 and 2 (rank 0). `real`: duplicates of the original descriptors.
/// `discard`: drop the output until `rebase`.
pub fn start(
    dir: &CheckpointDir,
    real: [i32; 2],
    skip: [u64; 2],
    discard: bool,
) -> Result<(), String> {
    let counts_file = dir
        .open_or_create("output")
        .map_err(|e| format!("cannot open `{}`: {e}", dir.join("output").display()))?;
    let (r1, w1) = fd::pipe_cloexec().map_err(|e| format!("cannot create a pipe: {e}"))?;
    let (r2, w2) = fd::pipe_cloexec().map_err(|e| format!("cannot create a pipe: {e}"))?;
    let streams = Streams {
        read: [r1, r2],
        real,
        skip,
        count: [0, 0],
        discard,
        counts_file,
    };
    streams.persist();
    let streams = Arc::new(Mutex::new(streams));
    let stop = Arc::new(AtomicBool::new(false));
    let (s2, stop2) = (streams.clone(), stop.clone());
    let thread = std::thread::Builder::new()
        .name("capert-output".into())
        .spawn(move || {
            let mut buf = vec![0u8; 1 << 16];
            loop {
                fd::poll_readable(&[r1, r2], 20);
                let any = lock(&s2).pump(&mut buf);
                if !any && stop2.load(Ordering::Acquire) {
                    return;
                }
            }
        })
        .map_err(|e| format!("cannot start the output thread: {e}"))?;
    let out = Output {
        streams,
        stop,
        thread: Some(thread),
        write: [w1, w2],
        real,
    };
    out.route(out.write);
    *lock(&OUTPUT) = Some(out);
    Ok(())
}

impl Output {
    fn route(&self, to: [i32; 2]) {
        fd::flush_c_stdio();
        for (i, &fdn) in to.iter().enumerate() {
            if fdn >= 0 {
                let _ = fd::dup2(fdn, i as i32 + 1);
            }
        }
    }

    /// Returns once everything written to the pipes so far has been forwarded.
    fn drain(&self) {
        fd::flush_c_stdio();
        loop {
            {
                // Holding the lock: the thread is not between a read and its write.
                let s = lock(&self.streams);
                if s.read.iter().all(|&r| fd::bytes_available(r) == 0) {
                    return;
                }
            }
            std::thread::sleep(Duration::from_micros(50));
        }
    }
}

/// Region entry on rank 0: drain, then write directly.
pub fn direct() {
    if let Some(o) = lock(&OUTPUT).as_ref() {
        o.drain();
        o.route(o.real);
    }
}

/// Rank 0: bytes the program has written to stdout and stderr (outside regions) so far.
pub fn counts() -> [u64; 2] {
    lock(&OUTPUT)
        .as_ref()
        .map_or([0, 0], |o| lock(&o.streams).count)
}

/// Rank 0 at the snapshot's region of a replay: what was printed so far is dropped, and the
/// program has now written `count` bytes of each stream, as when the snapshot was taken.
pub fn rebase(count: [u64; 2]) {
    if let Some(o) = lock(&OUTPUT).as_ref() {
        o.drain();
        let mut s = lock(&o.streams);
        s.discard = false;
        s.count = count;
    }
}

/// Region exit on rank 0: back through the pipes.
pub fn piped() {
    if let Some(o) = lock(&OUTPUT).as_ref() {
        o.route(o.write);
    }
}

/// Shutdown: forward everything, stop the thread, give the real descriptors back.
/// `try_only`: do nothing when another caller holds the state (fatal error paths).
pub fn finish(try_only: bool) {
    let mut guard = if try_only {
        match OUTPUT.try_lock() {
            Ok(g) => g,
            Err(_) => return,
        }
    } else {
        lock(&OUTPUT)
    };
    let Some(mut o) = guard.take() else {
        return;
    };
    o.drain();
    o.stop.store(true, Ordering::Release);
    // With the real descriptors back and the write ends closed, the thread's poll returns at
    // once (end of file) instead of at its next timeout.
    o.route(o.real);
    for w in o.write {
        fd::close(w);
    }
    if let Some(t) = o.thread.take() {
        let _ = t.join();
    }
}
