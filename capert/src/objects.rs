//! Source names of shared memory for the checkers' reports: the compiler's tables of the
//! objects of each file (`__cape_objects`) and of the region in progress
//! (`__cape_region_objects`: the shared locals it uses, pointers included), and the
//! allocation site of every arena block (`__cape_alloc_site` just before the call).
//! `describe(addr)` turns an address into `a[17] (int a[100], declared at prog.c:12)`.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ffi::CStr;
use std::sync::Mutex;

/// One named object, as the compiler describes it (strings are the program's literals, kept
/// undecoded: a region start only copies the table, reports decode it).
#[derive(Debug, Clone, Copy)]
pub struct Object {
    pub addr: usize,
    pub size: usize,
    /// Sizes of `v[0]`, `v[0][0]`, `v[0][0][0]` for an array (0: no such dimension).
    pub strides: [usize; 3],
    /// `sizeof *v` for a pointer (0: not a pointer, or a type whose size cannot be taken).
    pub pointee: usize,
    pub name: &'static CStr,
    /// The declaration without its initializer: `int a[100]`.
    pub decl: &'static CStr,
    /// `file:line` of the declaration.
    pub at: &'static CStr,
}

#[derive(Default)]
struct Names {
    files: Vec<Object>,
    region: Vec<Object>,
    /// `parallel for at prog.c:20`.
    region_what: &'static CStr,
    /// The site of the next allocation.
    site: Option<&'static CStr>,
    /// Arena block start -> (size, allocation site).
    heap: BTreeMap<usize, (usize, &'static CStr)>,
}

static NAMES: Mutex<Names> = Mutex::new(Names {
    files: Vec::new(),
    region: Vec::new(),
    region_what: c"",
    site: None,
    heap: BTreeMap::new(),
});

fn names() -> std::sync::MutexGuard<'static, Names> {
    NAMES.lock().unwrap_or_else(|e| e.into_inner())
}

/// A file's objects (a constructor of each translated file).
pub fn add_file_objects(objects: impl Iterator<Item = Object>) {
    names().files.extend(objects);
}

/// The objects of the region about to start, and what it is (`parallel for at prog.c:20`).
pub fn set_region_objects(what: &'static CStr, objects: impl Iterator<Item = Object>) {
    let mut n = names();
    n.region.clear();
    n.region.extend(objects);
    n.region_what = what;
}

/// What the current region is, for reports (`parallel region` when the compiler did not say).
pub fn region_what() -> String {
    let n = names();
    if n.region_what.is_empty() {
        "parallel region".to_string()
    } else {
        text(n.region_what).into_owned()
    }
}

/// The allocation site of the next heap call (`malloc at prog.c:9`).
pub fn set_alloc_site(site: &'static CStr) {
    names().site = Some(site);
}

/// An arena block was handed out: it takes the pending allocation site.
pub fn note_block(addr: usize, size: usize) {
    let mut n = names();
    let site = n.site.take().unwrap_or(c"an allocation");
    // a block handed out again replaces whatever overlapped it before
    let stale: Vec<usize> = n
        .heap
        .range(..addr + size.max(1))
        .rev()
        .take_while(|(&s, &(len, _))| s + len > addr)
        .map(|(&s, _)| s)
        .collect();
    for s in stale {
        n.heap.remove(&s);
    }
    n.heap.insert(addr, (size, site));
}

/// An arena block was freed.
pub fn forget_block(addr: usize) {
    names().heap.remove(&addr);
}

/// A literal of the program's tables as text (names are C identifiers; a declaration may
/// hold bytes that are not UTF-8).
fn text(s: &CStr) -> Cow<'_, str> {
    s.to_string_lossy()
}

/// `v[i][j]` for an offset into an array with these strides (`v` and a byte count otherwise).
fn element(name: &str, offset: usize, strides: &[usize]) -> String {
    let mut text = name.to_string();
    let mut rest = offset;
    for &stride in strides.iter().take_while(|&&s| s > 0) {
        text.push_str(&format!("[{}]", rest / stride));
        rest %= stride;
    }
    if rest > 0 || (strides[0] == 0 && offset > 0) {
        text.push_str(&format!(" (byte {rest})"));
    }
    text
}

/// `a[17] (int a[100], declared at prog.c:12)` for an address inside a named object, or
/// `x[3] (heap block of 800 bytes from malloc at prog.c:9, through double *x declared at
/// prog.c:7)`; None for memory the tables do not name. `pointer_at` reads a pointer variable
/// of the program (None where it cannot).
pub fn describe(addr: usize, pointer_at: &dyn Fn(usize) -> Option<usize>) -> Option<String> {
    let n = names();
    let all = || n.region.iter().chain(n.files.iter());
    if let Some(o) = all().find(|o| o.addr <= addr && addr < o.addr + o.size.max(1)) {
        return Some(format!(
            "{} ({}, declared at {})",
            element(&text(o.name), addr - o.addr, &o.strides),
            text(o.decl),
            text(o.at)
        ));
    }
    let (&start, &(size, site)) = n.heap.range(..=addr).next_back()?;
    if addr >= start + size.max(1) {
        return None;
    }
    let block = format!("heap block of {size} bytes from {}", text(site));
    let through = all().find_map(|o| {
        let target = pointer_at(o.addr).filter(|_| o.pointee > 0)?;
        (start <= target && target <= addr).then_some((o, target))
    });
    Some(match through {
        Some((p, target)) => {
            let stride = [p.pointee, 0, 0];
            format!(
                "{} ({block}, through {} declared at {})",
                element(&text(p.name), addr - target, &stride),
                text(p.decl),
                text(p.at)
            )
        }
        None => format!("byte {} of the {block}", addr - start),
    })
}

/// The extents of the region's named objects inside `[lo, hi)` (its shared locals).
/// The name of a pointer among the current region's shared objects whose value is `target`
/// (for a report): `read` gives a pointer-sized object's current value.
pub fn region_pointer_to(target: usize, read: impl Fn(usize) -> usize) -> Option<String> {
    names()
        .region
        .iter()
        .filter(|o| o.pointee > 0 && o.size == std::mem::size_of::<usize>())
        .find(|o| read(o.addr) == target)
        .map(|o| o.name.to_string_lossy().into_owned())
}

pub fn region_objects_in(lo: usize, hi: usize) -> Vec<(usize, usize)> {
    names()
        .region
        .iter()
        .filter(|o| lo <= o.addr && o.addr + o.size <= hi)
        .map(|o| (o.addr, o.addr + o.size))
        .collect()
}

/// The name of the object holding `addr` alone (`a`), for short mentions.
pub fn name_of(addr: usize) -> Option<&'static CStr> {
    let n = names();
    n.region
        .iter()
        .chain(n.files.iter())
        .find(|o| o.addr <= addr && addr < o.addr + o.size.max(1))
        .map(|o| o.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(addr: usize, size: usize, strides: [usize; 3], name: &'static CStr) -> Object {
        Object {
            addr,
            size,
            strides,
            pointee: 0,
            name,
            decl: c"int a[100]",
            at: c"prog.c:12",
        }
    }

    #[test]
    fn names_elements_blocks_and_pointers() {
        let read = |a: usize| (a == 0x4000).then_some(0x9000);
        add_file_objects(
            [
                object(0x1000, 400, [4, 0, 0], c"a"),
                object(0x2000, 800, [80, 8, 0], c"m"),
                object(0x3000, 16, [0, 0, 0], c"s"),
            ]
            .into_iter(),
        );
        assert_eq!(
            describe(0x1000 + 68, &read).as_deref(),
            Some("a[17] (int a[100], declared at prog.c:12)")
        );
        assert!(describe(0x2000 + 2 * 80 + 3 * 8, &read)
            .unwrap()
            .starts_with("m[2][3] ("));
        assert!(describe(0x3000 + 8, &read)
            .unwrap()
            .starts_with("s (byte 8) ("));
        set_alloc_site(c"malloc at prog.c:9");
        note_block(0x9000, 800);
        let mut p = object(0x4000, 8, [0, 0, 0], c"x");
        p.pointee = 8;
        p.decl = c"double *x";
        set_region_objects(c"parallel for at prog.c:20", [p].into_iter());
        assert_eq!(
            describe(0x9000 + 24, &read).as_deref(),
            Some("x[3] (heap block of 800 bytes from malloc at prog.c:9, through double *x declared at prog.c:12)")
        );
        set_region_objects(c"", std::iter::empty());
        assert_eq!(
            describe(0x9000 + 24, &read).as_deref(),
            Some("byte 24 of the heap block of 800 bytes from malloc at prog.c:9")
        );
        assert_eq!(region_what(), "parallel region");
        forget_block(0x9000);
        assert_eq!(describe(0x9000, &read), None);
    }
}
