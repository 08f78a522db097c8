//! What the screens show: the start form, the game table and the replay viewer, as the app
//! keeps them and the drawing code reads them. [`crate::app`] changes this state in answer to
//! keys, clicks and ticks; [`crate::ui`] draws it from a [`ScreenView`] and imports nothing
//! from the app. Imports run one way: the runner ([`crate::term`]) to the app and the drawing,
//! the app to the drawing, both to this module.

use fiveup_bots::review::MoveReview;
use fiveup_bots::ActionEval;
use fiveup_engine::notation::{Record, ReplayedGame};
use fiveup_engine::{ArmId, FirstLead, Preset, Rules, State};

use crate::game::{Game, SeatKind, Setup, CHEATING_LEVEL, LEVELS};

/// What the drawing code reads: the screen showing, and whether to draw it without colours.
#[derive(Clone, Copy, Debug)]
pub struct ScreenView<'a> {
    /// The screen showing.
    pub screen: &'a Screen,
    /// Draw without colours.
    pub no_color: bool,
}

/// Something the drawing code can draw: it gives a [`ScreenView`] of itself. The app is one
/// (`ui::render(&app, f)`), a view itself another.
pub trait HasScreen {
    /// The view to draw.
    fn screen_view(&self) -> ScreenView<'_>;
}

impl HasScreen for ScreenView<'_> {
    fn screen_view(&self) -> ScreenView<'_> {
        *self
    }
}

/// Something on the screen a click can hit, found by [`crate::ui::render`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Target {
    /// A tile of the hand, by position.
    HandTile(usize),
    /// An open end of the layout.
    End(ArmId),
}

/// Where each clickable thing was drawn: `(x, y, width, height, target)`.
pub type HitMap = Vec<(u16, u16, u16, u16, Target)>;

/// The levels offered on the start screen: the fair ones, then the labelled cheat.
pub const LEVEL_CHOICES: [&str; 6] = [
    LEVELS[0],
    LEVELS[1],
    LEVELS[2],
    LEVELS[3],
    LEVELS[4],
    CHEATING_LEVEL,
];

/// The sets offered on the start screen, by their highest pip.
pub const SET_CHOICES: [u8; 3] = [6, 9, 12];

/// The first-lead rules offered on the start screen (besides the preset's own).
pub const FIRST_LEAD_CHOICES: [(FirstLead, &str); 4] = [
    (FirstLead::HighestDouble, "highest-double"),
    (FirstLead::HighestDoubleAny, "highest-double-any"),
    (FirstLead::Lot, "lot"),
    (FirstLead::TopDouble, "top-double"),
];

/// A preset described in one line, for the start screen.
#[must_use]
pub const fn preset_description(p: Preset) -> &'static str {
    match p {
        Preset::FiveUp => "highest double leads and spins",
        Preset::AllFives => "leader by lot; first double spins",
        Preset::PagatFiveUp => "by lot; every double spins",
        Preset::Fives => "7 tiles each; highest double, any tile",
        Preset::Muggins => "no spinner: two ends",
        Preset::Cross => "every double spins",
        Preset::FivesAndThrees => "5s and 3s score, to 61",
        Preset::Draw => "no play scoring; draw when stuck",
        Preset::Block => "no play scoring; no drawing",
        Preset::CrossDominoes => "draw game; the cross fills first",
        Preset::Cribbage => "Five Up scored in fifths, to 61",
        Preset::PartyTwelve => "double-twelve, 5-8 players, two ends",
    }
}

/// A preset's game by its name, for titles: `Fives and Threes`, `Party game (double-twelve)`.
#[must_use]
pub const fn preset_title(p: Preset) -> &'static str {
    match p {
        Preset::FiveUp => "Five Up",
        Preset::AllFives => "All Fives",
        Preset::PagatFiveUp => "Five Up (pagat)",
        Preset::Fives => "Tournament Fives",
        Preset::Muggins => "Muggins",
        Preset::Cross => "Cross",
        Preset::FivesAndThrees => "Fives and Threes",
        Preset::Draw => "Draw game",
        Preset::Block => "Block game",
        Preset::CrossDominoes => "Cross Dominoes",
        Preset::Cribbage => "Five Up (cribbage scale)",
        Preset::PartyTwelve => "Party game (double-twelve)",
    }
}

/// The preset `rules` are nearest: the one whose own rules, for the same table and set, differ
/// from them in the fewest options (the first in [`Preset::ALL`] on a tie). A record or a game
/// keeps its rules, not the preset's name; this names the game they play.
#[must_use]
pub fn nearest_preset(rules: &Rules) -> Preset {
    let mine = rules.to_options_string();
    let words: Vec<&str> = mine.split_whitespace().collect();
    let differ = |p: Preset| {
        let base = Rules::preset_with_set(p, rules.players, rules.set).to_options_string();
        let theirs: Vec<&str> = base.split_whitespace().collect();
        words.iter().filter(|w| !theirs.contains(w)).count()
            + theirs.iter().filter(|w| !words.contains(w)).count()
    };
    Preset::ALL
        .into_iter()
        .min_by_key(|p| differ(*p))
        .unwrap_or(Preset::FiveUp)
}

/// The title of the game `rules` play: the nearest preset's name.
#[must_use]
pub fn game_title(rules: &Rules) -> &'static str {
    preset_title(nearest_preset(rules))
}

/// The rules in words, for the start screen: the table, the lead, the layout, the scoring and
/// the end of the game, one phrase each.
#[must_use]
pub fn rules_in_words(r: &Rules) -> String {
    use fiveup_engine::{
        Award, GameEnd, MugginsCall, NextLead, NoDouble, PlayScoring, SpinnerRule, SproutRule,
    };
    let mut out: Vec<String> = Vec::new();
    out.push(format!(
        "{} players{}, {} tiles each, to {}",
        r.players,
        if r.partnerships {
            " in two partnerships"
        } else {
            ""
        },
        r.hand_size,
        r.target
    ));
    out.push(
        match r.first_lead {
            FirstLead::HighestDouble => "the highest double leads first",
            FirstLead::HighestDoubleAny => "the highest double's holder leads first, any tile",
            FirstLead::Lot => "the first leader is chosen by lot, any tile",
            FirstLead::TopDouble => "the set's top double leads first",
        }
        .to_string(),
    );
    out.push(
        match r.next_lead {
            NextLead::Winner => "then the hand's winner leads",
            NextLead::Rotate => "then the lead passes round",
            NextLead::FirstLead => "every hand opens like the first",
        }
        .to_string(),
    );
    if r.first_lead != FirstLead::Lot && r.first_lead != FirstLead::TopDouble {
        out.push(
            match r.no_double {
                NoDouble::Redeal => "no double dealt: deal again",
                NoDouble::DrawUntilDouble => "no double dealt: draw until one comes",
                NoDouble::HeaviestTile => "no double dealt: the heaviest tile leads",
                NoDouble::EachDraws => "no double dealt: everyone draws one tile",
            }
            .to_string(),
        );
    }
    out.push(
        match (r.spinner, r.sprouts) {
            (SpinnerRule::None, _) => "no spinner",
            (SpinnerRule::First, SproutRule::AfterBothSides) => {
                "the first double spins once both its sides are covered"
            }
            (SpinnerRule::First, SproutRule::AtOnce) => "the first double spins at once",
            (SpinnerRule::All, SproutRule::AfterBothSides) => {
                "every double spins once both its sides are covered"
            }
            (SpinnerRule::All, SproutRule::AtOnce) => "every double spins at once",
        }
        .to_string(),
    );
    if r.cross_first {
        out.push("the cross is filled first".into());
    }
    out.push(if !r.drawing {
        "no drawing: pass when stuck".to_string()
    } else if r.draw_one {
        format!(
            "draw one tile when stuck, and pass if it does not fit{}",
            if r.voluntary_draw {
                ", or draw at will"
            } else {
                ""
            }
        )
    } else if r.voluntary_draw {
        "draw when stuck, or at will".to_string()
    } else {
        "draw when stuck".to_string()
    });
    if r.boneyard_keep > 0 {
        out.push(format!(
            "{} left in the boneyard",
            crate::game::count_of(r.boneyard_keep, "tile", "tiles")
        ));
    }
    out.push(
        match r.play_scoring {
            PlayScoring::Fives => "multiples of 5 score in play",
            PlayScoring::FivesAndThrees => "5s and 3s score in play",
            PlayScoring::None => "no scoring in play",
        }
        .to_string(),
    );
    if r.manual_scoring {
        out.push(
            match r.muggins_call {
                MugginsCall::Next => "you count your own points; the next player may call Muggins",
                MugginsCall::Any => "you count your own points; any opponent may call Muggins",
            }
            .into(),
        );
    }
    out.push(
        match r.award {
            Award::Opponents => "the hand's winner takes the others' pips",
            Award::Difference => "the hand's winner takes the difference in pips",
            Award::SubtractOwn => "each side loses its own pips",
        }
        .to_string(),
    );
    if r.doubles_count_one_half {
        out.push("doubles left count one half".into());
    }
    if r.cribbage_scale {
        out.push("scores divided by 5".into());
    }
    if r.exact_target {
        out.push("the target must be hit exactly".into());
    }
    let mut end = match r.game_end {
        GameEnd::Immediate => "the game ends as soon as a side reaches the target",
        GameEnd::FinishHand => "the hand is finished before the game ends",
    }
    .to_string();
    match (r.hand_limit, r.effective_hand_limit()) {
        (_, 0) => {}
        (0, n) => end.push_str(&format!(
            ", or after hand {n} at the latest (the limit of award=subtract-own, whose scores \
             may fall): then the highest score wins"
        )),
        (_, n) => end.push_str(&format!(
            ", or after hand {n} at the latest: then the highest score wins"
        )),
    }
    out.push(end);
    let mut text = out.join("; ");
    text.push('.');
    text[..1].to_uppercase() + &text[1..]
}

/// The set's name in words: `double-twelve (91 tiles)`.
#[must_use]
pub fn set_label(set: u8) -> String {
    match set {
        6 => "double-six (28 tiles)".into(),
        9 => "double-nine (55 tiles)".into(),
        12 => "double-twelve (91 tiles)".into(),
        s => format!("double-{s}"),
    }
}

/// A field of the start screen.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Field {
    /// The set of dominoes.
    Set,
    /// Number of players.
    Players,
    /// Partnerships (four or six players).
    Partners,
    /// The level of the computer in this seat.
    Level(usize),
    /// The rules preset.
    Preset,
    /// Who leads the first hand.
    FirstLead,
    /// Further options, `key=value ...`.
    Options,
    /// The target score.
    Target,
    /// The seed.
    Seed,
    /// The start button.
    Start,
}

/// The start screen's choices.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StartForm {
    /// The set, by its highest pip: 6, 9 or 12.
    pub set: u8,
    /// Players, 2 to 8.
    pub players: u8,
    /// Partnerships with four or six players.
    pub partners: bool,
    /// The player of seats 1 to 7: a level of [`LEVEL_CHOICES`], or any player spec given on
    /// the command line (`expert`, `pimc:threads=2`), played as named.
    pub levels: [String; 7],
    /// Index into `Preset::ALL`.
    pub preset: usize,
    /// Index into [`FIRST_LEAD_CHOICES`], or `None` for the preset's rule.
    pub first_lead: Option<usize>,
    /// Further options.
    pub options: String,
    /// The target (empty: the preset's).
    pub target: String,
    /// The seed.
    pub seed: String,
    /// The field with the cursor.
    pub field: usize,
    /// What was wrong with the last attempt to start.
    pub error: Option<String>,
}

impl StartForm {
    /// A form showing `setup` (its rules described by `preset` and `options`).
    #[must_use]
    pub fn from_setup(setup: &Setup, preset: Preset, options: &str) -> StartForm {
        let mut levels: [String; 7] = std::array::from_fn(|_| LEVEL_CHOICES[2].to_string());
        for (i, s) in setup.seats.iter().skip(1).enumerate().take(7) {
            if let SeatKind::Computer(l) = s {
                levels[i].clone_from(l);
            }
        }
        let r = &setup.rules;
        let base = Rules::preset_with_set(preset, r.players, r.set);
        let default_target = base.target;
        StartForm {
            set: r.set,
            players: r.players,
            partners: r.partnerships,
            levels,
            preset: Preset::ALL.iter().position(|p| *p == preset).unwrap_or(0),
            first_lead: (r.first_lead != base.first_lead)
                .then(|| {
                    FIRST_LEAD_CHOICES
                        .iter()
                        .position(|(f, _)| *f == r.first_lead)
                })
                .flatten(),
            // The set, the table, the first lead and the target have fields of their own.
            options: options
                .split_whitespace()
                .filter(|w| {
                    ![
                        "set=",
                        "players=",
                        "partnerships=",
                        "partners=",
                        "first-lead=",
                        "target=",
                    ]
                    .iter()
                    .any(|k| w.starts_with(k))
                })
                .collect::<Vec<_>>()
                .join(" "),
            target: if setup.rules.target == default_target {
                String::new()
            } else {
                setup.rules.target.to_string()
            },
            seed: setup.seed.to_string(),
            field: 0,
            error: None,
        }
    }

    /// The fields shown, in order.
    #[must_use]
    pub fn fields(&self) -> Vec<Field> {
        let mut f = vec![Field::Preset, Field::Set, Field::Players];
        if self.players == 4 || self.players == 6 {
            f.push(Field::Partners);
        }
        for i in 0..usize::from(self.players.clamp(2, 8)) - 1 {
            f.push(Field::Level(i));
        }
        f.extend([
            Field::FirstLead,
            Field::Options,
            Field::Target,
            Field::Seed,
            Field::Start,
        ]);
        f
    }

    /// The field with the cursor.
    #[must_use]
    pub fn current(&self) -> Field {
        let f = self.fields();
        f[self.field.min(f.len() - 1)]
    }

    /// The setup the form describes, or what is wrong with it.
    pub fn setup(&self) -> Result<Setup, String> {
        let preset = Preset::ALL[self.preset % Preset::ALL.len()];
        // An option typed under more options that a field of its own could not take
        // (`players=9`) stands in for the field, for the rules to refuse with their reason.
        let typed = |key: &str| {
            self.options
                .split_whitespace()
                .any(|w| w.split_once('=').is_some_and(|(k, _)| k == key))
        };
        let mut words = preset.name().to_string();
        if !typed("set") {
            words.push_str(&format!(" set={}", self.set));
        }
        if !typed("players") {
            words.push_str(&format!(" players={}", self.players));
        }
        if let Some(i) = self.first_lead.filter(|_| !typed("first-lead")) {
            words.push_str(" first-lead=");
            words.push_str(FIRST_LEAD_CHOICES[i % FIRST_LEAD_CHOICES.len()].1);
        }
        if (self.players == 4 || self.players == 6) && !typed("partnerships") && !typed("partners")
        {
            words.push_str(if self.partners {
                " partnerships=true"
            } else {
                " partnerships=false"
            });
        }
        if !self.options.trim().is_empty() {
            for o in self.options.split_whitespace() {
                if !o.contains('=') {
                    return Err(format!("options take key=value, got {o:?}"));
                }
            }
            words.push(' ');
            words.push_str(self.options.trim());
        }
        if !self.target.trim().is_empty() {
            let t: u16 = self
                .target
                .trim()
                .parse()
                .map_err(|_| format!("the target must be a number, got {:?}", self.target))?;
            words.push_str(&format!(" target={t}"));
        }
        let rules = Rules::parse(&words).map_err(|e| e.to_string())?;
        let seed: u64 = self
            .seed
            .trim()
            .parse()
            .map_err(|_| format!("the seed must be a whole number, got {:?}", self.seed))?;
        // The seats follow the rules' table (`players=6` typed under more options included).
        let mut seats = vec![SeatKind::Human];
        for i in 0..usize::from(rules.players).saturating_sub(1) {
            seats.push(SeatKind::Computer(
                self.levels
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| LEVEL_CHOICES[2].to_string()),
            ));
        }
        let s = Setup { rules, seats, seed };
        s.validate()?;
        Ok(s)
    }
}

/// What the game screen is waiting for.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Mode {
    /// Choosing a tile.
    Normal,
    /// The tile fits several ends: choosing one.
    ChooseEnd {
        /// The tile.
        tile: fiveup_engine::Tile,
        /// The ends it fits.
        arms: Vec<ArmId>,
        /// The end under the cursor.
        at: usize,
        /// The digits of a two-digit end typed so far (ends 10 and up).
        typed: String,
    },
    /// Typing the points to claim (manual scoring).
    Claim(String),
    /// Typing a file name to save the record.
    Save {
        /// The name so far.
        name: String,
        /// Whether the name is the offered default, selected: typing replaces it, Backspace
        /// clears it, Left/Right/End keep it for editing.
        selected: bool,
    },
    /// Asking whether to quit.
    ConfirmQuit,
    /// The help page, scrolled down by this many lines.
    Help(usize),
    /// The whole log, scrolled back by this many lines.
    Log(usize),
    /// Typing a tile's number (ten tiles or more): the digits so far.
    Pick(String),
    /// The board alone, on the whole screen.
    Board,
}

/// The game screen.
#[derive(Debug)]
pub struct PlayScreen {
    /// The game.
    pub game: Game,
    /// The hand tile under the cursor.
    pub selected: usize,
    /// What the screen waits for.
    pub mode: Mode,
    /// The status message.
    pub message: String,
    /// The expert's evaluations, while shown.
    pub hint: Option<Vec<ActionEval>>,
    /// Whether the finished game's record has been saved to the `--save` file.
    pub saved_at_end: bool,
    /// The file this game's record goes to under `--save`: the `--save` file for the first
    /// game, numbered files (`game-2.txt`) for later ones, never another game's.
    pub record_path: Option<std::path::PathBuf>,
    /// How far the end-of-hand or game-over box is scrolled.
    pub scroll: usize,
}

/// The replay viewer.
#[derive(Debug)]
pub struct ReplayScreen {
    /// The record.
    pub record: Record,
    /// Its replay (checked).
    pub replayed: ReplayedGame,
    /// The file it came from, for the title.
    pub name: String,
    /// The hand shown (from 0).
    pub hand: usize,
    /// Actions of that hand applied.
    pub step: usize,
    /// Whether to show the help page.
    pub help: bool,
    /// Whether to show the expert's verdict on each decision.
    pub verdicts: bool,
    /// Verdicts worked out so far, by (hand, step): `None` when there was no choice.
    pub judged: std::collections::HashMap<(usize, usize), Option<MoveReview>>,
}

impl ReplayScreen {
    /// A viewer at the start of the first hand; fails if the record does not replay.
    pub fn new(record: Record, name: &str) -> Result<ReplayScreen, String> {
        let replayed = record.replay().map_err(|e| {
            let names = crate::game::display_names(&record.seats, record.rules.players);
            crate::game::replay_error_text(&e, &names)
        })?;
        if record.hands.is_empty() {
            return Err("the record holds no hand".into());
        }
        Ok(ReplayScreen {
            record,
            replayed,
            name: name.to_string(),
            hand: 0,
            step: 0,
            help: false,
            verdicts: false,
            judged: std::collections::HashMap::new(),
        })
    }

    /// The seat names, as the game names them.
    #[must_use]
    pub fn names(&self) -> Vec<String> {
        crate::game::display_names(&self.record.seats, self.record.rules.players)
    }

    /// The verdict on the action just shown, in words.
    #[must_use]
    pub fn verdict_text(&self) -> String {
        if self.step == 0 {
            return String::new();
        }
        match self.judged.get(&(self.hand, self.step)) {
            Some(Some(m)) => format!("Expert: {}.", m.verdict()),
            Some(None) => "Expert: no choice.".to_string(),
            None => "Expert: ...".to_string(),
        }
    }

    /// Actions in the current hand.
    #[must_use]
    pub fn steps(&self) -> usize {
        self.record.hands[self.hand].moves.len()
    }

    /// The state after the shown actions.
    #[must_use]
    pub fn state(&self) -> State {
        let h = &self.record.hands[self.hand];
        let start = self.replayed.hands[self.hand].start;
        let mut s = State::with_start(self.record.rules, h.deal, start)
            .expect("a checked record sets up every hand");
        for m in &h.moves[..self.step] {
            s.apply(m.action)
                .expect("a checked record holds only legal actions");
        }
        s
    }
}

/// Which screen is showing.
#[derive(Debug)]
pub enum Screen {
    /// Choosing the game.
    Start(Box<StartForm>),
    /// Playing.
    Play(Box<PlayScreen>),
    /// Stepping through a record.
    Replay(Box<ReplayScreen>),
}

/// The smallest terminal the full-screen game draws in.
pub const MIN_SIZE: (u16, u16) = (80, 24);
