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
    if matches!(
        plan.mode(),
        Mode::Help | Mode::Version | Mode::BackendQuery | Mode::SyntaxOnly
    ) {
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
    input_at(plan, plan.output.as_deref()?)
}

/// The input that is the file `path` names (device and inode), if any.
fn input_at<'p>(plan: &'p Plan, path: &Path) -> Option<&'p Path> {
    let identity = |path: &Path| {
        std::fs::metadata(path)
            .ok()
            .map(|meta| (meta.dev(), meta.ino()))
    };
    let target = identity(path)?;
    plan.inputs
        .iter()
        .map(|input| input.path.as_path())
        .find(|input| identity(input) == Some(target))
}

/// Whether `path` names one of the inputs (on the file system, as for `-o`): an intermediate
/// kept by `-save-temps` must not be written there (`capecc -save-temps q.cape.c q.c`).
pub fn names_an_input(plan: &Plan, path: &Path) -> bool {
    input_at(plan, path).is_some()
}
