//! Spelling of directives and clauses, and which clause each directive accepts (OpenMP 4.5,
//! plus `parallel master` from 5.0, `masked` and `parallel masked` from 5.1, and 5.0's memory
//! orders, `order(concurrent)` and `nontemporal`).

use super::ast::{ClauseKind, DirectiveKind};

impl DirectiveKind {
    /// Every directive, in the order of the spec's chapters.
    pub const ALL: [DirectiveKind; 60] = {
        use DirectiveKind::*;
        [
            Parallel,
            For,
            ForSimd,
            Sections,
            Section,
            Single,
            Simd,
            DeclareSimd,
            Task,
            Taskloop,
            TaskloopSimd,
            Taskyield,
            TargetData,
            TargetEnterData,
            TargetExitData,
            Target,
            TargetUpdate,
            DeclareTarget,
            EndDeclareTarget,
            Teams,
            Distribute,
            DistributeSimd,
            DistributeParallelFor,
            DistributeParallelForSimd,
            TargetParallel,
            TargetParallelFor,
            TargetParallelForSimd,
            TargetSimd,
            TargetTeams,
            TeamsDistribute,
            TeamsDistributeSimd,
            TargetTeamsDistribute,
            TargetTeamsDistributeSimd,
            TeamsDistributeParallelFor,
            TargetTeamsDistributeParallelFor,
            TeamsDistributeParallelForSimd,
            TargetTeamsDistributeParallelForSimd,
            ParallelFor,
            ParallelForSimd,
            ParallelSections,
            Master,
            Masked,
            ParallelMaster,
            ParallelMasked,
            Critical,
            Barrier,
            Taskwait,
            Taskgroup,
            Atomic,
            Flush,
            Ordered,
            Cancel,
            CancellationPoint,
            Threadprivate,
            DeclareReduction,
            Loop,
            ParallelLoop,
            TeamsLoop,
            TargetTeamsLoop,
            TargetParallelLoop,
        ]
    };
}

impl ClauseKind {
    /// Every clause kind.
    pub const ALL: [ClauseKind; 58] = {
        use ClauseKind::*;
        [
            If,
            NumThreads,
            Default,
            Private,
            Firstprivate,
            Shared,
            Copyin,
            Reduction,
            ProcBind,
            Lastprivate,
            Linear,
            Schedule,
            Ordered,
            Nowait,
            Collapse,
            Copyprivate,
            Safelen,
            Simdlen,
            Aligned,
            Uniform,
            Inbranch,
            Notinbranch,
            Untied,
            Final,
            Mergeable,
            Depend,
            Priority,
            Grainsize,
            NumTasks,
            Nogroup,
            Device,
            Map,
            IsDevicePtr,
            UseDevicePtr,
            Defaultmap,
            NumTeams,
            ThreadLimit,
            DistSchedule,
            Hint,
            Threads,
            Simd,
            SeqCst,
            AcqRel,
            Acquire,
            Release,
            Relaxed,
            Read,
            Write,
            Update,
            Capture,
            To,
            From,
            Link,
            Filter,
            Order,
            Nontemporal,
            Bind,
            Initializer,
        ]
    };

    /// The clause name as written in a pragma, e.g. `num_threads`.
    pub fn name(self) -> &'static str {
        use ClauseKind::*;
        match self {
            If => "if",
            NumThreads => "num_threads",
            Default => "default",
            Private => "private",
            Firstprivate => "firstprivate",
            Shared => "shared",
            Copyin => "copyin",
            Reduction => "reduction",
            ProcBind => "proc_bind",
            Lastprivate => "lastprivate",
            Linear => "linear",
            Schedule => "schedule",
            Ordered => "ordered",
            Nowait => "nowait",
            Collapse => "collapse",
            Copyprivate => "copyprivate",
            Safelen => "safelen",
            Simdlen => "simdlen",
            Aligned => "aligned",
            Uniform => "uniform",
            Inbranch => "inbranch",
            Notinbranch => "notinbranch",
            Untied => "untied",
            Final => "final",
            Mergeable => "mergeable",
            Depend => "depend",
            Priority => "priority",
            Grainsize => "grainsize",
            NumTasks => "num_tasks",
            Nogroup => "nogroup",
            Device => "device",
            Map => "map",
            IsDevicePtr => "is_device_ptr",
            UseDevicePtr => "use_device_ptr",
            Defaultmap => "defaultmap",
            NumTeams => "num_teams",
            ThreadLimit => "thread_limit",
            DistSchedule => "dist_schedule",
            Hint => "hint",
            Threads => "threads",
            Simd => "simd",
            SeqCst => "seq_cst",
            AcqRel => "acq_rel",
            Acquire => "acquire",
            Release => "release",
            Relaxed => "relaxed",
            Read => "read",
            Write => "write",
            Update => "update",
            Capture => "capture",
            To => "to",
            From => "from",
            Link => "link",
            Filter => "filter",
            Order => "order",
            Nontemporal => "nontemporal",
            Bind => "bind",
            Initializer => "initializer",
        }
    }

    pub fn from_name(name: &str) -> Option<ClauseKind> {
        ClauseKind::ALL.iter().copied().find(|c| c.name() == name)
    }

    /// A data-sharing attribute clause: a variable may be in at most one of them per directive
    /// (except `firstprivate` together with `lastprivate`, and `linear` with `lastprivate`).
    pub fn is_data_sharing(self) -> bool {
        use ClauseKind::*;
        matches!(
            self,
            Private | Firstprivate | Lastprivate | Shared | Reduction | Linear
        )
    }

    /// Data-sharing clauses that give each thread its own copy of their variables.
    pub fn gives_private_copy(self) -> bool {
        use ClauseKind::*;
        matches!(
            self,
            Private | Firstprivate | Lastprivate | Reduction | Linear
        )
    }

    /// Clauses that may appear at most once on a directive. `if` is handled apart: once per
    /// directive-name modifier.
    pub fn is_unique(self) -> bool {
        use ClauseKind::*;
        !matches!(
            self,
            If | Private
                | Firstprivate
                | Lastprivate
                | Shared
                | Copyin
                | Copyprivate
                | Reduction
                | Linear
                | Aligned
                | Uniform
                | Depend
                | Map
                | IsDevicePtr
                | UseDevicePtr
                | To
                | From
                | Link
        )
    }
}

/// Clauses that exclude each other on one directive.
pub const MUTUALLY_EXCLUSIVE: [&[ClauseKind]; 4] = [
    &[
        ClauseKind::Read,
        ClauseKind::Write,
        ClauseKind::Update,
        ClauseKind::Capture,
    ],
    &[ClauseKind::Inbranch, ClauseKind::Notinbranch],
    &[ClauseKind::Grainsize, ClauseKind::NumTasks],
    // the copied values reach the other threads at the `single`'s closing barrier
    &[ClauseKind::Copyprivate, ClauseKind::Nowait],
];

/// Why a pair of `MUTUALLY_EXCLUSIVE` clauses cannot be used together, when it is not plain.
pub fn exclusion_help(a: ClauseKind, b: ClauseKind) -> Option<&'static str> {
    use ClauseKind::*;
    match (a, b) {
        (Copyprivate, Nowait) | (Nowait, Copyprivate) => Some(
            "help: remove `nowait`: `copyprivate` hands the values to the other threads at the \
             barrier that ends the `single`",
        ),
        _ => None,
    }
}

/// Name of each directive as a word sequence, used by the parser to match the longest name.
pub fn directive_from_words(words: &[&str]) -> Option<DirectiveKind> {
    DirectiveKind::ALL
        .iter()
        .copied()
        .find(|d| d.name().split(' ').eq(words.iter().copied()))
}

/// True when `words` begin (word by word) at least one directive name.
pub fn is_directive_prefix(words: &[&str]) -> bool {
    DirectiveKind::ALL.iter().any(|d| {
        let mut name = d.name().split(' ');
        words.iter().all(|w| name.next() == Some(*w))
    })
}

/// A set of clause kinds as a bit mask (there are fewer than 64 kinds).
#[derive(Clone, Copy)]
struct ClauseSet(u64);

impl ClauseSet {
    const fn of(kinds: &[ClauseKind]) -> ClauseSet {
        let mut bits = 0u64;
        let mut i = 0;
        while i < kinds.len() {
            bits |= 1 << (kinds[i] as u32);
            i += 1;
        }
        ClauseSet(bits)
    }

    const fn union(self, other: ClauseSet) -> ClauseSet {
        ClauseSet(self.0 | other.0)
    }

    const fn without(self, kind: ClauseKind) -> ClauseSet {
        ClauseSet(self.0 & !(1 << (kind as u32)))
    }

    fn contains(self, kind: ClauseKind) -> bool {
        self.0 & (1 << (kind as u32)) != 0
    }
}

mod sets {
    use super::ClauseSet;
    use crate::directive::ast::ClauseKind::*;

    pub const NONE: ClauseSet = ClauseSet::of(&[]);
    pub const PARALLEL: ClauseSet = ClauseSet::of(&[
        If,
        NumThreads,
        Default,
        Private,
        Firstprivate,
        Shared,
        Copyin,
        Reduction,
        ProcBind,
    ]);
    pub const FOR: ClauseSet = ClauseSet::of(&[
        Private,
        Firstprivate,
        Lastprivate,
        Linear,
        Reduction,
        Schedule,
        Collapse,
        Ordered,
        Nowait,
        Order,
    ]);
    pub const SECTIONS: ClauseSet =
        ClauseSet::of(&[Private, Firstprivate, Lastprivate, Reduction, Nowait]);
    pub const SINGLE: ClauseSet = ClauseSet::of(&[Private, Firstprivate, Copyprivate, Nowait]);
    pub const SIMD: ClauseSet = ClauseSet::of(&[
        Safelen,
        Simdlen,
        Linear,
        Aligned,
        Private,
        Lastprivate,
        Reduction,
        Collapse,
        Order,
        Nontemporal,
    ]);
    pub const DECLARE_SIMD: ClauseSet =
        ClauseSet::of(&[Simdlen, Linear, Aligned, Uniform, Inbranch, Notinbranch]);
    pub const TASK: ClauseSet = ClauseSet::of(&[
        If,
        Final,
        Untied,
        Default,
        Mergeable,
        Private,
        Firstprivate,
        Shared,
        Depend,
        Priority,
    ]);
    pub const TASKLOOP: ClauseSet = ClauseSet::of(&[
        If,
        Shared,
        Private,
        Firstprivate,
        Lastprivate,
        Default,
        Grainsize,
        NumTasks,
        Collapse,
        Final,
        Priority,
        Untied,
        Mergeable,
        Nogroup,
    ]);
    pub const TARGET_DATA: ClauseSet = ClauseSet::of(&[If, Device, Map, UseDevicePtr]);
    pub const TARGET_ENTER_EXIT_DATA: ClauseSet = ClauseSet::of(&[If, Device, Map, Depend, Nowait]);
    pub const TARGET: ClauseSet = ClauseSet::of(&[
        If,
        Device,
        Private,
        Firstprivate,
        Map,
        IsDevicePtr,
        Defaultmap,
        Nowait,
        Depend,
    ]);
    pub const TARGET_UPDATE: ClauseSet = ClauseSet::of(&[If, Device, To, From, Nowait, Depend]);
    pub const DECLARE_TARGET: ClauseSet = ClauseSet::of(&[To, Link]);
    pub const TEAMS: ClauseSet = ClauseSet::of(&[
        NumTeams,
        ThreadLimit,
        Default,
        Private,
        Firstprivate,
        Shared,
        Reduction,
    ]);
    pub const DISTRIBUTE: ClauseSet = ClauseSet::of(&[
        Private,
        Firstprivate,
        Lastprivate,
        Collapse,
        DistSchedule,
        Order,
    ]);
    pub const MASKED: ClauseSet = ClauseSet::of(&[Filter]);
    pub const CRITICAL: ClauseSet = ClauseSet::of(&[Hint]);
    pub const ATOMIC: ClauseSet = ClauseSet::of(&[
        Read, Write, Update, Capture, SeqCst, AcqRel, Acquire, Release, Relaxed,
    ]);
    pub const FLUSH: ClauseSet = ClauseSet::of(&[AcqRel, Acquire, Release]);
    pub const ORDERED: ClauseSet = ClauseSet::of(&[Threads, Simd, Depend]);
    pub const CANCEL: ClauseSet = ClauseSet::of(&[If]);
    pub const DECLARE_REDUCTION: ClauseSet = ClauseSet::of(&[Initializer]);
    pub const LOOP: ClauseSet =
        ClauseSet::of(&[Bind, Collapse, Order, Private, Lastprivate, Reduction]);

    // Combined constructs accept the union of their parts; `nowait` cannot be on a worksharing
    // construct combined with `parallel` (the region's end is the barrier), and `linear`/`ordered`
    // cannot be on a `distribute parallel for`.
    pub const FOR_SIMD: ClauseSet = FOR.union(SIMD);
    pub const TASKLOOP_SIMD: ClauseSet = TASKLOOP.union(SIMD);
    pub const PARALLEL_FOR: ClauseSet = PARALLEL.union(FOR).without(Nowait);
    pub const PARALLEL_FOR_SIMD: ClauseSet = PARALLEL_FOR.union(SIMD);
    pub const PARALLEL_SECTIONS: ClauseSet = PARALLEL.union(SECTIONS).without(Nowait);
    // `master` has no clauses, `masked` only `filter`
    pub const PARALLEL_MASKED: ClauseSet = PARALLEL.union(MASKED);
    pub const DISTRIBUTE_SIMD: ClauseSet = DISTRIBUTE.union(SIMD);
    pub const DISTRIBUTE_PARALLEL_FOR: ClauseSet = DISTRIBUTE
        .union(PARALLEL_FOR)
        .without(Linear)
        .without(Ordered);
    pub const DISTRIBUTE_PARALLEL_FOR_SIMD: ClauseSet =
        DISTRIBUTE_PARALLEL_FOR.union(SIMD).without(Ordered);
    pub const TARGET_PARALLEL: ClauseSet = TARGET.union(PARALLEL).without(Copyin);
    pub const TARGET_PARALLEL_FOR: ClauseSet = TARGET.union(PARALLEL_FOR).without(Copyin);
    pub const TARGET_PARALLEL_FOR_SIMD: ClauseSet = TARGET.union(PARALLEL_FOR_SIMD).without(Copyin);
    pub const TARGET_SIMD: ClauseSet = TARGET.union(SIMD);
    pub const TARGET_TEAMS: ClauseSet = TARGET.union(TEAMS);
    pub const TEAMS_DISTRIBUTE: ClauseSet = TEAMS.union(DISTRIBUTE);
    pub const TEAMS_DISTRIBUTE_SIMD: ClauseSet = TEAMS.union(DISTRIBUTE_SIMD);
    pub const TARGET_TEAMS_DISTRIBUTE: ClauseSet = TARGET.union(TEAMS_DISTRIBUTE);
    pub const TARGET_TEAMS_DISTRIBUTE_SIMD: ClauseSet = TARGET.union(TEAMS_DISTRIBUTE_SIMD);
    pub const TEAMS_DISTRIBUTE_PARALLEL_FOR: ClauseSet =
        TEAMS.union(DISTRIBUTE_PARALLEL_FOR).without(Copyin);
    pub const TARGET_TEAMS_DISTRIBUTE_PARALLEL_FOR: ClauseSet =
        TARGET.union(TEAMS_DISTRIBUTE_PARALLEL_FOR);
    pub const TEAMS_DISTRIBUTE_PARALLEL_FOR_SIMD: ClauseSet =
        TEAMS.union(DISTRIBUTE_PARALLEL_FOR_SIMD).without(Copyin);
    pub const TARGET_TEAMS_DISTRIBUTE_PARALLEL_FOR_SIMD: ClauseSet =
        TARGET.union(TEAMS_DISTRIBUTE_PARALLEL_FOR_SIMD);
    pub const PARALLEL_LOOP: ClauseSet = PARALLEL.union(LOOP);
    pub const TEAMS_LOOP: ClauseSet = TEAMS.union(LOOP);
    pub const TARGET_TEAMS_LOOP: ClauseSet = TARGET.union(TEAMS_LOOP);
    pub const TARGET_PARALLEL_LOOP: ClauseSet = TARGET.union(PARALLEL_LOOP).without(Copyin);
}

fn allowed_set(directive: DirectiveKind) -> ClauseSet {
    use sets::*;
    use DirectiveKind as D;
    match directive {
        D::Parallel => PARALLEL,
        D::For => FOR,
        D::ForSimd => FOR_SIMD,
        D::Sections => SECTIONS,
        D::Section => NONE,
        D::Single => SINGLE,
        D::Simd => SIMD,
        D::DeclareSimd => DECLARE_SIMD,
        D::Task => TASK,
        D::Taskloop => TASKLOOP,
        D::TaskloopSimd => TASKLOOP_SIMD,
        D::Taskyield => NONE,
        D::TargetData => TARGET_DATA,
        D::TargetEnterData | D::TargetExitData => TARGET_ENTER_EXIT_DATA,
        D::Target => TARGET,
        D::TargetUpdate => TARGET_UPDATE,
        D::DeclareTarget => DECLARE_TARGET,
        D::EndDeclareTarget => NONE,
        D::Teams => TEAMS,
        D::Distribute => DISTRIBUTE,
        D::DistributeSimd => DISTRIBUTE_SIMD,
        D::DistributeParallelFor => DISTRIBUTE_PARALLEL_FOR,
        D::DistributeParallelForSimd => DISTRIBUTE_PARALLEL_FOR_SIMD,
        D::TargetParallel => TARGET_PARALLEL,
        D::TargetParallelFor => TARGET_PARALLEL_FOR,
        D::TargetParallelForSimd => TARGET_PARALLEL_FOR_SIMD,
        D::TargetSimd => TARGET_SIMD,
        D::TargetTeams => TARGET_TEAMS,
        D::TeamsDistribute => TEAMS_DISTRIBUTE,
        D::TeamsDistributeSimd => TEAMS_DISTRIBUTE_SIMD,
        D::TargetTeamsDistribute => TARGET_TEAMS_DISTRIBUTE,
        D::TargetTeamsDistributeSimd => TARGET_TEAMS_DISTRIBUTE_SIMD,
        D::TeamsDistributeParallelFor => TEAMS_DISTRIBUTE_PARALLEL_FOR,
        D::TargetTeamsDistributeParallelFor => TARGET_TEAMS_DISTRIBUTE_PARALLEL_FOR,
        D::TeamsDistributeParallelForSimd => TEAMS_DISTRIBUTE_PARALLEL_FOR_SIMD,
        D::TargetTeamsDistributeParallelForSimd => TARGET_TEAMS_DISTRIBUTE_PARALLEL_FOR_SIMD,
        D::ParallelFor => PARALLEL_FOR,
        D::ParallelForSimd => PARALLEL_FOR_SIMD,
        D::ParallelSections => PARALLEL_SECTIONS,
        D::Master => NONE,
        D::Masked => MASKED,
        D::ParallelMaster => PARALLEL,
        D::ParallelMasked => PARALLEL_MASKED,
        D::Critical => CRITICAL,
        D::Barrier | D::Taskwait | D::Taskgroup => NONE,
        D::Atomic => ATOMIC,
        D::Flush => FLUSH,
        D::Ordered => ORDERED,
        D::Cancel => CANCEL,
        D::CancellationPoint => NONE,
        D::Threadprivate => NONE,
        D::DeclareReduction => DECLARE_REDUCTION,
        D::Loop => LOOP,
        D::ParallelLoop => PARALLEL_LOOP,
        D::TeamsLoop => TEAMS_LOOP,
        D::TargetTeamsLoop => TARGET_TEAMS_LOOP,
        D::TargetParallelLoop => TARGET_PARALLEL_LOOP,
    }
}

/// Which clauses a directive accepts, per the OpenMP 4.5 spec.
pub fn clause_allowed(directive: DirectiveKind, clause: ClauseKind) -> bool {
    allowed_set(directive).contains(clause)
}

/// The clauses `directive` accepts, in `ClauseKind::ALL` order.
pub fn allowed_clauses(directive: DirectiveKind) -> Vec<ClauseKind> {
    ClauseKind::ALL
        .iter()
        .copied()
        .filter(|&c| clause_allowed(directive, c))
        .collect()
}

/// Directive-name modifiers of the `if` clause.
pub const IF_MODIFIERS: [&str; 9] = [
    "parallel",
    "task",
    "taskloop",
    "target",
    "target data",
    "target enter data",
    "target exit data",
    "target update",
    "cancel",
];

/// Levenshtein distance, for "did you mean" help.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = substitution.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The closest candidate to `word`, if it is close enough to be a likely typo.
pub fn suggest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let len = word.chars().count();
    let limit = (len / 3).max(1);
    candidates
        .into_iter()
        // the distance is at least the length difference: skip those without computing it
        .filter(|c| c.len().abs_diff(len) <= limit)
        .map(|c| (edit_distance(word, c), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}
