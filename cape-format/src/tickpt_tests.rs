//! Unit tests of the TICKPT formats (kept apart so that tickpt.rs stays readable).

use super::testutil::{random_tickpt, Rng};
use super::*;

fn st(order: u64, rank: u32) -> Stamp {
    Stamp { order, rank }
}

#[test]
fn stamp_orders_by_order_then_rank() {
    assert!(st(1, 0) > st(0, 5));
    assert!(st(1, 2) > st(1, 1));
    assert_eq!(st(3, 3), st(3, 3));
}

#[test]
fn xxh64_matches_libxxhash() {
    // Produced by libxxhash 0.8.1's XXH64(buf, len, 0) with buf[i] = (i * 7 + 3) as u8.
    let vectors: [(usize, u64); 15] = [
        (0, 0xef46db3751d8e999),
        (1, 0x1f25c8d0bc1f4bb6),
        (3, 0x31d2363f52e564c9),
        (4, 0x9bb64b7d66ee9fda),
        (7, 0x9a7b149959ce60d8),
        (8, 0xdab99d95c6f90092),
        (9, 0x170bb6bf975b4c02),
        (31, 0xa2aa5f33cc4a6119),
        (32, 0x23c3c17ef790fd97),
        (33, 0x50a7cfc7ba588784),
        (63, 0x5e3e54b431c7493c),
        (64, 0x0eb64b3ef6eeb01f),
        (100, 0xa61f8d4c170fe531),
        (255, 0x39ae55a29989206f),
        (300, 0x240004dbee0ba6dc),
    ];
    let buf: Vec<u8> = (0..300u32).map(|i| (i * 7 + 3) as u8).collect();
    for (len, want) in vectors {
        assert_eq!(xxh64(&buf[..len], 0), want, "length {len}");
    }
    assert_eq!(xxh64(b"abc", 0), 0x44bc2cf5ad770999);
    // Seeds as the fingerprint and the input digests use them (values of the hand-written
    // implementation this crate's XXH64 replaced).
    let buf: Vec<u8> = (0..100u32).map(|i| (i * 131 + 7) as u8).collect();
    for (seed, want) in [
        (1, 0xe6a0d25e6e0a7f2a),
        (0x5354_4449_4e00, 0xdc91babaf971a6da),
        (0x454e_5600, 0x814b8d011b0b38f9),
        (u64::MAX, 0x8b8b9e7c59f840e0),
    ] {
        assert_eq!(xxh64(&buf, seed), want, "seed {seed:#x}");
    }
}

#[test]
fn push_coalesces_adjacent_runs_with_the_same_stamp_only() {
    let mut t = Tickpt::new(7);
    t.push(100, st(1, 0), &[1, 2]);
    t.push(102, st(1, 0), &[3]);
    t.push(103, st(2, 0), &[4]);
    t.push(110, st(2, 0), &[5]);
    t.push(111, st(2, 0), &[]);
    let runs: Vec<_> = t.runs().collect();
    assert_eq!(runs.len(), 3);
    assert_eq!((runs[0].addr, runs[0].bytes), (100, &[1, 2, 3][..]));
    assert_eq!((runs[1].addr, runs[1].bytes), (103, &[4][..]));
    assert_eq!((runs[2].addr, runs[2].bytes), (110, &[5][..]));
    assert_eq!(t.run_count(), 3);
    assert_eq!(t.data_bytes(), 5);
    assert_eq!(t.end(), 111);
    assert!(!t.is_empty());
    assert!(Tickpt::new(0).is_empty());
}

#[test]
fn encoding_has_the_documented_layout() {
    let mut t = Tickpt::new(0x0102_0304_0506_0708);
    t.push(0x1000, st(9, 3), &[0xAA, 0xBB]);
    let enc = t.encode();
    assert_eq!(enc.len(), 36 + 24 + 2 + 8);
    assert_eq!(enc.len(), t.encoded_len());
    assert_eq!(&enc[0..8], b"CAPETKPT");
    assert_eq!(&enc[8..10], &[1, 0]);
    assert_eq!(&enc[10..12], &[0, 0]);
    assert_eq!(&enc[12..20], &0x0102_0304_0506_0708u64.to_le_bytes());
    assert_eq!(&enc[20..28], &1u64.to_le_bytes());
    assert_eq!(&enc[28..36], &2u64.to_le_bytes());
    assert_eq!(&enc[36..44], &0x1000u64.to_le_bytes());
    assert_eq!(&enc[44..48], &2u32.to_le_bytes());
    assert_eq!(&enc[48..56], &9u64.to_le_bytes());
    assert_eq!(&enc[56..60], &3u32.to_le_bytes());
    assert_eq!(&enc[60..62], &[0xAA, 0xBB]);
    assert_eq!(&enc[62..70], &xxh64(&enc[..62], 0).to_le_bytes());
}

#[test]
fn encode_decode_round_trip() {
    let mut rng = Rng::new(1);
    for case in 0..300 {
        let span = [0, 1, 50, 2000][case % 4];
        let t = random_tickpt(&mut rng, case as u64, (case % 5) as u32, 1 << 40, span);
        let enc = t.encode();
        assert_eq!(enc.len(), t.encoded_len());
        assert_eq!(Tickpt::decode(&enc).as_ref(), Ok(&t));
        // encode_into appends after existing contents
        let mut buf = vec![1, 2, 3];
        t.encode_into(&mut buf);
        assert_eq!(&buf[3..], &enc[..]);
    }
}

/// Build an encoding by hand, with a correct checksum, to reach the structural checks.
fn raw(
    version: u16,
    flags: u16,
    runs: &[(u64, u32, u64, u32)],
    data_len: u64,
    data: &[u8],
) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(b"CAPETKPT");
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&flags.to_le_bytes());
    out.extend_from_slice(&5u64.to_le_bytes());
    out.extend_from_slice(&(runs.len() as u64).to_le_bytes());
    out.extend_from_slice(&data_len.to_le_bytes());
    for &(addr, len, order, rank) in runs {
        out.extend_from_slice(&addr.to_le_bytes());
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&order.to_le_bytes());
        out.extend_from_slice(&rank.to_le_bytes());
    }
    out.extend_from_slice(data);
    let sum = xxh64(&out, 0);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

#[test]
fn decode_rejects_structural_errors() {
    use TickptError::*;
    let ok = raw(1, 0, &[(10, 2, 0, 0), (12, 1, 0, 1)], 3, &[1, 2, 3]);
    assert!(Tickpt::decode(&ok).is_ok(), "adjacent runs are valid");
    let cases: Vec<(Vec<u8>, TickptError)> = vec![
        (raw(2, 0, &[], 0, &[]), UnsupportedVersion(2)),
        (raw(1, 4, &[], 0, &[]), Malformed("unknown flags")),
        (raw(1, 0, &[(10, 0, 0, 0)], 0, &[]), Malformed("empty run")),
        (
            raw(1, 0, &[(10, 2, 0, 0), (11, 1, 0, 0)], 3, &[1, 2, 3]),
            Malformed("runs unsorted or overlapping"),
        ),
        (
            raw(1, 0, &[(10, 2, 0, 0), (5, 1, 0, 0)], 3, &[1, 2, 3]),
            Malformed("runs unsorted or overlapping"),
        ),
        (
            raw(1, 0, &[(u64::MAX - 1, 3, 0, 0)], 3, &[1, 2, 3]),
            Malformed("run wraps around the address space"),
        ),
        (
            raw(1, 0, &[(10, 2, 0, 0)], 3, &[1, 2, 3]),
            Malformed("run lengths do not add up to the data length"),
        ),
        (raw(1, 0, &[(10, 2, 0, 0)], 2, &[1]), Truncated),
        (
            raw(1, 0, &[], u64::MAX, &[]),
            Malformed("run count or data length out of range"),
        ),
    ];
    for (buf, want) in cases {
        assert_eq!(Tickpt::decode(&buf), Err(want));
    }
    let mut trailing = ok.clone();
    trailing.push(0);
    assert_eq!(
        Tickpt::decode(&trailing),
        Err(Malformed("trailing bytes after the checksum"))
    );
    let mut bad_magic = ok.clone();
    bad_magic[0] = b'X';
    assert_eq!(Tickpt::decode(&bad_magic), Err(BadMagic));
}

#[test]
fn decode_rejects_every_truncation_and_single_bit_flip() {
    let mut rng = Rng::new(2);
    for region in 0..20 {
        let t = random_tickpt(&mut rng, region, 1, 4096, 120);
        let enc = t.encode();
        for cut in 0..enc.len() {
            assert!(Tickpt::decode(&enc[..cut]).is_err(), "cut at {cut}");
        }
        for bit in 0..enc.len() * 8 {
            let mut flipped = enc.clone();
            flipped[bit / 8] ^= 1 << (bit % 8);
            assert!(Tickpt::decode(&flipped).is_err(), "flip of bit {bit}");
        }
    }
}

#[test]
fn decode_never_panics_on_random_input() {
    let mut rng = Rng::new(3);
    for _ in 0..20_000 {
        let len = rng.below(200) as usize;
        let mut buf = rng.bytes(len, 255);
        // Often give it a valid prefix so that the deeper checks run.
        if rng.below(2) == 0 && len >= 12 {
            buf[..8].copy_from_slice(b"CAPETKPT");
            buf[8..10].copy_from_slice(&1u16.to_le_bytes());
        }
        let _ = Tickpt::decode(&buf);
    }
    // Random bodies with a valid header, counts and checksum reach the run checks.
    for _ in 0..20_000 {
        let runs: Vec<(u64, u32, u64, u32)> = (0..rng.below(5))
            .map(|_| {
                (
                    rng.below(40),
                    rng.below(6) as u32,
                    rng.next_u64(),
                    rng.below(4) as u32,
                )
            })
            .collect();
        let data_len = rng.below(20);
        let data = rng.bytes(data_len as usize, 255);
        let buf = raw(1, 0, &runs, data_len, &data);
        if let Ok(t) = Tickpt::decode(&buf) {
            let mut end = 0;
            for run in t.runs() {
                assert!(!run.bytes.is_empty() && run.addr >= end);
                end = run.end();
            }
            assert_eq!(t.encode(), buf);
        }
    }
}

#[test]
fn errors_display_as_one_lowercase_line() {
    let all = [
        TickptError::BadMagic,
        TickptError::UnsupportedVersion(9),
        TickptError::Truncated,
        TickptError::BadChecksum,
        TickptError::Malformed("empty run"),
    ];
    for e in all {
        let s = e.to_string();
        assert!(!s.contains('\n') && !s.ends_with('.'), "{s}");
        assert!(s.starts_with(|c: char| c.is_lowercase()), "{s}");
    }
}
