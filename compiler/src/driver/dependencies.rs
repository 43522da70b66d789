//! Preprocessing for `-E`/`-M` and the dependency files (`-MD`, `-MMD`, `-MF`) of translated
//! inputs, which must name the user's files, not our intermediates.

use super::*;

impl Driver {
    /// `-E`, `-M`, `-MM`: the backend's preprocessor with our `omp.h`, nothing translated.
    pub(super) fn preprocess_only(&self) -> Step<()> {
        let mut argv = self.cc.clone();
        argv.push("-E".to_string());
        // macros in `#pragma omp` lines expanded, as `gcc -fopenmp -E` does
        argv.push("-fopenmp".to_string());
        argv.extend(self.openmp_include_args());
        argv.extend(self.plan.cpp_args.iter().cloned());
        argv.extend(self.plan.common_args.iter().cloned());
        argv.extend(self.plan.dep_args.iter().cloned());
        for input in &self.plan.inputs {
            if input.kind != InputKind::Linker {
                argv.push(path_arg(&input.path));
            }
        }
        if let Some(output) = &self.plan.output {
            argv.push("-o".to_string());
            argv.push(path_arg(output));
        }
        self.run_command(&argv)
    }

    /// `cc -E -dD`: the text the translator reads. `deps` adds dependency output (`-MD`).
    pub(super) fn preprocess(&self, input: &Path, output: &Path, deps: Option<&Path>) -> Step<()> {
        let mut argv = self.cc.clone();
        argv.extend(["-E".to_string(), "-dD".to_string()]);
        // `-fopenmp` makes the preprocessor expand macros in `#pragma omp` lines, as OpenMP
        // requires (`num_threads(N)` with `#define N 4`); capecc never links libgomp.
        argv.push("-fopenmp".to_string());
        argv.extend(self.openmp_include_args());
        argv.extend(self.plan.cpp_args.iter().cloned());
        argv.extend(self.plan.common_args.iter().cloned());
        if let Some(object) = deps {
            argv.extend(self.dependency_args(input, object));
        }
        argv.push(path_arg(input));
        argv.push("-o".to_string());
        argv.push(path_arg(output));
        self.run_command(&argv)?;
        if let Some(object) = deps {
            self.scrub_dependency_file(input, object);
        }
        Ok(())
    }

    /// The dependency file that `dependency_args(input, object)` makes the backend write.
    pub(super) fn dependency_file(&self, input: &Path, object: &Path) -> Option<PathBuf> {
        let deps = &self.plan.dep_args;
        if let Some(i) = deps.iter().position(|a| a.starts_with("-MF")) {
            return match deps[i].strip_prefix("-MF") {
                Some("") => deps.get(i + 1).map(PathBuf::from),
                Some(path) => Some(PathBuf::from(path)),
                None => None,
            };
        }
        if !self.plan.has_dep_file() {
            return None;
        }
        Some(default_dependency_file(self.plan.mode(), input, object))
    }

    /// Drops our temporary `omp.h`/`capert.h` from a dependency file (`-MD` lists system
    /// headers too): the directory is gone after the run, and `make` would look for it.
    pub(super) fn scrub_dependency_file(&self, input: &Path, object: &Path) {
        let Some(path) = self.dependency_file(input, object) else {
            return;
        };
        let Ok(text) = std::fs::read_to_string(&path) else {
            return;
        };
        let ours = self.include_dir.display().to_string();
        if !text.contains(&ours) {
            return;
        }
        let mut kept = String::with_capacity(text.len());
        for line in text.lines() {
            let rest: Vec<&str> = line.split(' ').filter(|w| !w.starts_with(&ours)).collect();
            let rest = rest.join(" ");
            // a line that only named our files (a prerequisite, or a `-MP` phony target)
            // goes, also when a continuation backslash is all that is left of it
            if rest.len() < line.len() && matches!(rest.trim(), "" | "\\") {
                continue;
            }
            kept.push_str(&rest);
            kept.push('\n');
        }
        let _ = std::fs::write(&path, kept);
    }

    /// The user's `-MD`/`-MMD`/... plus the file and target gcc would have chosen for `object`
    /// (the preprocessing step's own `-o` is a temporary `.i`, so defaults must be explicit).
    pub(super) fn dependency_args(&self, input: &Path, object: &Path) -> Vec<String> {
        let deps = &self.plan.dep_args;
        if deps.is_empty() {
            return Vec::new();
        }
        let mut argv = deps.clone();
        if self.plan.has_dep_file() && !deps.iter().any(|a| a.starts_with("-MF")) {
            argv.push("-MF".to_string());
            argv.push(path_arg(&default_dependency_file(
                self.plan.mode(),
                input,
                object,
            )));
        }
        if !deps
            .iter()
            .any(|a| a.starts_with("-MT") || a.starts_with("-MQ"))
        {
            argv.push("-MT".to_string());
            argv.push(path_arg(object));
        }
        argv
    }
}

/// The `.d` file gcc writes for `-MD`/`-MMD` without `-MF`: beside the object for `-c`, else
/// named after the input.
fn default_dependency_file(mode: Mode, input: &Path, object: &Path) -> PathBuf {
    if mode == Mode::Compile {
        object.with_extension("d")
    } else {
        default_output(input, Mode::Compile).with_extension("d")
    }
}
