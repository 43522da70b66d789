//! What a checkpoint log is bound to ([`Job`]) and its MAC key ([`LogKey`], keyed BLAKE3 under
//! the user's secret key). Reading and creating the secret key file is capert's (`ft/auth.rs`).

/// Bytes of the user's secret key.
pub const SECRET_LEN: usize = 32;
/// Bytes of a log's random id.
pub const LOG_ID_LEN: usize = 16;
/// Bytes of a MAC tag.
pub const TAG_LEN: usize = 32;

/// What a log belongs to: BLAKE3 of the executable and of its command line `argv[0..]` (the
/// program's name included: the runtime copies the whole command line into shared memory, at
/// the top of the user stack, so its length also places the program's stack frames).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Job {
    pub program: [u8; 32],
    pub args: [u8; 32],
}

impl Job {
    pub fn new(exe: &[u8], args: &[Vec<u8>]) -> Job {
        let mut h = blake3::Hasher::new();
        for a in args {
            h.update(&(a.len() as u64).to_le_bytes());
            h.update(a);
        }
        Job {
            program: *blake3::hash(exe).as_bytes(),
            args: *h.finalize().as_bytes(),
        }
    }

    /// The first 8 bytes of the program hash: stored in the header so that a log of another
    /// program is refused with a message saying so (the MAC alone could not tell why).
    pub fn program_id(&self) -> u64 {
        prefix(&self.program)
    }

    /// Same for the arguments.
    pub fn args_id(&self) -> u64 {
        prefix(&self.args)
    }
}

fn prefix(hash: &[u8; 32]) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&hash[..8]);
    u64::from_le_bytes(w)
}

/// The MAC key of one log: keyed BLAKE3 under the user's secret of the log's random id, the
/// program hash and the argument hash. A log therefore verifies only for the job (program,
/// arguments, user) and the log file that wrote it.
#[derive(Clone)]
pub struct LogKey([u8; 32]);

impl LogKey {
    pub fn derive(secret: &[u8; SECRET_LEN], log_id: &[u8; LOG_ID_LEN], job: &Job) -> LogKey {
        let mut h = blake3::Hasher::new_keyed(secret);
        h.update(b"capecc checkpoint log v2\0");
        h.update(log_id);
        h.update(&job.program);
        h.update(&job.args);
        LogKey(*h.finalize().as_bytes())
    }

    /// The tag of `bytes` stored at byte `offset` of the log (the offset binds it to its place).
    pub fn tag(&self, offset: u64, bytes: &[u8]) -> [u8; TAG_LEN] {
        *self.hash(offset, bytes).as_bytes()
    }

    /// Whether `tag` is the tag of `bytes` at `offset` (constant-time comparison).
    pub fn verify(&self, offset: u64, bytes: &[u8], tag: &[u8]) -> bool {
        let Ok(tag) = <[u8; TAG_LEN]>::try_from(tag) else {
            return false;
        };
        self.hash(offset, bytes) == blake3::Hash::from_bytes(tag)
    }

    fn hash(&self, offset: u64, bytes: &[u8]) -> blake3::Hash {
        let mut h = blake3::Hasher::new_keyed(&self.0);
        h.update(&offset.to_le_bytes());
        h.update(bytes);
        h.finalize()
    }
}

impl std::fmt::Debug for LogKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LogKey(..)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job() -> Job {
        Job::new(b"the program", &[b"10".to_vec(), b"x".to_vec()])
    }

    #[test]
    fn tags_depend_on_key_offset_bytes_and_job() {
        let key = LogKey::derive(&[7; 32], &[1; 16], &job());
        let tag = key.tag(64, b"record");
        assert!(key.verify(64, b"record", &tag));
        assert!(!key.verify(65, b"record", &tag));
        assert!(!key.verify(64, b"recorD", &tag));
        assert!(!key.verify(64, b"record", &tag[..31]));
        for other in [
            LogKey::derive(&[8; 32], &[1; 16], &job()),
            LogKey::derive(&[7; 32], &[2; 16], &job()),
            LogKey::derive(
                &[7; 32],
                &[1; 16],
                &Job::new(b"another", &[b"10".to_vec(), b"x".to_vec()]),
            ),
            LogKey::derive(
                &[7; 32],
                &[1; 16],
                &Job::new(b"the program", &[b"10x".to_vec()]),
            ),
        ] {
            assert!(!other.verify(64, b"record", &tag));
        }
    }
}
