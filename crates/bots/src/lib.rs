//! # fiveup-bots
//!
//! Computer players for Five Up. A [`Player`] receives only a [`View`]: what its seat may
//! know. It cannot reach another seat's tiles or the boneyard order, because a view holds
//! neither. The one exception is the oracle, which sees the whole state to measure what hidden
//! information costs. It implements [`OmniscientPlayer`] instead, which only the match runner
//! can call, and it is never offered as an opponent.
//!
//! Every player is deterministic given its seed. Two players are compared by a duplicate
//! match: see [`duel`].
//!
//! ```
//! use fiveup_bots::{make_bot, Bot};
//! use fiveup_engine::{Rules, Seed, State};
//!
//! let mut state = State::from_seed(Rules::default(), &Seed::from_u64(1)).unwrap();
//! let Bot::Seat(mut greedy) = make_bot("greedy", 7).unwrap() else { unreachable!() };
//! let seat = state.to_move();
//! let action = greedy.choose(&state.view(seat));
//! state.apply(action).unwrap();
//! ```

use std::fmt;

use fiveup_engine::{Action, State, View};

mod club;
pub mod duel;
mod expert;
pub mod fairplay;
mod greedy;
mod infer;
pub mod learned;
pub mod neural;
mod pimc;
mod random;
pub mod rating;
pub mod review;

pub use club::{choose_with as club_choose_with, Club, Weights as ClubWeights};
pub use duel::{run_match, MakeBot, MatchConfig, MatchError, MatchMode, MatchReport};
pub use expert::{Expert, EXPERT_SAMPLES};
pub use greedy::{greedy_action, Greedy};
pub use infer::{world_weight, world_weight_model, world_weight_with, DEFAULT_INFER, FLOOR};
pub use pimc::{
    analyze, analyze_within, points_margin, ActionEval, ExpertConfig, Leaf, Oracle, Pimc, Rollout,
    DEFAULT_SAMPLES, NEAR_TARGET, WIN_VALUE,
};
pub use random::RandomPlayer;

/// A computer player that sees only its seat's view.
pub trait Player: Send {
    /// The player's name with its settings, for reports (`greedy`, `expert:samples=400`).
    fn name(&self) -> String;

    /// Choose one of `view.legal_actions()` for the viewer's seat. Called only when it is the
    /// viewer's turn and the hand is in play.
    fn choose(&mut self, view: &View) -> Action;

    /// [`Player::choose`] within a time limit: a searching player stops sampling once `cap`
    /// has passed (finishing the world in progress, and evaluating at least one), so that its
    /// answer comes in about `cap` whatever its budget, set or build. Cut short, the choice
    /// rests on fewer worlds and depends on timing; within the limit it is exactly
    /// [`Player::choose`]'s. Players that do not search answer at once and ignore the cap.
    fn choose_within(&mut self, view: &View, cap: std::time::Duration) -> Action {
        let _ = cap;
        self.choose(view)
    }

    /// Told once a hand is over, with the seat's view of the finished hand (every hand
    /// revealed in its result). Players that keep no memory between hands ignore it; a player
    /// that speaks to an outside program passes the result on.
    fn hand_over(&mut self, view: &View) {
        let _ = view;
    }
}

/// A player that sees the whole state: only for measurement (the oracle).
pub trait OmniscientPlayer: Send {
    /// The player's name with its settings.
    fn name(&self) -> String;

    /// Choose one of `state.legal_actions()` for the seat to move.
    fn choose(&mut self, state: &State) -> Action;
}

/// A computer player of either kind.
pub enum Bot {
    /// Sees its seat's view only.
    Seat(Box<dyn Player>),
    /// Sees everything (the oracle; for measurement only).
    Omniscient(Box<dyn OmniscientPlayer>),
}

impl fmt::Debug for Bot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bot({})", self.name())
    }
}

impl Bot {
    /// The player's name with its settings.
    #[must_use]
    pub fn name(&self) -> String {
        match self {
            Bot::Seat(p) => p.name(),
            Bot::Omniscient(p) => p.name(),
        }
    }

    /// Tell a seat player in `seat` that the hand in `state` is over (see
    /// [`Player::hand_over`]); it is given only that seat's view.
    pub fn hand_over(&mut self, state: &State, seat: fiveup_engine::Seat) {
        if let Bot::Seat(p) = self {
            p.hand_over(&state.view(seat));
        }
    }

    /// Choose the action of the seat to move in `state`. A seat player is given only that
    /// seat's view.
    pub fn choose(&mut self, state: &State) -> Action {
        match self {
            Bot::Seat(p) => p.choose(&state.view(state.to_move())),
            Bot::Omniscient(p) => p.choose(state),
        }
    }
}

/// Why a player spec was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SpecError {}

/// The players that can be named, in order of strength (`oracle` sees every hand: it is for
/// measurement only).
pub const PLAYERS: [&str; 7] = [
    "random", "greedy", "club", "neural", "pimc", "expert", "oracle",
];

/// The levels people choose from, weakest first: a name for players and the player spec it
/// stands for (each searcher on one thread, with its default budget). Their ratings are
/// measured in `docs/strength.md`.
pub const LEVELS: [(&str, &str); 5] = [
    ("beginner", "random"),
    ("casual", "greedy"),
    ("club", "club"),
    ("strong", "pimc:threads=1"),
    ("master", "expert:threads=1"),
];

/// The measured rating of a player spec's kind (a level or a player spec), on the Elo scale of
/// `docs/strength.md` (random 1000, the anchor): random 1000, greedy 1198, club and neural
/// 1314, pimc 1402, expert 1444. `None` for the oracle (which sees every hand) and for names
/// that are no player. Tournaments seed computer entrants with it, online and offline.
#[must_use]
pub fn measured_rating(spec: &str) -> Option<i32> {
    let name = spec.split(':').next().unwrap_or("").trim();
    let base = level_spec(name).unwrap_or(name);
    match base.split(':').next().unwrap_or("") {
        "random" => Some(1000),
        "greedy" => Some(1198),
        "club" => Some(1314),
        // Level with club over 1,000 deals (docs/strength.md, the learned expert).
        "neural" => Some(1314),
        "pimc" => Some(1402),
        "expert" => Some(1444),
        _ => None,
    }
}

/// The player spec a level stands for (`None` for a name that is not a level).
#[must_use]
pub fn level_spec(level: &str) -> Option<&'static str> {
    LEVELS.iter().find(|(l, _)| *l == level).map(|(_, s)| *s)
}

/// A player spec split into the player's name and its settings, a level replaced by the spec
/// it plays (a level takes no settings of its own).
fn split_spec(spec: &str) -> Result<(&str, &str), SpecError> {
    let (name, settings) = match spec.split_once(':') {
        Some((n, s)) => (n.trim(), s.trim()),
        None => (spec.trim(), ""),
    };
    if let Some(level) = level_spec(name).filter(|&s| s != name) {
        if !settings.is_empty() {
            return Err(SpecError(format!(
                "the level {name} takes no settings, got {settings:?} (it plays {level})"
            )));
        }
        return split_spec(level);
    }
    Ok((name, settings))
}

/// The search settings of a searcher's spec (`pimc:...` or `expert:...`) or of a level that
/// plays one (`strong`, `master`): what [`analyze`] needs to value every action as that
/// player would. An error for any other player or a bad setting.
pub fn search_config(spec: &str) -> Result<ExpertConfig, SpecError> {
    let (name, settings) = split_spec(spec)?;
    match name {
        "pimc" => ExpertConfig::parse(settings),
        "expert" => ExpertConfig::parse_expert(settings),
        _ => Err(SpecError(format!(
            "{name:?} does not search from a seat's view; searchers are pimc and expert"
        ))),
    }
}

/// A player from its spec: a name, then optional `key=value` settings after a colon, separated
/// by commas (`random`, `greedy`, `club`, `pimc:samples=400,threads=1`, `expert`, `oracle`), or a
/// level from [`LEVELS`] (`beginner` .. `master`), which takes no settings. `seed` makes it
/// deterministic (a searcher with a `time` budget excepted).
pub fn make_bot(spec: &str, seed: u64) -> Result<Bot, SpecError> {
    let (name, settings) = split_spec(spec)?;
    let no_settings = |n: &str| -> Result<(), SpecError> {
        if settings.is_empty() {
            Ok(())
        } else {
            Err(SpecError(format!(
                "{n} takes no settings, got {settings:?}"
            )))
        }
    };
    match name {
        "random" => {
            no_settings(name)?;
            Ok(Bot::Seat(Box::new(RandomPlayer::new(seed))))
        }
        "greedy" => {
            no_settings(name)?;
            Ok(Bot::Seat(Box::new(Greedy)))
        }
        "club" => {
            no_settings(name)?;
            Ok(Bot::Seat(Box::new(Club)))
        }
        "neural" => {
            no_settings(name)?;
            Ok(Bot::Seat(Box::new(neural::Neural::shipped())))
        }
        "pimc" => Ok(Bot::Seat(Box::new(Pimc::new(
            ExpertConfig::parse(settings)?,
            seed,
        )))),
        "expert" => Ok(Bot::Seat(Box::new(Expert::new(
            ExpertConfig::parse_expert(settings)?,
            seed,
        )))),
        "oracle" => Ok(Bot::Omniscient(Box::new(Oracle::new(
            ExpertConfig::parse(settings)?,
            seed,
        )))),
        _ => Err(SpecError(format!(
            "unknown player {name:?}; players are: {}; levels are: {}",
            PLAYERS.join(", "),
            LEVELS.map(|(l, _)| l).join(", ")
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fiveup_engine::{FastRng, Phase, Preset, Rules, Seed};

    /// Every level and player but the oracle has a measured rating, a level its player's.
    #[test]
    fn every_entrant_kind_has_its_measured_rating() {
        for (level, spec) in LEVELS {
            assert!(measured_rating(level).is_some(), "{level}");
            assert_eq!(measured_rating(level), measured_rating(spec), "{level}");
        }
        for p in PLAYERS {
            assert_eq!(measured_rating(p).is_some(), p != "oracle", "{p}");
        }
        assert_eq!(measured_rating("club"), Some(1314));
        assert_eq!(measured_rating("strong"), Some(1402));
        assert_eq!(measured_rating("wizard"), None);
    }

    /// Play whole hands of every preset with the given players; every choice must be legal.
    fn plays_legally(spec: &str) {
        let mut rng = FastRng::new(3);
        for preset in Preset::ALL {
            for players in 2..=4u8 {
                let rules = Rules::preset(preset, players);
                let mut bots: Vec<Bot> = (0..players)
                    .map(|i| make_bot(spec, u64::from(i)).unwrap())
                    .collect();
                let mut s = State::from_seed(rules, &Seed::from_u64(rng.next_u64())).unwrap();
                while matches!(s.phase(), Phase::Play | Phase::Claim) {
                    let seat = s.to_move();
                    let a = bots[seat.idx()].choose(&s);
                    assert!(s.is_legal(a), "{spec} chose illegal {a} in {preset}");
                    s.apply(a).unwrap();
                }
            }
        }
    }

    #[test]
    fn random_and_greedy_play_legally_under_every_preset() {
        plays_legally("random");
        plays_legally("greedy");
    }

    #[test]
    fn searchers_play_legally_under_every_preset() {
        plays_legally("pimc:samples=8,threads=2");
        plays_legally("expert:samples=8,threads=2");
        plays_legally("expert:samples=6,threads=1,infer=3");
        plays_legally("expert:samples=4,threads=1,nest=2,rollout=seeing");
        plays_legally("expert:samples=6,threads=1,rollout=learned");
        plays_legally("expert:samples=4,threads=1,nest=2,rollout=learned");
        plays_legally("expert:samples=4,threads=1,reply=3,rollout=learned");
        plays_legally("expert:samples=4,threads=1,reply=2");
        plays_legally("expert:samples=6,threads=1,leaf=net");
        plays_legally("expert:samples=4,threads=1,rollout=net");
        plays_legally("neural");
        plays_legally("oracle:samples=4,threads=1");
    }

    #[test]
    fn club_plays_legally_under_every_preset() {
        plays_legally("club");
    }

    #[test]
    fn searcher_settings_are_checked() {
        for name in ["pimc", "expert"] {
            assert!(make_bot(&format!("{name}:samples=0"), 1).is_err());
            assert!(make_bot(&format!("{name}:width=3"), 1).is_err());
            // Plies before the critic: only with the critic at the leaves.
            assert!(make_bot(&format!("{name}:depth=3"), 1).is_err());
            assert!(make_bot(&format!("{name}:samples=x"), 1).is_err());
        }
        assert_eq!(
            make_bot("pimc:samples=50,threads=1", 1).unwrap().name(),
            "pimc:samples=50,threads=1,endgame=8,rollout=club"
        );
        // Inference is the expert's: pimc weighs every world alike.
        assert!(make_bot("pimc:infer=10", 1).is_err());
        assert!(make_bot("expert:infer=1001", 1).is_err());
        assert!(make_bot("expert:reply=29", 1).is_err());
        assert!(make_bot("pimc:reply=2", 1).is_err());
        // The learned leaf and rollout are the expert's.
        assert!(make_bot("pimc:leaf=net", 1).is_err());
        assert!(make_bot("expert:leaf=tree", 1).is_err());
        assert!(make_bot("expert:leaf=net,depth=101", 1).is_err());
        assert!(make_bot("expert:depth=6,leaf=net", 1).is_ok());
        assert!(make_bot("neural:samples=3", 1).is_err());
        assert_eq!(
            make_bot("expert:samples=50,threads=1,leaf=net", 1)
                .unwrap()
                .name(),
            "expert:samples=50,threads=1,endgame=8,rollout=club,infer=3,leaf=net"
        );
        assert!(make_bot("expert:reply=3", 1)
            .unwrap()
            .name()
            .ends_with(",reply=3"));
        assert!(make_bot("oracle:infer=10", 1).is_err());
        // So is the learned rollout policy.
        assert!(make_bot("pimc:rollout=learned", 1).is_err());
        assert!(make_bot("expert:rollout=learned", 1)
            .unwrap()
            .name()
            .contains("rollout=learned"));
        assert!(make_bot("expert:samples=50,threads=1,infer=0", 1)
            .unwrap()
            .name()
            .starts_with("expert:samples=50,threads=1,endgame=8,rollout=club"));
    }

    #[test]
    fn levels_name_players() {
        for (level, spec) in LEVELS {
            assert_eq!(
                make_bot(level, 1).unwrap().name(),
                make_bot(spec, 1).unwrap().name(),
                "{level}"
            );
        }
        let e = make_bot("master:samples=3", 1).unwrap_err();
        assert!(e.0.contains("takes no settings"), "{e}");
        assert_eq!(level_spec("club"), Some("club"));
        assert_eq!(level_spec("expert"), None);
    }

    #[test]
    fn search_configs_follow_the_specs() {
        let master = search_config("master").unwrap();
        assert_eq!(
            master.describe("expert"),
            make_bot(level_spec("master").unwrap(), 1).unwrap().name()
        );
        assert_eq!(master.threads, 1);
        assert_eq!(
            search_config("pimc:samples=50,threads=1").unwrap(),
            ExpertConfig::parse("samples=50,threads=1").unwrap()
        );
        assert!(search_config("club").is_err());
        assert!(search_config("oracle").is_err());
        assert!(search_config("master:samples=3").is_err());
        assert!(search_config("expert:samples=0").is_err());
    }

    #[test]
    fn specs_are_checked() {
        assert!(make_bot("greedy:depth=3", 1).is_err());
        let e = make_bot("grandmaster", 1).unwrap_err();
        assert!(e.0.contains("players are"), "{e}");
        assert_eq!(make_bot("random", 1).unwrap().name(), "random");
    }
}
