//! capert: the CAPE runtime. See ARCHITECTURE.md.
