//! Finding the capert runtime and the headers compiled code needs, with no setup by the user:
//! the headers are embedded in the capecc binary, the library is looked up beside it.

use std::path::{Path, PathBuf};

/// Our `omp.h`: put first on the include path so that it wins over the compiler's own.
pub const OMP_H: &str = include_str!("../../../capert/include/omp.h");

/// The compiler <-> runtime ABI header, for translated code and `--emit-c` files.
pub const CAPERT_H: &str = include_str!("../../../capert/include/capert.h");

/// The runtime library's file name.
pub const LIBRARY: &str = "libcapert.a";

/// The environment variable that names the runtime library (or its directory).
pub const RUNTIME_ENV: &str = "CAPECC_RUNTIME";

/// System libraries the Rust static library needs (`--print native-static-libs`), after it on
/// the link line.
pub const NATIVE_LIBS: &[&str] = &[
    "-lgcc_s",
    "-lutil",
    "-lrt",
    "-lpthread",
    "-lm",
    "-ldl",
    "-lc",
];

/// Where capecc looks for `libcapert.a`, in order: `$CAPECC_RUNTIME` (the file or its
/// directory), next to the capecc executable (cargo builds both into `target/<profile>/`), then
/// `<exe dir>/../lib/` (an installed layout).
pub fn runtime_candidates(env_value: Option<&str>, exe: Option<&Path>) -> Vec<PathBuf> {
    let mut candidates = Vec::new();
    if let Some(value) = env_value.filter(|v| !v.is_empty()) {
        let path = PathBuf::from(value);
        if path.extension().is_some_and(|e| e == "a") {
            candidates.push(path);
        } else {
            candidates.push(path.join(LIBRARY));
        }
        // An explicit setting is the only place looked at: a wrong one must not silently
        // fall back to another library.
        return candidates;
    }
    if let Some(dir) = exe.and_then(Path::parent) {
        candidates.push(dir.join(LIBRARY));
        // `cargo test` runs binaries from target/<profile>/deps/.
        if dir.file_name().is_some_and(|n| n == "deps") {
            if let Some(parent) = dir.parent() {
                candidates.push(parent.join(LIBRARY));
            }
        }
        if let Some(parent) = dir.parent() {
            candidates.push(parent.join("lib").join(LIBRARY));
        }
    }
    candidates
}
