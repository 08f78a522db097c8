//! Token-bucket rate limits, shared by every layer (the web's per-client limits, a table's
//! chat, bot tokens).

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

/// A token bucket: `rate` tokens a second, at most `burst`.
#[derive(Clone, Debug)]
pub struct Bucket {
    rate: f64,
    burst: f64,
    tokens: f64,
    at: Instant,
}

impl Bucket {
    /// A full bucket.
    #[must_use]
    pub fn new(rate: f64, burst: f64) -> Bucket {
        Bucket {
            rate,
            burst,
            tokens: burst,
            at: Instant::now(),
        }
    }

    /// Take a token if there is one (a rate of 0 means no limit).
    pub fn take(&mut self, now: Instant) -> bool {
        if self.rate <= 0.0 {
            return true;
        }
        let dt = now.saturating_duration_since(self.at).as_secs_f64();
        self.at = now;
        self.tokens = (self.tokens + dt * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// A bucket per key: a client address, an account name, a user.
#[derive(Debug)]
pub struct KeyedLimiter<K = IpAddr> {
    rate: f64,
    burst: f64,
    buckets: Mutex<HashMap<K, Bucket>>,
}

impl<K: Hash + Eq> KeyedLimiter<K> {
    /// Limits of `rate` a second with bursts of `burst` per address.
    #[must_use]
    pub fn new(rate: f64, burst: f64) -> KeyedLimiter<K> {
        KeyedLimiter {
            rate,
            burst,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Whether `key` may make a request now.
    pub fn allow(&self, key: K) -> bool {
        if self.rate <= 0.0 {
            return true;
        }
        let now = Instant::now();
        let mut m = self.buckets.lock().expect("limiter lock");
        if m.len() > 100_000 {
            // Forget the buckets that are full again (as good as new) rather than grow
            // without bound.
            let (rate, burst) = (self.rate, self.burst);
            m.retain(|_, b| {
                b.tokens + now.saturating_duration_since(b.at).as_secs_f64() * rate < burst
            });
        }
        m.entry(key)
            .or_insert_with(|| Bucket::new(self.rate, self.burst))
            .take(now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_bucket_refuses_beyond_its_burst_and_refills() {
        let t0 = Instant::now();
        let mut b = Bucket::new(10.0, 3.0);
        assert!(b.take(t0) && b.take(t0) && b.take(t0));
        assert!(!b.take(t0));
        assert!(b.take(t0 + Duration::from_millis(150)));
        assert!(!b.take(t0 + Duration::from_millis(150)));
    }
}
