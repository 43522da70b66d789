//! Several ranks in threads, each with its own `Auto`, whose collective is a real gather: the
//! decisions must be the same on every rank whatever each rank measured.

use super::*;
use std::sync::{Condvar, Mutex};

/// One rank's part in a round: which collective it is in, and its values.
type Call = (&'static str, Vec<f64>);

/// Gathers in rounds, like an MPI collective: every rank's `k`-th call pairs with every
/// other rank's `k`-th call; calls of different kinds pairing up (one rank in a decision's
/// collective, another not) is the hang the runtime would have, reported here.
struct World {
    ranks: usize,
    rounds: Mutex<Vec<Vec<Option<Call>>>>,
    changed: Condvar,
}

impl World {
    fn gather(&self, rank: usize, round: usize, kind: &'static str, mine: &[f64]) -> Vec<Vec<f64>> {
        let mut rounds = self.rounds.lock().unwrap();
        while rounds.len() <= round {
            rounds.push(vec![None; self.ranks]);
        }
        rounds[round][rank] = Some((kind, mine.to_vec()));
        self.changed.notify_all();
        let deadline = Instant::now() + Duration::from_secs(20);
        while rounds[round].iter().any(Option::is_none) {
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(
                !left.is_zero(),
                "rank {rank}: the other ranks never reached round {round} ({kind})"
            );
            rounds = self.changed.wait_timeout(rounds, left).unwrap().0;
        }
        let all: Vec<_> = rounds[round].iter().flatten().cloned().collect();
        for (other, (k, _)) in all.iter().enumerate() {
            assert_eq!(
                *k, kind,
                "round {round}: rank {rank} in {kind}, rank {other} in {k}: the ranks disagree"
            );
        }
        all.into_iter().map(|(_, v)| v).collect()
    }
}

/// A small deterministic generator (xorshift).
struct Noise(u64);
impl Noise {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// `ranks` ranks run `n` instances of one region: each instance takes `eager` or `lazy`
/// seconds (the same on every rank: they meet at its merges), `merge` of an eager one in
/// merges; rank r reaches each begin late by up to `late[r]` seconds (rank 0 writing a
/// log or a snapshot, a rank descheduled), drawn from `seed`. Returns every rank's modes.
fn run_ranks(
    n: usize,
    (eager, lazy, merge): (f64, f64, f64),
    late: &[f64],
    seed: u64,
) -> Vec<Vec<bool>> {
    let world = World {
        ranks: late.len(),
        rounds: Mutex::new(Vec::new()),
        changed: Condvar::new(),
    };
    let start = Instant::now();
    std::thread::scope(|scope| {
        let threads: Vec<_> = (0..late.len())
            .map(|rank| {
                let (world, late) = (&world, late[rank]);
                scope.spawn(move || {
                    let mut noise = Noise(seed.wrapping_mul(2 * rank as u64 + 1) | 1);
                    let mut auto = Auto::new(world.ranks);
                    let (mut t, mut merged, mut round) = (0.0, 0.0, 0);
                    let mut modes = Vec::new();
                    for _ in 0..n {
                        let now = start + Duration::from_secs_f64(t + late * noise.next());
                        let mut max_over_ranks = |mine: [f64; 3]| {
                            let all = world.gather(rank, round, "decision", &mine);
                            round += 1;
                            let mut max = [0.0f64; 3];
                            for v in all {
                                for (m, x) in max.iter_mut().zip(v) {
                                    *m = m.max(x);
                                }
                            }
                            max
                        };
                        let lazy_now = auto.choose(
                            1,
                            now,
                            Duration::from_secs_f64(merged),
                            &mut max_over_ranks,
                        );
                        // the merge point: eager and lazy merges are different collectives
                        world.gather(
                            rank,
                            round,
                            if lazy_now {
                                "lazy merge"
                            } else {
                                "eager merge"
                            },
                            &[],
                        );
                        round += 1;
                        modes.push(lazy_now);
                        if lazy_now {
                            t += lazy;
                        } else {
                            t += eager;
                            merged += merge * (1.0 + 0.2 * noise.next());
                        }
                    }
                    world.gather(rank, round, "end", &[]);
                    modes
                })
            })
            .collect();
        threads.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

#[test]
fn every_rank_decides_alike_whatever_it_measured() {
    // lazy slower (trials lost, the next one after a doubled run) or faster; rank 0
    // late by up to 50 ms at a begin, the others by up to 1 ms: the trials' outcomes
    // depend on that noise, but not on the rank
    for times in [(0.010, 0.011, 0.005), (0.010, 0.005, 0.005)] {
        for seed in 1..=8 {
            let modes = run_ranks(3000, times, &[0.050, 0.001, 0.001, 0.001], seed);
            assert!(modes.iter().all(|m| *m == modes[0]), "seed {seed}");
            let trials = modes[0].windows(2).filter(|w| !w[0] && w[1]).count();
            assert!(trials >= 2, "seed {seed}: {trials} trials");
        }
    }
}
