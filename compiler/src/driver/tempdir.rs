//! A private temporary directory for one capecc run, removed when dropped.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    /// Creates a fresh `$TMPDIR/capecc-<pid>-<n>-<nanos>`, mode 0700, that did not exist before
    /// (so another user cannot have prepared it).
    pub fn new() -> std::io::Result<TempDir> {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let base = std::env::temp_dir();
        let pid = std::process::id();
        let mut last_error = None;
        for _ in 0..100 {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.subsec_nanos())
                .unwrap_or(0);
            let path = base.join(format!("capecc-{pid}-{n}-{nanos:x}"));
            match create_private_dir(&path) {
                Ok(()) => return Ok(TempDir { path }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last_error = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(last_error.unwrap_or_else(|| std::io::Error::other("no free temporary name")))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

fn create_private_dir(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new().mode(0o700).create(path)
}

impl Drop for TempDir {
    fn drop(&mut self) {
        // Best effort: a leftover temp directory is not worth failing the build for.
        let _ = std::fs::remove_dir_all(&self.path);
    }
}
