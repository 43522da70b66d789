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
                argv.extend(input.backend_args());
            }
        }
        // `-M`/`-MM` print their rules to `-o` or standard output: they go to a file of the run
        // first, so that our temporary headers can be taken out of them
        let rules_only = self.plan.dep_args.iter().any(|a| a == "-M" || a == "-MM");
        let user_file = self.user_dependency_file();
        let rules = (rules_only && user_file.is_none()).then(|| self.temp.path().join("rules.d"));
        if let Some(rules) = &rules {
            argv.extend(["-MF".to_string(), path_arg(rules)]);
        } else if let Some(output) = &self.plan.output {
            argv.push("-o".to_string());
            argv.push(path_arg(output));
        }
        self.run_command(&argv)?;
        let ours = self.include_dir.display().to_string();
        if let Some(rules) = &rules {
            let text = std::fs::read_to_string(rules).unwrap_or_default();
            let text = scrub_dependencies(&text, &ours).unwrap_or(text);
            return match &self.plan.output {
                Some(output) => self.write_file(output, text.as_bytes()),
                None => {
                    print!("{text}");
                    Ok(())
                }
            };
        }
        // `-E -MD`: the file gcc names after `-o`, or after the input
        let file = user_file.or_else(|| {
            let input = self.plan.inputs.first()?;
            self.plan.has_dep_file().then(|| match &self.plan.output {
                Some(output) => output.with_extension("d"),
                None => default_output(&input.path, Mode::Compile).with_extension("d"),
            })
        });
        if let Some(file) = file {
            scrub_file(&file, &ours);
        }
        Ok(())
    }

    /// The `-MF` file the user named, if any.
    fn user_dependency_file(&self) -> Option<PathBuf> {
        let deps = &self.plan.dep_args;
        let i = deps.iter().position(|a| a.starts_with("-MF"))?;
        match deps[i].strip_prefix("-MF") {
            Some("") => deps.get(i + 1).map(PathBuf::from),
            Some(path) => Some(PathBuf::from(path)),
            None => None,
        }
    }

    /// `cc -E -dD`: the text the translator reads. `deps` adds dependency output (`-MD`).
    pub(super) fn preprocess(&self, input: &Input, output: &Path, deps: Option<&Path>) -> Step<()> {
        let mut argv = self.cc.clone();
        argv.extend(["-E".to_string(), "-dD".to_string()]);
        // `-fopenmp` makes the preprocessor expand macros in `#pragma omp` lines, as OpenMP
        // requires (`num_threads(N)` with `#define N 4`); capecc never links libgomp.
        argv.push("-fopenmp".to_string());
        argv.extend(self.openmp_include_args());
        argv.extend(self.plan.cpp_args.iter().cloned());
        argv.extend(self.plan.common_args.iter().cloned());
        if let Some(object) = deps {
            argv.extend(self.dependency_args(&input.path, object));
        }
        argv.extend(input.backend_args());
        argv.push("-o".to_string());
        argv.push(path_arg(output));
        self.run_command(&argv)?;
        if let Some(object) = deps {
            self.scrub_dependency_file(&input.path, object);
        }
        Ok(())
    }

    /// The dependency file that `dependency_args(input, object)` makes the backend write.
    pub(super) fn dependency_file(&self, input: &Path, object: &Path) -> Option<PathBuf> {
        if let Some(file) = self.user_dependency_file() {
            return Some(file);
        }
        if !self.plan.has_dep_file() {
            return None;
        }
        Some(default_dependency_file(self.plan.mode(), input, object))
    }

    /// Drops our temporary `omp.h`/`capert.h` from a dependency file (`-MD` lists system
    /// headers too): the directory is gone after the run, and `make` would look for it.
    pub(super) fn scrub_dependency_file(&self, input: &Path, object: &Path) {
        if let Some(path) = self.dependency_file(input, object) {
            scrub_file(&path, &self.include_dir.display().to_string());
        }
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

/// `scrub_dependencies` on a file, rewritten only when something was taken out.
fn scrub_file(path: &Path, ours: &str) {
    let Ok(text) = std::fs::read_to_string(path) else {
        return;
    };
    if let Some(kept) = scrub_dependencies(&text, ours) {
        let _ = std::fs::write(path, kept);
    }
}

/// Make rules without the files under `ours` (our temporary `omp.h`/`capert.h`: the directory
/// is gone after the run, and `make` would look for them); None when they name none. A line
/// that only named our files goes (a prerequisite, or a `-MP` phony target), also when a
/// continuation backslash is all that is left of it, and a line whose continuation led only
/// to removed lines loses its backslash.
fn scrub_dependencies(text: &str, ours: &str) -> Option<String> {
    if ours.is_empty() || !text.contains(ours) {
        return None;
    }
    let mut kept: Vec<String> = Vec::new();
    for line in text.lines() {
        let rest: Vec<&str> = line.split(' ').filter(|w| !w.starts_with(ours)).collect();
        let rest = rest.join(" ");
        if rest.len() < line.len() && matches!(rest.trim(), "" | "\\") {
            continue;
        }
        kept.push(rest);
    }
    // a continuation must lead to a line that continues the rule
    for i in 0..kept.len() {
        let continues = kept
            .get(i + 1)
            .is_some_and(|next| next.starts_with(' ') && !next.trim().is_empty());
        if kept[i].ends_with('\\') && !continues {
            let trimmed = kept[i].trim_end_matches('\\').trim_end().to_string();
            kept[i] = trimmed;
        }
    }
    let mut out = kept.join("\n");
    out.push('\n');
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::scrub_dependencies;

    const OURS: &str = "/tmp/capecc-abc/include";

    #[test]
    fn our_headers_leave_the_rules() {
        let text = "p.o: p.c /usr/include/stdio.h \\\n /tmp/capecc-abc/include/omp.h\n";
        assert_eq!(
            scrub_dependencies(text, OURS).unwrap(),
            "p.o: p.c /usr/include/stdio.h\n"
        );
        let text = "p.o: p.c /tmp/capecc-abc/include/omp.h \\\n /usr/include/stdio.h\n";
        assert_eq!(
            scrub_dependencies(text, OURS).unwrap(),
            "p.o: p.c \\\n /usr/include/stdio.h\n"
        );
        assert_eq!(scrub_dependencies("p.o: p.c\n", OURS), None);
    }

    #[test]
    fn phony_targets_of_our_headers_go() {
        let text = "p.o: p.c /tmp/capecc-abc/include/omp.h \\\n q.h\n\n/tmp/capecc-abc/include/omp.h:\n\nq.h:\n";
        assert_eq!(
            scrub_dependencies(text, OURS).unwrap(),
            "p.o: p.c \\\n q.h\n\n\nq.h:\n"
        );
    }
}
