//! userfaultfd in asynchronous write-protect mode (`UFFD_FEATURE_WP_ASYNC`, Linux >= 6.7) and the
//! `PAGEMAP_SCAN` ioctl of `/proc/self/pagemap`, which reads and re-arms the write-protection of a
//! range in one call. Debian 12's kernel headers predate both, so the constants are defined here.

use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

pub const UFFD_API: u64 = 0xAA;
/// Only faults from user mode are handled: allowed without privileges even when
/// `vm.unprivileged_userfaultfd=0`. WP_ASYNC resolves kernel-mode write faults in the kernel anyway.
pub const UFFD_USER_MODE_ONLY: libc::c_int = 1;
pub const UFFD_FEATURE_WP_UNPOPULATED: u64 = 1 << 13;
pub const UFFD_FEATURE_WP_ASYNC: u64 = 1 << 15;
/// Missing faults raise SIGBUS in the faulting thread instead of queuing a message: the
/// demand-driven merge's invalid pages (`sys/missing.rs`); write faults stay asynchronous.
pub const UFFD_FEATURE_SIGBUS: u64 = 1 << 7;
const UFFDIO_REGISTER_MODE_MISSING: u64 = 1 << 0;
const UFFDIO_REGISTER_MODE_WP: u64 = 1 << 1;
const UFFDIO_WRITEPROTECT_MODE_WP: u64 = 1 << 0;
const UFFDIO_COPY_MODE_WP: u64 = 1 << 1;
/// Bit of `UFFDIO_COPY` in the `ioctls` a registration returns (`_UFFDIO_COPY`).
const UFFDIO_COPY_BIT: u64 = 1 << 0x03;

pub const PM_SCAN_WP_MATCHING: u64 = 1 << 0;
pub const PM_SCAN_CHECK_WPASYNC: u64 = 1 << 1;
pub const PAGE_IS_WPALLOWED: u64 = 1 << 0;
pub const PAGE_IS_WRITTEN: u64 = 1 << 1;
pub const PAGE_IS_FILE: u64 = 1 << 2;
pub const PAGE_IS_PRESENT: u64 = 1 << 3;
pub const PAGE_IS_SWAPPED: u64 = 1 << 4;
pub const PAGE_IS_PFNZERO: u64 = 1 << 5;

const IOC_NONE: u64 = 0;
const IOC_READ: u64 = 2;
const IOC_READ_WRITE: u64 = 3;

const fn ioc(dir: u64, ty: u64, nr: u64, size: usize) -> u64 {
    (dir << 30) | ((size as u64) << 16) | (ty << 8) | nr
}

#[repr(C)]
struct UffdioApi {
    api: u64,
    features: u64,
    ioctls: u64,
}
#[repr(C)]
struct UffdioRange {
    start: u64,
    len: u64,
}
#[repr(C)]
struct UffdioRegister {
    range: UffdioRange,
    mode: u64,
    ioctls: u64,
}
#[repr(C)]
struct UffdioWriteprotect {
    range: UffdioRange,
    mode: u64,
}
#[repr(C)]
struct UffdioCopy {
    dst: u64,
    src: u64,
    len: u64,
    mode: u64,
    copy: i64,
}
#[repr(C)]
struct UffdioZeropage {
    range: UffdioRange,
    mode: u64,
    zeropage: i64,
}
/// `struct pm_scan_arg` of linux/fs.h (6.7).
#[repr(C)]
struct PmScanArg {
    size: u64,
    flags: u64,
    start: u64,
    end: u64,
    walk_end: u64,
    vec: u64,
    vec_len: u64,
    max_pages: u64,
    category_inverted: u64,
    category_mask: u64,
    category_anyof_mask: u64,
    return_mask: u64,
}
/// `struct page_region` of linux/fs.h: pages [start, end) sharing the returned categories.
#[repr(C)]
#[derive(Clone, Copy, Default, Debug)]
pub struct PageRegion {
    pub start: u64,
    pub end: u64,
    pub categories: u64,
}

const UFFDIO_API: u64 = ioc(IOC_READ_WRITE, 0xAA, 0x3F, std::mem::size_of::<UffdioApi>());
const UFFDIO_REGISTER: u64 = ioc(
    IOC_READ_WRITE,
    0xAA,
    0x00,
    std::mem::size_of::<UffdioRegister>(),
);
const UFFDIO_UNREGISTER: u64 = ioc(IOC_READ, 0xAA, 0x01, std::mem::size_of::<UffdioRange>());
const UFFDIO_WRITEPROTECT: u64 = ioc(
    IOC_READ_WRITE,
    0xAA,
    0x06,
    std::mem::size_of::<UffdioWriteprotect>(),
);
const UFFDIO_COPY: u64 = ioc(
    IOC_READ_WRITE,
    0xAA,
    0x03,
    std::mem::size_of::<UffdioCopy>(),
);
const UFFDIO_ZEROPAGE: u64 = ioc(
    IOC_READ_WRITE,
    0xAA,
    0x04,
    std::mem::size_of::<UffdioZeropage>(),
);
const USERFAULTFD_IOC_NEW: u64 = ioc(IOC_NONE, 0xAA, 0x00, 0);
const PAGEMAP_SCAN: u64 = ioc(
    IOC_READ_WRITE,
    b'f' as u64,
    16,
    std::mem::size_of::<PmScanArg>(),
);

fn ioctl<T>(fd: &OwnedFd, request: u64, arg: &mut T) -> io::Result<libc::c_int> {
    // SAFETY: `arg` is a live, exclusively borrowed #[repr(C)] struct whose size matches the one
    // encoded in `request`; the kernel reads/writes only that struct (and, for PAGEMAP_SCAN, the
    // `vec` buffer whose pointer and length the caller put in it).
    let rc = unsafe { libc::ioctl(fd.as_raw_fd(), request as libc::c_ulong, arg as *mut T) };
    if rc < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(rc)
    }
}

/// A userfaultfd with `WP_ASYNC` enabled. Registrations live as long as the descriptor.
#[derive(Debug)]
pub struct Uffd {
    fd: OwnedFd,
    /// How the descriptor was obtained (for the verbose reason line).
    pub how: &'static str,
    /// `UFFD_FEATURE_SIGBUS` is on: missing-mode registrations are possible.
    sigbus: bool,
}

impl Uffd {
    /// Opens a userfaultfd (user-mode-only syscall, then plain syscall, then `/dev/userfaultfd`)
    /// and enables `WP_ASYNC`. The error says why none worked.
    pub fn open() -> Result<Uffd, String> {
        let flags = libc::O_CLOEXEC | libc::O_NONBLOCK;
        let mut failures = Vec::new();
        let attempts: [(&'static str, libc::c_int); 2] = [
            (
                "userfaultfd(UFFD_USER_MODE_ONLY)",
                flags | UFFD_USER_MODE_ONLY,
            ),
            ("userfaultfd()", flags),
        ];
        for (how, f) in attempts {
            // SAFETY: plain syscall with integer flags; a non-negative result is a new descriptor
            // that nothing else owns.
            let rc = unsafe { libc::syscall(libc::SYS_userfaultfd, f) };
            if rc >= 0 {
                // SAFETY: `rc` is a fresh descriptor owned by nobody else.
                let fd = unsafe { OwnedFd::from_raw_fd(rc as libc::c_int) };
                return Self::enable_wp_async(fd, how);
            }
            failures.push(format!("{how}: {}", io::Error::last_os_error()));
        }
        match File::options()
            .read(true)
            .write(true)
            .open("/dev/userfaultfd")
        {
            Ok(dev) => {
                let dev = OwnedFd::from(dev);
                // SAFETY: USERFAULTFD_IOC_NEW takes its flags by value and returns a new descriptor.
                let rc = unsafe {
                    libc::ioctl(
                        dev.as_raw_fd(),
                        USERFAULTFD_IOC_NEW as libc::c_ulong,
                        flags as libc::c_ulong,
                    )
                };
                if rc >= 0 {
                    // SAFETY: `rc` is a fresh descriptor owned by nobody else.
                    let fd = unsafe { OwnedFd::from_raw_fd(rc) };
                    return Self::enable_wp_async(fd, "/dev/userfaultfd");
                }
                failures.push(format!("/dev/userfaultfd: {}", io::Error::last_os_error()));
            }
            Err(e) => failures.push(format!("/dev/userfaultfd: {e}")),
        }
        Err(failures.join("; "))
    }

    /// `WP_ASYNC`, with `SIGBUS` where the kernel accepts both (it leaves the descriptor
    /// unconfigured when it refuses a feature, so the second call can ask for less).
    fn enable_wp_async(fd: OwnedFd, how: &'static str) -> Result<Uffd, String> {
        let mut api = UffdioApi {
            api: UFFD_API,
            features: UFFD_FEATURE_WP_ASYNC | UFFD_FEATURE_SIGBUS,
            ioctls: 0,
        };
        if ioctl(&fd, UFFDIO_API, &mut api).is_ok() {
            return Ok(Uffd {
                fd,
                how,
                sigbus: true,
            });
        }
        // a refused call zeroes the struct
        let mut api = UffdioApi {
            api: UFFD_API,
            features: UFFD_FEATURE_WP_ASYNC,
            ioctls: 0,
        };
        ioctl(&fd, UFFDIO_API, &mut api)
            .map_err(|e| format!("kernel lacks userfaultfd `WP_ASYNC` (Linux >= 6.7): {e}"))?;
        Ok(Uffd {
            fd,
            how,
            sigbus: false,
        })
    }

    /// Can ranges be registered in missing mode (faults raising SIGBUS)?
    pub fn has_missing_faults(&self) -> bool {
        self.sigbus
    }

    /// Registers [start, start+len), already registered for write-protect tracking, for
    /// missing faults as well. `Ok(false)`: the kernel registered it but cannot `UFFDIO_COPY`
    /// there (the caller registers it for write protection only again).
    pub fn register_missing_wp(&self, start: usize, len: usize) -> io::Result<bool> {
        let mut reg = UffdioRegister {
            range: UffdioRange {
                start: start as u64,
                len: len as u64,
            },
            mode: UFFDIO_REGISTER_MODE_MISSING | UFFDIO_REGISTER_MODE_WP,
            ioctls: 0,
        };
        ioctl(&self.fd, UFFDIO_REGISTER, &mut reg)?;
        Ok(reg.ioctls & UFFDIO_COPY_BIT != 0)
    }

    /// The descriptor, for `write_protect_fd` (valid while `self` lives).
    pub fn raw_fd(&self) -> RawFd {
        self.fd.as_raw_fd()
    }

    /// Registers [start, start+len) for write-protect tracking.
    pub fn register_wp(&self, start: usize, len: usize) -> io::Result<()> {
        let mut reg = UffdioRegister {
            range: UffdioRange {
                start: start as u64,
                len: len as u64,
            },
            mode: UFFDIO_REGISTER_MODE_WP,
            ioctls: 0,
        };
        ioctl(&self.fd, UFFDIO_REGISTER, &mut reg).map(drop)
    }

    pub fn unregister(&self, start: usize, len: usize) -> io::Result<()> {
        let mut range = UffdioRange {
            start: start as u64,
            len: len as u64,
        };
        ioctl(&self.fd, UFFDIO_UNREGISTER, &mut range).map(drop)
    }

    /// Write-protects the populated pages of [start, start+len); a later write is recorded.
    pub fn write_protect(&self, start: usize, len: usize) -> io::Result<()> {
        let mut wp = UffdioWriteprotect {
            range: UffdioRange {
                start: start as u64,
                len: len as u64,
            },
            mode: UFFDIO_WRITEPROTECT_MODE_WP,
        };
        ioctl(&self.fd, UFFDIO_WRITEPROTECT, &mut wp).map(drop)
    }

    /// Removes the write-protection of [start, start+len): writes there no longer fault, and
    /// `PagemapScan::written` reports those pages until they are protected again.
    pub fn unprotect(&self, start: usize, len: usize) -> io::Result<()> {
        let mut wp = UffdioWriteprotect {
            range: UffdioRange {
                start: start as u64,
                len: len as u64,
            },
            mode: 0,
        };
        ioctl(&self.fd, UFFDIO_WRITEPROTECT, &mut wp).map(drop)
    }
}

/// `Uffd::write_protect` through a raw descriptor (the fetch thread of `invalid.rs`, which
/// cannot borrow the tracker): the caller guarantees `fd` is the tracker's live userfaultfd.
pub fn write_protect_fd(fd: RawFd, start: usize, len: usize) -> io::Result<()> {
    let mut wp = UffdioWriteprotect {
        range: UffdioRange {
            start: start as u64,
            len: len as u64,
        },
        mode: UFFDIO_WRITEPROTECT_MODE_WP,
    };
    // SAFETY: UFFDIO_WRITEPROTECT reads the struct we own; on a descriptor that is not a
    // userfaultfd the ioctl fails with an error, it never writes memory.
    let rc = unsafe { libc::ioctl(fd, UFFDIO_WRITEPROTECT as libc::c_ulong, &mut wp) };
    if rc < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

/// `UFFDIO_COPY` through a raw descriptor: `bytes` become the page(s) at `dst`, which has no
/// page yet, in one step (write-protected with `wp`); a thread that faulted there retries.
/// The caller guarantees `fd` is the tracker's live userfaultfd.
pub fn copy_fd(fd: RawFd, dst: usize, bytes: &[u8], wp: bool) -> io::Result<()> {
    let mut copy = UffdioCopy {
        dst: dst as u64,
        src: bytes.as_ptr() as u64,
        len: bytes.len() as u64,
        mode: if wp { UFFDIO_COPY_MODE_WP } else { 0 },
        copy: 0,
    };
    // SAFETY: UFFDIO_COPY reads `bytes` (live for the call, `len` long) and writes only the
    // struct we own and the missing page(s) at `dst`, which the kernel allocates itself.
    let rc = unsafe { libc::ioctl(fd, UFFDIO_COPY as libc::c_ulong, &mut copy) };
    if rc < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

/// `UFFDIO_ZEROPAGE` through a raw descriptor: the zero page at the missing page `dst`.
/// Async-signal-safe (one ioctl).
pub fn zeropage_fd(fd: RawFd, dst: usize, len: usize) -> io::Result<()> {
    let mut zero = UffdioZeropage {
        range: UffdioRange {
            start: dst as u64,
            len: len as u64,
        },
        mode: 0,
        zeropage: 0,
    };
    // SAFETY: UFFDIO_ZEROPAGE writes only the struct we own and maps the zero page at `dst`
    // where no page is mapped.
    let rc = unsafe { libc::ioctl(fd, UFFDIO_ZEROPAGE as libc::c_ulong, &mut zero) };
    if rc < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

/// Runs returned per `PAGEMAP_SCAN` call. The kernel allocates a bounce buffer of this many
/// 24-byte entries (at most 512) on every call: up to 8 KiB it comes from a slab cache, beyond
/// that from the page allocator, which costs a region more than the walk of a small range.
const SCAN_RUNS: usize = 8192 / std::mem::size_of::<PageRegion>();

/// `/proc/self/pagemap` with a reusable output buffer for `PAGEMAP_SCAN`.
#[derive(Debug)]
pub struct PagemapScan {
    fd: OwnedFd,
    buf: Vec<PageRegion>,
}

impl PagemapScan {
    pub fn open() -> io::Result<PagemapScan> {
        let file = File::open("/proc/self/pagemap")?;
        Ok(PagemapScan {
            fd: OwnedFd::from(file),
            buf: vec![PageRegion::default(); SCAN_RUNS],
        })
    }

    /// Calls `each(start, end)` for every run of pages in [start, end) written since they were
    /// last write-protected (zero-page mappings from reads excluded). With `rearm`, the kernel
    /// write-protects exactly those pages again in the same walk.
    pub fn written(
        &mut self,
        start: usize,
        end: usize,
        rearm: bool,
        each: impl FnMut(usize, usize),
    ) -> io::Result<()> {
        let flags = PM_SCAN_CHECK_WPASYNC | if rearm { PM_SCAN_WP_MATCHING } else { 0 };
        let mask = PAGE_IS_WRITTEN | PAGE_IS_PFNZERO;
        self.scan(
            start,
            end,
            flags,
            PAGE_IS_PFNZERO,
            mask,
            0,
            PAGE_IS_WRITTEN,
            each,
        )
    }

    /// Calls `each(start, end)` for every run of pages in [start, end) that hold data (present or
    /// swapped, not the shared zero page). Untouched anonymous pages are skipped.
    pub fn populated(
        &mut self,
        start: usize,
        end: usize,
        each: impl FnMut(usize, usize),
    ) -> io::Result<()> {
        let anyof = PAGE_IS_PRESENT | PAGE_IS_SWAPPED;
        self.scan(
            start,
            end,
            0,
            PAGE_IS_PFNZERO,
            PAGE_IS_PFNZERO,
            anyof,
            anyof,
            each,
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn scan(
        &mut self,
        start: usize,
        end: usize,
        flags: u64,
        inverted: u64,
        mask: u64,
        anyof: u64,
        return_mask: u64,
        mut each: impl FnMut(usize, usize),
    ) -> io::Result<()> {
        let mut from = start as u64;
        while from < end as u64 {
            let mut arg = PmScanArg {
                size: std::mem::size_of::<PmScanArg>() as u64,
                flags,
                start: from,
                end: end as u64,
                walk_end: 0,
                vec: self.buf.as_mut_ptr() as u64,
                vec_len: self.buf.len() as u64,
                max_pages: 0,
                category_inverted: inverted,
                category_mask: mask,
                category_anyof_mask: anyof,
                return_mask,
            };
            let filled = ioctl(&self.fd, PAGEMAP_SCAN, &mut arg)? as usize;
            for region in &self.buf[..filled.min(self.buf.len())] {
                each(region.start as usize, region.end as usize);
            }
            if arg.walk_end <= from {
                break; // no progress: never loop forever on a kernel surprise
            }
            from = arg.walk_end;
        }
        Ok(())
    }
}
