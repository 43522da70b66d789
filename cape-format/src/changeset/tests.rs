//! Property tests of change sets against the byte-wise oracle.

use super::testutil::{
    byte_map, check_races, from_byte_map, oracle, random_changes, writes_of, ByteMap,
};
use super::*;
use crate::tickpt::testutil::Rng;

fn st(order: u64, rank: u32) -> Stamp {
    Stamp { order, rank }
}

fn encode(map: &ByteMap) -> Vec<u8> {
    let mut buf = Buf::new();
    from_byte_map(7, map, &mut buf);
    buf.as_slice().to_vec()
}

fn merged(a: &[u8], b: &[u8], races: Option<&mut Vec<Race>>) -> Vec<u8> {
    let a = ChangeSet::parse(a).expect("a");
    let mut out = Buf::new();
    merge(&a, b, &mut out, races).expect("merge");
    ChangeSet::parse(out.as_slice()).expect("the merge gives a valid set");
    out.as_slice().to_vec()
}

#[test]
fn round_trip_through_the_encoding() {
    let mut rng = Rng::new(1);
    for case in 0..300 {
        let base = 0x10_0000 + rng.below(9000);
        let map = random_changes(&mut rng, st(case, 3), base, 20_000);
        let bytes = encode(&map);
        let set = ChangeSet::parse(&bytes).expect("valid");
        assert_eq!(byte_map(&set), map, "case {case}");
    }
}

#[test]
fn costs_of_the_benchmark_patterns() {
    // (pattern, wire bytes per changed byte at most)
    type Changed = fn(usize) -> bool;
    let patterns: [(Changed, f64); 4] = [
        (|_| true, 1.01),
        (|i| i % 8 >= 6, 1.16),
        (|i| i.is_multiple_of(8), 1.32),
        (|i| i.is_multiple_of(64), 3.5),
    ];
    for (p, (changed, limit)) in patterns.iter().enumerate() {
        let mut map = ByteMap::new();
        for i in 0..16 * PAGE {
            if changed(i) {
                map.insert(0x40_0000 + i as u64, (st(1, 0), 9));
            }
        }
        let bytes = encode(&map);
        let ratio = (bytes.len() - HEADER_LEN - STAMP_LEN) as f64 / map.len() as f64;
        assert!(ratio <= *limit, "pattern {p}: {ratio}");
    }
}

#[test]
fn neighbouring_bytes_of_different_ranks_both_survive() {
    let mut a = ByteMap::new();
    let mut b = ByteMap::new();
    for i in 0..64u64 {
        let map = if i % 2 == 0 { &mut a } else { &mut b };
        map.insert(0x1000 + i, (st(1, (i % 2) as u32), i as u8 + 1));
    }
    let m = merged(&encode(&a), &encode(&b), None);
    let got = byte_map(&ChangeSet::parse(&m).unwrap());
    assert_eq!(got, oracle([&a, &b]));
    assert_eq!(got.len(), 64);
}

/// P ranks (1 to 9) with random, overlapping and interleaved changes, merged in a random
/// tree: the result equals the oracle, byte for byte in canonical form, and every race is
/// found.
#[test]
fn any_merge_tree_equals_the_oracle() {
    let mut rng = Rng::new(2);
    for case in 0..400 {
        let ranks = 1 + rng.below(9) as u32;
        let span = 64 + rng.below(3 * PAGE as u64);
        let base = 0x20_0000 + rng.below(128);
        let maps: Vec<ByteMap> = (0..ranks)
            .map(|r| {
                let order = rng.below(3);
                random_changes(&mut rng, st(order, r), base, span)
            })
            .collect();
        let want = encode(&oracle(&maps));
        let mut items: Vec<Vec<u8>> = maps.iter().map(encode).collect();
        let mut races = Vec::new();
        while items.len() > 1 {
            let i = rng.below(items.len() as u64) as usize;
            let a = items.swap_remove(i);
            let j = rng.below(items.len() as u64) as usize;
            let b = items.swap_remove(j);
            items.push(merged(&a, &b, Some(&mut races)));
        }
        // the stamp table keeps ranks whose bytes all lost; the records are canonical
        let got = ChangeSet::parse(&items[0]).unwrap();
        let expected = ChangeSet::parse(&want).unwrap();
        assert!(
            byte_map(&got) == byte_map(&expected),
            "case {case}: {ranks} ranks"
        );
        assert!(
            got.records == expected.records,
            "case {case}: {ranks} ranks"
        );
        check_races(writes_of(&maps), &races);
    }
}

#[test]
fn merging_in_pieces_gives_the_same_result() {
    let mut rng = Rng::new(3);
    for case in 0..200 {
        let a = random_changes(&mut rng, st(1, 0), 0x3000, 6 * PAGE as u64);
        let b = random_changes(&mut rng, st(1, 1), 0x3000, 6 * PAGE as u64);
        let (ea, eb) = (encode(&a), encode(&b));
        let whole = merged(&ea, &eb, None);
        let set = ChangeSet::parse(&ea).unwrap();
        let mut out = Buf::new();
        let mut scratch = Vec::new();
        let mut m = Merge::new(set, false, &mut out, None, &mut scratch);
        let mut cut = 0;
        while cut < eb.len() {
            cut = (cut + 1 + rng.below(700) as usize).min(eb.len());
            m.feed(&eb[..cut]).expect("feed");
        }
        m.finish().expect("finish");
        assert_eq!(out.as_slice(), &whole[..], "case {case}");
    }
}

#[test]
fn blocks_travel_in_rank_order() {
    let mut buf = Buf::new();
    let mut w = Writer::new(&mut buf, 5, [st(2, 1)]);
    w.begin_record(0x1000, 1);
    w.masked_line(0, 0b101, &[7; LINE]);
    w.block(1, b"one");
    w.finish();
    let mut other = Buf::new();
    let mut w = Writer::new(&mut other, 5, [st(2, 3)]);
    w.block(0, b"zero");
    w.block(3, b"");
    w.finish();
    let m = merged(buf.as_slice(), other.as_slice(), None);
    let set = ChangeSet::parse(&m).unwrap();
    let blocks: Vec<(u32, &[u8])> = set.blocks().collect();
    assert_eq!(blocks, vec![(0, &b"zero"[..]), (1, b"one"), (3, b"")]);
    assert_eq!(set.records().count(), 1);
    let twice = merge(&set, &m, &mut Buf::new(), None).unwrap_err();
    assert_eq!(twice, MergeError::Blocks { rank: 0 });
}

#[test]
fn mismatches_are_errors() {
    let mut a = Buf::new();
    Writer::new(&mut a, 1, [st(5, 0)]).finish();
    let mut b = Buf::new();
    Writer::new(&mut b, 2, [st(5, 1)]).finish();
    let set = ChangeSet::parse(a.as_slice()).unwrap();
    assert_eq!(
        merge(&set, b.as_slice(), &mut Buf::new(), None).unwrap_err(),
        MergeError::Region {
            local: 1,
            remote: 2
        }
    );
    let mut c = Buf::new();
    Writer::new(&mut c, 1, [st(6, 0)]).finish();
    assert_eq!(
        merge(&set, c.as_slice(), &mut Buf::new(), None).unwrap_err(),
        MergeError::Stamps { rank: 0 }
    );
    let cut = &c.as_slice()[..c.len() - 1];
    assert!(merge(&set, cut, &mut Buf::new(), None).is_err());
}

#[test]
fn to_tickpt_gives_the_runs_of_every_byte() {
    let mut rng = Rng::new(4);
    for _ in 0..100 {
        let maps: Vec<ByteMap> = (0..3)
            .map(|r| random_changes(&mut rng, st(r as u64, r), 0x8000, 3 * PAGE as u64))
            .collect();
        let all = oracle(&maps);
        let bytes = encode(&all);
        let t = to_tickpt(&ChangeSet::parse(&bytes).unwrap());
        let mut got = ByteMap::new();
        for run in t.runs() {
            for (i, &b) in run.bytes.iter().enumerate() {
                got.insert(run.addr + i as u64, (run.stamp, b));
            }
        }
        assert_eq!(got, all);
    }
}

/// Whatever the bytes, parsing never panics, and what it accepts iterates and merges.
#[test]
fn mutated_sets_are_rejected_or_valid() {
    let mut rng = Rng::new(5);
    let mut accepted = 0;
    for case in 0..3000 {
        let map = random_changes(&mut rng, st(1, (case % 3) as u32), 0x5000, 2 * PAGE as u64);
        let mut bytes = encode(&map);
        match rng.below(3) {
            0 => bytes.truncate(rng.below(bytes.len() as u64 + 1) as usize),
            1 => {
                for _ in 0..1 + rng.below(4) {
                    let i = rng.below(bytes.len() as u64) as usize;
                    bytes[i] ^= 1 << rng.below(8);
                }
            }
            _ => {
                let i = rng.below(bytes.len() as u64) as usize;
                bytes[i] = rng.below(256) as u8;
            }
        }
        if let Ok(set) = ChangeSet::parse(&bytes) {
            accepted += 1;
            let _ = byte_map(&set);
            let _ = to_tickpt(&set);
            let mut out = Buf::new();
            let _ = merge(&set, &bytes, &mut out, None);
        }
        // a prefix feeds without panicking too
        let empty = encode(&ByteMap::new());
        let base = ChangeSet::parse(&empty).unwrap();
        let mut out = Buf::new();
        let mut scratch = Vec::new();
        let mut m = Merge::new(base, true, &mut out, None, &mut scratch);
        let _ = m.feed(&bytes[..bytes.len() / 2]);
        let _ = m.feed(&bytes);
    }
    assert!(accepted > 0);
}
