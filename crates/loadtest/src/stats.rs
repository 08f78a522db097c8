//! Latency summaries.

use serde::Serialize;

/// A latency distribution in milliseconds.
#[derive(Clone, Copy, PartialEq, Debug, Default, Serialize)]
pub struct Summary {
    /// Samples.
    pub count: u64,
    /// Median.
    pub p50_ms: f64,
    /// 90th percentile.
    pub p90_ms: f64,
    /// 99th percentile.
    pub p99_ms: f64,
    /// 99.9th percentile.
    pub p999_ms: f64,
    /// The largest.
    pub max_ms: f64,
    /// The mean.
    pub mean_ms: f64,
}

/// The sample at quantile `q` of sorted samples (nearest rank: the smallest sample with at
/// least a fraction `q` of the samples at or below it).
#[must_use]
pub fn quantile(sorted: &[u32], q: f64) -> u32 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Summarise latencies given in microseconds (sorts them).
#[must_use]
pub fn summarize(samples: &mut [u32]) -> Summary {
    if samples.is_empty() {
        return Summary::default();
    }
    samples.sort_unstable();
    let ms = |us: u32| f64::from(us) / 1000.0;
    let sum: u64 = samples.iter().map(|&s| u64::from(s)).sum();
    Summary {
        count: samples.len() as u64,
        p50_ms: ms(quantile(samples, 0.50)),
        p90_ms: ms(quantile(samples, 0.90)),
        p99_ms: ms(quantile(samples, 0.99)),
        p999_ms: ms(quantile(samples, 0.999)),
        max_ms: ms(samples[samples.len() - 1]),
        mean_ms: sum as f64 / samples.len() as f64 / 1000.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_quantiles() {
        let mut v: Vec<u32> = (1..=100).rev().map(|x| x * 1000).collect();
        let s = summarize(&mut v);
        assert_eq!(s.count, 100);
        assert!((s.p50_ms - 50.0).abs() < 1e-9);
        assert!((s.p90_ms - 90.0).abs() < 1e-9);
        assert!((s.p99_ms - 99.0).abs() < 1e-9);
        assert!((s.p999_ms - 100.0).abs() < 1e-9);
        assert!((s.max_ms - 100.0).abs() < 1e-9);
        assert!((s.mean_ms - 50.5).abs() < 1e-9);
        assert_eq!(quantile(&[7], 0.5), 7);
        assert_eq!(quantile(&[], 0.5), 0);
        assert_eq!(summarize(&mut []), Summary::default());
    }
}
