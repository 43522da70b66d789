//! Change sets from and to byte maps (address -> winning stamp and byte), the oracle of the
//! property tests, and random change sets.

use super::{Buf, ChangeSet, Race, Writer, LINE, PAGE};
use crate::tickpt::testutil::Rng;
use crate::tickpt::Stamp;
use std::collections::BTreeMap;

pub type ByteMap = BTreeMap<u64, (Stamp, u8)>;

/// The canonical change set of a byte map (one stamp per rank), appended to `buf`.
pub fn from_byte_map(region: u64, map: &ByteMap, buf: &mut Buf) -> usize {
    let mut stamps: BTreeMap<u32, u64> = BTreeMap::new();
    for &(s, _) in map.values() {
        let order = *stamps.entry(s.rank).or_insert(s.order);
        assert_eq!(order, s.order, "one stamp per rank");
    }
    let mut w = Writer::new(
        buf,
        region,
        stamps.iter().map(|(&rank, &order)| Stamp { order, rank }),
    );
    // page -> rank -> line -> (mask, image)
    type Lines = BTreeMap<usize, (u64, [u8; LINE])>;
    let mut pages: BTreeMap<u64, BTreeMap<u32, Lines>> = BTreeMap::new();
    for (&addr, &(s, b)) in map {
        let page = addr / PAGE as u64 * PAGE as u64;
        let offset = (addr - page) as usize;
        let slot = pages
            .entry(page)
            .or_default()
            .entry(s.rank)
            .or_default()
            .entry(offset / LINE)
            .or_insert((0, [0; LINE]));
        slot.0 |= 1 << (offset % LINE);
        slot.1[offset % LINE] = b;
    }
    for (page, ranks) in &pages {
        for (rank, lines) in ranks {
            w.begin_record(*page, *rank);
            for (line, (mask, image)) in lines {
                w.masked_line(*line, *mask, image);
            }
        }
    }
    w.finish()
}

/// Every changed byte of a change set with its stamp.
pub fn byte_map(set: &ChangeSet<'_>) -> ByteMap {
    let mut map = ByteMap::new();
    for r in set.records() {
        let stamp = set.stamp_of(r.rank).expect("a checked set has every stamp");
        for line in r.lines() {
            let mut bits = line.mask;
            let mut k = 0;
            while bits != 0 {
                let i = bits.trailing_zeros() as u64;
                bits &= bits - 1;
                let addr = r.page + (line.index * LINE) as u64 + i;
                assert!(map.insert(addr, (stamp, line.data[k])).is_none());
                k += 1;
            }
        }
    }
    map
}

/// Oracle: every byte keeps the value of the largest stamp (on equal stamps, the later map).
pub fn oracle<'a>(maps: impl IntoIterator<Item = &'a ByteMap>) -> ByteMap {
    let mut out = ByteMap::new();
    for m in maps {
        for (&addr, &v) in m {
            let slot = out.entry(addr).or_insert(v);
            if v.0 >= slot.0 {
                *slot = v;
            }
        }
    }
    out
}

/// Random changes of one rank in `[base, base + span)`: bursts of every density, single
/// bytes, whole lines, bytes from a small alphabet (so that ranks often write equal values).
pub fn random_changes(rng: &mut Rng, stamp: Stamp, base: u64, span: u64) -> ByteMap {
    let mut map = ByteMap::new();
    let mut addr = base + rng.below(16);
    while addr < base + span {
        let len = match rng.below(4) {
            0 => 1,
            1 => 1 + rng.below(8),
            2 => 1 + rng.below(200),
            _ => 64 + rng.below(4096),
        }
        .min(base + span - addr);
        let density = rng.below(4);
        for a in addr..addr + len {
            if density == 0 || rng.below(4) < density {
                map.insert(a, (stamp, rng.below(3) as u8));
            }
        }
        addr += len + rng.below(300);
    }
    map
}

/// Every reported race is real (both ranks wrote every byte of it, with different values), and
/// every byte two ranks wrote differently is inside a reported race. `writes`: (address, rank,
/// byte) of every input.
pub fn check_races(writes: impl IntoIterator<Item = (u64, u32, u8)>, races: &[Race]) {
    let mut written: BTreeMap<u64, BTreeMap<u32, u8>> = BTreeMap::new();
    for (addr, rank, b) in writes {
        written.entry(addr).or_default().insert(rank, b);
    }
    for race in races {
        let (r0, r1) = race.ranks;
        assert!(r0 < r1, "{race:?}");
        for addr in race.addr..race.addr + race.len {
            let by_rank = &written[&addr];
            assert!(
                by_rank.contains_key(&r0) && by_rank.contains_key(&r1),
                "{race:?}"
            );
            assert_ne!(by_rank[&r0], by_rank[&r1], "{race:?}");
        }
    }
    for (addr, by_rank) in &written {
        let mut values: Vec<u8> = by_rank.values().copied().collect();
        values.sort();
        values.dedup();
        if values.len() > 1 {
            assert!(
                races
                    .iter()
                    .any(|r| (r.addr..r.addr + r.len).contains(addr)),
                "race at {addr:#x} not reported"
            );
        }
    }
}

/// The (address, rank, byte) of every byte of some byte maps.
pub fn writes_of(maps: &[ByteMap]) -> impl Iterator<Item = (u64, u32, u8)> + '_ {
    maps.iter()
        .flat_map(|m| m.iter().map(|(&addr, &(s, b))| (addr, s.rank, b)))
}
