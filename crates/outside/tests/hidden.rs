//! Hidden information: every message sent to an engine, in games of every preset, is checked
//! against what the engine's seat may know when it is sent: no tile of another hand or of the
//! boneyard appears before the hand's result reveals them.
//!
//! The engine is the example Python engine; the test fails (never skips) without `python3`.

use std::sync::Arc;
use std::time::Duration;

use fiveup_bots::{make_bot, Bot, Player as _};
use fiveup_engine::{Entry, Phase, Preset, Rules, Seat, Seed, State, Tile, TileSet};
use fiveup_outside::{EngineConfig, EngineHost, EnginePlayer};

const GREEDY: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../examples/engines/greedy.py"
);

/// Every tile written in a message (`6-4`, `12-10`, also inside `6-4@W`).
fn tiles_in(text: &str) -> TileSet {
    let b = text.as_bytes();
    let mut out = TileSet::EMPTY;
    let number = |start: usize, end: usize| -> Option<u8> {
        (start < end && end - start <= 2)
            .then(|| text[start..end].parse().ok())
            .flatten()
    };
    for (i, _) in text.match_indices('-') {
        if i == 0 || i + 1 >= b.len() {
            continue;
        }
        let mut start = i;
        while start > 0 && b[start - 1].is_ascii_digit() {
            start -= 1;
        }
        let mut end = i + 1;
        while end < b.len() && b[end].is_ascii_digit() {
            end += 1;
        }
        if let (Some(x), Some(y)) = (number(start, i), number(i + 1, end)) {
            if x <= 12 && y <= 12 {
                out.insert(Tile::new(x, y));
            }
        }
    }
    out
}

/// What `seat` may know now: everything once the hand's result revealed the hands; else its
/// dealt tiles, its own draws, the tiles laid, and the tile shown to decide the lead (also when
/// a side reached the target mid-hand: the game is over but the hands stay hidden).
fn allowed(state: &State, seat: Seat) -> TileSet {
    if state.result().is_some() {
        return state.rules().tiles();
    }
    let mut known = state.deal().hand(seat);
    if let Some(t) = state.shown_tile() {
        known.insert(t);
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
            } if s == seat => known.insert(t),
            _ => {}
        }
    }
    known
}

/// No line shows a tile outside `allowed`; returns the tiles the lines show.
///
/// A request's `earlier_hands` are finished hands, whose results revealed every tile (and a
/// set's tiles recur in every hand), so they are checked apart: in them too, another seat's
/// draws show no tile.
fn check(lines: &[String], allowed: TileSet, seat: Seat, what: &str) -> TileSet {
    let mut seen = TileSet::EMPTY;
    for l in lines {
        let mut v: serde_json::Value = serde_json::from_str(l).expect("a message is JSON");
        if let Some(earlier) = v
            .get_mut("position")
            .and_then(|p| p.as_object_mut())
            .and_then(|p| p.remove("earlier_hands"))
        {
            for hand in earlier.as_array().expect("a list") {
                for e in hand["history"].as_array().expect("a history") {
                    let theirs = e["seat"].as_u64() != Some(u64::from(seat.0));
                    let draw = matches!(e["kind"].as_str(), Some("draw" | "lead-draw"));
                    assert!(
                        !(theirs && draw && !e["tile"].is_null()),
                        "{what}: another seat's draw shows its tile: {e}"
                    );
                }
            }
        }
        let text = v.to_string();
        let shown = tiles_in(&text);
        let leaked = shown.minus(allowed);
        assert!(leaked.is_empty(), "{what}: {leaked:?} leaked in {text}");
        seen = seen.or(shown);
    }
    seen
}

fn host() -> Arc<EngineHost> {
    let ok = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(ok, "this test runs the example engine: install python3");
    EngineHost::start(
        &format!("python3 {GREEDY}"),
        &EngineConfig {
            move_time: Duration::from_secs(10),
            record: true,
            ..EngineConfig::default()
        },
    )
    .expect("the example engine starts")
}

#[test]
fn the_checker_sees_tiles() {
    assert_eq!(
        tiles_in(r#"{"legal":["6-4@W","12-10","D"],"scores":[10,-5]}"#),
        [Tile::new(6, 4), Tile::new(12, 10)].into_iter().collect()
    );
}

#[test]
fn no_message_to_an_engine_shows_a_tile_its_seat_may_not_see() {
    let host = host();
    let mut messages = 0usize;
    for (k, preset) in Preset::ALL.into_iter().enumerate() {
        let (lo, _) = preset.players();
        for players in [lo, lo + 1] {
            let rules = Rules::preset(preset, players);
            let seed = Seed::from_u64(40 + k as u64);
            let mut state = State::from_seed(rules, &seed).expect("deal");
            // The engine sits in seat 1: it neither always leads nor always follows.
            let me = Seat(1);
            let mut engine = EnginePlayer::new(host.clone(), 7).expect("player");
            let mut others: Vec<Bot> = (0..players)
                .map(|s| make_bot("greedy", u64::from(s)).expect("greedy"))
                .collect();
            let mut seen_mine = TileSet::EMPTY;
            for _hand in 0..3 {
                let dealt = state.deal().hand(me);
                while matches!(state.phase(), Phase::Play | Phase::Claim) {
                    let seat = state.to_move();
                    let a = if seat == me {
                        let a = engine.choose(&state.view(me));
                        let lines = engine.take_sent();
                        messages += lines.len();
                        let what = format!("{preset} {players}p");
                        seen_mine = seen_mine.or(check(&lines, allowed(&state, me), me, &what));
                        a
                    } else {
                        others[seat.idx()].choose(&state)
                    };
                    state.apply(a).expect("a legal action");
                }
                engine.hand_over(&state.view(me));
                let lines = engine.take_sent();
                check(&lines, allowed(&state, me), me, "hand over");
                assert!(
                    lines.iter().any(|l| l.contains("\"hand_over\"")),
                    "the result is sent"
                );
                // The check is not vacuous: the engine was shown its own tiles.
                assert_eq!(seen_mine.and(dealt), dealt, "{preset}: its own tiles");
                if state.phase() == Phase::GameOver {
                    break;
                }
                state.next_hand_from_seed(&seed).expect("next hand");
                seen_mine = TileSet::EMPTY;
            }
        }
    }
    let c = host.conduct();
    assert!(c.strikes.is_empty(), "{c:?}");
    assert!(messages > 1000, "{messages} messages checked");
}
