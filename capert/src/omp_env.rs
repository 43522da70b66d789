//! The OpenMP environment variables capert does not act on (binding, places, wait policy, ...):
//! a value libgomp would refuse gets the warning libgomp gives, so a mistyped setting is not
//! silently taken for a valid one. `OMP_NUM_THREADS` and `OMP_SCHEDULE` are read by
//! `config.rs`, which refuses invalid values. Pure: the caller prints.

/// What a variable's value must look like.
enum Form {
    Boolean,
    /// `true`, `false` or `verbose`
    DisplayEnv,
    /// a non-negative integer
    Count,
    /// a positive integer
    Positive,
    /// a size: digits, optionally followed by one of `B`, `K`, `M`, `G`
    Size,
    /// one of these words, case-insensitive
    Word(&'static [&'static str]),
    /// a comma-separated list of these words
    Words(&'static [&'static str]),
    /// an abstract name (with an optional `(count)`) or an explicit list in braces
    Places,
}

const CHECKED: &[(&str, Form)] = &[
    ("OMP_DYNAMIC", Form::Boolean),
    ("OMP_NESTED", Form::Boolean),
    ("OMP_CANCELLATION", Form::Boolean),
    ("OMP_DISPLAY_ENV", Form::DisplayEnv),
    ("OMP_DISPLAY_AFFINITY", Form::Boolean),
    ("OMP_MAX_ACTIVE_LEVELS", Form::Count),
    ("OMP_MAX_TASK_PRIORITY", Form::Count),
    ("OMP_DEFAULT_DEVICE", Form::Count),
    ("OMP_THREAD_LIMIT", Form::Positive),
    ("OMP_STACKSIZE", Form::Size),
    ("OMP_WAIT_POLICY", Form::Word(&["active", "passive"])),
    (
        "OMP_TARGET_OFFLOAD",
        Form::Word(&["mandatory", "disabled", "default"]),
    ),
    (
        "OMP_PROC_BIND",
        Form::Words(&["true", "false", "master", "primary", "close", "spread"]),
    ),
    ("OMP_PLACES", Form::Places),
];

/// One `capert: warning:` line (without the prefix) per OpenMP variable set to a value
/// libgomp refuses, in a fixed order.
pub fn invalid_values(lookup: impl Fn(&str) -> Option<String>) -> Vec<String> {
    CHECKED
        .iter()
        .filter_map(|(name, form)| {
            let value = lookup(name)?;
            (!valid(form, value.trim())).then(|| {
                format!(
                    "`{name}={value}` is not a valid value (libgomp ignores it as well): ignored"
                )
            })
        })
        .collect()
}

fn valid(form: &Form, v: &str) -> bool {
    let lower = v.to_ascii_lowercase();
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match form {
        Form::Boolean => lower == "true" || lower == "false",
        Form::DisplayEnv => ["true", "false", "verbose"].contains(&lower.as_str()),
        Form::Count => digits(v),
        Form::Positive => digits(v) && v.bytes().any(|b| b != b'0'),
        Form::Size => {
            let number = lower.strip_suffix(['b', 'k', 'm', 'g']).unwrap_or(&lower);
            digits(number.trim_end())
        }
        Form::Word(words) => words.contains(&lower.as_str()),
        Form::Words(words) => lower.split(',').all(|w| words.contains(&w.trim())),
        Form::Places => places(&lower),
    }
}

/// `threads`, `cores`, `sockets`, `ll_caches` or `numa_domains`, optionally `(n)`; or an
/// explicit list of places in braces (checked for its characters only).
fn places(v: &str) -> bool {
    if v.starts_with('{') {
        return v
            .bytes()
            .all(|b| b.is_ascii_digit() || b"{}:,!- ".contains(&b));
    }
    let (name, count) = match v.split_once('(') {
        Some((name, rest)) => (name.trim(), Some(rest.trim_end_matches(')').trim())),
        None => (v, None),
    };
    ["threads", "cores", "sockets", "ll_caches", "numa_domains"].contains(&name)
        && count.is_none_or(|c| !c.is_empty() && c.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(pairs: &[(&str, &str)]) -> Vec<String> {
        invalid_values(|name| {
            pairs
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        })
    }

    #[test]
    fn values_libgomp_accepts_pass() {
        let ok = [
            ("OMP_DYNAMIC", "TRUE"),
            ("OMP_NESTED", "false"),
            ("OMP_PROC_BIND", "spread,close"),
            ("OMP_PLACES", "cores(4)"),
            ("OMP_PLACES", "{0:4},{4:4}"),
            ("OMP_STACKSIZE", "16M"),
            ("OMP_STACKSIZE", "512"),
            ("OMP_WAIT_POLICY", "PASSIVE"),
            ("OMP_THREAD_LIMIT", "64"),
            ("OMP_MAX_ACTIVE_LEVELS", "0"),
            ("OMP_DISPLAY_ENV", "verbose"),
        ];
        for pair in ok {
            assert!(check(&[pair]).is_empty(), "{pair:?}");
        }
    }

    #[test]
    fn values_libgomp_refuses_are_named() {
        let bad = [
            ("OMP_DYNAMIC", "perhaps"),
            ("OMP_PROC_BIND", "maybe"),
            ("OMP_PLACES", "nowhere"),
            ("OMP_STACKSIZE", "zz"),
            ("OMP_STACKSIZE", "4MB"),
            ("OMP_WAIT_POLICY", "idle"),
            ("OMP_THREAD_LIMIT", "-4"),
            ("OMP_THREAD_LIMIT", "0"),
            ("OMP_MAX_ACTIVE_LEVELS", "x"),
        ];
        for (name, value) in bad {
            let lines = check(&[(name, value)]);
            assert_eq!(lines.len(), 1, "{name}={value}");
            assert!(lines[0].starts_with(&format!("`{name}={value}` is not a valid value")));
        }
    }
}
