//! `CAPE_MERGE=auto`: per region (its outlined function), the merge that made its instances
//! faster, measured, at a bounded cost. A region runs eagerly until a *trial* of the
//! demand-driven merge is worth its price: only at checks (the 32nd, 64th, 128th, ...
//! instance: a trial lost costs up to about ten instances' time),
//! only when the region has run `MIN_RUN` seconds in all (doubled after every
//! trial lazy lost, so trials cost a shrinking share of the run) and only when its eager
//! merges took at least `MIN_SHARE` of its time (all the demand-driven merge can save is
//! the merge's time). A short program, or one whose merges cost little, never runs a lazy
//! instance, and never starts the demand-driven merge (window, progress check, fetch thread:
//! started at the first trial).
//!
//! A trial runs up to eight instances lazily: the first one (it publishes every page it
//! changed into served buffers touched for the first time, and the demand-driven merge's
//! start is left out of its time) stops the trial at once when it took three times as long
//! as the eager ones (not in the region's first trial, where first touches can take that
//! long); the three after it still pay for the change of mode (`SETTLE`), and the last four
//! are compared with the last eager ones in the steady state (`typical`; the first of them
//! ends the trial when it took half again as long as eager), and lazy is kept when it was
//! at most 5 % slower than eager on every rank: a tie, within the noise, goes to the
//! merge that moves fewer bytes. A region that kept lazy stays lazy until it has run `KEEP` times as long as when
//! lazy won (then six eager instances and a trial measure both again), or until a check
//! finds its lazy instances slower by more than the noise than both the eager ones and its
//! own were at the trial (`STAY`), or another region's overlapping trial was lost since:
//! going back to eager costs the fetch of every page the eager merge injects into, so a
//! winner is not measured again at every check.
//!
//! Each sample is the time from one instance's begin to the next one's (the region, its
//! merge points and the sequential code after it, where the lazy merge's fetches happen).
//! Decisions are collective: every rank must take the same one, or one rank would wait in the
//! eager merge's allreduce while another waits in the lazy merge's exchange of notices. Each
//! decision reads only the maximum over the ranks of the values it compares (gathered only
//! at the checks and the two decision points of a trial), and the state a decision leaves
//! for later ones (phase, next check, the run a trial waits for) is computed from those
//! maxima and the instance count alone, never from this rank's own measurements: ranks
//! measure differently (rank 0 writes the checkpoint log and its snapshots between
//! instances, a rank is descheduled), so a budget doubled from this rank's run would let one
//! rank start a trial at a check where another does not.

use std::collections::HashMap;
use std::time::{Duration, Instant};

/// The first check; later checks at every doubling of the instance count.
const FIRST_CHECK: u64 = 32;
/// With three ranks or more, an earlier check. The eager merge delivers every change to
/// every other rank, P - 1 copies of it, where the demand-driven merge delivers a change to
/// the ranks that read it (a stencil's one or two neighbours): from P = 3 on what a trial can
/// save grows with P while what it costs does not (at P = 4 jacobi's eager sweeps move 4.4 MB
/// on average over 100 sweeps, its lazy ones 52 KB), so the trial comes before the eager
/// merge has moved most of a long run's bytes. At P = 2 each change reaches one rank either
/// way, and the first check stays at `FIRST_CHECK`, where eager and lazy sweeps of a stencil
/// cross.
const EARLY_CHECK: u64 = 12;
/// The fewest ranks for the early check.
const EARLY_RANKS: usize = 3;
/// Seconds a region must have run before its first trial (the demand-driven merge's start
/// and a lost trial cost a few milliseconds).
const MIN_RUN: f64 = 0.05;
/// The share of an eager instance's time its merge must take for a trial.
const MIN_SHARE: f64 = 0.05;
/// A trial keeps lazy when its instances took at most this share of eager's time: a tie,
/// within the noise between consecutive instances of one mode (several per cent here), goes
/// to the merge that moves fewer bytes (on one node eager's bytes are cheap; across nodes
/// they cross the network). Jacobi's lazy and eager sweeps cross near the first check: a
/// strict comparison lost half its trials there to noise, and each lost trial costs about
/// ten instances.
const MARGIN: f64 = 1.05;
/// A region that kept lazy stays lazy at a check while its lazy instances take less than this
/// share of the eager ones' time or of their own when lazy won: going back costs a re-measure
/// and a trial, so noise around a tie must not trigger one. (Both are as old as the trial, and
/// a stencil's eager instance costs more as its changes spread: eager samples of the 12th
/// instance alone made lazy look slower twenty sweeps later.)
const STAY: f64 = 1.1;
/// A first lazy sample this much slower than eager stops the trial (the first instance pays
/// for first touches; a slower one is a merge whose pages every rank reads).
const GIVE_UP: f64 = 3.0;
/// A first measured lazy instance this much slower than eager ends the trial before its
/// last two instances.
const CLEARLY_SLOWER: f64 = 1.5;
/// Samples kept per mode.
const SAMPLES: usize = 4;
/// Instances after a change of mode whose time is not a sample of the new mode: they pay
/// for the change (to lazy: a changed page is copied whole into each of its two served
/// buffers, touched for the first time, before it is published by lines, and twins are not
/// yet known to hold zeros: two instances per array, four for a region that alternates
/// between two arrays as a Jacobi sweep does; to eager: fetching the pages it injects into).
const SETTLE: u32 = 4;
/// Lazy instances in a trial: the settling ones, then `SAMPLES` measured.
const TRIAL: u8 = SETTLE as u8 + SAMPLES as u8;
/// A region that kept lazy is measured again once it has run this many times as long.
const KEEP: f64 = 4.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Eager until a check lets a trial start.
    Eager,
    /// Lazy kept; measured again at the next check.
    Lazy,
    /// Eager instances (this many begun) that refresh the eager samples before a trial.
    Refresh(u8),
    /// Lazy instances begun in a trial.
    Trial(u8),
}

#[derive(Debug)]
struct Site {
    /// Instances begun.
    count: u64,
    next_check: u64,
    phase: Phase,
    /// The mode of the last two instances (last first; true: lazy).
    /// The mode of the last instance begun (true: lazy), and how many instances in a row
    /// (it included) took that mode.
    mode: Option<bool>,
    streak: u32,
    last_begin: Option<(Instant, Duration)>,
    /// Seconds of all instances so far (this rank's measurement), and needed before a trial
    /// (agreed: from the maximum over the ranks of `run`).
    run: f64,
    budget: f64,
    /// Seconds of eager instances since the last check, and of their merges.
    eager_run: f64,
    eager_merge: f64,
    eager: Vec<f64>,
    first_lazy: f64,
    lazy: Vec<f64>,
    /// A trial has run before (the first one's first instance pays for first touches).
    tried: bool,
    /// The lazy samples' `typical` time (maximum over the ranks) when lazy last won.
    won: f64,
    /// `Auto::clock` at the start of the last trial, and when lazy last won one.
    trial_from: u64,
    won_at: u64,
}

impl Default for Site {
    fn default() -> Site {
        Site {
            count: 0,
            next_check: FIRST_CHECK,
            phase: Phase::Eager,
            mode: None,
            streak: 0,
            last_begin: None,
            run: 0.0,
            budget: MIN_RUN,
            eager_run: 0.0,
            eager_merge: 0.0,
            eager: Vec::new(),
            first_lazy: 0.0,
            lazy: Vec::new(),
            tried: false,
            won: 0.0,
            trial_from: 0,
            won_at: 0,
        }
    }
}

fn push(samples: &mut Vec<f64>, v: f64) {
    if samples.len() == SAMPLES {
        samples.remove(0);
    }
    samples.push(v);
}

/// What a mode's instances typically take: the mean of its samples without the fastest and
/// the slowest (of four: the middle two). Not the minimum, which favoured eager where ranks
/// share cores (a rank's eager instances alternate fast and slow as the ranks take turns,
/// 2.5 and 7.6 ms at P = 4 on two cores, while its lazy ones hold at 4.7); not the mean,
/// which one instance paying for a change of mode can carry (3.9 ms among lu's 1.5 ms eager
/// samples made lazy, 1.8 ms, look faster).
fn typical(samples: &[f64]) -> f64 {
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    let kept = if sorted.len() >= 3 {
        &sorted[1..sorted.len() - 1]
    } else {
        &sorted[..]
    };
    if kept.is_empty() {
        return f64::INFINITY;
    }
    kept.iter().sum::<f64>() / kept.len() as f64
}

/// The per-region measurements of one rank.
#[derive(Debug)]
pub struct Auto {
    sites: HashMap<usize, Site>,
    ranks: usize,
    /// Instances begun, of every region (the same count on every rank).
    clock: u64,
}

impl Auto {
    /// For a world of `ranks` ranks.
    pub fn new(ranks: usize) -> Auto {
        Auto {
            sites: HashMap::new(),
            ranks,
            clock: 0,
        }
    }

    /// Called at the begin of every instance of the region `site` on every rank, at `now`,
    /// with the time this rank spent in merges so far (`merged`): does this instance use
    /// the demand-driven merge? `max_over_ranks` is collective (called alike on every rank);
    /// the answer is the same on every rank.
    pub fn choose(
        &mut self,
        site: usize,
        now: Instant,
        merged: Duration,
        max_over_ranks: &mut dyn FnMut([f64; 3]) -> [f64; 3],
    ) -> bool {
        self.clock += 1;
        let clock = self.clock;
        let s = self.sites.entry(site).or_default();
        s.count += 1;
        if let Some((begin, merged_then)) = s.last_begin {
            s.measure(
                (now - begin).as_secs_f64(),
                merged.saturating_sub(merged_then).as_secs_f64(),
            );
        }
        s.last_begin = Some((now, merged));
        let in_trial = matches!(s.phase, Phase::Trial(_));
        let lazy = s.next_mode(self.ranks >= EARLY_RANKS, max_over_ranks);
        match s.phase {
            Phase::Trial(1) => s.trial_from = clock,
            Phase::Lazy if in_trial => s.won_at = clock,
            _ => {}
        }
        if s.mode == Some(lazy) {
            s.streak += 1;
        } else {
            (s.mode, s.streak) = (Some(lazy), 1);
        }
        if in_trial && s.phase == Phase::Eager {
            // a region that won while this one's trial ran was measured with this one lazy,
            // which no longer holds: measure it again (lu's two regions per pivot step, one
            // kept lazy and the other back to eager, made the eager one fetch every page the
            // lazy one left invalid: 1.27 times the eager run)
            let lost_from = s.trial_from;
            for (_, other) in self.sites.iter_mut().filter(|(&k, _)| k != site) {
                if other.phase == Phase::Lazy && other.won_at >= lost_from {
                    // six eager instances at its next begins, as a re-measure
                    other.eager.clear();
                    other.phase = Phase::Refresh(0);
                }
            }
        }
        lazy
    }
}

impl Auto {
    /// The instance of `site` that just began spent `spent` in one-time work that is not
    /// the merge's (the demand-driven merge's start): left out of its sample.
    pub fn leave_out(&mut self, site: usize, spent: Duration) {
        if let Some((begin, _)) = self
            .sites
            .get_mut(&site)
            .and_then(|s| s.last_begin.as_mut())
        {
            *begin += spent;
        }
    }
}

impl Site {
    /// The instance before this one took `dt` seconds, `merge` of them in merges.
    fn measure(&mut self, dt: f64, merge: f64) {
        self.run += dt;
        let steady = self.streak > SETTLE;
        match self.mode {
            // the first instance pays for first touches of the region's pages
            Some(false) if self.count == 2 => {}
            Some(false) => {
                self.eager_run += dt;
                self.eager_merge += merge;
                if steady {
                    push(&mut self.eager, dt);
                }
            }
            Some(true) if steady => push(&mut self.lazy, dt),
            Some(true) if self.streak == 1 => self.first_lazy = dt,
            Some(true) => {}
            None => {}
        }
    }

    fn next_mode(
        &mut self,
        early_check: bool,
        max_over_ranks: &mut dyn FnMut([f64; 3]) -> [f64; 3],
    ) -> bool {
        let check = self.count >= self.next_check;
        if check {
            self.next_check *= 2;
        }
        let early = early_check && self.count == EARLY_CHECK;
        match self.phase {
            Phase::Eager if check || early => {
                let share = if self.eager_run > 0.0 {
                    self.eager_merge / self.eager_run
                } else {
                    0.0
                };
                (self.eager_run, self.eager_merge) = (0.0, 0.0);
                let [run, share, _] = max_over_ranks([self.run, share, 0.0]);
                if run >= self.budget && share >= MIN_SHARE {
                    self.start_trial()
                } else {
                    false
                }
            }
            Phase::Eager => false,
            Phase::Lazy if check => {
                let [run, eager, lazy] =
                    max_over_ranks([self.run, typical(&self.eager), typical(&self.lazy)]);
                if run < self.budget && lazy < STAY * eager.max(self.won) {
                    return true;
                }
                self.eager.clear();
                self.phase = Phase::Refresh(1);
                false
            }
            Phase::Lazy => true,
            Phase::Refresh(n) if u32::from(n) < SETTLE + 2 => {
                self.phase = Phase::Refresh(n + 1);
                false
            }
            Phase::Refresh(_) => self.start_trial(),
            Phase::Trial(1) => {
                let [run, eager, first] =
                    max_over_ranks([self.run, typical(&self.eager), self.first_lazy]);
                // the first trial's first instance is not judged: it also publishes into
                // served buffers touched for the first time, which took more than three
                // eager instances at P = 4 on two cores
                if first > GIVE_UP * eager && self.tried {
                    self.lazy_lost(run)
                } else {
                    self.phase = Phase::Trial(2);
                    true
                }
            }
            // the first measured lazy instance: far slower than eager ends the trial here
            Phase::Trial(n) if u32::from(n) == SETTLE + 1 => {
                let [run, eager, lazy] =
                    max_over_ranks([self.run, typical(&self.eager), typical(&self.lazy)]);
                if lazy > CLEARLY_SLOWER * eager {
                    self.lazy_lost(run)
                } else {
                    self.phase = Phase::Trial(n + 1);
                    true
                }
            }
            Phase::Trial(n) if n < TRIAL => {
                self.phase = Phase::Trial(n + 1);
                true
            }
            Phase::Trial(_) => {
                let [run, eager, lazy] =
                    max_over_ranks([self.run, typical(&self.eager), typical(&self.lazy)]);
                if lazy <= MARGIN * eager {
                    self.won = lazy;
                    self.tried = true;
                    self.budget = KEEP * run;
                    self.phase = Phase::Lazy;
                    true
                } else {
                    self.lazy_lost(run)
                }
            }
        }
    }

    fn start_trial(&mut self) -> bool {
        self.lazy.clear();
        self.phase = Phase::Trial(1);
        true
    }

    /// Back to eager; the next trial waits until the region has run twice as long (`run`:
    /// the maximum over the ranks, so that the budget is the same on every rank).
    fn lazy_lost(&mut self, run: f64) -> bool {
        self.tried = true;
        self.budget = 2.0 * self.budget.max(run);
        self.phase = Phase::Eager;
        false
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod ranks;
