//! Timestamp merge of two TICKPTs, with optional data-race detection.
//!
//! The merge is a two-pointer sweep over both run lists that splits runs where they partly
//! overlap: linear in the number of runs plus bytes, no per-byte map. Where both inputs hold a
//! byte, the larger [`Stamp`] wins, which is what sequential execution leaves in memory.

use crate::tickpt::{RunRef, Tickpt};

pub use cape_format::changeset::Race;

/// Union of two TICKPTs of the same region. Where runs overlap, the byte with the larger Stamp
/// wins (on equal stamps, which well-formed inputs never have, `b` wins).
/// If `races` is Some: overlapping bytes written by different ranks with different values are
/// reported (adjacent racy bytes of the same pair of ranks coalesce into one Race, also with a
/// race already at the end of `races`). Identical values are not a race.
///
/// The result is canonical (adjacent runs with the same stamp are coalesced) when the inputs are
/// (as [`Tickpt::push`] and both decoders of our own encodings build them), so it depends only
/// on which byte each input holds, not on how the inputs were split into runs. Stretches of
/// whole runs that the other input does not overlap are copied in bulk, not run by run.
pub fn merge(a: &Tickpt, b: &Tickpt, mut races: Option<&mut Vec<Race>>) -> Tickpt {
    let region = a.region;
    let mut out = Tickpt::with_capacity(
        region,
        a.run_count() + b.run_count(),
        a.data_bytes() + b.data_bytes(),
    );
    let mut ca = Cursor::new(a);
    let mut cb = Cursor::new(b);
    loop {
        match (ca.cur, cb.cur) {
            (None, None) => break,
            (Some(_), None) => ca.copy_runs_ending_by(u64::MAX, &mut out),
            (None, Some(_)) => cb.copy_runs_ending_by(u64::MAX, &mut out),
            (Some(x), Some(y)) if x.addr != y.addr => {
                // Emit the leading part of the run that starts first, up to where the other starts.
                let (first, other_addr, cursor) = if x.addr < y.addr {
                    (x, y.addr, &mut ca)
                } else {
                    (y, x.addr, &mut cb)
                };
                if first.end() <= other_addr && cursor.whole {
                    // The common case of disjoint writes: whole runs in bulk.
                    cursor.copy_runs_ending_by(other_addr, &mut out);
                    continue;
                }
                let n = (first.bytes.len() as u64).min(other_addr - first.addr) as usize;
                out.push(first.addr, first.stamp, &first.bytes[..n]);
                cursor.advance(n);
            }
            (Some(x), Some(y)) => {
                let n = x.bytes.len().min(y.bytes.len());
                let (xb, yb) = (&x.bytes[..n], &y.bytes[..n]);
                if let Some(races) = races.as_deref_mut() {
                    if x.stamp.rank != y.stamp.rank {
                        report_races(races, region, x.addr, xb, yb, x.stamp.rank, y.stamp.rank);
                    }
                }
                let winner = if x.stamp > y.stamp {
                    (x.stamp, xb)
                } else {
                    (y.stamp, yb)
                };
                out.push(x.addr, winner.0, winner.1);
                ca.advance(n);
                cb.advance(n);
            }
        }
    }
    out
}

/// The not yet consumed part of the current run of one input.
struct Cursor<'a> {
    tickpt: &'a Tickpt,
    cur: Option<RunRef<'a>>,
    /// Index of the current run.
    index: usize,
    /// Where the current run's bytes start in the input's data buffer.
    data_offset: usize,
    /// Nothing of the current run has been consumed yet.
    whole: bool,
}

impl<'a> Cursor<'a> {
    fn new(tickpt: &'a Tickpt) -> Cursor<'a> {
        Cursor {
            tickpt,
            cur: tickpt.run_at(0, 0),
            index: 0,
            data_offset: 0,
            whole: true,
        }
    }

    /// Move to the start of run `index`, whose bytes start at `data_offset`.
    fn seek(&mut self, index: usize, data_offset: usize) {
        self.index = index;
        self.data_offset = data_offset;
        self.cur = self.tickpt.run_at(index, data_offset);
        self.whole = true;
    }

    /// Consume `n` bytes (at most the rest of the current run).
    fn advance(&mut self, n: usize) {
        if let Some(run) = self.cur {
            if n >= run.bytes.len() {
                let len = self
                    .tickpt
                    .run_at(self.index, self.data_offset)
                    .map_or(0, |r| r.bytes.len());
                self.seek(self.index + 1, self.data_offset + len);
            } else {
                self.cur = Some(RunRef {
                    addr: run.addr + n as u64,
                    stamp: run.stamp,
                    bytes: &run.bytes[n..],
                });
                self.whole = false;
            }
        }
    }

    /// Copy the current run (whole) and the following runs that end at or before `limit`.
    fn copy_runs_ending_by(&mut self, limit: u64, out: &mut Tickpt) {
        if !self.whole {
            if let Some(run) = self.cur {
                out.push(run.addr, run.stamp, run.bytes);
                self.advance(run.bytes.len());
            }
        }
        let (end, bytes) = self.tickpt.runs_ending_by(self.index, limit);
        out.append_runs(self.tickpt, self.index..end, self.data_offset, bytes);
        self.seek(end, self.data_offset + bytes);
    }
}

/// Report the maximal ranges where `xb` and `yb` (both at `addr`) differ.
fn report_races(
    races: &mut Vec<Race>,
    region: u64,
    addr: u64,
    xb: &[u8],
    yb: &[u8],
    rank_x: u32,
    rank_y: u32,
) {
    if xb == yb {
        return;
    }
    let ranks = (rank_x.min(rank_y), rank_x.max(rank_y));
    let mut i = 0;
    while i < xb.len() {
        if xb[i] == yb[i] {
            i += 1;
            continue;
        }
        let start = i;
        while i < xb.len() && xb[i] != yb[i] {
            i += 1;
        }
        let race_addr = addr + start as u64;
        let len = (i - start) as u64;
        match races.last_mut() {
            Some(last)
                if last.region == region
                    && last.ranks == ranks
                    && last.addr + last.len == race_addr =>
            {
                last.len += len;
            }
            _ => races.push(Race {
                addr: race_addr,
                len,
                ranks,
                region,
            }),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::tickpt::testutil::{byte_map, oracle, random_tickpt, Rng};
    use crate::tickpt::Stamp;
    use cape_format::changeset::testutil::check_races;

    fn st(order: u64, rank: u32) -> Stamp {
        Stamp { order, rank }
    }

    #[test]
    fn later_stamp_wins_where_runs_overlap() {
        let mut a = Tickpt::new(1);
        a.push(10, st(5, 0), &[1, 1, 1, 1]);
        let mut b = Tickpt::new(1);
        b.push(8, st(3, 1), &[2, 2, 2, 2, 2, 2, 2, 2]);
        let m = merge(&a, &b, None);
        let runs: Vec<_> = m
            .runs()
            .map(|r| (r.addr, r.stamp.rank, r.bytes.to_vec()))
            .collect();
        assert_eq!(
            runs,
            vec![
                (8, 1, vec![2, 2]),
                (10, 0, vec![1, 1, 1, 1]),
                (14, 1, vec![2, 2]),
            ]
        );
        assert_eq!(merge(&b, &a, None), m);
    }

    #[test]
    fn races_are_reported_per_differing_range() {
        let mut a = Tickpt::new(3);
        a.push(100, st(0, 2), &[1, 2, 3, 4, 5, 6]);
        let mut b = Tickpt::new(3);
        b.push(101, st(1, 0), &[9, 3, 8]);
        b.push(104, st(1, 0), &[7]); // adjacent, same stamp: coalesced into one run by push
        b.push(106, st(1, 0), &[0]);
        let mut races = Vec::new();
        merge(&a, &b, Some(&mut races));
        assert_eq!(
            races,
            vec![
                Race {
                    addr: 101,
                    len: 1,
                    ranks: (0, 2),
                    region: 3
                },
                Race {
                    addr: 103,
                    len: 2,
                    ranks: (0, 2),
                    region: 3
                },
            ]
        );
    }

    #[test]
    fn identical_values_and_one_rank_are_not_races() {
        let mut a = Tickpt::new(0);
        a.push(0, st(0, 1), &[5, 5]);
        let mut b = Tickpt::new(0);
        b.push(0, st(1, 2), &[5, 5]);
        let mut races = Vec::new();
        merge(&a, &b, Some(&mut races));
        assert!(races.is_empty());
        let mut c = Tickpt::new(0);
        c.push(0, st(9, 1), &[6, 6]);
        merge(&a, &c, Some(&mut races));
        assert!(races.is_empty());
    }

    #[test]
    fn adjacent_races_coalesce_across_run_pieces() {
        // b's two runs have different stamps, so the racy bytes come from two overlap pieces.
        let mut a = Tickpt::new(0);
        a.push(0, st(0, 1), &[1, 1, 1, 1]);
        let mut b = Tickpt::new(0);
        b.push(0, st(1, 2), &[2, 2]);
        b.push(2, st(2, 2), &[2, 2]);
        let mut races = Vec::new();
        merge(&a, &b, Some(&mut races));
        assert_eq!(
            races,
            vec![Race {
                addr: 0,
                len: 4,
                ranks: (1, 2),
                region: 0
            }]
        );
    }

    /// Merge a list of TICKPTs in a random tree order.
    fn merge_random_tree(rng: &mut Rng, mut items: Vec<Tickpt>, races: &mut Vec<Race>) -> Tickpt {
        while items.len() > 1 {
            let i = rng.below(items.len() as u64) as usize;
            let a = items.swap_remove(i);
            let j = rng.below(items.len() as u64) as usize;
            let b = items.swap_remove(j);
            items.push(merge(&a, &b, Some(races)));
        }
        items.pop().unwrap_or_default()
    }

    #[test]
    fn any_merge_tree_equals_applying_runs_in_stamp_order() {
        let mut rng = Rng::new(20);
        for case in 0..400 {
            let ranks = 1 + rng.below(7) as u32;
            let inputs: Vec<Tickpt> = (0..ranks)
                .map(|r| {
                    let span = 20 + rng.below(200);
                    random_tickpt(&mut rng, 4, r, 1000, span)
                })
                .collect();
            let want = oracle(4, &inputs);
            let mut races = Vec::new();
            let got = merge_random_tree(&mut rng, inputs.clone(), &mut races);
            assert_eq!(got, want, "case {case}");
            let writes = inputs.iter().flat_map(|t| {
                t.runs().flat_map(|run| {
                    let rank = run.stamp.rank;
                    (run.addr..)
                        .zip(run.bytes.iter())
                        .map(move |(a, &b)| (a, rank, b))
                })
            });
            check_races(writes, &races);
        }
    }

    #[test]
    fn merge_is_commutative_and_associative() {
        let mut rng = Rng::new(21);
        for _ in 0..500 {
            let [a, b, c] = [0, 1, 2].map(|r| random_tickpt(&mut rng, 0, r, 0, 150));
            assert_eq!(merge(&a, &b, None), merge(&b, &a, None));
            assert_eq!(
                merge(&merge(&a, &b, None), &c, None),
                merge(&a, &merge(&b, &c, None), None)
            );
            assert_eq!(merge(&a, &Tickpt::new(0), None), oracle(0, [&a]));
            let m = merge(&a, &b, None);
            assert_eq!(byte_map([&m]), byte_map([&a, &b]));
        }
    }
}
