//! Authentication of the checkpoint log: what a log is bound to ([`Job`]), its MAC key
//! ([`LogKey`], keyed BLAKE3) and the user's secret key it is derived from (a 0600 file outside
//! the checkpoint directory, created on first use). See docs/security.md.

use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;

pub use cape_format::log_key::{Job, LogKey, LOG_ID_LEN, SECRET_LEN, TAG_LEN};

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
            check(
                &file
                    .metadata()
                    .map_err(|e| format!("cannot read the checkpoint key `{shown}`: {e}: {fix}"))?,
            )?;
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
