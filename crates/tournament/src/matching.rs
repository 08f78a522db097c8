//! Minimum-cost perfect matching on a general graph, the engine of the Swiss and arena
//! pairings: a thin layer over [`integer_blossom`], the maintained crate implementing the
//! O(n³) primal-dual blossom algorithm for maximum-weight matching (see
//! `docs/architecture.md` for why that crate).
//!
//! Pairing rules are written as a cost for every pair of vertices, built from lexicographic
//! terms (a repeat pairing costs more than any sum of lesser terms can); the matching with
//! the least total cost is then exactly the one the rules rank first.

/// The largest cost solved on 64-bit weights; above it the solver runs on 128-bit weights
/// (slower, same answer). The solver's dual variables need headroom above the weights.
const I64_LIMIT: i128 = 1 << 56;

/// The least-cost perfect matching of `n` vertices (`n` even), where pairing `i` with `j`
/// costs `cost(i, j)` (`i < j`, non-negative). Returns each vertex's mate.
///
/// # Panics
/// If `n` is odd or a cost is negative or above 2^100 (the callers bound their costs far
/// below).
#[must_use]
pub fn min_cost_perfect_matching(n: usize, cost: impl Fn(usize, usize) -> i128) -> Vec<usize> {
    assert!(
        n.is_multiple_of(2),
        "a perfect matching needs an even count"
    );
    if n == 0 {
        return Vec::new();
    }
    let mut m = vec![0i128; n * n];
    let mut max = 0i128;
    for i in 0..n {
        for j in i + 1..n {
            let c = cost(i, j);
            assert!((0..1 << 100).contains(&c), "cost {c} out of range");
            m[i * n + j] = c;
            max = max.max(c);
        }
    }
    if max < I64_LIMIT {
        let m64: Vec<i64> = m.iter().map(|&c| c as i64).collect();
        integer_blossom::min_weight_perfect_matching(&m64, n)
    } else {
        integer_blossom::min_weight_perfect_matching(&m, n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_cheapest_pairing() {
        // 0-1 and 2-3 cost 1 each; 0-2 and 1-3 cost 0 but 0-3 and 1-2 cost 10.
        let cost = |i: usize, j: usize| match (i, j) {
            (0, 1) | (2, 3) => 1,
            (0, 2) | (1, 3) => 0,
            _ => 10,
        };
        assert_eq!(min_cost_perfect_matching(4, cost), vec![2, 3, 0, 1]);
        // Big costs go through the wide solver with the same answer.
        let big = |i: usize, j: usize| cost(i, j) << 70;
        assert_eq!(min_cost_perfect_matching(4, big), vec![2, 3, 0, 1]);
    }
}
