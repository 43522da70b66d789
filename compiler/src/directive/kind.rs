//! What each kind of directive is, in one place: the lowering, the placement rules and the
//! nesting rules all ask these questions instead of listing kinds themselves.

use super::{ClauseKind, Directive, DirectiveKind};

impl DirectiveKind {
    /// A worksharing construct (or a `section` of one), as OpenMP's nesting rules mean it.
    pub fn is_worksharing(self) -> bool {
        use DirectiveKind::*;
        self.is_host_parallel_loop()
            || matches!(
                self,
                For | ForSimd
                    | Loop
                    | ParallelFor
                    | ParallelForSimd
                    | ParallelLoop
                    | Sections
                    | ParallelSections
                    | Section
                    | Single
            )
    }

    /// A loop construct: its statement is a `for` loop whose iterations are divided.
    pub fn is_loop(self) -> bool {
        use DirectiveKind::*;
        self.is_host_parallel_loop()
            || matches!(self, For | ForSimd | ParallelFor | ParallelForSimd)
    }

    /// A directive whose statement is a loop nest in canonical form, whether its iterations are
    /// shared (`for`, `loop`) or run in order by one thread (`simd`, `taskloop`, `distribute`).
    pub fn is_loop_associated(self) -> bool {
        use DirectiveKind::*;
        self.is_loop()
            || self.is_host_sequential_loop()
            || matches!(self, Simd | Loop | ParallelLoop | Taskloop | TaskloopSimd)
    }

    /// `parallel` alone or combined with a worksharing construct or a `master`/`masked`
    /// block: the statement is outlined.
    pub fn is_parallel(self) -> bool {
        use DirectiveKind::*;
        self.is_host_parallel_loop()
            || matches!(
                self,
                Parallel
                    | ParallelFor
                    | ParallelForSimd
                    | ParallelLoop
                    | ParallelSections
                    | TargetParallel
                    | ParallelMaster
                    | ParallelMasked
            )
    }

    /// `parallel for` and `parallel sections`: a region and a worksharing construct in one.
    /// Not `parallel master`/`parallel masked`: every clause but `filter` is the parallel's.
    pub fn is_combined_parallel(self) -> bool {
        use DirectiveKind::*;
        self.is_parallel()
            && !matches!(
                self,
                Parallel | TargetParallel | ParallelMaster | ParallelMasked
            )
    }

    /// A block only the master thread (or the `filter` thread) of the team runs: `master`,
    /// `masked`, and the whole block of `parallel master`/`parallel masked`.
    pub fn is_master_block(self) -> bool {
        use DirectiveKind::*;
        matches!(self, Master | Masked | ParallelMaster | ParallelMasked)
    }

    /// Device constructs whose parallel part is a `parallel for` on the host (their `target`,
    /// `teams` and `distribute` parts are a league of one team running on the encountering
    /// thread, lower/device.rs).
    pub fn is_host_parallel_loop(self) -> bool {
        use DirectiveKind::*;
        matches!(
            self,
            TargetParallelFor
                | TargetParallelForSimd
                | DistributeParallelFor
                | DistributeParallelForSimd
                | TeamsDistributeParallelFor
                | TeamsDistributeParallelForSimd
                | TargetTeamsDistributeParallelFor
                | TargetTeamsDistributeParallelForSimd
                | TeamsLoop
                | TargetTeamsLoop
                | TargetParallelLoop
        )
    }

    /// Device constructs that run their block (or loop, whole) on the encountering thread:
    /// a target region on the host, a league of one team, its `distribute` loop.
    pub fn is_host_block(self) -> bool {
        use DirectiveKind::*;
        matches!(
            self,
            Target
                | TargetData
                | TargetTeams
                | Teams
                | TargetSimd
                | Distribute
                | DistributeSimd
                | TeamsDistribute
                | TeamsDistributeSimd
                | TargetTeamsDistribute
                | TargetTeamsDistributeSimd
        )
    }

    /// A `target` construct, alone or combined: scalars it writes without a `map` are
    /// firstprivate (OpenMP's default), so the original keeps its value.
    pub fn is_target(self) -> bool {
        self.name().starts_with("target") && !matches!(self, DirectiveKind::TargetData)
    }

    /// A `distribute` loop whose iterations all run on the one team (no parallel part).
    pub fn is_host_sequential_loop(self) -> bool {
        self.is_host_block() && self.name().contains("distribute")
            || self == DirectiveKind::TargetSimd
    }

    /// Constructs that take their statement directly: no other directive may stand between
    /// the pragma and the statement (an ignored `simd` aside).
    pub fn takes_statement_directly(self) -> bool {
        use DirectiveKind::*;
        self.is_loop() || matches!(self, Sections | ParallelSections | Atomic | Critical)
    }

    /// Directives that declare something rather than run: allowed at file scope.
    pub fn is_declarative(self) -> bool {
        use DirectiveKind::*;
        matches!(
            self,
            Threadprivate | DeclareSimd | DeclareReduction | DeclareTarget | EndDeclareTarget
        )
    }
}

impl Directive {
    /// Executable directives that are not followed by a statement of their own.
    pub fn is_stand_alone(&self) -> bool {
        use DirectiveKind::*;
        match self.kind {
            Barrier | Flush | Taskwait | Taskyield | Cancel | CancellationPoint | TargetUpdate
            | TargetEnterData | TargetExitData => true,
            Ordered => self.clauses.iter().any(|c| c.kind == ClauseKind::Depend),
            _ => false,
        }
    }

    /// A construct: a directive with a structured block (its statement).
    pub fn is_construct(&self) -> bool {
        !self.is_stand_alone() && !self.kind.is_declarative()
    }
}
