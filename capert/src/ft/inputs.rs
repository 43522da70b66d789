//! What sequential code reads besides shared memory, so that a restart with other input is
//! refused instead of mixing two runs: the bytes of stdin (rank 0 reads all of them once, see
//! `io.rs`) and the environment variables the program reads (`getenv` in user code is renamed
//! `__cape_getenv`, which records the name and the value it returned). The arguments are bound
//! by the log header. Reads inside a region are not recorded: a replayed region does not run.

use super::log::Inputs;
use crate::tickpt::xxh64;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Digest of stdin's bytes, 0 until rank 0 has read them.
static STDIN_DIGEST: AtomicU64 = AtomicU64::new(0);

/// Environment variables read by sequential code: name -> the value of the first read.
static ENV_READS: Mutex<BTreeMap<Vec<u8>, Option<Vec<u8>>>> = Mutex::new(BTreeMap::new());

fn env_reads() -> std::sync::MutexGuard<'static, BTreeMap<Vec<u8>, Option<Vec<u8>>>> {
    ENV_READS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Rank 0 read all of stdin: these bytes.
pub fn note_stdin(bytes: &[u8]) {
    // Never 0, so that "read, empty" differs from "not read".
    STDIN_DIGEST.store(xxh64(bytes, 0x5354_4449_4e00) | 1, Ordering::Relaxed);
}

/// Sequential code read environment variable `name` and got `value`. Only the first read of a
/// name counts: later values are the program's own `setenv`s, deterministic.
pub fn note_env_read(name: &[u8], value: Option<&[u8]>) {
    let mut reads = env_reads();
    if !reads.contains_key(name) {
        reads.insert(name.to_vec(), value.map(<[u8]>::to_vec));
    }
}

/// Digest of a set of environment reads (0 when none).
fn env_digest(reads: &BTreeMap<Vec<u8>, Option<Vec<u8>>>) -> u64 {
    if reads.is_empty() {
        return 0;
    }
    let mut bytes = Vec::new();
    for (name, value) in reads {
        bytes.extend_from_slice(&(name.len() as u64).to_le_bytes());
        bytes.extend_from_slice(name);
        match value {
            None => bytes.push(0),
            Some(v) => {
                bytes.push(1);
                bytes.extend_from_slice(&(v.len() as u64).to_le_bytes());
                bytes.extend_from_slice(v);
            }
        }
    }
    xxh64(&bytes, 0x454e_5600)
}

/// The inputs read so far.
pub fn current() -> Inputs {
    Inputs {
        stdin: STDIN_DIGEST.load(Ordering::Relaxed),
        env: env_digest(&env_reads()),
    }
}

/// Names of the environment variables read so far, for messages.
fn env_names() -> String {
    let names: Vec<String> = env_reads()
        .keys()
        .map(|n| String::from_utf8_lossy(n).into_owned())
        .collect();
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}

/// Compares the inputs read before region `k` now with the logged ones; the error is the
/// sentence of the refusal, naming the input that differs.
pub fn check(logged: &Inputs, now: &Inputs, k: u64, dir: &str) -> Result<(), String> {
    let fresh = format!("or start afresh with `CAPE_CHECKPOINT={dir}`");
    if logged.stdin != now.stdin {
        return Err(format!(
            "the standard input differs from the run that wrote the log in {dir} (before parallel region {k}): give the same input, {fresh}"
        ));
    }
    if logged.env != now.env {
        return Err(format!(
            "the environment variables the program read before parallel region {k} differ from the run that wrote the log in {dir} (read now: {}): set them as they were, {fresh}",
            env_names()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_digest_depends_on_names_and_values() {
        let mut a = BTreeMap::new();
        assert_eq!(env_digest(&a), 0);
        a.insert(b"N".to_vec(), Some(b"10".to_vec()));
        let d1 = env_digest(&a);
        a.insert(b"N".to_vec(), Some(b"11".to_vec()));
        let d2 = env_digest(&a);
        a.insert(b"N".to_vec(), None);
        let d3 = env_digest(&a);
        let mut b = BTreeMap::new();
        b.insert(b"M".to_vec(), Some(b"10".to_vec()));
        let d4 = env_digest(&b);
        let all = [d1, d2, d3, d4];
        for i in 0..all.len() {
            assert_ne!(all[i], 0);
            for j in i + 1..all.len() {
                assert_ne!(all[i], all[j]);
            }
        }
    }

    #[test]
    fn check_names_the_input_that_differs() {
        let logged = Inputs { stdin: 5, env: 7 };
        assert!(check(&logged, &logged, 1, "d").is_ok());
        let e = check(&logged, &Inputs { stdin: 6, env: 7 }, 2, "d").unwrap_err();
        assert!(e.starts_with("the standard input differs"), "{e}");
        let e = check(&logged, &Inputs { stdin: 5, env: 8 }, 2, "d").unwrap_err();
        assert!(
            e.starts_with("the environment variables the program read before parallel region 2"),
            "{e}"
        );
    }
}
