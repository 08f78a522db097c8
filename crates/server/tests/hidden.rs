//! Hidden information: over 1,000 games of computer play, every message the server would send
//! to every seat and to a spectator (the same projection and serialisation the table tasks
//! use) is decoded and checked: no tile appears that the viewer may not know, and no seed of a
//! hand before the hand is over.

use fiveup_engine::{Entry, FastRng, Phase, Preset, Rules, Seat, Tile, TileSet};
use fiveup_protocol::{ServerMsg, TableStatus, UserRef};
use fiveup_server::table::project::{event_view, table_view, Viewer};
use fiveup_server::table::{SeatSetup, Stored, TableConfig, TableCore};

/// Every tile written in a message (`6-4`, `12-10`, also inside `6-4@W`).
fn tiles_in(text: &str) -> TileSet {
    let b = text.as_bytes();
    let mut out = TileSet::EMPTY;
    // A number of one or two digits ending just before `end` (exclusive), or starting at it.
    let before = |end: usize| -> Option<u8> {
        let mut start = end;
        while start > 0 && end - start < 3 && b[start - 1].is_ascii_digit() {
            start -= 1;
        }
        let ok = start < end && end - start <= 2 && (start == 0 || !b[start - 1].is_ascii_digit());
        ok.then(|| text[start..end].parse().ok()).flatten()
    };
    let after = |begin: usize| -> Option<u8> {
        let mut end = begin;
        while end < b.len() && end - begin < 3 && b[end].is_ascii_digit() {
            end += 1;
        }
        let ok = end > begin && end - begin <= 2 && (end == b.len() || !b[end].is_ascii_digit());
        ok.then(|| text[begin..end].parse().ok()).flatten()
    };
    for (i, _) in text.match_indices('-') {
        if i == 0 || i + 1 >= b.len() {
            continue;
        }
        if let (Some(x), Some(y)) = (before(i), after(i + 1)) {
            if x <= 12 && y <= 12 {
                out.insert(Tile::new(x, y));
            }
        }
    }
    out
}

/// What `seat` (or a spectator) may know of the current hand.
fn allowed(core: &TableCore, seat: Option<u8>) -> TileSet {
    let Some(state) = &core.state else {
        return TileSet::EMPTY;
    };
    if !matches!(state.phase(), Phase::Play | Phase::Claim) || core.status != TableStatus::Playing {
        return state.rules().tiles(); // the hand is over: everything is revealed
    }
    let mut known = TileSet::EMPTY;
    // The tile that decided the lead has been shown to the table.
    if let Some(t) = state.shown_tile() {
        known.insert(t);
    }
    if let Some(s) = seat {
        known = known.or(state.deal().hand(Seat(s)));
    }
    for e in state.log() {
        match *e {
            Entry::Play { tile, .. } => known.insert(tile),
            Entry::Draw {
                seat: s,
                tile: Some(t),
                ..
            }
            | Entry::LeadDraw {
                seat: s,
                tile: Some(t),
            } if Some(s.0) == seat => known.insert(t),
            _ => {}
        }
    }
    known
}

/// Seeds that must not be seen yet: those of the hands not over.
fn secrets(core: &TableCore) -> Vec<String> {
    let mut out = Vec::new();
    for h in core.pending.iter().chain(core.current.iter()) {
        out.push(fiveup_server::table::fairness::to_hex(&h.server_seed));
        for c in h.client.iter().flatten() {
            out.push(fiveup_server::table::fairness::to_hex(c));
        }
        if let Some(d) = h.deal_seed {
            out.push(d.to_hex());
        }
    }
    out
}

struct Check {
    messages: u64,
}

impl Check {
    fn message(&mut self, core: &TableCore, seat: Option<u8>, text: &str) {
        self.messages += 1;
        // It decodes as a server message.
        let _: ServerMsg = serde_json::from_str(text).expect("a valid message");
        let seen = tiles_in(text);
        let ok = allowed(core, seat);
        assert!(
            seen.minus(ok).is_empty(),
            "viewer {seat:?} was shown {} it may not know, in {text}",
            seen.minus(ok)
        );
        for s in secrets(core) {
            assert!(
                !text.contains(&s),
                "a seed was shown before its reveal: {text}"
            );
        }
    }
}

fn apply(core: &mut TableCore, change: &Stored, viewers: &[Option<u8>], check: &mut Check) {
    let events = core.apply(change).expect("the change applies");
    for &seat in viewers {
        let viewer = Viewer { seat, user: None };
        for e in &events {
            let msg = ServerMsg::Event {
                version: core.version,
                event: event_view(e, viewer),
                view: Box::new(table_view(core, viewer)),
            };
            check.message(core, seat, &fiveup_server::to_json(&msg));
        }
    }
}

fn rules_for(g: u64) -> Rules {
    let preset = Preset::ALL[(g % Preset::ALL.len() as u64) as usize];
    // One game in four on any set with 2 to 8 players (partnerships of 4 or 6 in half of
    // those that can), the others on the preset's set with 2 to 4.
    let big = g % 4 == 3;
    let players = if big {
        2 + (g / 4 % 7) as u8
    } else {
        2 + (g % 3) as u8
    };
    let set = if big {
        [6, 9, 12][(g / 4 % 3) as usize]
    } else {
        preset.set()
    };
    let mut r = Rules::preset_with_set(preset, players, set);
    r.partnerships = matches!(players, 4 | 6) && g % 2 == 0;
    if big && g % 3 == 0 {
        r.first_lead = fiveup_engine::FirstLead::Lot;
    }
    if !r.cribbage_scale {
        r.target = 50;
    }
    if g % 7 == 3 && !r.cribbage_scale {
        r.manual_scoring = true;
    }
    // Lead draws and voluntary draws show drawn tiles too.
    if g % 5 == 1 {
        r.no_double = fiveup_engine::NoDouble::DrawUntilDouble;
    }
    if g % 11 == 5 && r.drawing {
        r.voluntary_draw = true;
    }
    if r.validate().is_err() {
        r = Rules::preset(preset, players);
    }
    r
}

#[test]
fn no_viewer_ever_sees_what_it_may_not_know() {
    let mut check = Check { messages: 0 };
    let mut rng = FastRng::new(20_261_121);
    let games = 1_000;
    for g in 0..games {
        let rules = rules_for(g);
        let n = rules.players;
        // Seats alternate between people (who send seeds) and computer players.
        let seats: Vec<SeatSetup> = (0..n)
            .map(|s| {
                if (s as u64 + g) % 3 == 2 {
                    SeatSetup::Bot {
                        level: "random".into(),
                    }
                } else {
                    SeatSetup::Open
                }
            })
            .collect();
        let mut core = TableCore::new(TableConfig {
            id: format!("g{g}"),
            rules,
            seats: seats.clone(),
            creator: None,
            unlisted: false,
            created_at: 0,
            request: None,
            correspondence: None,
            tournament: None,
            hints: false,
        });
        let mut viewers: Vec<Option<u8>> = (0..n).map(Some).collect();
        viewers.push(None);
        for (s, setup) in seats.iter().enumerate() {
            if *setup == SeatSetup::Open {
                let user = UserRef {
                    id: s as i64 + 1,
                    name: format!("P{s}"),
                    registered: false,
                    bot: false,
                };
                apply(
                    &mut core,
                    &Stored::Sit {
                        seat: s as u8,
                        user,
                    },
                    &viewers,
                    &mut check,
                );
            }
        }
        apply(&mut core, &Stored::Start, &viewers, &mut check);
        let mut steps = 0;
        while core.status != TableStatus::Finished {
            steps += 1;
            assert!(steps < 5_000, "game {g} does not end");
            if core.status == TableStatus::Dealing {
                if core.pending.is_none() {
                    let hand = core.state.as_ref().map_or(1, |s| s.start().hand_no + 1);
                    let seed: [u8; 32] = std::array::from_fn(|_| rng.below(256) as u8);
                    apply(
                        &mut core,
                        &Stored::Commit {
                            hand,
                            server_seed: fiveup_server::table::fairness::to_hex(&seed),
                        },
                        &viewers,
                        &mut check,
                    );
                    continue;
                }
                let hand = core.pending.as_ref().unwrap().hand;
                // Some people send a seed, some do not.
                for (s, setup) in seats.iter().enumerate() {
                    if *setup == SeatSetup::Open && rng.below(4) != 0 {
                        let seed: [u8; 32] = std::array::from_fn(|_| rng.below(256) as u8);
                        apply(
                            &mut core,
                            &Stored::Seed {
                                hand,
                                seat: s as u8,
                                seed: fiveup_server::table::fairness::to_hex(&seed),
                                cmd: format!("s{hand}-{s}"),
                            },
                            &viewers,
                            &mut check,
                        );
                    }
                }
                apply(&mut core, &Stored::Deal { hand }, &viewers, &mut check);
                continue;
            }
            let state = core.state.as_ref().unwrap();
            let seat = state.to_move().0;
            let action = state.random_action(&mut rng);
            apply(
                &mut core,
                &Stored::Act {
                    seat,
                    action,
                    cmd: None,
                },
                &viewers,
                &mut check,
            );
        }
        // Once over, the whole record verifies.
        if g % 50 == 0 {
            let rec = core.record("2026-11-21").unwrap();
            let report = fiveup_server::games::verify(&rec.to_text());
            assert!(report.ok, "{report:?}");
        }
    }
    eprintln!("{games} games, {} messages checked", check.messages);
    assert!(check.messages > 100_000);
}

#[test]
fn the_checker_notices_a_leak() {
    // A seat's view of the first hand, shown to the other seat, is caught.
    let rules = Rules::default();
    let mut core = TableCore::new(TableConfig {
        id: "leak".into(),
        rules,
        seats: vec![
            SeatSetup::Bot {
                level: "random".into()
            };
            2
        ],
        creator: None,
        unlisted: false,
        created_at: 0,
        request: None,
        correspondence: None,
        tournament: None,
        hints: false,
    });
    core.apply(&Stored::Start).unwrap();
    core.apply(&Stored::Commit {
        hand: 1,
        server_seed: "00".repeat(32),
    })
    .unwrap();
    core.apply(&Stored::Deal { hand: 1 }).unwrap();
    let leak = fiveup_server::to_json(&table_view(
        &core,
        Viewer {
            seat: Some(0),
            user: None,
        },
    ));
    let seen = tiles_in(&leak);
    assert!(!seen.minus(allowed(&core, Some(1))).is_empty());
    assert!(seen.minus(allowed(&core, Some(0))).is_empty());
    assert!(!secrets(&core).is_empty());
}

#[test]
fn tiles_of_every_set_are_found_in_a_message() {
    let found = tiles_in(
        r#"{"my_tiles":["12-11","9-0"],"legal":[{"action":"10-10@7"}],"at":"2026-11-21"}"#,
    );
    let want: TileSet = [Tile::new(12, 11), Tile::new(9, 0), Tile::new(10, 10)]
        .into_iter()
        .fold(TileSet::EMPTY, |mut s, t| {
            s.insert(t);
            s
        });
    assert_eq!(found, want);
}
