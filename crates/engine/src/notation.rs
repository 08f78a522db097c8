//! Game records: a human-readable text notation for whole games, one token per action in the
//! spirit of chess PGN, and the same record as JSON.
//!
//! A [`Record`] is plain syntax: the rules, the seats, an optional seed, and for every hand its
//! deal, its action tokens with the points each scored, and its result. [`Record::parse`] reads
//! the text, [`Record::to_text`] prints it back, and both directions are exact: a printed record
//! parses to the same value, and a canonical text prints to the same text. Whether the game in a
//! record could really have been played is a separate question, answered by
//! [`Record::replay`], which plays every action through the engine and checks every annotation.
//!
//! ```text
//! [Format "1"]
//! [Rules "players=2 partnerships=false hand=7 target=250 ..."]
//! [Seed "0700000000000000000000000000000000000000000000000000000000000000"]
//! [S0 "Ann"]
//! [S1 "Bob"]
//!
//! hand 1
//! deal 6-6 5-4 3-2 1-0 2-2 4-1 6-0 / 5-5 ... / 0-0 ...
//! moves 6-6 6-4@W+10 4-4@W D 4-2@E ...
//! result domino S1 awards 0 35 scores 10 95
//!
//! game winner 1 scores 120 260
//! ```
//!
//! Tokens: `6-6` a lead, `5-0@W` a play on arm `W` (arms `W E N S`, later arms by number), `D`
//! a draw, `P` a pass, `C10` a claim under manual scoring, `M` a Muggins call; `+N` after a token
//! gives the points it scored. The full grammar is in `docs/records.md`.
//!
//! Write a record while playing with a [`Recorder`]:
//! ```
//! use fiveup_engine::notation::{Record, Recorder};
//! use fiveup_engine::{Phase, Rules, Seed, State};
//!
//! let rules = Rules::default();
//! let seed = Seed::from_u64(7);
//! let mut state = State::from_seed(rules, &seed).unwrap();
//! let mut rec = Recorder::new(&state, None, Some(seed)).unwrap();
//! while state.phase() != Phase::GameOver {
//!     if state.phase() == Phase::HandOver {
//!         state.next_hand_from_seed(&seed).unwrap();
//!         rec.start_hand(&state);
//!     }
//!     let a = state.legal_actions()[0];
//!     rec.apply(&mut state, a).unwrap();
//! }
//! let record = rec.finish(&state);
//! let text = record.to_text();
//! assert_eq!(Record::parse(&text).unwrap(), record);
//! let replayed = record.replay().unwrap();
//! assert_eq!(replayed.winner, state.winner());
//! ```

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::deal::{Deal, Seed};
use crate::layout::{ArmId, MAX_ARMS};
use crate::rules::{FirstLead, Rules};
use crate::state::{
    Action, Entry, HandEnd, HandResult, HandStart, IllegalAction, LeadKind, Outcome, Phase,
    SetupError, State,
};
use crate::tile::{Pip, Seat, Side, Tile};

/// The version of the record format this module reads and writes (the `[Format]` header).
pub const FORMAT_VERSION: u32 = 1;

/// Printed `moves` lines are wrapped before this many characters.
const WRAP: usize = 78;

/// Header names with a meaning of their own; every other header is a free tag.
const RESERVED: [&str; 3] = ["Format", "Rules", "Seed"];

// ---------------------------------------------------------------------------------------------
// Syntax types
// ---------------------------------------------------------------------------------------------

/// One action of a hand, with the points it scored: the token `5-0@W+10`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// The action.
    pub action: Action,
    /// Points the action scored (0: the token has no `+N` suffix).
    pub points: u16,
}

impl Move {
    /// A move that scored nothing.
    #[must_use]
    pub const fn new(action: Action) -> Move {
        Move { action, points: 0 }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.action)?;
        if self.points > 0 {
            write!(f, "+{}", self.points)?;
        }
        Ok(())
    }
}

impl FromStr for Move {
    type Err = String;
    /// Reads a token: an action (see [`Action`]'s `FromStr`) and an optional `+N` with `N`
    /// from 1 to 65535.
    fn from_str(s: &str) -> Result<Move, String> {
        let (action, points) = match s.split_once('+') {
            None => (s, 0),
            Some((a, p)) => {
                if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(format!(
                        "bad points {p:?} after '+': expected a number from 1 to 65535"
                    ));
                }
                match p.parse::<u16>() {
                    Ok(0) => {
                        return Err(
                            "a points suffix must be positive: write no `+N` for none".to_string()
                        )
                    }
                    Ok(n) => (a, n),
                    Err(_) => {
                        return Err(format!("points {p} out of range: at most 65535"));
                    }
                }
            }
        };
        if action.is_empty() {
            return Err("a points suffix needs an action before it".to_string());
        }
        let action = action.parse::<Action>()?;
        Ok(Move { action, points })
    }
}

impl Serialize for Move {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Move {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Move, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// How a hand ended, as recorded: the `result` line.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandSummary {
    /// Domino by a seat, or blocked.
    pub end: HandEnd,
    /// Each side's award for the hand, as the rules reckon it (before an exact target may
    /// refuse it; negative under the subtract-own award).
    pub awards: Vec<i32>,
    /// Each side's score after the hand.
    pub scores: Vec<i32>,
}

/// How the game ended: the `game` line.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSummary {
    /// The winning side (a seat number, or with partnerships 0 for S0+S2 and 1 for S1+S3).
    pub winner: Side,
    /// Each side's final score.
    pub scores: Vec<i32>,
}

/// One hand of a record.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct HandRecord {
    /// The deal: every hand and the boneyard in draw order.
    pub deal: Deal,
    /// The actions, in order, with their points.
    pub moves: Vec<Move>,
    /// The result, if the hand ended (a hand cut short by a mid-hand game win has none).
    pub result: Option<HandSummary>,
}

impl HandRecord {
    /// A hand with this deal and no actions yet.
    #[must_use]
    pub const fn new(deal: Deal) -> HandRecord {
        HandRecord {
            deal,
            moves: Vec::new(),
            result: None,
        }
    }
}

/// A whole game as recorded: the syntax of a record, not yet checked against the rules of play
/// (see [`Record::replay`]).
///
/// Every value returned by [`Record::parse`], [`Record::from_json`] and [`Recorder::finish`]
/// passes [`Record::check`]; a record built by hand should be checked before it is printed.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(try_from = "wire::RecordJson", into = "wire::RecordJson")]
pub struct Record {
    /// The format version, [`FORMAT_VERSION`].
    pub version: u32,
    /// The rules of the game.
    pub rules: Rules,
    /// A name for every seat (`S0`, `S1`, ... when none were given).
    pub seats: Vec<String>,
    /// The seed the deals came from, if they came from one.
    pub seed: Option<Seed>,
    /// Further headers, such as `Date` or `Event`, by name.
    pub tags: BTreeMap<String, String>,
    /// The hands, from hand 1.
    pub hands: Vec<HandRecord>,
    /// The game's result, if it ended.
    pub game: Option<GameSummary>,
}

/// Why a record could not be read, with the line it was found on.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RecordError {
    /// The line (from 1) in the text, or in the JSON document; `None` when the problem is not
    /// on one line (such as a JSON record whose hands do not fit its rules).
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl RecordError {
    fn at(line: usize, message: impl Into<String>) -> RecordError {
        RecordError {
            line: Some(line),
            message: message.into(),
        }
    }

    fn whole(message: impl Into<String>) -> RecordError {
        RecordError {
            line: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(n) => write!(f, "line {n}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for RecordError {}

// ---------------------------------------------------------------------------------------------
// Shape checks shared by the text parser, JSON and the recorder
// ---------------------------------------------------------------------------------------------

fn default_seat_names(players: u8) -> Vec<String> {
    (0..players).map(|s| Seat(s).to_string()).collect()
}

/// `S` followed by digits: a seat-name header. Returns the seat number when it fits a `usize`.
fn seat_key(key: &str) -> Option<Option<usize>> {
    let digits = key.strip_prefix('S')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(digits.parse().ok())
}

fn check_tag_key(key: &str) -> Result<(), String> {
    let mut chars = key.chars();
    let good_start = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    if !good_start || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        return Err(format!(
            "bad header name {key:?}: a name is a letter followed by letters, digits, '_' or '-'"
        ));
    }
    if let Some(r) = RESERVED.iter().find(|r| r.eq_ignore_ascii_case(key)) {
        return Err(if *r == key {
            format!("{key} is not a free tag")
        } else {
            format!("header names are case-sensitive: write {r}, not {key}")
        });
    }
    if let Some(rest) = key.strip_prefix(['S', 's']) {
        if !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "{key} looks like a seat name header, which is S and a seat number (S0 to S7)"
            ));
        }
    }
    Ok(())
}

fn check_value(what: &str, v: &str) -> Result<(), String> {
    if v.chars().any(char::is_control) {
        return Err(format!(
            "{what}: control characters are not allowed in a header value"
        ));
    }
    Ok(())
}

fn check_name(seat: usize, name: &str) -> Result<(), String> {
    check_value(&format!("S{seat}"), name)?;
    if name.trim().is_empty() {
        return Err(format!("S{seat}: a seat name may not be blank"));
    }
    Ok(())
}

fn check_per_side(what: &str, values: &[i32], sides: u8) -> Result<(), String> {
    if values.len() != sides as usize {
        return Err(format!(
            "{what}: expected {sides} numbers (one per side), found {}",
            values.len()
        ));
    }
    Ok(())
}

fn check_end(end: &HandEnd, players: u8) -> Result<(), String> {
    match end {
        HandEnd::Domino { seat } if seat.0 >= players => {
            Err(format!("there is no seat {seat} at a table of {players}"))
        }
        _ => Ok(()),
    }
}

fn check_hand(rules: &Rules, h: &HandRecord) -> Result<(), String> {
    if h.deal.players != rules.players || h.deal.hand_size != rules.hand_size {
        return Err(format!(
            "the deal has {} hands of {} tiles but the rules deal {} hands of {}",
            h.deal.players, h.deal.hand_size, rules.players, rules.hand_size
        ));
    }
    if Deal::from_order(rules, h.deal.tiles()).is_err() {
        return Err("the deal does not hold every tile exactly once".to_string());
    }
    for (i, m) in h.moves.iter().enumerate() {
        if let Action::Play { arm: Some(a), .. } = m.action {
            if a.idx() >= MAX_ARMS {
                return Err(format!("move {}: there is no arm {}", i + 1, a.0));
            }
        }
    }
    if let Some(r) = &h.result {
        check_end(&r.end, rules.players)?;
        check_per_side("result awards", &r.awards, rules.sides())?;
        check_per_side("result scores", &r.scores, rules.sides())?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------------------------

fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

fn join_ints(v: &[i32]) -> String {
    v.iter().map(i32::to_string).collect::<Vec<_>>().join(" ")
}

fn end_text(end: &HandEnd) -> String {
    match end {
        HandEnd::Domino { seat } => format!("domino {seat}"),
        HandEnd::Blocked => "blocked".to_string(),
    }
}

impl Record {
    /// The record as canonical text (see the module documentation and `docs/records.md`).
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "[Format \"{}\"]", self.version);
        let _ = writeln!(s, "[Rules {}]", quote(&self.rules.to_options_string()));
        if let Some(seed) = &self.seed {
            let _ = writeln!(s, "[Seed \"{}\"]", seed.to_hex());
        }
        if self.seats != default_seat_names(self.rules.players) {
            for (i, name) in self.seats.iter().enumerate() {
                let _ = writeln!(s, "[S{i} {}]", quote(name));
            }
        }
        for (k, v) in &self.tags {
            let _ = writeln!(s, "[{k} {}]", quote(v));
        }
        for (i, h) in self.hands.iter().enumerate() {
            let _ = writeln!(s, "\nhand {}", i + 1);
            let _ = writeln!(s, "deal {}", h.deal.to_text().trim_end());
            if self.rules.first_lead == FirstLead::Lot {
                let _ = writeln!(s, "lot {}", h.deal.lot);
            }
            if !h.moves.is_empty() {
                let mut line = String::from("moves");
                let mut tokens_on_line = 0;
                for m in &h.moves {
                    let t = m.to_string();
                    if tokens_on_line > 0 && line.len() + 1 + t.len() > WRAP {
                        s.push_str(&line);
                        s.push('\n');
                        line = " ".repeat("moves".len());
                        tokens_on_line = 0;
                    }
                    line.push(' ');
                    line.push_str(&t);
                    tokens_on_line += 1;
                }
                s.push_str(&line);
                s.push('\n');
            }
            if let Some(r) = &h.result {
                let _ = writeln!(
                    s,
                    "result {} awards {} scores {}",
                    end_text(&r.end),
                    join_ints(&r.awards),
                    join_ints(&r.scores)
                );
            }
        }
        if let Some(g) = &self.game {
            let _ = writeln!(
                s,
                "\ngame winner {} scores {}",
                g.winner.0,
                join_ints(&g.scores)
            );
        }
        s
    }

    /// The record as pretty-printed JSON (see `docs/records.md` for the fields).
    #[must_use]
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| {
            // Serialising plain strings, numbers and lists cannot fail.
            unreachable!("a record always serialises: {e}")
        })
    }

    /// Read a record from JSON, with the same checks as [`Record::parse`].
    pub fn from_json(json: &str) -> Result<Record, RecordError> {
        serde_json::from_str(json).map_err(|e| RecordError {
            line: Some(e.line()).filter(|&l| l > 0),
            message: format!("JSON: {e}"),
        })
    }

    /// Check that the record is well formed: a known version, valid rules, a non-blank name
    /// per seat, good tag names, at least one hand, every deal fitting the rules, and one
    /// number per side in each result. It does not play the game (see [`Record::replay`]).
    pub fn check(&self) -> Result<(), RecordError> {
        if self.version != FORMAT_VERSION {
            return Err(RecordError::whole(format!(
                "unsupported format version {}: this reader knows version {FORMAT_VERSION}",
                self.version
            )));
        }
        self.rules
            .validate()
            .map_err(|e| RecordError::whole(format!("rules: {e}")))?;
        if self.seats.len() != self.rules.players as usize {
            return Err(RecordError::whole(format!(
                "{} seat names for {} players",
                self.seats.len(),
                self.rules.players
            )));
        }
        for (i, name) in self.seats.iter().enumerate() {
            check_name(i, name).map_err(RecordError::whole)?;
        }
        for (k, v) in &self.tags {
            check_tag_key(k).map_err(RecordError::whole)?;
            check_value(k, v).map_err(RecordError::whole)?;
        }
        if self.hands.is_empty() {
            return Err(RecordError::whole("a record needs at least one hand"));
        }
        for (i, h) in self.hands.iter().enumerate() {
            check_hand(&self.rules, h)
                .map_err(|e| RecordError::whole(format!("hand {}: {e}", i + 1)))?;
        }
        if let Some(g) = &self.game {
            if g.winner.0 >= self.rules.sides() {
                return Err(RecordError::whole(format!(
                    "game: there is no side {} with {} sides",
                    g.winner.0,
                    self.rules.sides()
                )));
            }
            check_per_side("game scores", &g.scores, self.rules.sides())
                .map_err(RecordError::whole)?;
        }
        Ok(())
    }
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

impl FromStr for Record {
    type Err = RecordError;
    fn from_str(s: &str) -> Result<Record, RecordError> {
        Record::parse(s)
    }
}

// ---------------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------------

/// A header line split into its name and unescaped value.
fn parse_header(line: &str) -> Result<(&str, String), String> {
    let rest = line.strip_prefix('[').unwrap_or(line);
    let key_end = rest
        .find(|c: char| c.is_whitespace() || c == '"' || c == ']')
        .unwrap_or(rest.len());
    let key = &rest[..key_end];
    if key.is_empty() {
        return Err("a header needs a name: [Name \"value\"]".to_string());
    }
    let rest = rest[key_end..].trim_start();
    let Some(rest) = rest.strip_prefix('"') else {
        return Err(format!(
            "header {key}: the value must be in double quotes: [{key} \"value\"]"
        ));
    };
    let mut value = String::new();
    let mut chars = rest.char_indices();
    let mut end = None;
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some((_, c @ ('"' | '\\'))) => value.push(c),
                Some((_, c)) => {
                    return Err(format!(
                        "header {key}: unknown escape \\{c}: only \\\" and \\\\ may be escaped"
                    ))
                }
                None => return Err(format!("header {key}: the value has no closing quote")),
            },
            '"' => {
                end = Some(i + 1);
                break;
            }
            c if c.is_control() => {
                return Err(format!(
                    "header {key}: control characters are not allowed in a header value"
                ))
            }
            c => value.push(c),
        }
    }
    let Some(end) = end else {
        return Err(format!("header {key}: the value has no closing quote"));
    };
    let Some(after) = rest[end..].trim_start().strip_prefix(']') else {
        return Err(format!("header {key}: expected ']' after the value"));
    };
    let after = after.trim();
    if !after.is_empty() && !after.starts_with('#') && !after.starts_with(';') {
        return Err(format!(
            "header {key}: unexpected text after ']': {after:?} (comments start with # or ;)"
        ));
    }
    Ok((key, value))
}

/// Cut a body line at its comment.
fn strip_comment(line: &str) -> &str {
    match line.find(['#', ';']) {
        Some(i) => &line[..i],
        None => line,
    }
}

fn parse_seat(word: Option<&str>, players: u8) -> Result<Seat, String> {
    let w = word.ok_or("expected a seat such as S1 after `domino`")?;
    match seat_key(w) {
        Some(Some(n)) if n < players as usize => Ok(Seat(n as u8)),
        Some(_) => Err(format!(
            "there is no seat {w} at a table of {players} (seats are S0 to S{})",
            players - 1
        )),
        None => Err(format!(
            "expected a seat such as S1 after `domino`, found `{w}`"
        )),
    }
}

/// `n` integers after the keyword `kw`.
fn parse_ints<'a>(
    words: &mut impl Iterator<Item = &'a str>,
    kw: &str,
    n: u8,
) -> Result<Vec<i32>, String> {
    match words.next() {
        Some(w) if w == kw => {}
        Some(w) => return Err(format!("expected `{kw}`, found `{w}`")),
        None => return Err(format!("expected `{kw}` and {n} numbers (one per side)")),
    }
    let mut v = Vec::with_capacity(n as usize);
    for _ in 0..n {
        match words.next() {
            Some(w) => {
                v.push(w.parse::<i32>().map_err(|_| {
                    format!("{kw}: expected {n} numbers (one per side), found `{w}`")
                })?)
            }
            None => {
                return Err(format!(
                    "{kw}: expected {n} numbers (one per side), found {}",
                    v.len()
                ))
            }
        }
    }
    Ok(v)
}

fn no_more<'a>(words: &mut impl Iterator<Item = &'a str>, what: &str) -> Result<(), String> {
    match words.next() {
        Some(w) => Err(format!("unexpected `{w}` at the end of the {what} line")),
        None => Ok(()),
    }
}

fn parse_result<'a>(
    words: &mut impl Iterator<Item = &'a str>,
    rules: &Rules,
) -> Result<HandSummary, String> {
    let end = match words.next() {
        Some("domino") => HandEnd::Domino {
            seat: parse_seat(words.next(), rules.players)?,
        },
        Some("blocked") => HandEnd::Blocked,
        Some(w) => {
            return Err(format!(
                "a result starts with `domino S<n>` or `blocked`, found `{w}`"
            ))
        }
        None => return Err("a result starts with `domino S<n>` or `blocked`".to_string()),
    };
    let awards = parse_ints(words, "awards", rules.sides())?;
    let scores = parse_ints(words, "scores", rules.sides())?;
    no_more(words, "result")?;
    Ok(HandSummary {
        end,
        awards,
        scores,
    })
}

fn parse_game<'a>(
    words: &mut impl Iterator<Item = &'a str>,
    rules: &Rules,
) -> Result<GameSummary, String> {
    let sides = rules.sides();
    match words.next() {
        Some("winner") => {}
        Some(w) => return Err(format!("expected `winner` after `game`, found `{w}`")),
        None => return Err("expected `game winner <side> scores ...`".to_string()),
    }
    let winner = match words.next() {
        Some(w) => match w.parse::<u8>() {
            Ok(n) if n < sides => Side(n),
            _ => {
                return Err(format!(
                    "the winner is a side number from 0 to {}, found `{w}`",
                    sides - 1
                ))
            }
        },
        None => return Err("expected the winning side's number after `winner`".to_string()),
    };
    let scores = parse_ints(words, "scores", sides)?;
    no_more(words, "game")?;
    Ok(GameSummary { winner, scores })
}

/// A hand being read.
struct OpenHand {
    line: usize,
    deal: Option<Deal>,
    moves: Vec<Move>,
    result: Option<HandSummary>,
    in_moves: bool,
}

#[derive(Default)]
struct Parser {
    version: Option<u32>,
    rules: Option<Rules>,
    seed: Option<Seed>,
    /// Seat number to (name, line of its header).
    names: BTreeMap<usize, (String, usize)>,
    tags: BTreeMap<String, String>,
    /// Whether the headers were checked (at the first hand).
    headers_done: bool,
    hands: Vec<HandRecord>,
    open: Option<OpenHand>,
    game: Option<GameSummary>,
}

impl Parser {
    fn header(&mut self, n: usize, line: &str) -> Result<(), RecordError> {
        if self.headers_done {
            return Err(RecordError::at(
                n,
                "headers must come before the first hand",
            ));
        }
        let (key, value) = parse_header(line).map_err(|m| RecordError::at(n, m))?;
        let dup = || RecordError::at(n, format!("header {key} is given twice"));
        match key {
            "Format" => {
                if self.version.is_some() {
                    return Err(dup());
                }
                let v = value.trim().parse::<u32>().map_err(|_| {
                    RecordError::at(
                        n,
                        format!("Format: expected a version number like \"1\", found {value:?}"),
                    )
                })?;
                if v != FORMAT_VERSION {
                    return Err(RecordError::at(
                        n,
                        format!(
                            "unsupported format version {v}: this reader knows version \
                             {FORMAT_VERSION}"
                        ),
                    ));
                }
                self.version = Some(v);
            }
            "Rules" => {
                if self.rules.is_some() {
                    return Err(dup());
                }
                let r =
                    Rules::parse(&value).map_err(|e| RecordError::at(n, format!("Rules: {e}")))?;
                self.rules = Some(r);
            }
            "Seed" => {
                if self.seed.is_some() {
                    return Err(dup());
                }
                let s =
                    Seed::parse(&value).map_err(|e| RecordError::at(n, format!("Seed: {e}")))?;
                self.seed = Some(s);
            }
            _ => match seat_key(key) {
                Some(seat) => {
                    let Some(seat) = seat.filter(|&s| s < crate::MAX_SEATS) else {
                        return Err(RecordError::at(n, format!("there is no seat {key}")));
                    };
                    if self.names.contains_key(&seat) {
                        return Err(RecordError::at(n, format!("seat S{seat} is named twice")));
                    }
                    check_name(seat, &value).map_err(|m| RecordError::at(n, m))?;
                    self.names.insert(seat, (value, n));
                }
                None => {
                    check_tag_key(key).map_err(|m| RecordError::at(n, m))?;
                    if self.tags.contains_key(key) {
                        return Err(dup());
                    }
                    self.tags.insert(key.to_string(), value);
                }
            },
        }
        Ok(())
    }

    /// Check the headers once they are all read; returns the rules.
    fn headers(&mut self, n: usize) -> Result<Rules, RecordError> {
        if self.version.is_none() {
            return Err(RecordError::at(
                n,
                format!("missing [Format \"{FORMAT_VERSION}\"] header before the first hand"),
            ));
        }
        let Some(rules) = self.rules else {
            return Err(RecordError::at(
                n,
                "missing [Rules \"...\"] header before the first hand",
            ));
        };
        if !self.headers_done {
            for (&seat, (_, line)) in &self.names {
                if seat >= rules.players as usize {
                    return Err(RecordError::at(
                        *line,
                        format!(
                            "there is no seat S{seat} at a table of {} (seats are S0 to S{})",
                            rules.players,
                            rules.players - 1
                        ),
                    ));
                }
            }
            self.headers_done = true;
        }
        Ok(rules)
    }

    fn close_hand(&mut self) -> Result<(), RecordError> {
        if let Some(h) = self.open.take() {
            let Some(deal) = h.deal else {
                return Err(RecordError::at(
                    h.line,
                    format!("hand {} has no deal line", self.hands.len() + 1),
                ));
            };
            self.hands.push(HandRecord {
                deal,
                moves: h.moves,
                result: h.result,
            });
        }
        Ok(())
    }

    /// The open hand, for a line that must be inside one, after its deal.
    fn in_hand(&mut self, n: usize, kw: &str) -> Result<&mut OpenHand, RecordError> {
        let hand_no = self.hands.len() + 1;
        let Some(h) = self.open.as_mut() else {
            return Err(RecordError::at(
                n,
                format!("`{kw}` must be inside a hand: start one with `hand N`"),
            ));
        };
        if h.deal.is_none() {
            return Err(RecordError::at(
                n,
                format!("hand {hand_no}: the `deal` line must come before `{kw}`"),
            ));
        }
        if h.result.is_some() {
            return Err(RecordError::at(
                n,
                format!("hand {hand_no}: `{kw}` after the result line"),
            ));
        }
        Ok(h)
    }

    fn moves<'a>(
        &mut self,
        n: usize,
        tokens: impl Iterator<Item = &'a str>,
    ) -> Result<(), RecordError> {
        let hand_no = self.hands.len() + 1;
        let h = self.in_hand(n, "moves")?;
        for t in tokens {
            let m = t.parse::<Move>().map_err(|e| {
                RecordError::at(
                    n,
                    format!("hand {hand_no}, move {} `{t}`: {e}", h.moves.len() + 1),
                )
            })?;
            h.moves.push(m);
        }
        h.in_moves = true;
        Ok(())
    }

    fn body(&mut self, n: usize, content: &str) -> Result<(), RecordError> {
        let mut words = content.split_whitespace();
        let Some(kw) = words.next() else {
            return Ok(());
        };
        if self.game.is_some() {
            return Err(RecordError::at(
                n,
                "nothing may follow the game line but comments",
            ));
        }
        match kw {
            "hand" => {
                self.headers(n)?;
                self.close_hand()?;
                let want = self.hands.len() + 1;
                match (words.next(), words.next()) {
                    (Some(w), None) if w.parse::<usize>() == Ok(want) => {}
                    (Some(w), None) => {
                        return Err(RecordError::at(
                            n,
                            format!(
                                "expected `hand {want}`, found `hand {w}`: hands are numbered \
                                 1, 2, 3, ... in order"
                            ),
                        ))
                    }
                    _ => return Err(RecordError::at(n, format!("expected `hand {want}`"))),
                }
                self.open = Some(OpenHand {
                    line: n,
                    deal: None,
                    moves: Vec::new(),
                    result: None,
                    in_moves: false,
                });
            }
            "deal" => {
                let rules = self.headers(n)?;
                let hand_no = self.hands.len() + 1;
                let Some(h) = self.open.as_mut() else {
                    return Err(RecordError::at(
                        n,
                        "`deal` must be inside a hand: start one with `hand N`",
                    ));
                };
                if h.deal.is_some() {
                    return Err(RecordError::at(
                        n,
                        format!("hand {hand_no} has two deal lines"),
                    ));
                }
                let text = content.trim_start().get("deal".len()..).unwrap_or("");
                let deal = Deal::parse(&rules, text)
                    .map_err(|e| RecordError::at(n, format!("hand {hand_no}, deal: {e}")))?;
                h.deal = Some(deal);
            }
            "lot" => {
                let rules = self.headers(n)?;
                let hand_no = self.hands.len() + 1;
                let h = self.in_hand(n, "lot")?;
                if h.in_moves || !h.moves.is_empty() {
                    return Err(RecordError::at(
                        n,
                        format!("hand {hand_no}: the `lot` line comes before the moves"),
                    ));
                }
                if rules.first_lead != FirstLead::Lot {
                    return Err(RecordError::at(
                        n,
                        format!("hand {hand_no}: a `lot` line needs first-lead=lot"),
                    ));
                }
                let seat = parse_seat(words.next(), rules.players)
                    .map_err(|e| RecordError::at(n, format!("hand {hand_no}, lot: {e}")))?;
                if let Some(d) = h.deal.as_mut() {
                    d.lot = seat;
                }
            }
            "moves" => self.moves(n, words)?,
            "result" => {
                let rules = self.headers(n)?;
                let hand_no = self.hands.len() + 1;
                let h = self.in_hand(n, "result")?;
                let r = parse_result(&mut words, &rules)
                    .map_err(|e| RecordError::at(n, format!("hand {hand_no}, result: {e}")))?;
                h.result = Some(r);
                h.in_moves = false;
            }
            "game" => {
                let rules = self.headers(n)?;
                self.close_hand()?;
                if self.hands.is_empty() {
                    return Err(RecordError::at(n, "the game line must follow the hands"));
                }
                let g = parse_game(&mut words, &rules)
                    .map_err(|e| RecordError::at(n, format!("game: {e}")))?;
                self.game = Some(g);
            }
            _ if self.open.as_ref().is_some_and(|h| h.in_moves) => {
                self.moves(n, content.split_whitespace())?;
            }
            _ => {
                return Err(RecordError::at(
                    n,
                    format!(
                        "unexpected `{kw}`: expected a [Header], `hand N`, `deal`, `lot`, \
                         `moves`, `result` or `game`"
                    ),
                ))
            }
        }
        Ok(())
    }

    fn finish(mut self, last_line: usize) -> Result<Record, RecordError> {
        let rules = self.headers(last_line)?;
        self.close_hand()?;
        if self.hands.is_empty() {
            return Err(RecordError::at(
                last_line,
                "a record needs at least one hand (`hand 1` and its deal)",
            ));
        }
        let mut seats = default_seat_names(rules.players);
        for (seat, (name, _)) in self.names {
            seats[seat] = name;
        }
        let record = Record {
            version: FORMAT_VERSION,
            rules,
            seats,
            seed: self.seed,
            tags: self.tags,
            hands: self.hands,
            game: self.game,
        };
        debug_assert!(record.check().is_ok(), "{:?}", record.check());
        Ok(record)
    }
}

impl Record {
    /// Read a record from its text. Blank lines are ignored, and so is everything from `#` or
    /// `;` to the end of a line (outside a header's quoted value).
    ///
    /// The record is checked for form only ([`Record::check`]); [`Record::replay`] checks the
    /// play.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let mut p = Parser::default();
        let mut last_line = 1;
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            last_line = n;
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
                continue;
            }
            if line.starts_with('[') {
                p.header(n, line)?;
            } else {
                p.body(n, strip_comment(line))?;
            }
        }
        p.finish(last_line)
    }
}

// ---------------------------------------------------------------------------------------------
// JSON
// ---------------------------------------------------------------------------------------------

mod wire {
    //! The JSON form of a record: deals, rules and seeds as their text forms.

    use super::{GameSummary, HandRecord, HandSummary, Move, Record};
    use crate::deal::{Deal, Seed};
    use crate::rules::Rules;
    use serde::{Deserialize, Serialize};
    use std::collections::BTreeMap;

    #[derive(Clone, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(super) struct RecordJson {
        format: u32,
        rules: String,
        seats: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seed: Option<String>,
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        tags: BTreeMap<String, String>,
        hands: Vec<HandJson>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game: Option<GameSummary>,
    }

    #[derive(Clone, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct HandJson {
        deal: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lot: Option<crate::Seat>,
        #[serde(default)]
        moves: Vec<Move>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        result: Option<HandSummary>,
    }

    impl From<Record> for RecordJson {
        fn from(r: Record) -> RecordJson {
            RecordJson {
                format: r.version,
                rules: r.rules.to_options_string(),
                seats: r.seats,
                seed: r.seed.map(|s| s.to_hex()),
                tags: r.tags,
                hands: r
                    .hands
                    .into_iter()
                    .map(|h| HandJson {
                        deal: h.deal.to_text().trim_end().to_string(),
                        lot: (r.rules.first_lead == crate::rules::FirstLead::Lot)
                            .then_some(h.deal.lot),
                        moves: h.moves,
                        result: h.result,
                    })
                    .collect(),
                game: r.game,
            }
        }
    }

    impl TryFrom<RecordJson> for Record {
        type Error = String;
        fn try_from(j: RecordJson) -> Result<Record, String> {
            let rules = Rules::parse(&j.rules).map_err(|e| format!("rules: {e}"))?;
            let seed = match j.seed {
                Some(s) => Some(Seed::parse(&s).map_err(|e| format!("seed: {e}"))?),
                None => None,
            };
            let mut hands = Vec::with_capacity(j.hands.len());
            for (i, h) in j.hands.into_iter().enumerate() {
                let mut deal = Deal::parse(&rules, &h.deal)
                    .map_err(|e| format!("hand {}, deal: {e}", i + 1))?;
                if let Some(lot) = h.lot {
                    if lot.0 >= rules.players {
                        return Err(format!("hand {}, lot: no seat {lot}", i + 1));
                    }
                    deal.lot = lot;
                }
                hands.push(HandRecord {
                    deal,
                    moves: h.moves,
                    result: h.result,
                });
            }
            let r = Record {
                version: j.format,
                rules,
                seats: j.seats,
                seed,
                tags: j.tags,
                hands,
                game: j.game,
            };
            r.check().map_err(|e| e.message)?;
            Ok(r)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Replay
// ---------------------------------------------------------------------------------------------

/// One replayed action and the table after it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Step {
    /// Who acted.
    pub seat: Seat,
    /// The action.
    pub action: Action,
    /// Points it scored.
    pub points: u16,
    /// The tile drawn, for a draw.
    pub drawn: Option<Tile>,
    /// The count of the open ends after the action.
    pub count: u16,
    /// Each open arm and the pip showing on it, after the action.
    pub open_ends: Vec<(ArmId, Pip)>,
    /// Each side's score after the action.
    pub scores: Vec<i32>,
}

/// One replayed hand.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ReplayedHand {
    /// How the hand started: its number, the scores before it, and the lead rule.
    pub start: HandStart,
    /// Who led.
    pub leader: Seat,
    /// How the leader was chosen.
    pub lead_kind: LeadKind,
    /// Tiles drawn before the lead to find a double (the draw-until-double rule).
    pub lead_draws: Vec<(Seat, Tile)>,
    /// Every action with the table after it.
    pub steps: Vec<Step>,
    /// The engine's result for the hand, if it ended.
    pub result: Option<HandResult>,
    /// The engine's log of the hand (for [`crate::LayoutTree::from_history`]).
    pub log: Vec<Entry>,
    /// Each side's score after the hand.
    pub scores: Vec<i32>,
}

/// A record played through the engine.
#[derive(Clone, Debug)]
pub struct ReplayedGame {
    /// Every hand.
    pub hands: Vec<ReplayedHand>,
    /// Each side's final score.
    pub scores: Vec<i32>,
    /// The winning side, if the game ended.
    pub winner: Option<Side>,
    /// The state after the last action, from which an unfinished game can continue.
    pub state: State,
}

/// What was inconsistent in a record; see [`ReplayError`] for where.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ReplayErrorKind {
    /// The record is not well formed (see [`Record::check`]).
    Malformed(String),
    /// More hands than hand numbers (65535).
    TooManyHands,
    /// The hand could not be set up (bad rules, a deal that does not fit, or no double dealt
    /// under the redeal rule).
    Setup(SetupError),
    /// The deal is not the one the record's seed gives.
    SeededDeal {
        /// Position in the deal order (from 0) of the first difference.
        position: usize,
        /// The tile the record has there.
        recorded: Tile,
        /// The tile the seed deals there.
        seeded: Tile,
        /// Tiles per hand, to name the position.
        hand_size: u8,
        /// Players, to name the position.
        players: u8,
    },
    /// The hand opens by lot and the record's lot is not the one the seed draws.
    SeededLot {
        /// The seat the record names.
        recorded: Seat,
        /// The seat the seed draws.
        seeded: Seat,
    },
    /// The action is against the rules.
    Illegal {
        /// The seat to move.
        seat: Seat,
        /// Why the engine refused it.
        error: IllegalAction,
    },
    /// The hand (or game) was already over before this action.
    AfterEnd {
        /// Whether it was the game that had ended.
        game: bool,
    },
    /// The points annotation differs from what the action scored.
    Points {
        /// What kind of action (`play`, `claim`, ...).
        what: &'static str,
        /// Points the action scored.
        actual: u16,
        /// Points the record gives.
        recorded: u16,
    },
    /// The record gives a result but the hand did not end.
    ResultWithoutEnd {
        /// Whether the game ended during the hand (a mid-hand win, so no hand result).
        game_over: bool,
        /// The seat to move, when the hand is still on.
        to_move: Seat,
    },
    /// The hand ended but the record has no result line.
    MissingResult {
        /// How it ended.
        end: HandEnd,
    },
    /// The hand ended another way than the record says.
    ResultEnd {
        /// How it ended.
        actual: HandEnd,
        /// What the record says.
        recorded: HandEnd,
    },
    /// The awards differ.
    Awards {
        /// The engine's awards.
        actual: Vec<i32>,
        /// The record's.
        recorded: Vec<i32>,
    },
    /// The scores after the hand differ.
    Scores {
        /// The engine's scores.
        actual: Vec<i32>,
        /// The record's.
        recorded: Vec<i32>,
    },
    /// The hand is not over after its actions, yet another hand follows.
    Unfinished {
        /// The seat to move.
        to_move: Seat,
    },
    /// A hand follows the end of the game.
    AfterGameOver,
    /// The game ended but the record has no game line.
    MissingGameResult {
        /// The winner.
        winner: Side,
        /// The final scores.
        scores: Vec<i32>,
    },
    /// The record has a game line but the game did not end.
    GameNotOver,
    /// Another side won.
    Winner {
        /// The engine's winner.
        actual: Side,
        /// The record's.
        recorded: Side,
    },
    /// The final scores differ.
    FinalScores {
        /// The engine's scores.
        actual: Vec<i32>,
        /// The record's.
        recorded: Vec<i32>,
    },
}

fn describe_end(end: &HandEnd) -> String {
    match end {
        HandEnd::Domino { seat } => format!("domino by {seat}"),
        HandEnd::Blocked => "blocked".to_string(),
    }
}

impl fmt::Display for ReplayErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ReplayErrorKind as K;
        match self {
            K::Malformed(m) => write!(f, "the record is malformed: {m}"),
            K::TooManyHands => write!(f, "too many hands: at most {} are numbered", u16::MAX),
            K::Setup(e) => write!(f, "the hand cannot start: {e}"),
            K::SeededLot { recorded, seeded } => write!(
                f,
                "the record says the lot chose {recorded} to lead, but the seed's lot chose \
                 {seeded}"
            ),
            K::SeededDeal {
                position,
                recorded,
                seeded,
                hand_size,
                players,
            } => {
                let hs = usize::from(*hand_size).max(1);
                let dealt = hs * usize::from(*players);
                let place = if *position < dealt {
                    format!("tile {} of S{}", position % hs + 1, position / hs)
                } else {
                    format!("boneyard tile {}", position - dealt + 1)
                };
                write!(
                    f,
                    "the deal is not the one the seed gives: {place} is {recorded}, the seed \
                     deals {seeded}"
                )
            }
            K::Illegal { seat, error } => write!(f, "illegal for {seat}: {error}"),
            K::AfterEnd { game: false } => {
                write!(f, "the hand is already over: this action is one too many")
            }
            K::AfterEnd { game: true } => {
                write!(f, "the game is already over: this action is one too many")
            }
            K::Points {
                what,
                actual: 0,
                recorded,
            } => write!(f, "the {what} scores nothing, the record says {recorded}"),
            K::Points {
                what,
                actual,
                recorded,
            } => write!(f, "the {what} scores {actual}, the record says {recorded}"),
            K::ResultWithoutEnd {
                game_over: true, ..
            } => write!(
                f,
                "the game ended during the hand, so the hand has no result, yet the record \
                 gives one"
            ),
            K::ResultWithoutEnd { to_move, .. } => write!(
                f,
                "the record gives a result, but after its actions the hand is not over ({to_move} \
                 to move)"
            ),
            K::MissingResult { end } => write!(
                f,
                "the hand is over ({}) but the record has no result line",
                describe_end(end)
            ),
            K::ResultEnd { actual, recorded } => write!(
                f,
                "the hand ended {}, the record says {}",
                describe_end(actual),
                describe_end(recorded)
            ),
            K::Awards { actual, recorded } => write!(
                f,
                "the awards are {}, the record says {}",
                join_ints(actual),
                join_ints(recorded)
            ),
            K::Scores { actual, recorded } => write!(
                f,
                "the scores after the hand are {}, the record says {}",
                join_ints(actual),
                join_ints(recorded)
            ),
            K::Unfinished { to_move } => write!(
                f,
                "the hand is not over after its actions ({to_move} to move), yet another hand \
                 follows"
            ),
            K::AfterGameOver => write!(f, "the game ended in the hand before; no hand may follow"),
            K::MissingGameResult { winner, scores } => write!(
                f,
                "the game is over (side {} wins, scores {}) but the record has no game line",
                winner.0,
                join_ints(scores)
            ),
            K::GameNotOver => write!(f, "the record says the game is over, but it is not"),
            K::Winner { actual, recorded } => write!(
                f,
                "side {} won, the record says side {}",
                actual.0, recorded.0
            ),
            K::FinalScores { actual, recorded } => write!(
                f,
                "the final scores are {}, the record says {}",
                join_ints(actual),
                join_ints(recorded)
            ),
        }
    }
}

/// Why a record does not replay: where (hand, action and token) and what.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ReplayError {
    /// The hand (from 1), or `None` for the game as a whole.
    pub hand: Option<usize>,
    /// The action's position in the hand (from 1), if the problem is an action.
    pub action: Option<usize>,
    /// The action's token.
    pub token: Option<Move>,
    /// What is wrong.
    pub kind: ReplayErrorKind,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.hand, self.action, &self.token) {
            (Some(h), Some(a), Some(t)) => write!(f, "hand {h}, action {a} `{t}`: ")?,
            (Some(h), Some(a), None) => write!(f, "hand {h}, action {a}: ")?,
            (Some(h), None, _) => write!(f, "hand {h}: ")?,
            (None, _, _) => write!(f, "game: ")?,
        }
        write!(f, "{}", self.kind)
    }
}

impl std::error::Error for ReplayError {}

fn action_kind(a: Action) -> &'static str {
    match a {
        Action::Play { arm: None, .. } => "lead",
        Action::Play { .. } => "play",
        Action::Draw => "draw",
        Action::Pass => "pass",
        Action::Claim(_) => "claim",
        Action::Muggins => "Muggins call",
    }
}

impl Record {
    /// Play the record through the engine, checking every action, every points annotation,
    /// each hand's result, the deals against the seed (if there is one), and the game's result.
    /// The first inconsistency is returned, naming the hand, the action and its token. A record
    /// that fails [`Record::check`] is rejected first, as malformed.
    pub fn replay(&self) -> Result<ReplayedGame, ReplayError> {
        let game_err = |kind| ReplayError {
            hand: None,
            action: None,
            token: None,
            kind,
        };
        self.check()
            .map_err(|e| game_err(ReplayErrorKind::Malformed(e.message)))?;
        let rules = self.rules;
        if self.hands.len() > usize::from(u16::MAX) {
            return Err(game_err(ReplayErrorKind::TooManyHands));
        }
        let sides = rules.sides() as usize;
        let mut hands: Vec<ReplayedHand> = Vec::with_capacity(self.hands.len());
        let mut state: Option<State> = None;
        for (hi, h) in self.hands.iter().enumerate() {
            let hand = hi + 1;
            let hand_err = |kind| ReplayError {
                hand: Some(hand),
                action: None,
                token: None,
                kind,
            };
            let start = match &state {
                None => HandStart::first(),
                Some(prev) => match prev.next_hand_start() {
                    Some(s) => s,
                    // The previous hand was checked to be over, so only a game end is left.
                    None => return Err(hand_err(ReplayErrorKind::AfterGameOver)),
                },
            };
            let setup = State::with_start(rules, h.deal, start);
            if let Some(seed) = &self.seed {
                let want =
                    Deal::from_seed(seed, u32::from(start.hand_no), &rules, start.highest_double);
                if let Some(position) =
                    (0..h.deal.len()).find(|&i| h.deal.order[i] != want.order[i])
                {
                    return Err(hand_err(ReplayErrorKind::SeededDeal {
                        position,
                        recorded: h.deal.order[position],
                        seeded: want.order[position],
                        hand_size: rules.hand_size,
                        players: rules.players,
                    }));
                }
                if rules.first_lead == FirstLead::Lot
                    && start.highest_double
                    && h.deal.lot != want.lot
                {
                    return Err(hand_err(ReplayErrorKind::SeededLot {
                        recorded: h.deal.lot,
                        seeded: want.lot,
                    }));
                }
            }
            let mut st = setup.map_err(|e| hand_err(ReplayErrorKind::Setup(e)))?;
            let mut steps = Vec::with_capacity(h.moves.len());
            for (ai, mv) in h.moves.iter().enumerate() {
                let at = |kind| ReplayError {
                    hand: Some(hand),
                    action: Some(ai + 1),
                    token: Some(*mv),
                    kind,
                };
                let seat = st.to_move();
                let outcome = st.apply(mv.action).map_err(|e| {
                    at(match e {
                        IllegalAction::HandOver => ReplayErrorKind::AfterEnd { game: false },
                        IllegalAction::GameOver => ReplayErrorKind::AfterEnd { game: true },
                        error => ReplayErrorKind::Illegal { seat, error },
                    })
                })?;
                if outcome.points != mv.points {
                    return Err(at(ReplayErrorKind::Points {
                        what: action_kind(mv.action),
                        actual: outcome.points,
                        recorded: mv.points,
                    }));
                }
                let layout = st.layout();
                steps.push(Step {
                    seat,
                    action: mv.action,
                    points: outcome.points,
                    drawn: outcome.drawn,
                    count: layout.count(),
                    open_ends: layout.open_arms().map(|a| (a, layout.arm_pip(a))).collect(),
                    scores: st.scores().0[..sides].to_vec(),
                });
            }
            let scores = st.scores().0[..sides].to_vec();
            match (st.result(), &h.result) {
                (Some(r), Some(rec)) => {
                    if r.end != rec.end {
                        return Err(hand_err(ReplayErrorKind::ResultEnd {
                            actual: r.end,
                            recorded: rec.end,
                        }));
                    }
                    let awards = r.awards.0[..sides].to_vec();
                    if awards != rec.awards {
                        return Err(hand_err(ReplayErrorKind::Awards {
                            actual: awards,
                            recorded: rec.awards.clone(),
                        }));
                    }
                    if scores != rec.scores {
                        return Err(hand_err(ReplayErrorKind::Scores {
                            actual: scores,
                            recorded: rec.scores.clone(),
                        }));
                    }
                }
                (Some(r), None) => {
                    return Err(hand_err(ReplayErrorKind::MissingResult { end: r.end }))
                }
                (None, Some(_)) => {
                    return Err(hand_err(ReplayErrorKind::ResultWithoutEnd {
                        game_over: st.phase() == Phase::GameOver,
                        to_move: st.to_move(),
                    }))
                }
                (None, None) => {}
            }
            if !st.is_hand_over() && hand < self.hands.len() {
                return Err(hand_err(ReplayErrorKind::Unfinished {
                    to_move: st.to_move(),
                }));
            }
            hands.push(ReplayedHand {
                start,
                leader: st.leader(),
                lead_kind: st.lead_kind(),
                lead_draws: st
                    .log()
                    .iter()
                    .filter_map(|e| match *e {
                        Entry::LeadDraw {
                            seat,
                            tile: Some(t),
                        } => Some((seat, t)),
                        _ => None,
                    })
                    .collect(),
                steps,
                result: st.result().copied(),
                log: st.log().to_vec(),
                scores,
            });
            state = Some(st);
        }
        let Some(st) = state else {
            return Err(game_err(ReplayErrorKind::Malformed(
                "a record needs at least one hand".to_string(),
            )));
        };
        let scores = st.scores().0[..sides].to_vec();
        match (st.winner(), &self.game) {
            (Some(w), Some(g)) => {
                if g.winner != w {
                    return Err(game_err(ReplayErrorKind::Winner {
                        actual: w,
                        recorded: g.winner,
                    }));
                }
                if g.scores != scores {
                    return Err(game_err(ReplayErrorKind::FinalScores {
                        actual: scores,
                        recorded: g.scores.clone(),
                    }));
                }
            }
            (Some(w), None) => {
                return Err(game_err(ReplayErrorKind::MissingGameResult {
                    winner: w,
                    scores,
                }))
            }
            (None, Some(_)) => return Err(game_err(ReplayErrorKind::GameNotOver)),
            (None, None) => {}
        }
        Ok(ReplayedGame {
            hands,
            scores,
            winner: st.winner(),
            state: st,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Recording
// ---------------------------------------------------------------------------------------------

/// Builds a [`Record`] while a game is played.
///
/// Make it from the first hand's state, feed it every action (through [`Recorder::apply`], or
/// [`Recorder::action`] with the outcome when the caller applies actions itself), call
/// [`Recorder::start_hand`] after each new deal, and [`Recorder::finish`] at the end. Hand
/// results are taken from the state by [`Recorder::finish_hand`], which [`Recorder::apply`] and
/// [`Recorder::finish`] call when a hand is over.
#[derive(Clone, Debug)]
pub struct Recorder {
    record: Record,
}

impl Recorder {
    /// Start recording at the first hand of `state` (a state just set up, before any action).
    /// `names` gives a name per seat (default `S0`, `S1`, ...); `seed` is the seed the deals
    /// come from, if they do.
    pub fn new(
        state: &State,
        names: Option<Vec<String>>,
        seed: Option<Seed>,
    ) -> Result<Recorder, RecordError> {
        let rules = *state.rules();
        if state
            .log()
            .iter()
            .any(|e| !matches!(e, Entry::LeadDraw { .. }))
        {
            return Err(RecordError::whole(
                "the state must be at the start of a hand, before any action",
            ));
        }
        let record = Record {
            version: FORMAT_VERSION,
            rules,
            seats: names.unwrap_or_else(|| default_seat_names(rules.players)),
            seed,
            tags: BTreeMap::new(),
            hands: vec![HandRecord::new(*state.deal())],
            game: None,
        };
        record.check()?;
        Ok(Recorder { record })
    }

    /// Add a free header, such as `Date` or `Event`.
    pub fn tag(&mut self, key: &str, value: &str) -> Result<(), RecordError> {
        check_tag_key(key).map_err(RecordError::whole)?;
        check_value(key, value).map_err(RecordError::whole)?;
        self.record.tags.insert(key.to_string(), value.to_string());
        Ok(())
    }

    /// Begin a new hand, dealt in `state` (call it after [`State::next_hand`] or
    /// [`State::next_hand_from_seed`], before any action of the hand).
    pub fn start_hand(&mut self, state: &State) {
        self.record.hands.push(HandRecord::new(*state.deal()));
    }

    /// Record an action the caller applied, with its outcome.
    pub fn action(&mut self, action: Action, outcome: &Outcome) {
        if let Some(h) = self.record.hands.last_mut() {
            h.moves.push(Move {
                action,
                points: outcome.points,
            });
        }
    }

    /// Apply `action` to `state` and record it; once the hand is over its result is recorded
    /// too. An illegal action is not recorded.
    pub fn apply(&mut self, state: &mut State, action: Action) -> Result<Outcome, IllegalAction> {
        let outcome = state.apply(action)?;
        self.action(action, &outcome);
        if outcome.hand_over {
            self.finish_hand(state);
        }
        Ok(outcome)
    }

    /// Record the current hand's result from `state`, if the hand is over.
    pub fn finish_hand(&mut self, state: &State) {
        let sides = self.record.rules.sides() as usize;
        if let (Some(r), Some(h)) = (state.result(), self.record.hands.last_mut()) {
            h.result = Some(HandSummary {
                end: r.end,
                awards: r.awards.0[..sides].to_vec(),
                scores: state.scores().0[..sides].to_vec(),
            });
        }
    }

    /// The record so far (without a game result).
    #[must_use]
    pub const fn record(&self) -> &Record {
        &self.record
    }

    /// The finished record: the last hand's result and, if the game is over, the game's.
    #[must_use]
    pub fn finish(mut self, state: &State) -> Record {
        self.finish_hand(state);
        let sides = self.record.rules.sides() as usize;
        self.record.game = state.winner().map(|winner| GameSummary {
            winner,
            scores: state.scores().0[..sides].to_vec(),
        });
        self.record
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;

    fn sample() -> Record {
        let rules = Rules::preset(Preset::FiveUp, 2);
        let seed = Seed::from_u64(5);
        let mut state = State::from_seed(rules, &seed).unwrap();
        let mut rec = Recorder::new(
            &state,
            Some(vec!["Ann \"the fox\"".into(), "Bob\\".into()]),
            Some(seed),
        )
        .unwrap();
        rec.tag("Date", "2026-11-20").unwrap();
        while state.phase() != Phase::GameOver {
            if state.phase() == Phase::HandOver {
                state.next_hand_from_seed(&seed).unwrap();
                rec.start_hand(&state);
            }
            let a = state.legal_actions()[0];
            rec.apply(&mut state, a).unwrap();
        }
        rec.finish(&state)
    }

    #[test]
    fn move_tokens() {
        let m: Move = "5-0@W+10".parse().unwrap();
        assert_eq!(m.points, 10);
        assert_eq!(m.to_string(), "5-0@W+10");
        assert_eq!("C10+10".parse::<Move>().unwrap().action, Action::Claim(10));
        assert_eq!("M+5".parse::<Move>().unwrap().to_string(), "M+5");
        assert!("5-0@W+0".parse::<Move>().is_err());
        assert!("5-0@W+".parse::<Move>().is_err());
        assert!("+5".parse::<Move>().is_err());
        assert!("C+5".parse::<Move>().is_err());
        assert_eq!("5-0@W+256".parse::<Move>().unwrap().points, 256);
        assert!("5-0@W+65536".parse::<Move>().is_err());
        assert!("5-0@W+1+1".parse::<Move>().is_err());
    }

    #[test]
    fn headers_escape_and_round_trip() {
        let r = sample();
        let text = r.to_text();
        assert!(text.contains(r#"[S0 "Ann \"the fox\""]"#), "{text}");
        assert!(text.contains(r#"[S1 "Bob\\"]"#), "{text}");
        let back = Record::parse(&text).unwrap();
        assert_eq!(back, r);
        assert_eq!(back.to_text(), text);
        assert_eq!(Record::from_json(&r.to_json()).unwrap(), r);
        assert!(r.replay().is_ok());
    }

    #[test]
    fn moves_lines_wrap() {
        let text = sample().to_text();
        let move_lines = text
            .lines()
            .filter(|l| l.starts_with("moves") || l.starts_with(' '));
        assert!(move_lines.clone().all(|l| l.len() <= WRAP));
        assert!(move_lines.count() > 2);
        assert!(text.lines().any(|l| l.starts_with("      ")));
    }

    #[test]
    fn comments_are_ignored() {
        let r = sample();
        let mut commented = String::from("# a game\n; of Five Up\n");
        for line in r.to_text().lines() {
            commented.push_str("   ");
            commented.push_str(line);
            if !line.is_empty() {
                commented.push_str("  # note; more");
            }
            commented.push('\n');
        }
        assert_eq!(Record::parse(&commented).unwrap(), r);
    }

    #[test]
    fn header_errors_name_the_line() {
        let cases = [
            ("[Format \"1\"\n", 1, "expected ']'"),
            ("[Format \"2\"]\n", 1, "unsupported format version 2"),
            ("[Format \"1\"]\n[Rules \"players=9\"]\n", 2, "players"),
            (
                "[Format \"1\"]\n[Rules \"\"]\n[Rules \"\"]\n",
                3,
                "given twice",
            ),
            ("[Format \"1\"]\n[rules \"\"]\n", 2, "case-sensitive"),
            (
                "[Format \"1\"]\n[Rules \"\"]\n[S2 \"Cy\"]\nhand 1\n",
                3,
                "no seat S2",
            ),
            (
                "[Format \"1\"]\n[Rules \"\"]\n[Date x]\n",
                3,
                "double quotes",
            ),
            (
                "[Format \"1\"]\n[Rules \"\"]\n[Date \"a\\n\"]\n",
                3,
                "unknown escape",
            ),
            ("[Format \"1\"]\n[Rules \"\"]\n", 2, "at least one hand"),
            ("[Rules \"\"]\nhand 1\n", 2, "missing [Format"),
            (
                "[Format \"1\"]\n[Rules \"\"]\nhand 2\n",
                3,
                "expected `hand 1`",
            ),
            (
                "[Format \"1\"]\n[Rules \"\"]\nhand 1\nmoves D\n",
                4,
                "`deal` line must come",
            ),
            ("[Format \"1\"]\n[Rules \"\"]\nhand 1\n", 3, "no deal line"),
            (
                "[Format \"1\"]\n[Rules \"\"]\nhand 1\ndeal 6-6\n",
                4,
                "deal",
            ),
            (
                "[Format \"1\"]\n[Rules \"\"]\nbogus\n",
                3,
                "unexpected `bogus`",
            ),
        ];
        for (text, line, needle) in cases {
            let e = Record::parse(text).unwrap_err();
            assert_eq!(e.line, Some(line), "{text:?}: {e}");
            assert!(e.message.contains(needle), "{text:?}: {e}");
        }
    }

    #[test]
    fn body_errors_name_the_line() {
        let text = sample().to_text();
        let lines: Vec<&str> = text.lines().collect();
        let moves_at = lines.iter().position(|l| l.starts_with("moves")).unwrap();
        let result_at = lines.iter().position(|l| l.starts_with("result")).unwrap();
        let edit = |i: usize, new: &str| {
            let mut v = lines.clone();
            v[i] = new;
            v.join("\n")
        };
        let e = Record::parse(&edit(moves_at, "moves 6-6 5-13@W")).unwrap_err();
        assert_eq!(e.line, Some(moves_at + 1));
        assert!(e.message.contains("move 2 `5-13@W`"), "{e}");
        let e =
            Record::parse(&edit(result_at, "result domino S1 awards 5 scores 1 2")).unwrap_err();
        assert_eq!(e.line, Some(result_at + 1));
        assert!(
            e.message
                .contains("awards: expected 2 numbers (one per side), found `scores`"),
            "{e}"
        );
        let e =
            Record::parse(&edit(result_at, "result domino S7 awards 0 5 scores 1 2")).unwrap_err();
        assert!(e.message.contains("no seat S7"), "{e}");
        let mut extra = text.clone();
        extra.push_str("hand 2\n");
        let e = Record::parse(&extra).unwrap_err();
        assert!(e.message.contains("nothing may follow"), "{e}");
    }

    #[test]
    fn json_is_checked_like_text() {
        let r = sample();
        let mut v: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
        v["hands"][0]["deal"] = serde_json::Value::String("6-6 / 5-5 / 1-1".into());
        let e = Record::from_json(&v.to_string()).unwrap_err();
        assert!(e.message.contains("hand 1, deal"), "{e}");
        let mut v: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
        v["seats"] = serde_json::json!(["A"]);
        assert!(Record::from_json(&v.to_string()).is_err());
        let mut v: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
        v["extra"] = serde_json::json!(1);
        assert!(Record::from_json(&v.to_string()).is_err());
    }
}
