//! Sets of address runs `(from, to)`, half-open, sorted by start: the tracker's scopes and
//! kept pages, the merge's excluded ranges.

/// Appends to `out` the pieces of `[lo, hi)` outside `excluded` (sorted by start; the runs
/// may overlap), ascending.
pub fn subtract_from(
    lo: usize,
    hi: usize,
    excluded: &[(usize, usize)],
    out: &mut Vec<(usize, usize)>,
) {
    let mut cur = lo;
    for &(s, e) in excluded {
        if e <= cur || s >= hi {
            continue;
        }
        if s > cur {
            out.push((cur, s));
        }
        cur = cur.max(e);
        if cur >= hi {
            return;
        }
    }
    if cur < hi {
        out.push((cur, hi));
    }
}

/// `out` := `a` without `b` (both sorted and disjoint).
pub fn subtract(a: &[(usize, usize)], b: &[(usize, usize)], out: &mut Vec<(usize, usize)>) {
    out.clear();
    for &(lo, hi) in a {
        subtract_from(lo, hi, b, out);
    }
}

/// The pieces of `[start, end)` inside `runs` (sorted, disjoint), ascending.
pub fn clipped(
    start: usize,
    end: usize,
    runs: &[(usize, usize)],
) -> impl Iterator<Item = (usize, usize)> + '_ {
    let first = runs.partition_point(|&(_, e)| e <= start);
    runs[first..]
        .iter()
        .take_while(move |&&(s, _)| s < end)
        .map(move |&(s, e)| (s.max(start), e.min(end)))
}

/// `out` := `a` inside `b` (both sorted and disjoint).
pub fn intersect(a: &[(usize, usize)], b: &[(usize, usize)], out: &mut Vec<(usize, usize)>) {
    out.clear();
    for &(lo, hi) in a {
        out.extend(clipped(lo, hi, b));
    }
}

/// `out` := `a` joined with `b` (both sorted and disjoint), touching runs merged.
pub fn union(a: &[(usize, usize)], b: &[(usize, usize)], out: &mut Vec<(usize, usize)>) {
    out.clear();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let next = if j == b.len() || (i < a.len() && a[i].0 <= b[j].0) {
            i += 1;
            a[i - 1]
        } else {
            j += 1;
            b[j - 1]
        };
        match out.last_mut() {
            Some(last) if next.0 <= last.1 => last.1 = last.1.max(next.1),
            _ => out.push(next),
        }
    }
}

/// Does one of `runs` (sorted, disjoint) hold `addr`?
pub fn holds(runs: &[(usize, usize)], addr: usize) -> bool {
    let index = runs.partition_point(|&(_, to)| to <= addr);
    runs.get(index).is_some_and(|&(from, _)| from <= addr)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subtract_ranges() {
        let mut out = Vec::new();
        subtract_from(0, 100, &[(10, 20), (30, 40), (95, 200)], &mut out);
        assert_eq!(out, vec![(0, 10), (20, 30), (40, 95)]);
        out.clear();
        subtract_from(10, 20, &[(0, 30)], &mut out);
        assert!(out.is_empty());
        out.clear();
        subtract_from(10, 20, &[], &mut out);
        assert_eq!(out, vec![(10, 20)]);
        out.clear();
        // overlapping exclusions
        subtract_from(0, 100, &[(10, 50), (20, 30), (60, 70)], &mut out);
        assert_eq!(out, vec![(0, 10), (50, 60), (70, 100)]);
    }

    #[test]
    fn set_operations() {
        let a = [(0, 4), (8, 10)];
        let b = [(2, 9)];
        let mut out = Vec::new();
        subtract(&a, &b, &mut out);
        assert_eq!(out, [(0, 2), (9, 10)]);
        intersect(&a, &b, &mut out);
        assert_eq!(out, [(2, 4), (8, 9)]);
        union(&a, &b, &mut out);
        assert_eq!(out, [(0, 10)]);
        union(&[(0, 1)], &[(1, 2), (3, 4)], &mut out);
        assert_eq!(out, [(0, 2), (3, 4)]);
        subtract(&a, &[], &mut out);
        assert_eq!(out, a);
        assert!(holds(&a, 3) && !holds(&a, 4) && holds(&a, 9));
        assert_eq!(clipped(1, 9, &a).collect::<Vec<_>>(), [(1, 4), (8, 9)]);
    }
}
