//! Change sets as runs of bytes: the form the checkpoint log and the region's accumulated
//! changes keep ([`Tickpt`]).

use super::{ChangeSet, Record, LINE, LINES};
use crate::tickpt::{Stamp, Tickpt};

/// The page records of `set` as a TICKPT (runs ascending by address, stamps from the table).
pub fn to_tickpt(set: &ChangeSet<'_>) -> Tickpt {
    to_tickpt_where(set, |_| true)
}

/// [`to_tickpt`] of the records of the pages `keep` accepts (by page address) only.
pub fn to_tickpt_where(set: &ChangeSet<'_>, keep: impl Fn(u64) -> bool) -> Tickpt {
    let mut out = Tickpt::new(set.region);
    let mut records = set.records().peekable();
    // (start byte in the line, length, stamp, bytes) of the records of one line
    let mut pieces: Vec<(u32, u32, Stamp, &[u8])> = Vec::new();
    while let Some(first) = records.next() {
        let mut group: Vec<Record<'_>> = vec![first];
        while let Some(r) = records.next_if(|r| r.page == first.page) {
            group.push(r);
        }
        if !keep(first.page) {
            continue;
        }
        let mut iters: Vec<_> = group
            .iter()
            .map(|r| {
                let stamp = set.stamp_of(r.rank).unwrap_or_default();
                (stamp, r.lines().peekable())
            })
            .collect();
        for line in 0..LINES {
            pieces.clear();
            for (stamp, lines) in &mut iters {
                if let Some(l) = lines.next_if(|l| l.index == line) {
                    let mut bits = l.mask;
                    let mut at = 0usize;
                    while bits != 0 {
                        let start = bits.trailing_zeros();
                        let len = (bits >> start).trailing_ones();
                        pieces.push((start, len, *stamp, &l.data[at..at + len as usize]));
                        at += len as usize;
                        bits &= !((((1u128 << len) - 1) as u64) << start);
                    }
                }
            }
            pieces.sort_unstable_by_key(|p| p.0);
            let base = first.page + (line * LINE) as u64;
            for &(start, _, stamp, bytes) in &pieces {
                out.push(base + u64::from(start), stamp, bytes);
            }
        }
    }
    out
}
