//! The program's memory as the end of an epoch sees it, so that the exchange (inject, restore,
//! apply records) runs the same code on the real program and, in the in-process tests, on a
//! simulated memory per rank.

use crate::inject::Target;
use crate::runtime::Runtime;

pub(super) trait Memory: Target {
    /// Writes an atomically updated variable back to its value before the epoch.
    fn restore(&mut self, addr: usize, bytes: &[u8]);
    /// Runs a record's combiner on its target: `combiner(target, operand)`.
    fn combine(&mut self, target: usize, operand: &[u8], combiner: usize);
}

/// The real program: tracked pages through the tracker (the twins follow); targets and
/// combiners named by records are turned into handles through the runtime's `SameProgram`.
pub(super) struct Program<'a>(pub &'a mut Runtime);

impl Target for Program<'_> {
    fn inject(&mut self, addr: usize, bytes: &[u8]) {
        crate::region_heap::inject(self.0, addr, bytes);
    }

    fn read(&self, addr: usize, out: &mut [u8]) {
        crate::region_heap::read(self.0, addr, out);
    }

    fn prefetch(&self, page: usize, lines: u64) {
        self.0.tracker.prefetch(page, lines);
    }
}

impl Memory for Program<'_> {
    fn restore(&mut self, addr: usize, bytes: &[u8]) {
        // `before` holds targets of this rank's own atomic updates: record targets
        self.0.same_program.object(addr, bytes.len()).write(bytes);
    }

    fn combine(&mut self, target: usize, operand: &[u8], combiner: usize) {
        let program = self.0.same_program;
        match program.combiner(combiner, operand.len()) {
            Some(c) => c.apply(program.object(target, operand.len()), operand),
            None => crate::runtime::fatal(&format!(
                "a merge record names {combiner:#x} as its combine function, which is not in \
                 this program's code: do all ranks run the same executable?"
            )),
        }
    }
}
