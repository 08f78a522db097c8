//! The engine side of the protocol: a built-in player answering on standard input and output
//! (`fiveup engine LEVEL`).
//!
//! It keeps no memory of the game: each request's position is rebuilt into a full state
//! consistent with it
//! ([`SeatKnowledge::rebuild`](fiveup_engine::SeatKnowledge::rebuild)), whose view for the
//! seat is what the player chooses from. So it answers the same whether or not it saw the
//! events before a request.

use std::io::{BufRead, Write};

use fiveup_bots::{make_bot, Bot, Player};
use fiveup_engine::FastRng;

use crate::messages::{to_line, FromEngine, OptionSpec, ToEngine, PROTOCOL};

/// A player served over the protocol.
pub struct Served {
    spec: String,
    seed: u64,
    player: Box<dyn Player>,
    rng: FastRng,
}

impl std::fmt::Debug for Served {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Served({})", self.spec)
    }
}

/// A seat player from `spec`, or why not.
fn seat_player(spec: &str, seed: u64) -> Result<Box<dyn Player>, String> {
    match make_bot(spec, seed).map_err(|e| e.to_string())? {
        Bot::Seat(p) => Ok(p),
        Bot::Omniscient(_) => Err(format!(
            "{spec} sees every hand, which an engine is never shown"
        )),
    }
}

impl Served {
    /// Serve the player `spec` (a level or player spec), seeded with `seed`.
    pub fn new(spec: &str, seed: u64) -> Result<Served, String> {
        Ok(Served {
            spec: spec.to_string(),
            seed,
            player: seat_player(spec, seed)?,
            rng: FastRng::new(seed),
        })
    }

    /// The answer to one message (`None` when it needs none).
    fn answer(&mut self, msg: ToEngine) -> Option<FromEngine> {
        match msg {
            ToEngine::Hello { protocol, .. } => {
                if protocol != PROTOCOL {
                    return Some(FromEngine::Info {
                        text: format!("this engine speaks {PROTOCOL}, not {protocol}"),
                    });
                }
                Some(FromEngine::Id {
                    name: format!("fiveup {}", self.spec),
                    author: "fiveup".into(),
                    version: env!("CARGO_PKG_VERSION").into(),
                    options: vec![OptionSpec {
                        name: "seed".into(),
                        kind: "int".into(),
                        default: self.seed.min(i64::MAX as u64).into(),
                        min: Some(0),
                        max: Some(i64::MAX),
                        help: "the seed of the player's choices".into(),
                    }],
                })
            }
            ToEngine::SetOption { name, value } => {
                if name == "seed" {
                    if let Some(seed) = value.as_u64() {
                        if let Ok(p) = seat_player(&self.spec, seed) {
                            self.seed = seed;
                            self.player = p;
                            self.rng = FastRng::new(seed);
                            return None;
                        }
                    }
                }
                Some(FromEngine::Info {
                    text: format!("option {name}={value} ignored"),
                })
            }
            ToEngine::NewGame { .. } => {
                // A fresh player for each game, as in a match.
                if let Ok(p) = seat_player(&self.spec, self.seed) {
                    self.player = p;
                }
                None
            }
            ToEngine::Request {
                id,
                legal,
                position,
                ..
            } => {
                let knowledge = position.knowledge();
                // A position no deal explains (a bridge's mistake) is answered with an info
                // line, never with a crash: fiveup then plays the move for this engine.
                let chosen = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    knowledge
                        .rebuild(&mut self.rng)
                        .map(|state| self.player.choose(&state.view(knowledge.seat)))
                        .map_err(|e| e.to_string())
                }))
                .unwrap_or_else(|_| Err("the position could not be rebuilt".into()));
                let action = match chosen {
                    Ok(a) => a,
                    Err(e) => {
                        return Some(FromEngine::Info {
                            text: format!("request {id}: {e}"),
                        })
                    }
                };
                Some(FromEngine::Action {
                    id,
                    index: legal.iter().position(|&a| a == action),
                    action: Some(action.to_string()),
                    eval: None,
                })
            }
            ToEngine::Hand { .. } | ToEngine::Event { .. } | ToEngine::HandOver { .. } => None,
            ToEngine::Quit => None,
        }
    }

    /// Answer messages from `input` on `output` until a quit or the end of the input.
    pub fn run(&mut self, input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
        for line in input.lines() {
            let line = line?;
            if line.trim().is_empty() {
                continue;
            }
            let reply = match serde_json::from_str::<ToEngine>(&line) {
                Ok(ToEngine::Quit) => break,
                Ok(msg) => self.answer(msg),
                Err(e) => Some(FromEngine::Info {
                    text: format!("ignored a line that is not a message: {e}"),
                }),
            };
            if let Some(r) = reply {
                writeln!(output, "{}", to_line(&r))?;
                output.flush()?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::Encoder;
    use crate::messages::Clock;
    use fiveup_engine::{Rules, Seed, State};

    fn request_line(state: &State) -> String {
        let view = state.view(state.to_move());
        let clock = Clock {
            move_ms: 1000,
            left_ms: None,
        };
        to_line(&Encoder::new().request(&view, 1, clock))
    }

    fn answers(input: &str) -> Vec<FromEngine> {
        let mut out = Vec::new();
        Served::new("greedy", 1)
            .unwrap()
            .run(input.as_bytes(), &mut out)
            .unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    #[test]
    fn a_request_alone_is_answered_with_the_players_choice() {
        let state = State::from_seed(Rules::default(), &Seed::from_u64(9)).unwrap();
        let got = answers(&format!("{}\n", request_line(&state)));
        let want = fiveup_bots::greedy_action(&state);
        match &got[..] {
            [FromEngine::Action {
                id: 1,
                index: Some(i),
                action: Some(a),
                ..
            }] => {
                assert_eq!(state.legal_actions()[*i], want);
                assert_eq!(*a, want.to_string());
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_position_no_deal_explains_gets_an_info_line() {
        let state = State::from_seed(Rules::default(), &Seed::from_u64(9)).unwrap();
        let mut v: serde_json::Value = serde_json::from_str(&request_line(&state)).unwrap();
        // The seat claims a tile that another seat laid.
        let mine = v["position"]["hand"][0].clone();
        v["position"]["history"] = serde_json::json!([{
            "kind": "play", "seat": 1 - state.to_move().0, "tile": mine,
            "arm": null, "count": 0, "points": 0
        }]);
        let got = answers(&format!("{v}\n{{\"type\":\"quit\"}}\n{v}\n"));
        assert!(
            matches!(&got[..], [FromEngine::Info { text }] if text.starts_with("request 1:")),
            "{got:?}"
        );
    }
}
