//! Objects and static libraries the user links that were not built by capecc (plain `gcc -c`,
//! `ar`): their `.data*`/`.bss*` sections are renamed in a temporary copy, as capecc's own
//! objects are, so that their globals are shared memory like the user's. After the link, the
//! linker map is checked for writable data of the user's that still lies outside the tracked
//! sections (COMMON symbols, data copied from a shared library), which is then named in a warning.

use std::path::{Path, PathBuf};

use super::args::LinkItem;
use super::{archive, elf, link_map, path_arg, Driver, Step};
use crate::diag::Diagnostic;

/// The user's part of the link command and what the check after the link needs to know.
pub(super) struct LinkInputs {
    pub args: Vec<String>,
    /// The user's shared libraries (given by path or found in a `-L` directory).
    pub shared: Vec<PathBuf>,
    /// (renamed copy, the user's file)
    pub copies: Vec<(PathBuf, PathBuf)>,
    /// Every object and static library of the user's the link reads (capecc's objects, the
    /// user's files, renamed copies), whose references to library functions are looked at.
    pub user_code: Vec<PathBuf>,
}

impl Driver {
    /// The user's inputs and linker options for the link command, in command-line order, with
    /// plain objects and static libraries (also `-lNAME` found in a `-L` directory) replaced by
    /// copies whose globals live in the tracked sections.
    pub(super) fn link_arguments(&self, objects: &[Option<PathBuf>]) -> Step<LinkInputs> {
        let library_dirs = self.library_dirs();
        let static_only = self
            .plan
            .link
            .iter()
            .any(|item| matches!(item, LinkItem::Arg(a) if a == "-static"));
        let mut argv = Vec::new();
        let mut shared = Vec::new();
        let mut copies = Vec::new();
        let mut user_code = Vec::new();
        let mut items = self.plan.link.iter().enumerate().peekable();
        while let Some((position, item)) = items.next() {
            match item {
                LinkItem::Input(index) => {
                    match (objects.get(*index), self.plan.inputs.get(*index)) {
                        (Some(Some(object)), _) => {
                            argv.push(path_arg(object));
                            user_code.push(object.clone());
                        }
                        (_, Some(input)) => {
                            // a shared library has nothing to rename: do not read it whole
                            let copy = if is_shared_library(&input.path) {
                                shared.push(input.path.clone());
                                None
                            } else {
                                self.tracked_copy(position, &input.path)?
                            };
                            match copy {
                                Some(copy) => {
                                    argv.push(path_arg(&copy));
                                    user_code.push(copy.clone());
                                    copies.push((copy, input.path.clone()));
                                }
                                None => {
                                    argv.push(path_arg(&input.path));
                                    user_code.push(input.path.clone());
                                }
                            }
                        }
                        _ => {}
                    }
                }
                LinkItem::Arg(arg) if arg.starts_with("-l") => {
                    // `-lNAME` or `-l NAME`
                    let (name, spelled) = if arg == "-l" {
                        match items.peek() {
                            Some((_, LinkItem::Arg(value))) => {
                                let value = value.clone();
                                items.next();
                                (value.clone(), vec![arg.clone(), value])
                            }
                            _ => (String::new(), vec![arg.clone()]),
                        }
                    } else {
                        (arg[2..].to_string(), vec![arg.clone()])
                    };
                    let tracked = match find_library(&name, &library_dirs, static_only) {
                        Some(path) if is_shared_library(&path) => {
                            shared.push(path);
                            None
                        }
                        Some(path) => {
                            let copy = self.tracked_copy(position, &path)?;
                            user_code.push(copy.clone().unwrap_or_else(|| path.clone()));
                            copy.map(|copy| (copy, path))
                        }
                        None => None,
                    };
                    match tracked {
                        Some((copy, path)) => {
                            argv.push(path_arg(&copy));
                            copies.push((copy, path));
                        }
                        None => argv.extend(spelled),
                    }
                }
                LinkItem::Arg(arg) => argv.push(arg.clone()),
            }
        }
        Ok(LinkInputs {
            args: argv,
            shared,
            copies,
            user_code,
        })
    }

    /// The user's `-L` directories, in order.
    fn library_dirs(&self) -> Vec<PathBuf> {
        let mut dirs = Vec::new();
        let mut items = self.plan.link.iter();
        while let Some(item) = items.next() {
            if let LinkItem::Arg(arg) = item {
                if arg == "-L" {
                    if let Some(LinkItem::Arg(dir)) = items.next() {
                        dirs.push(PathBuf::from(dir));
                    }
                } else if let Some(dir) = arg.strip_prefix("-L") {
                    dirs.push(PathBuf::from(dir));
                }
            }
        }
        dirs
    }

    /// A copy of an object or static library with `.data*`/`.bss*` renamed, or `None` when the
    /// file has no such sections (built by capecc, a shared library, a linker script...).
    fn tracked_copy(&self, position: usize, path: &Path) -> Step<Option<PathBuf>> {
        let Ok(bytes) = std::fs::read(path) else {
            // the linker says what is wrong with it
            return Ok(None);
        };
        let relocatables: Vec<&[u8]> = if archive::is_archive(&bytes) {
            archive::members(&bytes)
                .unwrap_or_default()
                .into_iter()
                .filter(|member| elf::is_relocatable(member))
                .collect()
        } else if elf::is_relocatable(&bytes) {
            vec![&bytes[..]]
        } else {
            Vec::new()
        };
        if let Some(call) = relocatables.iter().find_map(|r| elf::libgomp_call(r)) {
            super::report_error(
                &format!(
                    "`{}` was compiled with `gcc -fopenmp`: it calls `{call}`, part of libgomp, \
                     which a program built with capecc does not use",
                    path.display()
                ),
                Some("compile its sources with capecc too (`CC=capecc`), so that its parallel regions run on the ranks"),
            );
            return Err(1);
        }
        let names: Vec<String> = if archive::is_archive(&bytes) {
            let Some(members) = archive::members(&bytes) else {
                return Ok(None);
            };
            members
                .into_iter()
                .filter(|member| elf::is_relocatable(member))
                .filter_map(elf::section_names)
                .flatten()
                .collect()
        } else if elf::is_relocatable(&bytes) {
            elf::section_names(&bytes).unwrap_or_default()
        } else {
            return Ok(None);
        };
        let renames = elf::rename_arguments(&names);
        if renames.is_empty() {
            return Ok(None);
        }
        let file_name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let copy = self
            .temp
            .path()
            .join(format!("plain-{position}-{file_name}"));
        let mut argv = vec![super::objcopy()];
        argv.extend(renames);
        argv.extend([path_arg(path), path_arg(&copy)]);
        self.run_command(&argv)?;
        Ok(Some(copy))
    }

    /// Where the link writes its map: it shows what writable data stayed outside the tracked
    /// sections. `None` when the user asked for a map (ld keeps the last `-Map`: theirs wins).
    pub(super) fn link_map_path(&self) -> Option<PathBuf> {
        let user_map = self
            .plan
            .link
            .iter()
            .any(|item| matches!(item, LinkItem::Arg(a) if a.contains("-Map")));
        (!user_map).then(|| self.temp.path().join("link.map"))
    }

    /// After the link: names writable data of the user's that is not in the tracked sections
    /// (`map`: the linker map of the link, `runtime`: libcapert.a).
    pub(super) fn warn_untracked_data(&self, map: &Path, runtime: &Path, inputs: &LinkInputs) {
        let Ok(text) = std::fs::read_to_string(map) else {
            return;
        };
        let system_dirs = self.system_library_dirs();
        let runtime = runtime
            .canonicalize()
            .unwrap_or_else(|_| runtime.to_path_buf());
        let is_system = |file: &str| {
            let path = Path::new(file);
            let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
            path == runtime || system_dirs.iter().any(|dir| path.starts_with(dir))
        };
        let shared_symbols: Vec<String> = inputs
            .shared
            .iter()
            .filter_map(|path| std::fs::read(path).ok())
            .filter_map(|bytes| elf::defined_dynamic_symbols(&bytes))
            .flatten()
            .collect();
        for entry in link_map::untracked_writable(&text) {
            let diagnostic = if entry.copied_from_shared_library {
                // stdout, environ, MPI's handles...: one per process with threads too
                let ours: Vec<&String> = entry
                    .symbols
                    .iter()
                    .filter(|symbol| shared_symbols.contains(symbol))
                    .collect();
                if ours.is_empty() {
                    continue;
                }
                Diagnostic::warning(format!(
                    "{} {} data of a shared library, which capecc cannot track: writes inside a parallel region are not merged",
                    describe(&ours, entry.size),
                    if ours.len() == 1 { "is" } else { "are" }
                ))
                .with_note("help: link that library statically (`libNAME.a`, or `-lNAME` with only the `.a` in a `-L` directory) so that capecc can move its globals to shared memory")
            } else {
                let (file, member) = match entry.file.split_once('(') {
                    Some((file, member)) => (file, format!("({member}")),
                    None => (entry.file.as_str(), String::new()),
                };
                if is_system(file) {
                    continue;
                }
                // name the user's file, not our renamed copy of it
                let file = inputs
                    .copies
                    .iter()
                    .find(|(copy, _)| Path::new(file) == copy)
                    .map_or_else(|| file.to_string(), |(_, user)| path_arg(user));
                let symbols: Vec<&String> = entry.symbols.iter().collect();
                Diagnostic::warning(format!(
                    "{} (in `{file}{member}`) is writable data outside the memory capecc tracks: writes to it inside a parallel region are not merged",
                    describe(&symbols, entry.size),
                ))
                .with_note(if entry.section == "COMMON" {
                    "help: common symbols cannot be moved: compile that file with `-fno-common` (gcc's default since gcc 10) or with capecc"
                } else {
                    "help: compile that file with capecc, or give it to capecc as an object (`.o`) or static library (`.a`)"
                })
            };
            self.render(&crate::encoding::Encoded::new(b""), &[diagnostic]);
        }
    }

    /// Directories the backend compiler searches for its own libraries and start files.
    fn system_library_dirs(&self) -> Vec<PathBuf> {
        let mut argv = self.cc.clone();
        argv.push("-print-search-dirs".to_string());
        let Some((program, rest)) = argv.split_first() else {
            return Vec::new();
        };
        let Ok(output) = std::process::Command::new(program).args(rest).output() else {
            return Vec::new();
        };
        let text = String::from_utf8_lossy(&output.stdout);
        text.lines()
            .filter_map(|line| line.strip_prefix("libraries: ="))
            .flat_map(|dirs| dirs.split(':'))
            .filter(|dir| !dir.is_empty())
            .map(|dir| {
                Path::new(dir)
                    .canonicalize()
                    .unwrap_or_else(|_| PathBuf::from(dir))
            })
            .collect()
    }
}

/// `a`, `b` or `16 bytes of static data` (statics have no symbol in the map).
fn describe(symbols: &[&String], size: u64) -> String {
    if symbols.is_empty() {
        return format!("{size} bytes of static data");
    }
    let names: Vec<String> = symbols.iter().map(|s| format!("`{s}`")).collect();
    names.join(", ")
}

fn is_shared_library(path: &Path) -> bool {
    let mut head = [0u8; 18];
    std::fs::File::open(path)
        .and_then(|mut file| std::io::Read::read_exact(&mut file, &mut head))
        .is_ok()
        && elf::is_shared_library(&head)
}

/// The file `ld` takes for `-lNAME` (or `-l:FILE`) if it is in one of the user's `dirs`: the
/// first directory holding the library decides, and the shared library wins unless `-static`.
fn find_library(name: &str, dirs: &[PathBuf], static_only: bool) -> Option<PathBuf> {
    if name.is_empty() {
        return None;
    }
    for dir in dirs {
        if let Some(file) = name.strip_prefix(':') {
            let path = dir.join(file);
            if path.is_file() {
                return Some(path);
            }
            continue;
        }
        let shared = dir.join(format!("lib{name}.so"));
        if !static_only && shared.exists() {
            return Some(shared);
        }
        let path = dir.join(format!("lib{name}.a"));
        if path.is_file() {
            return Some(path);
        }
    }
    None
}
