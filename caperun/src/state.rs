//! What the runtime leaves in the checkpoint directory: `status` and the header of
//! `cape.log` (its format is the `cape-format` crate's, shared with capert). Pure parsing of
//! bytes.

/// `DIR/status`, written by rank 0 at the very end of a job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// `exit S`: the program completed (or called `exit`) with status S.
    Exit(i32),
    /// `error`: the runtime stopped with a `capert: error:` (e.g. a refused log).
    Error,
}

/// Parses the status file's text; `None` for anything else (a partial write is treated as
/// no status: the runtime writes it atomically, so that means it did not get that far).
pub fn parse_status(text: &str) -> Option<Status> {
    let line = text.strip_suffix('\n')?;
    if line == "error" {
        return Some(Status::Error);
    }
    let code = line.strip_prefix("exit ")?.parse::<i32>().ok()?;
    Some(Status::Exit(code))
}

/// The header fields caperun reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogHeader {
    /// Bytes of header + complete records.
    pub committed_len: u64,
    /// Regions made durable.
    pub regions: u64,
}

/// Reads the progress fields of `cape.log`'s header. Only the magic is checked: the runtime
/// validates and authenticates the log itself; caperun only reports progress.
pub fn parse_log_header(bytes: &[u8]) -> Option<LogHeader> {
    let (committed_len, regions) = cape_format::log::read_progress(bytes)?;
    Some(LogHeader {
        committed_len,
        regions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_lines() {
        assert_eq!(parse_status("exit 0\n"), Some(Status::Exit(0)));
        assert_eq!(parse_status("exit 3\n"), Some(Status::Exit(3)));
        assert_eq!(parse_status("exit -1\n"), Some(Status::Exit(-1)));
        assert_eq!(parse_status("error\n"), Some(Status::Error));
        assert_eq!(parse_status("exit 0"), None);
        assert_eq!(parse_status("exit\n"), None);
        assert_eq!(parse_status(""), None);
        assert_eq!(parse_status("exit x\n"), None);
    }

    #[test]
    fn log_header() {
        let mut h = vec![0u8; 64];
        h[..8].copy_from_slice(&cape_format::log::LOG_MAGIC);
        h[40..48].copy_from_slice(&1234u64.to_le_bytes());
        h[48..56].copy_from_slice(&17u64.to_le_bytes());
        assert_eq!(
            parse_log_header(&h),
            Some(LogHeader {
                committed_len: 1234,
                regions: 17
            })
        );
        assert_eq!(parse_log_header(&h[..63]), None);
        h[0] = b'X';
        assert_eq!(parse_log_header(&h), None);
    }
}
