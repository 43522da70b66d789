//! The command line: caperun's own options, mpirun options passed through, the program.
//! Pure: no I/O, errors are message strings (rustc style, without the `caperun: error:` prefix).

use std::path::PathBuf;
use std::time::Duration;

pub const USAGE: &str = "\
usage: caperun [-np N] [--checkpoint DIR] [--retries N] [--timeout SECS] [--mpirun CMD]
               [MPIRUN-OPTIONS...] [--] PROGRAM [ARGS...]

Runs PROGRAM (built with capecc) under mpirun with a durable checkpoint log, and when a
rank dies relaunches it from the log until it completes or the retries run out.

options:
  -np N, -n N        number of ranks (passed to mpirun)
  --checkpoint DIR   checkpoint directory (default: ./PROGRAM.cape-ckpt)
  --retries N        relaunches after failures (default: 3)
  --timeout SECS     kill an attempt that runs longer than SECS and count it as a failure
  --resume           start from the log already in DIR (CAPE_RESTART) instead of afresh
  --mpirun CMD       the launcher, may carry options (default: $CAPERUN_MPIRUN, else mpirun)
  --                 ends the options: the next argument is the program
  -h, --help         this text
  --version          caperun's version
Any other option before the program goes to mpirun unchanged; put `--` before the program
when an mpirun option caperun does not know takes a value.
The exit status is the program's (1 when the job failed or was refused).";

/// What the command line asks for.
#[derive(Debug, PartialEq, Eq)]
pub enum Command {
    Run(Options),
    Help,
    Version,
}

#[derive(Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// `-np N`.
    pub np: Option<u32>,
    /// `--checkpoint DIR`.
    pub checkpoint: Option<PathBuf>,
    pub retries: u32,
    /// `--timeout SECS` per attempt.
    pub timeout: Option<Duration>,
    /// `--resume`: the first attempt restarts from the log in DIR.
    pub resume: bool,
    /// `--mpirun CMD`, split on whitespace.
    pub mpirun: Option<Vec<String>>,
    /// Options for mpirun, in their order.
    pub mpirun_args: Vec<String>,
    pub program: String,
    pub program_args: Vec<String>,
}

pub const DEFAULT_RETRIES: u32 = 3;

/// Open MPI `mpirun` options that take values (how many), so that their values are not taken
/// for the program. Single- and double-dash spellings are both accepted by Open MPI.
fn mpirun_option_values(opt: &str) -> usize {
    let name = opt.trim_start_matches('-');
    match name {
        "mca" | "gmca" | "omca" => 2,
        "hostfile"
        | "machinefile"
        | "default-hostfile"
        | "host"
        | "H"
        | "map-by"
        | "rank-by"
        | "bind-to"
        | "x"
        | "prefix"
        | "wdir"
        | "wd"
        | "path"
        | "app"
        | "rankfile"
        | "rf"
        | "npernode"
        | "N"
        | "npersocket"
        | "cpus-per-proc"
        | "cpus-per-rank"
        | "cpu-set"
        | "output-filename"
        | "preload-files"
        | "am"
        | "tune"
        | "report-uri"
        | "ompi-server"
        | "stdin"
        | "c"
        | "max-vm-size"
        | "merge-stderr-to-stdout-file"
        | "xml-file"
        | "launch-agent"
        | "report-pid"
        | "set-sid-file" => 1,
        _ => 0,
    }
}

fn parse_count(opt: &str, value: &str) -> Result<u32, String> {
    value
        .parse::<u32>()
        .map_err(|_| format!("`{opt}` needs a whole number, found `{value}`"))
}

fn parse_seconds(opt: &str, value: &str) -> Result<Duration, String> {
    match value.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!(
            "`{opt}` needs a positive number of seconds, found `{value}`"
        )),
    }
}

/// Parses `args` (without argv[0]).
pub fn parse(args: &[String]) -> Result<Command, String> {
    let mut o = Options {
        retries: DEFAULT_RETRIES,
        ..Options::default()
    };
    let mut i = 0;
    // The value of option `opt`: the next argument, or the part after `=`. A next argument
    // that looks like an option is the value forgotten (`--checkpoint -np 2 ./p`), not a
    // directory named `-np`: refused, as getopt-style tools refuse a missing argument; a
    // value starting with `-` is given after `=`.
    let take = |i: &mut usize, opt: &str, inline: Option<&str>| -> Result<String, String> {
        if let Some(v) = inline {
            return Ok(v.to_string());
        }
        *i += 1;
        let v = args
            .get(*i)
            .ok_or_else(|| format!("`{opt}` needs a value"))?;
        if looks_like_option(v) {
            return Err(format!(
                "`{opt}` needs a value, but the next argument is the option `{v}` (a value starting with `-` is given as `{}={v}`)",
                if opt.starts_with("--") { opt.to_string() } else { format!("-{opt}") }
            ));
        }
        Ok(v.clone())
    };
    while i < args.len() {
        let arg = args[i].as_str();
        if arg == "--" {
            i += 1;
            break;
        }
        if !arg.starts_with('-') || arg == "-" {
            break;
        }
        let (opt, inline) = match arg.split_once('=') {
            Some((k, v)) if k.starts_with("--") => (k, Some(v)),
            _ => (arg, None),
        };
        match opt {
            "-h" | "--help" => return Ok(Command::Help),
            "--version" => return Ok(Command::Version),
            "-np" | "-n" | "--np" | "--n" => {
                let v = take(&mut i, opt, inline)?;
                let n = parse_count(opt, &v)?;
                if n == 0 {
                    return Err(format!("`{opt}` needs at least 1 rank"));
                }
                o.np = Some(n);
            }
            "--checkpoint" => {
                let v = take(&mut i, opt, inline)?;
                if v.is_empty() {
                    return Err("`--checkpoint` needs a directory".into());
                }
                o.checkpoint = Some(PathBuf::from(v));
            }
            "--retries" => {
                let v = take(&mut i, opt, inline)?;
                o.retries = parse_count(opt, &v)?;
            }
            "--timeout" => {
                let v = take(&mut i, opt, inline)?;
                o.timeout = Some(parse_seconds(opt, &v)?);
            }
            "--resume" => o.resume = true,
            "--mpirun" => {
                let v = take(&mut i, opt, inline)?;
                o.mpirun = Some(split_command(&v).ok_or("`--mpirun` needs a command")?);
            }
            _ => {
                o.mpirun_args.push(arg.to_string());
                if inline.is_none() {
                    for _ in 0..mpirun_option_values(opt) {
                        i += 1;
                        let v = args
                            .get(i)
                            .ok_or_else(|| format!("mpirun option `{opt}` needs a value"))?;
                        if looks_like_option(v) {
                            return Err(format!(
                                "mpirun option `{opt}` needs a value, but the next argument is the option `{v}`"
                            ));
                        }
                        o.mpirun_args.push(v.clone());
                    }
                }
            }
        }
        i += 1;
    }
    let Some(program) = args.get(i) else {
        return Err("no program given (see `caperun --help`)".into());
    };
    o.program = program.clone();
    o.program_args = args[i + 1..].to_vec();
    Ok(Command::Run(o))
}

/// An argument that is an option rather than a value: `-x`, `--name` (a lone `-` is a value).
fn looks_like_option(arg: &str) -> bool {
    arg.len() > 1 && arg.starts_with('-')
}

/// Splits a launcher command such as `mpirun --bind-to none` on whitespace; `None` if empty.
pub fn split_command(text: &str) -> Option<Vec<String>> {
    let words: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    (!words.is_empty()).then_some(words)
}

/// The default checkpoint directory: `./<program file name>.cape-ckpt`.
pub fn default_checkpoint_dir(program: &str) -> PathBuf {
    let name = std::path::Path::new(program)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| !n.is_empty() && n != "." && n != "..")
        .unwrap_or_else(|| "job".to_string());
    PathBuf::from(format!("{name}.cape-ckpt"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Result<Options, String> {
        let v: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        match parse(&v)? {
            Command::Run(o) => Ok(o),
            other => Err(format!("not a run: {other:?}")),
        }
    }

    #[test]
    fn own_options_and_program() {
        let o = run(&[
            "-np",
            "4",
            "--checkpoint",
            "ck",
            "--retries",
            "5",
            "./prog",
            "a",
            "-np",
            "9",
        ])
        .unwrap();
        assert_eq!(o.np, Some(4));
        assert_eq!(o.checkpoint, Some(PathBuf::from("ck")));
        assert_eq!(o.retries, 5);
        assert_eq!(o.program, "./prog");
        // options after the program are the program's
        assert_eq!(o.program_args, ["a", "-np", "9"]);
        assert!(o.mpirun_args.is_empty());
    }

    #[test]
    fn defaults() {
        let o = run(&["prog"]).unwrap();
        assert_eq!(o.np, None);
        assert_eq!(o.retries, DEFAULT_RETRIES);
        assert_eq!(o.timeout, None);
        assert!(!o.resume);
    }

    #[test]
    fn equals_forms() {
        let o = run(&[
            "--checkpoint=d",
            "--retries=0",
            "--timeout=1.5",
            "--np=2",
            "p",
        ])
        .unwrap();
        assert_eq!(o.checkpoint, Some(PathBuf::from("d")));
        assert_eq!(o.retries, 0);
        assert_eq!(o.timeout, Some(Duration::from_millis(1500)));
        assert_eq!(o.np, Some(2));
    }

    #[test]
    fn mpirun_options_pass_through_with_their_values() {
        let o = run(&[
            "--hostfile",
            "hosts",
            "-n",
            "2",
            "--mca",
            "btl",
            "self,tcp",
            "--oversubscribe",
            "-x",
            "FOO",
            "--map-by=core",
            "./prog",
        ])
        .unwrap();
        assert_eq!(
            o.mpirun_args,
            [
                "--hostfile",
                "hosts",
                "--mca",
                "btl",
                "self,tcp",
                "--oversubscribe",
                "-x",
                "FOO",
                "--map-by=core"
            ]
        );
        assert_eq!(o.np, Some(2));
        assert_eq!(o.program, "./prog");
    }

    #[test]
    fn double_dash_ends_options() {
        let o = run(&["--unknown-with-value", "--", "-weird", "x"]).unwrap();
        assert_eq!(o.mpirun_args, ["--unknown-with-value"]);
        assert_eq!(o.program, "-weird");
        assert_eq!(o.program_args, ["x"]);
    }

    #[test]
    fn mpirun_command_is_split() {
        let o = run(&["--mpirun", "mpirun --bind-to none", "p"]).unwrap();
        assert_eq!(
            o.mpirun,
            Some(vec!["mpirun".into(), "--bind-to".into(), "none".into()])
        );
    }

    #[test]
    fn errors() {
        assert_eq!(
            run(&["-np"]).unwrap_err(),
            "`-np` needs a value".to_string()
        );
        assert!(run(&["-np", "x", "p"])
            .unwrap_err()
            .contains("whole number"));
        assert!(run(&["-np", "0", "p"]).unwrap_err().contains("at least 1"));
        assert!(run(&["--retries", "-1", "p"]).is_err());
        assert!(run(&["--timeout", "0", "p"])
            .unwrap_err()
            .contains("positive"));
        assert!(run(&["--timeout", "nan", "p"]).is_err());
        assert!(run(&["--mpirun", " ", "p"]).is_err());
        assert!(run(&["-np", "2"]).unwrap_err().contains("no program"));
        assert!(run(&["--mca", "btl"])
            .unwrap_err()
            .contains("needs a value"));
    }

    #[test]
    fn a_value_that_is_an_option_is_refused() {
        assert_eq!(
            run(&["--checkpoint", "-np", "2", "./p"]).unwrap_err(),
            "`--checkpoint` needs a value, but the next argument is the option `-np` (a value starting with `-` is given as `--checkpoint=-np`)"
        );
        assert!(run(&["-np", "--checkpoint", "d", "./p"])
            .unwrap_err()
            .starts_with(
                "`-np` needs a value, but the next argument is the option `--checkpoint`"
            ));
        for opt in ["--retries", "--timeout", "--mpirun"] {
            assert!(run(&[opt, "--resume", "./p"]).is_err(), "{opt}");
        }
        assert_eq!(
            run(&["--hostfile", "-np", "2", "./p"]).unwrap_err(),
            "mpirun option `--hostfile` needs a value, but the next argument is the option `-np`"
        );
        // after `=` a value may start with `-`; a lone `-` is a value
        let o = run(&["--checkpoint=-np", "./p"]).unwrap();
        assert_eq!(o.checkpoint, Some(PathBuf::from("-np")));
        let o = run(&["--checkpoint", "-", "./p"]).unwrap();
        assert_eq!(o.checkpoint, Some(PathBuf::from("-")));
    }

    #[test]
    fn help_and_version() {
        let v = |a: &[&str]| parse(&a.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(v(&["--help"]), Ok(Command::Help));
        assert_eq!(v(&["-np", "2", "-h"]), Ok(Command::Help));
        assert_eq!(v(&["--version"]), Ok(Command::Version));
        // after the program, --help is the program's
        assert!(matches!(v(&["p", "--help"]), Ok(Command::Run(_))));
    }

    #[test]
    fn default_dir_is_named_after_the_program() {
        assert_eq!(
            default_checkpoint_dir("./bin/jacobi"),
            PathBuf::from("jacobi.cape-ckpt")
        );
        assert_eq!(default_checkpoint_dir("/"), PathBuf::from("job.cape-ckpt"));
    }
}
