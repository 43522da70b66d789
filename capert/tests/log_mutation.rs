//! Seeded mutations of a checkpoint log through the log reader and the replay checks, as the
//! runtime applies them at restart (`ft::log::validate`, then `ft::replay::admit` per region):
//! no mutated log may make a restart write outside shared memory. Half of the mutated logs are
//! resealed with the user's key (an attacker who holds it: only the range check stands in the
//! way); every run of every admitted region is checked byte by byte against the shared ranges
//! here, independently of the runtime's own check. The fuzz target capert/fuzz/fuzz_targets/
//! replay.rs runs the same property on arbitrary inputs.

use capert::ft::auth::{Job, LogKey};
use capert::ft::log::{self, encode_record, Entry, Header, Inputs, HEADER_LEN};
use capert::ft::replay;
use capert::tickpt::{Stamp, Tickpt};

const SECRET: [u8; 32] = [0x5e; 32];
/// The shared memory of the replay: globals (two adjacent sections), arena, stack.
const SHARED: [(usize, usize); 4] = [
    (0x60_1000, 0x60_1800),
    (0x60_1800, 0x60_2000),
    (0x2000_0000_0000, 0x2000_0000_4000),
    (0x1000_0fff_f000, 0x1000_1000_0000),
];

/// splitmix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

fn job() -> Job {
    Job::new(b"the program", &[b"100".to_vec()])
}

/// An address near an edge of a shared range, or anywhere.
fn address(rng: &mut Rng) -> u64 {
    let (s, e) = SHARED[rng.below(SHARED.len() as u64) as usize];
    match rng.below(6) {
        0 => s as u64 + rng.below((e - s) as u64),
        1 => (s as u64).wrapping_sub(rng.below(16)),
        2 => (e as u64).wrapping_sub(rng.below(16)),
        3 => e as u64 + rng.below(16),
        4 => u64::MAX - rng.below(64),
        _ => rng.next(),
    }
}

/// A region's change: mostly inside shared memory, sometimes not.
fn change(rng: &mut Rng, k: u64) -> Tickpt {
    let mut t = Tickpt::new(k);
    // one run half of the time: a run moved anywhere then still makes a well-formed TICKPT
    let runs = if rng.below(2) == 0 {
        1
    } else {
        2 + rng.below(3)
    };
    for _ in 0..runs {
        let (s, e) = SHARED[rng.below(SHARED.len() as u64) as usize];
        let len = 1 + rng.below(24) as usize;
        let addr = if rng.below(8) == 0 {
            address(rng)
        } else {
            s as u64 + rng.below((e - s - len) as u64)
        };
        if addr.checked_add(len as u64).is_some() {
            t.push(addr, Stamp::default(), &vec![0xAB; len]);
        }
    }
    t
}

/// A log of `regions` regions in records of 1 to 3 regions, and the offsets of the address
/// fields of its runs.
fn log_of(rng: &mut Rng, regions: u64) -> (Vec<u8>, Vec<usize>) {
    let mut h = Header::new(&job(), [rng.next() as u8; 16], Default::default());
    let key = LogKey::derive(&SECRET, &h.log_id, &job());
    let mut file = vec![0u8; HEADER_LEN];
    let mut addr_fields = Vec::new();
    let mut k = 1;
    while k <= regions {
        let n = (1 + rng.below(3)).min(regions + 1 - k);
        let entries: Vec<Entry> = (k..k + n)
            .map(|r| Entry {
                fingerprint: r,
                inputs: Inputs::default(),
                tickpt: change(rng, r).encode(),
            })
            .collect();
        // record header, then per entry 32 bytes before its TICKPT, whose run headers start
        // at byte 36 and take 24 bytes each, the address first
        let mut at = file.len() + 32;
        for e in &entries {
            let runs = Tickpt::decode(&e.tickpt).map_or(0, |t| t.run_count());
            addr_fields.extend((0..runs).map(|j| at + 32 + 36 + 24 * j));
            at += 32 + e.tickpt.len();
        }
        let record = encode_record(&key, file.len() as u64, k, &entries);
        file.extend_from_slice(&record);
        k += n;
    }
    h.first_fingerprint = 1;
    h.committed_len = file.len() as u64;
    h.committed_regions = regions;
    file[..HEADER_LEN].copy_from_slice(&h.encode(&key));
    (file, addr_fields)
}

fn mutate(rng: &mut Rng, file: &mut Vec<u8>, addr_fields: &[usize]) {
    if rng.below(2) == 0 && !addr_fields.is_empty() {
        // a run moved elsewhere: what an attacker aiming at one address does
        let at = addr_fields[rng.below(addr_fields.len() as u64) as usize];
        file[at..at + 8].copy_from_slice(&address(rng).to_le_bytes());
        return;
    }
    for _ in 0..1 + rng.below(3) {
        if file.is_empty() {
            return;
        }
        let at = rng.below(file.len() as u64) as usize;
        match rng.below(7) {
            0 => file[at] ^= 1 << rng.below(8),
            1 => file[at] = rng.next() as u8,
            // an address or length word of a run header, a length field
            2 if at + 8 <= file.len() => {
                file[at..at + 8].copy_from_slice(&address(rng).to_le_bytes())
            }
            3 => file.truncate(at),
            4 => {
                let len = rng.below(64) as usize;
                let piece: Vec<u8> = file[at..(at + len).min(file.len())].to_vec();
                let to = rng.below(file.len() as u64) as usize;
                file.splice(to..to, piece);
            }
            5 => {
                let end = (at + rng.below(64) as usize).min(file.len());
                file.drain(at..end);
            }
            _ => file[at] = file[at].wrapping_add(1),
        }
    }
}

/// Every byte of `run` lies in one of the shared ranges.
fn inside_shared(addr: u64, len: usize) -> bool {
    (0..len as u64).all(|i| {
        addr.checked_add(i)
            .is_some_and(|b| SHARED.iter().any(|&(s, e)| s as u64 <= b && b < e as u64))
    })
}

#[test]
fn no_mutated_log_makes_a_restart_write_outside_shared_memory() {
    let mut rng = Rng(0xC0FF_EE00_2024);
    let (mut accepted_logs, mut admitted_regions, mut refused_runs) = (0, 0, 0);
    for case in 0..20_000 {
        let regions = 1 + rng.below(5);
        let (original, addr_fields) = log_of(&mut rng, regions);
        let mut file = original.clone();
        mutate(&mut rng, &mut file, &addr_fields);
        let resealed = case % 2 == 0;
        if resealed {
            log::reseal(&mut file, &job(), &SECRET);
        }
        let Ok(v) = log::validate(&file, &job(), &SECRET, "d") else {
            continue;
        };
        accepted_logs += 1;
        for (i, entry) in v.entries.iter().enumerate() {
            let k = i as u64 + 1;
            match replay::admit(entry, &entry.inputs, entry.fingerprint, &SHARED, k, "d") {
                Ok(change) => {
                    admitted_regions += 1;
                    for run in change.runs() {
                        assert!(
                            inside_shared(run.addr, run.bytes.len()),
                            "case {case}: region {k} admitted a write of {} bytes at {:#x}",
                            run.bytes.len(),
                            run.addr
                        );
                    }
                }
                Err(e) => {
                    assert!(
                        e.contains("outside the program's shared memory")
                            || e.contains("bad replayed region"),
                        "{e}"
                    );
                    refused_runs += 1;
                    // the runtime stops at the first refused region
                    break;
                }
            }
        }
        // without the key, only the original's committed bytes are accepted (a torn tail may differ)
        let committed = v.header.committed_len as usize;
        assert!(
            resealed || file.get(..committed) == original.get(..committed),
            "case {case}: a log altered without the key was accepted"
        );
    }
    // the property was exercised, not vacuously true
    assert!(accepted_logs > 1000, "{accepted_logs} logs accepted");
    assert!(
        admitted_regions > 1000,
        "{admitted_regions} regions admitted"
    );
    assert!(
        refused_runs > 500,
        "{refused_runs} regions refused by the range check"
    );
}
