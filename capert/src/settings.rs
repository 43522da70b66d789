//! The settings every rank must share: the same program with another arena address, team
//! size, schedule or merge mode on one rank computes another split of the work or waits in
//! another collective. On a cluster the environment of mpirun reaches remote ranks only when
//! it is exported (`mpirun -x`), so one rank with `OMP_NUM_THREADS` and one without is an easy
//! mistake: the ranks compare these values once at start-up, and a difference stops the job
//! with one line naming the variable (`first_difference`). Pure: the exchange is the runtime's.

use crate::config::{Config, MergeMode};

/// (variable, value as this rank understood it) for every setting the ranks must share.
pub fn shared_settings(cfg: &Config) -> Vec<(&'static str, String)> {
    let merge = match cfg.merge {
        MergeMode::Eager => "eager",
        MergeMode::Lazy => "lazy",
        MergeMode::Auto => "auto",
    };
    let check = match (cfg.check_races, cfg.check_divergence) {
        (true, true) => "races,divergence",
        (true, false) => "races",
        (false, true) => "divergence",
        (false, false) => "off",
    };
    let schedule = match cfg.schedule {
        None => "unset".to_string(),
        Some((kind, chunk)) => format!("kind {kind}, chunk {chunk}"),
    };
    let fault_tolerance = match &cfg.ft {
        None => "off".to_string(),
        Some(ft) if ft.restart => format!("restart from {}", ft.dir.display()),
        Some(ft) => format!("log in {}", ft.dir.display()),
    };
    vec![
        // the team's size and the iteration split depend on it
        ("OMP_NUM_THREADS", cfg.num_threads.unwrap_or(1).to_string()),
        ("OMP_SCHEDULE", schedule),
        ("CAPE_MERGE", merge.to_string()),
        ("CAPE_CHECK", check.to_string()),
        ("CAPE_CHECKPOINT or CAPE_RESTART", fault_tolerance),
        // shared memory must be at the same addresses everywhere
        ("CAPE_ARENA_BASE", format!("{:#x}", cfg.arena_base)),
        ("CAPE_ARENA_SIZE", format!("{:#x}", cfg.arena_size)),
        ("CAPE_STACK_BASE", format!("{:#x}", cfg.stack_base)),
        ("CAPE_STACK_SIZE", format!("{:#x}", cfg.stack_size)),
        ("CAPE_CRITICAL_HEAP", cfg.critical_heap.to_string()),
        // sizes of the windows and messages the ranks exchange
        ("CAPE_CRITICAL_LOG", cfg.critical_log.to_string()),
        ("CAPE_MERGE_CHUNK", cfg.merge_chunk.to_string()),
    ]
}

/// The settings as one rank sends them: `name=value` lines.
pub fn encode(settings: &[(&'static str, String)]) -> Vec<u8> {
    let mut text = String::new();
    for (name, value) in settings {
        text.push_str(name);
        text.push('=');
        text.push_str(&value.replace('\n', " "));
        text.push('\n');
    }
    text.into_bytes()
}

/// What a rank that could not read its settings sends instead of them: its error (a first
/// byte no `name=value` line starts with).
pub fn encode_refusal(msg: &str) -> Vec<u8> {
    let mut bytes = vec![0u8];
    bytes.extend_from_slice(msg.as_bytes());
    bytes
}

/// The error of the first rank that could not read its settings (`encode_refusal`), as the
/// line rank 0 prints: as it is when that is rank 0, else naming the rank.
pub fn refused(per_rank: &[Vec<u8>]) -> Option<String> {
    let (rank, bytes) = per_rank
        .iter()
        .enumerate()
        .find(|(_, b)| b.first() == Some(&0))?;
    let msg = String::from_utf8_lossy(&bytes[1..]);
    Some(if rank == 0 {
        msg.into_owned()
    } else {
        format!("on rank {rank}: {msg}")
    })
}

/// The first setting in which a rank differs from rank 0, as the error line's text; every
/// rank computes the same from the same bytes.
pub fn first_difference(per_rank: &[Vec<u8>]) -> Option<String> {
    let parse = |bytes: &[u8]| -> Vec<(String, String)> {
        String::from_utf8_lossy(bytes)
            .lines()
            .filter_map(|l| l.split_once('='))
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect()
    };
    let first = parse(per_rank.first()?);
    for (rank, bytes) in per_rank.iter().enumerate().skip(1) {
        let theirs = parse(bytes);
        for (name, value) in &first {
            let other = theirs
                .iter()
                .find(|(n, _)| n == name)
                .map_or("missing", |(_, v)| v.as_str());
            if other != value {
                return Some(format!(
                    "the ranks were started with different settings: {name} is `{value}` on rank 0 \
                     and `{other}` on rank {rank}; every rank must see the same value: export it \
                     to every rank (Open MPI: `mpirun -x {first_name} ...`; MPICH: `mpiexec \
                     -genv {first_name} ...`) or set it in the job script before the launch",
                    first_name = name.split(' ').next().unwrap_or(name),
                ));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes_with(f: impl Fn(&mut Config)) -> Vec<u8> {
        let mut cfg = Config::default();
        f(&mut cfg);
        encode(&shared_settings(&cfg))
    }

    #[test]
    fn a_rank_that_could_not_read_its_settings_is_named() {
        let ok = bytes_with(|_| {});
        let bad = |m: &str| encode_refusal(m);
        assert_eq!(refused(&[ok.clone(), ok.clone()]), None);
        assert_eq!(
            refused(&[bad("`CAPE_MERGE=x` is bad"), bad("`CAPE_MERGE=x` is bad")]).as_deref(),
            Some("`CAPE_MERGE=x` is bad")
        );
        assert_eq!(
            refused(&[ok.clone(), ok, bad("`OMP_NUM_THREADS=0` is bad")]).as_deref(),
            Some("on rank 2: `OMP_NUM_THREADS=0` is bad")
        );
    }

    #[test]
    fn equal_settings_agree() {
        let one = bytes_with(|_| {});
        assert_eq!(first_difference(&[one.clone(), one.clone(), one]), None);
        assert_eq!(first_difference(&[]), None);
    }

    #[test]
    fn unset_thread_count_is_one_thread() {
        let unset = bytes_with(|_| {});
        let one = bytes_with(|c| c.num_threads = Some(1));
        assert_eq!(first_difference(&[unset, one]), None);
    }

    #[test]
    fn a_rank_without_the_thread_count_is_named() {
        let four = bytes_with(|c| c.num_threads = Some(4));
        let unset = bytes_with(|_| {});
        let msg = first_difference(&[four.clone(), four, unset]).expect("differs");
        assert!(
            msg.contains("OMP_NUM_THREADS is `4` on rank 0 and `1` on rank 2"),
            "{msg}"
        );
        assert!(msg.contains("mpirun -x OMP_NUM_THREADS"), "{msg}");
    }

    #[test]
    fn merge_mode_and_schedule_must_agree() {
        let lazy = bytes_with(|c| c.merge = MergeMode::Lazy);
        let eager = bytes_with(|c| c.merge = MergeMode::Eager);
        let msg = first_difference(&[lazy, eager]).expect("differs");
        assert!(msg.contains("CAPE_MERGE is `lazy` on rank 0 and `eager` on rank 1"));
        let dynamic = bytes_with(|c| c.schedule = Some((2, 4)));
        let unset = bytes_with(|_| {});
        assert!(first_difference(&[unset, dynamic])
            .expect("differs")
            .contains("OMP_SCHEDULE"));
    }
}
