//! `#pragma omp ` + arbitrary bytes through the directive parser: it must return a value or a
//! diagnostic, never panic, and every span it reports must lie inside the line.
#![no_main]

use capecc::diag::Span;
use capecc::directive::parse_pragma;
use libfuzzer_sys::fuzz_target;

const OFFSET: usize = 7;

fn check_span(line: &str, span: Span) {
    assert!(span.start >= OFFSET && span.start <= span.end && span.end <= OFFSET + line.len());
    assert!(line.is_char_boundary(span.start - OFFSET) && line.is_char_boundary(span.end - OFFSET));
}

fuzz_target!(|data: &[u8]| {
    let line = format!("#pragma omp {}", String::from_utf8_lossy(data));
    match parse_pragma(&line, OFFSET) {
        Ok(Some(d)) => {
            check_span(&line, d.span);
            check_span(&line, d.name_span);
            for c in &d.clauses {
                check_span(&line, c.span);
            }
        }
        Ok(None) => {}
        Err(e) => {
            if let Some((span, _)) = e.primary {
                check_span(&line, span);
            }
            for (span, _) in e.secondary {
                check_span(&line, span);
            }
        }
    }
});
