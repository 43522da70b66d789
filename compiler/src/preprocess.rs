//! Line markers of `cc -E -dD` output: mapping offsets back to the user's files, and the layout
//! edits that drop `<built-in>` blocks, strip or normalise markers and collapse system headers
//! back into their `#include` lines.

use crate::diag::Span;
use crate::emit::Edit;

/// A position in an original file. `line` and `column` are 1-based; the column counts bytes in
/// the preprocessed line (which gcc keeps identical to the user's line for user code).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

/// One `# N "file" flags` line.
#[derive(Debug, Clone)]
struct Marker {
    /// index of the marker line in `line_starts`
    line_index: usize,
    /// the line number the NEXT line has in `file`
    line: u32,
    file: String,
    enters: bool,
    returns: bool,
    system: bool,
}

/// Maps byte offsets of the preprocessed text to (file, line, column).
pub struct LineMap {
    line_starts: Vec<usize>,
    markers: Vec<Marker>,
    len: usize,
}

impl LineMap {
    pub fn new(preprocessed: &str) -> LineMap {
        let mut line_starts = vec![0];
        for (i, b) in preprocessed.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i + 1);
            }
        }
        let mut markers = Vec::new();
        for (index, &start) in line_starts.iter().enumerate() {
            let end = line_starts
                .get(index + 1)
                .map_or(preprocessed.len(), |&e| e);
            let text = preprocessed.get(start..end).unwrap_or("");
            if let Some(marker) = parse_marker(text, index) {
                markers.push(marker);
            }
        }
        LineMap {
            line_starts,
            markers,
            len: preprocessed.len(),
        }
    }

    fn line_index_of(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        }
    }

    /// The marker in force for a line, if any.
    fn marker_for_line(&self, line_index: usize) -> Option<&Marker> {
        let pos = self.markers.partition_point(|m| m.line_index < line_index);
        pos.checked_sub(1).and_then(|p| self.markers.get(p))
    }

    /// The original file, line and column of a byte offset of the preprocessed text.
    pub fn locate(&self, offset: usize) -> Option<Location> {
        if offset > self.len {
            return None;
        }
        let line_index = self.line_index_of(offset);
        let column = offset - self.line_starts.get(line_index)? + 1;
        let marker = self.marker_for_line(line_index)?;
        let line = marker.line as usize + (line_index - marker.line_index - 1);
        Some(Location {
            file: marker.file.clone(),
            line: u32::try_from(line).ok()?,
            column: u32::try_from(column).ok()?,
        })
    }

    /// Whether the offset lies in a system header (marker flag 3).
    pub fn is_system(&self, offset: usize) -> bool {
        self.marker_for_line(self.line_index_of(offset))
            .is_some_and(|m| m.system)
    }

    /// The system header whose text `offset` is in, if it is in one.
    pub fn system_file(&self, offset: usize) -> Option<&str> {
        self.marker_for_line(self.line_index_of(offset))
            .filter(|m| m.system)
            .map(|m| m.file.as_str())
    }

    /// The name of the translation unit's main file (the first marker's file).
    pub fn main_file(&self) -> Option<&str> {
        self.markers.first().map(|m| m.file.as_str())
    }

    /// Start offset of the line containing `offset`.
    pub fn line_start(&self, offset: usize) -> usize {
        self.line_starts
            .get(self.line_index_of(offset))
            .copied()
            .unwrap_or(0)
    }

    /// The text of each inclusion of a header named `basename`: from the line after the marker
    /// that enters it to the marker that returns from it.
    pub fn header_blocks(&self, basename: &str) -> Vec<Span> {
        let mut blocks = Vec::new();
        // (start of the block, include depth inside it) of the inclusion in progress
        let mut open: Option<(usize, usize)> = None;
        let mut depth = 0usize;
        for marker in &self.markers {
            let line_start =
                |index: usize| self.line_starts.get(index).copied().unwrap_or(self.len);
            if marker.enters {
                depth += 1;
                let base = marker.file.rsplit('/').next().unwrap_or(&marker.file);
                if open.is_none() && base == basename {
                    open = Some((line_start(marker.line_index + 1), depth));
                }
            } else if marker.returns {
                if let Some((start, inside)) = open {
                    if depth == inside {
                        blocks.push(Span::new(start, line_start(marker.line_index).max(start)));
                        open = None;
                    }
                }
                depth = depth.saturating_sub(1);
            }
        }
        if let Some((start, _)) = open {
            blocks.push(Span::new(start, self.len));
        }
        blocks
    }

    /// A `# N "file"` line that makes the text following it continue at `offset`'s line.
    pub fn marker_text_for(&self, offset: usize) -> Option<String> {
        let loc = self.locate(offset)?;
        Some(format!(
            "#line {} \"{}\"\n",
            loc.line.max(1),
            escape_file(&loc.file)
        ))
    }

    /// Edits that turn the preprocessed text into the emitted layout: `<built-in>` and
    /// `<command-line>` blocks dropped, markers removed (or stripped of their flags when headers
    /// are collapsed), and system headers entered from a user file replaced by the `#include`
    /// line that produced them (read via `read_source`).
    pub fn layout_edits(
        &self,
        preprocessed: &str,
        line_markers: bool,
        collapse_system_headers: bool,
        read_source: &dyn Fn(&str) -> Option<String>,
    ) -> Vec<Edit> {
        let mut edits = Vec::new();
        let main = match self.main_file() {
            Some(m) => m.to_string(),
            None => return edits,
        };
        // The include stack: (file, system) of each open file.
        let mut stack: Vec<(String, bool)> = Vec::new();
        // Start offset of a dropped range in progress, and the stack depth it ends at.
        let mut dropping: Option<(usize, usize)> = None;
        // the header being collapsed
        let mut collapsed = String::new();
        for (n, marker) in self.markers.iter().enumerate() {
            let start = self
                .line_starts
                .get(marker.line_index)
                .copied()
                .unwrap_or(self.len);
            let end = self
                .line_starts
                .get(marker.line_index + 1)
                .copied()
                .unwrap_or(self.len);
            let is_builtin = marker.file == "<built-in>" || marker.file == "<command-line>";
            if n == 0 || stack.is_empty() {
                stack = vec![(marker.file.clone(), marker.system)];
            } else if marker.enters {
                stack.push((marker.file.clone(), marker.system));
            } else if marker.returns {
                stack.pop();
                if let Some(top) = stack.last_mut() {
                    top.0 = marker.file.clone();
                } else {
                    stack.push((marker.file.clone(), marker.system));
                }
            } else if let Some(top) = stack.last_mut() {
                *top = (marker.file.clone(), marker.system);
            }
            let depth = stack.len();

            // Collapsing: the end of a system header entered from a user file (or from
            // `-include`, whose `<command-line>` block is dropped again after it).
            if let Some((from, ends_at)) = dropping.filter(|&(_, at)| at > 0) {
                if marker.returns && depth == ends_at {
                    let mut text = self.include_line(marker, &collapsed, read_source);
                    if is_builtin {
                        dropping = Some((end, 0));
                    } else {
                        if line_markers {
                            text.push_str(&format!(
                                "#line {} \"{}\"\n",
                                marker.line.max(1),
                                escape_file(&marker.file)
                            ));
                        }
                        dropping = None;
                    }
                    edits.push(Edit::replace(Span::new(from, end), text));
                }
                continue;
            }
            // `<built-in>` / `<command-line>` blocks: drop until the main file comes back at
            // depth 1, except the files of `-include`: their text stays where the option put
            // it, translated like the main file's (the backend is not given `-include` again).
            if depth == 1 && is_builtin {
                if dropping.is_none() {
                    dropping = Some((start, 0));
                }
                continue;
            }
            if let Some((from, 0)) = dropping {
                let forced_include = depth == 2 && marker.enters && !is_predefines(&marker.file);
                if (depth == 1 && marker.file == main) || forced_include {
                    edits.push(Edit::replace(Span::new(from, start), String::new()));
                    dropping = None;
                } else {
                    continue;
                }
            }
            if collapse_system_headers {
                let parent_is_user = depth >= 2 && stack.get(depth - 2).is_some_and(|p| !p.1);
                let collapsible = marker.system || is_runtime_header(&marker.file);
                if marker.enters && parent_is_user && collapsible {
                    dropping = Some((start, depth - 1));
                    collapsed = marker.file.clone();
                    continue;
                }
            }
            // A marker that stays.
            if !line_markers {
                edits.push(Edit::replace(Span::new(start, end), String::new()));
            } else if collapse_system_headers {
                let text = format!(
                    "#line {} \"{}\"\n",
                    marker.line.max(1),
                    escape_file(&marker.file)
                );
                edits.push(Edit::replace(Span::new(start, end), text));
            }
        }
        if let Some((from, _)) = dropping {
            edits.push(Edit::replace(Span::new(from, self.len), String::new()));
        }
        let _ = preprocessed;
        edits
    }

    /// The `#include` line that a return marker `# N "file" 2` comes back from: line N-1 of file
    /// (`header`: the file that line included).
    fn include_line(
        &self,
        marker: &Marker,
        header: &str,
        read_source: &dyn Fn(&str) -> Option<String>,
    ) -> String {
        let from_source = read_source(&marker.file).and_then(|text| {
            let index = (marker.line as usize).checked_sub(2)?;
            let line = text.lines().nth(index)?.trim().to_string();
            let directive = line.strip_prefix('#')?.trim_start();
            directive.starts_with("include").then_some(line)
        });
        match from_source {
            Some(line) => format!("{line}\n"),
            // the user's file is not at hand (a `.i` made elsewhere): include the header by the
            // name its marker gives; any `omp.h` is ours
            None if is_runtime_header(header) => {
                format!(
                    "#include <{}>\n",
                    header.rsplit('/').next().unwrap_or(header)
                )
            }
            None => format!("#include \"{}\"\n", escape_file(header)),
        }
    }
}

/// The header gcc includes before every file by itself (not by `-include`).
fn is_predefines(file: &str) -> bool {
    file.rsplit('/').next() == Some("stdc-predef.h")
}

/// Our own headers (`omp.h`, `capert.h`) are re-included like system headers.
fn is_runtime_header(file: &str) -> bool {
    let base = file.rsplit('/').next().unwrap_or(file);
    base == "omp.h" || base == "capert.h"
}

fn escape_file(file: &str) -> String {
    file.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Parses `# 12 "file.c" 1 3 4` (also `#line 12 "file.c"`).
fn parse_marker(text: &str, line_index: usize) -> Option<Marker> {
    let rest = text.strip_prefix('#')?;
    let rest = rest.strip_prefix("line").unwrap_or(rest).trim_start();
    let digits_end = rest.find(|c: char| !c.is_ascii_digit())?;
    if digits_end == 0 {
        return None;
    }
    let line: u32 = rest.get(..digits_end)?.parse().ok()?;
    let rest = rest.get(digits_end..)?.trim_start();
    let rest = rest.strip_prefix('"')?;
    let mut file = String::new();
    let mut chars = rest.char_indices();
    let mut close = None;
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                if let Some((_, escaped)) = chars.next() {
                    file.push(escaped);
                }
            }
            '"' => {
                close = Some(i);
                break;
            }
            _ => file.push(c),
        }
    }
    let flags_text = rest.get(close? + 1..)?;
    let flags: Vec<&str> = flags_text.split_whitespace().collect();
    Some(Marker {
        line_index,
        line,
        file,
        enters: flags.contains(&"1"),
        returns: flags.contains(&"2"),
        system: flags.contains(&"3"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "# 0 \"a.c\"\n# 0 \"<built-in>\"\n#define X 1\n# 0 \"<command-line>\"\n# 1 \"/usr/include/stdc-predef.h\" 1 3 4\nint predef;\n# 0 \"<command-line>\" 2\n# 1 \"a.c\"\n# 1 \"/usr/include/stdio.h\" 1 3 4\nint printf(const char *, ...);\n# 2 \"a.c\" 2\n\nint main(void) { return 0; }\n";

    #[test]
    fn locate_maps_through_markers() {
        let map = LineMap::new(TEXT);
        let offset = TEXT.find("int main").unwrap_or(0) + 4;
        let loc = map.locate(offset).expect("located");
        assert_eq!(
            loc,
            Location {
                file: "a.c".into(),
                line: 3,
                column: 5
            }
        );
        let p = TEXT.find("int printf").unwrap_or(0);
        assert!(map.is_system(p));
        assert!(!map.is_system(offset));
    }

    #[test]
    fn collapses_system_headers_and_drops_builtins() {
        let map = LineMap::new(TEXT);
        let read = |f: &str| {
            (f == "a.c").then(|| "#include <stdio.h>\n\nint main(void) { return 0; }\n".to_string())
        };
        let edits = map.layout_edits(TEXT, false, true, &read);
        let out = crate::emit::apply(TEXT, &edits).expect("edits apply");
        assert_eq!(out, "#include <stdio.h>\n\nint main(void) { return 0; }\n");
    }
}
