//! Page protection and the raw memory the tracker reads and writes: tracked spans of the
//! application's memory and the twin mappings that hold their before-images.

use std::io;

pub const PAGE_SIZE: usize = 4096;

fn check(rc: libc::c_int) -> io::Result<()> {
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// A page-aligned span of application memory checked to be mapped when it was created.
///
/// Contract (documented on `Tracker::add_range`): the application keeps the span mapped while it
/// is tracked. Reads happen only between regions or at region end, when no application code runs.
#[derive(Debug)]
pub struct TrackedSpan {
    start: usize,
    len: usize,
}

impl TrackedSpan {
    /// Checks that [start, start+len) is fully mapped and makes it readable and writable
    /// (`ENOMEM` from madvise/mprotect means a hole; `EACCES` a mapping that cannot be written).
    pub fn checked(start: usize, len: usize) -> io::Result<TrackedSpan> {
        let span = TrackedSpan { start, len };
        span.set_writable(true)?;
        Ok(span)
    }

    pub fn start(&self) -> usize {
        self.start
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// `MADV_NOHUGEPAGE`: with the mprotect tracker, unprotecting one 4 KiB page would split a
    /// huge page at every first write.
    pub fn no_huge_pages(&self) -> io::Result<()> {
        // SAFETY: madvise with NOHUGEPAGE only changes a VMA flag of our checked span; it never
        // changes contents.
        check(unsafe {
            libc::madvise(
                self.start as *mut libc::c_void,
                self.len,
                libc::MADV_NOHUGEPAGE,
            )
        })
    }

    /// `MADV_HUGEPAGE`: with the uffd tracker, untouched memory in transparent huge pages costs
    /// one page-table entry per 2 MiB in every `PAGEMAP_SCAN`; a write-protected huge page that
    /// gets written is split by the kernel, so written pages are still reported at 4 KiB.
    pub fn huge_pages(&self) -> io::Result<()> {
        // SAFETY: madvise with HUGEPAGE only changes a VMA flag of our checked span; it never
        // changes contents.
        check(unsafe {
            libc::madvise(
                self.start as *mut libc::c_void,
                self.len,
                libc::MADV_HUGEPAGE,
            )
        })
    }

    /// Read-only (`false`) or read/write (`true`) for the whole span.
    pub fn set_writable(&self, writable: bool) -> io::Result<()> {
        protect(self.start, self.len, writable)
    }

    /// `len` bytes of the span at byte `offset`.
    pub fn bytes(&self, offset: usize, len: usize) -> &[u8] {
        assert!(
            offset <= self.len && len <= self.len - offset,
            "read outside a tracked span"
        );
        // SAFETY: in bounds of a span that was checked mapped and that the tracker's contract keeps
        // mapped; no application code runs while the returned borrow of the tracker is alive.
        unsafe { std::slice::from_raw_parts((self.start + offset) as *const u8, len) }
    }

    /// Writes `bytes` at byte `offset` (the span must be writable at that moment).
    pub fn write(&self, offset: usize, bytes: &[u8]) {
        assert!(
            offset <= self.len && bytes.len() <= self.len - offset,
            "write outside a tracked span"
        );
        // SAFETY: in bounds of a mapped span (see `bytes`); `bytes` is a Rust slice and cannot
        // overlap application memory that the tracker owns exclusively at this point.
        unsafe {
            std::ptr::copy_nonoverlapping(
                bytes.as_ptr(),
                (self.start + offset) as *mut u8,
                bytes.len(),
            )
        }
    }
}

/// mprotect of a page-aligned range; `ENOMEM` can mean the `vm.max_map_count` limit.
pub fn protect(start: usize, len: usize, writable: bool) -> io::Result<()> {
    let prot = if writable {
        libc::PROT_READ | libc::PROT_WRITE
    } else {
        libc::PROT_READ
    };
    // SAFETY: changes protections only; callers pass page-aligned ranges of tracked memory.
    check(unsafe { libc::mprotect(start as *mut libc::c_void, len, prot) })
}

/// An anonymous `MAP_NORESERVE` mapping with the layout of one tracked span: untouched twin
/// pages read as zero and cost neither memory nor commit charge. In 4 KiB pages unless
/// [`TwinMapping::huge_pages`] says otherwise.
#[derive(Debug)]
pub struct TwinMapping {
    base: *mut u8,
    len: usize,
    /// With [`TwinMapping::mark_zero_pages`]: one bit per page, set while the twin page is
    /// known to hold only zero bytes; every write through [`TwinMapping::bytes_mut`] clears
    /// the bits of the pages it covers. Empty: no page is marked.
    zero: Vec<u64>,
    /// Likewise, set while the twin page holds what this rank last published of the page
    /// (written by no one since): the demand-driven merge's compare then names exactly the
    /// lines that changed since that version.
    published: Vec<u64>,
}

// SAFETY: the mapping is owned exclusively by this value; no thread-affine state.
unsafe impl Send for TwinMapping {}

impl TwinMapping {
    pub fn new(len: usize) -> io::Result<TwinMapping> {
        // SAFETY: a fresh anonymous mapping at an address the kernel chooses; nothing aliases it.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: advisory only, on the mapping just created.
        unsafe { libc::madvise(base, len, libc::MADV_NOHUGEPAGE) };
        Ok(TwinMapping {
            base: base as *mut u8,
            len,
            zero: Vec::new(),
            published: Vec::new(),
        })
    }

    /// Transparent huge pages for this mapping (EINVAL where the kernel has none). For the
    /// twins of memory tracked in huge pages: the diff reads memory and twin side by side, and
    /// a twin in 4 KiB pages costs a page-table walk per page compared (measured in
    /// docs/lazy-merge-measurements.md).
    pub fn huge_pages(&self) -> io::Result<()> {
        // SAFETY: madvise with HUGEPAGE only changes a VMA flag of our own mapping; it never
        // changes contents.
        check(unsafe { libc::madvise(self.base.cast(), self.len, libc::MADV_HUGEPAGE) })
    }

    pub fn base(&self) -> usize {
        self.base as usize
    }

    pub fn bytes(&self, offset: usize, len: usize) -> &[u8] {
        assert!(
            offset <= self.len && len <= self.len - offset,
            "read outside a twin"
        );
        // SAFETY: in bounds of our own live mapping; `&self` keeps writers (`&mut self`) away.
        // The mprotect signal handler writes twin pages only while a region runs, when the tracker
        // is not borrowed.
        unsafe { std::slice::from_raw_parts(self.base.add(offset), len) }
    }

    pub fn bytes_mut(&mut self, offset: usize, len: usize) -> &mut [u8] {
        assert!(
            offset <= self.len && len <= self.len - offset,
            "write outside a twin"
        );
        if !self.zero.is_empty() && len > 0 {
            for page in offset / PAGE_SIZE..=(offset + len - 1) / PAGE_SIZE {
                self.zero[page / 64] &= !(1 << (page % 64));
                self.published[page / 64] &= !(1 << (page % 64));
            }
        }
        // SAFETY: in bounds of our own live mapping, borrowed exclusively through `&mut self`.
        unsafe { std::slice::from_raw_parts_mut(self.base.add(offset), len) }
    }
}

impl TwinMapping {
    /// Keeps one bit per page telling that the twin page holds only zero bytes
    /// ([`TwinMapping::set_zero`]), so that a diff of a page of zeros reads memory only, and
    /// one telling that it holds the version this rank last published
    /// ([`TwinMapping::set_published`]). Writes that bypass [`TwinMapping::bytes_mut`]
    /// (through [`TwinMapping::base`]) must [`TwinMapping::clear_marks`] the page first.
    pub fn mark_zero_pages(&mut self) {
        self.zero = vec![0; (self.len / PAGE_SIZE).div_ceil(64)];
        self.published = vec![0; (self.len / PAGE_SIZE).div_ceil(64)];
    }

    /// Notes that the twin page at `offset` holds only zero bytes (the caller checked).
    pub fn set_zero(&mut self, offset: usize) {
        let page = offset / PAGE_SIZE;
        if let Some(word) = self.zero.get_mut(page / 64) {
            *word |= 1 << (page % 64);
        }
    }

    /// The twin page at `offset` may hold other bytes from now on.
    pub fn clear_marks(&mut self, offset: usize) {
        let page = offset / PAGE_SIZE;
        for marks in [&mut self.zero, &mut self.published] {
            if let Some(word) = marks.get_mut(page / 64) {
                *word &= !(1 << (page % 64));
            }
        }
    }

    /// Notes that the twin page at `offset` holds the version of the page this rank has
    /// just published (the caller made it so).
    pub fn set_published(&mut self, offset: usize) {
        let page = offset / PAGE_SIZE;
        if let Some(word) = self.published.get_mut(page / 64) {
            *word |= 1 << (page % 64);
        }
    }

    /// Does the twin page at `offset` still hold the version this rank last published?
    pub fn is_published(&self, offset: usize) -> bool {
        let page = offset / PAGE_SIZE;
        self.published
            .get(page / 64)
            .is_some_and(|word| word & (1 << (page % 64)) != 0)
    }

    /// Is the twin page at `offset` known to hold only zero bytes?
    pub fn is_zero(&self, offset: usize) -> bool {
        let page = offset / PAGE_SIZE;
        self.zero
            .get(page / 64)
            .is_some_and(|word| word & (1 << (page % 64)) != 0)
    }
}

impl Drop for TwinMapping {
    fn drop(&mut self) {
        // SAFETY: unmaps exactly the mapping this value created; no borrow can outlive `self`.
        unsafe { libc::munmap(self.base as *mut libc::c_void, self.len) };
    }
}
