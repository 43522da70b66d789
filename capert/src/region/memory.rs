//! The program's memory as the end of an epoch sees it, so that the exchange (inject, restore,
//! apply records) runs the same code on the real program and, in the in-process tests, on a
//! simulated memory per rank.

use crate::runtime::Runtime;

pub(super) trait Memory {
    /// Writes bytes another rank wrote in the epoch (merged).
    fn inject(&mut self, addr: usize, bytes: &[u8]);
    /// Writes an atomically updated variable back to its value before the epoch.
    fn restore(&mut self, addr: usize, bytes: &[u8]);
    /// Runs a record's combiner on its target: `combiner(target, operand)`.
    fn combine(&mut self, target: usize, operand: &[u8], combiner: usize);
}

/// The real program: tracked pages through the tracker (the twins follow), combiners are
/// function addresses of the (non-PIE) executable, the same on every rank.
pub(super) struct Program<'a>(pub &'a mut Runtime);

impl Memory for Program<'_> {
    fn inject(&mut self, addr: usize, bytes: &[u8]) {
        crate::region_heap::inject(self.0, addr, bytes);
    }

    fn restore(&mut self, addr: usize, bytes: &[u8]) {
        crate::sys::raw::write_memory(addr, bytes);
    }

    fn combine(&mut self, target: usize, operand: &[u8], combiner: usize) {
        crate::sys::raw::combine(target, operand, combiner);
    }
}
