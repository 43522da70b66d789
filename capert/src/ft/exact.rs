//! Exact snapshots: the user's control state at the region call where a snapshot is taken
//! (every user frame and the callee-saved registers, `sys/region_call.rs`), and its return on
//! a restart.
//!
//! A restart re-runs the sequential code up to the snapshot's region against an earlier state
//! of the shared arrays, so what that code kept outside shared memory (locals, registers) may
//! differ from the failed run's. At the snapshot's region every rank injects the image and then
//! the recorded stack and registers, so the program continues with exactly the failed run's
//! values. Only words that hold this process's own addresses keep the re-run's value: a word
//! that differs and that, in the re-run, points into memory outside the fixed mappings (the
//! process stack with the environment, libc's heap with `FILE`s, shared libraries),
//! and the stack-protector canary. Those were addresses in the failed run too (the same code
//! computed them), of its own layout, which ASLR changes from run to run.

use crate::sys::region_call::{self, CallSite};
use cape_format::log_compact::CallState;

/// Rank 0 when a snapshot is taken at a region's end: the control state of the region call
/// in progress, with `read` filling the user stack from its return address to `top`.
pub fn capture(top: usize, read: impl FnOnce(usize, &mut [u8])) -> Option<CallState> {
    let site = region_call::current()?;
    let from = site.entry_sp + 8;
    if from > top {
        return None;
    }
    let mut stack = vec![0u8; top - from];
    read(from, &mut stack);
    Some(CallState {
        entry_sp: site.entry_sp as u64,
        return_address: site.return_address,
        regs: site.regs,
        fp_control: site.fp_control,
        stack,
    })
}

/// Rank 0 in a replay, at the snapshot's region: the recorded control state applies to the
/// region call in progress only if it is the same call (same stack pointer and return
/// address), its stack image covers exactly the user stack from there to `top`, and it puts
/// no other code address than this run has anywhere (`now_stack`: the user stack now from the
/// call's return address; `code`: the executable's code, at the same address in every run):
/// a forged return address or function pointer in a frame is refused like a forged region.
pub fn check(
    call: &CallState,
    now: Option<(CallSite, &[u8])>,
    top: usize,
    code: (usize, usize),
    region: u64,
    dir: &str,
) -> Result<(), String> {
    let refuse = |why: &str| {
        Err(format!(
            "the snapshot of parallel region {region} in the log in {dir} {why}: the log is damaged or was forged; restart from the start, `CAPE_CHECKPOINT={dir}`"
        ))
    };
    let Some((now, now_stack)) = now else {
        return refuse("cannot be resumed here: no region call is in progress");
    };
    if call.entry_sp != now.entry_sp as u64 || call.return_address != now.return_address {
        return refuse(&format!(
            "was taken at another region call (stack pointer {:#x}, return address {:#x}; here {:#x}, {:#x})",
            call.entry_sp, call.return_address, now.entry_sp, now.return_address
        ));
    }
    if call.entry_sp + 8 + call.stack.len() as u64 != top as u64
        || now_stack.len() != call.stack.len()
    {
        return refuse("holds a stack image that does not end at the top of the user stack");
    }
    let is_code = |w: u64| (code.0 as u64..code.1 as u64).contains(&w);
    let words = |b: &[u8]| -> Vec<u64> {
        b.chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
            .collect()
    };
    let stack = words(&call.stack).into_iter().zip(words(now_stack));
    let slots = (0..).map(|i| format!("the stack slot at {:#x}", call.entry_sp + 8 + 8 * i));
    let regs = call.regs.iter().copied().zip(now.regs);
    let names = ["rbx", "rbp", "r12", "r13", "r14", "r15"].map(String::from);
    for ((old, new), place) in stack
        .chain(regs)
        .zip(slots.take(call.stack.len() / 8).chain(names))
    {
        if old != new && (is_code(old) || is_code(new)) {
            return refuse(&format!(
                "puts the code address {old:#x} in {place}, where this run has {new:#x}"
            ));
        }
    }
    Ok(())
}

/// The control state to resume with on this rank: the recorded one, except the words that
/// hold this process's own addresses (see the module): `now_stack` is the user stack now from
/// the call's return address, `now` the registers now, `local` says whether an address lies
/// in memory of this process whose address changes from run to run.
pub fn resume_state(
    recorded: &CallState,
    now_stack: &[u8],
    now: &CallSite,
    canary: u64,
    local: impl Fn(u64) -> bool,
) -> CallState {
    let keep_now = |old: u64, new: u64| old != new && (new == canary || local(new));
    let mut out = recorded.clone();
    for (slot, was) in out.stack.chunks_exact_mut(8).zip(now_stack.chunks_exact(8)) {
        let old = u64::from_le_bytes(slot[..].try_into().unwrap_or([0; 8]));
        let new = u64::from_le_bytes(was.try_into().unwrap_or([0; 8]));
        if keep_now(old, new) {
            slot.copy_from_slice(was);
        }
    }
    for (reg, &new) in out.regs.iter_mut().zip(&now.regs) {
        if keep_now(*reg, new) {
            *reg = new;
        }
    }
    out
}

/// The mappings of this process outside `fixed` (sorted `(start, end)`) and outside the
/// executable (linked without PIE: at the same address in every run): where its own,
/// run-dependent addresses point.
pub fn local_mappings(fixed: &[(usize, usize)]) -> Vec<(u64, u64)> {
    let maps = std::fs::read_to_string("/proc/self/maps").unwrap_or_default();
    let exe = std::fs::read_link("/proc/self/exe").unwrap_or_default();
    let exe = exe.to_string_lossy();
    let mut out: Vec<(u64, u64)> = maps
        .lines()
        .filter(|line| exe.is_empty() || !line.ends_with(&*exe))
        .filter_map(|line| {
            let range = line.split_whitespace().next()?;
            let (s, e) = range.split_once('-')?;
            let (s, e) = (
                u64::from_str_radix(s, 16).ok()?,
                u64::from_str_radix(e, 16).ok()?,
            );
            let fixed = fixed
                .iter()
                .any(|&(fs, fe)| s < fe as u64 && (fs as u64) < e);
            (!fixed).then_some((s, e))
        })
        .collect();
    out.sort_unstable();
    out
}

/// Whether `addr` lies in one of `ranges` (sorted).
pub fn within(ranges: &[(u64, u64)], addr: u64) -> bool {
    let i = ranges.partition_point(|&(_, e)| e <= addr);
    ranges.get(i).is_some_and(|&(s, _)| s <= addr)
}

/// A control state as rank 0 broadcasts it.
pub fn encode(c: &CallState) -> Vec<u8> {
    let mut out = Vec::with_capacity(80 + c.stack.len());
    for w in [c.entry_sp, c.return_address, c.fp_control]
        .iter()
        .chain(&c.regs)
    {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out.extend_from_slice(&c.stack);
    out
}

/// The inverse of [`encode`].
pub fn decode(b: &[u8]) -> Option<CallState> {
    let word = |i: usize| -> Option<u64> {
        Some(u64::from_le_bytes(
            b.get(i * 8..i * 8 + 8)?.try_into().ok()?,
        ))
    };
    Some(CallState {
        entry_sp: word(0)?,
        return_address: word(1)?,
        fp_control: word(2)?,
        regs: [word(3)?, word(4)?, word(5)?, word(6)?, word(7)?, word(8)?],
        stack: b.get(72..)?.to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(words: &[u64], regs: [u64; 6]) -> CallState {
        CallState {
            entry_sp: 0x1000,
            return_address: 0x40_0000,
            regs,
            fp_control: 0x1f80,
            stack: words.iter().flat_map(|w| w.to_le_bytes()).collect(),
        }
    }

    #[test]
    fn recorded_values_win_except_own_addresses_and_the_canary() {
        let local = |a: u64| (0x7f00_0000_0000..0x7f00_1000_0000).contains(&a);
        // a running sum (differs: the re-run computed it from earlier arrays), an envp
        // pointer (differs: ASLR), the canary, an equal word, a fixed-stack pointer
        let recorded = state(
            &[42, 0x7f55_0000_0010, 0xdead, 7, 0x3b00_0000_1000],
            [1, 2, 3, 4, 5, 6],
        );
        let now_words = [41u64, 0x7f00_0000_0010, 0xbeef, 7, 0x3b00_0000_1000];
        let now_stack: Vec<u8> = now_words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let now = CallSite {
            entry_sp: 0x1000,
            return_address: 0x40_0000,
            regs: [9, 0x7f00_0000_0100, 3, 4, 5, 6],
            fp_control: 0x1f80,
        };
        let out = resume_state(&recorded, &now_stack, &now, 0xbeef, local);
        assert_eq!(
            out,
            state(
                &[42, 0x7f00_0000_0010, 0xbeef, 7, 0x3b00_0000_1000],
                [1, 0x7f00_0000_0100, 3, 4, 5, 6]
            )
        );
        assert_eq!(decode(&encode(&out)), Some(out));
    }

    #[test]
    fn another_call_or_stack_is_refused() {
        let c = state(&[1, 2], [0; 6]);
        let now = CallSite {
            entry_sp: 0x1000,
            return_address: 0x40_0000,
            regs: [0; 6],
            fp_control: 0,
        };
        let code = (0x40_0000, 0x50_0000);
        let same = c.stack.clone();
        let ok = |c: &CallState, now, top| check(c, Some((now, &same[..])), top, code, 3, "d");
        assert!(ok(&c, now, 0x1018).is_ok());
        let e = ok(&c, now, 0x1028).unwrap_err();
        assert!(e.contains("top of the user stack"), "{e}");
        let other = CallSite {
            return_address: 0x40_0008,
            ..now
        };
        let e = ok(&c, other, 0x1018).unwrap_err();
        assert!(e.contains("another region call"), "{e}");
        assert!(check(&c, None, 0x1018, code, 3, "d").is_err());
        // a return address in a frame, or a register, changed to another code address
        let mut forged = c.clone();
        forged.stack[8..16].copy_from_slice(&0x40_1234u64.to_le_bytes());
        let e = ok(&forged, now, 0x1018).unwrap_err();
        assert!(
            e.contains("code address 0x401234 in the stack slot at 0x1010"),
            "{e}"
        );
        let mut forged = c.clone();
        forged.regs[1] = 0x40_0010;
        let e = ok(&forged, now, 0x1018).unwrap_err();
        assert!(e.contains("in rbp"), "{e}");
    }

    #[test]
    fn mappings_lookup() {
        let r = [(0x1000, 0x2000), (0x5000, 0x6000)];
        assert!(within(&r, 0x1000) && within(&r, 0x5fff));
        assert!(!within(&r, 0x2000) && !within(&r, 0x4fff) && !within(&r, 0));
    }
}
