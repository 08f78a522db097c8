//! The messages of the `fiveup-engine/1` protocol, one JSON object per line. The full
//! description, with an example transcript, is `docs/engine-protocol.md`.
//!
//! [`ToEngine`] is what fiveup writes to an engine's standard input; [`FromEngine`] is what
//! an engine writes to its standard output. Both are tagged by their `type` field. A server
//! that bridges remote programs to tables uses the same types.

use fiveup_engine::{
    Action, ArmId, BySeat, BySide, Entry, HandEnd, HandResult, HandStart, LeadKind, Phase, Pip,
    Rules, Seat, SeatKnowledge, Side, Tile, TileSet,
};
use serde::{Deserialize, Serialize};

/// The protocol's name and version, sent in [`ToEngine::Hello`].
pub const PROTOCOL: &str = "fiveup-engine/1";

/// The longest line either side may send, in bytes (newline excluded). A longer line from an
/// engine is a fault.
pub const MAX_LINE: usize = 256 * 1024;

/// The rules: the canonical options string and the same rules as structured fields.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct RulesMsg {
    /// Every option as `key=value` words (`Rules::to_options_string`), which `fiveup` and
    /// engines that parse it read back.
    pub options: String,
    /// The same rules as named fields.
    pub fields: Rules,
}

impl RulesMsg {
    /// The message for `rules`.
    #[must_use]
    pub fn new(rules: &Rules) -> RulesMsg {
        RulesMsg {
            options: rules.to_options_string(),
            fields: *rules,
        }
    }
}

/// The table: the engine's seat and who plays with whom.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct TableMsg {
    /// Seats at the table (seats are numbered from 0, play passes to the next number).
    pub players: u8,
    /// The engine's seat.
    pub seat: Seat,
    /// Scoring sides (2 in partnerships, else one per seat).
    pub sides: u8,
    /// Whether seats play in two partnerships (even seats against odd).
    pub partnerships: bool,
    /// The side of every seat, by seat.
    pub seat_sides: Vec<Side>,
    /// The engine's side.
    pub side: Side,
}

/// An option an engine accepts, announced in its [`FromEngine::Id`].
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct OptionSpec {
    /// The option's name.
    pub name: String,
    /// `int`, `bool` or `string`.
    pub kind: String,
    /// Its default value.
    #[serde(default)]
    pub default: serde_json::Value,
    /// The least value of an `int`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<i64>,
    /// The greatest value of an `int`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<i64>,
    /// One line of help.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub help: String,
}

impl OptionSpec {
    /// Whether `value` is acceptable for this option; an error says why not.
    pub fn check(&self, value: &serde_json::Value) -> Result<(), String> {
        match self.kind.as_str() {
            "int" => {
                let v = value
                    .as_i64()
                    .ok_or_else(|| format!("{} takes a whole number, not {value}", self.name))?;
                if self.min.is_some_and(|m| v < m) || self.max.is_some_and(|m| v > m) {
                    return Err(format!(
                        "{} must be in {}..={}, not {v}",
                        self.name,
                        self.min.map_or("..".into(), |m| m.to_string()),
                        self.max.map_or("..".into(), |m| m.to_string())
                    ));
                }
                Ok(())
            }
            "bool" if value.is_boolean() => Ok(()),
            "bool" => Err(format!("{} takes true or false, not {value}", self.name)),
            "string" if value.is_string() => Ok(()),
            "string" => Err(format!("{} takes a string, not {value}", self.name)),
            other => Err(format!("{} has an unknown kind {other:?}", self.name)),
        }
    }

    /// `text` read as a value of this option's kind (`--engine-option name=text`).
    pub fn parse(&self, text: &str) -> Result<serde_json::Value, String> {
        let v = match self.kind.as_str() {
            "int" => serde_json::Value::from(
                text.parse::<i64>()
                    .map_err(|_| format!("{} takes a whole number, not {text:?}", self.name))?,
            ),
            "bool" => serde_json::Value::from(
                text.parse::<bool>()
                    .map_err(|_| format!("{} takes true or false, not {text:?}", self.name))?,
            ),
            _ => serde_json::Value::from(text),
        };
        self.check(&v)?;
        Ok(v)
    }
}

/// The length of an array by seat or by side in `start` and `result`: one entry per seat (or
/// side), and never fewer than four (version 1 always sent at least four, the entries past the
/// table's seats or sides zero or empty).
#[must_use]
pub fn padded(n: u8) -> usize {
    usize::from(n).max(4)
}

/// How a hand started.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct StartMsg {
    /// The hand's number in the game, from 1.
    pub hand_no: u16,
    /// The scores by side before the hand ([`padded`]).
    pub scores: Vec<i32>,
    /// Whether the lead follows the first-lead rule (the highest double, by default); when
    /// false, `free_leader` leads any tile.
    pub highest_double: bool,
    /// The seat that leads a free lead (0, and meaningless, when `highest_double`).
    pub free_leader: Seat,
}

impl StartMsg {
    /// The message for `start` under `rules`.
    #[must_use]
    pub fn new(start: &HandStart, rules: &Rules) -> StartMsg {
        StartMsg {
            hand_no: start.hand_no,
            scores: start.scores.0[..padded(rules.sides())].to_vec(),
            highest_double: start.highest_double,
            free_leader: start.free_leader,
        }
    }

    /// The engine library's start (entries past eight sides are dropped).
    #[must_use]
    pub fn to_start(&self) -> HandStart {
        let mut scores = BySide::<i32>::default();
        for (o, s) in scores.0.iter_mut().zip(&self.scores) {
            *o = *s;
        }
        HandStart {
            hand_no: self.hand_no,
            scores,
            highest_double: self.highest_double,
            free_leader: self.free_leader,
        }
    }
}

/// A finished hand's result, every hand revealed.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ResultMsg {
    /// How the hand ended: `{"kind":"domino","seat":s}` or `{"kind":"blocked"}`.
    pub end: HandEnd,
    /// The tiles left in each seat's hand, by seat ([`padded`]).
    pub hands: Vec<TileSet>,
    /// The pips counted in each seat's hand, by seat ([`padded`]).
    pub pips: Vec<u16>,
    /// The pips by side ([`padded`]).
    pub side_pips: Vec<u16>,
    /// The sides that won the hand, as bits: bit `s` (value `1 << s`) is set when side `s`
    /// won; two bits for a block shared by two sides.
    pub winners: u8,
    /// Each side's award as the rules reckon it ([`padded`]).
    pub awards: Vec<i32>,
    /// What was added to each side's score ([`padded`]; an exact target can refuse an award).
    pub scored: Vec<i32>,
}

impl ResultMsg {
    /// The message for `result` under `rules`.
    #[must_use]
    pub fn new(result: &HandResult, rules: &Rules) -> ResultMsg {
        let seats = padded(rules.players);
        let sides = padded(rules.sides());
        ResultMsg {
            end: result.end,
            hands: result.hands.0[..seats].to_vec(),
            pips: result.pips.0[..seats].to_vec(),
            side_pips: result.side_pips.0[..sides].to_vec(),
            winners: result.winners,
            awards: result.awards.0[..sides].to_vec(),
            scored: result.scored.0[..sides].to_vec(),
        }
    }

    /// The engine library's result.
    #[must_use]
    pub fn to_result(&self) -> HandResult {
        fn fill<T: Copy + Default>(v: &[T]) -> [T; fiveup_engine::MAX_SEATS] {
            let mut out = [T::default(); fiveup_engine::MAX_SEATS];
            for (o, x) in out.iter_mut().zip(v) {
                *o = *x;
            }
            out
        }
        HandResult {
            end: self.end,
            hands: BySeat(fill(&self.hands)),
            pips: BySeat(fill(&self.pips)),
            side_pips: BySide(fill(&self.side_pips)),
            winners: self.winners,
            awards: BySide(fill(&self.awards)),
            scored: BySide(fill(&self.scored)),
        }
    }
}

/// An open end of the layout: where a tile can be laid.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct OpenEnd {
    /// The arm, as actions name it (`W`, `E`, `N`, `S`, then arm numbers).
    pub arm: ArmId,
    /// The pip a tile laid there must match.
    pub pip: Pip,
    /// What the end adds to the count (both halves of a double at the end; nothing for a
    /// spinner's sprout with no tile yet). The ends' counts add up to the count.
    pub counts: u8,
}

/// What opens a hand's commitment: the deal proof of a host that commits to its deals
/// (scheme `fiveup-deal-v1`, see `docs/protocol.md`).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct DealProof {
    /// The scheme, `fiveup-deal-v1`.
    pub scheme: String,
    /// The commitment sent with the hand: SHA-256 of the server seed, 64 hex digits.
    pub commitment: String,
    /// The server seed, 64 hex digits.
    pub server_seed: String,
    /// Each seat's seed, 64 hex digits, `null` for a seat that sent none.
    pub client_seeds: Vec<Option<String>>,
    /// The seed the hand was dealt from, 64 hex digits.
    pub deal_seed: String,
}

/// The clocks sent with a request.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Clock {
    /// Milliseconds the engine has for this move: past them the move is played for it.
    pub move_ms: u64,
    /// Milliseconds left in the engine's bank for this game, when the game has a bank
    /// (`null` otherwise). The time for a move never exceeds what is left.
    pub left_ms: Option<u64>,
}

/// A finished hand of the game so far, as every seat saw it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct PastHand {
    /// How the hand started.
    pub start: StartMsg,
    /// Who led.
    pub leader: Seat,
    /// How the leader was chosen.
    pub lead_kind: LeadKind,
    /// The hand's history as the engine's seat saw it.
    pub history: Vec<Entry>,
    /// Its result, every hand revealed.
    pub result: ResultMsg,
}

/// Everything the engine's seat knows of the game at a decision: enough for a program with no
/// memory to answer.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Position {
    /// The rules.
    pub rules: RulesMsg,
    /// The table.
    pub table: TableMsg,
    /// How this hand started: its number, the scores before it, the lead rule.
    pub start: StartMsg,
    /// Who led (or leads) this hand.
    pub leader: Seat,
    /// How the leader was chosen.
    pub lead_kind: LeadKind,
    /// The tile shown to decide the lead, if any.
    pub shown: Option<Tile>,
    /// The engine's tiles.
    pub hand: TileSet,
    /// Tiles in each seat's hand, by seat.
    pub hand_sizes: Vec<u8>,
    /// Tiles in the boneyard.
    pub boneyard: u8,
    /// Scores by side.
    pub scores: Vec<i32>,
    /// The count of the open ends.
    pub count: u16,
    /// The open ends: where a tile can be laid, the pip it must match, and what each adds to
    /// the count.
    pub open_ends: Vec<OpenEnd>,
    /// Whose turn it is (the engine's).
    pub to_move: Seat,
    /// `play`, or `claim` under manual scoring.
    pub phase: Phase,
    /// This hand's history as the engine's seat saw it.
    pub history: Vec<Entry>,
    /// The game's earlier hands, oldest first.
    pub earlier_hands: Vec<PastHand>,
}

impl Position {
    /// What the seat knows of the hand in progress, for rebuilding a state
    /// ([`SeatKnowledge::rebuild`]).
    #[must_use]
    pub fn knowledge(&self) -> SeatKnowledge {
        SeatKnowledge {
            rules: self.rules.fields,
            seat: self.table.seat,
            start: self.start.to_start(),
            leader: self.leader,
            lead_kind: self.lead_kind,
            shown: self.shown,
            hand: self.hand,
            history: self.history.clone(),
            phase: self.phase,
            to_move: self.to_move,
        }
    }
}

/// A message from fiveup to an engine.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToEngine {
    /// The first message: the protocol version. The engine answers [`FromEngine::Id`].
    Hello {
        /// [`PROTOCOL`].
        protocol: String,
        /// The program speaking it (`fiveup 0.1.0`).
        program: String,
    },
    /// Set one of the options the engine announced. No answer.
    SetOption {
        /// The option's name.
        name: String,
        /// Its value, of the announced kind.
        value: serde_json::Value,
    },
    /// A new game: the rules and the engine's seat.
    NewGame {
        /// The game's number in this session, from 1.
        game: u64,
        /// The rules.
        rules: RulesMsg,
        /// The table.
        table: TableMsg,
    },
    /// A new hand: how it starts and the engine's tiles.
    Hand {
        /// How the hand started: its number, the scores before it, the lead rule.
        start: StartMsg,
        /// Who leads.
        leader: Seat,
        /// How the leader was chosen.
        lead_kind: LeadKind,
        /// The tile shown to decide the lead, if any.
        shown: Option<Tile>,
        /// The engine's tiles as dealt (before any lead draw).
        tiles: TileSet,
        /// The hash that commits to the hand's deal before play (SHA-256 of the server seed,
        /// 64 hex digits), where the host commits to deals (`null` otherwise).
        commitment: Option<String>,
    },
    /// Something that happened at the table, in order.
    Event {
        /// The entry: a play, a draw (its tile only for the engine's own draws), a pass, a
        /// claim, a Muggins call, a lead draw.
        entry: Entry,
        /// Tiles in each seat's hand after it.
        hand_sizes: Vec<u8>,
        /// Tiles in the boneyard after it.
        boneyard: u8,
        /// Scores by side after it.
        scores: Vec<i32>,
    },
    /// The hand is over: its result reveals every hand.
    HandOver {
        /// The result; `null` when a side reached the target mid-hand, which ends the game
        /// at once (the hands stay hidden).
        result: Option<ResultMsg>,
        /// Scores by side after the hand.
        scores: Vec<i32>,
        /// The side that won the game, if it is over.
        winner: Option<Side>,
        /// What opens the hand's commitment (the seeds, and the deal seed made of them),
        /// where the host commits to deals (`null` otherwise).
        proof: Option<DealProof>,
    },
    /// The engine's turn: answer with [`FromEngine::Action`] carrying the same `id`.
    Request {
        /// The request's number: the answer repeats it.
        id: u64,
        /// The legal actions; the answer picks one.
        legal: Vec<Action>,
        /// The points each legal action is worth to the engine's side (see
        /// [`Encoder::request`](crate::Encoder::request)): a lay the points its count makes,
        /// a claim what it scores, a Muggins call what it takes, a draw or a pass 0.
        points: Vec<u16>,
        /// The clocks.
        clock: Clock,
        /// Everything the seat knows.
        position: Box<Position>,
    },
    /// The session is over: the engine should exit.
    Quit,
}

/// An evaluation an engine may attach to its answer, for spectators.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Eval {
    /// A number, in the engine's own units (points, win chance, ...).
    pub score: f64,
    /// A short text.
    #[serde(default)]
    pub text: String,
}

/// A message from an engine to fiveup.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FromEngine {
    /// The answer to [`ToEngine::Hello`].
    Id {
        /// The engine's name.
        name: String,
        /// Its author.
        #[serde(default)]
        author: String,
        /// Its version.
        #[serde(default)]
        version: String,
        /// The options it accepts.
        #[serde(default)]
        options: Vec<OptionSpec>,
    },
    /// The answer to a [`ToEngine::Request`]: `index` into its legal actions, or `action` in
    /// the notation (`6-4@W`, `D`, `P`, `C10`, `M`), or both (which must then agree).
    Action {
        /// The request answered.
        id: u64,
        /// An index into the request's `legal`.
        #[serde(default)]
        index: Option<usize>,
        /// The action written out.
        #[serde(default)]
        action: Option<String>,
        /// An optional evaluation; one that is not an [`Eval`] is dropped, never a fault.
        #[serde(default, deserialize_with = "lenient_eval")]
        eval: Option<Eval>,
    },
    /// A line for the log, at any time; ignored by play.
    Info {
        /// The text.
        #[serde(default)]
        text: String,
    },
}

/// An optional evaluation read leniently: anything that is not `{score, text}` (a number and
/// a string) reads as none, so a malformed `eval` never costs the move it comes with.
fn lenient_eval<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Eval>, D::Error> {
    let v = serde_json::Value::deserialize(d)?;
    Ok(serde_json::from_value::<Eval>(v)
        .ok()
        .filter(|e| e.score.is_finite()))
}

/// Whether an engine's line is blank (empty, or only spaces and tabs): ignored, never a fault.
#[must_use]
pub fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

impl FromEngine {
    /// The action this answer picks from `legal`, or why it picks none.
    pub fn pick(
        index: Option<usize>,
        action: Option<&str>,
        legal: &[Action],
    ) -> Result<Action, String> {
        let by_index = match index {
            Some(i) => Some(*legal.get(i).ok_or_else(|| {
                format!("index {i} is outside the {} legal actions", legal.len())
            })?),
            None => None,
        };
        let by_text = match action {
            Some(t) => {
                let a: Action = t
                    .trim()
                    .parse()
                    .map_err(|e| format!("action {t:?} does not parse: {e}"))?;
                if !legal.contains(&a) {
                    return Err(format!("action {a} is not legal now"));
                }
                Some(a)
            }
            None => None,
        };
        match (by_index, by_text) {
            (Some(a), Some(b)) if a != b => Err(format!(
                "index {} names {a} but the action says {b}",
                index.unwrap_or_default()
            )),
            (Some(a), _) | (None, Some(a)) => Ok(a),
            (None, None) => Err("the answer names no action".into()),
        }
    }
}

/// One message as a line of JSON (no newline).
#[must_use]
pub fn to_line<T: Serialize>(msg: &T) -> String {
    serde_json::to_string(msg).expect("protocol messages serialise")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn legal() -> Vec<Action> {
        ["6-4@W", "D"].iter().map(|a| a.parse().unwrap()).collect()
    }

    #[test]
    fn answers_pick_by_index_or_by_text_and_must_agree() {
        let l = legal();
        assert_eq!(FromEngine::pick(Some(1), None, &l), Ok(l[1]));
        assert_eq!(FromEngine::pick(None, Some(" 6-4@W "), &l), Ok(l[0]));
        assert_eq!(FromEngine::pick(Some(0), Some("6-4@W"), &l), Ok(l[0]));
        for (i, t, want) in [
            (Some(2), None, "outside the 2 legal"),
            (None, Some("5-5@W"), "not legal"),
            (None, Some("xyz"), "does not parse"),
            (Some(1), Some("6-4@W"), "names D but"),
            (None, None, "names no action"),
        ] {
            let e = FromEngine::pick(i, t, &l).unwrap_err();
            assert!(e.contains(want), "{e}");
        }
    }

    #[test]
    fn messages_are_tagged_lines() {
        let line = to_line(&ToEngine::Quit);
        assert_eq!(line, r#"{"type":"quit"}"#);
        let a: FromEngine =
            serde_json::from_str(r#"{"type":"action","id":3,"action":"D"}"#).unwrap();
        assert_eq!(
            a,
            FromEngine::Action {
                id: 3,
                index: None,
                action: Some("D".into()),
                eval: None
            }
        );
        assert!(serde_json::from_str::<FromEngine>(r#"{"type":"move"}"#).is_err());
        // A malformed evaluation is dropped, the answer kept.
        for eval in [
            r#""good""#,
            r#"{"score":"x"}"#,
            r#"{"text":"t"}"#,
            r#"["x"]"#,
            "null",
        ] {
            let line = format!(r#"{{"type":"action","id":3,"index":0,"eval":{eval}}}"#);
            let a: FromEngine = serde_json::from_str(&line).unwrap();
            assert!(matches!(a, FromEngine::Action { eval: None, .. }), "{eval}");
        }
        let a: FromEngine =
            serde_json::from_str(r#"{"type":"action","id":3,"index":0,"eval":{"score":1.5}}"#)
                .unwrap();
        assert!(matches!(a, FromEngine::Action { eval: Some(ref e), .. } if e.score == 1.5));
        let id: FromEngine = serde_json::from_str(r#"{"type":"id","name":"x"}"#).unwrap();
        assert!(matches!(id, FromEngine::Id { ref options, .. } if options.is_empty()));
    }

    #[test]
    fn option_values_are_checked_against_their_kind() {
        let int = OptionSpec {
            name: "depth".into(),
            kind: "int".into(),
            default: 3.into(),
            min: Some(1),
            max: Some(9),
            help: String::new(),
        };
        assert_eq!(int.parse("4"), Ok(4.into()));
        assert!(int.parse("10").unwrap_err().contains("1..=9"));
        assert!(int.parse("x").unwrap_err().contains("whole number"));
        let flag = OptionSpec {
            kind: "bool".into(),
            ..int.clone()
        };
        assert_eq!(flag.parse("true"), Ok(true.into()));
        assert!(flag.parse("yes").is_err());
        let text = OptionSpec {
            kind: "string".into(),
            ..int
        };
        assert_eq!(text.parse("abc"), Ok("abc".into()));
    }
}
