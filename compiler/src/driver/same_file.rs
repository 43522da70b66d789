//! gcc's "input file is the same as output file" refusal: `capecc x.c -o x.c` must not
//! overwrite the source. Files are compared by device and inode, so `./x.c`, symbolic links
//! and hard links to an input count as the same file.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

use super::args::Plan;

/// The input that `-o` names, if any (compared on the file system; inputs that do not exist,
/// such as `-` for standard input, cannot be overwritten and are skipped).
pub fn input_named_by_output(plan: &Plan) -> Option<&Path> {
    let output = plan.output.as_deref()?;
    let identity = |path: &Path| {
        std::fs::metadata(path)
            .ok()
            .map(|meta| (meta.dev(), meta.ino()))
    };
    let output_identity = identity(output)?;
    plan.inputs
        .iter()
        .map(|input| input.path.as_path())
        .find(|path| identity(path) == Some(output_identity))
}
