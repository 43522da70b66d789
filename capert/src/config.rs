//! `CAPE_*` (and the relevant `OMP_*`) environment variables, parsed once at start-up.
//!
//! Parsing is pure: [`Config::from_lookup`] takes a lookup function so tests need no
//! environment. A bad value is an error naming the variable and what it accepts.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// `CAPE_CHECKPOINT_EVERY`: how much goes into one durable record of the log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Every {
    /// This many regions per record.
    Regions(u64),
    /// The regions of (at least) this much time per record.
    Time(Duration),
    /// `auto` (the default): snapshot mode, with the interval between snapshots set from the
    /// cost of the last one and bounded by what a failure may lose (see `ft::Ft`).
    Auto,
}

/// `CAPE_CHECKPOINT` / `CAPE_RESTART`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FtConfig {
    pub dir: PathBuf,
    /// `CAPE_RESTART`: replay the log in `dir`, then keep appending to it.
    pub restart: bool,
    pub every: Every,
    /// The user's secret key that authenticates logs (`CAPE_KEY_FILE`, else under the XDG
    /// config directory); None when there is no home to put it in.
    pub key_file: Option<PathBuf>,
    /// `CAPE_CHECKPOINT_COMPACT` (default on): snapshots keep the log's size bounded
    /// (docs/fault-tolerance.md).
    pub compact: bool,
    /// `CAPE_CHECKPOINT_BUFFER` (MiB, default 256): payload bytes waiting for the background
    /// writer beyond which a region end waits for it.
    pub buffer: usize,
    /// `CAPE_CHECKPOINT_TEST_KILL=compaction` (tests only): rank 0 kills itself in the middle
    /// of its first compaction.
    pub kill_in_compaction: bool,
    /// Where shared memory is (`CAPE_ARENA_*`, `CAPE_STACK_*`): recorded in a new log's
    /// header, compared with a restart's.
    pub layout: cape_format::log::Layout,
}

/// Whether snapshots are possible (and the default): the region call keeps the caller's
/// callee-saved registers on x86-64 only (`sys/region_call.rs`).
const SNAPSHOTS: bool = cfg!(target_arch = "x86_64");

/// The most threads a rank runs (`OMP_NUM_THREADS`, and a `num_threads` team's share of a
/// rank). More than any node has hardware threads (the largest x86-64 and Arm nodes have a
/// few hundred): beyond it a rank's threads only take turns on its cores, and every region
/// wakes and joins all of them (measured on 2 cores: 1024 threads cost 0.25 s per region;
/// 100000 ran for minutes before the first region ended). libgomp has no such bound and
/// crashes at 100000.
pub const MAX_THREADS_PER_RANK: u32 = 1024;

/// Default `CAPE_CHECKPOINT_BUFFER`: 256 MiB.
pub const DEFAULT_CHECKPOINT_BUFFER: usize = 256 << 20;
/// Default fixed address of the application heap arena.
pub const DEFAULT_ARENA_BASE: u64 = 0x2000_0000_0000;
/// Default arena size (reserved with `MAP_NORESERVE`; only touched pages cost memory).
pub const DEFAULT_ARENA_SIZE: u64 = 32 << 30;
/// Default fixed address of the user stack mapping (its lowest address).
pub const DEFAULT_STACK_BASE: u64 = 0x1000_0000_0000;
/// Default user stack size.
pub const DEFAULT_STACK_SIZE: u64 = 256 << 20;
/// Default size of the heap of critical sections (`CAPE_CRITICAL_HEAP`).
pub const DEFAULT_CRITICAL_HEAP: usize = 16 << 20;
/// Default log size per cross-rank lock (`CAPE_CRITICAL_LOG`).
pub const DEFAULT_CRITICAL_LOG: usize = 1 << 20;
/// Default piece size of the merge messages (`CAPE_MERGE_CHUNK`).
pub const DEFAULT_MERGE_CHUNK: usize = 1 << 20;

/// Which page tracker the user asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrackerChoice {
    /// The best one the kernel offers.
    Auto,
    Uffd,
    Mprotect,
}

/// How merge points move changed pages (`CAPE_MERGE`, docs/lazy-merge.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MergeMode {
    /// Every changed byte to every rank (the recursive-doubling allreduce).
    Eager,
    /// Pages with one writer stay at that rank and are fetched where they are read.
    Lazy,
    /// Per region, the one that made its instances faster (measured, `lazy::Auto`).
    Auto,
}

/// Whether the diff at a region's end is split over the rank's threads (`CAPE_SPLIT_DIFF`,
/// docs/hybrid.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SplitDiff {
    /// When the rank has a second thread, a core for it and enough written pages.
    Auto,
    /// Never.
    Off,
    /// Whenever the rank has a second thread, whatever the cores and the page count (tests).
    Always,
}

/// Which ranks' output is visible.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputMode {
    /// Sequential output from rank 0 only; region output from every rank.
    Rank0,
    /// Every rank's output everywhere (`CAPE_OUTPUT=all`).
    All,
}

/// What a region's write scope (the shared memory the compiler proved it can write) is used for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteScopeMode {
    /// Scan only the scope for written pages (`CAPE_WRITE_SCOPE=1`, the default).
    Scan,
    /// Scan all tracked memory (`0`).
    Ignore,
    /// Scan all tracked memory and report a changed page outside the scope (`check`).
    Check,
}

/// The default of `CAPE_KEEP_WRITABLE`: copying the kept pages into their twins at every
/// region begin and diffing them at every end must cost less than the protection changes it
/// spares, which holds while memory and twins stay in the cache (docs/tracker.md).
pub const KEEP_WRITABLE_PAGES: usize = 128;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    pub arena_base: u64,
    pub arena_size: u64,
    pub stack_base: u64,
    pub stack_size: u64,
    pub tracker: TrackerChoice,
    /// `CAPE_WP_ELISION`: pages changed in the last two regions stay writable (uffd tracker).
    pub wp_elision: bool,
    /// `CAPE_KEEP_WRITABLE`: at most this many pages stay writable between regions (uffd).
    pub keep_writable: usize,
    /// `CAPE_WRITE_SCOPE`: what the compiler's write scope of a region is used for.
    pub write_scope: WriteScopeMode,
    pub verbose: bool,
    pub check_races: bool,
    /// `CAPE_CHECK=divergence`: compare a hash of the shared state across ranks before every
    /// region.
    pub check_divergence: bool,
    /// `CAPE_STATS`: 0 off, 1 every rank's totals at exit, 2 also one line per region.
    pub stats: u8,
    pub output: OutputMode,
    /// `OMP_NUM_THREADS`: None when unset.
    pub num_threads: Option<u32>,
    /// `OMP_SCHEDULE` as (omp_sched_t kind: 1 static, 2 dynamic, 3 guided, 4 auto; chunk, 0 = none).
    pub schedule: Option<(i32, i32)>,
    /// Fault tolerance: None unless `CAPE_CHECKPOINT` or `CAPE_RESTART` is set.
    pub ft: Option<FtConfig>,
    /// `CAPE_MERGE_CHUNK`: merge messages go in pieces of this many bytes, so that receiving
    /// and merging overlap.
    pub merge_chunk: usize,
    /// `CAPE_MERGE`: eager, lazy (demand-driven) or auto.
    pub merge: MergeMode,
    /// `CAPE_CRITICAL_LOG`: bytes of log per cross-rank lock (the bytes written under it
    /// between two merge points, with 16 bytes per written run).
    pub critical_log: usize,
    /// `CAPE_CRITICAL_HEAP`: bytes of arena reserved for `malloc` inside such sections.
    pub critical_heap: usize,
    /// `CAPE_SPLIT_DIFF`: `auto`, `0` or `always`.
    pub split_diff: SplitDiff,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            arena_base: DEFAULT_ARENA_BASE,
            arena_size: DEFAULT_ARENA_SIZE,
            stack_base: DEFAULT_STACK_BASE,
            stack_size: DEFAULT_STACK_SIZE,
            tracker: TrackerChoice::Auto,
            wp_elision: true,
            keep_writable: KEEP_WRITABLE_PAGES,
            write_scope: WriteScopeMode::Scan,
            verbose: false,
            check_races: false,
            check_divergence: false,
            stats: 0,
            output: OutputMode::Rank0,
            num_threads: None,
            schedule: None,
            ft: None,
            merge_chunk: DEFAULT_MERGE_CHUNK,
            critical_log: DEFAULT_CRITICAL_LOG,
            critical_heap: DEFAULT_CRITICAL_HEAP,
            merge: MergeMode::Auto,
            split_diff: SplitDiff::Auto,
        }
    }
}

/// A bad environment variable value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

const PAGE: u64 = 4096;

impl Config {
    /// Reads the process environment.
    pub fn from_env() -> Result<Config, ConfigError> {
        Config::from_lookup(|name| std::env::var(name).ok())
    }

    /// Parses the configuration from `lookup(name) -> value`.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Config, ConfigError> {
        let mut cfg = Config::default();
        let get = |name: &str| lookup(name).filter(|v| !v.trim().is_empty());

        if let Some(v) = get("CAPE_ARENA_BASE") {
            cfg.arena_base = parse_page_aligned("CAPE_ARENA_BASE", &v)?;
        }
        if let Some(v) = get("CAPE_ARENA_SIZE") {
            cfg.arena_size = parse_page_aligned("CAPE_ARENA_SIZE", &v)?;
        }
        if let Some(v) = get("CAPE_STACK_BASE") {
            cfg.stack_base = parse_page_aligned("CAPE_STACK_BASE", &v)?;
        }
        if let Some(v) = get("CAPE_STACK_SIZE") {
            cfg.stack_size = parse_page_aligned("CAPE_STACK_SIZE", &v)?;
        }
        for (name, size) in [
            ("CAPE_ARENA_SIZE", cfg.arena_size),
            ("CAPE_STACK_SIZE", cfg.stack_size),
        ] {
            if size < 16 * PAGE {
                return Err(ConfigError(format!(
                    "`{name}` is too small ({size} bytes): give at least 64K"
                )));
            }
        }
        let arena = (cfg.arena_base, cfg.arena_base.checked_add(cfg.arena_size));
        let stack = (cfg.stack_base, cfg.stack_base.checked_add(cfg.stack_size));
        match (arena, stack) {
            ((_, None), _) => {
                return Err(ConfigError(
                    "`CAPE_ARENA_BASE` + `CAPE_ARENA_SIZE` overflows the address space: choose smaller values".into(),
                ))
            }
            (_, (_, None)) => {
                return Err(ConfigError(
                    "`CAPE_STACK_BASE` + `CAPE_STACK_SIZE` overflows the address space: choose smaller values".into(),
                ))
            }
            ((ab, Some(ae)), (sb, Some(se))) => {
                if ab < se && sb < ae {
                    return Err(ConfigError(format!(
                        "the arena [{ab:#x}, {ae:#x}) overlaps the stack [{sb:#x}, {se:#x}): change `CAPE_ARENA_BASE` or `CAPE_STACK_BASE`"
                    )));
                }
            }
        }

        if let Some(v) = get("CAPE_TRACKER") {
            cfg.tracker = match v.trim().to_ascii_lowercase().as_str() {
                "auto" => TrackerChoice::Auto,
                "uffd" | "userfaultfd" => TrackerChoice::Uffd,
                "mprotect" => TrackerChoice::Mprotect,
                other => {
                    return Err(ConfigError(format!(
                        "`CAPE_TRACKER={other}` is not a tracker: use `uffd`, `mprotect` or `auto`"
                    )))
                }
            };
        }
        if let Some(v) = get("CAPE_MERGE") {
            cfg.merge = match v.trim().to_ascii_lowercase().as_str() {
                "eager" => MergeMode::Eager,
                "lazy" => MergeMode::Lazy,
                "auto" => MergeMode::Auto,
                other => {
                    return Err(ConfigError(format!(
                        "`CAPE_MERGE={other}` is not a merge mode: use `eager`, `lazy` or `auto`"
                    )))
                }
            };
        }
        if let Some(v) = get("CAPE_SPLIT_DIFF") {
            cfg.split_diff = match v.trim().to_ascii_lowercase().as_str() {
                "auto" => SplitDiff::Auto,
                "always" => SplitDiff::Always,
                _ => match parse_bool("CAPE_SPLIT_DIFF", &v) {
                    Ok(false) => SplitDiff::Off,
                    _ => {
                        return Err(ConfigError(format!(
                            "`CAPE_SPLIT_DIFF={v}` is not a mode: use `auto`, `0` or `always`"
                        )))
                    }
                },
            };
        }
        if let Some(v) = get("CAPE_WP_ELISION") {
            cfg.wp_elision = parse_bool("CAPE_WP_ELISION", &v)?;
        }
        if let Some(v) = get("CAPE_KEEP_WRITABLE") {
            cfg.keep_writable = v
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|&n| n <= 1 << 20)
                .ok_or_else(|| {
                    ConfigError(format!(
                        "`CAPE_KEEP_WRITABLE={v}` is not a number of pages from 0 to 1048576"
                    ))
                })?;
        }
        if let Some(v) = get("CAPE_WRITE_SCOPE") {
            cfg.write_scope = match v.trim().to_ascii_lowercase().as_str() {
                "check" => WriteScopeMode::Check,
                _ => match parse_bool("CAPE_WRITE_SCOPE", &v) {
                    Ok(true) => WriteScopeMode::Scan,
                    Ok(false) => WriteScopeMode::Ignore,
                    Err(_) => {
                        return Err(ConfigError(format!(
                            "`CAPE_WRITE_SCOPE={v}` is not a mode: use `1`, `0` or `check`"
                        )))
                    }
                },
            };
        }
        if let Some(v) = get("CAPE_VERBOSE") {
            cfg.verbose = parse_bool("CAPE_VERBOSE", &v)?;
        }
        if let Some(v) = get("CAPE_STATS") {
            cfg.stats = match v.trim() {
                "2" => 2,
                other => u8::from(parse_bool("CAPE_STATS", other).map_err(|_| {
                    ConfigError(format!(
                        "`CAPE_STATS={v}` is not a statistics level: use `0` (off), `1` (totals at exit) or `2` (also one line per region)"
                    ))
                })?),
            };
        }
        if let Some(v) = get("CAPE_CHECK") {
            for item in v.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                match item.to_ascii_lowercase().as_str() {
                    "races" => cfg.check_races = true,
                    "divergence" => cfg.check_divergence = true,
                    "none" | "0" => {}
                    other => {
                        return Err(ConfigError(format!(
                            "`CAPE_CHECK` does not know the check `{other}`: use `races`, `divergence` or both (`races,divergence`)"
                        )))
                    }
                }
            }
        }
        if let Some(v) = get("CAPE_OUTPUT") {
            cfg.output = match v.trim().to_ascii_lowercase().as_str() {
                "all" => OutputMode::All,
                "rank0" | "0" | "default" => OutputMode::Rank0,
                other => {
                    return Err(ConfigError(format!(
                        "`CAPE_OUTPUT={other}` is not an output mode: use `all` or `rank0`"
                    )))
                }
            };
        }
        if let Some(v) = get("CAPE_MERGE_CHUNK") {
            cfg.merge_chunk = parse_size(&v)
                .filter(|&n| (1..=i32::MAX as u64).contains(&n))
                .ok_or_else(|| {
                    ConfigError(format!(
                        "`CAPE_MERGE_CHUNK={v}` is not a size from 1 byte to 2G - 1: use e.g. `256K` or `4M`"
                    ))
                })? as usize;
        }
        if let Some(v) = get("CAPE_CRITICAL_LOG") {
            cfg.critical_log = parse_size(&v)
                .filter(|&n| (4096..=1 << 30).contains(&n))
                .ok_or_else(|| {
                    ConfigError(format!(
                        "`CAPE_CRITICAL_LOG={v}` is not a size from 4K to 1G: use e.g. `4M`"
                    ))
                })? as usize;
        }
        if let Some(v) = get("CAPE_CRITICAL_HEAP") {
            cfg.critical_heap = parse_size(&v)
                .filter(|&n| (4096..=1 << 40).contains(&n))
                .ok_or_else(|| {
                    ConfigError(format!(
                        "`CAPE_CRITICAL_HEAP={v}` is not a size from 4K to 1T: use e.g. `64M`"
                    ))
                })? as usize;
        }
        if let Some(v) = get("OMP_NUM_THREADS") {
            // OpenMP allows a list for nested levels; only the first level matters here.
            let first = v.split(',').next().unwrap_or("").trim();
            match first.parse::<u32>() {
                Ok(n) if n > MAX_THREADS_PER_RANK => {
                    return Err(ConfigError(format!(
                        "`OMP_NUM_THREADS={v}` asks for more threads per rank than capert runs (at most {MAX_THREADS_PER_RANK}, more than any node has cores; the threads of a rank share its cores): give at most the node's cores, and more ranks (`-np`) for a bigger team"
                    )))
                }
                Ok(n) if n > 0 => cfg.num_threads = Some(n),
                _ => {
                    return Err(ConfigError(format!(
                        "`OMP_NUM_THREADS={v}` is not a positive integer: give a number like `4`"
                    )))
                }
            }
        }
        if let Some(v) = get("OMP_SCHEDULE") {
            cfg.schedule = Some(parse_schedule(&v).ok_or_else(|| {
                ConfigError(format!(
                    "`OMP_SCHEDULE={v}` is not a schedule: use `static`, `dynamic`, `guided` or `auto`, optionally followed by `,chunk`"
                ))
            })?);
        }
        cfg.ft = parse_ft(
            get("CAPE_CHECKPOINT"),
            get("CAPE_RESTART"),
            get("CAPE_CHECKPOINT_EVERY"),
        )?;
        if let Some(ft) = cfg.ft.as_mut() {
            ft.key_file = key_file(get("CAPE_KEY_FILE"), get("XDG_CONFIG_HOME"), get("HOME"));
            ft.compact = match get("CAPE_CHECKPOINT_COMPACT").as_deref().map(str::trim) {
                None => SNAPSHOTS,
                Some("1") => true,
                Some("0") => false,
                Some(v) => {
                    return Err(ConfigError(format!(
                        "`CAPE_CHECKPOINT_COMPACT={v}` is not 0 or 1"
                    )))
                }
            };
            let snapshots = ft.compact || !matches!(ft.every, Every::Regions(_));
            if snapshots && !SNAPSHOTS {
                return Err(ConfigError(
                    "snapshots of the shared state (`CAPE_CHECKPOINT_EVERY=auto` or a time, `CAPE_CHECKPOINT_COMPACT=1`) need the region call of x86-64, which keeps the caller's registers: use `CAPE_CHECKPOINT_EVERY=1` (every region logged) on this machine".into(),
                ));
            }
            if let Some(v) = get("CAPE_CHECKPOINT_BUFFER") {
                ft.buffer = v
                    .trim()
                    .parse::<usize>()
                    .ok()
                    .filter(|&m| m > 0 && m < 1 << 20)
                    .map(|m| m << 20)
                    .ok_or_else(|| {
                        ConfigError(format!(
                            "`CAPE_CHECKPOINT_BUFFER={v}` is not a size in MiB: use e.g. `256`"
                        ))
                    })?;
            }
            ft.kill_in_compaction =
                get("CAPE_CHECKPOINT_TEST_KILL").is_some_and(|v| v.trim() == "compaction");
            ft.layout = cape_format::log::Layout {
                arena_base: cfg.arena_base,
                arena_size: cfg.arena_size,
                stack_base: cfg.stack_base,
                stack_size: cfg.stack_size,
            };
        }
        Ok(cfg)
    }
}

fn parse_ft(
    checkpoint: Option<String>,
    restart: Option<String>,
    every: Option<String>,
) -> Result<Option<FtConfig>, ConfigError> {
    // snapshot mode by default where a snapshot holds the registers at the region call
    let every = match every {
        None if SNAPSHOTS => Every::Auto,
        None => Every::Regions(1),
        Some(v) => parse_every(&v).ok_or_else(|| {
            ConfigError(format!(
                "`CAPE_CHECKPOINT_EVERY={v}` is not a number of regions, a time or `auto`: use e.g. `10` or `2s` or `0.5s`"
            ))
        })?,
    };
    let (dir, restart) = match (checkpoint, restart) {
        (None, None) => return Ok(None),
        (Some(c), None) => (c, false),
        (None, Some(r)) => (r, true),
        (Some(c), Some(r)) => {
            if Path::new(c.trim()) != Path::new(r.trim()) {
                return Err(ConfigError(format!(
                    "`CAPE_CHECKPOINT={c}` and `CAPE_RESTART={r}` name different directories: a restart keeps logging into the directory it restarts from, so give only `CAPE_RESTART`"
                )));
            }
            (r, true)
        }
    };
    Ok(Some(FtConfig {
        dir: PathBuf::from(dir.trim()),
        restart,
        every,
        key_file: None,
        compact: false,
        buffer: DEFAULT_CHECKPOINT_BUFFER,
        kill_in_compaction: false,
        layout: Default::default(),
    }))
}

/// Where the checkpoint key lives: `CAPE_KEY_FILE`, else `capecc/checkpoint.key` in
/// `XDG_CONFIG_HOME` (if absolute), else in `HOME/.config`. Never in the checkpoint directory:
/// whoever can write a log must not be able to read the key that authenticates it.
pub fn key_file(
    explicit: Option<String>,
    xdg_config_home: Option<String>,
    home: Option<String>,
) -> Option<PathBuf> {
    if let Some(f) = explicit.filter(|f| !f.is_empty()) {
        return Some(PathBuf::from(f));
    }
    let config = match xdg_config_home.filter(|d| d.starts_with('/')) {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(home.filter(|h| h.starts_with('/'))?).join(".config"),
    };
    Some(config.join("capecc").join("checkpoint.key"))
}

/// `10` (regions, at least 1), `2s` / `0.5s` (seconds) or `auto`.
pub fn parse_every(text: &str) -> Option<Every> {
    let t = text.trim();
    if t == "auto" {
        return Some(Every::Auto);
    }
    if let Some(secs) = t.strip_suffix('s') {
        let secs: f64 = secs.trim().parse().ok()?;
        if !secs.is_finite() || !(0.0..=1e9).contains(&secs) {
            return None;
        }
        return Some(Every::Time(Duration::from_secs_f64(secs)));
    }
    t.parse::<u64>().ok().filter(|&n| n > 0).map(Every::Regions)
}

/// `omp_sched_monotonic`: the modifier bit of an `omp_sched_t` kind.
pub const SCHED_MONOTONIC: i32 = i32::MIN;

/// `OMP_SCHEDULE` syntax: `[modifier:]kind[,chunk]` -> (omp_sched_t kind, chunk), the values
/// libgomp gives `omp_get_schedule`: the `monotonic` bit set by `monotonic:` and for
/// `static` without `nonmonotonic:`; no chunk (or 0) is 0 for `static`, 1 for the others.
pub fn parse_schedule(text: &str) -> Option<(i32, i32)> {
    let text = text.trim().to_ascii_lowercase();
    let (modifier, text) = match text.split_once(':') {
        Some((m, rest)) => (Some(m.trim()), rest),
        None => (None, text.as_str()),
    };
    let (kind, chunk) = match text.split_once(',') {
        Some((k, c)) => (k.trim(), Some(c.trim())),
        None => (text.trim(), None),
    };
    let kind = match kind {
        "static" => 1,
        "dynamic" => 2,
        "guided" => 3,
        "auto" => 4,
        _ => return None,
    };
    let monotonic = match modifier {
        None => kind == 1,
        Some("monotonic") => true,
        Some("nonmonotonic") => false,
        Some(_) => return None,
    };
    let chunk = match chunk {
        Some(c) => c.parse::<i32>().ok().filter(|&c| c >= 0)?,
        None => 0,
    };
    let chunk = if kind == 1 { chunk } else { chunk.max(1) };
    Some((
        if monotonic {
            kind | SCHED_MONOTONIC
        } else {
            kind
        },
        chunk,
    ))
}

fn parse_bool(name: &str, value: &str) -> Result<bool, ConfigError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "1" | "yes" | "true" | "on" => Ok(true),
        "0" | "no" | "false" | "off" => Ok(false),
        _ => Err(ConfigError(format!(
            "`{name}={value}` is not a boolean: use `1` or `0`"
        ))),
    }
}

fn parse_page_aligned(name: &str, value: &str) -> Result<u64, ConfigError> {
    let n = parse_size(value).ok_or_else(|| {
        ConfigError(format!(
            "`{name}={value}` is not a size or address: use decimal or 0x hex, optionally with a K, M, G or T suffix"
        ))
    })?;
    if n % PAGE != 0 {
        return Err(ConfigError(format!(
            "`{name}={value}` is not a multiple of the page size (4096): round it"
        )));
    }
    Ok(n)
}

/// Parses `123`, `0x1f000`, `64K`, `256M`, `32G`, `1T` (binary multiples, case-insensitive,
/// optional trailing `B`/`iB`). None on anything else or on overflow.
pub fn parse_size(text: &str) -> Option<u64> {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    let (digits, radix) = match lower.strip_prefix("0x") {
        Some(hex) => (hex.to_string(), 16),
        None => (lower.clone(), 10),
    };
    let digits = digits.replace('_', "");
    let split = digits
        .find(|c: char| !c.is_digit(radix))
        .unwrap_or(digits.len());
    let (num, suffix) = digits.split_at(split);
    if num.is_empty() {
        return None;
    }
    let base = u64::from_str_radix(num, radix).ok()?;
    let shift = match suffix {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ => return None,
    };
    base.checked_mul(1u64 << shift)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn omp_schedule_syntax() {
        // libgomp's values: the monotonic bit, chunk 1 for the kinds but static
        assert_eq!(parse_schedule("dynamic,4"), Some((2, 4)));
        assert_eq!(parse_schedule(" Guided "), Some((3, 1)));
        assert_eq!(parse_schedule("static"), Some((1 | SCHED_MONOTONIC, 0)));
        assert_eq!(
            parse_schedule("monotonic:static, 2"),
            Some((1 | SCHED_MONOTONIC, 2))
        );
        assert_eq!(parse_schedule("nonmonotonic:static"), Some((1, 0)));
        assert_eq!(
            parse_schedule("monotonic:dynamic,2"),
            Some((2 | SCHED_MONOTONIC, 2))
        );
        assert_eq!(parse_schedule("auto"), Some((4, 1)));
        assert_eq!(parse_schedule("dynamic,0"), Some((2, 1)));
        assert_eq!(parse_schedule("dynamic,-1"), None);
        assert_eq!(parse_schedule("sometimes:dynamic"), None);
        assert_eq!(parse_schedule("fast"), None);
    }
    use std::collections::HashMap;

    fn cfg(pairs: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Config::from_lookup(|k| map.get(k).cloned())
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("4096"), Some(4096));
        assert_eq!(parse_size("0x200000000000"), Some(0x2000_0000_0000));
        assert_eq!(parse_size("0X1000"), Some(4096));
        assert_eq!(parse_size("64K"), Some(65536));
        assert_eq!(parse_size("256m"), Some(256 << 20));
        assert_eq!(parse_size("32G"), Some(32 << 30));
        assert_eq!(parse_size("1GiB"), Some(1 << 30));
        assert_eq!(parse_size("2T"), Some(2 << 40));
        assert_eq!(parse_size("1_000"), Some(1000));
        assert_eq!(parse_size(""), None);
        assert_eq!(parse_size("G"), None);
        assert_eq!(parse_size("12Q"), None);
        assert_eq!(parse_size("-5"), None);
        assert_eq!(parse_size("99999999999999999999"), None);
        assert_eq!(parse_size("16777216T"), None);
    }

    #[test]
    fn defaults() {
        let c = cfg(&[]).unwrap();
        assert_eq!(c, Config::default());
        assert_eq!(c.arena_base, 0x2000_0000_0000);
        assert_eq!(c.arena_size, 32 << 30);
        assert_eq!(c.merge_chunk, 1 << 20);
        assert_eq!(c.merge, MergeMode::Auto);
    }

    #[test]
    fn merge_modes() {
        for (v, mode) in [
            ("eager", MergeMode::Eager),
            ("LAZY", MergeMode::Lazy),
            (" auto ", MergeMode::Auto),
        ] {
            assert_eq!(cfg(&[("CAPE_MERGE", v)]).unwrap().merge, mode);
        }
    }

    #[test]
    fn split_diff_modes() {
        for (v, mode) in [
            ("auto", SplitDiff::Auto),
            ("0", SplitDiff::Off),
            (" Always", SplitDiff::Always),
        ] {
            assert_eq!(cfg(&[("CAPE_SPLIT_DIFF", v)]).unwrap().split_diff, mode);
        }
        assert_eq!(Config::default().split_diff, SplitDiff::Auto);
        assert!(cfg(&[("CAPE_SPLIT_DIFF", "1")]).is_err());
    }

    #[test]
    fn values() {
        let c = cfg(&[
            ("CAPE_ARENA_BASE", "0x300000000000"),
            ("CAPE_ARENA_SIZE", "1G"),
            ("CAPE_STACK_SIZE", "8M"),
            ("CAPE_TRACKER", "mprotect"),
            ("CAPE_WP_ELISION", "0"),
            ("CAPE_KEEP_WRITABLE", "0"),
            ("CAPE_VERBOSE", "1"),
            ("CAPE_CHECK", "races,divergence"),
            ("CAPE_STATS", "yes"),
            ("CAPE_OUTPUT", "all"),
            ("OMP_NUM_THREADS", "3,2"),
            ("CAPE_MERGE_CHUNK", "64K"),
            ("CAPE_WRITE_SCOPE", "check"),
        ])
        .unwrap();
        assert_eq!(c.merge_chunk, 64 << 10);
        assert_eq!(c.write_scope, WriteScopeMode::Check);
        assert_eq!(Config::default().write_scope, WriteScopeMode::Scan);
        let off = cfg(&[("CAPE_WRITE_SCOPE", "0")]).unwrap();
        assert_eq!(off.write_scope, WriteScopeMode::Ignore);
        assert_eq!(c.arena_base, 0x3000_0000_0000);
        assert_eq!(c.arena_size, 1 << 30);
        assert_eq!(c.stack_size, 8 << 20);
        assert_eq!(c.tracker, TrackerChoice::Mprotect);
        assert!(!c.wp_elision && Config::default().wp_elision);
        assert_eq!(c.keep_writable, 0);
        assert!(c.verbose && c.check_races && c.check_divergence);
        assert_eq!(c.stats, 1);
        assert_eq!(c.output, OutputMode::All);
        assert_eq!(c.num_threads, Some(3));
    }

    #[test]
    fn thread_count_is_bounded() {
        let most = MAX_THREADS_PER_RANK.to_string();
        assert_eq!(
            cfg(&[("OMP_NUM_THREADS", most.as_str())])
                .unwrap()
                .num_threads,
            Some(MAX_THREADS_PER_RANK)
        );
        let e = cfg(&[("OMP_NUM_THREADS", "100000")]).unwrap_err();
        assert!(
            e.0.starts_with("`OMP_NUM_THREADS=100000` asks for more threads per rank than capert runs (at most 1024,"),
            "{e}"
        );
    }

    #[test]
    fn stats_levels() {
        assert_eq!(cfg(&[("CAPE_STATS", "2")]).unwrap().stats, 2);
        assert_eq!(cfg(&[("CAPE_STATS", "0")]).unwrap().stats, 0);
        let e = cfg(&[("CAPE_STATS", "3")]).unwrap_err();
        assert_eq!(
            e.0,
            "`CAPE_STATS=3` is not a statistics level: use `0` (off), `1` (totals at exit) or `2` (also one line per region)"
        );
    }

    #[test]
    fn errors_name_the_variable() {
        for (k, v) in [
            ("CAPE_ARENA_BASE", "nowhere"),
            ("CAPE_ARENA_BASE", "0x1001"),
            ("CAPE_ARENA_SIZE", "4K"),
            ("CAPE_TRACKER", "magic"),
            ("CAPE_WP_ELISION", "sometimes"),
            ("CAPE_KEEP_WRITABLE", "all"),
            ("CAPE_WRITE_SCOPE", "narrow"),
            ("CAPE_VERBOSE", "maybe"),
            ("CAPE_CHECK", "everything"),
            ("CAPE_OUTPUT", "some"),
            ("OMP_NUM_THREADS", "0"),
            ("OMP_NUM_THREADS", "four"),
            ("CAPE_MERGE_CHUNK", "0"),
            ("CAPE_MERGE_CHUNK", "2G"),
            ("CAPE_MERGE_CHUNK", "lots"),
            ("CAPE_MERGE", "sometimes"),
        ] {
            let e = cfg(&[(k, v)]).unwrap_err();
            assert!(e.0.contains(k), "{e}");
            assert!(!e.0.ends_with('.'), "{e}");
        }
    }

    #[test]
    fn checkpoint_variables() {
        assert_eq!(cfg(&[]).unwrap().ft, None);
        let c = cfg(&[
            ("CAPE_CHECKPOINT", "/tmp/x"),
            ("CAPE_CHECKPOINT_EVERY", "5"),
        ])
        .unwrap();
        let ft = c.ft.unwrap();
        assert!(!ft.restart);
        assert_eq!(ft.dir, PathBuf::from("/tmp/x"));
        assert_eq!(ft.every, Every::Regions(5));
        let ft = cfg(&[("CAPE_RESTART", "d"), ("CAPE_CHECKPOINT", "d")])
            .unwrap()
            .ft
            .unwrap();
        assert!(ft.restart);
        assert_eq!(ft.every, Every::Auto);
        assert!(ft.compact);
        assert_eq!(parse_every(" auto"), Some(Every::Auto));
        assert_eq!(
            parse_every("0.5s"),
            Some(Every::Time(Duration::from_millis(500)))
        );
        assert_eq!(parse_every("2s"), Some(Every::Time(Duration::from_secs(2))));
        for bad in ["0", "x", "-1s", "s", "1.5"] {
            assert_eq!(parse_every(bad), None, "{bad}");
        }
        let e = cfg(&[("CAPE_RESTART", "a"), ("CAPE_CHECKPOINT", "b")]).unwrap_err();
        assert!(e.0.contains("CAPE_RESTART"), "{e}");
        let ft = cfg(&[
            ("CAPE_CHECKPOINT", "d"),
            ("CAPE_CHECKPOINT_BUFFER", "8"),
            ("CAPE_CHECKPOINT_COMPACT", "0"),
        ])
        .unwrap()
        .ft
        .unwrap();
        assert_eq!((ft.buffer, ft.compact), (8 << 20, false));
        for (k, v) in [
            ("CAPE_CHECKPOINT_BUFFER", "0"),
            ("CAPE_CHECKPOINT_COMPACT", "yes"),
        ] {
            let e = cfg(&[("CAPE_CHECKPOINT", "a"), (k, v)]).unwrap_err();
            assert!(e.0.contains(k), "{e}");
        }
        let e = cfg(&[("CAPE_CHECKPOINT", "a"), ("CAPE_CHECKPOINT_EVERY", "never")]).unwrap_err();
        assert!(e.0.contains("CAPE_CHECKPOINT_EVERY"), "{e}");
    }

    #[test]
    fn checkpoint_key_lives_outside_the_checkpoint_directory() {
        let s = |v: &str| Some(v.to_string());
        assert_eq!(
            key_file(s("/k/key"), s("/x"), s("/h")),
            Some(PathBuf::from("/k/key"))
        );
        assert_eq!(
            key_file(None, s("/x"), s("/h")),
            Some(PathBuf::from("/x/capecc/checkpoint.key"))
        );
        assert_eq!(
            key_file(s(""), s("relative"), s("/h")),
            Some(PathBuf::from("/h/.config/capecc/checkpoint.key"))
        );
        assert_eq!(key_file(None, None, None), None);
        let ft = cfg(&[("CAPE_CHECKPOINT", "d"), ("CAPE_KEY_FILE", "/s/k")])
            .unwrap()
            .ft
            .unwrap();
        assert_eq!(ft.key_file, Some(PathBuf::from("/s/k")));
    }

    #[test]
    fn overlap_and_overflow() {
        let e = cfg(&[("CAPE_ARENA_BASE", "0x100000000000")]).unwrap_err();
        assert!(e.0.contains("overlaps"), "{e}");
        let e = cfg(&[("CAPE_ARENA_BASE", "0xfffffffffffff000")]).unwrap_err();
        assert!(e.0.contains("overflows"), "{e}");
    }
}
