//! The translation of a file recurses once per nesting level of the C it reads (lang-c's
//! parser, name resolution, the lowering passes): 4000 nested parentheses, a sum of 40000
//! terms or an `else if` chain of 8000 arms, all of which gcc compiles, overflow the main
//! thread's 8 MiB stack. The driver therefore runs on a thread whose stack is large enough for
//! anything gcc itself compiles; the memory is reserved, not used, until the recursion
//! touches it.

/// The stack of the driver's thread: virtual memory, committed page by page as it is used.
pub const STACK_SIZE: usize = 1 << 30;

/// Runs `work` on a thread with a [`STACK_SIZE`] stack and returns its result; on the calling
/// thread when no such thread can be made (an address-space limit), as before.
pub fn on_large_stack(work: impl FnOnce() -> i32 + Send + 'static) -> i32 {
    let work = std::sync::Arc::new(std::sync::Mutex::new(Some(work)));
    let on_thread = std::sync::Arc::clone(&work);
    let spawned = std::thread::Builder::new()
        .name("capecc".to_string())
        .stack_size(STACK_SIZE)
        .spawn(move || {
            let work = on_thread.lock().ok().and_then(|mut w| w.take());
            work.map(|work| work())
        });
    match spawned {
        // A panic ends the process in the panic hook (exit 70) before `join` returns.
        Ok(handle) => match handle.join() {
            Ok(Some(status)) => status,
            _ => 70,
        },
        Err(_) => {
            let work = work.lock().ok().and_then(|mut w| w.take());
            work.map_or(70, |work| work())
        }
    }
}
