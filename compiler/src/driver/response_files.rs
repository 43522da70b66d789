//! `@file` arguments: the file's contents stand for the argument, as gcc reads them (libiberty's
//! `expandargv`): whitespace separates arguments, single and double quotes group, a backslash
//! takes the next character literally (inside quotes too), and an argument of the file that is
//! itself `@other` is expanded in turn.

use std::path::Path;

use super::args::ArgError;

/// How deep response files may name each other before capecc assumes a cycle.
const MAX_DEPTH: usize = 64;

/// The arguments with every `@file` replaced by the arguments the file holds. `read` reads a
/// file (the driver passes `std::fs::read`; tests pass a map).
pub fn expand(
    args: &[String],
    read: &dyn Fn(&Path) -> std::io::Result<Vec<u8>>,
) -> Result<Vec<String>, ArgError> {
    let mut out = Vec::with_capacity(args.len());
    expand_into(args, read, 0, &mut out)?;
    Ok(out)
}

fn expand_into(
    args: &[String],
    read: &dyn Fn(&Path) -> std::io::Result<Vec<u8>>,
    depth: usize,
    out: &mut Vec<String>,
) -> Result<(), ArgError> {
    for arg in args {
        let Some(name) = arg.strip_prefix('@').filter(|name| !name.is_empty()) else {
            out.push(arg.clone());
            continue;
        };
        if depth >= MAX_DEPTH {
            return Err(ArgError::new(format!(
                "response file `{name}` is nested more than {MAX_DEPTH} deep"
            ))
            .with_help("a response file names itself, directly or through others"));
        }
        let path = Path::new(name);
        if path.is_dir() {
            return Err(ArgError::new(format!(
                "cannot read response file `{name}`: it is a directory"
            )));
        }
        let bytes = read(path).map_err(|e| {
            ArgError::new(format!("cannot read response file `{name}`: {e}"))
                .with_help("`@FILE` reads further arguments from FILE")
        })?;
        let words = split(&String::from_utf8_lossy(&bytes));
        expand_into(&words, read, depth + 1, out)?;
    }
    Ok(())
}

/// The arguments of a response file's text, split like libiberty's `buildargv`.
pub fn split(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    // whether a word has started (an empty quoted word `""` is still an argument)
    let mut started = false;
    let (mut single, mut double, mut escaped) = (false, false, false);
    for c in text.chars() {
        if escaped {
            escaped = false;
            word.push(c);
            started = true;
        } else if c == '\\' {
            escaped = true;
            started = true;
        } else if single {
            if c == '\'' {
                single = false;
            } else {
                word.push(c);
            }
        } else if double {
            if c == '"' {
                double = false;
            } else {
                word.push(c);
            }
        } else if c.is_ascii_whitespace() {
            if started {
                words.push(std::mem::take(&mut word));
                started = false;
            }
        } else if c == '\'' {
            single = true;
            started = true;
        } else if c == '"' {
            double = true;
            started = true;
        } else {
            word.push(c);
            started = true;
        }
    }
    if started {
        words.push(word);
    }
    words
}
