//! The gcc-compatible command line, parsed into a [`Plan`] without any I/O.
//!
//! gcc's option syntax (`-Idir` and `-I dir`, `-Wl,a,b`, `-O2`, ...) does not fit a
//! declarative argument parser, so this is a small hand-written one. Every option lands in
//! exactly one bucket that says which backend steps see it.

use std::path::{Path, PathBuf};

/// What the whole invocation produces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Compile and link an executable (no `-c`, `-S`, `-E`).
    Link,
    /// `-c`: one object file per input.
    Compile,
    /// `-S`: one assembly file per input.
    Assemble,
    /// `-E`, `-M`, `-MM`: the backend's preprocessor, passed through.
    Preprocess,
    /// `--emit-c`: the translated C, for people.
    EmitC,
    /// `-fsyntax-only`: preprocessed, translated and checked by the backend; nothing written.
    SyntaxOnly,
    /// `-dumpversion`, `-print-search-dirs`, ...: answered by the backend itself.
    BackendQuery,
    Help,
    Version,
}

/// How an input file is treated (by extension, or by a preceding `-x`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputKind {
    /// `.c`: preprocessed, translated, compiled.
    C,
    /// `.i`: already preprocessed C: translated and compiled.
    Preprocessed,
    /// `.s`, `.S`: handed to the backend as is.
    Assembly,
    /// `.o`, `.a`, `.so` and anything else: handed to the linker.
    Linker,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    pub path: PathBuf,
    pub kind: InputKind,
    /// The `-x` language in force for this input, as the backend must be told it (`c`,
    /// `cpp-output`, `assembler`, `assembler-with-cpp`); None: the extension decides.
    pub language: Option<&'static str>,
}

impl Input {
    /// The input as the backend's command line names it: `-x LANG PATH -x none` when a `-x`
    /// chose its language (gcc would otherwise go by the extension: `prog.txt` is a linker
    /// input to it), else the path alone.
    pub fn backend_args(&self) -> Vec<String> {
        let path = super::path_arg(&self.path);
        match self.language {
            Some(language) => vec![
                "-x".to_string(),
                language.to_string(),
                path,
                "-x".to_string(),
                "none".to_string(),
            ],
            None => vec![path],
        }
    }
}

/// One argument of the link command, in command-line order (order matters to `ld`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkItem {
    /// The object produced from (or given as) `inputs[i]`.
    Input(usize),
    /// `-lm`, `-L/x`, `-Wl,...`, `-static`, ...
    Arg(String),
}

/// Everything the driver needs to run, decided from the command line alone.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Plan {
    pub mode: Option<Mode>,
    pub inputs: Vec<Input>,
    pub output: Option<PathBuf>,
    /// `-I -D -U -include -isystem ...`: the preprocessing step only.
    pub cpp_args: Vec<String>,
    /// `-O -g -f -m -W -std= -pthread` and unknown options: every step.
    pub common_args: Vec<String>,
    /// `-Wa,...`: the compile step only.
    pub compile_args: Vec<String>,
    /// `-MD -MMD -MF -MT -MQ -MP -MG`: the preprocessing step, which reads the real sources.
    pub dep_args: Vec<String>,
    /// Inputs and linker options, in order.
    pub link: Vec<LinkItem>,
    /// Options answered by the backend (`-dumpversion`, `-print-*`).
    pub query_args: Vec<String>,
    pub verbose: bool,
    pub save_temps: bool,
    /// `--cc=CC`: the backend compiler command.
    pub cc: Option<String>,
    /// `--check=races` (`-fsanitize=cape-races`): a check build whose every load and store
    /// is recorded inside parallel regions (the exact race detector).
    pub check_races: bool,
    /// The code model the last of the pie/pic options chose for the translated C.
    pub code: CodeModel,
    /// Warnings about options capecc leaves out (`-flto`), printed before the build.
    pub warnings: Vec<String>,
    /// `-static`: refused for a link.
    pub static_link: bool,
}

/// How translated C addresses globals (the link is `-no-pie` whatever the choice).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CodeModel {
    /// No pie/pic option: gcc's default, position-independent (`-fPIE`).
    #[default]
    GccDefault,
    /// `-fno-pie`/`-fno-PIE`: absolute addresses.
    NoPie,
    /// `-fpic`/`-fPIC`/`-fpie`/`-fPIE`: the user's option, passed on as given.
    UserPic,
}

impl Plan {
    pub fn mode(&self) -> Mode {
        self.mode.unwrap_or(Mode::Link)
    }

    /// Whether `-MD`/`-MMD` asked for a dependency file as a side effect of compiling.
    pub fn has_dep_file(&self) -> bool {
        self.dep_args.iter().any(|a| a == "-MD" || a == "-MMD")
    }
}

/// A command-line problem, worded like rustc (lowercase, no final period).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgError {
    pub message: String,
    pub help: Option<String>,
}

impl ArgError {
    pub(crate) fn new(message: impl Into<String>) -> ArgError {
        ArgError {
            message: message.into(),
            help: None,
        }
    }

    pub(crate) fn with_help(mut self, help: impl Into<String>) -> ArgError {
        self.help = Some(help.into());
        self
    }
}

/// Options that take a value, either glued (`-Idir`) or as the next argument (`-I dir`).
/// The bucket decides which steps see them.
const VALUE_OPTIONS: &[(&str, Bucket)] = &[
    ("-I", Bucket::Cpp),
    ("-D", Bucket::Cpp),
    ("-U", Bucket::Cpp),
    ("-isystem", Bucket::Cpp),
    ("-iquote", Bucket::Cpp),
    ("-idirafter", Bucket::Cpp),
    ("-iprefix", Bucket::Cpp),
    ("-iwithprefix", Bucket::Cpp),
    ("-iwithprefixbefore", Bucket::Cpp),
    ("-isysroot", Bucket::Cpp),
    ("-L", Bucket::Link),
    ("-l", Bucket::Link),
    ("-MF", Bucket::Dep),
    ("-MT", Bucket::Dep),
    ("-MQ", Bucket::Dep),
    ("-T", Bucket::Link),
    ("-u", Bucket::Link),
    ("-z", Bucket::Link),
];

/// Options that always take the next argument as their value.
const SEPARATE_VALUE_OPTIONS: &[(&str, Bucket)] = &[
    ("-include", Bucket::Cpp),
    ("-imacros", Bucket::Cpp),
    ("-Xpreprocessor", Bucket::Cpp),
    ("-Xassembler", Bucket::Compile),
    ("-Xlinker", Bucket::Link),
    ("--param", Bucket::Common),
];

/// Flags (no value) that only the linker needs.
const LINK_FLAGS: &[&str] = &[
    "-rdynamic",
    "-s",
    "-nostdlib",
    "-nodefaultlibs",
    "-nostartfiles",
    "-static-libgcc",
    "-shared-libgcc",
    "-symbolic",
];

/// Flags (no value) that only the preprocessor needs.
const CPP_FLAGS: &[&str] = &["-nostdinc", "-undef", "-C", "-CC", "-P", "-H", "-trigraphs"];

/// Spellings of "use OpenMP": accepted and dropped (capecc is the OpenMP implementation).
const OPENMP_FLAGS: &[&str] = &[
    "-fopenmp",
    "-fopenmp-simd",
    "-fno-openmp",
    "-qopenmp",
    "-openmp",
    "-fiopenmp",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bucket {
    Cpp,
    Common,
    Compile,
    Link,
    Dep,
}

impl Plan {
    fn push(&mut self, bucket: Bucket, args: &[String]) {
        match bucket {
            Bucket::Cpp => self.cpp_args.extend_from_slice(args),
            Bucket::Common => self.common_args.extend_from_slice(args),
            Bucket::Compile => self.compile_args.extend_from_slice(args),
            Bucket::Dep => self.dep_args.extend_from_slice(args),
            Bucket::Link => {
                self.link.extend(args.iter().cloned().map(LinkItem::Arg));
            }
        }
    }

    fn set_mode(&mut self, mode: Mode) {
        // Like gcc, the option that stops earliest wins: -E over -S over -c.
        let rank = |m: Mode| match m {
            Mode::Help | Mode::Version => 0,
            Mode::BackendQuery => 1,
            Mode::Preprocess => 2,
            Mode::EmitC => 3,
            Mode::SyntaxOnly => 4,
            Mode::Assemble => 5,
            Mode::Compile => 6,
            Mode::Link => 7,
        };
        if self.mode.is_none_or(|old| rank(mode) < rank(old)) {
            self.mode = Some(mode);
        }
    }
}

/// The kind of an input file, from `-x LANG` if one is in force, else from its extension.
pub fn input_kind(path: &Path, language: Option<InputKind>) -> InputKind {
    if let Some(kind) = language {
        return kind;
    }
    match path.extension().and_then(|e| e.to_str()) {
        Some("c") => InputKind::C,
        Some("i") => InputKind::Preprocessed,
        Some("s" | "S" | "sx") => InputKind::Assembly,
        _ => InputKind::Linker,
    }
}

/// What `-x NAME` selects: the input kind and the language the backend is told.
type Language = Option<(InputKind, &'static str)>;

fn language(name: &str) -> Result<Language, ArgError> {
    match name {
        "c" | "c-header" => Ok(Some((InputKind::C, "c"))),
        "cpp-output" => Ok(Some((InputKind::Preprocessed, "cpp-output"))),
        "assembler" => Ok(Some((InputKind::Assembly, "assembler"))),
        "assembler-with-cpp" => Ok(Some((InputKind::Assembly, "assembler-with-cpp"))),
        "none" => Ok(None),
        other => Err(
            ArgError::new(format!("language `{other}` is not supported")).with_help(
                "capecc compiles C: use `-x c`, `-x cpp-output`, `-x assembler` or `-x none`",
            ),
        ),
    }
}

/// Parses the arguments after the program name.
pub fn parse_args(args: &[String]) -> Result<Plan, ArgError> {
    let mut plan = Plan::default();
    let mut language: Language = None;
    // `-` without `-x`: C, as gcc takes it, but only for `-E` (decided once the mode is known)
    let mut unlabelled_stdin = false;
    let mut i = 0;
    // The value of an option at `args[i]`: glued (`-Ifoo`) or the next argument (`-I foo`).
    let take_value = |i: &mut usize, option: &str, arg: &str| -> Result<(String, bool), ArgError> {
        if arg.len() > option.len() {
            Ok((arg[option.len()..].to_string(), true))
        } else {
            *i += 1;
            match args.get(*i) {
                Some(v) => Ok((v.clone(), false)),
                None => Err(ArgError::new(format!("missing argument to `{option}`"))),
            }
        }
    };

    // `i` indexes the current argument; take_value moves it onto a separate value.
    while i < args.len() {
        let arg = args[i].as_str();

        if arg == "-" || !arg.starts_with('-') {
            let path = PathBuf::from(arg);
            let (kind, language) = if arg == "-" && language.is_none() {
                unlabelled_stdin = true;
                (InputKind::C, None)
            } else {
                (
                    input_kind(&path, language.map(|l| l.0)),
                    language.map(|l| l.1),
                )
            };
            plan.link.push(LinkItem::Input(plan.inputs.len()));
            plan.inputs.push(Input {
                path,
                kind,
                language,
            });
            i += 1;
            continue;
        }

        match arg {
            "-c" => plan.set_mode(Mode::Compile),
            "-S" => plan.set_mode(Mode::Assemble),
            "-E" | "-M" | "-MM" => {
                plan.set_mode(Mode::Preprocess);
                if arg != "-E" {
                    plan.dep_args.push(arg.to_string());
                }
            }
            "--emit-c" => plan.set_mode(Mode::EmitC),
            "--help" | "-help" => plan.set_mode(Mode::Help),
            "--version" => plan.set_mode(Mode::Version),
            "-v" | "--verbose" => plan.verbose = true,
            "-save-temps" | "--save-temps" | "-save-temps=cwd" | "-save-temps=obj" => {
                plan.save_temps = true
            }
            "-pipe" | "-no-pie" => {}
            "-fno-pie" | "-fno-PIE" => plan.code = CodeModel::NoPie,
            "-fpie" | "-fPIE" | "-fpic" | "-fPIC" => {
                plan.code = CodeModel::UserPic;
                plan.common_args.push(arg.to_string());
            }
            "-shared" => {
                return Err(ArgError::new("`-shared` is not supported").with_help(
                    "CAPE programs need their globals at fixed addresses: build an executable",
                ))
            }
            "-pie" | "-static-pie" => {
                return Err(ArgError::new(format!("`{arg}` is not supported")).with_help(
                    "CAPE programs are linked with `-no-pie` so that globals sit at the same address on every rank",
                ))
            }
            "-MD" | "-MMD" | "-MP" | "-MG" => plan.dep_args.push(arg.to_string()),
            "-o" => {
                let (value, _) = take_value(&mut i, "-o", arg)?;
                plan.output = Some(PathBuf::from(value));
            }
            "-x" => {
                let (value, _) = take_value(&mut i, "-x", arg)?;
                language = self::language(&value)?;
            }
            "--check=races" | "-fsanitize=cape-races" => plan.check_races = true,
            "-fsyntax-only" => plan.set_mode(Mode::SyntaxOnly),
            // refused when linking (see `check`); compiling with it changes nothing
            "-static" => plan.static_link = true,
            _ if arg == "-flto" || arg.starts_with("-flto=") || arg == "-ffat-lto-objects" => {
                plan.warnings.push(format!(
                    "`{arg}` is ignored: capecc moves each object's data into the sections \
                     the runtime tracks, which link-time optimisation would undo"
                ));
            }
            _ if arg.starts_with("-fsanitize=") && !arg.starts_with("-fsanitize=cape-") => {
                if let Some(sanitizer) = arg["-fsanitize=".len()..].split(',').find(|s| {
                    matches!(
                        *s,
                        "address" | "thread" | "kernel-address" | "hwaddress" | "leak" | "memory"
                    )
                }) {
                    return Err(ArgError::new(format!(
                        "`-fsanitize={sanitizer}` is not supported"
                    ))
                    .with_help(
                        "the sanitizer's shadow memory takes the addresses where the runtime \
                         maps the program's memory; `--check=races` builds a data-race checker \
                         for capecc programs",
                    ));
                }
                plan.push(Bucket::Common, &[arg.to_string()]);
            }
            _ if arg.starts_with("--check=") => {
                return Err(ArgError::new(format!("unknown check in `{arg}`"))
                    .with_help("`--check=races` builds the program with the exact race detector; `CAPE_CHECK=divergence` at run time needs no special build"))
            }
            "--cc" => {
                let (value, _) = take_value(&mut i, "--cc", arg)?;
                plan.cc = Some(value);
            }
            _ if OPENMP_FLAGS.contains(&arg) || arg.starts_with("-fopenmp=") => {}
            _ if LINK_FLAGS.contains(&arg) => plan.push(Bucket::Link, &[arg.to_string()]),
            _ if CPP_FLAGS.contains(&arg) => plan.push(Bucket::Cpp, &[arg.to_string()]),
            _ if arg.starts_with("--cc=") => plan.cc = Some(arg["--cc=".len()..].to_string()),
            _ if arg.starts_with("-o") => plan.output = Some(PathBuf::from(&arg[2..])),
            _ if arg.starts_with("-x") => language = self::language(&arg[2..])?,
            _ if arg.starts_with("-dump") || arg.starts_with("-print-") => {
                plan.set_mode(Mode::BackendQuery);
                plan.query_args.push(arg.to_string());
            }
            _ if arg.starts_with("-Wl,") => plan.push(Bucket::Link, &[arg.to_string()]),
            _ if arg.starts_with("-Wa,") => plan.push(Bucket::Compile, &[arg.to_string()]),
            _ if arg.starts_with("-Wp,") => plan.push(Bucket::Cpp, &[arg.to_string()]),
            _ => {
                if let Some(&(option, bucket)) = SEPARATE_VALUE_OPTIONS.iter().find(|(o, _)| *o == arg) {
                    let (value, _) = take_value(&mut i, option, arg)?;
                        plan.push(bucket, &[option.to_string(), value]);
                } else if let Some(&(option, bucket)) = VALUE_OPTIONS
                    .iter()
                    .filter(|(o, _)| arg.starts_with(o))
                    .max_by_key(|(o, _)| o.len())
                {
                    let (value, glued) = take_value(&mut i, option, arg)?;
                        if glued {
                        plan.push(bucket, &[arg.to_string()]);
                    } else {
                        plan.push(bucket, &[option.to_string(), value]);
                    }
                } else {
                    // -O*, -g*, -f*, -m*, -W*, -w, -std=, -ansi, -pedantic, -pthread, -p, -pg,
                    // --sysroot=, and options capecc does not know: the backend sees them at
                    // every step and reports the ones it does not know either.
                    plan.push(Bucket::Common, &[arg.to_string()]);
                }
            }
        }
        i += 1;
    }

    // `gcc -v` alone prints the version.
    if plan.verbose && plan.inputs.is_empty() && plan.mode.is_none() {
        plan.mode = Some(Mode::Version);
    }
    if unlabelled_stdin && plan.mode() != Mode::Preprocess {
        return Err(
            ArgError::new("`-E` or `-x` required when input is from standard input")
                .with_help("use `-x c -` to read C from standard input"),
        );
    }
    check(&plan)?;
    Ok(plan)
}

/// Combinations gcc refuses, refused the same way.
fn check(plan: &Plan) -> Result<(), ArgError> {
    let mode = plan.mode();
    if matches!(mode, Mode::Help | Mode::Version | Mode::BackendQuery) {
        return Ok(());
    }
    if plan.inputs.is_empty() {
        return Err(ArgError::new("no input files"));
    }
    let translated = plan
        .inputs
        .iter()
        .filter(|input| input.kind != InputKind::Linker)
        .count();
    match mode {
        Mode::Link if plan.static_link => Err(ArgError::new("`-static` is not supported")
            .with_help(
                "capecc programs link the MPI library, which is shared; leave out `-static`",
            )),
        Mode::Compile | Mode::Assemble if plan.output.is_some() && translated > 1 => Err(
            ArgError::new("cannot specify `-o` with `-c` or `-S` with multiple files"),
        ),
        Mode::EmitC if plan.output.is_some() && translated > 1 => Err(ArgError::new(
            "cannot specify `-o` with `--emit-c` with multiple files",
        )
        .with_help("leave out `-o` to write every translated file to standard output")),
        Mode::EmitC
            if plan
                .inputs
                .iter()
                .any(|input| !matches!(input.kind, InputKind::C | InputKind::Preprocessed)) =>
        {
            Err(ArgError::new("`--emit-c` takes C files only"))
        }
        _ => Ok(()),
    }
}

/// gcc's default output names: `a.out`, `foo.o` for `-c` and `foo.s` for `-S`, in the current
/// directory whatever the input's directory.
pub fn default_output(input: &Path, mode: Mode) -> PathBuf {
    let stem = input
        .file_stem()
        .map(|s| s.to_os_string())
        .unwrap_or_else(|| "stdin".into());
    let mut name = PathBuf::from(stem);
    match mode {
        Mode::Compile => name.set_extension("o"),
        Mode::Assemble => name.set_extension("s"),
        _ => return PathBuf::from("a.out"),
    };
    name
}

pub const HELP: &str = "\
Usage: capecc [options] file...
Compiles OpenMP C programs for CAPE: run the result with `mpirun -np N ./prog`.

capecc accepts gcc's options; the ones it handles itself:
  -o <file>         place the output into <file>
  -c                compile and assemble, do not link
  -S                compile only, do not assemble
  -E                preprocess only
  -fsyntax-only     check the program (translated, and by the backend), write nothing
  --emit-c          write the translated C (to standard output, or to -o <file>)
  --cc=<cc>         backend C compiler (default `mpicc`, or $CAPECC_CC)
  -v                print the commands capecc runs
  -save-temps       keep intermediate files (foo.i, foo.cape.c) in the current directory
  -fopenmp          accepted and ignored: OpenMP is always on
  --check=races     a check build that reports every data race of each run (also spelled
                    -fsanitize=cape-races; give it when compiling and when linking)
  --help            print this help
  --version         print the version

Preprocessor options (-I -D -U -include -isystem ...), code generation options
(-O -g -f -m -W -std=) and linker options (-l -L -Wl, -Xlinker) go to the backend.
@FILE reads further options from FILE (gcc's quoting). Refused: -shared, -pie, -static,
-fsanitize=address/thread (use --check=races); ignored with a warning: -flto.

Environment:
  CAPECC_CC         backend C compiler
  CAPECC_RUNTIME    the capert runtime library (libcapert.a) or its directory
";
