//! A hasher for maps keyed by addresses: an address is its own hash, multiplied and folded so
//! that aligned ones spread over the buckets (SipHash's resistance to chosen keys buys nothing for
//! the runtime's own addresses, and costs a few nanoseconds per lookup on hot paths).

use std::hash::{BuildHasherDefault, Hasher};

#[derive(Default)]
pub struct AddrHasher(u64);

impl Hasher for AddrHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_usize(&mut self, n: usize) {
        // the product's low bits are zero where the address's are (a page address has
        // twelve), and the table picks buckets by the low bits: fold the high half in
        let h = (n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = h ^ (h >> 32);
    }
}

/// `HashMap<usize, V, AddrHash>` / `HashSet<usize, AddrHash>`.
pub type AddrHash = BuildHasherDefault<AddrHasher>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    /// Page addresses (twelve low zero bits) spread over the low bits that pick a bucket.
    #[test]
    fn page_addresses_spread_over_the_buckets() {
        let build = AddrHash::default();
        let mut buckets = std::collections::HashSet::new();
        for page in 0..1024usize {
            buckets.insert(build.hash_one(0x7f00_0000_0000 + page * 4096) & 1023);
        }
        assert!(
            buckets.len() > 600,
            "{} of 1024 buckets used",
            buckets.len()
        );
    }
}
