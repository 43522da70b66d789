//! Which page tracker runs, and the tracker's error type.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrackerKind {
    Uffd,
    Mprotect,
}

impl TrackerKind {
    /// Parses a `CAPE_TRACKER` value: `uffd`, `mprotect`, or `auto`/empty for the best available.
    pub fn parse_env(value: &str) -> Result<Option<TrackerKind>, TrackError> {
        match value.trim() {
            "" | "auto" => Ok(None),
            "uffd" => Ok(Some(TrackerKind::Uffd)),
            "mprotect" => Ok(Some(TrackerKind::Mprotect)),
            other => Err(TrackError(format!(
                "unknown `CAPE_TRACKER` value `{other}`: use `uffd`, `mprotect` or `auto`"
            ))),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            TrackerKind::Uffd => "uffd",
            TrackerKind::Mprotect => "mprotect",
        }
    }
}

impl fmt::Display for TrackerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug)]
pub struct TrackError(pub String);

impl fmt::Display for TrackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TrackError {}

pub(super) fn err(message: String) -> TrackError {
    TrackError(message)
}

pub(super) fn protect_error(e: std::io::Error) -> TrackError {
    if e.raw_os_error() == Some(libc::ENOMEM) {
        err(
            "mprotect page tracker ran out of memory mappings (`vm.max_map_count` reached): \
             raise it with `sysctl vm.max_map_count=...` or use `CAPE_TRACKER=uffd`"
                .into(),
        )
    } else {
        err(format!("mprotect page tracker failed: {e}"))
    }
}
