//! Is a flushing loop waiting for another thread? Under capecc the threads of a team are
//! processes that see each other's writes at merge points only, so a loop that spins until
//! another thread sets a flag would wait forever. A loop that keeps iterating without a pause
//! while the variables it waits on keep their value for `LIMIT` is such a loop: the job stops
//! with one line naming it instead of hanging.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a loop may spin on unchanged variables.
pub const LIMIT: Duration = Duration::from_secs(2);
/// A pause this long between two iterations means the loop is doing work, not spinning.
const PAUSE: Duration = Duration::from_millis(100);

struct Watch {
    site: usize,
    hash: u64,
    since: Instant,
    last: Instant,
}

static WATCH: Mutex<Option<Watch>> = Mutex::new(None);

/// FNV-1a over the watched bytes.
pub struct Hash(u64);

impl Hash {
    pub fn new() -> Hash {
        Hash(0xcbf2_9ce4_8422_2325)
    }
    pub fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    pub fn finish(&self) -> u64 {
        self.0
    }
}

impl Default for Hash {
    fn default() -> Self {
        Hash::new()
    }
}

/// One iteration at `site` with the watched bytes hashing to `hash`: how long the loop has
/// spun on unchanged values, once that exceeds `LIMIT`.
pub fn observe(site: usize, hash: u64) -> Option<Duration> {
    let mut watch = WATCH.lock().unwrap_or_else(|e| e.into_inner());
    step(&mut watch, site, hash, Instant::now())
}

fn step(watch: &mut Option<Watch>, site: usize, hash: u64, now: Instant) -> Option<Duration> {
    match watch.as_mut() {
        Some(w) if w.site == site && w.hash == hash && now.duration_since(w.last) < PAUSE => {
            w.last = now;
            let waited = now.duration_since(w.since);
            (waited > LIMIT).then_some(waited)
        }
        _ => {
            *watch = Some(Watch {
                site,
                hash,
                since: now,
                last: now,
            });
            None
        }
    }
}

/// Stops the job: the loop at `site` cannot end.
pub fn stuck(site: &str, condition: Option<&str>, waited: Duration) -> ! {
    let what = condition.map_or(String::new(), |c| format!(" (`{c}`)"));
    crate::runtime::fatal(&format!(
        "the loop at {site}{what} has waited {:.0} s for another thread to change what it \
         reads: capecc's threads are processes that see each other's writes only at barriers, \
         so it would wait forever; synchronise with a barrier, `ordered` or `critical` instead",
        waited.as_secs_f64()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loop_spinning_on_unchanged_values_is_stuck_after_the_limit() {
        let start = Instant::now();
        let tick = Duration::from_millis(10);
        let mut now = start;
        let mut result = None;
        let mut watch = None;
        while now.duration_since(start) < LIMIT * 2 && result.is_none() {
            result = step(&mut watch, 1, 42, now);
            now += tick;
        }
        let waited = result.expect("reported");
        assert!(waited > LIMIT && waited < LIMIT + tick * 2);
    }

    #[test]
    fn changing_values_pauses_and_other_sites_reset_the_watch() {
        let start = Instant::now();
        let tick = Duration::from_millis(10);
        let mut watch = None;
        for i in 0..1000u32 {
            // the value changes every 50 iterations: never stuck
            assert_eq!(
                step(&mut watch, 2, u64::from(i / 50), start + tick * i),
                None
            );
        }
        for i in 0..100u32 {
            // a pause between iterations: the loop works, it does not spin
            assert_eq!(step(&mut watch, 3, 7, start + PAUSE * 2 * i), None);
        }
        for i in 0..1000u32 {
            // two loops taking turns: neither spins alone
            assert_eq!(
                step(&mut watch, 4 + (i % 2) as usize, 7, start + tick * i),
                None
            );
        }
    }
}
