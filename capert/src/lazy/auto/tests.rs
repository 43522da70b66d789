//! The trial cycle of `auto` on one rank, with made-up times.

use super::*;

/// Runs `n` instances of one region on one rank, each taking `eager` or `lazy` seconds
/// of which `merge` (eager) in merges; returns the mode of each instance and how many
/// collective calls were made.
fn run(n: usize, eager: f64, lazy: f64, merge: f64) -> (Vec<bool>, usize) {
    run_varying(n, eager, |_| lazy, merge)
}

/// [`run`] with a lazy instance's time that depends on the instance's index.
fn run_varying(
    n: usize,
    eager: f64,
    lazy: impl Fn(usize) -> f64,
    merge: f64,
) -> (Vec<bool>, usize) {
    run_world(2, n, eager, lazy, merge)
}

/// [`run_varying`] on one rank of a world of `ranks` (all alike).
fn run_world(
    ranks: usize,
    n: usize,
    eager: f64,
    lazy: impl Fn(usize) -> f64,
    merge: f64,
) -> (Vec<bool>, usize) {
    let mut auto = Auto::new(ranks);
    let start = Instant::now();
    let (mut t, mut merged, mut collectives) = (0.0, 0.0, 0);
    let mut modes = Vec::new();
    for i in 0..n {
        let now = start + Duration::from_secs_f64(t);
        let mut gather = |mine: [f64; 3]| {
            collectives += 1;
            mine
        };
        let lazy_now = auto.choose(1, now, Duration::from_secs_f64(merged), &mut gather);
        modes.push(lazy_now);
        if lazy_now {
            t += lazy(i);
        } else {
            t += eager;
            merged += merge;
        }
    }
    (modes, collectives)
}

#[test]
fn short_runs_never_try_lazy() {
    // 100 instances of 0.4 ms with a merge of half of it: 40 ms in all, under MIN_RUN
    let (modes, collectives) = run(100, 0.0004, 0.0001, 0.0002);
    assert!(modes.iter().all(|&l| !l));
    assert_eq!(collectives, 2, "two checks, at the 32nd and 64th instances");
}

#[test]
fn cheap_merges_never_try_lazy() {
    // 10,000 instances of 10 ms, 1 % of it merging
    let (modes, _) = run(10_000, 0.010, 0.001, 0.0001);
    assert!(modes.iter().all(|&l| !l));
}

#[test]
fn a_faster_lazy_merge_is_kept_and_measured_again_rarely() {
    let (modes, _) = run(4000, 0.010, 0.005, 0.005);
    let first = modes.iter().position(|&l| l).expect("a trial");
    assert_eq!(first, 31, "the first check, 0.31 s into the run");
    assert!(
        modes[31..39].iter().all(|&l| l),
        "a trial of eight instances"
    );
    // kept at the trial's end (0.345 s of run): lazy until the run has grown fourfold
    // (1.38 s: the check at the 256th instance), then six eager instances and lazy again
    let back = modes[first..]
        .iter()
        .position(|&l| !l)
        .expect("measured again")
        + first;
    assert_eq!(back, 255);
    assert_eq!(
        &modes[255..263],
        &[false, false, false, false, false, false, true, true]
    );
    // kept again: measured again only at the check at the 2048th instance
    assert!(modes[261..2047].iter().all(|&l| l));
    assert!(!modes[2047]);
}

#[test]
fn a_tie_goes_to_lazy() {
    for lazy in [0.010, 0.0104] {
        let (modes, _) = run(200, 0.010, lazy, 0.005);
        assert!(modes[..31].iter().all(|&l| !l));
        assert!(
            modes[31..].iter().all(|&l| l),
            "{lazy}: kept at the trial's end"
        );
    }
    // 8 % slower: not a tie
    let (modes, _) = run(200, 0.010, 0.0108, 0.005);
    assert!(
        modes[39..127].iter().all(|&l| !l),
        "back to eager until the next trial"
    );
}

#[test]
fn a_lazy_merge_a_little_slower_than_eager_is_not_measured_before_its_time() {
    // lazy wins the trial, then takes 5 % more than eager: within `STAY` at the check
    // at 128, so no re-measure before the run has grown fourfold (the check at 256)
    let lazy = |i| if i < 100 { 0.009 } else { 0.0105 };
    let (modes, _) = run_varying(300, 0.010, lazy, 0.005);
    assert!(
        modes[31..255].iter().all(|&l| l),
        "lazy until the check at 256"
    );
    assert!(!modes[255], "measured again at 256");
}

#[test]
fn a_winner_whose_trial_overlapped_a_lost_one_is_measured_again() {
    // two regions alternate (a time step of two loops): the first gains from lazy, the
    // second loses; their trials run together
    let mut auto = Auto::new(2);
    let start = Instant::now();
    let (mut t, mut merged) = (0.0, 0.0);
    let mut modes = [Vec::new(), Vec::new()];
    for i in 0..200 {
        // the first region's 39th and 40th instances are slow (noise): two of the
        // second's last samples hold them, one of the first's (its decision comes before
        // the 40th), which leaves it out as an outlier
        let first = if i == 38 || i == 39 { 0.05 } else { 0.008 };
        for (site, lazy_time) in [(1, first), (2, 0.011)] {
            let now = start + Duration::from_secs_f64(t);
            let mut gather = |mine: [f64; 3]| mine;
            let lazy = auto.choose(site, now, Duration::from_secs_f64(merged), &mut gather);
            modes[site - 1].push(lazy);
            if lazy {
                t += lazy_time;
            } else {
                t += 0.010;
                merged += 0.005;
            }
        }
    }
    let [first, second] = modes;
    assert!(second[31..39].iter().all(|&l| l), "the second's trial");
    assert!(
        second[39..63].iter().all(|&l| !l),
        "lost at its 40th instance"
    );
    assert!(first[31..40].iter().all(|&l| l), "the first's trial, won");
    assert!(
        first[40..46].iter().all(|&l| !l),
        "measured again: six eager instances"
    );
    assert!(first[46..63].iter().all(|&l| l), "and a trial won, alone");
}

#[test]
fn a_winner_as_slow_as_when_it_won_is_not_measured_again() {
    // a tie at the trial (4 % slower), then 8 % slower than when it won: 12 % slower than
    // the eager samples, which are as old as the trial, but within `STAY` of its own time
    let lazy = |i| if i < 45 { 0.0104 } else { 0.01123 };
    let (modes, _) = run_varying(120, 0.010, lazy, 0.005);
    assert!(
        modes[31..].iter().all(|&l| l),
        "kept through the check at 64"
    );
}

#[test]
fn a_lazy_merge_that_became_slower_is_measured_at_the_next_check() {
    // lazy wins at first, then (from the 150th instance on) takes 3.5 times eager's time
    let lazy = |i| if i < 150 { 0.005 } else { 0.035 };
    let (modes, _) = run_varying(400, 0.010, lazy, 0.005);
    assert!(modes[31..255].iter().all(|&l| l), "kept after the trial");
    assert_eq!(
        &modes[255..262],
        &[false, false, false, false, false, false, true],
        "check at 256"
    );
    assert!(
        modes[262..].iter().all(|&l| !l),
        "the trial's first instance lost"
    );
}

#[test]
fn from_three_ranks_the_first_check_is_at_the_twelfth_instance() {
    for (ranks, first) in [(2, 31), (3, 11), (4, 11), (8, 11)] {
        let (modes, _) = run_world(ranks, 100, 0.010, |_| 0.005, 0.005);
        assert!(
            modes[..first].iter().all(|&l| !l),
            "P = {ranks}: eager first"
        );
        assert!(modes[first..].iter().all(|&l| l), "P = {ranks}: lazy kept");
    }
    // the early check also waits for the region to have run `MIN_RUN`
    let (modes, _) = run_world(4, 100, 0.004, |_| 0.002, 0.002);
    assert!(modes[..31].iter().all(|&l| !l));
    assert!(modes[31]);
}

#[test]
fn the_first_trials_first_instance_is_not_judged() {
    // four times eager's time at the trial's first instance (served buffers touched
    // for the first time), then faster than eager
    let lazy = |i| if i == 31 { 0.040 } else { 0.005 };
    let (modes, _) = run_varying(100, 0.010, lazy, 0.005);
    assert!(modes[..31].iter().all(|&l| !l));
    assert!(modes[31..].iter().all(|&l| l), "kept");
}

#[test]
fn a_slower_lazy_merge_costs_a_bounded_share() {
    // (lazy's time, the first trial's length, the later ones'): the first trial's first
    // instance is not judged, so 3.5 times eager ends it at its first measured instance
    for (lazy, first_len, trial_len) in [(0.011, 8, 8), (0.020, 5, 5), (0.035, 5, 1)] {
        let (modes, _) = run(100_000, 0.010, lazy, 0.005);
        let lazy_instances = modes.iter().filter(|&&l| l).count();
        let trials = modes.windows(2).filter(|w| !w[0] && w[1]).count();
        assert_eq!(
            lazy_instances,
            first_len + (trials - 1) * trial_len,
            "lazy {lazy}"
        );
        // trials at 0.63 s, then at least twice the run so far: a dozen in 1000 s
        assert!((1..=14).contains(&trials), "{trials} trials");
    }
}
