//! OpenMP loop schedules over the normalised iteration space `[0, n)`.
//!
//! `schedule(static)` must match libgomp exactly: which thread runs which iteration decides
//! `lastprivate` values and the order of any output. Checked against gcc's libgomp by
//! `tests/core_schedule_libgomp.rs`.

/// Loop schedule kinds, the `schedule` argument of `__cape_loop_init` (passed as `int`).
#[repr(C)]
#[allow(non_camel_case_types, clippy::enum_variant_names)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum cape_sched {
    /// `schedule(static)`: exactly OpenMP's static schedule.
    CAPE_SCHED_STATIC = 0,
    /// `schedule(dynamic)`: chunks handed out by a one-sided fetch-and-add counter.
    CAPE_SCHED_DYNAMIC = 1,
    /// `schedule(guided)`: libgomp's chunk sizes, handed out like `dynamic`.
    CAPE_SCHED_GUIDED = 2,
    /// `schedule(runtime)`: `omp_set_schedule`, else `OMP_SCHEDULE`, else `static`.
    CAPE_SCHED_RUNTIME = 3,
    /// `schedule(auto)` (runs as `static`).
    CAPE_SCHED_AUTO = 4,
}

/// The half-open ranges `[lo, hi)` one thread runs under a static schedule, in execution order.
///
/// Exactly libgomp's schedule(static) (no chunk): q = n / team, r = n % team; threads t < r get
/// q+1 iterations, others q; contiguous, in thread order. With chunk c > 0: round-robin chunks
/// of c iterations (chunk k goes to thread k % team).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StaticChunks {
    n: u64,
    /// Iterations per chunk; 0 = one contiguous block, already in `block`.
    chunk: u64,
    /// Unchunked: the thread's only range, taken by the first `next`.
    block: Option<(u64, u64)>,
    /// Chunked: index of the next chunk this thread runs, `None` when done.
    next_chunk: Option<u64>,
    team: u64,
}

/// The static schedule of thread `tid` in a team of `team` threads over `[0, n)`.
/// `chunk == 0` means no chunk size was given. A thread outside the team (`tid >= team`, which
/// includes `team == 0`) runs nothing. No arithmetic overflows, even for `n` near `u64::MAX`.
pub fn static_chunks(n: u64, team: u64, tid: u64, chunk: u64) -> StaticChunks {
    let mut it = StaticChunks {
        n,
        chunk,
        block: None,
        next_chunk: None,
        team,
    };
    if tid >= team || n == 0 {
        return it;
    }
    if chunk == 0 {
        let q = n / team;
        let r = n % team;
        // tid * q <= n because tid < team, so neither product nor sum overflows.
        let (lo, len) = if tid < r {
            (tid * (q + 1), q + 1)
        } else {
            (tid * q + r, q)
        };
        if len > 0 {
            it.block = Some((lo, lo + len));
        }
    } else {
        it.next_chunk = Some(tid);
    }
    it
}

impl Iterator for StaticChunks {
    type Item = (u64, u64);

    fn next(&mut self) -> Option<(u64, u64)> {
        if self.chunk == 0 {
            return self.block.take();
        }
        let k = self.next_chunk.take()?;
        let lo = k.checked_mul(self.chunk).filter(|&lo| lo < self.n)?;
        let hi = lo.saturating_add(self.chunk).min(self.n);
        self.next_chunk = k.checked_add(self.team);
        Some((lo, hi))
    }
}

impl std::iter::FusedIterator for StaticChunks {}

/// Whether `tid` executes iteration n-1 under that schedule (false if n == 0).
pub fn static_runs_last(n: u64, team: u64, tid: u64, chunk: u64) -> bool {
    if n == 0 || tid >= team {
        return false;
    }
    let owner = match (n - 1).checked_div(chunk) {
        Some(last_chunk) => last_chunk % team,
        // Unchunked: threads t < n % team run q + 1 iterations; when q == 0 only they run any.
        None if n / team == 0 => n - 1,
        None => team - 1,
    };
    tid == owner
}

/// The last iteration `tid` executes under that schedule, `None` if it runs none.
/// A natural [`Stamp`](crate::tickpt::Stamp) order for a rank's writes: where two ranks wrote
/// the same bytes, the one that ran the later iteration is the one sequential execution keeps
/// (exact for the unchunked schedule, whose blocks are contiguous and in thread order).
pub fn static_last_iteration(n: u64, team: u64, tid: u64, chunk: u64) -> Option<u64> {
    if tid >= team || n == 0 {
        return None;
    }
    if chunk == 0 {
        return static_chunks(n, team, tid, 0).next().map(|(_, hi)| hi - 1);
    }
    let chunks = n.div_ceil(chunk);
    if tid >= chunks {
        return None;
    }
    let last_chunk = tid + (chunks - 1 - tid) / team * team;
    let hi = (last_chunk * chunk).saturating_add(chunk).min(n);
    Some(hi - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranges(n: u64, team: u64, tid: u64, chunk: u64) -> Vec<(u64, u64)> {
        static_chunks(n, team, tid, chunk).collect()
    }

    /// Owner of every iteration, from the iterators; each iteration exactly once.
    fn owners(n: u64, team: u64, chunk: u64) -> Vec<u64> {
        let mut owner = vec![u64::MAX; n as usize];
        for tid in 0..team {
            let mut prev_hi = 0;
            for (lo, hi) in static_chunks(n, team, tid, chunk) {
                assert!(lo < hi && hi <= n && (prev_hi == 0 || lo >= prev_hi));
                prev_hi = hi;
                for i in lo..hi {
                    assert_eq!(owner[i as usize], u64::MAX, "iteration {i} twice");
                    owner[i as usize] = tid;
                }
            }
        }
        assert!(owner.iter().all(|&t| t < team), "an iteration was not run");
        owner
    }

    #[test]
    fn unchunked_blocks_follow_libgomp() {
        // 10 over 4: r = 2, so threads 0 and 1 get 3, threads 2 and 3 get 2.
        assert_eq!(owners(10, 4, 0), vec![0, 0, 0, 1, 1, 1, 2, 2, 3, 3]);
        // n < team: the first n threads get one each.
        assert_eq!(owners(3, 5, 0), vec![0, 1, 2]);
        assert_eq!(ranges(3, 5, 4, 0), vec![]);
        assert_eq!(ranges(0, 3, 0, 0), vec![]);
    }

    #[test]
    fn chunks_go_round_robin() {
        assert_eq!(owners(10, 3, 2), vec![0, 0, 1, 1, 2, 2, 0, 0, 1, 1]);
        assert_eq!(ranges(10, 3, 0, 2), vec![(0, 2), (6, 8)]);
        assert_eq!(ranges(10, 3, 1, 4), vec![(4, 8)]);
        assert_eq!(ranges(10, 3, 2, 4), vec![(8, 10)]);
        assert_eq!(ranges(5, 2, 0, 100), vec![(0, 5)]);
        assert_eq!(ranges(5, 2, 1, 100), vec![]);
    }

    #[test]
    fn outside_the_team_runs_nothing() {
        assert_eq!(ranges(10, 0, 0, 0), vec![]);
        assert_eq!(ranges(10, 2, 2, 0), vec![]);
        assert_eq!(ranges(10, 2, 2, 3), vec![]);
        assert!(!static_runs_last(10, 0, 0, 0));
        assert!(!static_runs_last(10, 2, 5, 0));
    }

    #[test]
    fn every_iteration_once_and_last_owner_agrees() {
        for n in 0..70 {
            for team in 1..10 {
                for chunk in [0, 1, 2, 3, 7, 64, 1000] {
                    let owner = owners(n, team, chunk);
                    for tid in 0..team {
                        let want = owner.last() == Some(&tid);
                        assert_eq!(static_runs_last(n, team, tid, chunk), want);
                    }
                }
            }
        }
    }

    #[test]
    fn last_iteration_agrees_with_the_chunks() {
        for n in [0u64, 1, 2, 5, 17, 100, 1 << 63, u64::MAX] {
            for team in [1u64, 2, 3, 7, 64] {
                for chunk in [0u64, 1, 3, 16, n / 2 + 1, u64::MAX] {
                    for tid in 0..team + 1 {
                        // Only where there are few enough chunks to walk them all.
                        if n > 1000 && chunk != 0 && chunk <= n / team {
                            continue;
                        }
                        let want = static_chunks(n, team, tid, chunk)
                            .last()
                            .map(|(_, hi)| hi - 1);
                        assert_eq!(
                            static_last_iteration(n, team, tid, chunk),
                            want,
                            "n {n} team {team} tid {tid} chunk {chunk}"
                        );
                    }
                }
            }
        }
        assert_eq!(static_last_iteration(1 << 63, 3, 1, 1), Some((1 << 63) - 1));
        assert_eq!(static_last_iteration(1 << 63, 3, 2, 1), Some((1 << 63) - 3));
    }

    #[test]
    fn huge_iteration_spaces_do_not_overflow() {
        for n in [1u64 << 63, (1 << 63) + 12345, u64::MAX - 1, u64::MAX] {
            for team in [1u64, 2, 3, 7, 64, 1000] {
                // Unchunked: contiguous blocks covering [0, n) in thread order.
                let mut next = 0;
                for tid in 0..team {
                    for (lo, hi) in static_chunks(n, team, tid, 0) {
                        assert_eq!(lo, next);
                        let len = hi - lo;
                        assert!(len == n / team || len == n / team + 1);
                        next = hi;
                    }
                }
                assert_eq!(next, n);
                assert!(static_runs_last(n, team, team - 1, 0));
                // Chunked with chunks so large that only a few exist; indexes overflow u64.
                for chunk in [n / 3 + 1, n / 2, u64::MAX / 2 + 1, u64::MAX] {
                    let mut all: Vec<(u64, u64)> = (0..team)
                        .flat_map(|tid| static_chunks(n, team, tid, chunk))
                        .collect();
                    all.sort();
                    let mut next = 0;
                    for (lo, hi) in all {
                        assert_eq!(lo, next);
                        next = hi;
                    }
                    assert_eq!(next, n, "n {n} team {team} chunk {chunk}");
                    let last_owner = ((n - 1) / chunk) % team;
                    assert!(static_runs_last(n, team, last_owner, chunk));
                }
                // Chunk 1 over a huge space: the first few chunks and a huge team.
                let first: Vec<_> = static_chunks(n, team, team - 1, 1).take(2).collect();
                assert_eq!(first, vec![(team - 1, team), (2 * team - 1, 2 * team)]);
            }
        }
        let huge_team = u64::MAX;
        assert_eq!(
            ranges(u64::MAX, huge_team, huge_team - 1, 1),
            vec![(huge_team - 1, huge_team)]
        );
    }
}
