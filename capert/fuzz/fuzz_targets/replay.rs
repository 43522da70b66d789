//! Arbitrary bytes as a checkpoint log through the log reader and the replay checks, as a
//! restart applies them (`ft::log::validate`, then `ft::replay::admit` per region): never a
//! panic, and no admitted run outside shared memory. The bytes are read twice: as they are,
//! and resealed with the user's key (an attacker who holds it), which gets them past the MAC
//! to the range check. capert/tests/log_mutation.rs is the seeded version run by `cargo test`.
#![no_main]

use capert::ft::auth::Job;
use capert::ft::log;
use capert::ft::replay;
use libfuzzer_sys::fuzz_target;

const SECRET: [u8; 32] = [0x5e; 32];
/// Shared memory at every point of this replay: globals, arena, stack (as in the seeds).
const SHARED: [(usize, usize); 3] = [
    (0x56_0000, 0x58_0000),
    (0x2000_0000_0000, 0x2000_0100_0000),
    (0x1000_0000_0000, 0x1000_1000_0000),
];

fn inside_shared(addr: u64, len: usize) -> bool {
    addr.checked_add(len as u64).is_some_and(|end| {
        SHARED
            .iter()
            .any(|&(s, e)| s as u64 <= addr && end <= e as u64)
    })
}

fn replay_all(bytes: &[u8], job: &Job) {
    let Ok(v) = log::validate(bytes, job, &SECRET, "d") else {
        return;
    };
    for (i, entry) in v.entries.iter().enumerate() {
        let k = i as u64 + 1;
        let Ok(change) = replay::admit(entry, &entry.inputs, entry.fingerprint, &SHARED, k, "d")
        else {
            return;
        };
        for run in change.runs() {
            assert!(
                inside_shared(run.addr, run.bytes.len()),
                "region {k} admitted a write of {} bytes at {:#x}",
                run.bytes.len(),
                run.addr
            );
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let job = Job::new(b"fuzzed program", &[]);
    replay_all(data, &job);
    let mut resealed = data.to_vec();
    log::reseal(&mut resealed, &job, &SECRET);
    replay_all(&resealed, &job);
});
