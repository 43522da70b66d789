//! The worksharing loop (`__cape_loop`): OpenMP's static, dynamic and guided schedules over the
//! normalised iteration space `[0, n)`.
//!
//! Dynamic and guided chunks are handed out without a master: a thread takes a *ticket* from a
//! one-sided fetch-and-add counter on rank 0 (`MPI_Fetch_and_op`), ticket `k` (relative to the
//! loop instance's base) is chunk `k`, and the chunk boundaries are a deterministic function of
//! `(n, team, chunk)`, so the counter never needs a compare-and-swap or a reset.

use crate::region::{team, State};
use crate::schedule::cape_sched;
use crate::schedule::static_chunks;
use std::sync::atomic::{AtomicU64, Ordering};

const CAPE_SCHED_STATIC: i32 = cape_sched::CAPE_SCHED_STATIC as i32;
const CAPE_SCHED_DYNAMIC: i32 = cape_sched::CAPE_SCHED_DYNAMIC as i32;
const CAPE_SCHED_GUIDED: i32 = cape_sched::CAPE_SCHED_GUIDED as i32;
const CAPE_SCHED_RUNTIME: i32 = cape_sched::CAPE_SCHED_RUNTIME as i32;

/// The worksharing loop state (`__cape_loop` in C). Opaque to C code: it is declared on the
/// stack of the outlined function and used only through the `__cape_loop_*` functions.
#[repr(C)]
#[allow(non_camel_case_types)]
#[derive(Debug, Clone, Copy, Default)]
pub struct __cape_loop {
    n: u64,
    chunk: u64,
    team: u64,
    tid: u64,
    /// Static: chunks handed out so far. Guided: index of the chunk starting at `cursor`.
    taken: u64,
    /// The resolved schedule: static, dynamic or guided.
    schedule: i32,
    flags: u32,
    /// Dynamic/guided: the chunk counter slot and this instance's first ticket.
    slot: u64,
    base: u64,
    /// Dynamic/guided: number of chunks.
    chunks: u64,
    /// Guided: first iteration of chunk `taken`.
    cursor: u64,
}

const LOOP_LAST: u32 = 1;
const LOOP_DONE: u32 = 2;
/// A loop with the `ordered` clause in an active team: thread 0 runs every chunk in order.
const LOOP_ORDERED: u32 = 4;
/// A dynamic/guided loop of a team with several threads in some rank: the rank's threads
/// claim chunks of the rank's share (`cursor` .. `base`) from a cursor they share (`slot`: the
/// loop's index in the rank team, 0: this thread is its rank's only one, `cursor` is its own).
const LOOP_RANK: u32 = 8;

/// libgomp's guided chunk: `max(ceil(remaining / team), chunk)`, at most `remaining`.
fn guided_size(remaining: u64, team: u64, chunk: u64) -> u64 {
    remaining.div_ceil(team.max(1)).max(chunk).min(remaining)
}

/// Number of guided chunks of `[0, n)`.
fn guided_chunks(n: u64, team: u64, chunk: u64) -> u64 {
    let (mut start, mut count) = (0u64, 0u64);
    while start < n {
        start += guided_size(n - start, team, chunk);
        count += 1;
    }
    count
}

/// (kind, chunk) after resolving `runtime` and `auto` (`auto` and unknown kinds are static).
fn resolve(s: &State, schedule: i32, chunk: i64) -> (i32, u64) {
    let (kind, chunk) = if schedule == CAPE_SCHED_RUNTIME {
        let (kind, chunk) = team::runtime_schedule(s);
        let kind = match kind {
            2 => CAPE_SCHED_DYNAMIC,
            3 => CAPE_SCHED_GUIDED,
            _ => CAPE_SCHED_STATIC,
        };
        (kind, i64::from(chunk))
    } else {
        (schedule, chunk)
    };
    let chunk = chunk.max(0) as u64;
    match kind {
        CAPE_SCHED_STATIC => (CAPE_SCHED_STATIC, chunk),
        // Dynamic and guided without a chunk size mean chunks of (at least) 1.
        CAPE_SCHED_DYNAMIC | CAPE_SCHED_GUIDED => (kind, chunk.max(1)),
        _ => (CAPE_SCHED_STATIC, 0),
    }
}

impl __cape_loop {
    /// `__cape_loop_init`. A team of one (orphaned loop, inactive region) runs everything.
    pub fn init(&mut self, s: &mut State, n: u64, schedule: i32, chunk: i64) {
        if let Err(e) = s.team.worksharing_begin("a `for` or `sections` construct") {
            crate::runtime::fatal(&e);
        }
        let (tid, team) = s.team.current_team();
        let (kind, chunk) = resolve(s, schedule, chunk);
        let (kind, chunk) = if team <= 1 {
            (CAPE_SCHED_STATIC, 0)
        } else if kind != CAPE_SCHED_STATIC && crate::region::cooperative::innermost(s) {
            // one process runs the whole team: no shared ticket counter, any split is legal
            (
                CAPE_SCHED_STATIC,
                if kind == CAPE_SCHED_DYNAMIC { chunk } else { 0 },
            )
        } else if kind != CAPE_SCHED_STATIC && s.team.innermost_hybrid() {
            self.init_rank_share(n, team, tid, kind, chunk);
            return;
        } else {
            (kind, chunk)
        };
        *self = __cape_loop {
            n,
            chunk,
            team,
            tid,
            schedule: kind,
            ..Default::default()
        };
        if kind != CAPE_SCHED_STATIC {
            self.chunks = if kind == CAPE_SCHED_DYNAMIC {
                n.div_ceil(chunk)
            } else {
                guided_chunks(n, team, chunk)
            };
            let (slot, base) = s.team.counter_instance(self.chunks, team);
            self.slot = slot as u64;
            self.base = base;
        }
    }

    /// A dynamic/guided loop with several threads in some rank: each rank takes the iterations
    /// its threads' static blocks would (one contiguous share, so the ranks write what they
    /// would with one thread each) and its threads claim chunks of it as they come.
    fn init_rank_share(&mut self, n: u64, team: u64, tid: u64, kind: i32, chunk: u64) {
        let block_start = |t: u64| t * (n / team) + t.min(n % team);
        let share = |base: u32, count: u32| {
            (
                block_start(u64::from(base)),
                block_start(u64::from(base) + u64::from(count)),
            )
        };
        let (index, base, count) =
            crate::region::threads::rank_loop(|b, c| share(b, c).0).unwrap_or((0, tid as u32, 1));
        let (lo, hi) = share(base, count);
        *self = __cape_loop {
            n,
            chunk,
            team,
            tid,
            schedule: kind,
            flags: LOOP_RANK,
            slot: index,
            base: hi,
            chunks: u64::from(count),
            cursor: lo,
            ..Default::default()
        };
    }

    /// The next chunk of a `LOOP_RANK` loop, None (and done) when the rank's share is.
    fn claimed_in_rank(&mut self) -> Option<(u64, u64)> {
        if self.flags & LOOP_DONE != 0 {
            return None;
        }
        let (end, chunk, threads) = (self.base, self.chunk, self.chunks);
        let guided = self.schedule == CAPE_SCHED_GUIDED;
        let size = move |lo: u64| {
            if guided {
                guided_size(end - lo, threads, chunk)
            } else {
                chunk.min(end - lo)
            }
        };
        let take = |cursor: &AtomicU64| {
            cursor
                .fetch_update(Ordering::AcqRel, Ordering::Acquire, |lo| {
                    (lo < end).then(|| lo + size(lo))
                })
                .ok()
        };
        let lo = if self.slot == 0 {
            let own = AtomicU64::new(self.cursor);
            let lo = take(&own);
            self.cursor = own.into_inner();
            lo
        } else {
            crate::region::threads::with_loop_cursor(self.slot, take).flatten()
        };
        let Some(lo) = lo else {
            self.flags |= LOOP_DONE;
            return None;
        };
        let hi = lo + size(lo);
        if hi == self.n {
            self.flags |= LOOP_LAST;
        }
        Some((lo, hi))
    }

    /// `__cape_loop_init_ordered`: a loop with the `ordered` clause. Separate processes cannot
    /// interleave the ordered parts of their iterations, so in an active team thread 0 runs
    /// every iteration in sequential order (each chunk in the name of the thread the schedule
    /// gives it) and the others run none; the loop's end merges thread 0's writes.
    pub fn init_ordered(&mut self, s: &mut State, n: u64, schedule: i32, chunk: i64) {
        let (tid, team) = s.team.current_team();
        if team <= 1 {
            self.init(s, n, schedule, chunk);
            return;
        }
        if let Err(e) = s.team.worksharing_begin("a `for` construct") {
            crate::runtime::fatal(&e);
        }
        let (kind, chunk) = resolve(s, schedule, chunk);
        *self = __cape_loop {
            n,
            chunk,
            team,
            tid,
            schedule: kind,
            flags: LOOP_ORDERED,
            ..Default::default()
        };
        s.team.ordered_loop_begin();
    }

    /// Ends the loop's bookkeeping (`__cape_loop_end`, before its barrier).
    pub fn finish(&mut self, s: &mut State) {
        s.team.worksharing_end();
        if self.flags & LOOP_ORDERED != 0 {
            self.flags &= !LOOP_ORDERED;
            s.team.ordered_loop_end();
        }
    }

    /// The next chunk of an ordered loop, in iteration order, with the thread that owns it.
    fn next_ordered(&mut self) -> Option<(u64, u64, u64)> {
        if self.tid != 0 {
            return None;
        }
        loop {
            if self.cursor >= self.n {
                return None;
            }
            let (lo, owner) = (self.cursor, self.taken);
            let hi = match self.schedule {
                // the blocks of threads 0, 1, … in turn (some may be empty)
                CAPE_SCHED_STATIC if self.chunk == 0 => {
                    if owner >= self.team {
                        return None;
                    }
                    static_chunks(self.n, self.team, owner, 0)
                        .next()
                        .map_or(lo, |(_, hi)| hi)
                }
                CAPE_SCHED_GUIDED => lo + guided_size(self.n - lo, self.team, self.chunk),
                _ => lo.saturating_add(self.chunk.max(1)).min(self.n),
            };
            self.taken += 1;
            if hi > lo {
                self.cursor = hi;
                // chunk k belongs to thread k mod team (static blocks: k < team already)
                return Some((lo, hi, owner % self.team));
            }
        }
    }

    /// `__cape_loop_next`: the next `[lo, hi)` of this thread, or None when done.
    pub fn next_block(&mut self, s: &mut State) -> Option<(u64, u64)> {
        if self.flags & LOOP_ORDERED != 0 {
            let (lo, hi, owner) = self.next_ordered()?;
            s.team.ordered_owner(owner as u32);
            if hi == self.n {
                self.flags |= LOOP_LAST;
            }
            s.team.note_iteration(hi - 1);
            return Some((lo, hi));
        }
        let range = match self.schedule {
            _ if self.flags & LOOP_RANK != 0 => self.claimed_in_rank(),
            CAPE_SCHED_DYNAMIC | CAPE_SCHED_GUIDED => {
                let ticket = team::fetch_ticket(s, self.slot as usize);
                self.claimed(ticket)
            }
            _ => self.next_static(),
        };
        let (lo, hi) = range?;
        s.team.note_iteration(hi - 1);
        Some((lo, hi))
    }

    /// The chunk of `ticket` (absolute counter value), None (and done) past the last chunk.
    fn claimed(&mut self, ticket: u64) -> Option<(u64, u64)> {
        if self.flags & LOOP_DONE != 0 {
            return None;
        }
        let k = ticket.wrapping_sub(self.base);
        if k >= self.chunks {
            // Exactly one failed ticket per thread: the counter bookkeeping relies on it.
            self.flags |= LOOP_DONE;
            return None;
        }
        let (lo, hi) = if self.schedule == CAPE_SCHED_DYNAMIC {
            let lo = k * self.chunk;
            (lo, lo.saturating_add(self.chunk).min(self.n))
        } else {
            // Tickets of one thread increase: walk the deterministic chunk sequence forward.
            while self.taken < k {
                self.cursor += guided_size(self.n - self.cursor, self.team, self.chunk);
                self.taken += 1;
            }
            let size = guided_size(self.n - self.cursor, self.team, self.chunk);
            (self.cursor, self.cursor + size)
        };
        if hi == self.n {
            self.flags |= LOOP_LAST;
        }
        Some((lo, hi))
    }

    fn next_static(&mut self) -> Option<(u64, u64)> {
        let range = if self.chunk == 0 {
            if self.taken > 0 {
                None
            } else {
                static_chunks(self.n, self.team, self.tid, 0).next()
            }
        } else {
            // Chunk k of this thread is global chunk tid + k * team.
            self.taken
                .checked_mul(self.team)
                .and_then(|x| x.checked_add(self.tid))
                .and_then(|c| c.checked_mul(self.chunk))
                .filter(|&lo| lo < self.n)
                .map(|lo| (lo, lo.saturating_add(self.chunk).min(self.n)))
        };
        self.taken += 1;
        let (lo, hi) = range?;
        if hi == self.n {
            self.flags |= LOOP_LAST;
        }
        Some((lo, hi))
    }

    /// `__cape_loop_is_last`: this thread ran iteration n-1.
    pub fn is_last(&self) -> bool {
        self.flags & LOOP_LAST != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks_of(n: u64, team: u64, tid: u64, chunk: u64) -> (Vec<(u64, u64)>, bool) {
        let mut l = __cape_loop {
            n,
            chunk,
            team,
            tid,
            ..Default::default()
        };
        let mut v = Vec::new();
        while let Some(r) = l.next_static() {
            v.push(r);
        }
        (v, l.is_last())
    }

    #[test]
    fn a_rank_share_is_claimed_once_in_chunks() {
        // a thread alone in its rank (no rank team): its own cursor over the rank's share
        for kind in [CAPE_SCHED_DYNAMIC, CAPE_SCHED_GUIDED] {
            for (n, team, tid, chunk) in [(100u64, 4u64, 1u64, 3u64), (7, 4, 3, 1), (2, 4, 3, 2)] {
                let mut l = __cape_loop::default();
                l.init_rank_share(n, team, tid, kind, chunk);
                let (lo, hi) = (tid * (n / team) + tid.min(n % team), l.base);
                let mut next = lo;
                while let Some((a, b)) = l.claimed_in_rank() {
                    assert_eq!(a, next, "chunks in order, none skipped");
                    assert!(b > a && b <= hi);
                    next = b;
                }
                assert_eq!(next, hi);
                assert_eq!(l.is_last(), hi == n && hi > lo);
                assert!(l.claimed_in_rank().is_none());
            }
        }
    }

    #[test]
    fn loop_matches_the_static_schedule() {
        for n in [0u64, 1, 2, 7, 10, 64, 101] {
            for team in 1..=9u64 {
                for chunk in [0u64, 1, 2, 3, 16] {
                    for tid in 0..team {
                        let (got, last) = chunks_of(n, team, tid, chunk);
                        let want: Vec<_> = static_chunks(n, team, tid, chunk).collect();
                        assert_eq!(got, want, "n={n} team={team} tid={tid} chunk={chunk}");
                        assert_eq!(last, got.last().is_some_and(|r| r.1 == n));
                        // the lowering asks for the block of `schedule(static)` once (an `if`)
                        assert!(chunk != 0 || got.len() <= 1);
                    }
                }
            }
        }
    }

    /// Thread 0 of an ordered loop gets every iteration once, in order, each chunk owned by
    /// the thread of the schedule (static) or in turn; the other threads get nothing.
    #[test]
    fn ordered_loops_run_in_order_on_thread_zero() {
        for schedule in [CAPE_SCHED_STATIC, CAPE_SCHED_DYNAMIC, CAPE_SCHED_GUIDED] {
            for n in [0u64, 1, 2, 3, 7, 10, 101] {
                for team in 2..=9u64 {
                    for chunk in [0u64, 1, 3] {
                        let mut l = __cape_loop {
                            n,
                            chunk: if schedule == CAPE_SCHED_STATIC {
                                chunk
                            } else {
                                chunk.max(1)
                            },
                            team,
                            tid: 0,
                            schedule,
                            flags: LOOP_ORDERED,
                            ..Default::default()
                        };
                        let mut next = 0;
                        while let Some((lo, hi, owner)) = l.next_ordered() {
                            assert_eq!(lo, next);
                            assert!(hi > lo && owner < team);
                            if schedule == CAPE_SCHED_STATIC {
                                let own: Vec<_> = static_chunks(n, team, owner, l.chunk).collect();
                                assert!(own.iter().any(|&(a, b)| a <= lo && hi <= b));
                            }
                            next = hi;
                        }
                        assert_eq!(next, n, "{schedule} n={n} team={team} chunk={chunk}");
                        let mut other = __cape_loop { tid: 1, ..l };
                        other.cursor = 0;
                        assert!(other.next_ordered().is_none());
                    }
                }
            }
        }
    }

    /// Tickets handed out in an arbitrary interleaving cover every iteration exactly once, in
    /// libgomp's chunk sizes, and consume `chunks + team` tickets.
    #[test]
    fn ticket_schedules_cover_the_space() {
        for schedule in [CAPE_SCHED_DYNAMIC, CAPE_SCHED_GUIDED] {
            for n in [0u64, 1, 5, 17, 100, 1000] {
                for team in 2..=5u64 {
                    for chunk in [1u64, 3, 7] {
                        let chunks = if schedule == CAPE_SCHED_DYNAMIC {
                            n.div_ceil(chunk)
                        } else {
                            guided_chunks(n, team, chunk)
                        };
                        let base = 1000;
                        let mut loops: Vec<__cape_loop> = (0..team)
                            .map(|tid| __cape_loop {
                                n,
                                chunk,
                                team,
                                tid,
                                schedule,
                                base,
                                chunks,
                                ..Default::default()
                            })
                            .collect();
                        let mut seen = vec![0u32; n as usize];
                        let mut ticket = base;
                        let mut active: Vec<usize> = (0..team as usize).collect();
                        let mut turn = 0usize;
                        let mut sizes = Vec::new();
                        while !active.is_empty() {
                            turn = (turn * 7 + 3) % active.len();
                            let who = active[turn];
                            match loops[who].claimed(ticket) {
                                Some((lo, hi)) => {
                                    sizes.push((ticket - base, hi - lo));
                                    for i in lo..hi {
                                        seen[i as usize] += 1;
                                    }
                                }
                                None => {
                                    active.remove(turn);
                                    turn = 0;
                                }
                            }
                            ticket += 1;
                        }
                        assert_eq!(ticket - base, chunks + team);
                        assert!(seen.iter().all(|&c| c == 1), "{schedule} n={n} team={team}");
                        let lasts = loops.iter().filter(|l| l.is_last()).count();
                        assert_eq!(lasts, usize::from(n > 0));
                        if schedule == CAPE_SCHED_GUIDED {
                            sizes.sort_unstable();
                            let mut rem = n;
                            for (_, size) in sizes {
                                assert_eq!(size, guided_size(rem, team, chunk));
                                rem -= size;
                            }
                        }
                    }
                }
            }
        }
    }
}
