//! The durable region log `DIR/cape.log`: format, encoding and validation (pure; the file
//! operations are in `ft/mod.rs`).
//!
//! All integers little-endian. The header (64 bytes) is rewritten in place after each record
//! is made durable:
//!
//! | offset | size | field                                                         |
//! |--------|------|---------------------------------------------------------------|
//! | 0      | 8    | magic `b"CAPELOG\0"`                                          |
//! | 8      | 4    | version (`1`)                                                 |
//! | 12     | 4    | reserved (`0`)                                                |
//! | 16     | 8    | XXH64 of the executable (`/proc/self/exe`)                    |
//! | 24     | 8    | XXH64 of the arguments `argv[1..]`                            |
//! | 32     | 8    | fingerprint of the state before region 1 (0 while none logged)|
//! | 40     | 8    | committed length: header + complete records                   |
//! | 48     | 8    | committed regions                                             |
//! | 56     | 8    | XXH64 of bytes 0..56                                          |
//!
//! A record (one append + fsync) holds the payloads of one or more consecutive regions:
//!
//! | offset | size | field                                                         |
//! |--------|------|---------------------------------------------------------------|
//! | 0      | 8    | magic `b"CAPEREC\0"`                                          |
//! | 8      | 8    | number of the first region in the record                      |
//! | 16     | 4    | region count `n`                                              |
//! | 20     | 4    | reserved (`0`)                                                |
//! | 24     | 8    | body length `L`                                               |
//! | 32     | L    | `n` entries: u64 fingerprint before the region, u64 length `T`, |
//! |        |      | `T` bytes of TICKPT v1 (the region's net change, own checksum)|
//! | 32+L   | 8    | XXH64 of bytes 0..32+L                                        |
//!
//! Bytes past the committed length are the torn tail of a crash during an append: ignored.

use crate::tickpt::{xxh64, Tickpt};

pub const HEADER_LEN: usize = 64;
const LOG_MAGIC: [u8; 8] = *b"CAPELOG\0";
const REC_MAGIC: [u8; 8] = *b"CAPEREC\0";
const VERSION: u32 = 1;
const REC_HEADER_LEN: usize = 32;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    pub program: u64,
    pub args: u64,
    pub first_fingerprint: u64,
    pub committed_len: u64,
    pub committed_regions: u64,
}

impl Header {
    pub fn new(program: u64, args: u64) -> Header {
        Header {
            program,
            args,
            first_fingerprint: 0,
            committed_len: HEADER_LEN as u64,
            committed_regions: 0,
        }
    }

    pub fn encode(&self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[0..8].copy_from_slice(&LOG_MAGIC);
        h[8..12].copy_from_slice(&VERSION.to_le_bytes());
        for (at, v) in [
            (16, self.program),
            (24, self.args),
            (32, self.first_fingerprint),
            (40, self.committed_len),
            (48, self.committed_regions),
        ] {
            h[at..at + 8].copy_from_slice(&v.to_le_bytes());
        }
        let sum = xxh64(&h[..56], 0);
        h[56..64].copy_from_slice(&sum.to_le_bytes());
        h
    }
}

/// One logged region: the fingerprint of the state before it and its net change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub fingerprint: u64,
    /// TICKPT v1 bytes.
    pub tickpt: Vec<u8>,
}

/// Encodes one record holding regions `first..first + entries.len()`.
pub fn encode_record(first: u64, entries: &[Entry]) -> Vec<u8> {
    let body: usize = entries.iter().map(|e| 16 + e.tickpt.len()).sum();
    let mut out = Vec::with_capacity(REC_HEADER_LEN + body + 8);
    out.extend_from_slice(&REC_MAGIC);
    out.extend_from_slice(&first.to_le_bytes());
    out.extend_from_slice(&(entries.len() as u32).to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&(body as u64).to_le_bytes());
    for e in entries {
        out.extend_from_slice(&e.fingerprint.to_le_bytes());
        out.extend_from_slice(&(e.tickpt.len() as u64).to_le_bytes());
        out.extend_from_slice(&e.tickpt);
    }
    let sum = xxh64(&out, 0);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// A log that passed validation.
#[derive(Debug)]
pub struct Validated {
    pub header: Header,
    /// Entry `i` is region `i + 1`.
    pub entries: Vec<Entry>,
}

fn word(b: &[u8], at: usize) -> u64 {
    b.get(at..at + 8)
        .and_then(|s| s.try_into().ok())
        .map_or(0, u64::from_le_bytes)
}

fn half(b: &[u8], at: usize) -> u32 {
    b.get(at..at + 4)
        .and_then(|s| s.try_into().ok())
        .map_or(0, u32::from_le_bytes)
}

/// Validates a whole log file's bytes against this program and arguments. `dir` names the
/// directory in messages. Errors are complete sentences for one `capert: error:` line.
pub fn validate(bytes: &[u8], program: u64, args: u64, dir: &str) -> Result<Validated, String> {
    let fresh = format!("start afresh with `CAPE_CHECKPOINT={dir}`");
    if bytes.len() < HEADER_LEN || bytes[0..8] != LOG_MAGIC {
        return Err(format!(
            "{dir}/cape.log is not a capecc checkpoint log: {fresh}"
        ));
    }
    if xxh64(&bytes[..56], 0) != word(bytes, 56) {
        return Err(format!(
            "the header of the log in {dir} is corrupt (checksum mismatch): {fresh}"
        ));
    }
    let version = half(bytes, 8);
    if version != VERSION || half(bytes, 12) != 0 {
        return Err(format!(
            "the log in {dir} has format version {version}, this runtime reads version {VERSION}: {fresh}"
        ));
    }
    let header = Header {
        program: word(bytes, 16),
        args: word(bytes, 24),
        first_fingerprint: word(bytes, 32),
        committed_len: word(bytes, 40),
        committed_regions: word(bytes, 48),
    };
    if header.program != program {
        return Err(format!(
            "the log in {dir} was written by another program (or another build of it): run the program that wrote it, or {fresh}"
        ));
    }
    if header.args != args {
        return Err(format!(
            "the log in {dir} was written with other arguments: give the same arguments, or {fresh}"
        ));
    }
    let committed = usize::try_from(header.committed_len).unwrap_or(usize::MAX);
    if committed < HEADER_LEN {
        return Err(format!(
            "the header of the log in {dir} is corrupt (committed length {committed}): {fresh}"
        ));
    }
    if bytes.len() < committed {
        return Err(format!(
            "the log in {dir} is truncated ({} bytes, {committed} committed): {fresh}",
            bytes.len()
        ));
    }
    let mut entries = Vec::new();
    let mut at = HEADER_LEN;
    while at < committed {
        let corrupt =
            |what: &str| format!("the log in {dir} is corrupt ({what} at byte {at}): {fresh}");
        let rec = &bytes[at..committed];
        if rec.len() < REC_HEADER_LEN + 8 || rec[0..8] != REC_MAGIC {
            return Err(corrupt("bad record header"));
        }
        let body = usize::try_from(word(rec, 24)).unwrap_or(usize::MAX);
        let Some(total) = body
            .checked_add(REC_HEADER_LEN + 8)
            .filter(|&t| t <= rec.len())
        else {
            return Err(corrupt("record longer than the committed log"));
        };
        if xxh64(&rec[..total - 8], 0) != word(rec, total - 8) {
            return Err(corrupt("record checksum mismatch"));
        }
        let first = word(rec, 8);
        let count = half(rec, 16) as usize;
        if first != entries.len() as u64 + 1 || half(rec, 20) != 0 {
            return Err(corrupt("records out of order"));
        }
        let mut body_bytes = &rec[REC_HEADER_LEN..total - 8];
        for _ in 0..count {
            let fingerprint = word(body_bytes, 0);
            let len = usize::try_from(word(body_bytes, 8)).unwrap_or(usize::MAX);
            let Some(tickpt) = len.checked_add(16).and_then(|end| body_bytes.get(16..end)) else {
                return Err(corrupt("entry longer than its record"));
            };
            Tickpt::decode(tickpt).map_err(|e| corrupt(&format!("bad region payload: {e}")))?;
            entries.push(Entry {
                fingerprint,
                tickpt: tickpt.to_vec(),
            });
            body_bytes = &body_bytes[16 + len..];
        }
        if !body_bytes.is_empty() {
            return Err(corrupt("trailing bytes in a record"));
        }
        at += total;
    }
    if entries.len() as u64 != header.committed_regions {
        return Err(format!(
            "the log in {dir} is corrupt ({} regions found, {} committed): {fresh}",
            entries.len(),
            header.committed_regions
        ));
    }
    if entries
        .first()
        .is_some_and(|e| e.fingerprint != header.first_fingerprint)
    {
        return Err(format!(
            "the log in {dir} is corrupt (first fingerprint mismatch): {fresh}"
        ));
    }
    Ok(Validated { header, entries })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tickpt::Stamp;

    fn payload(i: u64) -> Vec<u8> {
        let mut t = Tickpt::new(i);
        t.push(0x1000 + i * 64, Stamp { order: i, rank: 0 }, &[i as u8; 13]);
        t.push(0x9000, Stamp { order: 1, rank: 2 }, b"hello");
        t.encode()
    }

    /// A log of 5 regions in records of 2, 1, 2; its header.
    fn sample() -> (Vec<u8>, Header) {
        let mut h = Header::new(11, 22);
        let mut body = Vec::new();
        let mut region = 1;
        for n in [2u64, 1, 2] {
            let entries: Vec<Entry> = (region..region + n)
                .map(|k| Entry {
                    fingerprint: 1000 + k,
                    tickpt: payload(k),
                })
                .collect();
            body.extend(encode_record(region, &entries));
            region += n;
        }
        h.first_fingerprint = 1001;
        h.committed_regions = region - 1;
        h.committed_len = (HEADER_LEN + body.len()) as u64;
        let mut file = h.encode().to_vec();
        file.extend(body);
        (file, h)
    }

    #[test]
    fn round_trip() {
        let (file, h) = sample();
        let v = validate(&file, 11, 22, "d").unwrap();
        assert_eq!(v.header, h);
        assert_eq!(v.entries.len(), 5);
        for (i, e) in v.entries.iter().enumerate() {
            let k = i as u64 + 1;
            assert_eq!(e.fingerprint, 1000 + k);
            assert_eq!(e.tickpt, payload(k));
        }
    }

    #[test]
    fn empty_log_is_valid() {
        let file = Header::new(1, 2).encode();
        let v = validate(&file, 1, 2, "d").unwrap();
        assert!(v.entries.is_empty());
    }

    #[test]
    fn torn_tail_is_ignored() {
        let (mut file, _) = sample();
        let extra = encode_record(
            6,
            &[Entry {
                fingerprint: 5,
                tickpt: payload(6),
            }],
        );
        file.extend_from_slice(&extra[..extra.len() / 2]);
        assert_eq!(validate(&file, 11, 22, "d").unwrap().entries.len(), 5);
    }

    #[test]
    fn truncated_below_committed_is_refused() {
        let (file, h) = sample();
        for cut in [h.committed_len as usize - 1, HEADER_LEN + 3, HEADER_LEN] {
            let e = validate(&file[..cut], 11, 22, "d").unwrap_err();
            assert!(e.contains("truncated"), "{e}");
        }
        assert!(validate(&file[..10], 11, 22, "d").is_err());
    }

    #[test]
    fn other_program_or_arguments_are_refused() {
        let (file, _) = sample();
        let e = validate(&file, 12, 22, "d").unwrap_err();
        assert!(e.contains("another program"), "{e}");
        let e = validate(&file, 11, 23, "d").unwrap_err();
        assert!(e.contains("other arguments"), "{e}");
    }

    #[test]
    fn every_single_bit_flip_is_refused() {
        let (file, _) = sample();
        for byte in 0..file.len() {
            for bit in 0..8 {
                let mut bad = file.clone();
                bad[byte] ^= 1 << bit;
                assert!(
                    validate(&bad, 11, 22, "d").is_err(),
                    "flip of bit {bit} of byte {byte} accepted"
                );
            }
        }
    }
}
