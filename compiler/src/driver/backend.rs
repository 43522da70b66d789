//! The backend half of a build: compiling translated and plain inputs, moving the program's
//! data into the tracked sections, finding the runtime and linking.

use super::*;
use args::CodeModel;

impl Driver {
    /// `-c`, `-S` or a full build.
    pub(super) fn build(&self) -> Step<()> {
        let mode = self.plan.mode();
        let runtime = if mode == Mode::Link {
            Some(self.find_runtime()?)
        } else {
            None
        };
        let mut objects: Vec<Option<PathBuf>> = Vec::new();
        for (index, input) in self.plan.inputs.iter().enumerate() {
            let output = match (mode, &self.plan.output) {
                (Mode::Link, _) => self
                    .temp
                    .path()
                    .join(format!("{index}-{}", object_name(&input.path))),
                (_, Some(output)) => output.clone(),
                (_, None) => default_output(&input.path, mode),
            };
            let produced = self.compile_input(index, input, &output)?;
            objects.push(produced.then_some(output));
        }
        match runtime {
            Some(runtime) => self.link(&objects, &runtime),
            None => Ok(()),
        }
    }

    /// `-fsyntax-only`: each C input preprocessed, translated (capecc's own checks) and the
    /// translated C checked by the backend with `-fsyntax-only`; nothing is written.
    pub(super) fn syntax_only(&self) -> Step<()> {
        for (index, input) in self.plan.inputs.iter().enumerate() {
            let translated_path = match input.kind {
                InputKind::Linker | InputKind::Assembly => continue,
                InputKind::C if is_emitted_file(&input.path) => input.path.clone(),
                InputKind::C | InputKind::Preprocessed => self.translated(index, input, None)?,
            };
            let mut argv = self.cc.clone();
            argv.extend([
                "-fsyntax-only".to_string(),
                "-isystem".to_string(),
                path_arg(&self.include_dir),
            ]);
            argv.extend(without_forced_includes(&self.plan.cpp_args));
            argv.extend(self.plan.common_args.iter().cloned());
            argv.push(path_arg(&translated_path));
            self.run_command(&argv)?;
        }
        Ok(())
    }

    /// Compiles one input to `output` (an object, or assembly for `-S`). Returns whether it
    /// produced anything (linker inputs do not).
    pub(super) fn compile_input(&self, index: usize, input: &Input, output: &Path) -> Step<bool> {
        let assemble_only = self.plan.mode() == Mode::Assemble;
        match input.kind {
            InputKind::Linker => Ok(false),
            InputKind::Assembly => {
                if assemble_only {
                    return Ok(false);
                }
                // Assembly from `capecc -S` still has `.data`/`.bss`: its globals must move to
                // the shared sections like those of a C input.
                let raw_object = self
                    .temp
                    .path()
                    .join(format!("raw-{}", object_name(output)));
                let mut argv = self.cc.clone();
                argv.push("-c".to_string());
                argv.extend(self.plan.cpp_args.iter().cloned());
                argv.extend(self.plan.common_args.iter().cloned());
                argv.extend(self.plan.compile_args.iter().cloned());
                argv.extend(self.dependency_args(&input.path, output));
                argv.extend(input.backend_args());
                argv.extend(["-o".to_string(), path_arg(&raw_object)]);
                self.run_command(&argv)?;
                self.rename_sections(&raw_object, output)?;
                Ok(true)
            }
            InputKind::C if is_emitted_file(&input.path) => {
                // Already translated by `--emit-c`: compile it as it is.
                self.compile_translated(&input.path, output, Some(&input.path))?;
                Ok(true)
            }
            InputKind::C | InputKind::Preprocessed => {
                let deps = (!self.plan.dep_args.is_empty()).then_some(output);
                let translated_path = self.translated(index, input, deps)?;
                self.compile_translated(&translated_path, output, None)?;
                Ok(true)
            }
        }
    }

    /// A C (or preprocessed) input, preprocessed (dependencies written for `deps`) and
    /// translated into an intermediate file, whose path is returned.
    fn translated(&self, index: usize, input: &Input, deps: Option<&Path>) -> Step<PathBuf> {
        let preprocessed = if input.kind == InputKind::C {
            let path = self.intermediate(index, &input.path, "i");
            self.preprocess(input, &path, deps)?;
            path
        } else {
            input.path.clone()
        };
        // System headers collapsed back to `#include` lines: capert.h (included first by the
        // translated file) and expanded glibc headers would clash (anonymous struct typedefs
        // declared twice); re-read headers keep their include guards.
        let options = TranslateOptions {
            line_markers: true,
            collapse_system_headers: true,
        };
        let translated = self.translate_file(&preprocessed, &options)?;
        let path = self.intermediate(index, &input.path, "cape.c");
        self.write_file(&path, &translated)?;
        Ok(path)
    }

    /// `cc -c` (or `-S`) of translated C, then the section renaming for objects. The user's
    /// preprocessor options are given again: translated C re-includes system headers, and the
    /// `-D` block of the first preprocessing is not copied into it. `-include` is not: the
    /// translated C holds the translated text of those files.
    pub(super) fn compile_translated(
        &self,
        source: &Path,
        output: &Path,
        deps_for: Option<&Path>,
    ) -> Step<()> {
        let assemble_only = self.plan.mode() == Mode::Assemble;
        let raw_object = if assemble_only {
            output.to_path_buf()
        } else {
            self.temp
                .path()
                .join(format!("raw-{}", object_name(output)))
        };
        let mut argv = self.cc.clone();
        argv.push(if assemble_only { "-S" } else { "-c" }.to_string());
        argv.push("-isystem".to_string());
        argv.push(path_arg(&self.include_dir));
        // Before the user's flags, which may choose otherwise: loops start on a 32-byte
        // boundary, so where an outlined loop lands does not decide whether it crosses one
        // (docs/codegen.md: floyd-warshall's 26-byte inner loop, 1.4x slower when it did).
        if self.backend_accepts(ALIGN_LOOPS) {
            argv.push(ALIGN_LOOPS.to_string());
        }
        argv.extend(without_forced_includes(&self.plan.cpp_args));
        argv.extend(self.plan.common_args.iter().cloned());
        argv.extend(self.plan.compile_args.iter().cloned());
        if let Some(input) = deps_for {
            argv.extend(self.dependency_args(input, output));
        }
        // Last, so that they win. gcc's default code (position-independent, with the link's
        // `-no-pie` keeping globals at fixed addresses) unless the user chose: the translated
        // loops then get the addressing gcc -fopenmp gives the same loops (docs/codegen.md,
        // tenth round: either choice is faster on some kernels). Globals in .bss, never COMMON.
        match self.plan.code {
            CodeModel::GccDefault => argv.push("-fPIE".to_string()),
            CodeModel::NoPie => argv.push("-fno-pie".to_string()),
            CodeModel::UserPic => {}
        }
        argv.push("-fno-common".to_string());
        // Uninitialised locals would hold stack garbage that differs between ranks (library
        // and runtime frames left it there); a region writing a value equal to its own garbage
        // would then be invisible to the diff. Zero-initialised locals are the same everywhere.
        if self.backend_accepts(ZERO_INIT_LOCALS) {
            argv.push(ZERO_INIT_LOCALS.to_string());
        }
        if self.plan.check_races {
            // every load and store calls a hook (templates/check_hooks.c, linked in); debug
            // information gives the reports their source lines
            argv.extend(CHECK_FLAGS.iter().map(|f| f.to_string()));
        }
        argv.extend([path_arg(source), "-o".to_string(), path_arg(&raw_object)]);
        self.run_command(&argv)?;
        if let Some(input) = deps_for {
            self.scrub_dependency_file(input, output);
        }
        if assemble_only {
            return Ok(());
        }
        self.rename_sections(&raw_object, output)
    }

    /// Moves the object's `.data*`/`.bss*` sections to `cape_data`/`cape_bss`.
    pub(super) fn rename_sections(&self, object: &Path, output: &Path) -> Step<()> {
        let bytes = std::fs::read(object).map_err(|e| {
            report_error(&format!("cannot read `{}`: {e}", object.display()), None);
            1
        })?;
        let Some(names) = elf::section_names(&bytes) else {
            report_error(
                &format!("`{}` is not an ELF object file", object.display()),
                Some("capecc supports ELF targets (Linux) only"),
            );
            return Err(1);
        };
        let mut argv = vec![objcopy()];
        argv.extend(elf::rename_arguments(&names));
        argv.extend([path_arg(object), path_arg(output)]);
        self.run_command(&argv)
    }

    pub(super) fn find_runtime(&self) -> Step<PathBuf> {
        let env_value = std::env::var(runtime::RUNTIME_ENV).ok();
        let exe = std::env::current_exe().ok();
        let candidates = runtime::runtime_candidates(env_value.as_deref(), exe.as_deref());
        if let Some(found) = candidates.iter().find(|p| p.is_file()) {
            return Ok(found.clone());
        }
        let looked = candidates
            .iter()
            .map(|p| format!("`{}`", p.display()))
            .collect::<Vec<_>>();
        let mut diagnostic = Diagnostic::error("cannot find the capert runtime (libcapert.a)");
        if !looked.is_empty() {
            diagnostic = diagnostic.with_note(format!("note: looked at {}", looked.join(", ")));
        }
        diagnostic = diagnostic.with_note(format!(
            "help: build it with `cargo build --release` (it lands next to capecc), or set `{}` to the library or its directory",
            runtime::RUNTIME_ENV
        ));
        self.render(&Encoded::new(b""), &[diagnostic]);
        Err(1)
    }

    /// The object of a check build's access hooks, compiled without instrumentation.
    pub(super) fn check_hooks(&self) -> Step<PathBuf> {
        let source = self.temp.path().join("cape-check-hooks.c");
        let object = self.temp.path().join("cape-check-hooks.o");
        let text =
            crate::template::render(crate::template::CHECK_HOOKS, "hooks", &[]).map_err(|d| {
                report_error(&d.message, None);
                1
            })?;
        self.write_file(&source, text.as_bytes())?;
        let mut argv = self.cc.clone();
        argv.extend(["-c".to_string(), "-O2".to_string(), path_arg(&source)]);
        argv.extend(["-o".to_string(), path_arg(&object)]);
        self.run_command(&argv)?;
        Ok(object)
    }

    /// `cc -no-pie objects... libcapert.a <native libs>`, user inputs and linker options in
    /// their command-line order; linked again if library functions need fixed addresses.
    pub(super) fn link(&self, objects: &[Option<PathBuf>], runtime: &Path) -> Step<()> {
        let mut argv = self.cc.clone();
        argv.push("-no-pie".to_string());
        let map = self.link_map_path();
        if let Some(map) = &map {
            argv.push(format!("-Wl,-Map={}", path_arg(map)));
        }
        argv.extend(self.plan.common_args.iter().cloned());
        let inputs = self.link_arguments(objects)?;
        argv.extend(inputs.args.iter().cloned());
        if self.plan.check_races {
            argv.push(path_arg(&self.check_hooks()?));
        }
        let after_user_inputs = argv.len();
        argv.push(path_arg(runtime));
        argv.extend(runtime::NATIVE_LIBS.iter().map(|s| s.to_string()));
        let executable = self.plan.output.as_deref().unwrap_or(Path::new("a.out"));
        argv.push("-o".to_string());
        argv.push(path_arg(executable));
        self.run_command(&argv)?;
        self.fix_function_addresses(&argv, after_user_inputs, executable, &inputs.user_code)?;
        if let Some(map) = &map {
            self.warn_untracked_data(map, runtime, &inputs);
        }
        Ok(())
    }
}

/// The preprocessor options without `-include FILE`, whose text the translated C already holds.
fn without_forced_includes(cpp_args: &[String]) -> Vec<String> {
    let mut kept = Vec::with_capacity(cpp_args.len());
    let mut args = cpp_args.iter();
    while let Some(arg) = args.next() {
        if arg == "-include" {
            args.next();
        } else {
            kept.push(arg.clone());
        }
    }
    kept
}

/// One line of the backend's diagnostics as the user should read it: the translation renames
/// the program's `main` to `__cape_user_main` (the runtime's `main` calls it), so gcc and the
/// linker would say "In function `__cape_user_main`" of the user's own code.
pub(super) fn user_names(line: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    const RENAMED: &[u8] = b"__cape_user_main";
    if !line.windows(RENAMED.len()).any(|w| w == RENAMED) {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut out = Vec::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.windows(RENAMED.len()).position(|w| w == RENAMED) {
        out.extend_from_slice(&rest[..at]);
        out.extend_from_slice(b"main");
        rest = &rest[at + RENAMED.len()..];
    }
    out.extend_from_slice(rest);
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::user_names;

    #[test]
    fn the_users_main_keeps_its_name_in_backend_messages() {
        let gcc = "m.c: In function \u{2018}__cape_user_main\u{2019}:\n";
        assert_eq!(
            user_names(gcc.as_bytes()).as_ref(),
            "m.c: In function \u{2018}main\u{2019}:\n".as_bytes()
        );
        let ld = b"/usr/bin/ld: m.o: in function `__cape_user_main':\n";
        assert_eq!(
            user_names(ld).as_ref(),
            b"/usr/bin/ld: m.o: in function `main':\n"
        );
        let other = b"m.c:4:5: warning: 'x' is used uninitialized\n";
        assert_eq!(user_names(other).as_ref(), other);
    }
}
