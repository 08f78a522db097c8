//! Property tests of the pairings: Swiss against a brute-force search of every pairing,
//! knockouts seeded as documented, Berger tables complete, double elimination's two losses.

use std::collections::{BTreeMap, BTreeSet};

use fiveup_tournament::cutthroat::{table_sizes, CutThroat, CutThroatSettings};
use fiveup_tournament::knockout::{Elimination, Knockout, KnockoutSettings, MatchStatus, Slot};
use fiveup_tournament::roundrobin::{berger_tables, RoundRobin, RoundRobinSettings};
use fiveup_tournament::swiss::{pair_swiss, Swiss, SwissPlayer, SwissSettings};
use fiveup_tournament::{Entrant, EntrantId, MatchResult, MatchRule, Pairing};
use proptest::prelude::*;

/// A small deterministic generator for results (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn field(n: u32) -> Vec<Entrant> {
    (0..n)
        .map(|i| Entrant::single(EntrantId(i), format!("p{i}"), 2000 - i as i32))
        .collect()
}

fn random_result(rng: &mut Rng) -> MatchResult {
    let a_won = rng.below(2) == 0;
    let (w, l) = (100 + rng.below(150) as i64, rng.below(100) as i64);
    MatchResult::game(a_won, if a_won { [w, l] } else { [l, w] })
}

/// Every perfect matching of `0..n` (n even), as lists of pairs.
fn all_matchings(n: usize) -> Vec<Vec<(usize, usize)>> {
    fn go(
        free: &mut Vec<usize>,
        cur: &mut Vec<(usize, usize)>,
        out: &mut Vec<Vec<(usize, usize)>>,
    ) {
        if free.is_empty() {
            out.push(cur.clone());
            return;
        }
        let a = free.remove(0);
        for k in 0..free.len() {
            let b = free.remove(k);
            cur.push((a, b));
            go(free, cur, out);
            cur.pop();
            free.insert(k, b);
        }
        free.insert(0, a);
    }
    let mut out = Vec::new();
    go(&mut (0..n).collect(), &mut Vec::new(), &mut out);
    out
}

/// How many score groups apart two players are (groups: the distinct scores in the field).
fn group_distance(players: &[SwissPlayer], a: usize, b: usize) -> u64 {
    let lo = players[a].score.min(players[b].score);
    let hi = players[a].score.max(players[b].score);
    let scores: BTreeSet<u32> = players.iter().map(|p| p.score).collect();
    scores.range(lo..hi).count() as u64
}

/// The documented objective of a Swiss pairing, most important first: the byes the bye's
/// receiver has had, repeats by how often each pair met (1 for a pair that met once,
/// `w (r - 1)^2 + 1` for `r` times), how far above the bottom the bye's receiver ranks, the
/// cost of score-group floats (1 for adjacent groups, `w (d - 1)^2 + 1` for `d` groups apart,
/// `w` above the number of pairs). `rank` lists the players (indices) in ranking order.
fn objective(
    players: &[SwissPlayer],
    rank: &[usize],
    pairs: &[(usize, Option<usize>)],
) -> (u32, u64, usize, u64) {
    let place = |i: usize| rank.iter().position(|&r| r == i).unwrap_or(0);
    let w = players.len() as u64 / 2 + 2;
    let sq = |d: u64| if d <= 1 { d } else { w * (d - 1) * (d - 1) + 1 };
    let mut byes = 0;
    let mut rep = 0;
    let mut bye_rank = 0;
    let mut d2 = 0;
    for &(a, b) in pairs {
        match b {
            None => {
                byes += players[a].byes;
                bye_rank = players.len() - 1 - place(a);
            }
            Some(b) => {
                let met = players[a]
                    .opponents
                    .iter()
                    .filter(|&&o| o == players[b].id)
                    .count() as u64;
                rep += sq(met);
                d2 += sq(group_distance(players, a, b));
            }
        }
    }
    (byes, rep, bye_rank, d2)
}

fn swiss_players() -> impl Strategy<Value = Vec<SwissPlayer>> {
    (2usize..=9).prop_flat_map(|n| {
        (
            proptest::collection::vec(0u32..=6, n),
            proptest::collection::vec(0u32..=2, n),
            proptest::collection::vec(0u32..=3, n * (n - 1) / 2),
        )
            .prop_map(move |(scores, byes, met)| {
                let mut players: Vec<SwissPlayer> = (0..n)
                    .map(|i| SwissPlayer {
                        id: EntrantId(i as u32),
                        score: scores[i],
                        rating: 2000 - i as i32,
                        byes: byes[i],
                        opponents: Vec::new(),
                    })
                    .collect();
                let mut k = 0;
                for i in 0..n {
                    for j in i + 1..n {
                        for _ in 0..met[k] {
                            players[i].opponents.push(EntrantId(j as u32));
                            players[j].opponents.push(EntrantId(i as u32));
                        }
                        k += 1;
                    }
                }
                players
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The Swiss pairing is the best of all pairings on the documented objective: no second
    /// bye and no repeat pairing while a pairing with fewer exists, the bye to the lowest-ranked
    /// player possible, then the least cost of score-group floats; in particular, no pair
    /// more than one score group apart while a pairing as good on the rest has none.
    #[test]
    fn swiss_pairing_is_optimal(players in swiss_players()) {
        let n = players.len();
        let got = pair_swiss(&players);
        // Every player exactly once, at most one bye.
        let mut seen = BTreeSet::new();
        for p in &got {
            prop_assert!(seen.insert(p.a));
            if let Some(b) = p.b {
                prop_assert!(seen.insert(b));
            }
        }
        prop_assert_eq!(seen.len(), n);
        prop_assert_eq!(got.iter().filter(|p| p.b.is_none()).count(), n % 2);
        let mut rank: Vec<usize> = (0..n).collect();
        rank.sort_by(|&a, &b| players[b].score.cmp(&players[a].score).then(a.cmp(&b)));
        let ix = |id: EntrantId| id.0 as usize;
        let got_pairs: Vec<(usize, Option<usize>)> = got.iter().map(|p| (ix(p.a), p.b.map(ix))).collect();
        let v = n + n % 2;
        let best = all_matchings(v)
            .into_iter()
            .map(|m| {
                let pairs: Vec<(usize, Option<usize>)> = m
                    .into_iter()
                    .map(|(a, b)| if b == n { (a, None) } else if a == n { (b, None) } else { (a, Some(b)) })
                    .collect();
                objective(&players, &rank, &pairs)
            })
            .min();
        prop_assert_eq!(Some(objective(&players, &rank, &got_pairs)), best);
        // Score groups: the widest float is within adjacent groups whenever some pairing
        // as good on byes and repeats keeps every pair so.
        let as_pairs = |m: Vec<(usize, usize)>| -> Vec<(usize, Option<usize>)> {
            m.into_iter()
                .map(|(a, b)| {
                    if b == n {
                        (a, None)
                    } else if a == n {
                        (b, None)
                    } else {
                        (a, Some(b))
                    }
                })
                .collect()
        };
        let widest = |pairs: &[(usize, Option<usize>)]| {
            pairs
                .iter()
                .filter_map(|&(a, b)| b.map(|b| group_distance(&players, a, b)))
                .max()
                .unwrap_or(0)
        };
        let tiers = |pairs: &[(usize, Option<usize>)]| {
            let o = objective(&players, &rank, pairs);
            (o.0, o.1, o.2)
        };
        let adjacent_possible = all_matchings(v).into_iter().any(|m| {
            let pairs = as_pairs(m);
            tiers(&pairs) == tiers(&got_pairs) && widest(&pairs) <= 1
        });
        if adjacent_possible {
            prop_assert!(widest(&got_pairs) <= 1, "a float over more than one group: {got:?}");
        }
    }

    /// A whole Swiss: each player gets the pairing bye at most once, nobody meets the same
    /// opponent twice while the rounds are fewer than half the field, and the event replays
    /// from its log (and through JSON) to the same state.
    #[test]
    fn swiss_events_give_byes_once_and_replay(n in 2u32..=14, extra in 0u32..=6, seed in any::<u64>()) {
        let rounds = (1 + extra).min(n);
        let mut rng = Rng(seed | 1);
        let settings = SwissSettings { rounds, rule: MatchRule::single() };
        let mut s = Swiss::new(settings, field(n)).unwrap();
        let mut met: BTreeMap<(EntrantId, EntrantId), u32> = BTreeMap::new();
        let mut byes: BTreeMap<EntrantId, u32> = BTreeMap::new();
        for r in 0..rounds as usize {
            let round = s.pair_next_round().unwrap().clone();
            for (t, p) in round.pairings.iter().enumerate() {
                match p.b {
                    None => *byes.entry(p.a).or_default() += 1,
                    Some(b) => {
                        let k = if p.a < b { (p.a, b) } else { (b, p.a) };
                        *met.entry(k).or_default() += 1;
                        s.record(r, t, random_result(&mut rng)).unwrap();
                    }
                }
            }
        }
        prop_assert!(byes.values().all(|&b| b <= 1), "{byes:?}");
        if 2 * rounds <= n {
            prop_assert!(met.values().all(|&m| m == 1), "{met:?}");
        }
        prop_assert!(s.is_finished());
        let again = Swiss::replay(settings, field(n), s.log()).unwrap();
        prop_assert_eq!(&again, &s);
        let json = serde_json::to_string(&s).unwrap();
        let back: Swiss = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(back, s);
    }

    /// Single elimination: the top seeds get the byes, seeds 1 and 2 can meet only in the
    /// final, every entrant but the champion loses exactly once, n - 1 matches are played.
    #[test]
    fn single_elimination_is_seeded_as_documented(n in 2u32..=40, seed in any::<u64>()) {
        let mut rng = Rng(seed | 1);
        let settings = KnockoutSettings { elimination: Elimination::Single, rule: MatchRule::single() };
        let mut k = Knockout::new(settings, field(n)).unwrap();
        let size = n.next_power_of_two();
        let byes: BTreeSet<EntrantId> = k
            .bracket()
            .iter()
            .filter(|v| v.status == MatchStatus::Walkover && v.r#match.round == 1)
            .filter_map(|v| match v.winner { Slot::Entrant(id) => Some(id), _ => None })
            .collect();
        // Seeds are the ids here (ratings fall with the id).
        let expected: BTreeSet<EntrantId> = (0..size - n).map(EntrantId).collect();
        prop_assert_eq!(byes, expected);
        let rounds = size.trailing_zeros();
        let mut losses: BTreeMap<EntrantId, u32> = BTreeMap::new();
        let mut played = 0;
        while let Some(&(id, a, b)) = k.ready().first() {
            let r = random_result(&mut rng);
            let view = &k.bracket()[id];
            if [a, b] == [EntrantId(0), EntrantId(1)] || [a, b] == [EntrantId(1), EntrantId(0)] {
                prop_assert_eq!(view.r#match.round, rounds, "1 and 2 met before the final");
            }
            let loser = if r.games[0] > r.games[1] { b } else { a };
            *losses.entry(loser).or_default() += 1;
            k.record(id, r).unwrap();
            played += 1;
        }
        let champion = k.champion().unwrap();
        prop_assert_eq!(played, n - 1);
        prop_assert!(!losses.contains_key(&champion));
        prop_assert!(losses.values().all(|&l| l == 1));
        prop_assert_eq!(losses.len() as u32, n - 1);
    }

    /// Double elimination: every entrant but the winner is eliminated after exactly two
    /// losses, the winner has at most one, and the matches played are 2n - 2, or 2n - 1 when
    /// the grand final is won from the losers' side and the bracket is reset.
    #[test]
    fn double_elimination_takes_two_losses(n in 2u32..=40, seed in any::<u64>(), favourites in any::<bool>()) {
        let mut rng = Rng(seed | 1);
        let settings = KnockoutSettings { elimination: Elimination::Double, rule: MatchRule::best_of(3) };
        let mut k = Knockout::new(settings, field(n)).unwrap();
        let mut losses: BTreeMap<EntrantId, u32> = BTreeMap::new();
        let mut played = 0;
        let mut met01 = false;
        while let Some(&(id, a, b)) = k.ready().first() {
            // Random results, or the better seed always wins.
            let a_wins = if favourites { a < b } else { rng.below(2) == 0 };
            let r = MatchResult::new(if a_wins { [2, 1] } else { [1, 2] }, 0, [300, 290]);
            let loser = if a_wins { b } else { a };
            // Nobody plays after their second loss.
            prop_assert!(losses.get(&a).copied().unwrap_or(0) < 2);
            prop_assert!(losses.get(&b).copied().unwrap_or(0) < 2);
            if favourites && a == EntrantId(0) && b == EntrantId(1) && !met01 {
                // With the favourites winning, 1 and 2 first meet in the winners' final,
                // both unbeaten.
                met01 = true;
                prop_assert!(!losses.contains_key(&a) && !losses.contains_key(&b));
            }
            *losses.entry(loser).or_default() += 1;
            k.record(id, r).unwrap();
            played += 1;
        }
        let champion = k.champion().unwrap();
        let reset = k.bracket().last().map(|v| v.status) == Some(MatchStatus::Played);
        prop_assert!(losses.get(&champion).copied().unwrap_or(0) <= 1);
        for i in 0..n {
            let id = EntrantId(i);
            if id != champion {
                prop_assert_eq!(losses.get(&id).copied(), Some(2), "entrant {}", i);
            }
        }
        prop_assert_eq!(played, 2 * n - 2 + u32::from(reset));
        if favourites {
            prop_assert_eq!(champion, EntrantId(0));
            prop_assert!(!reset);
        }
        let again = Knockout::replay(settings, field(n), k.log()).unwrap();
        prop_assert_eq!(again, k);
    }

    /// Berger tables: every pair meets exactly once (twice, once each way, in a double round
    /// robin), nobody plays twice in a round, and with an odd field each player has exactly
    /// one bye.
    #[test]
    fn berger_tables_are_complete(n in 2u32..=30, double in any::<bool>()) {
        let tables = berger_tables(n);
        let even = n + n % 2;
        prop_assert_eq!(tables.len() as u32, even - 1);
        let mut met = BTreeSet::new();
        for round in &tables {
            let mut seen = BTreeSet::new();
            for &(a, b) in round {
                prop_assert!(seen.insert(a) && seen.insert(b));
                prop_assert!(met.insert((a.min(b), a.max(b))));
            }
            prop_assert_eq!(seen.len() as u32, even);
        }
        prop_assert_eq!(met.len() as u32, even * (even - 1) / 2);
        let rr = RoundRobin::new(RoundRobinSettings { double, rule: MatchRule::single() }, field(n)).unwrap();
        let mut pairs: BTreeMap<(EntrantId, EntrantId), u32> = BTreeMap::new();
        let mut byes: BTreeMap<EntrantId, u32> = BTreeMap::new();
        for round in rr.rounds() {
            for &Pairing { a, b } in &round.pairings {
                match b {
                    Some(b) => *pairs.entry((a, b)).or_default() += 1,
                    None => *byes.entry(a).or_default() += 1,
                }
            }
        }
        let cycles = 1 + u32::from(double);
        for i in 0..n {
            for j in i + 1..n {
                let (x, y) = (EntrantId(i), EntrantId(j));
                let ab = pairs.get(&(x, y)).copied().unwrap_or(0);
                let ba = pairs.get(&(y, x)).copied().unwrap_or(0);
                prop_assert_eq!(ab + ba, cycles);
                if double {
                    prop_assert_eq!((ab, ba), (1, 1));
                }
            }
        }
        if n % 2 == 1 {
            prop_assert!((0..n).all(|i| byes.get(&EntrantId(i)) == Some(&cycles)));
        } else {
            prop_assert!(byes.is_empty());
        }
    }

    /// Cut-throat tables: every active player seated once a round, sizes within the limits
    /// and differing by at most one.
    #[test]
    fn cutthroat_tables_fit_the_limits(n in 3u32..=60, min in 3u8..=8, spread in 0u8..=5, seed in any::<u64>()) {
        let max = (min + spread).min(8);
        let settings = CutThroatSettings { min_seats: min, max_seats: max, rounds: 3 };
        let Ok(sizes) = table_sizes(n as usize, usize::from(min), usize::from(max)) else {
            prop_assert!(CutThroat::new(settings, field(n)).is_err());
            return Ok(());
        };
        prop_assert!(sizes.iter().all(|&s| (usize::from(min)..=usize::from(max)).contains(&s)));
        prop_assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1);
        prop_assert_eq!(sizes.iter().sum::<usize>(), n as usize);
        let mut rng = Rng(seed | 1);
        let mut c = CutThroat::new(settings, field(n)).unwrap();
        for r in 0..3 {
            let tables = c.pair_next_round().unwrap().to_vec();
            let mut seen = BTreeSet::new();
            for t in &tables {
                prop_assert!((usize::from(min)..=usize::from(max)).contains(&t.seats.len()));
                for s in &t.seats {
                    prop_assert!(seen.insert(*s));
                }
            }
            prop_assert_eq!(seen.len() as u32, n);
            for (i, t) in tables.iter().enumerate() {
                let pts = t.seats.iter().map(|_| rng.below(200) as i64).collect();
                c.record(r, i, pts).unwrap();
            }
        }
        let again = CutThroat::replay(settings, field(n), c.log()).unwrap();
        prop_assert_eq!(again, c);
    }
}

/// A field too big for one graph is paired in blocks: after three rounds of 2,500 players,
/// round 4 seats everyone once, repeats no pairing, gives one bye to a player without one,
/// and keeps every pair within one score group of each other.
#[test]
fn big_fields_are_paired_in_blocks() {
    let n = 2_501;
    let settings = SwissSettings {
        rounds: 5,
        rule: MatchRule::single(),
    };
    let mut s = Swiss::new(settings, field(n)).unwrap();
    let mut rng = Rng(7);
    for r in 0..4 {
        // The players as the pairing saw them.
        let players: BTreeMap<EntrantId, SwissPlayer> =
            s.pairing_players().into_iter().map(|p| (p.id, p)).collect();
        let round = s.pair_next_round().unwrap().clone();
        let mut seen = BTreeSet::new();
        for p in &round.pairings {
            assert!(seen.insert(p.a));
            if let Some(b) = p.b {
                assert!(seen.insert(b));
            }
        }
        assert_eq!(seen.len() as u32, n);
        assert_eq!(round.pairings.iter().filter(|p| p.b.is_none()).count(), 1);
        let mut byes = 0;
        for (t, p) in round.pairings.iter().enumerate() {
            match p.b {
                Some(b) => {
                    let (x, y) = (&players[&p.a], &players[&b]);
                    assert!(!x.opponents.contains(&b), "round {r}: a repeat pairing");
                    assert!(x.score.abs_diff(y.score) <= 2, "round {r}: {x:?} v {y:?}");
                    s.record(r, t, random_result(&mut rng)).unwrap();
                }
                None => byes += players[&p.a].byes,
            }
        }
        assert_eq!(byes, 0, "a second bye in round {r}");
    }
}

/// A Swiss of more rounds than the field can play without repeats (`--field 7 --rounds 9`),
/// over many result orders: byes go round (nobody has two more than another), and each round
/// has as few pairs meeting a third time as any pairing of it with the bye to a player of the
/// fewest byes (checked against every pairing), so in the reported field of seven nobody meets
/// a third time and no round repeats the round before.
#[test]
fn a_swiss_past_the_field_counts_meetings_and_byes() {
    let mut third_meetings = 0;
    for n in [5u32, 6, 7, 8] {
        for seed in 1..=20u64 {
            let settings = SwissSettings {
                rounds: 9,
                rule: MatchRule::single(),
            };
            let mut s = Swiss::new(settings, field(n)).unwrap();
            let mut rng = Rng(seed);
            let mut last: BTreeSet<(EntrantId, EntrantId)> = BTreeSet::new();
            for r in 0..9 {
                let before = s.pairing_players();
                let met = |a: usize, b: usize| {
                    before[a]
                        .opponents
                        .iter()
                        .filter(|&&o| o == before[b].id)
                        .count()
                };
                let fewest = before.iter().map(|p| p.byes).min().unwrap();
                // The fewest pairs meeting a third time (or more) over every pairing.
                let k = n as usize + n as usize % 2;
                let best = all_matchings(k)
                    .into_iter()
                    .filter(|m| {
                        m.iter().all(|&(a, b)| {
                            let bye = if a >= n as usize { b } else { a };
                            b < n as usize || before[bye].byes == fewest
                        })
                    })
                    .map(|m| {
                        m.iter()
                            .filter(|&&(a, b)| b < n as usize && a < n as usize && met(a, b) >= 2)
                            .count()
                    })
                    .min()
                    .unwrap();
                let round = s.pair_next_round().unwrap().clone();
                let idx = |id: EntrantId| before.iter().position(|p| p.id == id).unwrap();
                let thirds = round
                    .pairings
                    .iter()
                    .filter(|p| p.b.is_some_and(|b| met(idx(p.a), idx(b)) >= 2))
                    .count();
                assert_eq!(thirds, best, "field {n}, seed {seed}, round {}", r + 1);
                third_meetings += thirds;
                if let Some(bye) = round.pairings.iter().find(|p| p.b.is_none()) {
                    assert_eq!(before[idx(bye.a)].byes, fewest);
                }
                let pairs: BTreeSet<(EntrantId, EntrantId)> = round
                    .pairings
                    .iter()
                    .filter_map(|p| p.b.map(|b| (p.a.min(b), p.a.max(b))))
                    .collect();
                if n == 7 {
                    assert_eq!(thirds, 0, "seed {seed}, round {}", r + 1);
                    assert!(
                        r == 0 || pairs != last,
                        "seed {seed}: round {} repeats",
                        r + 1
                    );
                }
                last = pairs;
                for (t, p) in round.pairings.iter().enumerate() {
                    if p.b.is_some() {
                        s.record(r, t, random_result(&mut rng)).unwrap();
                    }
                }
            }
            let byes: Vec<u32> = s.pairing_players().iter().map(|p| p.byes).collect();
            let (lo, hi) = (byes.iter().min().unwrap(), byes.iter().max().unwrap());
            assert!(hi - lo <= 1, "field {n}, seed {seed}: byes {byes:?}");
        }
    }
    eprintln!("{third_meetings} third meetings, each forced");
}
