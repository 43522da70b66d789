//! The durable region log `DIR/cape.log`: format, encoding and validation (pure; the file
//! operations are capert's `ft/mod.rs`, the user's key file capert's `ft/auth.rs`).
//!
//! All integers little-endian. The header (160 bytes) is rewritten in place after each record
//! is made durable:
//!
//! | offset | size | field                                                         |
//! |--------|------|---------------------------------------------------------------|
//! | 0      | 8    | magic `b"CAPELOG\0"`                                          |
//! | 8      | 4    | version (`5`)                                                 |
//! | 12     | 4    | reserved (`0`)                                                |
//! | 16     | 8    | first 8 bytes of BLAKE3 of the executable (`/proc/self/exe`)  |
//! | 24     | 8    | first 8 bytes of BLAKE3 of the command line `argv[0..]`       |
//! | 32     | 8    | fingerprint of the state before region 1 (0 while none logged)|
//! | 40     | 8    | committed length: header + complete records                   |
//! | 48     | 8    | committed regions                                             |
//! | 56     | 8    | reserved (`0`)                                                |
//! | 64     | 16   | log id (random, chosen when the log is created)               |
//! | 80     | 16   | reserved (`0`)                                                |
//! | 96     | 8    | `CAPE_ARENA_BASE` of the run that wrote the log               |
//! | 104    | 8    | `CAPE_ARENA_SIZE`                                             |
//! | 112    | 8    | `CAPE_STACK_BASE`                                             |
//! | 120    | 8    | `CAPE_STACK_SIZE`                                             |
//! | 128    | 32   | MAC of bytes 0..128 at offset 0                               |
//!
//! Version 5 added the layout of shared memory (bytes 96..128): a restart with another
//! layout is refused naming the setting, before anything of the log is read further.
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
//! | 32     | L    | `n` entries: u64 fingerprint before the region, u64 digest of |
//! |        |      | stdin, u64 digest of the environment read, u64 length `T`,    |
//! |        |      | `T` bytes of TICKPT v1 (the region's net change, own checksum)|
//! | 32+L   | 32   | MAC of bytes 0..32+L at the record's offset in the log        |
//!
//! A compacted log holds, after the records of regions `1..=m` (thinned: see
//! `log_compact.rs`), one snapshot record of the state after region `m`, then the records of
//! the regions after it. Compaction writes such a log to `cape.log.tmp` and renames it over
//! `cape.log`: a crash during compaction leaves the previous log.
//!
//! A MAC is keyed BLAKE3 of (offset as u64, bytes) under the log's key ([`LogKey`]: derived
//! from the user's secret key, the log id, the program and its command line). Bytes past the
//! committed length are the torn tail of a crash during an append: ignored.

use crate::log_compact::{is_snapshot, parse_snapshot, Snapshot};
use crate::log_key::{Job, LogKey, LOG_ID_LEN, SECRET_LEN, TAG_LEN};
use crate::tickpt::Tickpt;

pub const HEADER_LEN: usize = 160;
const HEADER_MAC_AT: usize = 128;
/// Where the header holds the layout of shared memory (four words).
const LAYOUT_AT: usize = 96;
pub const LOG_MAGIC: [u8; 8] = *b"CAPELOG\0";
/// Where the header holds the committed length and the committed regions; the same in every
/// format version, so that a reader of progress (caperun) needs no version check.
const COMMITTED_LEN_AT: usize = 40;
const COMMITTED_REGIONS_AT: usize = 48;
/// The part of the header every format version has.
const FIXED_HEADER_LEN: usize = 64;
const REC_MAGIC: [u8; 8] = *b"CAPEREC\0";
pub const VERSION: u32 = 5;
const REC_HEADER_LEN: usize = 32;
const ENTRY_HEADER_LEN: usize = 32;

/// Where the program's shared memory is: every logged address lies in it, so a restart must
/// map it at the same addresses (the settings of the same names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Layout {
    pub arena_base: u64,
    pub arena_size: u64,
    pub stack_base: u64,
    pub stack_size: u64,
}

impl Layout {
    fn words(&self) -> [(&'static str, u64); 4] {
        [
            ("CAPE_ARENA_BASE", self.arena_base),
            ("CAPE_ARENA_SIZE", self.arena_size),
            ("CAPE_STACK_BASE", self.stack_base),
            ("CAPE_STACK_SIZE", self.stack_size),
        ]
    }

    /// The sentence refusing a restart whose layout (`self`) is not the log's (`logged`),
    /// naming the first setting that differs; None when they are the same.
    pub fn difference(&self, logged: &Layout, dir: &str) -> Option<String> {
        let (name, was) = logged
            .words()
            .into_iter()
            .zip(self.words())
            .find(|((_, was), (_, now))| was != now)
            .map(|((name, was), _)| (name, was))?;
        let now = self
            .words()
            .into_iter()
            .find(|(n, _)| *n == name)
            .map_or(0, |(_, v)| v);
        Some(format!(
            "the log in {dir} was written with `{name}={was:#x}` and this run has `{now:#x}`: the program's shared memory must be where the log has it: restart with `{name}={was:#x}`"
        ))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    pub program: u64,
    pub args: u64,
    pub first_fingerprint: u64,
    pub committed_len: u64,
    pub committed_regions: u64,
    pub log_id: [u8; LOG_ID_LEN],
    pub layout: Layout,
}

impl Header {
    pub fn new(job: &Job, log_id: [u8; LOG_ID_LEN], layout: Layout) -> Header {
        Header {
            program: job.program_id(),
            args: job.args_id(),
            first_fingerprint: 0,
            committed_len: HEADER_LEN as u64,
            committed_regions: 0,
            log_id,
            layout,
        }
    }

    pub fn encode(&self, key: &LogKey) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[0..8].copy_from_slice(&LOG_MAGIC);
        h[8..12].copy_from_slice(&VERSION.to_le_bytes());
        for (at, v) in [
            (16, self.program),
            (24, self.args),
            (32, self.first_fingerprint),
            (COMMITTED_LEN_AT, self.committed_len),
            (COMMITTED_REGIONS_AT, self.committed_regions),
        ] {
            h[at..at + 8].copy_from_slice(&v.to_le_bytes());
        }
        h[64..64 + LOG_ID_LEN].copy_from_slice(&self.log_id);
        for (i, (_, v)) in self.layout.words().into_iter().enumerate() {
            let at = LAYOUT_AT + 8 * i;
            h[at..at + 8].copy_from_slice(&v.to_le_bytes());
        }
        let tag = key.tag(0, &h[..HEADER_MAC_AT]);
        h[HEADER_MAC_AT..].copy_from_slice(&tag);
        h
    }
}

/// Progress as a log's header states it: (committed length, committed regions). Only the
/// magic is checked: this neither validates nor authenticates the log (`validate` does).
pub fn read_progress(bytes: &[u8]) -> Option<(u64, u64)> {
    if bytes.len() < FIXED_HEADER_LEN || bytes[..8] != LOG_MAGIC {
        return None;
    }
    Some((
        word(bytes, COMMITTED_LEN_AT),
        word(bytes, COMMITTED_REGIONS_AT),
    ))
}

/// What sequential code read before a region, beyond the arguments (bound by the header).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Inputs {
    /// Digest of the bytes of stdin (0 while the program has not read it).
    pub stdin: u64,
    /// Digest of the environment variables the program read and their values.
    pub env: u64,
}

/// One logged region: what the state and inputs were before it, and its net change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub fingerprint: u64,
    pub inputs: Inputs,
    /// TICKPT v1 bytes.
    pub tickpt: Vec<u8>,
}

/// Encodes one record holding regions `first..first + entries.len()`, to be stored at byte
/// `offset` of the log.
pub fn encode_record(key: &LogKey, offset: u64, first: u64, entries: &[Entry]) -> Vec<u8> {
    let body: usize = entries
        .iter()
        .map(|e| ENTRY_HEADER_LEN + e.tickpt.len())
        .sum();
    let mut out = Vec::with_capacity(REC_HEADER_LEN + body + TAG_LEN);
    out.extend_from_slice(&REC_MAGIC);
    out.extend_from_slice(&first.to_le_bytes());
    out.extend_from_slice(&(entries.len() as u32).to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&(body as u64).to_le_bytes());
    for e in entries {
        for w in [
            e.fingerprint,
            e.inputs.stdin,
            e.inputs.env,
            e.tickpt.len() as u64,
        ] {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&e.tickpt);
    }
    let tag = key.tag(offset, &out);
    out.extend_from_slice(&tag);
    out
}

/// A log that passed validation.
#[derive(Debug)]
pub struct Validated {
    pub header: Header,
    /// The key that seals the log's header and its next records.
    pub key: LogKey,
    /// Entry `i` is region `i + 1`; entries up to the snapshot's region are thinned.
    pub entries: Vec<Entry>,
    /// The snapshot of a compacted log.
    pub snapshot: Option<Snapshot>,
}

/// A compacted log: `header` (its committed fields set here) with one record of the thinned
/// entries of regions `1..=snapshot.region` and the snapshot.
pub fn encode_compacted(
    key: &LogKey,
    header: &mut Header,
    thinned: &[Entry],
    snapshot: &Snapshot,
) -> Vec<u8> {
    let [mut file, snapshot] = encode_compacted_parts(key, header, thinned, snapshot);
    file.extend(snapshot);
    file
}

/// [`encode_compacted`] as its two parts, the header with the record and the snapshot
/// record, to be written one after the other: a snapshot of the whole shared state is not
/// copied once more to join them.
pub fn encode_compacted_parts(
    key: &LogKey,
    header: &mut Header,
    thinned: &[Entry],
    snapshot: &Snapshot,
) -> [Vec<u8>; 2] {
    let mut file = vec![0u8; HEADER_LEN];
    if !thinned.is_empty() {
        file.extend(encode_record(key, HEADER_LEN as u64, 1, thinned));
    }
    let snapshot = crate::log_compact::encode_snapshot(key, file.len() as u64, snapshot);
    header.committed_len = (file.len() + snapshot.len()) as u64;
    header.committed_regions = thinned.len() as u64;
    file[..HEADER_LEN].copy_from_slice(&header.encode(key));
    [file, snapshot]
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

/// The committed length of a log whose first `HEADER_LEN` bytes (or fewer) are `head`, once
/// its header is checked and authenticated: how much of the file a restart reads (nothing past
/// it, so a file grown by someone else costs no more). Errors as `validate`'s.
pub fn authentic_header(
    head: &[u8],
    job: &Job,
    secret: &[u8; SECRET_LEN],
    dir: &str,
) -> Result<Header, String> {
    let fresh = format!("start afresh with `CAPE_CHECKPOINT={dir}`");
    check_header(head, job, secret, dir, &fresh).map(|(header, _)| header)
}

/// The header of a log (its first `HEADER_LEN` bytes), checked and authenticated, and the
/// key of its records.
fn check_header(
    bytes: &[u8],
    job: &Job,
    secret: &[u8; SECRET_LEN],
    dir: &str,
    fresh: &str,
) -> Result<(Header, LogKey), String> {
    if bytes.len() < 12 || bytes[0..8] != LOG_MAGIC {
        return Err(format!(
            "{dir}/cape.log is not a capecc checkpoint log: {fresh}"
        ));
    }
    let version = half(bytes, 8);
    if version != VERSION {
        return Err(format!(
            "the log in {dir} has format version {version}, this runtime reads version {VERSION}: {fresh}"
        ));
    }
    if bytes.len() < HEADER_LEN {
        return Err(format!(
            "the log in {dir} is truncated inside its header ({} bytes): {fresh}",
            bytes.len()
        ));
    }
    // Checked before the MAC only to say why the log is refused: the MAC covers them too.
    if word(bytes, 16) != job.program_id() {
        return Err(format!(
            "the log in {dir} was written by another program (or another build of it): run the program that wrote it, or {fresh}"
        ));
    }
    if word(bytes, 24) != job.args_id() {
        return Err(format!(
            "the log in {dir} was written with other arguments (or the program named otherwise, `argv[0]`, which is in the program's memory): give the same command line, or {fresh}"
        ));
    }
    let mut log_id = [0u8; LOG_ID_LEN];
    log_id.copy_from_slice(&bytes[64..64 + LOG_ID_LEN]);
    let key = LogKey::derive(secret, &log_id, job);
    if !key.verify(
        0,
        &bytes[..HEADER_MAC_AT],
        &bytes[HEADER_MAC_AT..HEADER_LEN],
    ) {
        return Err(format!(
            "the log in {dir} is not authentic (header MAC mismatch): it was modified, or written by another user or with another checkpoint key (`CAPE_KEY_FILE`): {fresh}"
        ));
    }
    let reserved_zero = half(bytes, 12) == 0
        && word(bytes, 56) == 0
        && bytes[64 + LOG_ID_LEN..LAYOUT_AT].iter().all(|&b| b == 0);
    if !reserved_zero {
        return Err(format!(
            "the header of the log in {dir} is corrupt (reserved bytes set): {fresh}"
        ));
    }
    let header = Header {
        program: word(bytes, 16),
        args: word(bytes, 24),
        first_fingerprint: word(bytes, 32),
        committed_len: word(bytes, 40),
        committed_regions: word(bytes, 48),
        log_id,
        layout: Layout {
            arena_base: word(bytes, LAYOUT_AT),
            arena_size: word(bytes, LAYOUT_AT + 8),
            stack_base: word(bytes, LAYOUT_AT + 16),
            stack_size: word(bytes, LAYOUT_AT + 24),
        },
    };
    let committed = usize::try_from(header.committed_len).unwrap_or(usize::MAX);
    if committed < HEADER_LEN {
        return Err(format!(
            "the header of the log in {dir} is corrupt (committed length {committed}): {fresh}"
        ));
    }
    Ok((header, key))
}

/// Validates a whole log file's bytes for this job under the user's secret key. `dir` names
/// the directory in messages. Errors are complete sentences for one `capert: error:` line.
pub fn validate(
    bytes: &[u8],
    job: &Job,
    secret: &[u8; SECRET_LEN],
    dir: &str,
) -> Result<Validated, String> {
    let fresh = format!("start afresh with `CAPE_CHECKPOINT={dir}`");
    let (header, key) = check_header(bytes, job, secret, dir, &fresh)?;
    let committed = usize::try_from(header.committed_len).unwrap_or(usize::MAX);
    if bytes.len() < committed {
        return Err(format!(
            "the log in {dir} is truncated ({} bytes, {committed} committed): {fresh}",
            bytes.len()
        ));
    }
    let mut entries = Vec::new();
    let mut snapshot = None;
    let mut at = HEADER_LEN;
    while at < committed {
        let corrupt =
            |what: &str| format!("the log in {dir} is corrupt ({what} at byte {at}): {fresh}");
        let rec = &bytes[at..committed];
        if is_snapshot(rec) {
            let (s, total) = parse_snapshot(&key, at as u64, rec).map_err(corrupt)?;
            if snapshot.is_some() || s.region != entries.len() as u64 || s.region == 0 {
                return Err(corrupt("snapshot out of order"));
            }
            snapshot = Some(s);
            at += total;
            continue;
        }
        if rec.len() < REC_HEADER_LEN + TAG_LEN || rec[0..8] != REC_MAGIC {
            return Err(corrupt("bad record header"));
        }
        let body = usize::try_from(word(rec, 24)).unwrap_or(usize::MAX);
        let Some(total) = body
            .checked_add(REC_HEADER_LEN + TAG_LEN)
            .filter(|&t| t <= rec.len())
        else {
            return Err(corrupt("record longer than the committed log"));
        };
        let (sealed, tag) = rec[..total].split_at(total - TAG_LEN);
        if !key.verify(at as u64, sealed, tag) {
            return Err(corrupt(
                "record MAC mismatch: modified or not written by this job",
            ));
        }
        let first = word(rec, 8);
        let count = half(rec, 16) as usize;
        if first != entries.len() as u64 + 1 || half(rec, 20) != 0 {
            return Err(corrupt("records out of order"));
        }
        let mut body_bytes = &sealed[REC_HEADER_LEN..];
        for _ in 0..count {
            let len = usize::try_from(word(body_bytes, 24)).unwrap_or(usize::MAX);
            let Some(tickpt) = len
                .checked_add(ENTRY_HEADER_LEN)
                .and_then(|end| body_bytes.get(ENTRY_HEADER_LEN..end))
            else {
                return Err(corrupt("entry longer than its record"));
            };
            Tickpt::view(tickpt).map_err(|e| corrupt(&format!("bad region payload: {e}")))?;
            entries.push(Entry {
                fingerprint: word(body_bytes, 0),
                inputs: Inputs {
                    stdin: word(body_bytes, 8),
                    env: word(body_bytes, 16),
                },
                tickpt: tickpt.to_vec(),
            });
            body_bytes = &body_bytes[ENTRY_HEADER_LEN + len..];
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
    Ok(Validated {
        header,
        key,
        entries,
        snapshot,
    })
}

/// Recomputes, as the log's writer would, the checksum of every TICKPT and the MAC of the header
/// and of every record whose framing is intact, and sets the header's program and argument
/// fields to `job`'s: what an attacker holding the user's key can do to an edited log. For the
/// fuzz target and the mutation tests, which must get past the MAC to reach the replay checks.
pub fn reseal(bytes: &mut [u8], job: &Job, secret: &[u8; SECRET_LEN]) {
    if bytes.len() < HEADER_LEN {
        return;
    }
    bytes[16..24].copy_from_slice(&job.program_id().to_le_bytes());
    bytes[24..32].copy_from_slice(&job.args_id().to_le_bytes());
    let mut log_id = [0u8; LOG_ID_LEN];
    log_id.copy_from_slice(&bytes[64..64 + LOG_ID_LEN]);
    let key = LogKey::derive(secret, &log_id, job);
    let tag = key.tag(0, &bytes[..HEADER_MAC_AT]);
    bytes[HEADER_MAC_AT..HEADER_LEN].copy_from_slice(&tag);
    let committed = usize::try_from(word(bytes, 40)).map_or(bytes.len(), |c| c.min(bytes.len()));
    let mut at = HEADER_LEN;
    while at + REC_HEADER_LEN + TAG_LEN <= committed {
        let body = usize::try_from(word(bytes, at + 24)).unwrap_or(usize::MAX);
        let Some(end) = body
            .checked_add(at + REC_HEADER_LEN + TAG_LEN)
            .filter(|&e| e <= committed)
        else {
            return;
        };
        let sealed_end = end - TAG_LEN;
        let mut entry = at + REC_HEADER_LEN;
        while entry + ENTRY_HEADER_LEN <= sealed_end {
            let len = usize::try_from(word(bytes, entry + 24)).unwrap_or(usize::MAX);
            let start = entry + ENTRY_HEADER_LEN;
            let Some(stop) = start.checked_add(len).filter(|&s| s <= sealed_end) else {
                break;
            };
            if len >= 8 {
                let sum = crate::tickpt::xxh64(&bytes[start..stop - 8], 0);
                bytes[stop - 8..stop].copy_from_slice(&sum.to_le_bytes());
            }
            entry = stop;
        }
        let tag = key.tag(at as u64, &bytes[at..sealed_end]);
        bytes[sealed_end..end].copy_from_slice(&tag);
        at = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tickpt::Stamp;

    const SECRET: [u8; 32] = [42; 32];

    fn job() -> Job {
        Job::new(b"program", &[b"arg".to_vec()])
    }

    fn payload(i: u64) -> Vec<u8> {
        let mut t = Tickpt::new(i);
        t.push(0x1000 + i * 64, Stamp { order: i, rank: 0 }, &[i as u8; 13]);
        t.push(0x9000, Stamp { order: 1, rank: 2 }, b"hello");
        t.encode()
    }

    fn entry(k: u64) -> Entry {
        Entry {
            fingerprint: 1000 + k,
            inputs: Inputs {
                stdin: 7,
                env: 100 + k,
            },
            tickpt: payload(k),
        }
    }

    /// A log of 5 regions in records of 2, 1, 2 for `job()` under `secret`; its header.
    pub(crate) fn sample_with(secret: &[u8; 32], job: &Job) -> (Vec<u8>, Header) {
        let mut h = Header::new(job, [9; LOG_ID_LEN], layout());
        let key = LogKey::derive(secret, &h.log_id, job);
        let mut file = vec![0u8; HEADER_LEN];
        let mut region = 1;
        for n in [2u64, 1, 2] {
            let entries: Vec<Entry> = (region..region + n).map(entry).collect();
            let rec = encode_record(&key, file.len() as u64, region, &entries);
            file.extend(rec);
            region += n;
        }
        h.first_fingerprint = 1001;
        h.committed_regions = region - 1;
        h.committed_len = file.len() as u64;
        file[..HEADER_LEN].copy_from_slice(&h.encode(&key));
        (file, h)
    }

    fn layout() -> Layout {
        Layout {
            arena_base: 0x2000_0000_0000,
            arena_size: 32 << 30,
            stack_base: 0x1000_0000_0000,
            stack_size: 256 << 20,
        }
    }

    #[test]
    fn the_layout_is_kept_and_a_difference_named() {
        let (file, h) = sample();
        let v = validate(&file, &job(), &SECRET, "d").unwrap();
        assert_eq!(v.header.layout, layout());
        assert_eq!(
            authentic_header(&file[..HEADER_LEN], &job(), &SECRET, "d"),
            Ok(h)
        );
        assert_eq!(layout().difference(&h.layout, "d"), None);
        let moved = Layout {
            arena_base: 0x3000_0000_0000,
            ..layout()
        };
        assert_eq!(
            moved.difference(&h.layout, "d").unwrap(),
            "the log in d was written with `CAPE_ARENA_BASE=0x200000000000` and this run has `0x300000000000`: the program's shared memory must be where the log has it: restart with `CAPE_ARENA_BASE=0x200000000000`"
        );
        let bigger = Layout {
            stack_size: 128 << 20,
            ..layout()
        };
        assert!(bigger
            .difference(&h.layout, "d")
            .unwrap()
            .contains("`CAPE_STACK_SIZE=0x10000000` and this run has `0x8000000`"));
    }

    fn sample() -> (Vec<u8>, Header) {
        sample_with(&SECRET, &job())
    }

    #[test]
    fn round_trip() {
        let (file, h) = sample();
        let v = validate(&file, &job(), &SECRET, "d").unwrap();
        assert_eq!(v.header, h);
        assert_eq!(v.entries.len(), 5);
        for (i, e) in v.entries.iter().enumerate() {
            assert_eq!(*e, entry(i as u64 + 1));
        }
    }

    #[test]
    fn empty_log_is_valid() {
        let h = Header::new(&job(), [3; LOG_ID_LEN], layout());
        let file = h.encode(&LogKey::derive(&SECRET, &h.log_id, &job()));
        let v = validate(&file, &job(), &SECRET, "d").unwrap();
        assert!(v.entries.is_empty());
    }

    #[test]
    fn torn_tail_is_ignored() {
        let (mut file, h) = sample();
        let key = LogKey::derive(&SECRET, &h.log_id, &job());
        let extra = encode_record(&key, file.len() as u64, 6, &[entry(6)]);
        file.extend_from_slice(&extra[..extra.len() / 2]);
        assert_eq!(
            validate(&file, &job(), &SECRET, "d").unwrap().entries.len(),
            5
        );
    }

    #[test]
    fn truncated_below_committed_is_refused() {
        let (file, h) = sample();
        for cut in [h.committed_len as usize - 1, HEADER_LEN + 3, HEADER_LEN] {
            let e = validate(&file[..cut], &job(), &SECRET, "d").unwrap_err();
            assert!(e.contains("truncated"), "{e}");
        }
        let e = validate(&file[..100], &job(), &SECRET, "d").unwrap_err();
        assert!(e.contains("truncated inside its header"), "{e}");
        assert!(validate(&file[..10], &job(), &SECRET, "d").is_err());
    }

    #[test]
    fn other_program_or_arguments_are_refused() {
        let (file, _) = sample();
        let e = validate(
            &file,
            &Job::new(b"programme", &[b"arg".to_vec()]),
            &SECRET,
            "d",
        )
        .unwrap_err();
        assert!(e.contains("another program"), "{e}");
        let e = validate(
            &file,
            &Job::new(b"program", &[b"arg2".to_vec()]),
            &SECRET,
            "d",
        )
        .unwrap_err();
        assert!(e.contains("other arguments"), "{e}");
    }

    #[test]
    fn a_log_sealed_with_another_key_is_refused() {
        let (file, _) = sample_with(&[43; 32], &job());
        let e = validate(&file, &job(), &SECRET, "d").unwrap_err();
        assert!(e.contains("not authentic"), "{e}");
    }

    #[test]
    fn old_and_unknown_versions_are_refused() {
        let (mut file, _) = sample();
        for v in [1u32, 2, 3, 4, 6, 0] {
            file[8..12].copy_from_slice(&v.to_le_bytes());
            let e = validate(&file, &job(), &SECRET, "d").unwrap_err();
            assert!(
                e.contains(&format!("format version {v}, this runtime reads version 5")),
                "{e}"
            );
        }
    }

    /// Records of another log of the same job and key (another run) do not verify: the log id
    /// and the record's offset are in its MAC.
    #[test]
    fn records_of_another_log_are_refused() {
        let (file, _) = sample();
        let mut other = Header::new(&job(), [10; LOG_ID_LEN], layout());
        let key = LogKey::derive(&SECRET, &other.log_id, &job());
        let mut spliced = vec![0u8; HEADER_LEN];
        spliced.extend_from_slice(&file[HEADER_LEN..]);
        other.committed_len = spliced.len() as u64;
        other.committed_regions = 5;
        other.first_fingerprint = 1001;
        spliced[..HEADER_LEN].copy_from_slice(&other.encode(&key));
        let e = validate(&spliced, &job(), &SECRET, "d").unwrap_err();
        assert!(e.contains("record MAC mismatch"), "{e}");
    }

    #[test]
    fn every_single_bit_flip_is_refused() {
        let (file, _) = sample();
        for byte in 0..file.len() {
            for bit in 0..8 {
                let mut bad = file.clone();
                bad[byte] ^= 1 << bit;
                assert!(
                    validate(&bad, &job(), &SECRET, "d").is_err(),
                    "flip of bit {bit} of byte {byte} accepted"
                );
            }
        }
    }

    /// A compacted log (thinned records, snapshot, a record after it) validates, a snapshot
    /// of another region or a second one is refused, and so is every bit flip.
    #[test]
    fn compacted_log_round_trip() {
        let job = job();
        let mut h = Header::new(&job, [5; LOG_ID_LEN], layout());
        let key = LogKey::derive(&SECRET, &h.log_id, &job);
        let thinned: Vec<Entry> = (1..=3).map(entry).collect();
        let snap = |region| crate::log_compact::Snapshot {
            region,
            control: 77,
            sp: 0x7000,
            output: [1, 2],
            call: crate::log_compact::CallState {
                entry_sp: 0x6ff8,
                return_address: 0x40_1000,
                regs: [7; 6],
                fp_control: 0x1f80,
                stack: vec![3; 32],
            },
            image: payload(40),
        };
        h.first_fingerprint = 1001;
        let mut file = encode_compacted(&key, &mut h, &thinned, &snap(3));
        file.extend(encode_record(&key, file.len() as u64, 4, &[entry(4)]));
        h.committed_len = file.len() as u64;
        h.committed_regions = 4;
        file[..HEADER_LEN].copy_from_slice(&h.encode(&key));
        let v = validate(&file, &job, &SECRET, "d").unwrap();
        assert_eq!(v.entries.len(), 4);
        assert_eq!(v.snapshot, Some(snap(3)));
        for byte in (0..file.len()).step_by(7) {
            let mut bad = file.clone();
            bad[byte] ^= 4;
            assert!(
                validate(&bad, &job, &SECRET, "d").is_err(),
                "flip at {byte}"
            );
        }
        let mut wrong = h;
        let file = encode_compacted(&key, &mut wrong, &thinned, &snap(2));
        let e = validate(&file, &job, &SECRET, "d").unwrap_err();
        assert!(e.contains("snapshot out of order"), "{e}");
    }
}
