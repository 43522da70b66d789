//! Test tool of tests/ft/crafted.sh: plays an attacker who edits a checkpoint log. It reads the
//! log with the user's key, replaces the logged change of one region by a single run of chosen
//! bytes at a chosen address, and writes the log back with every checksum and MAC recomputed
//! under a given key (the real one: an attacker who stole it; another: one who did not).
//!
//! With REGION `snapshot` it edits the snapshot of a compacted log instead: HEX_BYTES go into
//! its user stack image at ADDR (`main-return`: the last 8 bytes, the return address of the
//! user's main), or become the region call's return address when ADDR is `return`.
//!
//! usage: forge_log LOG EXE KEY SEAL_KEY REGION ADDR HEX_BYTES [ARGS...]
//!   ARGS are the program's arguments argv[1..] the log was written with; its argv[0] was EXE
//!   as written here.

use capert::ft::auth::{Job, LogKey};
use capert::ft::log::{self, encode_compacted, encode_record, Entry, Header, HEADER_LEN};
use capert::tickpt::{Stamp, Tickpt};

fn secret(path: &str) -> Result<[u8; 32], String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    <[u8; 32]>::try_from(bytes.as_slice()).map_err(|_| format!("{path}: not a 32-byte key"))
}

fn number(text: &str) -> Result<u64, String> {
    let parsed = match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse(),
    };
    parsed.map_err(|e| format!("`{text}`: {e}"))
}

fn hex_bytes(text: &str) -> Result<Vec<u8>, String> {
    if !text.len().is_multiple_of(2) {
        return Err(format!("`{text}`: odd number of hex digits"));
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).map_err(|e| format!("`{text}`: {e}")))
        .collect()
}

fn run(argv: &[String]) -> Result<(), String> {
    let [_, log_path, exe_path, key, seal_key, region, addr, bytes, args @ ..] = argv else {
        return Err("usage: forge_log LOG EXE KEY SEAL_KEY REGION ADDR HEX_BYTES [ARGS...]".into());
    };
    let file = std::fs::read(log_path).map_err(|e| format!("{log_path}: {e}"))?;
    let exe = std::fs::read(exe_path).map_err(|e| format!("{exe_path}: {e}"))?;
    let args: Vec<Vec<u8>> = std::iter::once(exe_path)
        .chain(args)
        .map(|a| a.as_bytes().to_vec())
        .collect();
    let job = Job::new(&exe, &args);
    let mut v = log::validate(&file, &job, &secret(key)?, "DIR")?;
    let key = LogKey::derive(&secret(seal_key)?, &v.header.log_id, &job);
    if region == "snapshot" {
        let mut snap = v.snapshot.take().ok_or("the log has no snapshot")?;
        let bytes = hex_bytes(bytes)?;
        let call = &mut snap.call;
        if addr == "return" {
            let word = <[u8; 8]>::try_from(bytes.as_slice()).map_err(|_| "not 8 bytes")?;
            call.return_address = u64::from_le_bytes(word);
        } else {
            let at = match addr.as_str() {
                "main-return" => call.stack.len().saturating_sub(8),
                _ => usize::try_from(number(addr)?.wrapping_sub(call.entry_sp + 8))
                    .unwrap_or(usize::MAX),
            };
            call.stack
                .get_mut(at..at + bytes.len())
                .ok_or("the address is not in the snapshot's stack image")?
                .copy_from_slice(&bytes);
        }
        let m = snap.region as usize;
        let compacted = encode_compacted(&key, &mut v.header, &v.entries[..m], &snap);
        let out = with_records(&key, &mut v.header, compacted, &v.entries, m);
        return std::fs::write(log_path, out).map_err(|e| format!("{log_path}: {e}"));
    }
    let region = number(region)?;
    let entry = usize::try_from(region)
        .ok()
        .and_then(|r| v.entries.get_mut(r.checked_sub(1)?))
        .ok_or(format!("the log has no region {region}"))?;
    let mut change = Tickpt::new(region);
    change.push(number(addr)?, Stamp::default(), &hex_bytes(bytes)?);
    entry.tickpt = change.encode();
    // One record per region; a MAC under SEAL_KEY everywhere.
    let out = with_records(&key, &mut v.header, vec![0u8; HEADER_LEN], &v.entries, 0);
    std::fs::write(log_path, out).map_err(|e| format!("{log_path}: {e}"))
}

/// `out` (the header's room, then anything before the records) followed by one record per
/// entry from index `first` on, under the header sealed with `key`.
fn with_records(
    key: &LogKey,
    header: &mut Header,
    mut out: Vec<u8>,
    entries: &[Entry],
    first: usize,
) -> Vec<u8> {
    for (i, e) in entries.iter().enumerate().skip(first) {
        let record = encode_record(key, out.len() as u64, i as u64 + 1, std::slice::from_ref(e));
        out.extend_from_slice(&record);
    }
    header.committed_len = out.len() as u64;
    header.committed_regions = entries.len() as u64;
    out[..HEADER_LEN].copy_from_slice(&header.encode(key));
    out
}

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    if let Err(e) = run(&argv) {
        eprintln!("forge_log: {e}");
        std::process::exit(2);
    }
}
