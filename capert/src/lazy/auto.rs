//! `CAPE_MERGE=auto`: per region (its outlined function), the merge that made its runs
//! faster, measured. A region's instances run eager at first, then lazy, each for three
//! instances; the time from one instance's begin to the next one's (the region, its merge
//! points and the sequential code after it, where the fetches the lazy merge causes happen)
//! is sampled in the steady state of each mode, and the region keeps the lazy merge only if
//! it was faster than the eager one on every rank by more than the noise margin. A lazy
//! probe that already took half again as long as the eager runs is stopped at once. The probe
//! is repeated every `PERIOD` instances, so a changed access pattern is seen.
//!
//! Decisions are collective (an `MPI_Allgather` of the samples at the two decision points),
//! so every rank takes the same one.

use std::collections::HashMap;
use std::time::Instant;

use crate::sys::mpi::Comm;

/// Instances between two probes of a region.
const PERIOD: u64 = 512;
/// Lazy must be at least this much faster than eager to be kept.
const MARGIN: f64 = 0.97;
/// A first lazy sample this much slower than eager stops the probe.
const GIVE_UP: f64 = 1.5;

/// What an instance at position `c` of the cycle runs, and which sample the interval that
/// ends at its begin is (it measures instance `c - 1`, preceded by one in the same mode).
fn plan(c: u64) -> (Probe, Option<Probe>) {
    match c {
        0..=2 => (Probe::Eager, (c == 2).then_some(Probe::Eager)),
        3 => (Probe::Lazy, Some(Probe::Eager)),
        4 => (Probe::Lazy, Some(Probe::FirstLazy)),
        5 => (Probe::Lazy, Some(Probe::Lazy)),
        6 => (Probe::Decided, Some(Probe::Lazy)),
        _ => (Probe::Decided, None),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Probe {
    Eager,
    Lazy,
    /// The first lazy instance (after an eager one: it fetched nothing yet), only for
    /// stopping the probe early.
    FirstLazy,
    Decided,
}

#[derive(Debug, Default)]
struct Site {
    /// Instances begun.
    count: u64,
    last_begin: Option<Instant>,
    eager: Vec<f64>,
    first_lazy: f64,
    lazy: Vec<f64>,
    /// The decision of the current cycle (None: still probing).
    lazy_wins: Option<bool>,
}

/// The per-region measurements of one rank.
#[derive(Debug, Default)]
pub struct Auto {
    sites: HashMap<usize, Site>,
}

/// The largest value of `mine` over the ranks (`NaN`-free; every rank calls it).
fn max_over_ranks(comm: &Comm, mine: [f64; 2]) -> [f64; 2] {
    let bytes: Vec<u8> = mine.iter().flat_map(|v| v.to_le_bytes()).collect();
    let mut max = [0.0f64; 2];
    for theirs in comm.all_gather_bytes(&bytes) {
        for (i, m) in max.iter_mut().enumerate() {
            let v = theirs
                .get(i * 8..i * 8 + 8)
                .and_then(|b| b.try_into().ok())
                .map_or(0.0, f64::from_le_bytes);
            *m = m.max(v);
        }
    }
    max
}

fn min(samples: &[f64]) -> f64 {
    samples.iter().copied().fold(f64::INFINITY, f64::min)
}

impl Auto {
    /// Called at the begin of every instance of the region `site` on every rank: does this
    /// instance use the demand-driven merge?
    pub fn choose(&mut self, site: usize, comm: &Comm) -> bool {
        let now = Instant::now();
        let s = self.sites.entry(site).or_default();
        let c = s.count % PERIOD;
        s.count += 1;
        if c == 0 {
            s.eager.clear();
            s.lazy.clear();
            s.lazy_wins = None;
        }
        let (mode, sample) = plan(c);
        if let (Some(kind), Some(last)) = (sample, s.last_begin) {
            let dt = (now - last).as_secs_f64();
            match kind {
                Probe::Eager => s.eager.push(dt),
                Probe::FirstLazy => s.first_lazy = dt,
                _ => s.lazy.push(dt),
            }
        }
        s.last_begin = Some(now);
        // the probe's two decision points, both collective
        if c == 4 && s.lazy_wins.is_none() {
            let [eager, lazy] = max_over_ranks(comm, [min(&s.eager), s.first_lazy]);
            if lazy > GIVE_UP * eager {
                s.lazy_wins = Some(false);
            }
        } else if c == 6 && s.lazy_wins.is_none() {
            let [eager, lazy] = max_over_ranks(comm, [min(&s.eager), min(&s.lazy)]);
            s.lazy_wins = Some(lazy < MARGIN * eager);
        }
        match (mode, s.lazy_wins) {
            (_, Some(wins)) => wins,
            (Probe::Lazy, None) => true,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_probe_cycle() {
        let modes: Vec<Probe> = (0..8).map(|c| plan(c).0).collect();
        use Probe::*;
        assert_eq!(
            modes,
            [Eager, Eager, Eager, Lazy, Lazy, Lazy, Decided, Decided]
        );
        // each sample measures an instance preceded by one in the same mode
        for c in 2..8 {
            match plan(c).1 {
                Some(FirstLazy) => assert_eq!((plan(c - 1).0, plan(c - 2).0), (Lazy, Eager)),
                Some(kind) => {
                    assert_eq!(plan(c - 1).0, kind, "sample at {c}");
                    assert_eq!(plan(c - 2).0, kind, "steady state at {c}");
                }
                None => {}
            }
        }
        assert_eq!(plan(1).1, None);
    }
}
