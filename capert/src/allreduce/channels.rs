//! In-process transport over threads and channels, for tests of code built on `allreduce`:
//! one channel per ordered pair of ranks; streamed messages arrive in small pieces.

use super::{Progress, Transport};
use std::sync::mpsc::{channel, Receiver, Sender};

/// Piece size of the streamed messages: small and odd, so that even the small messages of
/// the tests arrive in several pieces, cut anywhere.
pub const PIECE: usize = 61;

pub struct ChannelTransport {
    rank: usize,
    /// `to[p]` sends to rank p; `from[p]` receives from rank p (one channel per ordered pair).
    to: Vec<Sender<Vec<u8>>>,
    from: Vec<Receiver<Vec<u8>>>,
    /// A streamed message goes as its length (8 bytes) then pieces of this many bytes.
    piece: usize,
}

impl ChannelTransport {
    pub fn with_piece(mut self, piece: usize) -> Self {
        self.piece = piece.max(1);
        self
    }
}

/// One transport per rank, fully connected.
pub fn mesh(size: usize) -> Vec<ChannelTransport> {
    let mut senders: Vec<Vec<Option<Sender<Vec<u8>>>>> = (0..size)
        .map(|_| (0..size).map(|_| None).collect())
        .collect();
    let mut receivers: Vec<Vec<Option<Receiver<Vec<u8>>>>> = (0..size)
        .map(|_| (0..size).map(|_| None).collect())
        .collect();
    for src in 0..size {
        for dst in 0..size {
            let (tx, rx) = channel();
            senders[src][dst] = Some(tx);
            receivers[dst][src] = Some(rx);
        }
    }
    senders
        .into_iter()
        .zip(receivers)
        .enumerate()
        .map(|(rank, (to, from))| ChannelTransport {
            rank,
            to: to.into_iter().flatten().collect(),
            from: from.into_iter().flatten().collect(),
            piece: PIECE,
        })
        .collect()
}

impl Transport for ChannelTransport {
    fn rank(&self) -> usize {
        self.rank
    }
    fn size(&self) -> usize {
        self.to.len()
    }
    fn exchange(&mut self, peer: usize, data: &[u8]) -> Result<Vec<u8>, String> {
        // Channels are unbounded, so send-then-receive cannot deadlock.
        self.send(peer, data)?;
        self.recv(peer)
    }
    fn send(&mut self, peer: usize, data: &[u8]) -> Result<(), String> {
        let tx = self.to.get(peer).ok_or(format!("no rank {peer}"))?;
        tx.send(data.to_vec()).map_err(|e| e.to_string())
    }
    fn recv(&mut self, peer: usize) -> Result<Vec<u8>, String> {
        let rx = self.from.get(peer).ok_or(format!("no rank {peer}"))?;
        rx.recv().map_err(|e| e.to_string())
    }

    fn exchange_stream(
        &mut self,
        peer: usize,
        data: &[u8],
        into: &mut Vec<u8>,
        progress: &mut Progress<'_>,
    ) -> Result<(), String> {
        // Channels are unbounded, so send-then-receive cannot deadlock.
        self.send_stream(peer, data)?;
        self.recv_stream(peer, into, progress)
    }

    fn send_stream(&mut self, peer: usize, data: &[u8]) -> Result<(), String> {
        self.send(peer, &(data.len() as u64).to_le_bytes())?;
        for piece in data.chunks(self.piece) {
            self.send(peer, piece)?;
        }
        Ok(())
    }

    fn recv_stream(
        &mut self,
        peer: usize,
        into: &mut Vec<u8>,
        progress: &mut Progress<'_>,
    ) -> Result<(), String> {
        let header = self.recv(peer)?;
        let len = header
            .try_into()
            .map(u64::from_le_bytes)
            .map_err(|_| "a stream without its length".to_string())? as usize;
        into.clear();
        into.reserve(len);
        let mut result = if len == 0 { progress(into) } else { Ok(()) };
        while into.len() < len {
            let piece = self.recv(peer)?;
            into.extend_from_slice(&piece);
            if result.is_ok() {
                result = progress(into);
            }
        }
        if into.len() != len {
            result = Err(format!("a stream of {len} bytes brought {}", into.len()));
        }
        if result.is_err() {
            into.clear();
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A message whose bytes tell where they are, different per sender.
    fn message(len: usize, from: usize) -> Vec<u8> {
        (0..len)
            .map(|i| (i * 7 + from * 13 + i / 251) as u8)
            .collect()
    }

    /// Receives one stream from `peer` (exchanging `data` when given) and checks the prefixes
    /// `progress` saw: growing, each one a prefix of `want`, the last one all of it. Returns
    /// how many calls there were.
    fn stream_and_check(
        t: &mut dyn Transport,
        peer: usize,
        data: Option<&[u8]>,
        want: &[u8],
        into: &mut Vec<u8>,
    ) -> usize {
        let mut seen: Vec<usize> = Vec::new();
        let mut progress = |prefix: &[u8]| {
            assert!(
                seen.last().is_none_or(|&n| n < prefix.len()),
                "the prefix did not grow"
            );
            assert_eq!(prefix, &want[..prefix.len()]);
            seen.push(prefix.len());
            Ok(())
        };
        match data {
            Some(d) => t.exchange_stream(peer, d, into, &mut progress),
            None => t.recv_stream(peer, into, &mut progress),
        }
        .unwrap();
        assert_eq!(
            seen.last(),
            Some(&want.len()),
            "the last call has the whole message"
        );
        assert_eq!(into.as_slice(), want);
        seen.len()
    }

    /// Both ranks of a pair stream `lens[i]` bytes to each other at once, for every i, through
    /// the same buffer; returns rank 0's counts of progress calls.
    fn exchange_pair(lens: &[usize], piece: usize) -> Vec<usize> {
        let lens = lens.to_vec();
        let handles: Vec<_> = mesh(2)
            .into_iter()
            .enumerate()
            .map(|(rank, t)| {
                let lens = lens.clone();
                std::thread::spawn(move || {
                    let mut t = t.with_piece(piece);
                    let mut into = Vec::new();
                    let peer = 1 - rank;
                    lens.iter()
                        .map(|&len| {
                            let mine = message(len, rank);
                            let theirs = message(len, peer);
                            stream_and_check(&mut t, peer, Some(&mine), &theirs, &mut into)
                        })
                        .collect::<Vec<usize>>()
                })
            })
            .collect();
        let calls: Vec<Vec<usize>> = handles
            .into_iter()
            .map(|h| h.join().expect("rank thread panicked"))
            .collect();
        calls[0].clone()
    }

    #[test]
    fn streamed_exchange_delivers_growing_prefixes() {
        let piece = PIECE;
        let lens = [0, 1, piece - 1, piece, piece + 1, 10 * piece + 3, 0];
        let calls = exchange_pair(&lens, piece);
        assert_eq!(calls, vec![1, 1, 1, 1, 2, 11, 1]);
    }

    #[test]
    fn big_streamed_message_comes_in_many_pieces() {
        let calls = exchange_pair(&[3 << 20], 4096);
        assert_eq!(calls, vec![768]);
    }

    #[test]
    fn one_way_streams_and_buffer_reuse() {
        let mut ranks = mesh(2).into_iter();
        let (mut a, mut b) = (ranks.next().unwrap(), ranks.next().unwrap());
        let big = message(5000, 0);
        a.send_stream(1, &big).unwrap();
        a.send_stream(1, &[]).unwrap();
        a.send_stream(1, &big[..10]).unwrap();
        let mut into = Vec::new();
        assert_eq!(stream_and_check(&mut b, 0, None, &big, &mut into), 82);
        let (capacity, at) = (into.capacity(), into.as_ptr());
        assert_eq!(stream_and_check(&mut b, 0, None, &[], &mut into), 1);
        assert_eq!(stream_and_check(&mut b, 0, None, &big[..10], &mut into), 1);
        assert_eq!(
            (into.capacity(), into.as_ptr()),
            (capacity, at),
            "the buffer was reallocated"
        );
    }

    #[test]
    fn a_failing_consumer_stops_but_the_stream_stays_in_step() {
        let mut ranks = mesh(2).into_iter();
        let (mut a, mut b) = (ranks.next().unwrap(), ranks.next().unwrap());
        let first = message(1000, 0);
        let second = message(300, 0);
        a.send_stream(1, &first).unwrap();
        a.send_stream(1, &second).unwrap();
        let mut into = Vec::new();
        let mut calls = 0;
        let err = b
            .recv_stream(0, &mut into, &mut |_| {
                calls += 1;
                Err("bad entry".into())
            })
            .unwrap_err();
        assert_eq!((err.as_str(), calls), ("bad entry", 1));
        assert!(into.is_empty());
        stream_and_check(&mut b, 0, None, &second, &mut into);
    }

    #[test]
    fn the_default_stream_is_one_whole_message() {
        struct Whole(Vec<u8>);
        impl Transport for Whole {
            fn rank(&self) -> usize {
                0
            }
            fn size(&self) -> usize {
                2
            }
            fn exchange(&mut self, _: usize, _: &[u8]) -> Result<Vec<u8>, String> {
                Ok(self.0.clone())
            }
            fn send(&mut self, _: usize, _: &[u8]) -> Result<(), String> {
                Ok(())
            }
            fn recv(&mut self, _: usize) -> Result<Vec<u8>, String> {
                Ok(self.0.clone())
            }
        }
        let want = message(500, 1);
        let mut t = Whole(want.clone());
        let mut into = vec![9; 3];
        assert_eq!(stream_and_check(&mut t, 1, Some(b"x"), &want, &mut into), 1);
        assert_eq!(stream_and_check(&mut t, 1, None, &want, &mut into), 1);
        let err = t
            .recv_stream(1, &mut into, &mut |_| Err("no".into()))
            .unwrap_err();
        assert_eq!(err, "no");
        assert!(into.is_empty());
    }
}
