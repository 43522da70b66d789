//! Process-wide runtime state, start-up and shutdown.
//!
//! Start-up order matters: the tracker (its SIGSEGV handler) before `MPI_Init`, so that Open
//! MPI's handler chains to ours rather than the other way round; the arena and the user stack
//! at their fixed addresses; then the output redirection of ranks other than 0.

use crate::arena::Arena;
use crate::config::{Config, MergeMode, TrackerChoice};
use crate::diag::eprint_line;
use crate::io::Io;
use crate::stats::Stats;
use crate::sys::mpi::Comm;
use crate::sys::raw::SameProgram;
use crate::sys::{bounds, mem};
use crate::track::{Tracker, TrackerKind, PAGE_SIZE};
use std::sync::atomic::{AtomicBool, Ordering};

pub struct Runtime {
    pub cfg: Config,
    pub comm: Option<Comm>,
    pub rank: usize,
    pub size: usize,
    pub tracker: Tracker,
    pub arena: Arena,
    /// Usable user stack `[stack_lo, stack_top)` (a guard page lies below `stack_lo`).
    pub stack_lo: usize,
    pub stack_top: usize,
    /// Lowest stack address handed to the tracker so far (`stack_top`: none).
    pub stack_tracked_lo: usize,
    /// Exact byte ranges of the user's globals (`cape_data`, `cape_bss`).
    pub globals: Vec<(usize, usize)>,
    pub io: Io,
    pub region_no: u64,
    /// Counters of the region in progress (begin's share).
    pub current: Stats,
    pub totals: Stats,
    /// Fault tolerance (`CAPE_CHECKPOINT` / `CAPE_RESTART`).
    pub ft: Option<crate::ft::Ft>,
    /// The demand-driven merge (`CAPE_MERGE=lazy`), when it is in use.
    pub lazy: Option<crate::lazy::Lazy>,
    /// Addresses in other ranks' merge records are ours (see [`SameProgram`]).
    pub same_program: SameProgram,
    /// The merge buffers, reused from merge point to merge point.
    pub exchange: crate::allreduce::Exchange,
    /// The pages written in the current epoch (reused).
    pub written_pages: Vec<usize>,
    /// The shared ranges of the current merge point (reused).
    pub shared_ranges: Vec<(usize, usize)>,
    /// The buffers of the diff's shares when it is split over the rank's threads.
    pub diff_shares: Vec<cape_format::changeset::Buf>,
    /// The current region's resolved write scope (page ranges, reused), valid while
    /// `write_scope_known`.
    pub write_scope: Vec<(usize, usize)>,
    pub write_scope_known: bool,
    finalized: bool,
    exit_status: i32,
}

/// Set once a fatal error is being reported, so that the exit hook does not try to finalise.
static DYING: AtomicBool = AtomicBool::new(false);

/// One clear line on stderr, then the whole job stops with status 1 (`MPI_Abort` when MPI
/// is up).
pub fn fatal(msg: &str) -> ! {
    DYING.store(true, Ordering::SeqCst);
    eprint_line(&format!("capert: error: {msg}"));
    crate::ft::record_error();
    crate::sys::mpi::abort_job(1)
}

/// An error every rank of a team finds at the same merge point: team rank 0 (world rank 0)
/// reports it and stops the job; the others wait for that, so that the line is printed once.
pub fn fatal_at_merge(rank: usize, msg: &str) -> ! {
    if rank != 0 {
        DYING.store(true, Ordering::SeqCst);
        // rank 0's MPI_Abort ends this process; the fallback only matters if rank 0 is gone
        std::thread::sleep(std::time::Duration::from_secs(30));
    }
    fatal(msg)
}

/// An error every rank meets at the same point (a refused log): rank 0 prints one line and
/// records it in the status file; every rank leaves MPI cleanly and exits with status 1.
pub fn stop_all(comm: Option<&mut Comm>, rank: usize, msg: &str) -> ! {
    DYING.store(true, Ordering::SeqCst);
    if rank == 0 {
        eprint_line(&format!("capert: error: {msg}"));
        crate::ft::record_error();
    }
    if let Some(comm) = comm {
        // rank 0 recorded `error` before any rank exits (see `shut_down`)
        comm.barrier();
        comm.finalize();
    }
    std::process::exit(1)
}

/// Start-up (everything before the user's `main`). Returns the runtime and the top of the
/// user's part of the stack (the command line and `main`'s frames go below it). `args`: the
/// program's command line, `argv[0..]` (it identifies a checkpoint log).
pub fn start_up(args: &[Vec<u8>], same_program: SameProgram) -> (Runtime, usize) {
    let entered = crate::ft::unix_now();
    std::panic::set_hook(Box::new(|info| {
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".to_string());
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        eprint_line(&format!("capert: internal error: {what}{at}"));
    }));
    crate::sys::mpi::prefer_local_pml();
    let cfg = Config::from_env().unwrap_or_else(|e| refuse_config(&e.0));
    let want = match cfg.tracker {
        TrackerChoice::Auto => None,
        TrackerChoice::Uffd => Some(TrackerKind::Uffd),
        TrackerChoice::Mprotect => Some(TrackerKind::Mprotect),
    };
    crate::sys::stack::install_alt_stack().unwrap_or_else(|e| fatal(&e));
    // failures every rank meets alike: one line for the job (`refuse_config`), not one a rank
    let (tracker, why) = Tracker::new(want).unwrap_or_else(|e| refuse_config(&e.to_string()));
    let arena = Arena::map(cfg.arena_base, cfg.arena_size).unwrap_or_else(|e| refuse_config(&e));
    if tracker.kind() == TrackerKind::Uffd {
        arena.allow_huge_pages();
    }
    let (stack_base, stack_size) = (cfg.stack_base as usize, cfg.stack_size as usize);
    mem::map_fixed(stack_base, stack_size, "user stack", "CAPE_STACK_BASE")
        .unwrap_or_else(|e| refuse_config(&e));
    mem::protect_none(stack_base, PAGE_SIZE).unwrap_or_else(|e| refuse_config(&e));
    let (stack_lo, stack_top) = (stack_base + PAGE_SIZE, stack_base + stack_size);

    // MPI_THREAD_SERIALIZED: the fetch thread of the demand-driven merge calls MPI while the
    // main thread waits, and the threads of a hybrid rank make one-sided calls one at a time
    let prefetch = cfg
        .ft
        .as_ref()
        .and_then(|ft_cfg| crate::ft::Prefetch::start(ft_cfg, args));
    let before_init = crate::ft::unix_now();
    let mut comm = Comm::init(true).unwrap_or_else(|e| fatal(&e));
    let after_init = crate::ft::unix_now();
    agree_on_settings(&cfg, &mut comm);
    if comm.rank() == 0 {
        for line in crate::omp_env::invalid_values(|name| std::env::var(name).ok()) {
            eprint_line(&format!("capert: warning: {line}"));
        }
    }
    comm.set_merge_chunk(cfg.merge_chunk);
    crate::sys::mpi_lock::open(&comm, cfg.critical_log).unwrap_or_else(|e| fatal(&e));
    let (rank, size) = (comm.rank(), comm.size());
    let io = Io::init(rank, cfg.output).unwrap_or_else(|e| fatal(&e));
    let ft = match &cfg.ft {
        None => None,
        Some(ft_cfg) => match crate::ft::Ft::start(ft_cfg, &comm, args, io.real_fds(), prefetch) {
            Ok(ft) => Some(ft),
            Err(e) => stop_all(Some(&mut comm), rank, &e),
        },
    };
    if ft.is_some() && cfg.stats >= 2 && rank == 0 {
        for (what, at) in [
            ("runtime start", &entered),
            ("MPI_Init begins", &before_init),
            ("MPI_Init done", &after_init),
        ] {
            eprint_line(&format!("capert: stats: ft: {what} at {at}"));
        }
        crate::ft::trace(cfg.stats, rank, "log open");
    }

    let mut tracker = tracker;
    tracker.set_write_fault_elision(cfg.wp_elision);
    tracker.set_kept_pages_max(cfg.keep_writable);
    if ft.as_ref().is_some_and(|f| f.rank0()) {
        tracker.record_dirty_pages();
    }
    let globals = bounds::user_global_sections();
    for (start, len) in page_hulls(&globals) {
        tracker
            .add_range(start, len)
            .unwrap_or_else(|e| fatal(&e.to_string()));
    }
    let lazy = start_lazy(&cfg, &comm, &mut tracker, &globals);
    if cfg.verbose && rank == 0 {
        eprint_line(&format!(
            "capert: {size} rank(s); tracker {} ({why}); arena {:#x}+{:#x}; stack {:#x}+{:#x}; globals {}",
            tracker.kind(),
            cfg.arena_base,
            cfg.arena_size,
            cfg.stack_base,
            cfg.stack_size,
            globals
                .iter()
                .map(|(s, e)| format!("{s:#x}..{e:#x}"))
                .collect::<Vec<_>>()
                .join(",")
        ));
    }
    let rt = Runtime {
        cfg,
        comm: Some(comm),
        rank,
        size,
        tracker,
        arena,
        stack_lo,
        stack_top,
        stack_tracked_lo: stack_top,
        globals,
        io,
        region_no: 0,
        current: Stats::default(),
        totals: Stats::default(),
        ft,
        lazy,
        same_program,
        exchange: Default::default(),
        written_pages: Vec::new(),
        shared_ranges: Vec::new(),
        diff_shares: Vec::new(),
        write_scope: Vec::new(),
        write_scope_known: false,
        finalized: false,
        exit_status: 0,
    };
    // 16-byte aligned top, minus room for the trampoline's frame.
    (rt, stack_top - crate::sys::stack::MAIN_TOP_GAP)
}

/// The command line the user's `main` receives, laid out at the top of the user stack as a
/// process's own `argv` lies at the top of its stack: rank 0's `argv` on every rank (one
/// process's threads see one), so that the strings are shared memory (the stack above a
/// region's stack pointer) at the same address on every rank and a region's writes through
/// `argv[i]` are merged. In the heap arena it would claim the arena's first megabyte in
/// programs that allocate nothing, which every scan, fingerprint and snapshot then covers.
pub struct CommandLine {
    pub argc: usize,
    /// Where the block goes: `argv` itself, then the strings.
    pub argv: usize,
    pub bytes: Vec<u8>,
}

impl CommandLine {
    /// The 16-byte aligned stack pointer `main` is called with: just below the block.
    pub fn main_top(&self) -> usize {
        self.argv
    }
}

/// The block for [`CommandLine`] just below `top` on the user stack. `own`: this rank's
/// `argv[0..]`. Collective. The environment stays where it is: every rank has its own (the
/// launcher's per-rank variables), and a relaunch has another (job ids), so in shared memory
/// it would differ between ranks and make every checkpoint's state unreproducible.
pub fn command_line(rt: &Runtime, own: &[Vec<u8>], top: usize) -> Result<CommandLine, String> {
    let mut strings: Vec<u8> = own
        .iter()
        .flat_map(|a| a.iter().copied().chain([0]))
        .collect();
    if let Some(comm) = rt.comm.as_ref() {
        comm.broadcast_from_root(&mut strings);
    }
    let args = split_strings(&strings);
    let len = argv_block_len(&args);
    // room for the program's own frames below it
    let room = rt.cfg.stack_size as usize / 2;
    let argv = top
        .checked_sub(len)
        .map(|at| at & !15)
        .filter(|&at| at >= rt.stack_lo + room)
        .ok_or_else(|| {
            format!(
                "the command line ({len} bytes) takes more than half of the user stack: set a larger `CAPE_STACK_SIZE`"
            )
        })?;
    Ok(CommandLine {
        argc: args.len(),
        argv,
        bytes: argv_block(argv, &args),
    })
}

/// NUL-terminated strings, one after another, as slices without their NULs.
fn split_strings(bytes: &[u8]) -> Vec<&[u8]> {
    match bytes.split_last() {
        Some((_, all)) => all.split(|&b| b == 0).collect(),
        None => Vec::new(),
    }
}

fn argv_block_len(args: &[&[u8]]) -> usize {
    (args.len() + 1) * std::mem::size_of::<usize>()
        + args.iter().map(|a| a.len() + 1).sum::<usize>()
}

/// The bytes of an `argv` block at `base`: `argc + 1` pointers (`argv[argc]` is null), then
/// the strings they point to, each NUL-terminated.
fn argv_block(base: usize, args: &[&[u8]]) -> Vec<u8> {
    let word = std::mem::size_of::<usize>();
    let mut pointers = Vec::with_capacity(argv_block_len(args));
    let mut strings = Vec::new();
    let mut at = base + (args.len() + 1) * word;
    for a in args {
        pointers.extend_from_slice(&at.to_ne_bytes());
        strings.extend_from_slice(a);
        strings.push(0);
        at += a.len() + 1;
    }
    pointers.extend_from_slice(&0usize.to_ne_bytes());
    pointers.append(&mut strings);
    pointers
}

/// `CAPE_MERGE=lazy` or `auto`: the demand-driven merge over the globals and the arena, or
/// None (`lazy`: with one warning line from rank 0 saying why the merge stays eager).
fn start_lazy(
    cfg: &Config,
    comm: &Comm,
    tracker: &mut Tracker,
    globals: &[(usize, usize)],
) -> Option<crate::lazy::Lazy> {
    if !lazy_merge_wanted(cfg) || comm.size() == 1 {
        return None;
    }
    let auto = cfg.merge == MergeMode::Auto;
    // Several threads per rank: their regions fetch the invalid pages first and merge eagerly
    // (`region/threads.rs::validate_shared`), the regions of one thread per rank may merge
    // on demand. `auto` does not start the engine then: the default team is hybrid, so its
    // start-up and served buffers would buy nothing.
    let here = if auto && cfg.num_threads.is_some_and(|t| t > 1) {
        Some("the regions run several threads per rank")
    } else if !comm.serialized {
        Some("MPI does not provide `MPI_THREAD_SERIALIZED`, which the fetch thread needs")
    } else {
        None
    };
    // Agreed on (every rank has the demand-driven merge or none): with it, every region
    // begin may be a collective decision and every merge point may exchange notices, so a
    // rank without it would leave the others waiting (its environment or MPI may differ).
    let refused = comm.all_sum(u64::from(here.is_some())) > 0;
    let why = if refused {
        here.unwrap_or(
            "another rank cannot use it (several threads per rank, or no `MPI_THREAD_SERIALIZED`)",
        )
        .to_string()
    } else {
        let mut spans = page_hulls(globals);
        spans.push((cfg.arena_base as usize, cfg.arena_size as usize));
        match crate::lazy::Lazy::start(comm, tracker, &spans, auto) {
            Ok(lazy) => return Some(lazy),
            Err(e) => e,
        }
    };
    // `auto` falls back without a word: the eager merge is what it would choose anyway
    if comm.rank() == 0 && !auto {
        eprint_line(&format!(
            "capert: warning: `CAPE_MERGE=lazy` is not available: {why}; merging eagerly"
        ));
    }
    None
}

/// Every rank must run with the settings that decide the work split, the addresses of shared
/// memory and the collectives (`settings.rs`): one exchange at start-up, and a difference is
/// one line from rank 0 before anything else could hang or go wrong. A rank that could not
/// read its settings (`refuse_config`) takes part in the same exchange with its error: every
/// rank then stops, rank 0 printing the error once.
fn agree_on_settings(cfg: &Config, comm: &mut Comm) {
    if comm.size() == 1 {
        return;
    }
    let mine = crate::settings::encode(&crate::settings::shared_settings(cfg));
    let all = comm.all_gather_bytes(&mine);
    if let Some(msg) = crate::settings::refused(&all) {
        stop_at_start(comm, &msg);
    }
    if let Some(msg) = crate::settings::first_difference(&all) {
        fatal_at_merge(comm.rank(), &msg);
    }
}

/// A `CAPE_*`/`OMP_*` value this rank cannot use (or memory it cannot map where the settings
/// put it): one line for the job, not one per rank. MPI
/// is started only to take part in the start-up exchange of the settings (every rank that
/// read its settings is on its way there) and to leave it cleanly: rank 0 prints the error
/// (its own, else the first rank's that has one), every rank exits with status 1.
fn refuse_config(msg: &str) -> ! {
    let mut comm = Comm::init(true).unwrap_or_else(|_| fatal(msg));
    if comm.size() == 1 {
        stop_at_start(&mut comm, msg);
    }
    let all = comm.all_gather_bytes(&crate::settings::encode_refusal(msg));
    let first = crate::settings::refused(&all).unwrap_or_else(|| msg.to_string());
    stop_at_start(&mut comm, &first)
}

/// `stop_all` before the log was opened: rank 0 also records `error` in the checkpoint
/// directory's status, when there is one (caperun then does not relaunch).
fn stop_at_start(comm: &mut Comm, msg: &str) -> ! {
    let rank = comm.rank();
    if rank == 0 {
        crate::ft::record_error_at_start();
    }
    stop_all(Some(comm), rank, msg)
}

/// May the demand-driven merge run? `lazy` always, `auto` too (with a checkpoint log rank 0
/// fetches what the others publish, and the log holds the eager merge's bytes).
fn lazy_merge_wanted(cfg: &Config) -> bool {
    cfg.merge != MergeMode::Eager
}

/// Page-aligned hulls of byte ranges, merged where they touch.
pub fn page_hulls(ranges: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut hulls: Vec<(usize, usize)> = Vec::new();
    for &(s, e) in ranges {
        let (lo, hi) = (s & !(PAGE_SIZE - 1), (e + PAGE_SIZE - 1) & !(PAGE_SIZE - 1));
        match hulls.last_mut() {
            Some(last) if lo <= last.1 => last.1 = last.1.max(hi),
            _ => hulls.push((lo, hi)),
        }
    }
    hulls.into_iter().map(|(lo, hi)| (lo, hi - lo)).collect()
}

/// Shutdown: flush, agree on rank 0's exit status, print statistics, `MPI_Finalize`.
/// Idempotent (also run by the exit hook). Returns rank 0's status. `rt`: None before
/// start-up, or when `exit()` was called while the runtime state was in use.
pub fn shut_down(rt: Option<&mut Runtime>, status: i32) -> i32 {
    if DYING.load(Ordering::SeqCst) {
        return status;
    }
    if crate::arena::in_active_region() {
        // `exit()` inside a parallel region ends the whole OpenMP process; here the other
        // ranks are still in the region (a collective shutdown would wait for them forever),
        // so the job stops now with this status
        DYING.store(true, Ordering::SeqCst);
        if let Some(rt) = rt.as_ref() {
            rt.io.release_printed();
        }
        crate::sys::mpi::abort_job(status);
    }
    let Some(rt) = rt else {
        return status;
    };
    if rt.finalized {
        return rt.exit_status;
    }
    rt.finalized = true;
    rt.io.flush();
    let mut log_error = None;
    if let Some(ft) = rt.ft.as_mut() {
        if ft.rank0() {
            log_error = ft.finish().err();
        }
    }
    // Rank 0's status, and whether rank 0 prints statistics: every rank must then take part in
    // gathering them, even one whose environment lacks CAPE_STATS (a remote node).
    let mut status_bytes = status.to_le_bytes().to_vec();
    status_bytes.push(rt.cfg.stats);
    if let Some(comm) = rt.comm.as_mut() {
        comm.broadcast_from_root(&mut status_bytes);
    }
    let root_status = status_bytes
        .get(..4)
        .and_then(|b| b.try_into().ok())
        .map_or(status, i32::from_le_bytes);
    if let Some(lazy) = rt.lazy.as_mut() {
        // the fetches of the sequential code after the last region
        let (pages, waited) = lazy.take_fetch_counts();
        rt.totals.lazy_fetched += pages;
        rt.totals.t_fetch += waited;
    }
    if status_bytes.get(4).is_some_and(|&stats| stats >= 1) {
        print_every_ranks_totals(rt);
    }
    if rt.ft.as_ref().is_some_and(|f| f.rank0()) {
        crate::ft::output::finish(false);
        let status = match &log_error {
            Some(e) => {
                eprint_line(&format!("capert: error: {e}"));
                "error\n".to_string()
            }
            None => format!("exit {root_status}\n"),
        };
        if let Err(e) = crate::ft::write_status(&status) {
            eprint_line(&format!("capert: error: {e}"));
        }
    }
    if let Some(comm) = rt.comm.as_mut() {
        // no rank exits before `DIR/status` exists: caperun takes a rank gone without it for
        // a failure at once (MPI_Finalize need not be a barrier)
        comm.barrier();
        comm.finalize();
    }
    rt.exit_status = root_status;
    root_status
}

/// One `capert: stats: total:` line per rank, printed by rank 0 in rank order, so that an
/// imbalance between ranks shows. Collective.
fn print_every_ranks_totals(rt: &Runtime) {
    let mine = rt.totals.line("total", Some(rt.rank));
    let lines = match rt.comm.as_ref() {
        Some(comm) => comm.all_gather_bytes(mine.as_bytes()),
        None => vec![mine.into_bytes()],
    };
    if rt.rank == 0 {
        for line in lines {
            eprint_line(&String::from_utf8_lossy(&line));
        }
    }
}

/// The name of the user global holding `addr`, as " (in `name`)", when the executable's
/// symbol table is readable; empty otherwise.
pub fn describe_address(rt: &Runtime, addr: usize) -> String {
    if rt.globals.iter().any(|&(s, e)| addr >= s && addr < e) {
        if let Some(name) = crate::symbols::global_name(addr) {
            return format!(" (in `{name}`)");
        }
        " (a global variable)".to_string()
    } else if rt.arena.contains(addr) {
        " (heap)".to_string()
    } else if addr >= rt.stack_lo && addr < rt.stack_top {
        " (stack)".to_string()
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argv_block_holds_pointers_then_strings() {
        let strings = b"./prog\0abc\0\0x\0";
        let args = split_strings(strings);
        assert_eq!(args, [&b"./prog"[..], b"abc", b"", b"x"]);
        let base = 0x1000;
        let block = argv_block(base, &args);
        assert_eq!(block.len(), argv_block_len(&args));
        let word = |i: usize| usize::from_ne_bytes(block[i * 8..i * 8 + 8].try_into().unwrap());
        assert_eq!(word(4), 0, "argv[argc] is null");
        for (i, a) in args.iter().enumerate() {
            let at = word(i) - base;
            assert_eq!(&block[at..at + a.len()], *a);
            assert_eq!(block[at + a.len()], 0);
        }
        assert!(split_strings(b"").is_empty());
        assert_eq!(argv_block(base, &[]), vec![0; 8]);
    }

    #[test]
    fn hulls() {
        assert_eq!(
            page_hulls(&[(0x1010, 0x1020), (0x1ff0, 0x2100), (0x5000, 0x5001)]),
            vec![(0x1000, 0x2000), (0x5000, 0x1000)]
        );
        assert!(page_hulls(&[]).is_empty());
    }
}
