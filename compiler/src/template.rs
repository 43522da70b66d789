//! The C that constructs lower to lives in `templates/*.c` (embedded at build time). A template
//! file holds sections, each starting with a line `/*@ name */`; a section's text has
//! `{{placeholder}}`s that Rust fills. Rendering fails (never panics) when a placeholder has no
//! value or a value has no placeholder.

use crate::diag::Diagnostic;

pub const PRELUDE: &str = include_str!("../../templates/prelude.c");
pub const MAIN: &str = include_str!("../../templates/main.c");
pub const PARALLEL: &str = include_str!("../../templates/parallel.c");
pub const WORKSHARING: &str = include_str!("../../templates/worksharing.c");
pub const CONSTRUCTS: &str = include_str!("../../templates/constructs.c");
pub const OBJECTS: &str = include_str!("../../templates/objects.c");
pub const CHECK_HOOKS: &str = include_str!("../../templates/check_hooks.c");
pub const REDUCTION: &str = include_str!("../../templates/reduction.c");
pub const CRITICAL: &str = include_str!("../../templates/critical.c");

/// Every template file, for tests: (file name, text).
pub const ALL: &[(&str, &str)] = &[
    ("prelude.c", PRELUDE),
    ("main.c", MAIN),
    ("parallel.c", PARALLEL),
    ("worksharing.c", WORKSHARING),
    ("constructs.c", CONSTRUCTS),
    ("objects.c", OBJECTS),
    ("check_hooks.c", CHECK_HOOKS),
    ("reduction.c", REDUCTION),
    ("critical.c", CRITICAL),
];

/// The text of section `name` of a template file.
pub fn section<'t>(template: &'t str, name: &str) -> Result<&'t str, Diagnostic> {
    let header = format!("/*@ {name} */\n");
    let start = template
        .find(&header)
        .map(|i| i + header.len())
        .ok_or_else(|| {
            Diagnostic::error(format!(
                "internal error: template section `{name}` is missing"
            ))
        })?;
    let rest = template.get(start..).unwrap_or("");
    let end = rest.find("\n/*@ ").map_or(rest.len(), |i| i + 1);
    Ok(rest.get(..end).unwrap_or(rest))
}

/// The names of every section of a template file.
pub fn sections(template: &str) -> Vec<&str> {
    template
        .lines()
        .filter_map(|l| l.strip_prefix("/*@ ").and_then(|l| l.strip_suffix(" */")))
        .collect()
}

/// The placeholders of a text, in order of appearance (with repeats).
pub fn placeholders(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find("{{") {
        let after = rest.get(open + 2..).unwrap_or("");
        match after.find("}}") {
            Some(close) => {
                out.push(after.get(..close).unwrap_or(""));
                rest = after.get(close + 2..).unwrap_or("");
            }
            None => break,
        }
    }
    out
}

/// Renders section `name` of `template` with `values`.
pub fn render(template: &str, name: &str, values: &[(&str, &str)]) -> Result<String, Diagnostic> {
    let text = section(template, name)?;
    let used = placeholders(text);
    for (key, _) in values {
        if !used.contains(key) {
            return Err(Diagnostic::error(format!(
                "internal error: template section `{name}` has no placeholder `{key}`"
            )));
        }
    }
    let mut out = String::with_capacity(text.len() + 256);
    let mut rest = text;
    while let Some(open) = rest.find("{{") {
        out.push_str(rest.get(..open).unwrap_or(""));
        let after = rest.get(open + 2..).unwrap_or("");
        let Some(close) = after.find("}}") else {
            return Err(Diagnostic::error(format!(
                "internal error: unclosed placeholder in template `{name}`"
            )));
        };
        let key = after.get(..close).unwrap_or("");
        let value = values
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| *v)
            .ok_or_else(|| {
                Diagnostic::error(format!(
                    "internal error: no value for placeholder `{key}` of template `{name}`"
                ))
            })?;
        out.push_str(value);
        rest = after.get(close + 2..).unwrap_or("");
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_section_of_every_template_renders() {
        for (file, text) in ALL {
            let names = sections(text);
            assert!(!names.is_empty(), "{file} has no sections");
            for name in names {
                let section_text = section(text, name).expect("section exists");
                let keys = placeholders(section_text);
                let values: Vec<(&str, &str)> = keys.iter().map(|k| (*k, "X")).collect();
                let mut unique = values.clone();
                unique.dedup_by(|a, b| a.0 == b.0);
                unique.sort();
                unique.dedup();
                let out = render(text, name, &unique).expect("renders");
                assert!(!out.contains("{{"), "{file}/{name} left a placeholder");
            }
        }
    }

    #[test]
    fn missing_and_unknown_placeholders_are_errors() {
        let t = "/*@ a */\nx {{one}} y\n";
        assert!(render(t, "a", &[]).is_err());
        assert!(render(t, "a", &[("one", "1"), ("two", "2")]).is_err());
        assert_eq!(
            render(t, "a", &[("one", "1")]).ok(),
            Some("x 1 y\n".to_string())
        );
        assert!(render(t, "b", &[]).is_err());
    }
}
