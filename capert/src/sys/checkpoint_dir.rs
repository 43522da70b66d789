//! The checkpoint directory, opened so that no other user can redirect what we write.
//!
//! Shared by capert (ft/) and caperun, which includes this very file with `#[path]`: it uses
//! only std, libc and cape-format, and both programs must apply the same rules.
//!
//! A job may run as root in a directory another user could have prepared (a pre-created
//! `prog.cape-ckpt/` with symlinks named like our files). So: the directory is created 0700
//! when absent; an existing one must be a real directory (not a symlink), owned by the
//! effective user and writable by nobody else. Its descriptor is kept and every file is
//! reached relative to it (`openat` & co: renaming or replacing the path after the check
//! changes nothing), never through a symlink (`O_NOFOLLOW`), close-on-exec, created 0600.
//! Replaced files are written to `NAME.tmp` created with `O_EXCL` and renamed over `NAME`.
//!
//! The directory may hold other files (the user's own), but a file under one of the names
//! we replace (`cape.log`, `status`, `output`, `stdin`) must be one capecc wrote, recognised
//! by its form ([`CheckpointDir::refuse_foreign`]): anything else is refused before a byte is
//! written, so that a checkpoint never replaces the user's data. A symbolic link under such
//! a name is no data of the user's: it is removed, never followed.

use std::ffi::CString;
use std::fs::File;
use std::io::{self, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::{Path, PathBuf};

/// Mode of files we create (before the umask, which can only remove bits).
const FILE_MODE: libc::mode_t = 0o600;

/// Why a checkpoint directory was not used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DirError {
    /// It could not be created or opened: the sentence names the directory and the OS error.
    Io(String),
    /// It exists but another user could change what is in it: the sentence names the
    /// directory and what is wrong; the caller adds how to choose another.
    Unsafe(String),
}

/// An open, checked checkpoint directory.
#[derive(Debug)]
pub struct CheckpointDir {
    fd: OwnedFd,
    path: PathBuf,
}

fn cstring(s: &[u8]) -> io::Result<CString> {
    CString::new(s).map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "NUL in a path"))
}

/// A file name inside the directory: one plain component.
fn file_name(name: &str) -> io::Result<CString> {
    if name.is_empty() || name.contains('/') || name == "." || name == ".." {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("`{name}` is not a plain file name"),
        ));
    }
    cstring(name.as_bytes())
}

fn check(r: libc::c_int) -> io::Result<libc::c_int> {
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(r)
    }
}

/// The effective user id.
pub fn effective_uid() -> u32 {
    // SAFETY: geteuid has no arguments and cannot fail.
    unsafe { libc::geteuid() }
}

/// What is wrong with a directory of owner `uid` and mode `mode` for user `me`, if anything.
/// Group-writable counts: a group can hold other users.
pub fn unsafe_reason(uid: u32, mode: u32, me: u32) -> Option<String> {
    if uid != me {
        return Some(format!(
            "belongs to user {uid}, not to the user running the job ({me})"
        ));
    }
    if mode & 0o002 != 0 {
        return Some("is writable by other users".to_string());
    }
    if mode & 0o020 != 0 {
        return Some("is writable by its group".to_string());
    }
    None
}

/// The longest file of capecc's form `refuse_foreign` looks at: a status line (at most 16
/// bytes) or the output counts (42).
const FORM_MAX: u64 = 64;

/// Whether `head` (the first `FORM_MAX` bytes of `DIR/name`, `len` bytes in all) is of the form
/// capecc writes under `name`; `log_here`: the directory holds a checkpoint log (magic).
/// None: yes; Some: what the file should be, for the message.
pub fn foreign_form(name: &str, head: &[u8], len: u64, log_here: bool) -> Option<&'static str> {
    match name {
        "cape.log" => (!head.starts_with(&cape_format::log::LOG_MAGIC))
            .then_some("it does not begin with the magic of a checkpoint log"),
        // written whole by a rename: `exit S` or `error`, one line
        "status" => {
            let ok = len == head.len() as u64
                && std::str::from_utf8(head).is_ok_and(|t| {
                    t.strip_suffix('\n').is_some_and(|line| {
                        line == "error"
                            || line
                                .strip_prefix("exit ")
                                .is_some_and(|c| c.parse::<i32>().is_ok())
                    })
                });
            (!ok).then_some("it is not a job status line, `exit S` or `error`")
        }
        // the two byte counts (20 digits each) written in place at offset 0; empty when a run
        // stopped before its first count; a restart accepts what follows them (ignored)
        "output" => {
            let counts = head.len() >= 42
                && head[..20].iter().all(u8::is_ascii_digit)
                && head[20] == b' '
                && head[21..41].iter().all(u8::is_ascii_digit)
                && head[41] == b'\n';
            (!(len == 0 || counts)).then_some("it is not an output count, two 20-digit numbers")
        }
        // caperun's copy of the job's input: any bytes, but only beside a log (caperun
        // removes the copy of a job that never wrote one)
        "stdin" => (!log_here)
            .then_some("it is no input saved by caperun, having no checkpoint log beside it"),
        _ => None,
    }
}

impl CheckpointDir {
    /// Opens `path` (creating it, and missing parents, mode 0700 when `create`) and checks it.
    pub fn open(path: &Path, create: bool) -> Result<CheckpointDir, DirError> {
        let shown = path.display();
        let io_err = |what: &str, e: io::Error| {
            DirError::Io(format!(
                "cannot {what} the checkpoint directory `{shown}`: {e}"
            ))
        };
        if create {
            match std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(path)
            {
                Ok(()) => {}
                // an existing symlink or file is reported by the open below
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(io_err("create", e)),
            }
        }
        let c_path = cstring(path.as_os_str().as_bytes()).map_err(|e| io_err("open", e))?;
        let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC;
        // SAFETY: the path is a NUL-terminated string that outlives the call.
        let r = unsafe { libc::open(c_path.as_ptr(), flags) };
        let fd = match check(r) {
            // SAFETY: open returned a fresh descriptor that nothing else owns.
            Ok(fd) => unsafe { OwnedFd::from_raw_fd(fd) },
            Err(e) => {
                let link =
                    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
                return Err(match e.raw_os_error() {
                    Some(libc::ELOOP) | Some(libc::ENOTDIR) if link => DirError::Unsafe(format!(
                        "the checkpoint directory `{shown}` is a symbolic link; give the directory itself"
                    )),
                    Some(libc::ENOTDIR) => DirError::Unsafe(format!(
                        "the checkpoint directory `{shown}` is not a directory"
                    )),
                    _ => io_err("open", e),
                });
            }
        };
        let meta = File::from(fd.try_clone().map_err(|e| io_err("open", e))?)
            .metadata()
            .map_err(|e| io_err("examine", e))?;
        if let Some(why) = unsafe_reason(meta.uid(), meta.mode(), effective_uid()) {
            return Err(DirError::Unsafe(format!(
                "the checkpoint directory `{shown}` {why}"
            )));
        }
        Ok(CheckpointDir {
            fd,
            path: path.to_path_buf(),
        })
    }

    /// The directory as given (for messages).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// `DIR/name`, for messages.
    pub fn join(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    /// A second handle on the same directory.
    pub fn try_clone(&self) -> io::Result<CheckpointDir> {
        Ok(CheckpointDir {
            fd: self.fd.try_clone()?,
            path: self.path.clone(),
        })
    }

    fn open_at(&self, name: &str, flags: libc::c_int) -> io::Result<File> {
        let c_name = file_name(name)?;
        // O_NONBLOCK: a FIFO planted under our name must not block the open; it has no
        // effect on regular files.
        let flags = flags | libc::O_NOFOLLOW | libc::O_CLOEXEC | libc::O_NONBLOCK;
        // SAFETY: the directory descriptor is open for the lifetime of `self`, the name is a
        // NUL-terminated string, the mode is a plain integer.
        let r = unsafe {
            libc::openat(
                self.fd.as_raw_fd(),
                c_name.as_ptr(),
                flags,
                libc::c_uint::from(FILE_MODE),
            )
        };
        // SAFETY: openat returned a fresh descriptor that nothing else owns.
        let file = File::from(unsafe { OwnedFd::from_raw_fd(check(r)?) });
        let meta = file.metadata()?;
        if !meta.is_file() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "not a regular file",
            ));
        }
        // a file left readable by others by an older version is tightened when written
        if flags & libc::O_RDWR != 0 && meta.mode() & 0o077 != 0 {
            use std::os::unix::fs::PermissionsExt;
            file.set_permissions(std::fs::Permissions::from_mode(FILE_MODE))?;
        }
        Ok(file)
    }

    /// Opens an existing file for reading.
    pub fn open_read(&self, name: &str) -> io::Result<File> {
        self.open_at(name, libc::O_RDONLY)
    }

    /// Opens an existing file for reading and writing.
    pub fn open_rw(&self, name: &str) -> io::Result<File> {
        self.open_at(name, libc::O_RDWR)
    }

    /// Opens a file for reading and writing, creating it (0600) when absent.
    pub fn open_or_create(&self, name: &str) -> io::Result<File> {
        self.open_at(name, libc::O_RDWR | libc::O_CREAT)
    }

    /// Creates `name` afresh (0600, `O_EXCL`), removing whatever had that name.
    pub fn create_fresh(&self, name: &str) -> io::Result<File> {
        self.remove(name)?;
        self.open_at(name, libc::O_RDWR | libc::O_CREAT | libc::O_EXCL)
    }

    /// The whole content of `name`.
    pub fn read(&self, name: &str) -> io::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        io::Read::read_to_end(&mut self.open_read(name)?, &mut bytes)?;
        Ok(bytes)
    }

    /// The first `max` bytes of `name` at most: for the small files (`status`, `output`),
    /// whose content is a line, so that a file grown by someone else costs no more.
    pub fn read_at_most(&self, name: &str, max: u64) -> io::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        io::Read::read_to_end(&mut io::Read::take(self.open_read(name)?, max), &mut bytes)?;
        Ok(bytes)
    }

    /// Removes `name` (a symlink itself, never its target); absent is fine.
    pub fn remove(&self, name: &str) -> io::Result<()> {
        let c_name = file_name(name)?;
        // SAFETY: valid directory descriptor and NUL-terminated name.
        match check(unsafe { libc::unlinkat(self.fd.as_raw_fd(), c_name.as_ptr(), 0) }) {
            Ok(_) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Renames `from` to `to` inside the directory (atomic, replaces `to`).
    pub fn rename(&self, from: &str, to: &str) -> io::Result<()> {
        let (c_from, c_to) = (file_name(from)?, file_name(to)?);
        let dir = self.fd.as_raw_fd();
        // SAFETY: valid directory descriptor and NUL-terminated names.
        check(unsafe { libc::renameat(dir, c_from.as_ptr(), dir, c_to.as_ptr()) }).map(|_| ())
    }

    /// Replaces `name` with `bytes` atomically: `name.tmp` (fresh, 0600), fsync, rename.
    pub fn replace(&self, name: &str, bytes: &[u8]) -> io::Result<()> {
        let tmp = format!("{name}.tmp");
        let mut f = self.create_fresh(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        self.rename(&tmp, name)
    }

    /// Refuses a fresh use of the directory when one of `names` is a regular file capecc did
    /// not write ([`foreign_form`]), or not a regular file at all: the error names the file
    /// and why (the caller adds what to do). Absent files and symbolic links are fine (a link
    /// is removed, never followed). Reads at most a few bytes of each file.
    pub fn refuse_foreign(&self, names: &[&str]) -> Result<(), String> {
        let log_here = self
            .read_at_most("cape.log", 8)
            .is_ok_and(|h| h.starts_with(&cape_format::log::LOG_MAGIC));
        for &name in names {
            let shown = self.join(name);
            let shown = shown.display();
            let file = match self.open_read(name) {
                Ok(f) => f,
                Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
                Err(e) if e.raw_os_error() == Some(libc::ELOOP) => continue,
                Err(e) if e.kind() == io::ErrorKind::InvalidInput => {
                    return Err(format!(
                        "`{shown}` is not a regular file, and capecc writes one under that name"
                    ))
                }
                Err(e) => return Err(format!("cannot read `{shown}`: {e}")),
            };
            let len = file
                .metadata()
                .map_err(|e| format!("cannot read `{shown}`: {e}"))?
                .len();
            let mut head = Vec::new();
            io::Read::read_to_end(&mut io::Read::take(file, FORM_MAX), &mut head)
                .map_err(|e| format!("cannot read `{shown}`: {e}"))?;
            if let Some(why) = foreign_form(name, &head, len, log_here) {
                return Err(format!(
                    "`{shown}` was not written by capecc: {why}; a checkpoint would replace it"
                ));
            }
        }
        Ok(())
    }

    /// Whether a file can still be created and written in the directory: creates, writes,
    /// syncs and removes a probe file. The error says why not (full, read-only, permissions).
    pub fn probe_writable(&self, name: &str) -> io::Result<()> {
        let result = self.create_fresh(name).and_then(|mut f| {
            f.write_all(&[0u8; 4096])?;
            f.sync_all()
        });
        let removed = self.remove(name);
        result.and(removed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{symlink, PermissionsExt};

    fn scratch(name: &str) -> PathBuf {
        let p = std::env::temp_dir().join(format!("ckdir-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        p
    }

    fn mode(p: &Path) -> u32 {
        std::fs::symlink_metadata(p).unwrap().mode() & 0o7777
    }

    #[test]
    fn reasons() {
        assert_eq!(unsafe_reason(5, 0o40700, 5), None);
        assert_eq!(unsafe_reason(5, 0o40755, 5), None);
        assert!(unsafe_reason(6, 0o40700, 5)
            .unwrap()
            .contains("belongs to user 6"));
        assert_eq!(
            unsafe_reason(5, 0o41777, 5).unwrap(),
            "is writable by other users"
        );
        assert_eq!(
            unsafe_reason(5, 0o40770, 5).unwrap(),
            "is writable by its group"
        );
    }

    #[test]
    fn created_0700_with_files_0600() {
        let root = scratch("create");
        let dir = root.join("a/b.cape-ckpt");
        let d = CheckpointDir::open(&dir, true).unwrap();
        assert_eq!(mode(&dir), 0o700);
        d.replace("status", b"exit 0\n").unwrap();
        d.create_fresh("cape.log.tmp").unwrap();
        d.open_or_create("output").unwrap();
        for f in ["status", "cape.log.tmp", "output"] {
            assert_eq!(mode(&dir.join(f)), 0o600, "{f}");
        }
        assert_eq!(d.read("status").unwrap(), b"exit 0\n");
        assert!(!dir.join("status.tmp").exists());
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn writable_by_others_is_refused() {
        let dir = scratch("world");
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
        let e = CheckpointDir::open(&dir, true).unwrap_err();
        assert!(
            matches!(&e, DirError::Unsafe(m) if m.ends_with("is writable by other users")),
            "{e:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn another_users_directory_is_refused() {
        let (dir, owner) = if effective_uid() == 0 {
            let dir = scratch("owner");
            std::fs::create_dir(&dir).unwrap();
            std::os::unix::fs::chown(&dir, Some(65534), None).unwrap();
            (dir, 65534)
        } else {
            (PathBuf::from("/"), 0)
        };
        let e = CheckpointDir::open(&dir, true).unwrap_err();
        assert!(
            matches!(&e, DirError::Unsafe(m) if m.contains(&format!("belongs to user {owner},"))),
            "{e:?}"
        );
        if owner != 0 {
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }

    #[test]
    fn a_symlinked_directory_is_refused() {
        let root = scratch("dirlink");
        std::fs::create_dir_all(root.join("real")).unwrap();
        symlink(root.join("real"), root.join("link")).unwrap();
        let e = CheckpointDir::open(&root.join("link"), true).unwrap_err();
        assert!(
            matches!(&e, DirError::Unsafe(m) if m.contains("is a symbolic link")),
            "{e:?}"
        );
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn planted_symlinks_are_never_followed() {
        let root = scratch("plant");
        let dir = root.join("ck");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
        let victim = root.join("victim");
        std::fs::write(&victim, b"precious").unwrap();
        for name in [
            "cape.log",
            "cape.log.tmp",
            "status",
            "status.tmp",
            "output",
            "stdin",
        ] {
            symlink(&victim, dir.join(name)).unwrap();
        }
        let d = CheckpointDir::open(&dir, false).unwrap();
        assert!(d.open_read("cape.log").is_err());
        assert!(d.open_rw("cape.log").is_err());
        assert!(d.read("stdin").is_err());
        assert!(d.open_or_create("output").is_err());
        // fresh files and replacements remove the link, not its target
        d.create_fresh("cape.log.tmp").unwrap();
        d.replace("status", b"error\n").unwrap();
        d.replace("stdin", b"input").unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
        assert!(!std::fs::symlink_metadata(dir.join("status"))
            .unwrap()
            .file_type()
            .is_symlink());
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn forms_of_our_files() {
        let log = cape_format::log::LOG_MAGIC;
        let ours = |name: &str, bytes: &[u8], log_here: bool| {
            foreign_form(name, bytes, bytes.len() as u64, log_here).is_none()
        };
        assert!(ours("cape.log", &[&log[..], b"rest"].concat(), true));
        assert!(!ours("cape.log", b"this is my own cape.log", false));
        assert!(!ours("cape.log", b"", false));
        for s in ["exit 0\n", "exit -1\n", "exit 255\n", "error\n"] {
            assert!(ours("status", s.as_bytes(), false), "{s}");
        }
        for s in [
            "notes on job status\n",
            "exit 0",
            "exit x\n",
            "error\nmore\n",
            "",
        ] {
            assert!(!ours("status", s.as_bytes(), false), "{s}");
        }
        let counts = format!("{:020} {:020}\n", 12, 0);
        assert!(ours("output", counts.as_bytes(), false));
        assert!(ours("output", b"", false));
        // grown past the counts (a restart ignores the rest)
        assert!(foreign_form("output", counts.as_bytes(), 1 << 36, false).is_none());
        assert!(!ours(
            "output",
            b"my experiment results, 3 weeks of runs\n",
            false
        ));
        assert!(!ours("output", &counts.as_bytes()[..41], false));
        assert!(ours("stdin", b"input deck\n", true));
        assert!(!ours("stdin", b"input deck\n", false));
        assert!(ours("notes.txt", b"anything", false));
    }

    #[test]
    fn foreign_files_are_refused_and_kept() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("foreign");
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
        let d = CheckpointDir::open(&dir, false).unwrap();
        let all = ["cape.log", "status", "output", "stdin"];
        // other files of the user's are no concern
        std::fs::write(dir.join("notes.txt"), "mine").unwrap();
        assert_eq!(d.refuse_foreign(&all), Ok(()));
        for (name, text) in [
            ("output", "my experiment results"),
            ("status", "notes on job status\n"),
            ("stdin", "input deck"),
            ("cape.log", "this is my own cape.log"),
        ] {
            std::fs::write(dir.join(name), text).unwrap();
            let e = d.refuse_foreign(&all).unwrap_err();
            let path = dir.join(name);
            assert!(
                e.starts_with(&format!("`{}` was not written by capecc: ", path.display())),
                "{e}"
            );
            assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
            std::fs::remove_file(&path).unwrap();
        }
        // a real log makes the saved input caperun's; the status and counts of a run
        let mut log = cape_format::log::LOG_MAGIC.to_vec();
        log.extend_from_slice(&[0; 56]);
        std::fs::write(dir.join("cape.log"), &log).unwrap();
        std::fs::write(dir.join("stdin"), "input deck").unwrap();
        std::fs::write(dir.join("status"), "exit 0\n").unwrap();
        std::fs::write(dir.join("output"), format!("{:020} {:020}\n", 5, 0)).unwrap();
        assert_eq!(d.refuse_foreign(&all), Ok(()));
        // a directory under one of the names is refused, a symlink is fine
        std::fs::remove_file(dir.join("output")).unwrap();
        std::fs::create_dir(dir.join("output")).unwrap();
        assert!(d
            .refuse_foreign(&all)
            .unwrap_err()
            .contains("is not a regular file"));
        std::fs::remove_dir(dir.join("output")).unwrap();
        symlink(dir.join("notes.txt"), dir.join("output")).unwrap();
        assert_eq!(d.refuse_foreign(&all), Ok(()));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn names_are_plain() {
        let dir = scratch("names");
        let d = CheckpointDir::open(&dir, true).unwrap();
        assert!(d.open_or_create("../escape").is_err());
        assert!(d.remove("..").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
