//! What a replayed region may write: every run of its logged change must lie inside the shared
//! memory the tracker has at that point of the replay (user globals, the used arena, the user
//! stack above the region's stack pointer). A log is data from disk: an authentic log never
//! holds anything else, so a run outside is refused, never written (pure; see docs/security.md).

use super::inputs;
use super::log::{Entry, Inputs};
use crate::tickpt::{Runs, Tickpt};

/// Sorted, disjoint ranges with touching or overlapping ones joined (a run may cross from one
/// global section into the next when they are adjacent).
pub fn normalize(ranges: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut v: Vec<(usize, usize)> = ranges.iter().copied().filter(|&(s, e)| e > s).collect();
    v.sort_unstable();
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(v.len());
    for (s, e) in v {
        match out.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => out.push((s, e)),
        }
    }
    out
}

/// Whether `[addr, addr + len)` lies inside one range of `ranges` (normalized).
pub fn inside(ranges: &[(usize, usize)], addr: u64, len: usize) -> bool {
    let (Ok(start), Some(end)) = (
        usize::try_from(addr),
        usize::try_from(addr).ok().and_then(|a| a.checked_add(len)),
    ) else {
        return false;
    };
    let i = ranges.partition_point(|&(_, e)| e <= start);
    ranges.get(i).is_some_and(|&(s, e)| s <= start && end <= e)
}

/// The first run of `change` outside `ranges` (normalized), as (address, length).
pub fn first_outside(mut runs: Runs<'_>, ranges: &[(usize, usize)]) -> Option<(u64, usize)> {
    runs.find(|run| !inside(ranges, run.addr, run.bytes.len()))
        .map(|run| (run.addr, run.bytes.len()))
}

/// Checks the logged change of region `k` against `ranges` (normalized). The error is the
/// sentence of the refusal.
pub fn check(runs: Runs<'_>, ranges: &[(usize, usize)], k: u64, dir: &str) -> Result<(), String> {
    match first_outside(runs, ranges) {
        None => Ok(()),
        Some((addr, len)) => Err(format!(
            "parallel region {k} in the log in {dir} writes {len} bytes at {addr:#x}, outside the program's shared memory: the log is corrupt or forged, nothing of it was written; start afresh with `CAPE_CHECKPOINT={dir}`"
        )),
    }
}

/// Rank 0's decision on logged region `k` at its point of replay: the inputs read so far and
/// the fingerprint of the state now must be the logged ones, and every run of the change must
/// lie inside `shared` (the shared ranges now, any order). Returns the change to inject; the
/// error is the sentence of the refusal.
pub fn admit(
    entry: &Entry,
    inputs_now: &Inputs,
    fingerprint_now: u64,
    shared: &[(usize, usize)],
    k: u64,
    dir: &str,
) -> Result<Tickpt, String> {
    if entry.fingerprint != fingerprint_now {
        inputs::check(&entry.inputs, inputs_now, k, dir)?;
        return Err(format!(
            "the state before parallel region {k} differs from the log in {dir}: other input or program version? Start afresh with `CAPE_CHECKPOINT`"
        ));
    }
    admit_thinned(entry, inputs_now, shared, k, dir)
}

/// [`admit`] for a region a snapshot thinned: the arrays are those of an earlier state until
/// the snapshot is injected, so the fingerprint is not compared.
pub fn admit_thinned(
    entry: &Entry,
    inputs_now: &Inputs,
    shared: &[(usize, usize)],
    k: u64,
    dir: &str,
) -> Result<Tickpt, String> {
    inputs::check(&entry.inputs, inputs_now, k, dir)?;
    let change = Tickpt::decode(&entry.tickpt)
        .map_err(|e| format!("bad replayed region {k} in the log in {dir}: {e}"))?;
    check(change.runs(), &normalize(shared), k, dir)?;
    Ok(change)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tickpt::Stamp;

    fn change(runs: &[(u64, usize)]) -> Tickpt {
        let mut t = Tickpt::new(1);
        for (i, &(addr, len)) in runs.iter().enumerate() {
            t.push(
                addr,
                Stamp {
                    order: i as u64,
                    rank: 0,
                },
                &vec![1; len],
            );
        }
        t
    }

    #[test]
    fn normalize_joins_touching_ranges() {
        assert_eq!(
            normalize(&[(50, 60), (10, 20), (20, 30), (25, 28), (40, 40), (55, 70)]),
            vec![(10, 30), (50, 70)]
        );
    }

    #[test]
    fn runs_must_lie_inside_one_range() {
        let r = normalize(&[(0x1000, 0x2000), (0x4000, 0x5000)]);
        assert_eq!(
            first_outside(change(&[(0x1000, 0x1000), (0x4ff0, 16)]).runs(), &r),
            None
        );
        for (addr, len) in [
            (0xfff, 1),
            (0x1fff, 2),
            (0x2000, 1),
            (0x3ff8, 16),
            (0x4ff8, 9),
            (0x5000, 1),
            (0, 1),
            (u64::MAX - 3, 3),
        ] {
            let t = change(&[(0x1000, 4), (addr, len)]);
            assert_eq!(
                first_outside(t.runs(), &r),
                Some((addr, len)),
                "{addr:#x}+{len}"
            );
            let e = check(t.runs(), &r, 3, "d").unwrap_err();
            assert!(
                e.contains(&format!(
                    "region 3 in the log in d writes {len} bytes at {addr:#x}"
                )),
                "{e}"
            );
        }
        assert!(!inside(&r, u64::MAX, 2));
        assert!(!inside(&[], 0x1000, 1));
    }
}
