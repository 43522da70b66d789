//! The log file as the background writer's sink (world rank 0): appends a record and
//! rewrites the header, each made durable with `fdatasync`; compaction writes the compacted
//! log to `cape.log.tmp` and renames it over `cape.log`, so a crash at any point leaves
//! either the old log or the new one.

use super::log::{self, Entry, Header};
use super::writer::Sink;
use crate::sys::checkpoint_dir::CheckpointDir;
use cape_format::log_compact::{thin, Snapshot};
use cape_format::log_key::LogKey;
use std::fs::File;
use std::os::unix::fs::FileExt;

pub struct LogFile {
    dir: CheckpointDir,
    file: File,
    header: Header,
    key: LogKey,
    /// Regions up to the last snapshot, thinned (thinned again at the next compaction).
    thinned: Vec<Entry>,
    /// The full entries of the regions after it.
    since: Vec<Entry>,
    /// The test hook: SIGKILL in the middle of the first compaction.
    kill_in_compaction: bool,
}

impl LogFile {
    /// The sink of the log open as `file` in `dir`, whose validated entries are `entries`
    /// (the first `thinned` of them thinned by its snapshot).
    pub fn new(
        dir: &CheckpointDir,
        file: File,
        (header, key): (Header, LogKey),
        entries: &[Entry],
        thinned: usize,
        kill_in_compaction: bool,
    ) -> std::io::Result<LogFile> {
        Ok(LogFile {
            dir: dir.try_clone()?,
            file,
            header,
            key,
            thinned: entries[..thinned].to_vec(),
            since: entries[thinned..].to_vec(),
            kill_in_compaction,
        })
    }

    fn error(&self, what: &str, e: std::io::Error) -> String {
        format!(
            "cannot {what} `{}`: {e}: check the directory given to `CAPE_CHECKPOINT`/`CAPE_RESTART`",
            self.dir.join("cape.log").display()
        )
    }
}

impl Sink for LogFile {
    fn append(&mut self, entries: Vec<Entry>) -> Result<(), String> {
        let h = &mut self.header;
        let first = h.committed_regions + 1;
        let record = log::encode_record(&self.key, h.committed_len, first, &entries);
        let written = self
            .file
            .write_all_at(&record, h.committed_len)
            .and_then(|()| self.file.sync_data());
        if let Err(e) = written {
            return Err(self.error("append to", e));
        }
        if first == 1 {
            h.first_fingerprint = entries[0].fingerprint;
        }
        h.committed_len += record.len() as u64;
        h.committed_regions += entries.len() as u64;
        let header = h.encode(&self.key);
        self.file
            .write_all_at(&header, 0)
            .and_then(|()| self.file.sync_data())
            .map_err(|e| self.error("update", e))?;
        self.since.extend(entries);
        Ok(())
    }

    fn compact(
        &mut self,
        entries: Vec<Entry>,
        snapshot: Snapshot,
        ranges: Vec<(u64, u64)>,
    ) -> Result<(), String> {
        if self.thinned.is_empty() && self.since.is_empty() {
            if let Some(e) = entries.first() {
                self.header.first_fingerprint = e.fingerprint;
            }
        }
        let thinned: Vec<Entry> = self
            .thinned
            .iter()
            .chain(&self.since)
            .chain(&entries)
            .map(|e| Entry {
                tickpt: thin(&e.tickpt, &ranges),
                ..e.clone()
            })
            .collect();
        let mut header = self.header;
        let [head, image] =
            log::encode_compacted_parts(&self.key, &mut header, &thinned, &snapshot);
        drop(snapshot);
        let tmp = "cape.log.tmp";
        let file = self
            .dir
            .create_fresh(tmp)
            .map_err(|e| self.error("create a compacted copy of", e))?;
        if self.kill_in_compaction {
            let _ = file.write_all_at(&head, 0);
            let _ = file.write_all_at(&image[..image.len() / 2], head.len() as u64);
            let _ = file.sync_data();
            crate::sys::ft::kill_self();
        }
        file.write_all_at(&head, 0)
            .and_then(|()| file.write_all_at(&image, head.len() as u64))
            .and_then(|()| file.sync_data())
            .and_then(|()| self.dir.rename(tmp, "cape.log"))
            .map_err(|e| self.error("compact", e))?;
        self.file = file;
        self.header = header;
        self.thinned = thinned;
        self.since.clear();
        Ok(())
    }
}
