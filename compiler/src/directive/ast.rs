//! The OpenMP directive syntax tree. Expressions stay as spans of the preprocessed text: the
//! translator copies (and rewrites) their text, it never needs to understand them here.

use crate::diag::Span;

/// Every OpenMP 4.5 C directive (plus `parallel master` from 5.0, `masked` and `parallel
/// masked` from 5.1), combined forms included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DirectiveKind {
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
    /// `parallel master`, `parallel masked [filter(expr)]`: a `parallel` whose block is one
    /// `master`/`masked` block
    ParallelMaster,
    ParallelMasked,
    /// `critical [(name)] [hint(expr)]`
    Critical,
    Barrier,
    Taskwait,
    Taskgroup,
    /// `atomic [read|write|update|capture] [seq_cst]`; the kind is a clause
    Atomic,
    /// `flush [(list)]`
    Flush,
    /// `ordered` construct (block or stand-alone with `depend`)
    Ordered,
    /// `cancel construct-type [[,] if(expr)]`
    Cancel,
    /// `cancellation point construct-type`
    CancellationPoint,
    /// `threadprivate(list)`
    Threadprivate,
    /// `declare reduction(id : type-list : combiner) [initializer(...)]`
    DeclareReduction,
    /// OpenMP 5.0's `loop` and its combined forms
    Loop,
    ParallelLoop,
    TeamsLoop,
    TargetTeamsLoop,
    TargetParallelLoop,
}

impl DirectiveKind {
    /// The directive name as written in a pragma, e.g. `parallel for`.
    pub fn name(self) -> &'static str {
        use DirectiveKind::*;
        match self {
            Parallel => "parallel",
            For => "for",
            ForSimd => "for simd",
            Sections => "sections",
            Section => "section",
            Single => "single",
            Simd => "simd",
            DeclareSimd => "declare simd",
            Task => "task",
            Taskloop => "taskloop",
            TaskloopSimd => "taskloop simd",
            Taskyield => "taskyield",
            TargetData => "target data",
            TargetEnterData => "target enter data",
            TargetExitData => "target exit data",
            Target => "target",
            TargetUpdate => "target update",
            DeclareTarget => "declare target",
            EndDeclareTarget => "end declare target",
            Teams => "teams",
            Distribute => "distribute",
            DistributeSimd => "distribute simd",
            DistributeParallelFor => "distribute parallel for",
            DistributeParallelForSimd => "distribute parallel for simd",
            TargetParallel => "target parallel",
            TargetParallelFor => "target parallel for",
            TargetParallelForSimd => "target parallel for simd",
            TargetSimd => "target simd",
            TargetTeams => "target teams",
            TeamsDistribute => "teams distribute",
            TeamsDistributeSimd => "teams distribute simd",
            TargetTeamsDistribute => "target teams distribute",
            TargetTeamsDistributeSimd => "target teams distribute simd",
            TeamsDistributeParallelFor => "teams distribute parallel for",
            TargetTeamsDistributeParallelFor => "target teams distribute parallel for",
            TeamsDistributeParallelForSimd => "teams distribute parallel for simd",
            TargetTeamsDistributeParallelForSimd => "target teams distribute parallel for simd",
            ParallelFor => "parallel for",
            ParallelForSimd => "parallel for simd",
            ParallelSections => "parallel sections",
            Master => "master",
            Masked => "masked",
            ParallelMaster => "parallel master",
            ParallelMasked => "parallel masked",
            Critical => "critical",
            Barrier => "barrier",
            Taskwait => "taskwait",
            Taskgroup => "taskgroup",
            Atomic => "atomic",
            Flush => "flush",
            Ordered => "ordered",
            Cancel => "cancel",
            CancellationPoint => "cancellation point",
            Threadprivate => "threadprivate",
            DeclareReduction => "declare reduction",
            Loop => "loop",
            ParallelLoop => "parallel loop",
            TeamsLoop => "teams loop",
            TargetTeamsLoop => "target teams loop",
            TargetParallelLoop => "target parallel loop",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClauseKind {
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
    /// OpenMP 5.0 memory orders on `atomic` and `flush`
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
    /// `order(concurrent)` (OpenMP 5.0) on loops
    Order,
    /// `nontemporal(list)` (OpenMP 5.0) on `simd`
    Nontemporal,
    /// `bind(teams|parallel|thread)` (OpenMP 5.0) on `loop`
    Bind,
    /// `initializer(...)` of `declare reduction`
    Initializer,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReductionOp {
    Add,
    Mul,
    Sub,
    BitAnd,
    BitOr,
    BitXor,
    LogAnd,
    LogOr,
    Max,
    Min,
    /// a user-defined reduction identifier (`declare reduction`); not lowered
    Custom,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScheduleKind {
    Static,
    Dynamic,
    Guided,
    Runtime,
    Auto,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefaultKind {
    Shared,
    None,
}

/// One item of a variable list: an identifier, or (for `map`, `depend`, ...) an array section
/// whose text is kept as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListItem {
    pub name: String,
    /// the identifier only
    pub name_span: Span,
    /// the whole item, e.g. `a[0:n]`
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClauseArgs {
    /// `nowait`, `untied`, `seq_cst`, `read`, ...
    None,
    /// `if(expr)`, `num_threads(expr)`, `collapse(n)`, `final(e)`, `hint(e)`, ... The span covers
    /// the expression text only. `if` may carry a directive-name modifier.
    Expr {
        expr: Span,
        modifier: Option<String>,
    },
    /// `private(a, b)`, `shared(...)`, `copyin(...)`, `uniform(...)`, `flush(...)`, ...
    List(Vec<ListItem>),
    Default(DefaultKind),
    Reduction {
        op: ReductionOp,
        op_span: Span,
        items: Vec<ListItem>,
    },
    /// `schedule([modifier[, modifier]:] kind [, chunk])`
    Schedule {
        kind: ScheduleKind,
        modifiers: Vec<String>,
        chunk: Option<Span>,
    },
    /// `linear(list [: step])`, `aligned(list [: n])`
    ListWithExpr {
        items: Vec<ListItem>,
        expr: Option<Span>,
    },
    /// `ordered` without argument is `None`; `ordered(n)` is `Expr`.
    /// Anything else kept as raw text: `proc_bind(close)`, `depend(in: a)`, `map(to: a[0:n])`,
    /// `defaultmap(tofrom: scalar)`, `dist_schedule(static, 4)`, `initializer(...)`.
    Raw {
        text: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clause {
    pub kind: ClauseKind,
    /// the whole clause, from its name to its closing parenthesis
    pub span: Span,
    pub args: ClauseArgs,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Directive {
    pub kind: DirectiveKind,
    /// the whole pragma line, from `#` to its end
    pub span: Span,
    /// the directive name words (`parallel for`)
    pub name_span: Span,
    pub clauses: Vec<Clause>,
    /// `critical(name)` name; `flush(list)` and `threadprivate(list)` put their lists here too
    pub name_arg: Option<String>,
    pub list_arg: Vec<ListItem>,
}
