//! The demand-driven part of a merge point (`CAPE_MERGE=lazy`, `crate::lazy`): phase 1
//! exchanges write notices; the pages changed by one rank only stay with it (published in
//! its served buffers, invalidated elsewhere after the merge); every other written page goes
//! through the eager merge of `epoch.rs`, which is phase 2.

use super::ActiveRegion;
use crate::diff::{changed_lines, copy_lines, diff_into};
use crate::runs::subtract_from;
use crate::runtime::Runtime;
use crate::tickpt::{Stamp, Tickpt};
use crate::track::PAGE_SIZE;

/// What phase 1 decided for this merge point.
pub(super) struct Decided {
    /// Pages with one writer (page, writer rank), ascending.
    single: Vec<(usize, u32)>,
    /// Pages noticed by several ranks (or vetoed), ascending.
    several: Vec<usize>,
    /// Rank 0 of a logged region (`keeps_every_page`): the bytes of the pages with one writer
    /// that changed at this merge point, as the eager merge's diff would give them (its own
    /// pages, found in `notices`, and the fetched ones, found in `settle`), for the log.
    changed_own: Tickpt,
    changed_fetched: Tickpt,
}

/// The stamp of a page published by `writer` at this merge point, in the log.
fn published_stamp(r: &ActiveRegion, writer: u32) -> Stamp {
    Stamp {
        order: r.epoch << super::epoch::EPOCH_SHIFT,
        rank: writer,
    }
}

/// Is the whole page inside the shared ranges and outside the excluded ones (both sorted)?
fn whole_page(page: usize, ranges: &[(usize, usize)], excluded: &[(usize, usize)]) -> bool {
    let end = page + PAGE_SIZE;
    let first = ranges.partition_point(|&(_, e)| e <= page);
    if !ranges
        .get(first)
        .is_some_and(|&(s, e)| s <= page && e >= end)
    {
        return false;
    }
    let mut pieces = Vec::new();
    subtract_from(page, end, excluded, &mut pieces);
    pieces == [(page, end)]
}

/// Phase 1 on a team rank, when the merge point may be lazy (a team of every rank, no
/// checkpoint log): splits `written` into the pages to diff (returned, ascending) and the
/// pages published by notice. None: this merge point is eager (same answer on every rank).
pub(super) fn notices(
    rt: &mut Runtime,
    r: &ActiveRegion,
    written: &[usize],
    ranges: &[(usize, usize)],
    excluded: &[(usize, usize)],
) -> Option<(Vec<usize>, Decided)> {
    let lazy = rt.lazy.as_ref()?;
    if !r.lazy {
        return None;
    }
    // the changed pages, and per page the lines that differ from the twin
    let (mut changed, mut lines, mut diff) = (Vec::new(), Vec::new(), Vec::new());
    for &page in written {
        if !lazy.eligible(page) || !whole_page(page, ranges, excluded) {
            diff.push(page);
            continue;
        }
        if rt.tracker.unchanged_zero(page) {
            rt.tracker.unchanged(&[page]);
            continue;
        }
        let differ = changed_lines(rt.tracker.memory(page), rt.tracker.twin(page));
        if differ != 0 {
            changed.push(page);
            lines.push(differ);
        } else {
            // a page left writable on a guess that it would be written: it was not
            rt.tracker.unchanged(&[page]);
            rt.tracker.note_unchanged(page);
        }
    }
    let mut vetoes: Vec<usize> = r
        .excluded
        .iter()
        .flat_map(|&(s, e)| ((s & !(PAGE_SIZE - 1))..e).step_by(PAGE_SIZE))
        .filter(|&page| lazy.eligible(page))
        .collect();
    vetoes.sort_unstable();
    vetoes.dedup();
    let message = crate::lazy::encode_notices(&changed, &vetoes);
    let comm = rt.comm.as_ref()?;
    let messages = comm.all_gather_bytes(&message);
    rt.current.bytes_sent += (message.len() * (rt.size - 1)) as u64;
    let (single, several) = crate::lazy::classify(&messages);
    let me = rt.rank as u32;
    let keep = keeps_every_page(rt, r);
    let mut changed_own = Tickpt::new(0);
    for (&page, &differ) in changed.iter().zip(&lines) {
        if several.binary_search(&page).is_ok() {
            diff.push(page);
            continue;
        }
        // this rank's page from now on: the twin takes the new version, which is published
        let exact = rt.tracker.twin_holds_published(page);
        let (memory, twin) = rt.tracker.pair_mut(page);
        if keep {
            diff_into(
                memory,
                twin,
                page as u64,
                published_stamp(r, me),
                &mut changed_own,
            );
        }
        // memory is as the compare saw it (no user code ran since): the differing lines suffice
        copy_lines(memory, twin, differ);
        if let Some(lazy) = rt.lazy.as_mut() {
            lazy.publish(page, memory, differ, exact);
        }
        rt.tracker.note_published(page);
        rt.current.lazy_published += 1;
    }
    rt.current.lazy_notices += changed.len() as u64;
    debug_assert!(single.iter().all(|&(p, w)| w != me || changed.contains(&p)));
    diff.sort_unstable();
    Some((
        diff,
        Decided {
            single,
            several,
            changed_own,
            changed_fetched: Tickpt::new(0),
        },
    ))
}

/// At the begin of an active region: do its merge points use the demand-driven merge? Never
/// for a team smaller than the world or a region nested in a logged serial one (the
/// outsiders' broadcast and the serial log need every byte on rank 0; a logged region gets
/// them on rank 0 through `keeps_every_page`); otherwise as `CAPE_MERGE` says (`auto`:
/// measured per region, `crate::lazy::Auto`). The same answer on every rank.
pub(super) fn choose(rt: &mut Runtime, r: &ActiveRegion, site: usize) -> bool {
    let Some(lazy) = rt.lazy.as_mut() else {
        return false;
    };
    if (r.team_size as usize) < rt.size || r.collect {
        return false;
    }
    let merged = rt.totals.t_merge + rt.totals.t_inject;
    match rt.comm.as_ref() {
        Some(comm) => lazy.choose(site, merged, comm, &mut rt.tracker),
        None => false,
    }
}

/// Does this rank hold every page of a logged region? Rank 0 writes the log (the payload and
/// the fingerprint need every changed byte), so it fetches the pages the others publish at
/// once instead of invalidating them.
fn keeps_every_page(rt: &Runtime, r: &ActiveRegion) -> bool {
    rt.rank == 0 && r.logged.is_some()
}

/// After the eager part (inject, records): the new homes, and the pages another rank
/// published are invalidated here, or fetched at once: all of them where
/// `keeps_every_page`, those this rank read after their last publication otherwise.
pub(super) fn settle(
    rt: &mut Runtime,
    r: &ActiveRegion,
    decided: &mut Decided,
) -> Result<(), String> {
    let keep = keeps_every_page(rt, r);
    let Some(lazy) = rt.lazy.as_mut() else {
        return Ok(());
    };
    let prefetch = lazy.settle(&mut rt.tracker, &decided.single, &decided.several, keep)?;
    if keep {
        let me = rt.rank as u32;
        let others: Vec<(usize, u32)> = decided
            .single
            .iter()
            .filter(|&&(_, writer)| writer != me)
            .copied()
            .collect();
        // this rank's copy is the joined state before the region: what changed is logged
        fetch_published(rt, &others, |rt, page, writer, bytes| {
            diff_into(
                bytes,
                rt.tracker.memory(page),
                page as u64,
                published_stamp(r, writer),
                &mut decided.changed_fetched,
            )
        })
    } else {
        rt.current.lazy_prefetched += prefetch.len() as u64;
        fetch_published(rt, &prefetch, |_, _, _, _| {})
    }
}

/// Fetches the newest version of `pages` (page, home) from their homes and installs it in
/// memory and twin, `before_install` seeing each page's bytes first. On this thread: a merge
/// point, where no fault is served (the rank's only thread runs the runtime), so the window is
/// this thread's (`sys/mpi_pages.rs`).
fn fetch_published(
    rt: &mut Runtime,
    pages: &[(usize, u32)],
    mut before_install: impl FnMut(&Runtime, usize, u32, &[u8]),
) -> Result<(), String> {
    if pages.is_empty() {
        return Ok(());
    }
    let started = std::time::Instant::now();
    rt.tracker
        .expect_injections(pages.iter().map(|&(page, _)| (page, PAGE_SIZE)));
    let batch = crate::sys::invalid::BATCH.min(pages.len());
    let mut bytes = vec![0u8; batch * PAGE_SIZE];
    let mut addresses = Vec::with_capacity(batch);
    for chunk in pages.chunks(batch) {
        addresses.clear();
        addresses.extend(chunk.iter().map(|&(page, _)| page));
        let bytes = &mut bytes[..chunk.len() * PAGE_SIZE];
        rt.lazy
            .as_mut()
            .ok_or("internal error: a fetch without the demand-driven merge")?
            .fetch_many(&addresses, bytes)?;
        for (&(page, writer), bytes) in chunk.iter().zip(bytes.chunks_exact(PAGE_SIZE)) {
            before_install(rt, page, writer, bytes);
            rt.tracker.inject(page, bytes);
        }
    }
    rt.tracker.settle_injected();
    rt.current.lazy_fetched += pages.len() as u64;
    rt.current.t_fetch += started.elapsed();
    Ok(())
}

/// Rank 0 of a logged region, after the epoch's merged runs were accumulated: the bytes that
/// changed in the pages published by notice (by any rank) go into the region's payload,
/// stamped in this epoch, so the log holds what the eager merge would have logged.
pub(super) fn log_published(r: &mut ActiveRegion, decided: &mut Decided) {
    let own = std::mem::take(&mut decided.changed_own);
    let fetched = std::mem::take(&mut decided.changed_fetched);
    if own.is_empty() && fetched.is_empty() {
        return;
    }
    let pages = crate::merge::merge(&own, &fetched, None);
    r.accumulated = Some(match r.accumulated.take() {
        Some(acc) => crate::merge::merge(&acc, &pages, None),
        None => pages,
    });
}

/// `CAPE_WRITE_SCOPE=check` for the pages this rank published: inside the write scope.
pub(super) fn published_outside_scope(rt: &Runtime, decided: &Decided) -> Option<usize> {
    let me = rt.rank as u32;
    decided
        .single
        .iter()
        .find(|&&(page, writer)| writer == me && !crate::runs::holds(&rt.write_scope, page))
        .map(|&(page, _)| page)
}
