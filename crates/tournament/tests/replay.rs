//! Every event is a pure function of its settings, first entrants and operation log, and
//! survives a round trip through JSON: what a server stores rebuilds the same event.

use fiveup_tournament::arena::{Arena, ArenaSettings};
use fiveup_tournament::cutthroat::{CutThroat, CutThroatSettings};
use fiveup_tournament::knockout::{Elimination, Knockout, KnockoutSettings};
use fiveup_tournament::roundrobin::{RoundRobin, RoundRobinSettings};
use fiveup_tournament::swiss::{Swiss, SwissSettings};
use fiveup_tournament::{Entrant, EntrantId, MatchResult, MatchRule};
use serde::{de::DeserializeOwned, Serialize};

fn field(n: u32) -> Vec<Entrant> {
    (0..n)
        .map(|i| Entrant::single(EntrantId(i), format!("p{i}"), 1800 - 7 * i as i32))
        .collect()
}

/// Side A wins when the sum of the ids and the game number is even.
fn result(a: EntrantId, b: EntrantId, k: usize) -> MatchResult {
    let a_won = (a.0 + b.0 + k as u32).is_multiple_of(2);
    MatchResult::new(
        if a_won { [2, 1] } else { [1, 2] },
        0,
        if a_won { [500, 430] } else { [410, 520] },
    )
}

fn round_trip<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(v: &T) {
    let json = serde_json::to_string(v).expect("serialises");
    let back: T = serde_json::from_str(&json).expect("deserialises");
    assert_eq!(&back, v);
}

#[test]
fn swiss_with_late_entry_and_withdrawal_replays() {
    let settings = SwissSettings {
        rounds: 4,
        rule: MatchRule::best_of(3),
    };
    let mut s = Swiss::new(settings, field(7)).unwrap();
    for r in 0..4 {
        if r == 1 {
            s.enter(Entrant::single(EntrantId(50), "late", 1500))
                .unwrap();
            s.withdraw(EntrantId(3)).unwrap();
        }
        let round = s.pair_next_round().unwrap().clone();
        for (t, p) in round.pairings.iter().enumerate() {
            if let Some(b) = p.b {
                s.record(r, t, result(p.a, b, t)).unwrap();
            }
        }
    }
    assert!(s.rounds()[1..]
        .iter()
        .all(|r| r.pairings.iter().all(|p| !p.involves(EntrantId(3)))));
    let rows = s.standings();
    let late = rows.iter().find(|r| r.entrant == EntrantId(50)).unwrap();
    assert!(late.record.byes >= 1);
    assert!(rows.iter().find(|r| r.entrant == EntrantId(3)).unwrap().out);
    assert_eq!(Swiss::replay(settings, field(7), s.log()).unwrap(), s);
    round_trip(&s);
    round_trip(&s.log().to_vec());
}

#[test]
fn knockouts_round_robins_arenas_and_cutthroat_replay() {
    for elimination in [Elimination::Single, Elimination::Double] {
        let settings = KnockoutSettings {
            elimination,
            rule: MatchRule::best_of(3),
        };
        let mut k = Knockout::new(settings, field(11)).unwrap();
        let mut i = 0;
        while let Some(&(id, a, b)) = k.ready().first() {
            k.record(id, result(a, b, i)).unwrap();
            i += 1;
        }
        assert!(k.champion().is_some());
        assert_eq!(Knockout::replay(settings, field(11), k.log()).unwrap(), k);
        round_trip(&k);
        round_trip(&k.bracket());
    }

    let settings = RoundRobinSettings {
        double: true,
        rule: MatchRule::single(),
    };
    let mut rr = RoundRobin::new(settings, field(5)).unwrap();
    let schedule = rr.rounds().to_vec();
    // Rounds may come in any order: play them last first.
    for (r, round) in schedule.iter().enumerate().rev() {
        for (t, p) in round.pairings.iter().enumerate() {
            if let Some(b) = p.b {
                rr.record(r, t, MatchResult::game((p.a.0 + b.0) % 3 == 0, [100, 90]))
                    .unwrap();
            }
        }
    }
    assert!(rr.is_finished());
    assert_eq!(
        RoundRobin::replay(settings, field(5), rr.log()).unwrap(),
        rr
    );
    round_trip(&rr);

    let settings = ArenaSettings {
        duration_ms: 10_000,
        streaks: true,
        rule: MatchRule::best_of(3),
    };
    let mut a = Arena::new(settings, field(5)).unwrap();
    for i in 0..5 {
        a.join(EntrantId(i)).unwrap();
    }
    let mut now = 0;
    while now < 10_000 {
        let new = a.pair(now).unwrap();
        for g in new {
            let m = a.matches()[g];
            a.record(g, result(m.a, m.b, g), now + 700).unwrap();
        }
        if now == 3_000 {
            a.leave(EntrantId(4)).unwrap();
        }
        now += 1_000;
    }
    assert!(a.matches().len() >= 10);
    assert_eq!(Arena::replay(settings, field(5), a.log()).unwrap(), a);
    round_trip(&a);

    let settings = CutThroatSettings {
        min_seats: 3,
        max_seats: 4,
        rounds: 3,
    };
    let mut c = CutThroat::new(settings, field(10)).unwrap();
    for r in 0..3 {
        let tables = c.pair_next_round().unwrap().to_vec();
        for (t, table) in tables.iter().enumerate() {
            let pts = table
                .seats
                .iter()
                .map(|id| i64::from(id.0 * 7 % 11))
                .collect();
            c.record(r, t, pts).unwrap();
        }
    }
    assert_eq!(CutThroat::replay(settings, field(10), c.log()).unwrap(), c);
    round_trip(&c);
}
