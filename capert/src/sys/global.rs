//! A wrapper that lets main-thread-only state live in a `static Mutex`.

/// Marks a value that is only ever used from the program's main thread.
pub struct MainThreadOnly<T>(pub T);

// SAFETY: capert's state is created and used only by the thread that runs the user program
// (CAPE programs are single-threaded per rank; MPI runs FUNNELED). The Mutex around it exists
// so the value can be a static, not to share it between threads.
unsafe impl<T> Send for MainThreadOnly<T> {}
