//! The checkers' ABI: the compiler's tables of named shared objects (`__cape_objects` from a
//! constructor of each file, `__cape_region_objects` before each region), allocation sites
//! (`__cape_alloc_site`), and the access hooks of check builds (`capecc --check=races`).

use super::guard;
use crate::objects::{self, Object};
use std::ffi::{c_char, c_int, c_void, CStr};

/// One named object for reports: `&v`, `sizeof v`, the sizes of `v[0]`, `v[0][0]`,
/// `v[0][0][0]` of an array (0 past its dimensions), `sizeof *v` of a pointer (0 otherwise:
/// heap blocks are named through the pointers that point into them), and three string
/// literals: the name, the declaration (`int a[100]`) and its `file:line`.
#[repr(C)]
#[allow(non_camel_case_types)]
pub struct __cape_object {
    pub addr: *const c_void,
    pub size: usize,
    pub strides: [usize; 3],
    pub pointee: usize,
    pub name: *const c_char,
    pub decl: *const c_char,
    pub at: *const c_char,
}

/// A string literal of the program (decoded only when a report uses it).
///
/// # Safety
/// `s` is NULL or a NUL-terminated string that lives as long as the program.
unsafe fn literal(s: *const c_char) -> &'static CStr {
    if s.is_null() {
        return c"";
    }
    // SAFETY: the caller's contract.
    unsafe { CStr::from_ptr(s) }
}

/// The entries of a table from the compiler (no allocation: a region start pays for a copy).
///
/// # Safety
/// `table` points to `count` entries whose strings are literals (or is NULL), valid for `'a`
/// (a region's table lives in the caller's frame: consume the entries before returning).
unsafe fn entries<'a>(
    table: *const __cape_object,
    count: usize,
) -> impl Iterator<Item = Object> + 'a {
    let table: &'a [__cape_object] = if table.is_null() || count == 0 {
        &[]
    } else {
        // SAFETY: the caller's contract.
        unsafe { std::slice::from_raw_parts(table, count) }
    };
    table.iter().map(|o| Object {
        addr: o.addr as usize,
        size: o.size,
        strides: o.strides,
        pointee: o.pointee,
        // SAFETY: string literals of the generated table.
        name: unsafe { literal(o.name) },
        // SAFETY: as above.
        decl: unsafe { literal(o.decl) },
        // SAFETY: as above.
        at: unsafe { literal(o.at) },
    })
}

/// The file-scope objects of one translated file (called from a constructor). `objects`:
/// `count` entries whose strings are literals.
#[no_mangle]
pub extern "C" fn __cape_objects(objects: *const __cape_object, count: usize) {
    guard(|| {
        // SAFETY: the compiler passes its table of `count` entries with literal strings.
        let table = unsafe { entries(objects, count) };
        objects::add_file_objects(table)
    })
}

/// The shared locals the region about to start uses, and what it is (`what`: a literal such
/// as "parallel for at prog.c:20").
#[no_mangle]
pub extern "C" fn __cape_region_objects(
    what: *const c_char,
    objects: *const __cape_object,
    count: usize,
) {
    guard(|| {
        // SAFETY: the compiler passes a literal and its table of `count` entries.
        let (what, table) = unsafe { (literal(what), entries(objects, count)) };
        objects::set_region_objects(what, table);
    })
}

/// The allocation site (a literal such as "malloc at prog.c:9") of the heap call that follows.
#[no_mangle]
pub extern "C" fn __cape_alloc_site(site: *const c_char) {
    guard(|| {
        // SAFETY: the compiler passes a string literal.
        objects::set_alloc_site(unsafe { literal(site) })
    })
}

/// A check build starts: `flag` is the hooks' switch, which the runtime turns on while a rank
/// runs its share of a region.
#[no_mangle]
pub extern "C" fn __cape_check_build(flag: *mut c_int) {
    guard(|| {
        // SAFETY: `flag` is a global `int` of the hooks, written by nothing else.
        unsafe { crate::sys::check_flag::register(flag) }
    })
}

/// An access of the check build's program: `size` bytes at `addr`, by the code before `pc`,
/// a store when `write` is not 0.
#[no_mangle]
pub extern "C" fn __cape_check_access(
    addr: *const c_void,
    size: usize,
    pc: *const c_void,
    write: c_int,
) {
    guard(|| crate::access_check::record(addr as usize, size, pc as usize, write != 0))
}
