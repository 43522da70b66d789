//! The checkers in the region protocol: `CAPE_CHECK=divergence` before a region starts, the
//! race reports at its end (`CAPE_CHECK=races`: different values written by two ranks; check
//! builds: every conflicting access, from `crate::access_check`). Reports name the memory
//! through `crate::objects`.

use super::threadprivate::Threadprivates;
use super::RegionOutcome;
use crate::access_check::{self, Conflict, Kind};
use crate::diag::eprint_line;
use crate::merge::Race;
use crate::objects;
use crate::runtime::{describe_address, stop_all, Runtime};
use crate::tickpt::xxh64;
use crate::track::PAGE_SIZE;

/// `a[17] (int a[100], declared at prog.c:12)`, else what the runtime knows of the address.
fn name(rt: &Runtime, addr: usize) -> String {
    let pointer_at = |at: usize| -> Option<usize> {
        let page = at & !(PAGE_SIZE - 1);
        if !rt.tracker.contains(at) || at + 8 > page + PAGE_SIZE {
            return None;
        }
        let bytes = rt.tracker.memory(page).get(at - page..at - page + 8)?;
        Some(u64::from_le_bytes(bytes.try_into().ok()?) as usize)
    };
    objects::describe(addr, &pointer_at)
        .unwrap_or_else(|| format!("{addr:#x}{}", describe_address(rt, addr)))
}

/// Before a region (every rank): the divergence check, then (check builds, ranks of the
/// team) the recording of accesses.
pub(super) fn region_begin(
    rt: &mut Runtime,
    threadprivates: &Threadprivates,
    sp: usize,
    in_team: bool,
) {
    let excluded = threadprivates.ranges();
    if rt.cfg.check_divergence {
        divergence(rt, &excluded, sp);
    }
    if access_check::enabled() && in_team {
        let mut shared = rt.globals.clone();
        shared.push((rt.arena.base(), rt.arena.limit()));
        shared.push((sp, rt.stack_top));
        access_check::region_begin(shared, excluded);
    }
}

/// The memory a divergence check compares, in pieces of at most a page: the globals (not the
/// threadprivate copies), the used arena, the named shared locals of the region.
fn compared_pieces(rt: &Runtime, excluded: &[(usize, usize)], sp: usize) -> Vec<(usize, usize)> {
    let mut ranges = Vec::new();
    for &(s, e) in &rt.globals {
        crate::runs::subtract_from(s, e, excluded, &mut ranges);
    }
    ranges.push(rt.arena.used_range());
    ranges.extend(objects::region_objects_in(sp, rt.stack_top));
    let mut pieces = Vec::new();
    for (mut s, e) in ranges {
        while s < e {
            let end = e.min((s & !(PAGE_SIZE - 1)) + PAGE_SIZE);
            if rt.tracker.contains(s) {
                pieces.push((s, end));
            }
            s = end;
        }
    }
    pieces
}

fn bytes_of(rt: &Runtime, (s, e): (usize, usize)) -> &[u8] {
    let page = s & !(PAGE_SIZE - 1);
    &rt.tracker.memory(page)[s - page..e - page]
}

/// `CAPE_CHECK=divergence`: every rank hashes the shared state that sequential code left;
/// when the ranks differ, rank 0 names the first differing object and the job stops.
fn divergence(rt: &mut Runtime, excluded: &[(usize, usize)], sp: usize) {
    let pieces = compared_pieces(rt, excluded, sp);
    // every piece is read: the invalid pages among them fetched as one batch
    rt.tracker.fetch_invalid(pieces.iter().map(|&(s, _)| s));
    let mut hashes = Vec::with_capacity(pieces.len() * 16);
    for &p in &pieces {
        hashes.extend_from_slice(&(p.0 as u64).to_le_bytes());
        hashes.extend_from_slice(&xxh64(bytes_of(rt, p), p.0 as u64).to_le_bytes());
    }
    let Some(comm) = rt.comm.as_ref() else { return };
    let all = comm.all_gather_bytes(&hashes);
    let Some(at) = (0..hashes.len() / 16).find(|&i| {
        all.iter()
            .any(|h| h.get(i * 16..i * 16 + 16) != hashes.get(i * 16..i * 16 + 16))
    }) else {
        if all.iter().all(|h| h.len() == hashes.len()) {
            return;
        }
        let msg = format!(
            "the ranks diverged before the {}: their shared memory has different sizes (the heap grew differently); make sequential code compute the same on every rank",
            objects::region_what()
        );
        stop_all(rt.comm.as_mut(), rt.rank, &msg)
    };
    let piece = pieces[at];
    let all_bytes = comm.all_gather_bytes(bytes_of(rt, piece));
    let first = (0..piece.1 - piece.0)
        .find_map(|i| {
            let b0 = all_bytes[0].get(i);
            all_bytes
                .iter()
                .position(|b| b.get(i) != b0)
                .map(|r| (i, r))
        })
        .unwrap_or((0, 1));
    let msg = format!(
        "the ranks diverged before the {}: sequential code left different values in {} on thread 0 and thread {} (time, getpid(), a random seed or a file that differs between ranks?); compute such values in a `single` block, whose result the barrier gives every thread, or make them the same on every rank",
        objects::region_what(),
        name(rt, piece.0 + first.0),
        first.1
    );
    stop_all(rt.comm.as_mut(), rt.rank, &msg)
}

/// After a region's last merge point (every rank): the race reports.
pub(super) fn region_end(rt: &mut Runtime, races: &[Race]) -> RegionOutcome {
    let mut found = false;
    if access_check::enabled() {
        found |= report_conflicts(rt);
    }
    if rt.cfg.check_races {
        found |= report_races(rt, races);
    }
    if found {
        RegionOutcome::RacesFound
    } else {
        RegionOutcome::Done
    }
}

fn where_(lines: &std::collections::HashMap<usize, String>, pc: u64) -> String {
    match lines.get(&(pc as usize)) {
        Some(line) => format!("at {line}"),
        None if pc == 0 => "at an unknown place".to_string(),
        None => format!("at code address {pc:#x}"),
    }
}

/// Check builds: every rank's accesses of every epoch of the region, compared.
fn report_conflicts(rt: &mut Runtime) -> bool {
    let Some(comm) = rt.comm.as_ref() else {
        return false;
    };
    let all = comm.all_gather_bytes(&access_check::encode_region());
    let (reported, total) = access_check::to_report(access_check::conflicts(&all));
    if reported.is_empty() {
        access_check::region_done();
        return false;
    }
    let pcs = comm.all_gather_bytes(&access_check::encode_pcs(&reported));
    access_check::region_done();
    if rt.rank != 0 {
        return true;
    }
    // (read pc, write pc) of `rank` for report `i`
    let pc = |rank: u32, i: usize, write: bool| -> u64 {
        let at = i * 16 + if write { 8 } else { 0 };
        pcs.get(rank as usize)
            .and_then(|b| b.get(at..at + 8))
            .map_or(0, |b| u64::from_le_bytes(b.try_into().unwrap_or([0; 8])))
    };
    let mut wanted = Vec::new();
    for (i, c) in reported.iter().enumerate() {
        for rank in [c.ranks.0, c.ranks.1] {
            wanted.extend([pc(rank, i, false) as usize, pc(rank, i, true) as usize]);
        }
    }
    let lines = crate::symbols::code_lines(&wanted);
    let what = objects::region_what();
    for (i, c) in reported.iter().enumerate() {
        let Conflict {
            epoch,
            addr,
            kind,
            ranks: (a, b),
            ..
        } = *c;
        let after = if epoch > 0 {
            format!(" (after its barrier {epoch})")
        } else {
            String::new()
        };
        let accesses = match kind {
            Kind::WriteWrite => format!(
                "written by thread {a} {} and by thread {b} {} (write-write)",
                where_(&lines, pc(a, i, true)),
                where_(&lines, pc(b, i, true))
            ),
            Kind::ReadWrite => format!(
                "read by thread {a} {} and written by thread {b} {} (read-write)",
                where_(&lines, pc(a, i, false)),
                where_(&lines, pc(b, i, true))
            ),
            Kind::WriteRead => format!(
                "written by thread {a} {} and read by thread {b} {} (write-read)",
                where_(&lines, pc(a, i, true)),
                where_(&lines, pc(b, i, false))
            ),
        };
        eprint_line(&format!(
            "capert: error: data race on {} in the {what}{after}: {accesses}",
            name(rt, addr)
        ));
    }
    eprint_line(&format!(
        "capert: error: {total} conflicting access range(s) in the {what}: make the variable private, use `reduction`/`lastprivate`, or separate the accesses with a barrier"
    ));
    true
}

/// `CAPE_CHECK=races`: rank 0 prints each distinct race the merges found once.
fn report_races(rt: &mut Runtime, races: &[Race]) -> bool {
    let Some(comm) = rt.comm.as_ref() else {
        return false;
    };
    let mut mine = Vec::with_capacity(races.len() * 24);
    for r in races {
        mine.extend_from_slice(&r.addr.to_le_bytes());
        mine.extend_from_slice(&r.len.to_le_bytes());
        mine.extend_from_slice(&r.ranks.0.to_le_bytes());
        mine.extend_from_slice(&r.ranks.1.to_le_bytes());
    }
    let all = comm.all_gather_bytes(&mine);
    let mut found: Vec<(u64, u64, u32, u32)> = Vec::new();
    for bytes in &all {
        for rec in bytes.chunks_exact(24) {
            let word = |i: usize| u64::from_le_bytes(rec[i..i + 8].try_into().unwrap_or([0; 8]));
            let half = |i: usize| u32::from_le_bytes(rec[i..i + 4].try_into().unwrap_or([0; 4]));
            let (a, b) = (half(16), half(20));
            found.push((word(0), word(8), a.min(b), a.max(b)));
        }
    }
    found.sort_unstable();
    found.dedup();
    if found.is_empty() {
        return false;
    }
    if rt.rank == 0 {
        let what = objects::region_what();
        for (addr, len, a, b) in &found {
            eprint_line(&format!(
                "capert: error: data race on {} in the {what}: {len} byte(s) written by threads {a} and {b} with different values",
                name(rt, *addr as usize)
            ));
        }
        eprint_line(&format!(
            "capert: error: {} data race(s) found: make the conflicting writes private, or protect them with `reduction`/`critical`",
            found.len()
        ));
    }
    true
}
