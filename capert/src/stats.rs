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
    /// Demand-driven merge: pages announced by a notice instead of sent.
    pub lazy_notices: u64,
    /// Demand-driven merge: pages this rank published as their home.
    pub lazy_published: u64,
    /// Demand-driven merge: pages this rank fetched at a fault (or before using them).
    pub lazy_fetched: u64,
    /// Demand-driven merge: time this rank's threads waited for fetches.
    pub t_fetch: Duration,
    /// Demand-driven merge: of `lazy_fetched`, pages fetched at a merge point because this
    /// rank read them after their previous publication (the reader prefetch).
    pub lazy_prefetched: u64,
}

impl Stats {
    /// One line of counters; the byte counts over their phase's time as GB/s after the
    /// microseconds (diff: bytes diffed, merge: bytes sent, inject: bytes injected, log: bytes
    /// logged), then `rank=R` when `rank` is given. Fields are only ever appended, so that
    /// readers of older lines keep working.
    pub fn line(&self, label: &str, rank: Option<usize>) -> String {
        let rank = rank.map_or(String::new(), |r| format!(" rank={r}"));
        format!(
            "capert: stats: {label}: regions={} pages_written={} bytes_diffed={} runs={} run_bytes={} bytes_sent={} bytes_injected={} bytes_logged={} track_us={} diff_us={} merge_us={} inject_us={} reduce_us={} log_us={} diff_gbps={:.2} merge_gbps={:.2} inject_gbps={:.2} log_gbps={:.2} notices={} pages_published={} pages_fetched={} bytes_fetched={} fetch_wait_us={} pages_prefetched={}{rank}",
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
            gb_per_s(self.bytes_diffed, self.t_diff),
            gb_per_s(self.bytes_sent, self.t_merge),
            gb_per_s(self.bytes_injected, self.t_inject),
            gb_per_s(self.bytes_logged, self.t_log),
            self.lazy_notices,
            self.lazy_published,
            self.lazy_fetched,
            self.lazy_fetched * crate::track::PAGE_SIZE as u64,
            self.t_fetch.as_micros(),
            self.lazy_prefetched,
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
        self.lazy_notices += o.lazy_notices;
        self.lazy_published += o.lazy_published;
        self.lazy_fetched += o.lazy_fetched;
        self.t_fetch += o.t_fetch;
        self.lazy_prefetched += o.lazy_prefetched;
    }
}

/// `bytes` per `time` in GB/s; 0 when no time was measured.
fn gb_per_s(bytes: u64, time: Duration) -> f64 {
    let secs = time.as_secs_f64();
    if secs > 0.0 {
        bytes as f64 / secs / 1e9
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_keeps_the_old_fields_and_appends_speeds_and_rank() {
        let s = Stats {
            regions: 2,
            bytes_diffed: 4_000_000,
            t_diff: Duration::from_millis(2),
            bytes_injected: 1_000,
            ..Stats::default()
        };
        let line = s.line("total", Some(3));
        assert!(line.starts_with(
            "capert: stats: total: regions=2 pages_written=0 bytes_diffed=4000000 runs=0 "
        ));
        assert!(line.contains(" diff_us=2000 merge_us=0 inject_us=0 reduce_us=0 log_us=0 "));
        assert!(
            line.ends_with(" diff_gbps=2.00 merge_gbps=0.00 inject_gbps=0.00 log_gbps=0.00 notices=0 pages_published=0 pages_fetched=0 bytes_fetched=0 fetch_wait_us=0 pages_prefetched=0 rank=3")
        );
        assert!(!s.line("region 1", None).contains("rank="));
    }
}
