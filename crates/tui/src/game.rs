//! A game at the table: the engine's state, the computer players, the record being written and
//! the log of every action, with the human seat seeing only its own [`View`].
//!
//! The screens read the game through [`Game::view`] (the human's view) and
//! [`Game::visible_hands`], which gives other seats' tiles only when the learning setting shows
//! them or the hand is over; nothing else reaches the hidden tiles.

use std::path::{Path, PathBuf};

use fiveup_bots::{analyze, make_bot, ActionEval, Bot, ExpertConfig};
use fiveup_engine::notation::{Record, Recorder};
use fiveup_engine::{
    round5, round5_share, Action, Award, BySeat, Entry, HandEnd, HandResult, IllegalAction,
    Outcome, Phase, PlayScoring, Preset, Rules, Seat, Seed, Side, State, TileSet, View,
};

/// Computer levels offered to play against, weakest first: the levels of
/// [`fiveup_bots::LEVELS`].
pub const LEVELS: [&str; 5] = [
    fiveup_bots::LEVELS[0].0,
    fiveup_bots::LEVELS[1].0,
    fiveup_bots::LEVELS[2].0,
    fiveup_bots::LEVELS[3].0,
    fiveup_bots::LEVELS[4].0,
];

/// The oracle sees every hand: offered only under this name, so nobody mistakes it for fair.
pub const CHEATING_LEVEL: &str = "oracle";

/// A short description of a level for menus.
#[must_use]
pub fn level_label(level: &str) -> String {
    match level {
        "beginner" => "beginner (any legal move)".into(),
        "casual" => "casual (most points now)".into(),
        "strong" => "strong (searches hidden tiles)".into(),
        "master" => "master (searches, reads your plays)".into(),
        "random" => "random (any legal move)".into(),
        "greedy" => "greedy (most points now)".into(),
        "club" => "club (classic strategy)".into(),
        "pimc" => "pimc (searches hidden tiles)".into(),
        "expert" => "expert (searches, reads your plays)".into(),
        "oracle" => "oracle (CHEATS: sees every hand)".into(),
        other => other.into(),
    }
}

/// Who sits in a seat.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SeatKind {
    /// The person at the keyboard.
    Human,
    /// A computer player of this level (a `fiveup_bots::make_bot` spec).
    Computer(String),
}

/// Everything chosen before a game starts.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    /// The rules, players, partnerships and target included.
    pub rules: Rules,
    /// Who sits in each seat, seat 0 first (`rules.players` entries).
    pub seats: Vec<SeatKind>,
    /// The game's seed: deals, and the computer players' choices.
    pub seed: u64,
}

impl Setup {
    /// The default game: two players, Five Up rules, you against the club player.
    #[must_use]
    pub fn new(seed: u64) -> Setup {
        Setup {
            rules: Rules::preset(Preset::FiveUp, 2),
            seats: vec![SeatKind::Human, SeatKind::Computer("club".into())],
            seed,
        }
    }

    /// Check the seats against the rules and the level names.
    pub fn validate(&self) -> Result<(), String> {
        self.rules.validate().map_err(|e| e.to_string())?;
        if self.seats.len() != usize::from(self.rules.players) {
            return Err(format!(
                "{} players need {} seats, got {}",
                self.rules.players,
                self.rules.players,
                self.seats.len()
            ));
        }
        if self.seats.iter().filter(|s| **s == SeatKind::Human).count() > 1 {
            return Err("at most one seat can be the human player".into());
        }
        for s in &self.seats {
            if let SeatKind::Computer(spec) = s {
                make_bot(spec, 0).map_err(|e| e.to_string())?;
            }
        }
        Ok(())
    }
}

/// One line of the game's log.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct LogLine {
    /// The hand it belongs to (from 1).
    pub hand: u16,
    /// The text.
    pub text: String,
    /// After an action that scored: every side's total just after it (`You 20, North 35`),
    /// which the plain mode announces.
    pub totals: Option<String>,
}

/// One hand's line of the score sheet.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SheetRow {
    /// The hand (from 1).
    pub hand: u16,
    /// Points each side scored in the hand, play and award together.
    pub gained: Vec<i32>,
    /// The end-of-hand award each side was given.
    pub award: Vec<i32>,
    /// Every side's total after the hand.
    pub totals: Vec<i32>,
}

/// The places at a table of `players`, clockwise from South (where the human sits): the four
/// cardinal points up to four players, then the points between them, spread around the table,
/// so that every name stays distinct and says where the seat is.
#[must_use]
pub fn compass(players: u8) -> &'static [&'static str] {
    match players {
        0..=2 => &["South", "North"],
        3 => &["South", "West", "East"],
        4 => &["South", "West", "North", "East"],
        5 => &["South", "West", "Northwest", "Northeast", "East"],
        6 => &[
            "South",
            "Southwest",
            "Northwest",
            "North",
            "Northeast",
            "Southeast",
        ],
        7 => &[
            "South",
            "Southwest",
            "West",
            "Northwest",
            "Northeast",
            "East",
            "Southeast",
        ],
        _ => &[
            "South",
            "Southwest",
            "West",
            "Northwest",
            "North",
            "Northeast",
            "East",
            "Southeast",
        ],
    }
}

/// Seat names around the table, the human (or seat 0) sitting South.
#[must_use]
pub fn seat_names(setup: &Setup) -> Vec<String> {
    let compass = compass(setup.rules.players);
    let human = setup.seats.iter().position(|s| *s == SeatKind::Human);
    (0..setup.seats.len())
        .map(|i| {
            if Some(i) == human {
                "You".to_string()
            } else {
                // Names turn with the table so that the human is always South.
                let h = human.unwrap_or(0);
                let pos = (i + setup.seats.len() - h) % setup.seats.len();
                compass[pos].to_string()
            }
        })
        .collect()
}

/// Seat names for a record or replay that gave none (`S0`, `S1`, ...): the compass names the
/// game uses, seat 0 sitting South.
#[must_use]
pub fn display_names(seats: &[String], players: u8) -> Vec<String> {
    let default: Vec<String> = (0..players).map(|p| format!("S{p}")).collect();
    if seats == default.as_slice() || seats.len() != usize::from(players) {
        compass(players)
            .iter()
            .take(usize::from(players))
            .map(|s| (*s).to_string())
            .collect()
    } else {
        seats.to_vec()
    }
}

/// A record that cannot be replayed, explained with the seats' names (the engine's message says
/// `S0` and speaks to the player as "you").
#[must_use]
pub fn replay_error_text(e: &fiveup_engine::notation::ReplayError, names: &[String]) -> String {
    use fiveup_engine::notation::ReplayErrorKind;
    if let ReplayErrorKind::Illegal { seat, error } = &e.kind {
        let who = names
            .get(seat.idx())
            .cloned()
            .unwrap_or_else(|| seat.to_string());
        let mut where_ = String::new();
        if let Some(h) = e.hand {
            where_.push_str(&format!("hand {h}"));
        }
        if let Some(a) = e.action {
            where_.push_str(&format!(", action {a}"));
        }
        if let Some(t) = &e.token {
            where_.push_str(&format!(" `{t}`"));
        }
        return format!(
            "{where_}: not allowed for {who}: {}",
            explain_for(error, &who)
        );
    }
    e.to_string()
}

/// An illegal action explained about a named player (the engine speaks to "you").
#[must_use]
pub fn explain_for(e: &IllegalAction, who: &str) -> String {
    // The human seat is "You" at the start of a sentence and "you" inside one.
    let inner = if who == "You" { "you" } else { who };
    match e {
        IllegalAction::NotYourTurn if who == "You" => "it is not your turn".to_string(),
        IllegalAction::NotYourTurn => format!("it is not {who}'s turn"),
        IllegalAction::NotInHand(t) => {
            format!("{} {t}", agree(who, "does not hold", "do not hold"))
        }
        IllegalAction::MustPlay => format!("{who} can lay a tile, so must"),
        IllegalAction::MustDraw => format!("{who} cannot lay a tile, so must draw"),
        IllegalAction::MustKeepDrawing => {
            format!("the tile {inner} drew does not fit: {who} must keep drawing")
        }
        IllegalAction::CannotDraw => format!("there is nothing {inner} may draw"),
        IllegalAction::CannotPass => format!("{who} may only pass when unable to lay or draw"),
        IllegalAction::MustClaim => format!("{who} must claim the points of the play first"),
        other => other.to_string(),
    }
}

/// A run of draws by one seat, folded into one log line: (line index, seat, tiles drawn
/// (`None`: hidden), ends, forced).
type DrawRun = (
    usize,
    Seat,
    Vec<Option<fiveup_engine::Tile>>,
    fiveup_engine::PipSet,
    bool,
);

/// A game in progress.
#[derive(Debug)]
pub struct Game {
    setup: Setup,
    state: State,
    bots: Vec<Option<Bot>>,
    recorder: Recorder,
    deal_seed: Seed,
    names: Vec<String>,
    lines: Vec<LogLine>,
    logged: usize,
    /// The log line of the latest draws, to fold a run of draws by one seat into one line:
    /// (line index, seat, tiles drawn (`None`: hidden), ends, forced).
    draws: Option<DrawRun>,
    sheet: Vec<SheetRow>,
    /// Whether the hand's lead line is still to be logged: after the draws it comes from
    /// (the no-double draws), before the first action.
    lead_pending: bool,
    /// The files this game's record was written to: it may write them again, and no other
    /// file that already holds something.
    written: Vec<PathBuf>,
    /// The learning setting: show the computer players' hands.
    pub show_hands: bool,
}

impl Game {
    /// Deal the first hand.
    pub fn new(setup: Setup) -> Result<Game, String> {
        setup.validate()?;
        let deal_seed = Seed::from_u64(setup.seed);
        let state = State::from_seed(setup.rules, &deal_seed).map_err(|e| e.to_string())?;
        let names = seat_names(&setup);
        // The record names the seats as the game does; who played them goes in a header.
        let players: Vec<String> = setup
            .seats
            .iter()
            .zip(&names)
            .map(|(k, n)| match k {
                SeatKind::Human => format!("{n}: human"),
                SeatKind::Computer(l) => format!("{n}: {l}"),
            })
            .collect();
        let mut recorder = Recorder::new(&state, Some(names.clone()), Some(deal_seed))
            .map_err(|e| e.to_string())?;
        recorder
            .tag("Players", &players.join(", "))
            .map_err(|e| e.to_string())?;
        let bots = setup
            .seats
            .iter()
            .enumerate()
            .map(|(i, k)| match k {
                SeatKind::Human => Ok(None),
                SeatKind::Computer(spec) => {
                    make_bot(spec, setup.seed ^ (0x9E37_79B9 * (i as u64 + 1)))
                        .map(Some)
                        .map_err(|e| e.to_string())
                }
            })
            .collect::<Result<Vec<_>, String>>()?;
        let mut g = Game {
            setup,
            state,
            bots,
            recorder,
            deal_seed,
            names,
            lines: Vec::new(),
            logged: 0,
            draws: None,
            sheet: Vec::new(),
            lead_pending: false,
            written: Vec::new(),
            show_hands: false,
        };
        g.hand_header();
        g.catch_up();
        Ok(g)
    }

    /// The setup it was made from.
    #[must_use]
    pub const fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The rules.
    #[must_use]
    pub const fn rules(&self) -> &Rules {
        &self.setup.rules
    }

    /// The human seat, if a person plays.
    #[must_use]
    pub fn human(&self) -> Option<Seat> {
        self.setup
            .seats
            .iter()
            .position(|s| *s == SeatKind::Human)
            .map(|i| Seat(i as u8))
    }

    /// The seat whose view the screens show: the human's, or seat 0 when computers play alone.
    #[must_use]
    pub fn viewer(&self) -> Seat {
        self.human().unwrap_or(Seat(0))
    }

    /// What the viewer may know.
    #[must_use]
    pub fn view(&self) -> View {
        self.state.view(self.viewer())
    }

    /// Seat names.
    #[must_use]
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// A side's name: its players' names joined.
    #[must_use]
    pub fn side_name(&self, side: Side) -> String {
        let r = self.rules();
        (0..r.players)
            .map(Seat)
            .filter(|&s| r.side_of(s) == side)
            .map(|s| self.names[s.idx()].clone())
            .collect::<Vec<_>>()
            .join(" & ")
    }

    /// Every line of the log so far.
    #[must_use]
    pub fn log(&self) -> &[LogLine] {
        &self.lines
    }

    /// Whether a computer player is to act now.
    #[must_use]
    pub fn computer_to_act(&self) -> bool {
        matches!(self.state.phase(), Phase::Play | Phase::Claim)
            && self.bots[self.state.to_move().idx()].is_some()
    }

    /// Whether the human is to act now.
    #[must_use]
    pub fn human_to_act(&self) -> bool {
        matches!(self.state.phase(), Phase::Play | Phase::Claim)
            && Some(self.state.to_move()) == self.human()
    }

    /// The human's only possible action when it is a draw or a pass (nothing to choose).
    #[must_use]
    pub fn forced_human_action(&self) -> Option<Action> {
        if !self.human_to_act() {
            return None;
        }
        let legal = self.view().legal_actions();
        match legal.as_slice() {
            [a @ (Action::Draw | Action::Pass)] => Some(*a),
            _ => None,
        }
    }

    /// Whether the player to move can do nothing but draw (a forced draw, one of a run).
    #[must_use]
    pub fn must_draw(&self) -> bool {
        self.state.phase() == Phase::Play
            && matches!(self.state.legal_actions().as_slice(), [Action::Draw])
    }

    /// One computer action; returns it, or `None` when no computer is to act.
    pub fn computer_step(&mut self) -> Option<Action> {
        if !self.computer_to_act() {
            return None;
        }
        let seat = self.state.to_move();
        let bot = self.bots[seat.idx()].as_mut()?;
        let a = bot.choose(&self.state);
        match self.recorder.apply(&mut self.state, a) {
            Ok(_) => {
                self.catch_up();
                Some(a)
            }
            Err(e) => {
                // A player only chooses from the legal list; say so rather than hang.
                self.lines.push(LogLine {
                    hand: self.hand_no(),
                    text: format!(
                        "{} chose an illegal action {a}: {e}",
                        self.names[seat.idx()]
                    ),
                    totals: None,
                });
                None
            }
        }
    }

    /// The human's action, checked against the human's view; an illegal action changes nothing.
    pub fn act(&mut self, a: Action) -> Result<Outcome, String> {
        if !self.human_to_act() {
            return Err("it is not your turn".into());
        }
        self.view().check(a).map_err(|e| explain(&e))?;
        let out = self
            .recorder
            .apply(&mut self.state, a)
            .map_err(|e| explain(&e))?;
        self.catch_up();
        Ok(out)
    }

    /// The phase of the game.
    #[must_use]
    pub fn phase(&self) -> Phase {
        self.state.phase()
    }

    /// The hand number, from 1.
    #[must_use]
    pub fn hand_no(&self) -> u16 {
        self.state.start().hand_no
    }

    /// Deal the next hand once a hand is over.
    pub fn next_hand(&mut self) -> Result<(), String> {
        match self.state.phase() {
            Phase::HandOver => {}
            Phase::GameOver => {
                return Err(
                    "the game is over: there is no next hand. Type again for a new game \
                     with the same players, save FILE to keep the record, or quit"
                        .into(),
                )
            }
            _ => return Err("the hand is not over: play on until it ends".into()),
        }
        self.state
            .next_hand_from_seed(&self.deal_seed)
            .map_err(|e| e.to_string())?;
        self.recorder.start_hand(&self.state);
        self.logged = 0;
        self.hand_header();
        self.catch_up();
        Ok(())
    }

    /// The same seats and rules again, with the next seed.
    pub fn play_again(&self) -> Result<Game, String> {
        let mut s = self.setup.clone();
        s.seed = s.seed.wrapping_add(1);
        Game::new(s)
    }

    /// The record so far (finished with the game's result once the game is over).
    #[must_use]
    pub fn record(&self) -> Record {
        self.recorder.clone().finish(&self.state)
    }

    /// Write the record: JSON when the name ends in `.json`, the text notation otherwise. A
    /// file that already holds something (another game's record) is never written over: only
    /// a new or empty file, or one this game wrote before.
    pub fn save(&mut self, path: &Path) -> Result<(), String> {
        if holds_something(path) && !self.written.iter().any(|w| same_file(w, path)) {
            return Err(format!(
                "{} already holds a record, which is kept: save under another name",
                path.display()
            ));
        }
        save_record(&self.record(), path)?;
        if !self.written.iter().any(|w| same_file(w, path)) {
            self.written.push(path.to_path_buf());
        }
        Ok(())
    }

    /// Whether this game has written its record to `path`.
    #[must_use]
    pub fn wrote(&self, path: &Path) -> bool {
        self.written.iter().any(|w| same_file(w, path))
    }

    /// The expert's evaluation of each of the human's legal actions, best first (empty when it
    /// is not the human's turn).
    #[must_use]
    pub fn hint(&self) -> Vec<ActionEval> {
        if !self.human_to_act() {
            return Vec::new();
        }
        let cfg = ExpertConfig {
            threads: 1,
            ..ExpertConfig::default()
        };
        let seed =
            self.setup.seed ^ (u64::from(self.hand_no()) << 32) ^ self.state.log().len() as u64;
        analyze(&self.view(), &cfg, seed)
    }

    /// Whether the expert's values are game outcomes rather than points: near the target it
    /// plays to win the game (the same test as the expert's, on the public scores).
    #[must_use]
    pub fn hint_in_wins(&self) -> bool {
        let r = self.rules();
        let margin = if r.small_scale() {
            fiveup_bots::NEAR_TARGET / 5
        } else {
            fiveup_bots::NEAR_TARGET
        };
        let t = i32::from(r.target);
        (0..r.sides()).any(|s| self.state.scores()[Side(s)] >= t - margin)
    }

    /// The hint in words, one line per legal action, best first, with the unit it is in:
    /// points gained over the opponents by the end of the hand, or near the target the chance
    /// to win the game.
    #[must_use]
    pub fn hint_lines(&self, evals: &[ActionEval]) -> (String, Vec<String>) {
        let wins = self.hint_in_wins();
        let unit = if wins {
            "chance to win the game".to_string()
        } else {
            "points gained by the end of the hand".to_string()
        };
        let lines = evals
            .iter()
            .map(|e| {
                if wins {
                    // A won game counts +WIN_VALUE and a lost one -WIN_VALUE.
                    let p = ((e.mean / fiveup_bots::WIN_VALUE + 1.0) / 2.0).clamp(0.0, 1.0);
                    let se = e.stderr / (2.0 * fiveup_bots::WIN_VALUE);
                    format!(
                        "{:<8} {:>4.0}% ±{:.0}",
                        e.action.to_string(),
                        p * 100.0,
                        se * 100.0
                    )
                } else {
                    format!(
                        "{:<8} {:+6.1} ±{:.1}",
                        e.action.to_string(),
                        e.mean,
                        e.stderr
                    )
                }
            })
            .collect();
        (unit, lines)
    }

    /// The tiles the viewer may see in each hand: its own always; the others' when the learning
    /// setting is on, when the hand or game is over, or when no person plays.
    #[must_use]
    pub fn visible_hands(&self) -> BySeat<Option<TileSet>> {
        let mut out = BySeat::<Option<TileSet>>::default();
        let open = self.show_hands || self.human().is_none() || self.state.is_hand_over();
        let me = self.viewer();
        for p in 0..self.rules().players {
            let s = Seat(p);
            if s == me {
                out[s] = Some(self.view().hand());
            } else if open {
                out[s] = Some(self.state.hand(s));
            }
        }
        out
    }

    /// The result of the hand just finished.
    #[must_use]
    pub fn result(&self) -> Option<&HandResult> {
        self.state.result()
    }

    /// The winning side once the game is over.
    #[must_use]
    pub fn winner(&self) -> Option<Side> {
        self.state.winner()
    }

    /// How the last hand's award was worked out, line by line.
    #[must_use]
    pub fn award_explanation(&self) -> Vec<String> {
        self.result()
            .map(|r| explain_award(self.rules(), r, &self.names, |s| self.side_name(s)))
            .unwrap_or_default()
    }

    fn hand_header(&mut self) {
        let v = self.view();
        let text = format!(
            "Hand {} dealt; scores {}.",
            v.start().hand_no,
            self.scores_text()
        );
        self.lines.push(LogLine {
            hand: v.start().hand_no,
            text,
            totals: None,
        });
        // Why this seat leads (which tile was shown, who holds it, or the lot) follows the
        // tiles drawn before the lead, once they are logged.
        self.lead_pending = true;
        self.draws = None;
    }

    /// Log why this seat leads, once, after the draws before the lead.
    fn log_lead(&mut self) {
        if std::mem::take(&mut self.lead_pending) {
            self.lines.push(LogLine {
                hand: self.hand_no(),
                text: self.lead_reason(),
                totals: None,
            });
            self.draws = None;
        }
    }

    /// Why the player to lead this hand leads, in words (the line of the hand's log after the
    /// deal and any tiles drawn before the lead).
    #[must_use]
    pub fn lead_reason(&self) -> String {
        lead_text(self.rules(), &self.view(), &self.names)
    }

    /// Why the game ended, when it did not end the usual way (a side reaching the target at a
    /// hand's end): by the hand limit, or at the target in the middle of a hand, before the
    /// hand was scored.
    #[must_use]
    pub fn end_reason(&self) -> Option<String> {
        let w = self.state.winner()?;
        let r = self.rules();
        let hand = self.hand_no();
        let target = i32::from(r.target);
        let reached = (0..r.sides()).any(|s| self.state.scores()[Side(s)] >= target);
        if !reached {
            let limit = r.effective_hand_limit();
            let whose = if r.hand_limit == 0 {
                " (the limit under award=subtract-own)"
            } else {
                ""
            };
            let hands = count_of(limit, "hand", "hands");
            return Some(if hand <= limit {
                format!(
                    "Nobody reached {target} in {hands}, the most this game plays{whose}: the \
                     highest score wins."
                )
            } else {
                format!(
                    "Nobody reached {target} in {hands}, the most this game plays{whose}; a tie \
                     for the highest score played on until hand {hand} broke it."
                )
            });
        }
        if self.state.result().is_none() {
            return Some(format!(
                "{} the target of {target} during hand {hand}: the game ends at once, before \
                 the hand is scored.",
                agree(&self.side_name(w), "reached", "reached")
            ));
        }
        None
    }

    /// Whether the player to move drew this turn under `draw-one` (one draw a turn), so that
    /// a pass now is not for want of tiles to draw.
    #[must_use]
    pub fn drew_once(&self) -> bool {
        let to_move = self.state.to_move();
        self.rules().draw_one
            && matches!(self.state.log().last(), Some(Entry::Draw { seat, .. }) if *seat == to_move)
    }

    /// Whether the last log line is a run of draws that may still grow (the seat that drew is
    /// still to move): it is final once someone else acts.
    #[must_use]
    pub fn line_growing(&self) -> bool {
        match &self.draws {
            Some((line, seat, ..)) => {
                *line + 1 == self.lines.len()
                    && self.state.phase() == Phase::Play
                    && self.state.to_move() == *seat
            }
            None => false,
        }
    }

    /// Every finished hand's line of the score sheet.
    #[must_use]
    pub fn sheet(&self) -> &[SheetRow] {
        &self.sheet
    }

    /// The score sheet's line for `hand` as the scores stand now: each side's points since the
    /// hand began, the award given, and the totals.
    fn sheet_row(&self, hand: u16, sides: usize, award: Vec<i32>) -> SheetRow {
        let start = self.state.start().scores;
        let totals: Vec<i32> = (0..sides)
            .map(|s| self.state.scores()[Side(s as u8)])
            .collect();
        SheetRow {
            hand,
            gained: (0..sides)
                .map(|s| totals[s] - start[Side(s as u8)])
                .collect(),
            award,
            totals,
        }
    }

    /// Whether the player counts for themselves (manual scoring): the screens then never show
    /// the count of the table during play.
    #[must_use]
    pub fn counting_hidden(&self) -> bool {
        self.rules().manual_scoring && matches!(self.phase(), Phase::Play | Phase::Claim)
    }

    /// Scores as `You 20, North 35`.
    #[must_use]
    pub fn scores_text(&self) -> String {
        let r = self.rules();
        (0..r.sides())
            .map(|s| {
                format!(
                    "{} {}",
                    self.side_name(Side(s)),
                    self.state.scores()[Side(s)]
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Totals as `You 20, North 35` from per-side scores.
    fn totals_text(&self, scores: &[i32]) -> String {
        (0..self.rules().sides())
            .map(|s| format!("{} {}", self.side_name(Side(s)), scores[usize::from(s)]))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Log every entry not logged yet, as the viewer may see it.
    fn catch_up(&mut self) {
        let open = self.human().is_none();
        let entries: Vec<Entry> = if open {
            self.state.log().to_vec()
        } else {
            self.view().history().to_vec()
        };
        let hand = self.hand_no();
        let hide_count = self.rules().manual_scoring;
        let new = &entries[self.logged.min(entries.len())..];
        // The running totals after each new entry: today's scores less what later entries made.
        let sides = usize::from(self.rules().sides());
        let mut after: Vec<Vec<i32>> = Vec::with_capacity(new.len());
        let mut running: Vec<i32> = (0..sides)
            .map(|s| self.state.scores()[Side(s as u8)])
            .collect();
        if let Some(r) = self.state.result() {
            // The end-of-hand award came after every action of the hand.
            for (s, v) in running.iter_mut().enumerate() {
                *v -= r.scored[Side(s as u8)];
            }
        }
        for e in new.iter().rev() {
            after.push(running.clone());
            let (seat, pts) = scored_by(e);
            if let Some(seat) = seat {
                running[usize::from(self.rules().side_of(seat).0)] -= i32::from(pts);
            }
        }
        after.reverse();
        let first = self.logged.min(entries.len());
        for (i, (e, totals)) in new.iter().zip(after).enumerate() {
            if !matches!(e, Entry::LeadDraw { .. }) {
                self.log_lead();
            }
            let prev = (first + i).checked_sub(1).map(|j| &entries[j]);
            let scored = scored_by(e).1 > 0;
            if let Entry::Draw {
                seat,
                tile,
                ends,
                forced,
            } = *e
            {
                if let Some((line, s, tiles, _, _)) = &mut self.draws {
                    if *s == seat && *line + 1 == self.lines.len() {
                        tiles.push(tile);
                        let text = draws_text(&self.names[seat.idx()], tiles, ends, forced);
                        let line = *line;
                        self.lines[line].text = text;
                        continue;
                    }
                }
                self.draws = Some((self.lines.len(), seat, vec![tile], ends, forced));
            } else {
                self.draws = None;
            }
            self.lines.push(LogLine {
                hand,
                text: describe_in(e, prev, &self.names, self.rules(), hide_count),
                totals: scored.then(|| self.totals_text(&totals)),
            });
        }
        self.log_lead();
        self.logged = entries.len();
        if self.state.is_hand_over() {
            if let Some(r) = self.state.result().cloned() {
                let end = match r.end {
                    HandEnd::Domino { seat } => format!("{} went out", self.names[seat.idx()]),
                    HandEnd::Blocked => "the hand is blocked".to_string(),
                };
                let won: Vec<String> = (0..self.rules().sides())
                    .map(Side)
                    .filter(|&s| r.scored[s] != 0)
                    .map(|s| format!("{} {:+}", self.side_name(s), r.scored[s]))
                    .collect();
                let award = if won.is_empty() {
                    "nobody scores for it".to_string()
                } else {
                    format!("award {}", won.join(", "))
                };
                let text = format!(
                    "Hand {hand} over: {end}; {award}; scores {}.",
                    self.scores_text()
                );
                if !self.lines.iter().any(|l| l.text == text) {
                    self.lines.push(LogLine {
                        hand,
                        text,
                        totals: None,
                    });
                    self.draws = None;
                }
                if self.sheet.last().map(|r| r.hand) != Some(hand) {
                    let award = (0..sides).map(|s| r.scored[Side(s as u8)]).collect();
                    let row = self.sheet_row(hand, sides, award);
                    self.sheet.push(row);
                }
            }
        }
        if self.state.winner().is_some() && self.sheet.last().map(|r| r.hand) != Some(hand) {
            // The game ended in the middle of a hand: its points, and no award.
            let row = self.sheet_row(hand, sides, vec![0; sides]);
            self.sheet.push(row);
        }
        if let Some(w) = self.state.winner() {
            let mut text = format!(
                "Game over: {} with {}.",
                agree(&self.side_name(w), "wins", "win"),
                self.scores_text()
            );
            if let Some(why) = self.end_reason() {
                text.push(' ');
                text.push_str(&why);
            }
            if self.lines.last().map(|l| &l.text) != Some(&text) {
                self.lines.push(LogLine {
                    hand,
                    text,
                    totals: None,
                });
                self.draws = None;
            }
        }
    }
}

/// `who` with the verb that agrees with it: "You hold", "North holds", "You & North hold".
#[must_use]
pub fn agree(who: &str, singular: &str, plural: &str) -> String {
    if who == "You" || who.contains(" & ") {
        format!("{who} {plural}")
    } else {
        format!("{who} {singular}")
    }
}

/// `n` and the noun, singular or plural: `1 pip`, `3 pips`.
#[must_use]
pub fn count_of(n: impl Into<i64>, singular: &str, plural: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { singular } else { plural })
}

/// Why the leader of a hand leads, from what the table has seen: the tile shown (the highest
/// double, the set's top double, the heaviest tile, the double drawn), the lot, or the rule
/// for later hands.
#[must_use]
pub fn lead_text(rules: &Rules, v: &View, names: &[String]) -> String {
    use fiveup_engine::{FirstLead, LeadKind, NextLead};
    let who = names
        .get(v.leader().idx())
        .cloned()
        .unwrap_or_else(|| v.leader().to_string());
    let plural = who == "You" || who.contains(" & ");
    let verb = |singular: &'static str, plural_form: &'static str| {
        if plural {
            plural_form
        } else {
            singular
        }
    };
    let leads_it = if rules.first_lead == FirstLead::HighestDoubleAny {
        format!("{} any tile", verb("leads", "lead"))
    } else {
        "must lead it".to_string()
    };
    // Under each-draws the tile that leads may have been drawn after the deal.
    let each_drew = rules.no_double == fiveup_engine::NoDouble::EachDraws
        && v.history()
            .iter()
            .any(|e| matches!(e, fiveup_engine::Entry::LeadDraw { .. }));
    match (v.lead_kind(), v.shown_tile()) {
        (LeadKind::HighestDouble, Some(t)) if each_drew => format!(
            "No double was dealt, so each player drew one tile: {who} {} {t}, the highest \
             double drawn, and {leads_it}.",
            verb("holds", "hold")
        ),
        (LeadKind::HeaviestTile, Some(t)) if each_drew => format!(
            "No double was dealt, nor drawn when each player drew one tile: {who} {} {t}, the \
             heaviest tile, and {leads_it}.",
            verb("holds", "hold")
        ),
        (LeadKind::HighestDouble, Some(t)) => {
            let what = if rules.first_lead == FirstLead::TopDouble {
                "the set's highest double"
            } else {
                "the highest double dealt"
            };
            format!(
                "{who} {} {t}, {what}, and {leads_it}.",
                verb("holds", "hold")
            )
        }
        (LeadKind::HeaviestTile, Some(t)) => format!(
            "No double was dealt: {who} {} {t}, the heaviest tile, and {leads_it}.",
            verb("holds", "hold")
        ),
        (LeadKind::DrawUntilDouble, Some(t)) => format!(
            "No double was dealt: the players drew in turn until {who} drew {t}, and {leads_it}."
        ),
        (LeadKind::Lot, _) => {
            format!("The lot chose {who} to lead (no tile decides it): any tile may lead.")
        }
        (LeadKind::Free, _) => match rules.next_lead {
            NextLead::Winner => format!(
                "{who} won the last hand and {} any tile.",
                verb("leads", "lead")
            ),
            NextLead::Rotate => format!("The lead passes round the table to {who}: any tile."),
            NextLead::FirstLead => format!("{who} {} the hand.", verb("leads", "lead")),
        },
        (_, None) => format!("{who} {} the hand.", verb("leads", "lead")),
    }
}

/// The seat that scored by an entry, and the points (0 when it scored nothing).
fn scored_by(e: &Entry) -> (Option<Seat>, u16) {
    match *e {
        Entry::Play { seat, points, .. }
        | Entry::Claim { seat, points, .. }
        | Entry::Muggins { seat, points } => (Some(seat), points),
        _ => (None, 0),
    }
}

/// A run of draws by one player in words: `North drew 6 tiles (nothing to play on 1 or 2).`
fn draws_text(
    who: &str,
    tiles: &[Option<fiveup_engine::Tile>],
    ends: fiveup_engine::PipSet,
    forced: bool,
) -> String {
    let why = if forced {
        format!(" (nothing to play on {})", pips_text(ends))
    } else {
        String::new()
    };
    let known: Vec<String> = tiles.iter().flatten().map(ToString::to_string).collect();
    if tiles.len() == 1 {
        return match tiles[0] {
            Some(t) => format!("{who} drew {t}{why}."),
            None => format!("{who} drew a tile{why}."),
        };
    }
    if known.len() == tiles.len() {
        let list = format!(
            "{} and {}",
            known[..known.len() - 1].join(", "),
            known[known.len() - 1]
        );
        format!("{who} drew {} tiles, {list}{why}.", tiles.len())
    } else {
        format!("{who} drew {} tiles{why}.", tiles.len())
    }
}

/// An illegal action explained to a player.
#[must_use]
pub fn explain(e: &IllegalAction) -> String {
    match e {
        // The engine's message gives the right figure away; the player counts again.
        IllegalAction::WrongClaim { claimed, .. } => format!(
            "a claim of {claimed} does not match what your play scores; count the ends again \
             (claim 0 if it scored nothing)"
        ),
        other => other.to_string(),
    }
}

/// Check before a game that a record can be written to `path`, so that a game is not played
/// for a record that is then lost. A file that does not exist yet is not left behind.
pub fn check_save_path(path: &Path) -> Result<(), String> {
    if path.is_dir() {
        return Err(format!(
            "cannot save the record to {}: it is a directory",
            path.display()
        ));
    }
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| format!("cannot save the record to {}: {e}", path.display()))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// Whether a file exists at `path` with something in it (an empty file holds no record).
fn holds_something(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.len() > 0)
}

/// Whether two paths name the same file (`./a.txt` and `a.txt` included).
fn same_file(a: &Path, b: &Path) -> bool {
    a == b
        || matches!(
            (std::fs::canonicalize(a), std::fs::canonicalize(b)),
            (Ok(x), Ok(y)) if x == y
        )
}

/// `base` with a number before its extension: `game.txt` 2 -> `game-2.txt`; 1 is `base`.
#[must_use]
pub fn numbered_file(base: &Path, n: u32) -> PathBuf {
    if n <= 1 {
        return base.to_path_buf();
    }
    let stem = base
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let name = match base.extension() {
        Some(e) => format!("{stem}-{n}.{}", e.to_string_lossy()),
        None => format!("{stem}-{n}"),
    };
    base.with_file_name(name)
}

/// Where the record of the next game of a session goes when records are kept in `base`
/// (`--save`): `base` itself, else the first of `base` numbered (`game-2.txt`, `game-3.txt`,
/// ...) that no game of the session has taken (`taken`) and that holds nothing yet, so that
/// no record is ever written over.
#[must_use]
pub fn record_file(base: &Path, taken: &[PathBuf]) -> PathBuf {
    (1..)
        .map(|n| numbered_file(base, n))
        .find(|p| !holds_something(p) && !taken.iter().any(|t| same_file(t, p)))
        .unwrap_or_else(|| base.to_path_buf())
}

/// What an interrupted game (Ctrl-C) says and its exit status, the same in full screen and
/// in plain mode: where the record was saved and how to see it again, or that it was not.
/// `saved` is the outcome of saving to `path` (`None`: no game had begun).
#[must_use]
pub fn interrupt_report(path: Option<&Path>, saved: Option<Result<(), String>>) -> (String, u8) {
    match (path, saved) {
        (Some(p), Some(Ok(()))) => (
            format!(
                "Interrupted: record saved to {0} (fiveup play --replay {0} steps through it).",
                p.display()
            ),
            130,
        ),
        (Some(_), Some(Err(e))) => (
            format!("fiveup: interrupted, and the record was NOT saved: {e}"),
            1,
        ),
        (_, None) => (
            "Interrupted before a game began: nothing to save.".to_string(),
            130,
        ),
        (None, Some(_)) => (
            "Interrupted: the game was not saved (--save FILE keeps the record).".to_string(),
            130,
        ),
    }
}

/// Write a record: JSON when the name ends in `.json`, the text notation otherwise.
pub fn save_record(r: &Record, path: &Path) -> Result<(), String> {
    let body = if path.extension().is_some_and(|e| e == "json") {
        r.to_json()
    } else {
        r.to_text()
    };
    std::fs::write(path, body).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// One log entry in words.
#[must_use]
pub fn describe(e: &Entry, names: &[String]) -> String {
    describe_as(e, names, false)
}

/// One log entry in words as the rules and the entry before it (`prev`) explain it: a tile
/// drawn before the lead because no double was dealt, a pass after the one draw a turn of
/// `draw-one` (not for want of tiles to draw); with `hide_count` (manual scoring, during play)
/// a play does not say its count.
#[must_use]
pub fn describe_in(
    e: &Entry,
    prev: Option<&Entry>,
    names: &[String],
    rules: &Rules,
    hide_count: bool,
) -> String {
    use fiveup_engine::NoDouble;
    let who = |s: Seat| names.get(s.idx()).cloned().unwrap_or_else(|| s.to_string());
    match *e {
        Entry::LeadDraw { seat, tile } if rules.no_double == NoDouble::EachDraws => {
            let what = tile.map_or_else(|| "a tile".to_string(), |t| t.to_string());
            format!(
                "{} drew {what} (no double was dealt: each player draws one tile).",
                who(seat)
            )
        }
        Entry::Pass { seat, ends }
            if rules.draw_one
                && matches!(prev, Some(Entry::Draw { seat: s, .. }) if *s == seat) =>
        {
            format!(
                "{} passed (the tile drawn does not fit either: still nothing to play on {}, \
                 and one draw a turn).",
                who(seat),
                pips_text(ends)
            )
        }
        _ => describe_as(e, names, hide_count),
    }
}

/// One log entry in words; with `hide_count` (manual scoring, where the players count for
/// themselves) a play does not say the count it made.
#[must_use]
pub fn describe_as(e: &Entry, names: &[String], hide_count: bool) -> String {
    let who = |s: Seat| names.get(s.idx()).cloned().unwrap_or_else(|| s.to_string());
    match *e {
        Entry::LeadDraw { seat, tile } => match tile {
            Some(t) => format!("{} drew {t} looking for a double.", who(seat)),
            None => format!("{} drew a tile looking for a double.", who(seat)),
        },
        Entry::Play {
            seat,
            tile,
            arm,
            count,
            points,
        } => {
            let place = match arm {
                None => "led".to_string(),
                Some(a) => format!("laid {tile} on {a}"),
            };
            let place = if arm.is_none() {
                format!("{place} {tile}")
            } else {
                place
            };
            let score = if points > 0 {
                format!(" and scored {points}")
            } else {
                String::new()
            };
            if hide_count {
                format!("{} {place}.", who(seat))
            } else {
                format!("{} {place}: count {count}{score}.", who(seat))
            }
        }
        Entry::Draw {
            seat,
            tile,
            ends,
            forced,
        } => {
            let why = if forced {
                format!(" (nothing to play on {})", pips_text(ends))
            } else {
                String::new()
            };
            match tile {
                Some(t) => format!("{} drew {t}{why}.", who(seat)),
                None => format!("{} drew a tile{why}.", who(seat)),
            }
        }
        Entry::Pass { seat, ends } => format!(
            "{} passed (nothing to play on {}, nothing to draw).",
            who(seat),
            pips_text(ends)
        ),
        Entry::Claim {
            seat,
            claimed,
            points,
        } => format!(
            "{} claimed {claimed}{}.",
            who(seat),
            if points == claimed {
                String::new()
            } else {
                format!(" and scored {points}")
            }
        ),
        Entry::Muggins { seat, points } => format!(
            "{} called Muggins and took {}.",
            who(seat),
            count_of(points, "missed point", "missed points")
        ),
    }
}

/// Pips like `6, 3 or 0`.
#[must_use]
pub fn pips_text(p: fiveup_engine::PipSet) -> String {
    let v: Vec<String> = p.iter().map(|x| x.to_string()).collect();
    match v.len() {
        0 => "nothing".into(),
        1 => v[0].clone(),
        n => format!("{} or {}", v[..n - 1].join(", "), v[n - 1]),
    }
}

/// How a hand's award was worked out, in words, from the engine's result.
pub fn explain_award(
    rules: &Rules,
    r: &HandResult,
    names: &[String],
    side_name: impl Fn(Side) -> String,
) -> Vec<String> {
    let mut out = Vec::new();
    let sides = rules.sides();
    out.push(match r.end {
        HandEnd::Domino { seat } => format!("{} went out.", names[seat.idx()]),
        HandEnd::Blocked => "Blocked: nobody could play or draw; the fewest pips win.".into(),
    });
    let pips: Vec<String> = (0..rules.players)
        .map(|p| format!("{} {}", names[usize::from(p)], r.pips[Seat(p)]))
        .collect();
    out.push(format!(
        "Pips left: {}{}.",
        pips.join(", "),
        if rules.doubles_count_one_half {
            " (doubles count one half)"
        } else {
            ""
        }
    ));
    let small = rules.cribbage_scale || rules.play_scoring == PlayScoring::FivesAndThrees;
    let scale = |v: u32| {
        if small {
            format!("{} ÷ 5 = {}", v, v / 5)
        } else {
            v.to_string()
        }
    };
    let winners: Vec<Side> = (0..sides).map(Side).filter(|&s| r.won(s)).collect();
    let k = winners.len() as u32;
    match rules.award {
        Award::SubtractOwn => {
            for s in (0..sides).map(Side) {
                let p = u32::from(r.side_pips[s]);
                let who = side_name(s);
                let own = if who == "You" {
                    "your"
                } else if who.contains(" & ") {
                    "their"
                } else {
                    "its"
                };
                out.push(format!(
                    "{} {own} own {}, rounded to {}: {}.",
                    agree(&who, "loses", "lose"),
                    count_of(p, "pip", "pips"),
                    round5(p),
                    scale(round5(p))
                ));
            }
        }
        _ if winners.is_empty() => out.push("Every side tied: nobody scores.".into()),
        Award::Opponents | Award::Difference => {
            let base = u32::from(winners.iter().map(|&s| r.side_pips[s]).min().unwrap_or(0));
            let base = if matches!(r.end, HandEnd::Blocked) {
                base
            } else {
                0
            };
            let losers: Vec<Side> = (0..sides).map(Side).filter(|&s| !r.won(s)).collect();
            let total: u32 = if rules.award == Award::Opponents {
                losers.iter().map(|&s| u32::from(r.side_pips[s])).sum()
            } else {
                losers
                    .iter()
                    .map(|&s| round5(u32::from(r.side_pips[s]) - base))
                    .sum()
            };
            let how = if rules.award == Award::Opponents {
                format!("the opponents' pips total {total}")
            } else {
                format!("each losing side's pips less the winner's {base}, rounded, total {total}")
            };
            let each = if k == 1 {
                round5(total)
            } else {
                round5_share(total, k)
            };
            let share = if k == 1 {
                format!("rounded to the nearest 5: {each}")
            } else {
                format!("shared by {k}, rounded to the nearest 5: {each} each")
            };
            let names: Vec<String> = winners.iter().map(|&s| side_name(s)).collect();
            out.push(format!("{}: {how}; {share}.", names.join(" and ")));
            if small {
                out.push(format!("On the small scale: {}.", scale(each)));
            }
        }
    }
    for s in (0..sides).map(Side) {
        if r.scored[s] != r.awards[s] {
            out.push(format!(
                "{}: the award of {} is refused (it would pass the exact target).",
                side_name(s),
                r.awards[s]
            ));
        }
    }
    let scored: Vec<String> = (0..sides)
        .map(|s| format!("{} {:+}", side_name(Side(s)), r.scored[Side(s)]))
        .collect();
    out.push(format!("Scored: {}.", scored.join(", ")));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_of_computers_finishes_and_its_record_replays() {
        let mut setup = Setup::new(3);
        setup.seats = vec![
            SeatKind::Computer("greedy".into()),
            SeatKind::Computer("club".into()),
        ];
        let mut g = Game::new(setup).unwrap();
        let mut steps = 0;
        while g.phase() != Phase::GameOver {
            if g.phase() == Phase::HandOver {
                assert!(!g.award_explanation().is_empty());
                g.next_hand().unwrap();
            } else {
                assert!(g.computer_step().is_some());
            }
            steps += 1;
            assert!(steps < 10_000);
        }
        let replayed = g.record().replay().unwrap();
        assert_eq!(replayed.scores, g.state.scores().0[..2].to_vec());
        assert!(g.log().iter().any(|l| l.text.starts_with("Game over")));
    }

    #[test]
    fn the_human_sees_only_their_own_tiles_until_the_hand_ends() {
        let mut g = Game::new(Setup::new(5)).unwrap();
        let v = g.visible_hands();
        assert!(v[Seat(0)].is_some() && v[Seat(1)].is_none());
        g.show_hands = true;
        assert!(g.visible_hands()[Seat(1)].is_some());
        g.show_hands = false;
        // An illegal action changes nothing.
        let before = g.log().len();
        assert!(g.act(Action::Pass).is_err());
        assert_eq!(g.log().len(), before);
    }

    #[test]
    fn a_record_error_names_the_seat_and_speaks_of_it() {
        use fiveup_engine::notation::{ReplayError, ReplayErrorKind};
        let e = ReplayError {
            hand: Some(2),
            action: Some(7),
            token: None,
            kind: ReplayErrorKind::Illegal {
                seat: Seat(1),
                error: IllegalAction::NotInHand(fiveup_engine::Tile::new(4, 2)),
            },
        };
        let names = display_names(&["S0".to_string(), "S1".to_string()], 2);
        assert_eq!(names, vec!["South".to_string(), "North".to_string()]);
        assert_eq!(
            replay_error_text(&e, &names),
            "hand 2, action 7: not allowed for North: North does not hold 4-2"
        );
    }

    /// The log line after `Hand 1 dealt` for the first seed whose deal passes `pick`.
    fn lead_lines(rules: &str, pick: impl Fn(&Game) -> bool) -> (Game, String) {
        for seed in 1..200 {
            let mut setup = Setup::new(seed);
            setup.rules = Rules::parse(rules).unwrap();
            let g = Game::new(setup).unwrap();
            if pick(&g) {
                let line = g.log()[1].text.clone();
                assert_eq!(line, g.lead_reason());
                return (g, line);
            }
        }
        panic!("no seed fits");
    }

    #[test]
    fn a_hand_says_why_its_leader_leads() {
        let you = |g: &Game| g.view().leader() == Seat(0);
        let north = |g: &Game| g.view().leader() == Seat(1);
        let (_, l) = lead_lines("five-up", you);
        assert!(
            l.starts_with("You hold ")
                && l.ends_with(", the highest double dealt, and must lead it."),
            "{l}"
        );
        let (_, l) = lead_lines("five-up", north);
        assert!(l.starts_with("North holds "), "{l}");
        let (_, l) = lead_lines("five-up first-lead=lot", north);
        assert_eq!(
            l,
            "The lot chose North to lead (no tile decides it): any tile may lead."
        );
        let (g, l) = lead_lines("five-up first-lead=highest-double-any", you);
        let t = g.view().shown_tile().unwrap();
        assert_eq!(
            l,
            format!("You hold {t}, the highest double dealt, and lead any tile.")
        );
        let (_, l) = lead_lines("five-up first-lead=top-double", north);
        assert_eq!(
            l,
            "North holds 6-6, the set's highest double, and must lead it."
        );
        let (_, l) = lead_lines(
            "five-up no-double=heaviest-tile first-lead=highest-double-any",
            |g| g.view().lead_kind() == fiveup_engine::LeadKind::HeaviestTile,
        );
        assert!(
            l.starts_with("No double was dealt: ") && l.contains("the heaviest tile"),
            "{l}"
        );
        // A later hand: its winner leads.
        let mut setup = Setup::new(3);
        setup.seats = vec![
            SeatKind::Computer("club".into()),
            SeatKind::Computer("club".into()),
        ];
        let mut g = Game::new(setup).unwrap();
        while g.phase() != Phase::HandOver {
            g.computer_step().unwrap();
        }
        let winner = match g.result().unwrap().end {
            HandEnd::Domino { seat } => g.names()[seat.idx()].clone(),
            HandEnd::Blocked => panic!("seed 3's first hand is blocked: pick another seed"),
        };
        g.next_hand().unwrap();
        assert_eq!(
            g.lead_reason(),
            format!("{winner} won the last hand and leads any tile.")
        );
        assert!(g.log().iter().any(|l| l.text == g.lead_reason()));
    }

    #[test]
    fn the_human_seat_and_counts_are_worded_as_english() {
        assert_eq!(agree("You", "holds", "hold"), "You hold");
        assert_eq!(agree("North", "goes out", "go out"), "North goes out");
        assert_eq!(agree("You & North", "wins", "win"), "You & North win");
        assert_eq!(count_of(1, "pip", "pips"), "1 pip");
        assert_eq!(count_of(0, "pip", "pips"), "0 pips");
        assert_eq!(count_of(3, "pip", "pips"), "3 pips");
        let t = fiveup_engine::Tile::new(4, 2);
        assert_eq!(
            explain_for(&IllegalAction::NotInHand(t), "You"),
            "You do not hold 4-2"
        );
        assert_eq!(
            explain_for(&IllegalAction::NotYourTurn, "You"),
            "it is not your turn"
        );
        assert_eq!(
            explain_for(&IllegalAction::MustKeepDrawing, "You"),
            "the tile you drew does not fit: You must keep drawing"
        );
        let e = Entry::Muggins {
            seat: Seat(0),
            points: 1,
        };
        assert_eq!(
            describe(&e, &["You".into(), "North".into()]),
            "You called Muggins and took 1 missed point."
        );
    }

    #[test]
    fn the_subtract_own_award_speaks_to_you() {
        let mut setup = Setup::new(4);
        setup.rules = Rules::parse("five-up award=subtract-own").unwrap();
        setup.seats = vec![SeatKind::Human, SeatKind::Computer("club".into())];
        let mut g = Game::new(setup).unwrap();
        while g.phase() == Phase::Play || g.phase() == Phase::Claim {
            if g.computer_to_act() {
                g.computer_step().unwrap();
            } else {
                let a = g.view().legal_actions()[0];
                g.act(a).unwrap();
            }
        }
        let lines = g.award_explanation();
        assert!(
            lines.iter().any(|l| l.starts_with("You lose your own ")),
            "{lines:?}"
        );
        assert!(
            lines.iter().any(|l| l.starts_with("North loses its own ")),
            "{lines:?}"
        );
        assert!(!lines.iter().any(|l| l.contains(" 1 pips")), "{lines:?}");
    }

    #[test]
    fn next_after_the_game_is_over_says_so() {
        let mut setup = Setup::new(3);
        setup.seats = vec![
            SeatKind::Computer("greedy".into()),
            SeatKind::Computer("club".into()),
        ];
        let mut g = Game::new(setup).unwrap();
        assert!(g
            .next_hand()
            .unwrap_err()
            .starts_with("the hand is not over"));
        while g.phase() != Phase::GameOver {
            if g.phase() == Phase::HandOver {
                g.next_hand().unwrap();
            } else {
                g.computer_step().unwrap();
            }
        }
        let e = g.next_hand().unwrap_err();
        assert!(
            e.starts_with("the game is over") && e.contains("again"),
            "{e}"
        );
    }

    #[test]
    fn setups_are_checked() {
        let mut s = Setup::new(1);
        s.seats.push(SeatKind::Human);
        assert!(Game::new(s).is_err());
        let mut s = Setup::new(1);
        s.seats[1] = SeatKind::Computer("grandmaster".into());
        assert!(Game::new(s).unwrap_err().contains("unknown player"));
    }
}
