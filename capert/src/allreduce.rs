//! Recursive-doubling allreduce of change sets over any point-to-point [`Transport`].
//!
//! Every rank ends with the merge of all ranks' change sets. With `p2` the largest power of two
//! `<= size`: the extra ranks (`rank >= p2`) first fold their TICKPT into `rank - p2`; the first
//! `p2` ranks then run `log2(p2)` exchange rounds (partner `rank ^ mask`), each merging what it
//! holds with its partner's; finally the folded ranks receive the result back. No master rank:
//! the merge work is spread over all ranks, and the number of rounds is `log2(size)` rounded up
//! plus one for non-powers of two.
//!
//! Messages are change sets (`cape_format::changeset`): what a rank holds is sent as it is,
//! and what it receives is merged without decoding into another form, while it streams in
//! (`Transport::exchange_stream`: the merge is fed the growing prefix).
//!
//! Both partners of an exchange compute the same merge, with the lower rank's side as the first
//! operand, so all ranks end byte-identical.
//!
//! # Who reports a race
//! Each merge is computed by several ranks; only one of them records races, so every racy merge
//! is reported exactly once across the job: the fold-in merge by its receiving rank
//! (`rank < size - p2`), and the exchange round with mask `m` by the ranks with
//! `rank % (2 * m) == 0` (the lowest rank of the group of `2 * m` ranks that all compute that
//! merge). So the races are spread over the ranks; gather them (or their count) to report them
//! in one place. Each address where two ranks wrote different values is reported at least once
//! (see `merge` for why a racy address cannot slip through a merge tree).

use crate::tickpt::TickptError;
use cape_format::changeset::{Buf, ChangeSet, Contributor, Merge, MergeError, Race};
use std::fmt;

/// The consumer of a streamed message: called with the message's growing contiguous prefix.
pub type Progress<'a> = dyn FnMut(&[u8]) -> Result<(), String> + 'a;

pub trait Transport {
    fn rank(&self) -> usize;
    fn size(&self) -> usize;
    /// Send `data` to `peer` and receive that peer's message (deadlock-free pairwise exchange).
    fn exchange(&mut self, peer: usize, data: &[u8]) -> Result<Vec<u8>, String>;
    fn send(&mut self, peer: usize, data: &[u8]) -> Result<(), String>;
    fn recv(&mut self, peer: usize) -> Result<Vec<u8>, String>;

    /// Sends `data` to `peer` while receiving that peer's message into `into` (cleared, grown as
    /// needed, never shrunk, so its capacity serves region after region). `progress(prefix)`
    /// is called with the growing contiguous prefix of the received message each time more of
    /// it has arrived, the last call with the whole message (an empty message: one call with an
    /// empty slice), so the caller consumes the start while the rest is in flight. After an
    /// error of `progress` it is not called again; the message is still received whole, so the
    /// ranks stay in step, and the error is returned (`into` is then left empty).
    /// Deadlock-free when both ranks call it at once. This default delivers it in one piece.
    fn exchange_stream(
        &mut self,
        peer: usize,
        data: &[u8],
        into: &mut Vec<u8>,
        progress: &mut Progress<'_>,
    ) -> Result<(), String> {
        let message = self.exchange(peer, data)?;
        deliver_whole(&message, into, progress)
    }

    /// The sending half of a stream: `peer` calls `recv_stream`.
    fn send_stream(&mut self, peer: usize, data: &[u8]) -> Result<(), String> {
        self.send(peer, data)
    }

    /// The receiving half of a stream, as in `exchange_stream`: `peer` calls `send_stream`.
    fn recv_stream(
        &mut self,
        peer: usize,
        into: &mut Vec<u8>,
        progress: &mut Progress<'_>,
    ) -> Result<(), String> {
        let message = self.recv(peer)?;
        deliver_whole(&message, into, progress)
    }
}

/// A whole message into `into` and one `progress` call (the default streaming).
fn deliver_whole(
    message: &[u8],
    into: &mut Vec<u8>,
    progress: &mut Progress<'_>,
) -> Result<(), String> {
    into.clear();
    into.extend_from_slice(message);
    let result = progress(into);
    if result.is_err() {
        into.clear();
    }
    result
}

/// One communication step of the allreduce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    SendTo(usize),
    RecvFrom(usize),
    Exchange(usize),
}

/// Largest power of two `<= size` (`size >= 1`).
fn pow2_floor(size: usize) -> usize {
    1 << (usize::BITS - 1 - size.leading_zeros())
}

/// The communication steps of `rank` among `size` ranks: non-power-of-two P folds the extra
/// ranks (rank >= p2) into rank - p2 first (they SendTo, partner RecvFrom), then log2(p2)
/// Exchange rounds among the first p2 ranks (partner = rank ^ mask), then the partners SendTo
/// back the final result. Empty when `rank >= size`.
pub fn steps(size: usize, rank: usize) -> impl Iterator<Item = Step> {
    let p2 = if rank < size { pow2_floor(size) } else { 0 };
    let outsider = rank < size && rank >= p2;
    let extra = rank < p2 && rank + p2 < size;
    let (first, last) = if outsider {
        (
            Some(Step::SendTo(rank - p2)),
            Some(Step::RecvFrom(rank - p2)),
        )
    } else if extra {
        (
            Some(Step::RecvFrom(rank + p2)),
            Some(Step::SendTo(rank + p2)),
        )
    } else {
        (None, None)
    };
    let rounds = if rank < p2 { p2.trailing_zeros() } else { 0 };
    first
        .into_iter()
        .chain((0..rounds).map(move |k| Step::Exchange(rank ^ (1 << k))))
        .chain(last)
}

#[derive(Debug)]
pub enum AllreduceError {
    Transport(String),
    Decode(TickptError),
    /// A peer sent the change set of another region: the ranks no longer run the same path.
    RegionMismatch {
        local: u64,
        remote: u64,
        peer: usize,
    },
    /// A peer's change set contradicts ours (two stamps or two record blocks of one rank).
    Inconsistent(MergeError),
}

impl fmt::Display for AllreduceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AllreduceError::Transport(why) => write!(f, "checkpoint exchange failed: {why}"),
            AllreduceError::Decode(e) => write!(f, "bad checkpoint from a peer: {e}"),
            AllreduceError::RegionMismatch {
                local,
                remote,
                peer,
            } => write!(
                f,
                "ranks diverged: this rank is in region {local}, rank {peer} sent region {remote}"
            ),
            AllreduceError::Inconsistent(e) => write!(f, "bad checkpoint from a peer: {e}"),
        }
    }
}

impl std::error::Error for AllreduceError {}

impl From<TickptError> for AllreduceError {
    fn from(e: TickptError) -> Self {
        AllreduceError::Decode(e)
    }
}

fn merge_error(e: MergeError, peer: usize) -> AllreduceError {
    match e {
        MergeError::Format(e) => AllreduceError::Decode(e),
        MergeError::Region { local, remote } => AllreduceError::RegionMismatch {
            local,
            remote,
            peer,
        },
        other => AllreduceError::Inconsistent(other),
    }
}

/// The buffers of the exchange, kept from region to region so that a merge point allocates
/// nothing once they have grown to the working size.
#[derive(Default)]
pub struct Exchange {
    /// This rank's change set, then what it has merged so far; the result at the end.
    acc: Buf,
    /// Where the next merge writes (then swapped with `acc`).
    next: Buf,
    /// The message being received.
    received: Vec<u8>,
    scratch: Vec<Contributor>,
}

impl Exchange {
    /// The buffer to write this rank's change set into (emptied).
    pub fn local(&mut self) -> &mut Buf {
        self.acc.clear();
        &mut self.acc
    }

    /// The merged change set after [`allreduce`] (this rank's own before).
    pub fn result(&self) -> Result<ChangeSet<'_>, TickptError> {
        // written by this rank, or checked when it arrived
        ChangeSet::trusted(self.acc.as_slice())
    }

    /// Merges the peer's change set into what this rank holds while it arrives (`send`: also
    /// sends ours, the exchange of a round; else the fold of a non-power-of-two rank count).
    /// `acc_second`: this rank's side is the second operand (the higher rank's), so both
    /// partners compute the same merge.
    fn merge_streamed<T: Transport>(
        &mut self,
        t: &mut T,
        peer: usize,
        send: bool,
        acc_second: bool,
        races: Option<&mut Vec<Race>>,
    ) -> Result<(), AllreduceError> {
        let acc = ChangeSet::trusted(self.acc.as_slice())?;
        self.next.clear();
        let mut merge = Merge::new(acc, acc_second, &mut self.next, races, &mut self.scratch);
        let mut failure = None;
        let mut progress = |prefix: &[u8]| {
            merge.feed(prefix).map_err(|e| {
                let why = e.to_string();
                failure = Some(e);
                why
            })
        };
        let moved = if send {
            t.exchange_stream(peer, self.acc.as_slice(), &mut self.received, &mut progress)
        } else {
            t.recv_stream(peer, &mut self.received, &mut progress)
        };
        if let Some(e) = failure {
            return Err(merge_error(e, peer));
        }
        moved.map_err(AllreduceError::Transport)?;
        merge.finish().map_err(|e| merge_error(e, peer))?;
        std::mem::swap(&mut self.acc, &mut self.next);
        Ok(())
    }
}

/// Every rank ends with the merge of all ranks' change sets in `ex` (identical on every
/// rank); each starts with its own there ([`Exchange::local`]).
/// Races are recorded into `races` as described in the module documentation.
pub fn allreduce<T: Transport>(
    t: &mut T,
    ex: &mut Exchange,
    mut races: Option<&mut Vec<Race>>,
) -> Result<(), AllreduceError> {
    let (rank, size) = (t.rank(), t.size());
    if rank >= size {
        return Err(AllreduceError::Transport(format!(
            "rank {rank} out of range for {size} ranks"
        )));
    }
    let p2 = pow2_floor(size);
    for step in steps(size, rank) {
        match step {
            Step::SendTo(peer) => {
                t.send_stream(peer, ex.acc.as_slice())
                    .map_err(AllreduceError::Transport)?;
            }
            Step::RecvFrom(peer) if rank >= p2 => {
                // the final result, computed by `peer`
                let local = ex.result()?.region;
                t.recv_stream(peer, &mut ex.received, &mut |_| Ok(()))
                    .map_err(AllreduceError::Transport)?;
                let remote = ChangeSet::parse(&ex.received)?.region;
                if remote != local {
                    return Err(AllreduceError::RegionMismatch {
                        local,
                        remote,
                        peer,
                    });
                }
                ex.acc.clear();
                ex.acc.put(&ex.received);
            }
            Step::RecvFrom(peer) => {
                ex.merge_streamed(t, peer, false, false, races.as_deref_mut())?;
            }
            Step::Exchange(peer) => {
                let mask = rank ^ peer;
                let recorder = rank % (2 * mask) == 0;
                let races = if recorder { races.as_deref_mut() } else { None };
                ex.merge_streamed(t, peer, true, rank > peer, races)?;
            }
        }
    }
    Ok(())
}

/// In-process transport over threads and channels, for tests of code built on `allreduce`.
#[cfg(test)]
pub(crate) mod channels;

#[cfg(test)]
mod tests {
    use super::channels::mesh;
    use super::*;

    fn list(size: usize, rank: usize) -> Vec<Step> {
        steps(size, rank).collect()
    }
    use crate::tickpt::testutil::Rng;
    use crate::tickpt::Stamp;
    use cape_format::changeset::testutil::{
        byte_map, check_races, from_byte_map, oracle, random_changes, writes_of, ByteMap,
    };

    #[test]
    fn steps_are_consistent_for_1_to_9_ranks() {
        for size in 1..=64 {
            let all: Vec<Vec<Step>> = (0..size).map(|r| list(size, r)).collect();
            let p2 = pow2_floor(size);
            let rounds = p2.trailing_zeros() as usize;
            assert_eq!(1 << rounds, p2);
            assert!(p2 <= size && size < 2 * p2);
            for (rank, rank_steps) in all.iter().enumerate() {
                let exchanges: Vec<usize> = rank_steps
                    .iter()
                    .filter_map(|s| match s {
                        Step::Exchange(p) => Some(*p),
                        _ => None,
                    })
                    .collect();
                if rank < p2 {
                    assert_eq!(exchanges.len(), rounds, "size {size} rank {rank}");
                    assert!(rank_steps.len() <= rounds + 2);
                } else {
                    assert_eq!(
                        rank_steps,
                        &vec![Step::SendTo(rank - p2), Step::RecvFrom(rank - p2)]
                    );
                }
                // Matching: the k-th step that involves a given peer pairs with the peer's k-th
                // step that involves this rank.
                for (peer, peer_steps) in all.iter().enumerate() {
                    let mine: Vec<Step> = involving(rank_steps, peer);
                    let theirs: Vec<Step> = involving(peer_steps, rank);
                    assert_eq!(mine.len(), theirs.len(), "size {size} {rank}<->{peer}");
                    for (m, t) in mine.iter().zip(&theirs) {
                        let ok = matches!(
                            (m, t),
                            (Step::SendTo(_), Step::RecvFrom(_))
                                | (Step::RecvFrom(_), Step::SendTo(_))
                                | (Step::Exchange(_), Step::Exchange(_))
                        );
                        assert!(ok, "size {size}: {rank} {m:?} vs {peer} {t:?}");
                    }
                }
            }
            assert_eq!(list(size, size), vec![]);
        }
        assert_eq!(list(1, 0), vec![]);
        assert_eq!(
            list(5, 0),
            vec![
                Step::RecvFrom(4),
                Step::Exchange(1),
                Step::Exchange(2),
                Step::SendTo(4)
            ]
        );
        assert_eq!(list(5, 3), vec![Step::Exchange(2), Step::Exchange(1)]);
    }

    fn involving(steps: &[Step], peer: usize) -> Vec<Step> {
        steps
            .iter()
            .copied()
            .filter(|s| matches!(s, Step::SendTo(p) | Step::RecvFrom(p) | Step::Exchange(p) if *p == peer))
            .collect()
    }

    /// The steps are also deadlock-free when every send blocks until received (as a large MPI
    /// message does): simulate all ranks in lock-step.
    #[test]
    fn steps_complete_with_rendezvous_sends() {
        for size in 1..=33 {
            let all: Vec<Vec<Step>> = (0..size).map(|r| list(size, r)).collect();
            let mut pc = vec![0usize; size];
            loop {
                let mut progressed = false;
                for r in 0..size {
                    let Some(&step) = all[r].get(pc[r]) else {
                        continue;
                    };
                    let peer = match step {
                        Step::SendTo(p) | Step::RecvFrom(p) | Step::Exchange(p) => p,
                    };
                    let Some(&peer_step) = all[peer].get(pc[peer]) else {
                        continue;
                    };
                    let pairs = match (step, peer_step) {
                        (Step::SendTo(a), Step::RecvFrom(b))
                        | (Step::RecvFrom(a), Step::SendTo(b))
                        | (Step::Exchange(a), Step::Exchange(b)) => a == peer && b == r,
                        _ => false,
                    };
                    if pairs {
                        pc[r] += 1;
                        pc[peer] += 1;
                        progressed = true;
                    }
                }
                if !progressed {
                    break;
                }
            }
            for r in 0..size {
                assert_eq!(pc[r], all[r].len(), "size {size}: rank {r} stuck");
            }
        }
    }

    fn run_allreduce(locals: Vec<Vec<u8>>, check: bool) -> Vec<(Vec<u8>, Vec<Race>)> {
        let transports = mesh(locals.len());
        let handles: Vec<_> = transports
            .into_iter()
            .zip(locals)
            .map(|(mut t, local)| {
                std::thread::spawn(move || {
                    let mut races = Vec::new();
                    let mut ex = Exchange::default();
                    ex.local().put(&local);
                    let result = allreduce(&mut t, &mut ex, check.then_some(&mut races));
                    let merged = ex.acc.as_slice().to_vec();
                    (result.map(|()| merged).map_err(|e| e.to_string()), races)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                let (result, races) = h.join().expect("rank thread panicked");
                (result.expect("allreduce failed"), races)
            })
            .collect()
    }

    fn encode(region: u64, map: &ByteMap) -> Vec<u8> {
        let mut buf = Buf::new();
        from_byte_map(region, map, &mut buf);
        buf.as_slice().to_vec()
    }

    #[test]
    fn every_rank_ends_with_the_oracle_for_1_to_9_ranks() {
        let mut rng = Rng::new(30);
        for size in 1..=9u32 {
            for round in 0..25 {
                let maps: Vec<ByteMap> = (0..size)
                    .map(|r| {
                        let span = 50 + rng.below(9000);
                        let order = rng.below(4);
                        random_changes(&mut rng, Stamp { order, rank: r }, 0x10_0000, span)
                    })
                    .collect();
                let want = oracle(&maps);
                let locals: Vec<Vec<u8>> = maps.iter().map(|m| encode(77, m)).collect();
                let results = run_allreduce(locals, true);
                let mut all_races = Vec::new();
                let first = results[0].0.clone();
                for (rank, (got, races)) in results.into_iter().enumerate() {
                    assert_eq!(got, first, "size {size} round {round}: ranks differ");
                    let set = ChangeSet::parse(&got).unwrap();
                    assert!(
                        byte_map(&set) == want,
                        "size {size} round {round} rank {rank}"
                    );
                    all_races.extend(races);
                }
                check_races(writes_of(&maps), &all_races);
            }
        }
    }

    #[test]
    fn each_race_is_reported_once_across_ranks() {
        // Every rank writes its own value to byte 0: each pair that meets in a merge races.
        for size in 2..=9u32 {
            let locals: Vec<Vec<u8>> = (0..size)
                .map(|r| {
                    let mut map = ByteMap::new();
                    map.insert(0, (Stamp { order: 0, rank: r }, r as u8 + 1));
                    encode(1, &map)
                })
                .collect();
            let results = run_allreduce(locals, true);
            let total: usize = results.iter().map(|(_, races)| races.len()).sum();
            // A merge tree over `size` leaves has `size - 1` merges, each one racy here.
            assert_eq!(total, size as usize - 1, "size {size}");
            for (got, _) in &results {
                let map = byte_map(&ChangeSet::parse(got).unwrap());
                assert_eq!(map.len(), 1);
                assert_eq!(map[&0].1, size as u8);
            }
        }
    }

    #[test]
    fn region_mismatch_is_an_error() {
        let transports = mesh(2);
        let handles: Vec<_> = transports
            .into_iter()
            .enumerate()
            .map(|(r, mut t)| {
                std::thread::spawn(move || {
                    let mut ex = Exchange::default();
                    ex.local().put(&encode(r as u64, &ByteMap::new()));
                    allreduce(&mut t, &mut ex, None)
                })
            })
            .collect();
        for h in handles {
            let err = h.join().expect("rank thread panicked").unwrap_err();
            assert!(
                matches!(err, AllreduceError::RegionMismatch { .. }),
                "{err}"
            );
        }
    }

    #[test]
    fn transport_errors_surface() {
        struct Broken;
        impl Transport for Broken {
            fn rank(&self) -> usize {
                0
            }
            fn size(&self) -> usize {
                2
            }
            fn exchange(&mut self, _: usize, _: &[u8]) -> Result<Vec<u8>, String> {
                Err("peer vanished".into())
            }
            fn send(&mut self, _: usize, _: &[u8]) -> Result<(), String> {
                Err("peer vanished".into())
            }
            fn recv(&mut self, _: usize) -> Result<Vec<u8>, String> {
                Ok(b"garbage".to_vec())
            }
        }
        let mut ex = Exchange::default();
        ex.local().put(&encode(0, &ByteMap::new()));
        let err = allreduce(&mut Broken, &mut ex, None).unwrap_err();
        assert_eq!(err.to_string(), "checkpoint exchange failed: peer vanished");
    }
}
