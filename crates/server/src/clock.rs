//! The server's one clock. Every layer reads the time here (`Config::clock`): the table
//! runtime's timers, the tournament directors, correspondence deadlines. Tests inject a manual
//! clock and move it; the system's clock is the default.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

/// The time: the system's, or one set by hand (tests move it). A manual clock keeps
/// milliseconds; it is set and moved in seconds, as the correspondence tests think in days.
#[derive(Clone, Debug, Default)]
pub struct Clock(Option<Arc<AtomicI64>>);

impl Clock {
    /// The system's clock.
    #[must_use]
    pub const fn system() -> Clock {
        Clock(None)
    }

    /// A clock that stands at `at` (seconds since the epoch) until it is moved.
    #[must_use]
    pub fn manual(at: i64) -> Clock {
        Clock(Some(Arc::new(AtomicI64::new(at.saturating_mul(1000)))))
    }

    /// Seconds since the epoch.
    #[must_use]
    pub fn now(&self) -> i64 {
        self.now_ms().div_euclid(1000)
    }

    /// Milliseconds since the epoch.
    #[must_use]
    pub fn now_ms(&self) -> i64 {
        match &self.0 {
            None => system_ms(),
            Some(t) => t.load(Ordering::SeqCst),
        }
    }

    /// Set a manual clock to `at` seconds (a system clock ignores it).
    pub fn set(&self, at: i64) {
        if let Some(t) = &self.0 {
            t.store(at.saturating_mul(1000), Ordering::SeqCst);
        }
    }

    /// Move a manual clock on by `secs`.
    pub fn advance(&self, secs: i64) {
        if let Some(t) = &self.0 {
            t.fetch_add(secs.saturating_mul(1000), Ordering::SeqCst);
        }
    }
}

/// The system's milliseconds since the Unix epoch.
fn system_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The system's seconds since the Unix epoch (for stamps that no test moves: sessions, records).
#[must_use]
pub fn system_now() -> i64 {
    system_ms().div_euclid(1000)
}

#[cfg(test)]
mod tests {
    use super::Clock;

    #[test]
    fn a_manual_clock_moves_only_when_told() {
        let c = Clock::manual(1_000);
        assert_eq!(c.now(), 1_000);
        assert_eq!(c.now_ms(), 1_000_000);
        c.advance(86_400);
        assert_eq!(c.now(), 87_400);
        c.set(5);
        assert_eq!(c.now_ms(), 5_000);
        let s = Clock::system();
        s.set(5);
        assert!(s.now() > 1_700_000_000);
    }
}
