//! Authentication of the checkpoint log: what a log is bound to ([`Job`]), its MAC key
//! ([`LogKey`], keyed BLAKE3) and the user's secret key it is derived from (a 0600 file outside
//! the checkpoint directory, created on first use). See docs/security.md.

use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;

/// Bytes of the user's secret key.
pub const SECRET_LEN: usize = 32;
/// Bytes of a log's random id.
pub const LOG_ID_LEN: usize = 16;
/// Bytes of a MAC tag.
pub const TAG_LEN: usize = 32;

/// What a log belongs to: BLAKE3 of the executable and of the arguments `argv[1..]`.
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

/// Reads the user's secret key from `path`, creating it (random, mode 0600, parent 0700) if it
/// does not exist. A key file that others can read or write, that is not a regular file or that
/// belongs to another user is refused: anyone who can read it can forge logs.
pub fn load_or_create_secret(path: &Path, euid: u32) -> Result<[u8; SECRET_LEN], String> {
    let shown = path.display();
    let fix =
        "set `CAPE_KEY_FILE` to a file only you can read, or remove it to have a new one made";
    // Checked on the link itself (for a clear message) and again on the opened file, so that
    // a file swapped in between is not trusted.
    let check = |meta: &std::fs::Metadata| -> Result<(), String> {
        if !meta.file_type().is_file() {
            return Err(format!(
                "the checkpoint key `{shown}` is not a regular file: {fix}"
            ));
        }
        if meta.uid() != euid {
            return Err(format!(
                "the checkpoint key `{shown}` belongs to another user: {fix}"
            ));
        }
        if meta.permissions().mode() & 0o077 != 0 {
            return Err(format!(
                "the checkpoint key `{shown}` can be read or written by other users (mode {:o}): `chmod 600` it, or {fix}",
                meta.permissions().mode() & 0o777
            ));
        }
        Ok(())
    };
    match std::fs::symlink_metadata(path) {
        Ok(meta) => {
            check(&meta)?;
            let mut file = std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
                .open(path)
                .map_err(|e| format!("cannot read the checkpoint key `{shown}`: {e}: {fix}"))?;
            check(&file.metadata().map_err(|e| {
                format!("cannot read the checkpoint key `{shown}`: {e}: {fix}")
            })?)?;
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut file, &mut bytes)
                .map_err(|e| format!("cannot read the checkpoint key `{shown}`: {e}: {fix}"))?;
            <[u8; SECRET_LEN]>::try_from(bytes.as_slice()).map_err(|_| {
                format!(
                    "the checkpoint key `{shown}` is not a capecc key ({} bytes, expected {SECRET_LEN}): {fix}",
                    bytes.len()
                )
            })
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            create_secret(path)
                .map_err(|e| format!("cannot create the checkpoint key `{shown}`: {e}: {fix}"))?;
            load_or_create_secret(path, euid)
        }
        Err(e) => Err(format!(
            "cannot read the checkpoint key `{shown}`: {e}: {fix}"
        )),
    }
}

/// Writes a new random key to a private temporary file and links it into place, so that two
/// jobs starting at once end with the same complete key (the loser's link fails; it reads the
/// winner's).
fn create_secret(path: &Path) -> std::io::Result<()> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        if !parent.exists() {
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(parent)?;
        }
    }
    let mut secret = [0u8; SECRET_LEN];
    std::io::Read::read_exact(&mut std::fs::File::open("/dev/urandom")?, &mut secret)?;
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(&tmp)?;
    let written = f.write_all(&secret).and_then(|()| f.sync_all());
    let linked = written.and_then(|()| match std::fs::hard_link(&tmp, path) {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        other => other,
    });
    let _ = std::fs::remove_file(&tmp);
    linked
}

/// A fresh random log id.
pub fn new_log_id() -> std::io::Result<[u8; LOG_ID_LEN]> {
    let mut id = [0u8; LOG_ID_LEN];
    std::io::Read::read_exact(&mut std::fs::File::open("/dev/urandom")?, &mut id)?;
    Ok(id)
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

    #[test]
    fn secret_is_created_private_and_read_back() {
        let dir = std::env::temp_dir().join(format!("capert-key-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("sub").join("checkpoint.key");
        std::fs::create_dir_all(&dir).unwrap();
        let euid = std::fs::metadata(&dir).unwrap().uid();
        let a = load_or_create_secret(&path, euid).unwrap();
        let b = load_or_create_secret(&path, euid).unwrap();
        assert_eq!(a, b);
        let meta = std::fs::metadata(&path).unwrap();
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
        assert_eq!(
            std::fs::metadata(path.parent().unwrap())
                .unwrap()
                .permissions()
                .mode()
                & 0o777,
            0o700
        );
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let e = load_or_create_secret(&path, euid).unwrap_err();
        assert!(e.contains("other users"), "{e}");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        let e = load_or_create_secret(&path, euid.wrapping_add(1)).unwrap_err();
        assert!(e.contains("another user"), "{e}");
        std::fs::write(&path, b"short").unwrap();
        let e = load_or_create_secret(&path, euid).unwrap_err();
        assert!(e.contains("not a capecc key"), "{e}");
        let link = dir.join("link.key");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        let e = load_or_create_secret(&link, euid).unwrap_err();
        assert!(e.contains("not a regular file"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
