//! The region call as the generated code makes it: `__cape_parallel` and
//! `__cape_parallel_in_scope` are small assembly trampolines that keep the caller's
//! callee-saved registers (and floating-point control words) in a block on their own frame,
//! call the runtime with that block, and load the registers from it before returning. A
//! snapshot records them with the user stack; a restart from the snapshot writes the recorded
//! values into the block, so that the user's code continues with exactly the values it had
//! (after every runtime frame has returned: the trampoline restores them last).

use std::cell::Cell;

/// What the trampoline keeps on its frame (the layout is the assembly's below).
#[repr(C)]
pub struct RegionCall {
    /// The call's arguments: rdi, rsi, rdx, rcx, r8, r9 and the seventh (on the stack).
    pub args: [usize; 7],
    /// 0: `__cape_parallel`, 1: `__cape_parallel_in_scope`.
    pub scoped: usize,
    /// rbx, rbp, r12, r13, r14, r15 of the caller.
    regs: [u64; 6],
    /// MXCSR (low half) and the x87 control word (high half).
    fp_control: u64,
    /// The stack pointer on entry: the slot of the return address.
    entry_sp: usize,
}

/// The caller's control state at a region call, as a snapshot keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallSite {
    pub entry_sp: usize,
    pub return_address: u64,
    pub regs: [u64; 6],
    pub fp_control: u64,
}

thread_local! {
    /// The innermost region call of this thread in progress (null: none).
    static CURRENT: Cell<*mut RegionCall> = const { Cell::new(std::ptr::null_mut()) };
}

/// Runs `f` as the body of the region call `call` (made current for its duration).
///
/// # Safety
/// `call` must be the trampoline's block, live until this returns.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub unsafe fn enter<R>(call: *mut RegionCall, f: impl FnOnce(&RegionCall) -> R) -> R {
    struct Restore(*mut RegionCall);
    impl Drop for Restore {
        fn drop(&mut self) {
            CURRENT.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(CURRENT.with(|c| c.replace(call)));
    // SAFETY: the caller passes the trampoline's block on its frame, which lives until this
    // call returns; nothing else holds a reference to it (`current` and
    // `set_registers` only copy fields in and out, on this thread).
    f(unsafe { &*call })
}

/// The innermost region call of this thread in progress.
pub fn current() -> Option<CallSite> {
    let call = CURRENT.with(Cell::get);
    if call.is_null() {
        return None;
    }
    // SAFETY: `enter` keeps the block current only while the trampoline's frame holding it
    // lives; the return address is the word at the entry stack pointer, on the user stack
    // above every runtime frame, mapped and readable.
    unsafe {
        let c = &*call;
        Some(CallSite {
            entry_sp: c.entry_sp,
            return_address: *(c.entry_sp as *const u64),
            regs: c.regs,
            fp_control: c.fp_control,
        })
    }
}

/// Makes the innermost region call return to its caller with these registers and control
/// words. Returns false when no region call is in progress.
pub fn set_registers(regs: [u64; 6], fp_control: u64) -> bool {
    let call = CURRENT.with(Cell::get);
    if call.is_null() {
        return false;
    }
    // SAFETY: as in `current`; the block is written by this thread only, and the trampoline
    // reads it after the runtime returned.
    unsafe {
        (*call).regs = regs;
        (*call).fp_control = fp_control;
    }
    true
}

/// The stack-protector canary of this thread (glibc keeps it at `fs:0x28` on x86-64): a
/// restored frame keeps this process's value.
#[cfg(target_arch = "x86_64")]
pub fn stack_guard() -> u64 {
    let guard: u64;
    // SAFETY: glibc's TCB holds the canary at fs:0x28 for every thread (x86-64 ABI of
    // `-fstack-protector`); a plain load.
    unsafe {
        std::arch::asm!("mov {}, qword ptr fs:[0x28]", out(reg) guard, options(nostack, readonly, preserves_flags));
    }
    guard
}

/// Elsewhere snapshots are refused (no trampoline records the registers).
#[cfg(not(target_arch = "x86_64"))]
pub fn stack_guard() -> u64 {
    0
}

/// Whether region calls record the caller's registers (snapshots need them).
pub const RECORDS_REGISTERS: bool = cfg!(target_arch = "x86_64");

/// One trampoline: `$name` stores its arguments (`$args`: the scoped one also moves its
/// seventh, from the caller's stack), its caller's callee-saved registers and control words,
/// calls `__cape_region_entry(block)` (in `ffi/parallel.rs`), reloads them and returns. The frame is 136 bytes: the block
/// (128) plus 8, so that the call is made with a 16-byte aligned stack.
macro_rules! trampoline {
    ($name:literal, $scoped:literal, $seventh:literal) => {
        concat!(
            ".pushsection .text.",
            $name,
            ",\"ax\",@progbits\n",
            ".globl ",
            $name,
            "\n",
            ".type ",
            $name,
            ",@function\n",
            ".p2align 4\n",
            $name,
            ":\n",
            ".cfi_startproc\n",
            "sub rsp, 136\n",
            ".cfi_adjust_cfa_offset 136\n",
            "mov [rsp], rdi\n",
            "mov [rsp + 8], rsi\n",
            "mov [rsp + 16], rdx\n",
            "mov [rsp + 24], rcx\n",
            "mov [rsp + 32], r8\n",
            "mov [rsp + 40], r9\n",
            $seventh,
            "mov qword ptr [rsp + 56], ",
            $scoped,
            "\n",
            "mov [rsp + 64], rbx\n",
            "mov [rsp + 72], rbp\n",
            "mov [rsp + 80], r12\n",
            "mov [rsp + 88], r13\n",
            "mov [rsp + 96], r14\n",
            "mov [rsp + 104], r15\n",
            "stmxcsr dword ptr [rsp + 112]\n",
            "fnstcw word ptr [rsp + 116]\n",
            "mov word ptr [rsp + 118], 0\n",
            "lea rax, [rsp + 136]\n",
            "mov [rsp + 120], rax\n",
            "mov rdi, rsp\n",
            "call __cape_region_entry\n",
            "mov rbx, [rsp + 64]\n",
            "mov rbp, [rsp + 72]\n",
            "mov r12, [rsp + 80]\n",
            "mov r13, [rsp + 88]\n",
            "mov r14, [rsp + 96]\n",
            "mov r15, [rsp + 104]\n",
            "ldmxcsr dword ptr [rsp + 112]\n",
            "fldcw word ptr [rsp + 116]\n",
            "add rsp, 136\n",
            ".cfi_adjust_cfa_offset -136\n",
            "ret\n",
            ".cfi_endproc\n",
            ".size ",
            $name,
            ", . - ",
            $name,
            "\n",
            ".popsection\n",
        )
    };
}

// SAFETY: these are the C entry points the generated code calls with the SysV ABI; they keep
// every callee-saved register (reloaded from the block, which holds the caller's values unless
// a restart wrote a snapshot's into it), return with the stack as they found it, and call
// `__cape_region_entry` with an aligned stack; it does not unwind (it catches panics).
#[cfg(target_arch = "x86_64")]
std::arch::global_asm!(
    trampoline!("__cape_parallel", "0", "mov qword ptr [rsp + 48], 0\n"),
    trampoline!(
        "__cape_parallel_in_scope",
        "1",
        "mov rax, [rsp + 144]\nmov [rsp + 48], rax\n"
    ),
);
