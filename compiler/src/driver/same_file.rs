//! gcc's "input file is the same as output file" refusal: `capecc x.c -o x.c` must not
//! overwrite the source. Files are compared by device and inode, so `./x.c`, symbolic links
//! and hard links to an input count as the same file.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

use super::args::{Mode, Plan};
use super::report_error;

/// Reports an `-o` that names an input; returns whether it did (capecc then stops, having
/// written nothing).
pub fn refuse_output_naming_an_input(plan: &Plan) -> bool {
    if matches!(plan.mode(), Mode::Help | Mode::Version | Mode::BackendQuery) {
        return false;
    }
    let Some(input) = input_named_by_output(plan) else {
        return false;
    };
    report_error(
        &format!(
            "input file `{}` is the same as output file",
            input.display()
        ),
        Some("choose another name with `-o`; nothing was written"),
    );
    true
}

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

/// Whether `path` names one of the inputs (on the file system, as for `-o`): an intermediate
/// kept by `-save-temps` must not be written there (`capecc -save-temps q.cape.c q.c`).
pub fn names_an_input(plan: &Plan, path: &Path) -> bool {
    let identity = |path: &Path| {
        std::fs::metadata(path)
            .ok()
            .map(|meta| (meta.dev(), meta.ino()))
    };
    let Some(target) = identity(path) else {
        return false;
    };
    plan.inputs
        .iter()
        .any(|input| identity(&input.path) == Some(target))
}
