//! A region's write scope: the compiler's list of what the region can write (exact byte spans,
//! and pointers whose heap block it writes through) resolved into the page ranges the tracker
//! scans, so that a region's fixed cost follows what it can write, not the program's memory.

use crate::runtime::Runtime;
use crate::track::PAGE_SIZE;

/// One entry of the compiler's write scope (`struct __cape_span`): `len > 0`: the bytes
/// `[addr, addr + len)`; `len == 0`: whatever a write through a pointer to `addr` can reach
/// (its heap block; all globals for an address in them; nothing for an untracked address).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteSpan {
    pub addr: usize,
    pub len: usize,
}

/// Resolves `spans` for a region entered with stack pointer `sp` into `out`: sorted,
/// disjoint, page-aligned ranges. The compiler lists the shared locals a region writes by
/// name as exact spans; a pointer into the stack may reach any of the enclosing functions'
/// locals, so it takes the whole shared stack (above `sp`).
pub(super) fn resolve(rt: &Runtime, spans: &[WriteSpan], sp: usize, out: &mut Vec<(usize, usize)>) {
    out.clear();
    let shared_stack = (sp >= rt.stack_lo && sp < rt.stack_top).then_some((sp, rt.stack_top));
    for span in spans {
        if span.len > 0 {
            out.push((span.addr, span.addr.saturating_add(span.len)));
        } else if span.addr >= rt.stack_lo && span.addr <= rt.stack_top {
            out.extend(shared_stack);
        } else if rt.arena.contains(span.addr) {
            rt.arena.reach(span.addr, out);
        } else if rt
            .globals
            .iter()
            .any(|&(s, e)| span.addr >= s && span.addr <= e)
        {
            out.extend_from_slice(&rt.globals);
        }
        // anything else (NULL, memory nobody tracks) adds nothing
    }
    pages(out);
}

/// The first pointer of `spans` (an entry with `len == 0`: the region may write through it)
/// whose target no rank shares: not NULL, and neither in the arena nor in the globals nor on
/// the stack. Such memory (a buffer the C library allocated for `asprintf`, `getline` or
/// `strndup`, `mmap`, a library built without capecc) is each rank's own: what the other
/// ranks write there would be lost.
pub(super) fn unshared_target(rt: &Runtime, spans: &[WriteSpan]) -> Option<usize> {
    spans.iter().find_map(|span| {
        let a = span.addr;
        let shared = a < PAGE_SIZE
            || rt.arena.contains(a)
            || rt.globals.iter().any(|&(s, e)| a >= s && a <= e)
            || (a >= rt.stack_lo && a <= rt.stack_top);
        (span.len == 0 && !shared).then_some(a)
    })
}

/// Rounds every range out to whole pages, sorts and joins them.
fn pages(ranges: &mut Vec<(usize, usize)>) {
    for r in ranges.iter_mut() {
        r.0 &= !(PAGE_SIZE - 1);
        r.1 = r.1.saturating_add(PAGE_SIZE - 1) & !(PAGE_SIZE - 1);
    }
    ranges.retain(|&(s, e)| e > s);
    ranges.sort_unstable();
    let mut joined = 0;
    for i in 0..ranges.len() {
        if joined > 0 && ranges[i].0 <= ranges[joined - 1].1 {
            ranges[joined - 1].1 = ranges[joined - 1].1.max(ranges[i].1);
        } else {
            ranges[joined] = ranges[i];
            joined += 1;
        }
    }
    ranges.truncate(joined);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runs::holds;

    #[test]
    fn ranges_become_sorted_joined_pages() {
        let mut r = vec![
            (0x5010, 0x5020),
            (0x1000, 0x1001),
            (0x1fff, 0x2001),
            (0x9000, 0x9000),
        ];
        pages(&mut r);
        assert_eq!(r, vec![(0x1000, 0x3000), (0x5000, 0x6000)]);
        assert!(holds(&r, 0x2000) && holds(&r, 0x5000));
        assert!(!holds(&r, 0x3000) && !holds(&r, 0x0) && !holds(&r, 0x6000));
    }
}
