//! lang-c wrapper: the preprocessed translation unit -> AST; a syntax error -> one Diagnostic.

use lang_c::ast::TranslationUnit;
use lang_c::driver::{parse_preprocessed, Config, Flavor};

use crate::diag::{Diagnostic, Span};

/// Parses GNU C11. Pragma, `#define` and line-marker lines are whitespace to lang-c.
pub fn parse(preprocessed: &str) -> Result<TranslationUnit, Diagnostic> {
    match parse_preprocessed(&config(), preprocessed.to_string()) {
        Ok(parse) => Ok(parse.unit),
        Err(err) => {
            let at = err.offset.min(preprocessed.len());
            let found = found_token(preprocessed, at);
            let mut expected: Vec<&str> = err.expected.iter().copied().collect();
            expected.sort_unstable();
            let message = match found.as_deref() {
                Some(tok) => format!("syntax error: unexpected `{tok}`"),
                None => "syntax error: unexpected end of file".to_string(),
            };
            let len = found.as_ref().map_or(0, |t| t.len());
            let mut diag =
                Diagnostic::error(message).with_primary(Span::new(at, at + len), "unexpected here");
            if !expected.is_empty() && expected.len() <= 8 {
                let list: Vec<String> = expected.iter().map(|e| format!("`{e}`")).collect();
                diag = diag.with_note(format!("expected one of {}", list.join(", ")));
            }
            Err(diag)
        }
    }
}

fn config() -> Config {
    Config {
        flavor: Flavor::GnuC11,
        ..Config::with_gcc()
    }
}

/// Where lang-c stops on `preprocessed`, or `None` if it parses.
pub fn error_offset(preprocessed: &str) -> Option<usize> {
    parse_preprocessed(&config(), preprocessed.to_string())
        .err()
        .map(|err| err.offset.min(preprocessed.len()))
}

/// The token at `at`: an identifier/number run or a single punctuation character.
fn found_token(text: &str, at: usize) -> Option<String> {
    let rest = text.get(at..)?;
    let first = rest.chars().next()?;
    if first.is_alphanumeric() || first == '_' {
        Some(
            rest.chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect(),
        )
    } else {
        Some(first.to_string())
    }
}
