//! Streamed point-to-point messages: a message goes as a head (its length and piece size,
//! then its first `HEAD` bytes: a small message is one MPI message) and then the rest in
//! pieces of at most `CAPE_MERGE_CHUNK` bytes, all sent at once with
//! `MPI_Isend` and received with `MPI_Irecv` directly into the caller's buffer at their
//! offsets, a few ahead of the consumer. The receiver sees the growing contiguous prefix as the
//! pieces arrive, so it can consume the start of a message while the rest is in flight. The
//! request arrays are kept across messages: no allocation once they have grown.
//!
//! Deadlock-free whichever way round the two ranks call it: every send is an `MPI_Isend`, and
//! each side waits only for receives whose matching sends the peer has posted or will post
//! without waiting on anything (its header before it waits for ours, its pieces right after).

use crate::allreduce::Progress;
use mpi::ffi;
use mpi::raw::AsRaw;
use mpi::topology::{Communicator, SimpleCommunicator};
use std::os::raw::{c_int, c_void};

/// Tags of the streamed messages. The whole-message transport uses tag 0 and receives only
/// tag 0, so none of these can match another kind of message between the same two ranks;
/// messages with one tag between two ranks arrive in the order they were sent, so the pieces of
/// consecutive streams never mix.
const TAG_HEADER: c_int = 0x4341;
const TAG_PIECE: c_int = 0x4342;

/// MPI counts are `int`.
const MAX_PIECE: usize = i32::MAX as usize;
/// Larger messages use larger pieces, so the request arrays stay small.
const MAX_PIECES: usize = 1 << 16;
/// Receives posted ahead of the consumer: enough to keep a network busy, few enough that the
/// consumer gets a large message piece by piece (see `receive_pieces`).
const RECEIVES_IN_FLIGHT: usize = 2;
/// Bytes of a message that travel with its header.
const HEAD: usize = 16 << 10;
/// The header: length and piece size.
const HEADER: usize = 16;

/// The buffers reused by every streamed message.
pub struct Streams {
    piece: usize,
    recvs: Vec<ffi::MPI_Request>,
    sends: Vec<ffi::MPI_Request>,
    /// Output of `MPI_Waitsome`.
    indices: Vec<c_int>,
    /// Which pieces of the incoming message have arrived.
    arrived: Vec<bool>,
    /// The heads sent and received: header + the first `HEAD` bytes.
    head_out: Vec<u8>,
    head_in: Vec<u8>,
}

impl Streams {
    pub fn new(piece: usize) -> Streams {
        Streams {
            piece: piece.clamp(1, MAX_PIECE),
            recvs: Vec::new(),
            sends: Vec::new(),
            indices: Vec::new(),
            arrived: Vec::new(),
            head_out: Vec::new(),
            head_in: vec![0; HEADER + HEAD],
        }
    }

    /// The piece size of the messages this rank sends (clamped to what an MPI count holds).
    pub fn set_piece(&mut self, bytes: usize) {
        self.piece = bytes.clamp(1, MAX_PIECE);
    }

    /// The piece size for a message of `len` bytes.
    fn piece_for(&self, len: usize) -> usize {
        self.piece.max(len.div_ceil(MAX_PIECES)).min(MAX_PIECE)
    }

    /// Sends `outgoing` to `peer` and receives `peer`'s message into `incoming`'s buffer
    /// (cleared, grown as needed, never shrunk), calling its consumer with the growing prefix
    /// (once with an empty slice for an empty message). Either direction may be absent. After
    /// an error of the consumer it is not called again; the message is still received whole
    /// (the next message between the ranks starts after it), then the error is returned and
    /// the buffer is left empty.
    pub fn stream(
        &mut self,
        comm: &SimpleCommunicator,
        peer: usize,
        outgoing: Option<&[u8]>,
        incoming: Option<(&mut Vec<u8>, &mut Progress<'_>)>,
    ) -> Result<(), String> {
        let peer = match c_int::try_from(peer) {
            Ok(p) if p < comm.size() && p != comm.rank() => p,
            _ => return Err(format!("no peer rank {peer} among {} ranks", comm.size())),
        };
        let my_piece = outgoing.map_or(1, |d| self.piece_for(d.len()));
        // The head buffers are not resized while the flight lasts: their requests stay valid.
        if let Some(data) = outgoing {
            let head = &data[..data.len().min(HEAD)];
            self.head_out.clear();
            self.head_out
                .extend_from_slice(&(data.len() as u64).to_le_bytes());
            self.head_out
                .extend_from_slice(&(my_piece as u64).to_le_bytes());
            self.head_out.extend_from_slice(head);
        }
        let head_out = (self.head_out.as_ptr(), self.head_out.len());
        let head_in = self.head_in.as_mut_ptr();
        let mut flight = InFlight::new(self, comm.as_raw(), peer);

        if incoming.is_some() {
            // SAFETY: `head_in` is HEADER + HEAD writable bytes owned by the streams, which
            // the flight borrows and does not resize; its drop waits for every request.
            unsafe { flight.post(Buffer::Recv(head_in.cast()), HEADER + HEAD, TAG_HEADER)? };
        }
        if outgoing.is_some() {
            // SAFETY: as above, for the `head_out` bytes written just before the flight.
            unsafe { flight.post(Buffer::Send(head_out.0.cast()), head_out.1, TAG_HEADER)? };
        }
        if incoming.is_some() {
            flight.wait_recv(0)?;
        }

        let mut receiving = None;
        if let Some((into, progress)) = incoming {
            let received = flight.head_in();
            let word = |at: usize| {
                u64::from_le_bytes(received[at..at + 8].try_into().unwrap_or([0xff; 8]))
            };
            let (len, piece) = (word(0), word(8));
            let (Ok(len), Ok(piece)) = (usize::try_from(len), usize::try_from(piece)) else {
                return Err(format!("rank {peer} announced a message of {len} bytes"));
            };
            if piece == 0 || piece > MAX_PIECE || len.div_ceil(piece) > MAX_PIECES {
                return Err(format!(
                    "rank {peer} announced {len} bytes in pieces of {piece}"
                ));
            }
            into.clear();
            into.try_reserve(len)
                .map_err(|e| format!("no memory for a message of {len} bytes: {e}"))?;
            into.extend_from_slice(&received[HEADER..HEADER + len.min(HEAD)]);
            receiving = Some((into, progress, len, piece));
        }
        if let Some(data) = outgoing.filter(|d| d.len() > HEAD) {
            for start in (HEAD..data.len()).step_by(my_piece) {
                let count = my_piece.min(data.len() - start);
                // SAFETY: [start, start + count) lies within `data`, which the caller lends for
                // the whole call; `flight` waits for the send before the call returns.
                unsafe {
                    flight.post(
                        Buffer::Send(data.as_ptr().add(start).cast()),
                        count,
                        TAG_PIECE,
                    )?
                };
            }
        }
        let Some((into, progress, len, piece)) = receiving else {
            return flight.finish();
        };
        let consumed = flight.receive_pieces(into.as_mut_ptr(), len, piece, progress);
        let finished = flight.finish();
        if consumed.is_err() || finished.is_err() {
            into.clear();
        }
        finished?;
        consumed?;
        // SAFETY: every receive completed, so MPI wrote all `len` bytes of the reserved buffer
        // past the head, which was copied in.
        unsafe { into.set_len(len) };
        Ok(())
    }
}

/// Where a posted request reads or writes.
enum Buffer {
    Recv(*mut c_void),
    Send(*const c_void),
}

/// The requests of one streamed exchange; dropping it (also on an error or a panic of the
/// consumer) waits for all of them, so MPI never touches a buffer after the call returns.
struct InFlight<'s> {
    streams: &'s mut Streams,
    comm: ffi::MPI_Comm,
    peer: c_int,
}

impl<'s> InFlight<'s> {
    fn new(streams: &'s mut Streams, comm: ffi::MPI_Comm, peer: c_int) -> InFlight<'s> {
        streams.recvs.clear();
        streams.sends.clear();
        InFlight {
            streams,
            comm,
            peer,
        }
    }

    /// Posts one non-blocking receive or send of `count` bytes with `tag`.
    ///
    /// # Safety
    /// The buffer must be `count` bytes that stay valid until `self` drops: writable and
    /// untouched for a receive, unchanged for a send.
    unsafe fn post(&mut self, buf: Buffer, count: usize, tag: c_int) -> Result<(), String> {
        let mut request = null_request();
        let (count, peer, comm) = (count as c_int, self.peer, self.comm);
        let uint8 = ffi::RSMPI_UINT8_T;
        // SAFETY: the caller guarantees the buffer; `count` fits an int (pieces are at most
        // MAX_PIECE); `request` is a valid out-pointer and is kept before anything can fail.
        let (rc, requests, call) = unsafe {
            match buf {
                Buffer::Recv(b) => {
                    let rc = ffi::MPI_Irecv(b, count, uint8, peer, tag, comm, &mut request);
                    (rc, &mut self.streams.recvs, "MPI_Irecv")
                }
                Buffer::Send(b) => {
                    let rc = ffi::MPI_Isend(b, count, uint8, peer, tag, comm, &mut request);
                    (rc, &mut self.streams.sends, "MPI_Isend")
                }
            }
        };
        requests.push(request);
        check(rc, call)
    }

    /// The head received (after `wait_recv(0)`).
    fn head_in(&self) -> &[u8] {
        &self.streams.head_in
    }

    fn wait_recv(&mut self, index: usize) -> Result<(), String> {
        let request = &mut self.streams.recvs[index];
        // SAFETY: `request` is a request this flight posted (or already null, which MPI_Wait
        // accepts); MPI_STATUS_IGNORE is a valid status argument.
        let rc = unsafe { ffi::MPI_Wait(request, ffi::RSMPI_STATUS_IGNORE) };
        check(rc, "MPI_Wait")
    }

    /// Receives the `len` bytes of the incoming message (its first `HEAD` bytes, the head, are
    /// already at `base`), the rest in pieces of `piece` bytes, at `base`
    /// (reserved by the caller and not touched until this flight is over), and calls
    /// `progress` each time its contiguous prefix grows. At most `RECEIVES_IN_FLIGHT` pieces
    /// are posted at a time: Open MPI's shared-memory transport completes every posted
    /// receive whose data is there in one progress call, so posting them all would hand the
    /// consumer a large message in one go. After the consumer's first error it is not called
    /// again, but every piece is still received (the sender waits for them all), then the
    /// error is returned.
    fn receive_pieces(
        &mut self,
        base: *mut u8,
        len: usize,
        piece: usize,
        progress: &mut Progress<'_>,
    ) -> Result<(), String> {
        // SAFETY: the head's bytes were copied to `base` before the call.
        let head = unsafe { std::slice::from_raw_parts(base, len.min(HEAD)) };
        let mut consumed = progress(head);
        if len <= HEAD {
            return consumed;
        }
        // SAFETY: `base + HEAD` lies within the `len` bytes reserved at `base`.
        let (base, rest) = (unsafe { base.add(HEAD) }, len - HEAD);
        let pieces = rest.div_ceil(piece);
        self.streams.recvs.clear();
        self.streams.arrived.clear();
        self.streams.arrived.resize(pieces, false);
        self.streams.indices.clear();
        self.streams.indices.resize(RECEIVES_IN_FLIGHT, 0);
        let mut next = 0;
        while next < pieces {
            let posted = self.streams.recvs.len();
            for k in posted..pieces.min(next + RECEIVES_IN_FLIGHT) {
                let start = k * piece;
                // SAFETY: [start, start + count) lies within the `len` bytes reserved at
                // `base`, the pieces are disjoint, and the caller touches none of them until
                // this flight has waited for every request.
                unsafe {
                    self.post(
                        Buffer::Recv(base.add(start).cast()),
                        piece.min(rest - start),
                        TAG_PIECE,
                    )?
                };
            }
            let Streams {
                recvs,
                indices,
                arrived,
                ..
            } = &mut *self.streams;
            let pending = &mut recvs[next..];
            let mut completed: c_int = 0;
            // SAFETY: `pending` holds at most RECEIVES_IN_FLIGHT requests (completed ones are
            // null, which MPI_Waitsome skips) and `indices` has room for that many.
            let rc = unsafe {
                ffi::MPI_Waitsome(
                    pending.len() as c_int,
                    pending.as_mut_ptr(),
                    &mut completed,
                    indices.as_mut_ptr(),
                    ffi::RSMPI_STATUSES_IGNORE,
                )
            };
            check(rc, "MPI_Waitsome")?;
            if completed < 0 {
                return Err("MPI_Waitsome found no pending receive".into());
            }
            for &i in &indices[..completed as usize] {
                arrived[next + i as usize] = true;
            }
            let before = next;
            while next < pieces && arrived[next] {
                next += 1;
            }
            if next > before && consumed.is_ok() {
                let prefix = HEAD + (next * piece).min(rest);
                // SAFETY: the head and pieces 0..next are in place (MPI wrote the pieces and no
                // request writes them any more): `prefix` bytes from the message's start.
                consumed = progress(unsafe { std::slice::from_raw_parts(base.sub(HEAD), prefix) });
            }
        }
        consumed
    }

    /// Waits for every request still pending.
    fn finish(mut self) -> Result<(), String> {
        self.wait_all()
    }

    fn wait_all(&mut self) -> Result<(), String> {
        let mut result = Ok(());
        for requests in [&mut self.streams.recvs, &mut self.streams.sends] {
            if requests.is_empty() {
                continue;
            }
            // SAFETY: `requests` holds requests this flight posted or null ones.
            let rc = unsafe {
                ffi::MPI_Waitall(
                    requests.len() as c_int,
                    requests.as_mut_ptr(),
                    ffi::RSMPI_STATUSES_IGNORE,
                )
            };
            requests.clear();
            result = result.and(check(rc, "MPI_Waitall"));
        }
        result
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        // Errors were returned by `finish` already, or the call is failing anyway.
        let _ = self.wait_all();
    }
}

fn null_request() -> ffi::MPI_Request {
    // SAFETY: reading an immutable constant the MPI library defines.
    unsafe { ffi::RSMPI_REQUEST_NULL }
}

fn check(rc: c_int, call: &str) -> Result<(), String> {
    if rc == ffi::MPI_SUCCESS as c_int {
        Ok(())
    } else {
        Err(format!("`{call}` failed with MPI error {rc}"))
    }
}
