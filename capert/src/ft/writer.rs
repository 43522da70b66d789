//! The log's background writer (world rank 0). A region end hands its net change over and
//! goes on: encoding, the append, the `fsync`s and compaction happen on this thread. A region
//! waits only for an explicit checkpoint (`sync`) or when the payloads waiting exceed the
//! bounded buffer. Whatever is waiting when the writer runs again goes into one record, so a
//! slow disk makes larger records, not slower regions; a snapshot among them supersedes the
//! regions before it, which are then written thinned, inside the compacted log.

use super::log::{Entry, Inputs};
use crate::tickpt::Tickpt;
use cape_format::log_compact::{covered, CallState, Snapshot};
use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

/// One logged region as rank 0 hands it over (encoded by the writer).
pub struct Logged {
    pub fingerprint: u64,
    pub inputs: Inputs,
    pub change: Tickpt,
}

/// The state after a region, to become the compacted log's snapshot (`image` not encoded yet),
/// with the regions handed over with it (thinned already in snapshot mode: they must never be
/// written without it).
pub struct SnapshotJob {
    pub regions: Vec<Logged>,
    pub region: u64,
    pub control: u64,
    pub sp: u64,
    pub output: [u64; 2],
    pub call: CallState,
    pub image: Tickpt,
}

pub enum Job {
    /// Consecutive regions starting at the writer's next one.
    Regions(Vec<Logged>),
    /// Taken at the end of the last of its regions.
    Snapshot(SnapshotJob),
}

impl Job {
    fn bytes(&self) -> usize {
        match self {
            Job::Regions(r) => r.iter().map(|l| l.change.encoded_len()).sum(),
            Job::Snapshot(s) => {
                s.image.encoded_len()
                    + s.regions
                        .iter()
                        .map(|l| l.change.encoded_len())
                        .sum::<usize>()
            }
        }
    }
}

/// Where the writer's records go (the log file; a slow in-memory one in the tests).
pub trait Sink: Send + 'static {
    /// Makes `entries` (the regions after the durable ones) durable as one record.
    fn append(&mut self, entries: Vec<Entry>) -> Result<(), String>;
    /// Makes `entries` and then `snapshot` (taken after the last of them) durable as a
    /// compacted log; `covered` are the address ranges of the snapshot's image (sorted), known
    /// before it was encoded.
    fn compact(
        &mut self,
        entries: Vec<Entry>,
        snapshot: Snapshot,
        covered: Vec<(u64, u64)>,
    ) -> Result<(), String>;
}

#[derive(Default)]
struct Queue {
    jobs: VecDeque<(Job, usize)>,
    /// Payload bytes handed over and not durable yet (queued or being written).
    waiting: usize,
    busy: bool,
    durable: u64,
    error: Option<String>,
    closed: bool,
    /// Region ends that waited for the buffer.
    stalls: u64,
}

struct Shared {
    queue: Mutex<Queue>,
    changed: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }
}

pub struct Background {
    shared: Arc<Shared>,
    limit: usize,
    thread: Option<JoinHandle<()>>,
}

impl Background {
    /// Starts the writer over `sink`, whose log holds `durable` regions; region ends wait
    /// while more than `limit` payload bytes are waiting.
    pub fn start<S: Sink>(sink: S, durable: u64, limit: usize) -> Result<Background, String> {
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue {
                durable,
                ..Queue::default()
            }),
            changed: Condvar::new(),
        });
        let s2 = shared.clone();
        let thread = std::thread::Builder::new()
            .name("capert-log".into())
            .spawn(move || run(&s2, sink))
            .map_err(|e| format!("cannot start the checkpoint log's writer thread: {e}"))?;
        Ok(Background {
            shared,
            limit,
            thread: Some(thread),
        })
    }

    /// Hands a job over; waits first while the buffer is over its limit. An earlier write
    /// error is returned instead.
    pub fn submit(&self, job: Job) -> Result<(), String> {
        let bytes = job.bytes();
        let mut q = self.shared.lock();
        let mut stalled = false;
        while q.error.is_none() && q.waiting > 0 && q.waiting + bytes > self.limit {
            stalled = true;
            q = self
                .shared
                .changed
                .wait(q)
                .unwrap_or_else(|e| e.into_inner());
        }
        q.stalls += u64::from(stalled);
        if let Some(e) = &q.error {
            return Err(e.clone());
        }
        q.waiting += bytes;
        q.jobs.push_back((job, bytes));
        self.shared.changed.notify_all();
        Ok(())
    }

    /// Waits until everything handed over is durable.
    pub fn sync(&self) -> Result<(), String> {
        let mut q = self.shared.lock();
        while q.error.is_none() && (q.busy || !q.jobs.is_empty()) {
            q = self
                .shared
                .changed
                .wait(q)
                .unwrap_or_else(|e| e.into_inner());
        }
        q.error.clone().map_or(Ok(()), Err)
    }

    /// The write error that stopped the writer, if any.
    pub fn error(&self) -> Option<String> {
        self.shared.lock().error.clone()
    }

    /// Regions durable in the log.
    /// Whether nothing is queued or being written.
    pub fn idle(&self) -> bool {
        let q = self.shared.lock();
        q.jobs.is_empty() && !q.busy
    }

    pub fn durable(&self) -> u64 {
        self.shared.lock().durable
    }

    /// Region ends that waited for the bounded buffer so far.
    pub fn stalls(&self) -> u64 {
        self.shared.lock().stalls
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.changed.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn entry(l: Logged) -> Entry {
    Entry {
        fingerprint: l.fingerprint,
        inputs: l.inputs,
        tickpt: l.change.encode(),
    }
}

/// The writer thread: takes everything waiting, writes it, repeats until closed.
fn run<S: Sink>(shared: &Shared, mut sink: S) {
    loop {
        let jobs: Vec<(Job, usize)> = {
            let mut q = shared.lock();
            while q.jobs.is_empty() && !q.closed {
                q = shared.changed.wait(q).unwrap_or_else(|e| e.into_inner());
            }
            if q.jobs.is_empty() || q.error.is_some() {
                return;
            }
            q.busy = true;
            q.jobs.drain(..).collect()
        };
        let bytes: usize = jobs.iter().map(|(_, b)| b).sum();
        let result = write(&mut sink, jobs);
        let mut q = shared.lock();
        q.busy = false;
        q.waiting -= bytes.min(q.waiting);
        match result {
            Ok((n, _)) => q.durable += n,
            Err(e) => q.error = Some(e),
        }
        shared.changed.notify_all();
    }
}

/// Writes a batch of jobs: the regions before the last snapshot and the snapshot as one
/// compaction (earlier snapshots of the batch are superseded), the regions after it as one
/// record. Returns how many regions became durable and whether it compacted.
fn write<S: Sink>(sink: &mut S, jobs: Vec<(Job, usize)>) -> Result<(u64, bool), String> {
    let last_snapshot = jobs
        .iter()
        .rposition(|(j, _)| matches!(j, Job::Snapshot(_)));
    let mut entries = Vec::new();
    let mut durable = 0;
    for (i, (job, _)) in jobs.into_iter().enumerate() {
        match job {
            Job::Regions(r) => entries.extend(r.into_iter().map(entry)),
            Job::Snapshot(s) if Some(i) == last_snapshot => {
                entries.extend(s.regions.into_iter().map(entry));
                durable += entries.len() as u64;
                let ranges = covered(&s.image);
                let snapshot = Snapshot {
                    region: s.region,
                    control: s.control,
                    sp: s.sp,
                    output: s.output,
                    call: s.call,
                    image: s.image.encode(),
                };
                sink.compact(std::mem::take(&mut entries), snapshot, ranges)?;
            }
            Job::Snapshot(s) => entries.extend(s.regions.into_iter().map(entry)),
        }
    }
    if !entries.is_empty() {
        durable += entries.len() as u64;
        sink.append(entries)?;
    }
    Ok((durable, last_snapshot.is_some()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tickpt::Stamp;
    use std::sync::mpsc;
    use std::time::Duration;

    /// Records what it is asked to write; each write blocks until the test lets it go.
    struct Gated {
        done: mpsc::Sender<(usize, bool)>,
        go: mpsc::Receiver<()>,
    }

    impl Sink for Gated {
        fn append(&mut self, entries: Vec<Entry>) -> Result<(), String> {
            self.go.recv().map_err(|e| e.to_string())?;
            let _ = self.done.send((entries.len(), false));
            Ok(())
        }
        fn compact(
            &mut self,
            entries: Vec<Entry>,
            _: Snapshot,
            _: Vec<(u64, u64)>,
        ) -> Result<(), String> {
            self.go.recv().map_err(|e| e.to_string())?;
            let _ = self.done.send((entries.len(), true));
            Ok(())
        }
    }

    fn region(bytes: usize) -> Job {
        let mut change = Tickpt::new(0);
        change.push(0x1000, Stamp { order: 1, rank: 0 }, &vec![7; bytes]);
        Job::Regions(vec![Logged {
            fingerprint: 0,
            inputs: Inputs::default(),
            change,
        }])
    }

    fn snapshot() -> Job {
        Job::Snapshot(SnapshotJob {
            regions: Vec::new(),
            region: 0,
            control: 0,
            sp: 0,
            output: [0, 0],
            call: CallState::default(),
            image: Tickpt::new(0),
        })
    }

    fn gated(
        limit: usize,
    ) -> (
        Arc<Background>,
        mpsc::Receiver<(usize, bool)>,
        mpsc::Sender<()>,
    ) {
        let (done, written) = mpsc::channel();
        let (release, go) = mpsc::channel();
        let bg = Background::start(Gated { done, go }, 0, limit).unwrap();
        (Arc::new(bg), written, release)
    }

    /// Region ends do not wait for a slow writer until the buffer is full; then they wait
    /// for it.
    #[test]
    fn bounded_buffer_blocks_only_when_full() {
        let (bg, written, release) = gated(10_000);
        bg.submit(region(4000)).unwrap(); // taken by the writer, blocked in the sink
        std::thread::sleep(Duration::from_millis(50));
        bg.submit(region(4000)).unwrap();
        let bg2 = bg.clone();
        let (sent, third) = mpsc::channel();
        std::thread::spawn(move || {
            bg2.submit(region(4000)).unwrap();
            let _ = sent.send(());
        });
        assert!(
            third.recv_timeout(Duration::from_millis(200)).is_err(),
            "a third region fitted into a full buffer"
        );
        release.send(()).unwrap();
        assert_eq!(written.recv().unwrap(), (1, false));
        third.recv_timeout(Duration::from_secs(5)).unwrap();
        release.send(()).unwrap();
        release.send(()).unwrap();
        bg.sync().unwrap();
        let rest: usize = written.try_iter().map(|(n, _)| n).sum();
        assert_eq!(rest, 2);
        assert_eq!((bg.durable(), bg.stalls()), (3, 1));
    }

    /// A snapshot supersedes the regions queued before it (one compaction) and an earlier
    /// snapshot in the same batch.
    #[test]
    fn snapshot_takes_the_regions_before_it() {
        let (bg, written, release) = gated(1 << 30);
        assert!(bg.idle());
        bg.submit(region(10)).unwrap();
        std::thread::sleep(Duration::from_millis(50));
        assert!(!bg.idle(), "a job being written");
        for job in [region(10), snapshot(), region(10), snapshot(), region(10)] {
            bg.submit(job).unwrap();
        }
        for _ in 0..3 {
            release.send(()).unwrap();
        }
        bg.sync().unwrap();
        let got: Vec<_> = written.try_iter().collect();
        assert_eq!(got, [(1, false), (2, true), (1, false)]);
        assert_eq!(bg.durable(), 4);
        assert!(bg.idle());
    }

    struct Failing;
    impl Sink for Failing {
        fn append(&mut self, _: Vec<Entry>) -> Result<(), String> {
            Err("disk full".into())
        }
        fn compact(
            &mut self,
            _: Vec<Entry>,
            _: Snapshot,
            _: Vec<(u64, u64)>,
        ) -> Result<(), String> {
            Err("disk full".into())
        }
    }

    #[test]
    fn a_write_error_reaches_the_next_call() {
        let bg = Background::start(Failing, 0, 1 << 20).unwrap();
        bg.submit(region(1)).unwrap();
        assert_eq!(bg.sync(), Err("disk full".to_string()));
        assert!(bg.submit(region(1)).is_err());
    }
}
