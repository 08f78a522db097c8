//! The rules of a game: player count, every house option, and the named presets.
//!
//! A [`Rules`] value is plain data. Build one from a preset and change fields, then call
//! [`Rules::validate`] (the engine validates again whenever a game is set up).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Which doubles spin (take tiles on all four sides).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SpinnerRule {
    /// Only the first double laid in a hand spins (default).
    First,
    /// No spinner: the layout has two ends only.
    None,
    /// Every double spins.
    All,
}

/// When a spinner's two further sides ("sprouts") open.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SproutRule {
    /// Only once tiles lie against both of its line sides (default).
    AfterBothSides,
    /// As soon as the spinner is laid.
    AtOnce,
}

/// What happens at the start of a first hand (or after a blocked hand) when no double was dealt.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoDouble {
    /// Shuffle and deal again (default).
    Redeal,
    /// Players draw one extra tile each, in turn from seat 0, until a double appears; its
    /// holder leads it.
    DrawUntilDouble,
    /// The holder of the heaviest tile leads it.
    HeaviestTile,
    /// Every player draws one tile, in turn from seat 0; then the holder of the highest double
    /// leads it, or, when there is still none, the holder of the heaviest tile leads it
    /// (Walnut Studiolo's rule).
    EachDraws,
}

/// Who leads the first hand of a game (and, under the winner-leads rule, a hand after a blocked
/// one), and with what.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum FirstLead {
    /// The holder of the highest double dealt must lead that double (default; the Rubl room's
    /// Five Up). With no double dealt, [`NoDouble`] decides.
    #[default]
    HighestDouble,
    /// The holder of the highest double dealt leads, with any tile (tournament Fives). With no
    /// double dealt, [`NoDouble`] decides who leads, again with any tile.
    HighestDoubleAny,
    /// The leader is chosen by lot and leads any tile (pagat's All Fives); after a blocked hand
    /// the lead is again by lot. The lot is part of the deal, so seeded games replay.
    Lot,
    /// The holder of the set's highest double (6-6, 9-9 or 12-12) must lead it; when nobody was
    /// dealt it, the tiles are reshuffled and dealt again (a "set variation" of the Draw game).
    TopDouble,
}

/// Who leads the second and later hands.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NextLead {
    /// The winner of the previous hand leads any tile; after a blocked hand the highest double
    /// leads, as in a first hand (default).
    Winner,
    /// "Rotate the down": the lead passes clockwise each hand, with any tile.
    Rotate,
    /// Every hand opens like the first: by the first-lead rule, usually the highest double
    /// held (the Draw, Cross Dominoes and party game pages).
    FirstLead,
}

/// Who scores in a blocked hand when players (not partnerships) tie for the lowest pips.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum BlockedTie {
    /// The tied players share the others' pips; only a tie of every side scores nothing
    /// (default).
    #[default]
    Share,
    /// A tie for lowest scores nothing (pagat, for two and four players).
    Nobody,
}

/// Who may call "Muggins!" on points a player failed to claim.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum MugginsCall {
    /// Only the next player, before acting (default).
    #[default]
    Next,
    /// Any opponent, each at their turn before acting, until the turn comes back to the side
    /// that missed the points (the domino shop: "any player can shout Muggins").
    Any,
}

/// How counts score during play.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlayScoring {
    /// A count that is a positive multiple of 5 scores the count (default).
    Fives,
    /// Fives and Threes (English convention): a count scores one point per 5 it divides by
    /// plus one point per 3 it divides by (15 scores 3 + 5 = 8).
    FivesAndThrees,
    /// No scoring during play (Draw and Block games).
    None,
}

/// How the end-of-hand award is computed.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Award {
    /// The winner scores the pips left in all opponents' hands, rounded to the nearest 5
    /// (default).
    Opponents,
    /// The winner scores, for each losing side, that side's pips minus the winner's pips,
    /// each rounded to the nearest 5.
    Difference,
    /// Nobody is awarded opponents' pips; every side subtracts its own rounded pips from its
    /// score (scores may go below zero).
    SubtractOwn,
}

/// When the game ends.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameEnd {
    /// The first side to reach the target wins at once, mid-hand included (default).
    Immediate,
    /// The hand is finished first; then the highest score at or over the target wins (a tie
    /// for highest plays another hand).
    FinishHand,
}

/// The named presets.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    /// Five Up as the Rubl room plays it: the highest double leads, the first double spins,
    /// fives score, players draw.
    FiveUp,
    /// pagat's All Fives: the first double spins; the first leader is chosen by lot and leads
    /// any tile (again by lot after a blocked hand).
    AllFives,
    /// Muggins: no spinner.
    Muggins,
    /// Every double spins (the game pagat calls Five Up).
    Cross,
    /// Fives and Threes: counts divisible by 5 or 3 score, English convention, to 61.
    FivesAndThrees,
    /// Draw game: no scoring during play, drawing allowed, no spinner, to 100.
    Draw,
    /// Block game: no scoring during play, no drawing, no spinner, to 100.
    Block,
    /// Five Up scored on a cribbage board: every score divided by 5, to 61.
    Cribbage,
    /// pagat's Five Up: every double spins, the first leader is chosen by lot.
    PagatFiveUp,
    /// Tournament Fives: 7 tiles each, the holder of the highest double leads any tile.
    Fives,
    /// Cross Dominoes: the Draw game, but the first double's four sides are filled first.
    CrossDominoes,
    /// A double-twelve party game for 5 to 8 players: 5 tiles each, two ends, the last two
    /// boneyard tiles stay, the winner scores the difference.
    PartyTwelve,
}

impl Preset {
    /// Every preset, in documentation order.
    pub const ALL: [Preset; 12] = [
        Preset::FiveUp,
        Preset::AllFives,
        Preset::PagatFiveUp,
        Preset::Fives,
        Preset::Muggins,
        Preset::Cross,
        Preset::FivesAndThrees,
        Preset::Draw,
        Preset::Block,
        Preset::CrossDominoes,
        Preset::Cribbage,
        Preset::PartyTwelve,
    ];

    /// The preset's name as used on the command line and in records.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Preset::FiveUp => "five-up",
            Preset::AllFives => "all-fives",
            Preset::Muggins => "muggins",
            Preset::Cross => "cross",
            Preset::FivesAndThrees => "fives-and-threes",
            Preset::Draw => "draw",
            Preset::Block => "block",
            Preset::Cribbage => "cribbage",
            Preset::PagatFiveUp => "pagat-five-up",
            Preset::Fives => "fives",
            Preset::CrossDominoes => "cross-dominoes",
            Preset::PartyTwelve => "party-twelve",
        }
    }

    /// The player counts the preset is meant for (any count the set allows also validates).
    #[must_use]
    pub const fn players(self) -> (u8, u8) {
        match self {
            Preset::PartyTwelve => (5, 8),
            Preset::Draw | Preset::Block | Preset::CrossDominoes => (2, 5),
            _ => (2, 4),
        }
    }
}

impl Preset {
    /// The set the preset is played with: double-twelve for the party game, else double-six.
    #[must_use]
    pub const fn set(self) -> u8 {
        match self {
            Preset::PartyTwelve => 12,
            _ => 6,
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preset {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<Preset, RulesError> {
        let s = s.to_ascii_lowercase();
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == s || (s == "default" && *p == Preset::FiveUp))
            .ok_or(RulesError::UnknownPreset(s))
    }
}

/// The complete rules of a game. See `docs/rules.md` for the table of options.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Rules {
    /// The set: its highest pip, 6 (double-six, 28 tiles), 9 (double-nine, 55) or 12
    /// (double-twelve, 91).
    #[serde(default = "default_set")]
    pub set: u8,
    /// Number of players, 2 to 8 (as many as the set can deal 3 tiles to).
    pub players: u8,
    /// Partnerships (4 or 6 players): partners alternate around the table, the even seats
    /// against the odd seats, each team sharing a score.
    pub partnerships: bool,
    /// Tiles dealt to each player: 3 or more, as many as the set holds for every player.
    pub hand_size: u8,
    /// Points needed to win, 50 to 1000 (61 on the cribbage scale is allowed too).
    pub target: u16,
    /// Which doubles spin.
    pub spinner: SpinnerRule,
    /// When a spinner's sprouts open.
    pub sprouts: SproutRule,
    /// What to do when no double was dealt in a hand led by the highest double.
    pub no_double: NoDouble,
    /// Who leads the first hand, and with what.
    #[serde(default)]
    pub first_lead: FirstLead,
    /// Who leads later hands.
    pub next_lead: NextLead,
    /// Whether a player who cannot lay draws from the boneyard (false: Block game, pass).
    pub drawing: bool,
    /// Whether a player may draw even when able to lay (one tile at a time, until a drawn
    /// tile can be laid).
    pub voluntary_draw: bool,
    /// Tiles that must stay in the boneyard and can never be drawn: 0, 1 or 2.
    pub boneyard_keep: u8,
    /// How counts score during play.
    pub play_scoring: PlayScoring,
    /// How the end-of-hand award is computed.
    pub award: Award,
    /// Doubles left in hand count only one half at the end of a hand.
    pub doubles_count_one_half: bool,
    /// When the game ends.
    pub game_end: GameEnd,
    /// A score that would take a side past the target is not scored.
    pub exact_target: bool,
    /// Every score is divided by 5 (for a cribbage board).
    pub cribbage_scale: bool,
    /// Manual scoring: after each play the player claims the points; a missed score may be
    /// taken by the next opponent with a "Muggins!" call.
    pub manual_scoring: bool,
    /// Cross Dominoes: after the first double is laid, the next tiles must go against its four
    /// sides until they are all covered, forming a cross, before any arm grows further.
    #[serde(default)]
    pub cross_first: bool,
    /// Who scores when players tie for lowest in a blocked hand.
    #[serde(default)]
    pub blocked_tie: BlockedTie,
    /// Who may call "Muggins!" on missed points (manual scoring).
    #[serde(default)]
    pub muggins_call: MugginsCall,
    /// A player who cannot lay draws one tile only; if it does not fit, the player passes
    /// (the party game's "takes a sleeping tile instead").
    #[serde(default)]
    pub draw_one: bool,
    /// The game ends after this many hands at the latest (0: no limit); the highest score
    /// then wins, and a tie for highest plays another hand.
    #[serde(default)]
    pub hand_limit: u16,
}

const fn default_set() -> u8 {
    6
}

/// Why a [`Rules`] value was rejected.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RulesError {
    /// A set other than double-six, double-nine or double-twelve.
    Set(u8),
    /// Player count outside 2..=8, or more players than the set can deal to.
    Players {
        /// The player count asked for.
        players: u8,
        /// The set (its highest pip).
        set: u8,
    },
    /// Partnerships need four or six players.
    PartnershipsNeedFour(u8),
    /// Hand size below 3 or more tiles than the set holds.
    HandSize {
        /// The hand size asked for.
        hand_size: u8,
        /// The player count.
        players: u8,
        /// The set (its highest pip).
        set: u8,
    },
    /// Cross Dominoes needs a spinner: the first double is the cross.
    CrossWithoutSpinner,
    /// Target outside the allowed range.
    Target(u16),
    /// More tiles kept in the boneyard than allowed.
    BoneyardKeep(u8),
    /// Voluntary drawing makes no sense without drawing.
    VoluntaryWithoutDrawing,
    /// Manual scoring needs scoring during play.
    ManualWithoutScoring,
    /// An exact target that no score can reach: on the fives scale every score is a multiple
    /// of 5.
    TargetUnreachable(u16),
    /// A hand limit out of range.
    HandLimit(u16),
    /// With no scoring during play and the subtract-own award, no score can ever rise, so the
    /// game could never end.
    NeverEnds,
    /// Unknown preset name.
    UnknownPreset(String),
    /// An option name or value in a rules string was not understood.
    Option(String),
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::Set(s) => write!(
                f,
                "set={s} is not a domino set: use 6 (double-six, 28 tiles), 9 (double-nine, 55) \
                 or 12 (double-twelve, 91)"
            ),
            RulesError::Players { players, set } => {
                let most = max_players(*set);
                if (2..=8).contains(players) {
                    write!(
                        f,
                        "{players} players cannot each get 3 tiles from a double-{set} set \
                         ({} tiles): at most {most} players; use set=9 or set=12 for more",
                        set_size(*set)
                    )
                } else {
                    write!(f, "players must be 2 to {most}, not {players}")
                }
            }
            RulesError::PartnershipsNeedFour(n) => write!(
                f,
                "partnerships need 4 or 6 players (two teams alternating around the table), \
                 not {n}; use partnerships=false"
            ),
            RulesError::HandSize {
                hand_size,
                players,
                set,
            } => {
                let most = max_hand(*set, *players);
                let allowed = if most <= 3 {
                    "3".to_string()
                } else {
                    format!("3 to {most}")
                };
                write!(
                    f,
                    "hand size {hand_size} is not allowed with {players} players: it must be \
                     {allowed} on a double-{set} set ({players} x {hand_size} = {} of {} tiles)",
                    u16::from(*hand_size) * u16::from(*players),
                    set_size(*set)
                )
            }
            RulesError::CrossWithoutSpinner => write!(
                f,
                "cross-first needs a spinner (the first double is the cross): use \
                 spinner=first or spinner=all"
            ),
            RulesError::Target(t) => write!(
                f,
                "target {t} is out of range: it must be 50 to 1000 (or 61 on the cribbage scale)"
            ),
            RulesError::BoneyardKeep(k) => {
                write!(f, "boneyard-keep must be 0, 1 or 2, not {k}")
            }
            RulesError::VoluntaryWithoutDrawing => {
                write!(f, "voluntary drawing needs drawing to be allowed")
            }
            RulesError::ManualWithoutScoring => {
                write!(f, "manual scoring needs scoring during play")
            }
            RulesError::NeverEnds => write!(
                f,
                "award=subtract-own with play-scoring=none can never end: no score can rise"
            ),
            RulesError::TargetUnreachable(t) => write!(
                f,
                "exact-target=true with target={t} can never end: on the fives scale every score \
                 is a multiple of 5; use a target that is (e.g. {}) or cribbage=true",
                (t / 5) * 5
            ),
            RulesError::HandLimit(n) => write!(f, "hands must be 0 (no limit) to 1000, not {n}"),
            RulesError::UnknownPreset(s) => write!(
                f,
                "unknown rules preset {s:?}; presets are: {}",
                Preset::ALL.map(Preset::name).join(", ")
            ),
            RulesError::Option(s) => write!(f, "{s}"),
        }
    }
}

impl std::error::Error for RulesError {}

/// Tiles in the set whose highest pip is `set`.
fn set_size(set: u8) -> usize {
    crate::tile::set_size(set)
}

/// The most players a set can deal three tiles each to (at most eight).
#[must_use]
pub fn max_players(set: u8) -> u8 {
    (set_size(set) / 3).min(8) as u8
}

/// The largest hand a set allows for `players` (every player dealt the same).
#[must_use]
pub fn max_hand(set: u8, players: u8) -> u8 {
    (set_size(set) / usize::from(players.max(1))).min(255) as u8
}

/// The default hand size for a set and a player count (see `docs/rules.md`).
#[must_use]
pub const fn default_hand(set: u8, players: u8) -> u8 {
    match (set, players) {
        (6, 2) => 7,
        (6, 3 | 4) => 5,
        (6, _) => 3,
        (9, 2) => 9,
        (9, 3 | 4) => 7,
        (9, 5) => 6,
        (9, 6 | 7) => 5,
        (9, _) => 4,
        (_, 2) => 12,
        (_, 3) => 10,
        (_, 4) => 9,
        (_, 5) => 7,
        (_, 6) => 6,
        _ => 5,
    }
}

/// The hand limit of a game under `award=subtract-own` that names none: scores may fall, so
/// such a game might otherwise never reach its target.
pub const SUBTRACT_OWN_HANDS: u16 = 50;

/// The party game's target: high enough that a game lasts several hands with 5 to 8 players
/// (measured in `docs/rules.md`).
pub const PARTY_TARGET: u16 = 500;

/// The presets named for pagat's pages.
const fn pagat(p: Preset) -> bool {
    matches!(
        p,
        Preset::AllFives | Preset::PagatFiveUp | Preset::Muggins | Preset::Cribbage
    )
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::preset(Preset::FiveUp, 2)
    }
}

impl Rules {
    /// The preset for `players` players (4 players play in partnerships by default).
    #[must_use]
    pub fn preset(preset: Preset, players: u8) -> Rules {
        Rules::preset_with_set(preset, players, preset.set())
    }

    /// The preset for `players` players on the set whose highest pip is `set` (hand size and
    /// target take the defaults of `docs/rules.md` for that set and player count).
    #[must_use]
    pub fn preset_with_set(preset: Preset, players: u8, set: u8) -> Rules {
        let mut r = Rules {
            set,
            players,
            partnerships: players == 4 || players == 6,
            hand_size: default_hand(set, players),
            target: if players == 2 { 250 } else { 200 },
            spinner: SpinnerRule::First,
            sprouts: SproutRule::AfterBothSides,
            no_double: NoDouble::Redeal,
            first_lead: FirstLead::HighestDouble,
            next_lead: NextLead::Winner,
            drawing: true,
            voluntary_draw: false,
            boneyard_keep: 0,
            play_scoring: PlayScoring::Fives,
            award: Award::Opponents,
            doubles_count_one_half: false,
            game_end: GameEnd::Immediate,
            exact_target: false,
            cribbage_scale: false,
            manual_scoring: false,
            cross_first: false,
            blocked_tie: BlockedTie::Share,
            muggins_call: MugginsCall::Next,
            draw_one: false,
            hand_limit: 0,
        };
        match preset {
            Preset::FiveUp => {}
            Preset::AllFives => r.first_lead = FirstLead::Lot,
            Preset::Muggins => r.spinner = SpinnerRule::None,
            Preset::Cross => r.spinner = SpinnerRule::All,
            Preset::FivesAndThrees => {
                // "Played in the same way as All Fives": the first double spins.
                r.play_scoring = PlayScoring::FivesAndThrees;
                r.target = 61;
            }
            Preset::Draw => {
                r.spinner = SpinnerRule::None;
                r.play_scoring = PlayScoring::None;
                r.next_lead = NextLead::FirstLead;
                r.target = 100;
            }
            Preset::Block => {
                r.spinner = SpinnerRule::None;
                r.play_scoring = PlayScoring::None;
                r.drawing = false;
                r.next_lead = NextLead::FirstLead;
                r.target = 100;
            }
            Preset::Cribbage => {
                r.cribbage_scale = true;
                r.target = 61;
            }
            Preset::PagatFiveUp => {
                r.spinner = SpinnerRule::All;
                r.first_lead = FirstLead::Lot;
            }
            Preset::Fives => {
                r.first_lead = FirstLead::HighestDoubleAny;
                // Seven tiles each where the set allows it (four players take all 28).
                r.hand_size = 7.min(max_hand(set, players)).max(3);
            }
            Preset::CrossDominoes => {
                r.cross_first = true;
                r.play_scoring = PlayScoring::None;
                r.next_lead = NextLead::FirstLead;
                r.target = 100;
            }
            Preset::PartyTwelve => {
                r.spinner = SpinnerRule::None;
                r.first_lead = FirstLead::HighestDoubleAny;
                r.hand_size = 5;
                r.boneyard_keep = 2;
                r.award = Award::Difference;
                r.partnerships = false;
                r.next_lead = NextLead::FirstLead;
                r.manual_scoring = true;
                r.muggins_call = MugginsCall::Any;
                r.draw_one = true;
                r.target = PARTY_TARGET;
            }
        }
        if matches!(preset, Preset::Draw | Preset::CrossDominoes) && set == 6 {
            // The Draw game page: 2 players take 7, 3 take 5, 4 take 4, 5 take 3.
            r.hand_size = match players {
                2 => 7,
                3 => 5,
                4 => 4,
                _ => 3,
            };
        }
        if preset == Preset::Block && set == 6 {
            // The same page: the Block game deals more than the Draw game and leaves a few
            // tiles sleeping. Seven each for two or three (the usual Block deal), six for four
            // and five for five, so that some tiles always sleep.
            r.hand_size = match players {
                2 | 3 => 7,
                4 => 6,
                _ => 5.min(max_hand(set, players)),
            };
        }
        if pagat(preset) {
            // pagat: a tie for least in a blocked two- or four-player game scores nothing; in a
            // three-player game the two tied share the third player's pips.
            r.blocked_tie = if players == 3 {
                BlockedTie::Share
            } else {
                BlockedTie::Nobody
            };
        }
        r
    }

    /// The hand after which the game ends at the latest (0: none): `hands`, or under
    /// `award=subtract-own`, whose scores may fall, [`SUBTRACT_OWN_HANDS`] when none is given.
    #[must_use]
    pub const fn effective_hand_limit(&self) -> u16 {
        if self.hand_limit == 0 && matches!(self.award, Award::SubtractOwn) {
            SUBTRACT_OWN_HANDS
        } else {
            self.hand_limit
        }
    }

    /// Whether scores are kept in points of one (cribbage scale or Fives and Threes) rather
    /// than in fives.
    #[must_use]
    pub fn small_scale(&self) -> bool {
        self.cribbage_scale || self.play_scoring == PlayScoring::FivesAndThrees
    }

    /// Number of scoring sides: 2 with partnerships, else one per player.
    #[must_use]
    pub fn sides(&self) -> u8 {
        if self.partnerships {
            2
        } else {
            self.players
        }
    }

    /// The side a seat scores for.
    #[must_use]
    pub fn side_of(&self, seat: crate::Seat) -> crate::Side {
        if self.partnerships {
            crate::Side(seat.0 % 2)
        } else {
            crate::Side(seat.0)
        }
    }

    /// Tiles in the boneyard after the deal.
    #[must_use]
    pub fn boneyard_size(&self) -> u8 {
        (self.tile_count() - usize::from(self.players) * usize::from(self.hand_size)) as u8
    }

    /// For a hand that opens by the first-lead rule: the tiles one of which must be dealt, or
    /// the hand is shuffled and dealt again (`None`: any deal stands).
    #[must_use]
    pub fn opening_needs(&self) -> Option<crate::TileSet> {
        match self.first_lead {
            FirstLead::Lot => None,
            FirstLead::TopDouble => Some(crate::TileSet::single(crate::Tile::double(self.set))),
            FirstLead::HighestDouble | FirstLead::HighestDoubleAny => {
                (self.no_double == NoDouble::Redeal).then(|| self.tiles().and(crate::Tile::DOUBLES))
            }
        }
    }

    /// Tiles in the set.
    #[must_use]
    pub fn tile_count(&self) -> usize {
        set_size(self.set)
    }

    /// Every tile of the set.
    #[must_use]
    pub fn tiles(&self) -> crate::TileSet {
        crate::Tile::all(self.set)
    }

    /// Whether these rules are the common profile that playouts specialise for: two players
    /// with a double-six set, Fives play scoring on the usual scale, scored as played, no exact target, and drawing
    /// (if any) only when blocked. Other options (spinners, awards, leads...) may vary.
    #[must_use]
    pub fn is_standard_profile(&self) -> bool {
        self.players == 2
            && self.set == 6
            && self.play_scoring == PlayScoring::Fives
            && !self.cribbage_scale
            && !self.manual_scoring
            && !self.exact_target
            && !self.voluntary_draw
            && !self.cross_first
            && !self.draw_one
            && self.effective_hand_limit() == 0
    }

    /// Check every option; the first problem found is returned.
    pub fn validate(&self) -> Result<(), RulesError> {
        if !matches!(self.set, 6 | 9 | 12) {
            return Err(RulesError::Set(self.set));
        }
        if !(2..=max_players(self.set)).contains(&self.players) {
            return Err(RulesError::Players {
                players: self.players,
                set: self.set,
            });
        }
        if self.partnerships && self.players != 4 && self.players != 6 {
            return Err(RulesError::PartnershipsNeedFour(self.players));
        }
        if self.hand_size < 3 || self.hand_size > max_hand(self.set, self.players) {
            return Err(RulesError::HandSize {
                hand_size: self.hand_size,
                players: self.players,
                set: self.set,
            });
        }
        if self.cross_first && self.spinner == SpinnerRule::None {
            return Err(RulesError::CrossWithoutSpinner);
        }
        if !(50..=1000).contains(&self.target) {
            return Err(RulesError::Target(self.target));
        }
        if self.boneyard_keep > 2 {
            return Err(RulesError::BoneyardKeep(self.boneyard_keep));
        }
        if self.voluntary_draw && !self.drawing {
            return Err(RulesError::VoluntaryWithoutDrawing);
        }
        if self.draw_one && !self.drawing {
            return Err(RulesError::Option(
                "draw-one needs drawing to be allowed (drawing=true)".to_string(),
            ));
        }
        if self.manual_scoring && self.play_scoring == PlayScoring::None {
            return Err(RulesError::ManualWithoutScoring);
        }
        if self.award == Award::SubtractOwn && self.play_scoring == PlayScoring::None {
            return Err(RulesError::NeverEnds);
        }
        if self.hand_limit > 1000 {
            return Err(RulesError::HandLimit(self.hand_limit));
        }
        if self.exact_target && !self.small_scale() && self.target % 5 != 0 {
            return Err(RulesError::TargetUnreachable(self.target));
        }
        Ok(())
    }

    /// The rules as a canonical `key=value` string, every option named. [`Rules::parse`]
    /// reads it back.
    #[must_use]
    pub fn to_options_string(&self) -> String {
        let kebab = |v: &dyn erased::Kebab| v.kebab();
        format!(
            "players={} partnerships={} hand={} target={} spinner={} sprouts={} no-double={} \
             next-lead={} drawing={} voluntary-draw={} boneyard-keep={} play-scoring={} \
             award={} doubles-one-half={} game-end={} exact-target={} cribbage={} manual={}",
            self.players,
            self.partnerships,
            self.hand_size,
            self.target,
            kebab(&self.spinner),
            kebab(&self.sprouts),
            kebab(&self.no_double),
            kebab(&self.next_lead),
            self.drawing,
            self.voluntary_draw,
            self.boneyard_keep,
            kebab(&self.play_scoring),
            kebab(&self.award),
            self.doubles_count_one_half,
            kebab(&self.game_end),
            self.exact_target,
            self.cribbage_scale,
            self.manual_scoring,
        ) + &self.extra_options()
    }

    /// The options added with the bigger sets, written only when they differ from their
    /// defaults so that double-six records read exactly as they always did.
    fn extra_options(&self) -> String {
        let mut s = String::new();
        if self.set != 6 {
            s += &format!(" set={}", self.set);
        }
        if self.first_lead != FirstLead::HighestDouble {
            s += &format!(" first-lead={}", erased::Kebab::kebab(&self.first_lead));
        }
        if self.cross_first {
            s += " cross-first=true";
        }
        if self.blocked_tie != BlockedTie::Share {
            s += &format!(" blocked-tie={}", erased::Kebab::kebab(&self.blocked_tie));
        }
        if self.muggins_call != MugginsCall::Next {
            s += &format!(" muggins-call={}", erased::Kebab::kebab(&self.muggins_call));
        }
        if self.draw_one {
            s += " draw-one=true";
        }
        if self.hand_limit != 0 {
            s += &format!(" hands={}", self.hand_limit);
        }
        s
    }

    /// Parse a rules string: an optional preset name first, then `key=value` options, separated
    /// by spaces or commas. Options not given take the preset's value for the player count.
    /// Example: `cross players=4 partnerships=false target=300`.
    pub fn parse(s: &str) -> Result<Rules, RulesError> {
        let words: Vec<&str> = s
            .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
            .filter(|w| !w.is_empty())
            .collect();
        let mut preset = Preset::FiveUp;
        let mut rest = &words[..];
        if let Some(first) = words.first() {
            if !first.contains('=') {
                preset = first.parse()?;
                rest = &words[1..];
            }
        }
        // An option given twice with two values is refused rather than the last one taken
        // silently (`target=150 ... target=300`); the same value twice is harmless.
        let mut seen: Vec<(&str, &str, &str)> = Vec::new();
        for w in rest {
            let Some((k, v)) = w.split_once('=') else {
                continue;
            };
            let key = match k {
                "partners" => "partnerships",
                "hand-size" => "hand",
                other => other,
            };
            match seen.iter().find(|(s, ..)| *s == key) {
                Some((_, first, fv)) if *fv != v => {
                    return Err(RulesError::Option(format!(
                        "option {key} is given twice ({first}, then {w}): give it once"
                    )));
                }
                Some(_) => {}
                None => seen.push((key, w, v)),
            }
        }
        let mut players = None;
        let mut set = preset.set();
        for w in rest {
            if let Some(v) = w.strip_prefix("players=") {
                players =
                    Some(v.parse().map_err(|_| {
                        RulesError::Option(format!("players: not a number: {v:?}"))
                    })?);
            }
            if let Some(v) = w.strip_prefix("set=") {
                set = v
                    .parse()
                    .map_err(|_| RulesError::Option(format!("set: not a number: {v:?}")))?;
            }
        }
        if !matches!(set, 6 | 9 | 12) {
            return Err(RulesError::Set(set));
        }
        let players = players.unwrap_or(preset.players().0);
        if !(2..=max_players(set)).contains(&players) {
            return Err(RulesError::Players { players, set });
        }
        // The party game is for five players or more: a smaller table is refused as a table
        // the set cannot seat is, not played as another game under its name.
        let (least, most) = preset.players();
        if players < least {
            return Err(RulesError::Option(format!(
                "{preset} is a game for {least} to {most} players, not {players}: use \
                 players={least} to {most}, or another preset for a smaller table"
            )));
        }
        let mut r = Rules::preset_with_set(preset, players, set);
        let mut target_given = false;
        for w in rest {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| RulesError::Option(format!("expected key=value, got {w:?}")))?;
            r.set_option(k, v)?;
            target_given |= k == "target";
        }
        // The cribbage scale and Fives and Threes play to 61 and the fives scale to 250 or
        // 200: an option that changes the scale brings its target unless one is given.
        if !target_given && r.small_scale() != Rules::preset(preset, players).small_scale() {
            r.target = if r.small_scale() {
                61
            } else {
                Rules::preset(Preset::FiveUp, players).target
            };
        }

        r.validate()?;
        Ok(r)
    }

    /// Set one option by its name in the options string. Does not validate the whole value.
    pub fn set_option(&mut self, key: &str, v: &str) -> Result<(), RulesError> {
        fn b(k: &str, v: &str) -> Result<bool, RulesError> {
            match v {
                "true" | "yes" | "on" | "1" => Ok(true),
                "false" | "no" | "off" | "0" => Ok(false),
                _ => Err(RulesError::Option(format!(
                    "{k}: expected true or false, got {v:?}"
                ))),
            }
        }
        fn n<T: FromStr>(k: &str, v: &str) -> Result<T, RulesError> {
            v.parse()
                .map_err(|_| RulesError::Option(format!("{k}: not a number: {v:?}")))
        }
        fn e<T: for<'de> Deserialize<'de>>(
            k: &str,
            v: &str,
            allowed: &str,
        ) -> Result<T, RulesError> {
            serde_json::from_value(serde_json::Value::String(v.to_string()))
                .map_err(|_| RulesError::Option(format!("{k}: {v:?} is not one of {allowed}")))
        }
        match key {
            "set" => self.set = n(key, v)?,
            "players" => self.players = n(key, v)?,
            "partnerships" | "partners" => self.partnerships = b(key, v)?,
            "hand" | "hand-size" => self.hand_size = n(key, v)?,
            "target" => self.target = n(key, v)?,
            "spinner" => self.spinner = e(key, v, "first, none, all")?,
            "sprouts" => self.sprouts = e(key, v, "after-both-sides, at-once")?,
            "no-double" => {
                self.no_double = e(
                    key,
                    v,
                    "redeal, draw-until-double, heaviest-tile, each-draws",
                )?;
            }
            "first-lead" => {
                self.first_lead = e(
                    key,
                    v,
                    "highest-double, highest-double-any, lot, top-double",
                )?;
            }
            "cross-first" => self.cross_first = b(key, v)?,
            "next-lead" => self.next_lead = e(key, v, "winner, rotate, first-lead")?,
            "blocked-tie" => self.blocked_tie = e(key, v, "share, nobody")?,
            "muggins-call" => self.muggins_call = e(key, v, "next, any")?,
            "draw-one" => self.draw_one = b(key, v)?,
            "hands" => self.hand_limit = n(key, v)?,
            "drawing" => self.drawing = b(key, v)?,
            "voluntary-draw" => self.voluntary_draw = b(key, v)?,
            "boneyard-keep" => self.boneyard_keep = n(key, v)?,
            "play-scoring" => {
                self.play_scoring = e(key, v, "fives, fives-and-threes, none")?;
            }
            "award" => self.award = e(key, v, "opponents, difference, subtract-own")?,
            "doubles-one-half" => self.doubles_count_one_half = b(key, v)?,
            "game-end" => self.game_end = e(key, v, "immediate, finish-hand")?,
            "exact-target" => self.exact_target = b(key, v)?,
            "cribbage" => self.cribbage_scale = b(key, v)?,
            "manual" => self.manual_scoring = b(key, v)?,
            _ => {
                return Err(RulesError::Option(format!(
                    "unknown option {key:?}; options are: set, players, partnerships, hand, \
                     target, spinner, sprouts, no-double, first-lead, next-lead, drawing, \
                     voluntary-draw, boneyard-keep, play-scoring, award, doubles-one-half, \
                     game-end, exact-target, cribbage, manual, cross-first, blocked-tie, \
                     muggins-call, draw-one, hands"
                )))
            }
        }
        Ok(())
    }
}

mod erased {
    /// Kebab-case name of a unit enum, via its serde name.
    pub trait Kebab {
        fn kebab(&self) -> String;
    }
    impl<T: serde::Serialize> Kebab for T {
        fn kebab(&self) -> String {
            match serde_json::to_value(self) {
                Ok(serde_json::Value::String(s)) => s,
                _ => String::new(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_validate_for_every_player_count() {
        for p in Preset::ALL {
            let (lo, hi) = p.players();
            for n in lo..=hi {
                let r = Rules::preset(p, n);
                r.validate().unwrap();
                assert_eq!(Rules::parse(&r.to_options_string()).unwrap(), r, "{p} {n}");
                assert_eq!(
                    Rules::parse(&format!("{p} players={n}")).unwrap(),
                    r,
                    "{p} {n}"
                );
            }
        }
        // Every set with every player count it allows, and its default hand.
        for set in [6u8, 9, 12] {
            for n in 2..=max_players(set) {
                let r = Rules::parse(&format!("set={set} players={n}")).unwrap();
                assert_eq!(r.hand_size, default_hand(set, n), "set {set} players {n}");
                assert!(r.boneyard_size() > 0, "set {set} players {n}");
                assert_eq!(Rules::parse(&r.to_options_string()).unwrap(), r);
            }
        }
        assert_eq!(max_players(6), 8);
        assert_eq!(max_players(9), 8);
    }

    #[test]
    fn bad_options_are_named() {
        let r = Rules {
            hand_size: 9,
            players: 4,
            partnerships: false,
            ..Rules::default()
        };
        assert!(matches!(r.validate(), Err(RulesError::HandSize { .. })));
        assert!(r.validate().unwrap_err().to_string().contains("36 of 28"));
        let mut r = Rules::preset(Preset::FiveUp, 3);
        r.partnerships = true;
        assert_eq!(r.validate(), Err(RulesError::PartnershipsNeedFour(3)));
        assert!(matches!(
            Rules::parse("target=20"),
            Err(RulesError::Target(20))
        ));
        assert!(matches!(
            Rules::parse("cross spinner=sideways"),
            Err(RulesError::Option(_))
        ));
        assert!(matches!(
            Rules::parse("bogus"),
            Err(RulesError::UnknownPreset(_))
        ));
        assert_eq!(
            Rules::parse("players=9"),
            Err(RulesError::Players { players: 9, set: 6 })
        );
        let e = Rules::parse("players=9 hand=8").unwrap_err().to_string();
        assert!(e.contains("2 to 8"), "{e}");
        assert_eq!(
            Rules::parse("players=5 partnerships=true"),
            Err(RulesError::PartnershipsNeedFour(5))
        );
        assert!(Rules::parse("players=6 partnerships=true").is_ok());
        assert_eq!(
            Rules::parse("muggins cross-first=true"),
            Err(RulesError::CrossWithoutSpinner)
        );
        assert_eq!(Rules::parse("set=8"), Err(RulesError::Set(8)));
        let e = Rules::parse("players=8 hand=4").unwrap_err().to_string();
        assert!(
            e.contains("it must be 3 on a double-6 set") && e.contains("32 of 28"),
            "{e}"
        );
        assert!(Rules::parse("set=12 players=8 hand=11").is_ok());
        assert!(Rules::parse("set=12 players=8 hand=12").is_err());
        assert!(Rules::parse("first-lead=sideways").is_err());
        assert!(Rules::parse("block voluntary-draw=true").is_err());
        assert_eq!(
            Rules::parse("draw award=subtract-own"),
            Err(RulesError::NeverEnds)
        );
    }

    #[test]
    fn an_option_given_twice_with_two_values_is_refused() {
        let e = Rules::parse("five-up target=150 spinner=all target=300").unwrap_err();
        assert_eq!(
            e.to_string(),
            "option target is given twice (target=150, then target=300): give it once"
        );
        let e = Rules::parse("cross players=4 partnerships=true partners=false").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("option partnerships is given twice (partnerships=true, then"),
            "{e}"
        );
        // The same value twice loses nothing.
        assert_eq!(
            Rules::parse("five-up target=150 target=150")
                .unwrap()
                .target,
            150
        );
    }

    #[test]
    fn a_hand_size_with_one_choice_names_it_alone() {
        // Eight players on a double-six set: 28 tiles deal 3 each, no more.
        let e = Rules::parse("five-up set=6 players=8 hand=4").unwrap_err();
        assert_eq!(
            e.to_string(),
            "hand size 4 is not allowed with 8 players: it must be 3 on a double-6 set \
             (8 x 4 = 32 of 28 tiles)"
        );
        let e = Rules::parse("five-up players=2 hand=15").unwrap_err();
        assert!(e.to_string().contains("it must be 3 to 14 on"), "{e}");
    }

    #[test]
    fn the_party_game_refuses_a_table_below_five() {
        for n in 2..5 {
            let e = Rules::parse(&format!("party-twelve players={n}")).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!(
                    "party-twelve is a game for 5 to 8 players, not {n}: use players=5 to 8, \
                     or another preset for a smaller table"
                )
            );
        }
        assert_eq!(Rules::parse("party-twelve").unwrap().players, 5);
        assert_eq!(Rules::parse("party-twelve players=8").unwrap().players, 8);
        // Other presets take any table their set seats.
        assert!(Rules::parse("five-up set=12 players=2").is_ok());
        assert!(Rules::parse("draw set=9 players=7").is_ok());
    }

    #[test]
    fn parse_preset_with_overrides() {
        let r = Rules::parse("cross players=4 partnerships=false target=300").unwrap();
        assert_eq!(r.spinner, SpinnerRule::All);
        assert!(!r.partnerships);
        assert_eq!(r.target, 300);
        assert_eq!(r.hand_size, 5);
    }

    #[test]
    fn new_options_are_written_only_when_set() {
        let d = Rules::default().to_options_string();
        assert!(!d.contains("set=") && !d.contains("first-lead") && !d.contains("cross-first"));
        let r = Rules::parse("set=9 players=5 first-lead=lot cross-first=true").unwrap();
        let s = r.to_options_string();
        assert!(s.ends_with("set=9 first-lead=lot cross-first=true"), "{s}");
        assert_eq!(Rules::parse(&s).unwrap(), r);
        // A rules value stored as JSON before these options existed still reads.
        let mut v = serde_json::to_value(Rules::default()).unwrap();
        let o = v.as_object_mut().unwrap();
        o.remove("set");
        o.remove("first_lead");
        o.remove("cross_first");
        assert_eq!(
            serde_json::from_value::<Rules>(v).unwrap(),
            Rules::default()
        );
    }
}
