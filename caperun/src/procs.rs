//! Finding our descendant processes in /proc (to kill what a dead mpirun left behind).

use std::collections::HashMap;

/// The parent pid from the text of `/proc/PID/stat` (`pid (comm) state ppid ...`; comm may
/// contain spaces and parentheses, so parse after the last `)`).
pub fn parent_from_stat(stat: &str) -> Option<u32> {
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// Every process below `root` in the (pid, parent) table, `root` excluded.
pub fn descendants_of(table: &[(u32, u32)], root: u32) -> Vec<u32> {
    let mut children: HashMap<u32, Vec<u32>> = HashMap::new();
    for &(pid, parent) in table {
        children.entry(parent).or_default().push(pid);
    }
    let mut out = Vec::new();
    let mut todo = vec![root];
    while let Some(p) = todo.pop() {
        for &c in children.get(&p).map(Vec::as_slice).unwrap_or(&[]) {
            if c != root && !out.contains(&c) {
                out.push(c);
                todo.push(c);
            }
        }
    }
    out
}

/// The (pid, parent) table of the system now.
pub fn process_table() -> Vec<(u32, u32)> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| {
            let pid: u32 = e.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(e.path().join("stat")).ok()?;
            Some((pid, parent_from_stat(&stat)?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_parent() {
        assert_eq!(parent_from_stat("123 (a b) c) S 45 123 123 0 -1"), Some(45));
        assert_eq!(parent_from_stat("1 (init) S 0 1 1"), Some(0));
        assert_eq!(parent_from_stat("garbage"), None);
    }

    #[test]
    fn tree_walk() {
        let t = [(2, 1), (3, 2), (4, 3), (5, 1), (6, 9), (7, 4)];
        let mut d = descendants_of(&t, 2);
        d.sort();
        assert_eq!(d, [3, 4, 7]);
        assert!(descendants_of(&t, 7).is_empty());
    }
}
