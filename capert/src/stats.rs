//! Per-run counters for `CAPE_STATS`, filled by the region protocol, printed at shutdown.

use std::time::Duration;

#[derive(Debug, Default, Clone)]
pub struct Stats {
    pub regions: u64,
    pub pages_written: u64,
    pub bytes_diffed: u64,
    pub runs_local: u64,
    pub bytes_local: u64,
    pub bytes_sent: u64,
    pub bytes_injected: u64,
    /// Bytes of region payloads appended to the checkpoint log (rank 0).
    pub bytes_logged: u64,
    pub t_track: Duration,
    pub t_diff: Duration,
    pub t_merge: Duration,
    pub t_inject: Duration,
    pub t_reduce: Duration,
    /// Logging a region (payload, append, fsync), rank 0.
    pub t_log: Duration,
}

impl Stats {
    pub fn line(&self, label: &str) -> String {
        format!(
            "capert: stats: {label}: regions={} pages_written={} bytes_diffed={} runs={} run_bytes={} bytes_sent={} bytes_injected={} bytes_logged={} track_us={} diff_us={} merge_us={} inject_us={} reduce_us={} log_us={}",
            self.regions,
            self.pages_written,
            self.bytes_diffed,
            self.runs_local,
            self.bytes_local,
            self.bytes_sent,
            self.bytes_injected,
            self.bytes_logged,
            self.t_track.as_micros(),
            self.t_diff.as_micros(),
            self.t_merge.as_micros(),
            self.t_inject.as_micros(),
            self.t_reduce.as_micros(),
            self.t_log.as_micros(),
        )
    }

    pub fn add(&mut self, o: &Stats) {
        self.regions += o.regions;
        self.pages_written += o.pages_written;
        self.bytes_diffed += o.bytes_diffed;
        self.runs_local += o.runs_local;
        self.bytes_local += o.bytes_local;
        self.bytes_sent += o.bytes_sent;
        self.bytes_injected += o.bytes_injected;
        self.t_track += o.t_track;
        self.t_diff += o.t_diff;
        self.t_merge += o.t_merge;
        self.t_inject += o.t_inject;
        self.t_reduce += o.t_reduce;
        self.bytes_logged += o.bytes_logged;
        self.t_log += o.t_log;
    }
}
