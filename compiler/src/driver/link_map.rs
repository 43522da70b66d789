//! Reading GNU ld's linker map (`-Wl,-Map=FILE`): the writable input sections that ended up
//! outside capecc's tracked `cape_data`/`cape_bss`, with the file and symbols of each.

/// Writable data the tracker does not see.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Untracked {
    /// `.data`, `.bss.x`, `COMMON`, `.dynbss`
    pub section: String,
    /// The object (or `archive.a(member.o)`) it came from.
    pub file: String,
    pub size: u64,
    /// Its global symbols (static variables are not in the map).
    pub symbols: Vec<String>,
    /// `.dynbss`: copies of a shared library's variables made for a non-PIE program.
    pub copied_from_shared_library: bool,
}

fn is_writable_data(section: &str) -> bool {
    let data = section == ".data"
        || (section.starts_with(".data.") && !section.starts_with(".data.rel.ro"));
    let bss = section == ".bss" || section.starts_with(".bss.");
    data || bss || section == "COMMON" || section == ".dynbss"
}

/// `0x...` as a number.
fn hex(word: &str) -> Option<u64> {
    u64::from_str_radix(word.strip_prefix("0x")?, 16).ok()
}

/// The non-empty writable input sections of the memory map, in map order.
pub fn untracked_writable(map: &str) -> Vec<Untracked> {
    let Some(start) = map.find("Linker script and memory map") else {
        return Vec::new();
    };
    let mut found: Vec<Untracked> = Vec::new();
    // an input section name alone on its line: its address, size and file are on the next
    let mut pending_name: Option<String> = None;
    // whether the last input section is one we report (its symbol lines follow it)
    let mut collecting = false;
    for line in map[start..].lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let indented = line.starts_with(' ');
        if !indented {
            // an output section or a script statement
            pending_name = None;
            collecting = false;
            continue;
        }
        let section_line = line.starts_with(" .") || line.starts_with(" COMMON");
        let (name, rest) = match (section_line, pending_name.take()) {
            (true, _) if words.len() == 1 => {
                pending_name = Some(words[0].to_string());
                collecting = false;
                continue;
            }
            (true, _) => (words[0].to_string(), &words[1..]),
            (false, Some(name)) if words.len() >= 3 && hex(words[0]).is_some() => {
                (name, &words[..])
            }
            (false, _) => {
                // `0xADDR symbol` under a section we report
                if collecting && words.len() == 2 && hex(words[0]).is_some() {
                    if let Some(last) = found.last_mut() {
                        last.symbols.push(words[1].to_string());
                    }
                } else if !(words.len() == 2 && hex(words[0]).is_some()) {
                    collecting = false;
                }
                continue;
            }
        };
        collecting = false;
        let Some(size) = rest.get(1).and_then(|w| hex(w)) else {
            continue;
        };
        if size == 0 || rest.len() < 3 || !is_writable_data(&name) || hex(rest[0]).is_none() {
            continue;
        }
        collecting = true;
        found.push(Untracked {
            copied_from_shared_library: name == ".dynbss",
            section: name,
            file: rest[2..].join(" "),
            size,
            symbols: Vec::new(),
        });
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAP: &str = "\
Discarded input sections

 .data          0x0000000000000000        0x8 /tmp/gone.o

Linker script and memory map

.bss            0x0000000000404020       0x68
 *(.dynbss)
 .dynbss        0x0000000000404020       0x50 /usr/lib/x86_64-linux-gnu/crt1.o
                0x0000000000404020                counters
                0x0000000000404060                initialised
 *(.bss .bss.* .gnu.linkonce.b.*)
 .bss           0x0000000000404070        0x0 /usr/lib/x86_64-linux-gnu/crt1.o
 .bss.counter_array
                0x0000000000404080       0x40 lib/plain.a(plain.o)
                0x0000000000404080                counter_array
 COMMON         0x00000000004040c0        0x4 old.o
                0x00000000004040c0                shared_flag
cape_data       0x0000000000405000       0x10
 cape_data      0x0000000000405000       0x10 /tmp/x/main.o
                0x0000000000405000                tracked
 .data.rel.ro   0x0000000000406000        0x8 /tmp/x/main.o
";

    #[test]
    fn finds_writable_input_sections_outside_the_tracked_ones() {
        let found = untracked_writable(MAP);
        let summary: Vec<(&str, &str, u64, Vec<String>, bool)> = found
            .iter()
            .map(|u| {
                (
                    u.section.as_str(),
                    u.file.as_str(),
                    u.size,
                    u.symbols.clone(),
                    u.copied_from_shared_library,
                )
            })
            .collect();
        assert_eq!(
            summary,
            [
                (
                    ".dynbss",
                    "/usr/lib/x86_64-linux-gnu/crt1.o",
                    0x50,
                    vec!["counters".to_string(), "initialised".to_string()],
                    true
                ),
                (
                    ".bss.counter_array",
                    "lib/plain.a(plain.o)",
                    0x40,
                    vec!["counter_array".to_string()],
                    false
                ),
                ("COMMON", "old.o", 4, vec!["shared_flag".to_string()], false),
            ]
        );
    }
}
