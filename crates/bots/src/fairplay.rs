//! Finding computer-assisted play from a player's moves.
//!
//! A person who copies a strong computer player's moves in rated games agrees with a strong
//! analysis more often, and loses fewer points a decision, than honest players of their rating.
//! This module measures both for one seat of a finished game ([`game_figures`]) and compares an
//! account's recent games with the honest baseline of its rating band
//! ([`suspicion`]). The method, the bands and the threshold are explained in
//! `docs/fairplay.md`; the measurement that produced the bands and the threshold is the example
//! `fairplay_measure` (`docs/benchmarks.md`, "Finding computer-assisted play").

use fiveup_engine::notation::Record;
use fiveup_engine::{Action, FastRng, Phase, Seat, State, View};
use serde::{Deserialize, Serialize};

use crate::duel::mix;
use crate::{level_spec, make_bot, Bot, Player, SpecError};

use crate::pimc::{analyze, ExpertConfig, NEAR_TARGET};
use crate::review::{judge, ReviewError, NOISE_FACTOR};

/// The most one decision's loss counts for, in points: [`NEAR_TARGET`], the margin to the
/// target within which the analysis values a won game at [`crate::WIN_VALUE`] (500) rather than
/// in points. Near the target one decision can lose hundreds in those units, and a few such
/// decisions would otherwise make an account's loss per decision.
pub const LOSS_CAP: f64 = NEAR_TARGET as f64;

/// A simulated person of the detector's measurements (the example `fairplay_measure` and the
/// load generator's fair-play mode): a level's player who plays a uniformly random legal action
/// on `slip` of its decisions with a choice, and the master level's move on `copy` of them.
pub struct SimulatedPerson {
    own: Box<dyn Player>,
    master: Option<Box<dyn Player>>,
    copy: f64,
    slip: f64,
    rng: FastRng,
}

impl std::fmt::Debug for SimulatedPerson {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SimulatedPerson")
            .field("own", &self.own.name())
            .field("master", &self.master.as_ref().map(|m| m.name()))
            .field("copy", &self.copy)
            .field("slip", &self.slip)
            .finish_non_exhaustive()
    }
}

/// A level's player that sees its seat only.
fn seat_player(level: &str, seed: u64) -> Result<Box<dyn Player>, SpecError> {
    let spec = level_spec(level).ok_or_else(|| SpecError(format!("no level {level}")))?;
    match make_bot(spec, seed)? {
        Bot::Seat(p) => Ok(p),
        Bot::Omniscient(_) => Err(SpecError(format!("{level} sees every hand"))),
    }
}

impl SimulatedPerson {
    /// A person of `level` (its players seeded from `seed`).
    ///
    /// # Errors
    /// When `level` is not a level whose player sees its seat only.
    pub fn new(level: &str, slip: f64, copy: f64, seed: u64) -> Result<SimulatedPerson, SpecError> {
        Ok(SimulatedPerson {
            own: seat_player(level, mix(seed ^ 1))?,
            master: if copy > 0.0 {
                Some(seat_player("master", mix(seed ^ 2))?)
            } else {
                None
            },
            copy,
            slip,
            rng: FastRng::new(mix(seed ^ 3)),
        })
    }

    /// The person's action from its seat's view: the master's move on `copy` of the decisions
    /// with a choice, else a random legal action on `slip` of them, else the level's.
    pub fn choose(&mut self, view: &View) -> Action {
        let legal = view.legal_actions();
        if legal.len() < 2 {
            return legal[0];
        }
        if self.rng.unit() < self.copy {
            if let Some(m) = &mut self.master {
                return m.choose(view);
            }
        }
        if self.rng.unit() < self.slip {
            return legal[self.rng.below(legal.len() as u32) as usize];
        }
        self.own.choose(view)
    }
}

/// A seed from a path of numbers (the measurements' accounts, games and seats).
#[must_use]
pub fn seed_path(parts: &[u64]) -> u64 {
    parts.iter().fold(0x5eed, |s, &p| mix(s ^ p))
}

/// What one seat's decisions in one game say: how many counted, how many agreed with the
/// analysis's best, and the points they lost.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameFigures {
    /// Decisions with a real choice: two or more legal actions, and at least one of them worth
    /// less than the best by more than the noise of the analysis.
    pub decisions: u32,
    /// Of those, the decisions whose choice was the analysis's best or within the noise of it
    /// ([`crate::review::MoveReview::within_noise`]).
    pub agreed: u32,
    /// The points those decisions lost against the best: each decision's counted loss
    /// ([`crate::review::MoveReview::counted_loss`]), at most [`LOSS_CAP`].
    pub loss: f64,
}

/// The detector's analysis settings: pimc's search over 30 sampled worlds finished by the club
/// rollout, on one thread (the server runs it on one worker thread). In a release build on the
/// two-core development machine it took 1.93 ms of processor time per decision with two or
/// more legal actions (1,111 s over the measurement's 576,850 such decisions), and a seat of a
/// two-player game to 150 has about 25 of them: some 50 ms of processor per person and game.
/// See `docs/fairplay.md` for the choice of 30 worlds.
#[must_use]
pub fn analysis_config() -> ExpertConfig {
    ExpertConfig {
        samples: 30,
        threads: 1,
        ..ExpertConfig::default()
    }
}

/// The figures of `seat`'s decisions in a recorded game: the record is replayed and checked,
/// and each decision of `seat` with two or more legal actions is analysed from that seat's view
/// with `cfg` (the seeds follow [`crate::review::review`]'s, so a decision's verdict is the
/// review's with the same settings and seed). Decisions where every legal action is within the
/// noise of the best are no real choice and are not counted. Other seats' decisions are not
/// analysed.
pub fn game_figures(
    record: &Record,
    seat: Seat,
    cfg: &ExpertConfig,
    seed: u64,
) -> Result<GameFigures, ReviewError> {
    let game = record
        .replay()
        .map_err(|e| ReviewError(format!("the record does not replay: {e}")))?;
    let mut fig = GameFigures {
        decisions: 0,
        agreed: 0,
        loss: 0.0,
    };
    for (h, hand) in game.hands.iter().enumerate() {
        let deal = record.hands[h].deal;
        let mut state = State::with_start(record.rules, deal, hand.start)
            .map_err(|e| ReviewError(format!("hand {}: {e}", h + 1)))?;
        for (i, step) in hand.steps.iter().enumerate() {
            if !matches!(state.phase(), Phase::Play | Phase::Claim) {
                break;
            }
            let legal = state.legal_actions();
            if state.to_move() == seat && legal.len() > 1 {
                let evals = analyze(&state.view(seat), cfg, seed ^ ((h as u64) << 32) ^ i as u64);
                let not_legal = || {
                    ReviewError(format!(
                        "hand {}, action {}: {} is not among the legal actions",
                        h + 1,
                        i + 1,
                        step.action
                    ))
                };
                let r = judge(h + 1, i + 1, seat, step.action, &evals, legal.len())
                    .ok_or_else(not_legal)?;
                let best = &evals[0];
                let real_choice = evals
                    .iter()
                    .any(|e| best.mean - e.mean > NOISE_FACTOR * best.stderr.hypot(e.stderr));
                if real_choice {
                    fig.decisions += 1;
                    fig.agreed += u32::from(r.within_noise());
                    fig.loss += r.counted_loss().min(LOSS_CAP);
                }
            }
            state
                .apply(step.action)
                .map_err(|e| ReviewError(format!("hand {}, action {}: {e}", h + 1, i + 1)))?;
        }
    }
    Ok(fig)
}

/// The honest baseline of one rating band: how players of that strength agree with the
/// analysis and what they lose, measured on simulated honest players of the level the band
/// stands for (the example `fairplay_measure`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Band {
    /// The level whose honest players the baseline was measured on (`casual`, `club`,
    /// `strong`).
    pub name: &'static str,
    /// The lowest rating of the band (inclusive), on the scale of `docs/strength.md` (random
    /// 1000); the lowest band starts at minus infinity.
    pub low: f64,
    /// The highest rating of the band (exclusive); the highest band ends at infinity.
    pub high: f64,
    /// The level's measured rating ([`crate::measured_rating`]).
    pub rating: f64,
    /// The honest players' agreement: agreed decisions over decisions, all accounts pooled.
    pub agreement: f64,
    /// The standard deviation of one decision's agreement within an account, over-dispersion
    /// included (decisions of one game are not independent): the standard error of an
    /// account's agreement over `n` decisions is this over the square root of `n`, before the
    /// spread between accounts.
    pub agreement_sd: f64,
    /// The standard deviation of the honest accounts' own agreement rates around the band's
    /// (people differ): it does not shrink with more games.
    pub agreement_spread: f64,
    /// The honest players' points lost per decision, all accounts pooled.
    pub loss: f64,
    /// The standard deviation of one decision's loss within an account, as `agreement_sd`.
    pub loss_sd: f64,
    /// The standard deviation of the honest accounts' own loss per decision around the band's.
    pub loss_spread: f64,
    /// The correlation, over the honest accounts, of the two standardised figures (agreement
    /// above the band, loss below it): the two are combined into one z-score with it.
    pub correlation: f64,
    /// The fewest decisions an account needs before it can be flagged in this band: the
    /// smallest count at which the band's honest players expect five disagreements (`5 / (1 -
    /// agreement)`, rounded up), the usual condition for a binomial count's normal
    /// approximation, on which the z-score rests.
    pub min_decisions: u32,
    /// Honest accounts the baseline was measured on.
    pub accounts: u32,
    /// Games of those accounts (each analysed from the account's seat).
    pub games: u32,
}

/// An account's figures over its recent games against the baseline of its band.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Suspicion {
    /// Games counted (the most recent, at most [`WINDOW`]).
    pub games: usize,
    /// Decisions with a real choice in those games.
    pub decisions: u32,
    /// Agreed decisions over decisions (0 with no decision).
    pub agreement: f64,
    /// Points lost per decision (0 with no decision).
    pub loss_per_decision: f64,
    /// The band the account was compared with (its level's name).
    pub band: String,
    /// The band's honest agreement.
    pub band_agreement: f64,
    /// The band's honest loss per decision.
    pub band_loss: f64,
    /// How far the account is above its band's agreement and below its loss, in standard
    /// errors: the two one-sided z-scores summed and divided by the standard deviation of their
    /// sum among honest accounts. About 0 for an honest account of the band; 0 with no
    /// decision.
    pub z: f64,
    /// Whether the account is flagged: at least the band's minimum of decisions
    /// ([`Band::min_decisions`]) and `z` at least the threshold.
    pub flagged: bool,
}

/// The games [`suspicion`] looks back over: an account's most recent ones. The threshold was
/// chosen for accounts checked after each of their first this many games.
pub const WINDOW: usize = 20;

/// The honest baselines, weakest first, measured by the example `fairplay_measure` (seed 1,
/// its default accounts; `docs/benchmarks.md`, "Finding computer-assisted play"): the
/// `casual`, `club` and `strong` levels' simulated honest accounts, 20 games each. The ranges
/// are contiguous and cover every rating.
pub const BANDS: &[Band] = &[
    Band {
        name: "casual",
        low: f64::NEG_INFINITY,
        high: 1256.0,
        rating: 1198.0,
        agreement: 0.7764029297020336,
        agreement_sd: 0.44030375745575795,
        agreement_spread: 0.007161881675838021,
        loss: 5.6471125001328835,
        loss_sd: 14.217562672879685,
        loss_spread: 0.24263029449623452,
        correlation: 0.8177079095347958,
        min_decisions: 23,
        accounts: 480,
        games: 9600,
    },
    Band {
        name: "club",
        low: 1256.0,
        high: 1358.0,
        rating: 1314.0,
        agreement: 0.8460363671073354,
        agreement_sd: 0.42856257561514444,
        agreement_spread: 0.010210738316243076,
        loss: 4.072045816828139,
        loss_sd: 13.914148400213108,
        loss_spread: 0.3004573013409067,
        correlation: 0.8227774783901668,
        min_decisions: 33,
        accounts: 480,
        games: 9600,
    },
    Band {
        name: "strong",
        low: 1358.0,
        high: f64::INFINITY,
        rating: 1402.0,
        agreement: 0.9534502923976608,
        agreement_sd: 0.20921212842903075,
        agreement_spread: 0.0151374985234609,
        loss: 1.209874074074074,
        loss_sd: 6.616600879850607,
        loss_spread: 0.36395186710743627,
        correlation: 0.9007654946689135,
        min_decisions: 108,
        accounts: 40,
        games: 800,
    },
];

/// The z-score from which an account is flagged: the lowest multiple of 0.05 at which fewer than
/// 0.5% of the measurement's 1,000 simulated honest accounts were ever flagged, checked after
/// each of their first [`WINDOW`] games (see `docs/fairplay.md`).
pub const FLAG_Z: f64 = 2.85;

/// The band a rating falls in, on the scale of `docs/strength.md` (random 1000; see
/// [`crate::measured_rating`]): the band whose range holds it. A rating above every measured
/// level is judged against the strongest honest baseline and one below every level against the
/// weakest; one that is not a number against the strongest (the mistake that flags fewer).
#[must_use]
pub fn band_for(rating: f64) -> &'static Band {
    BANDS
        .iter()
        .find(|b| rating >= b.low && rating < b.high)
        .unwrap_or(&BANDS[BANDS.len() - 1])
}

/// An account's suspicion: its most recent games (at most [`WINDOW`] of `games`, oldest first)
/// against the honest baseline of the band its `rating` falls in ([`band_for`]), flagged from
/// [`FLAG_Z`].
#[must_use]
pub fn suspicion(games: &[GameFigures], rating: f64) -> Suspicion {
    suspicion_against(games, band_for(rating), FLAG_Z)
}

/// An account's suspicion against a given band and threshold (the measurement calls it with
/// the bands it is measuring): the last [`WINDOW`] games of `games` are pooled, and the account is
/// flagged when it has at least the band's minimum of decisions and a z-score of at least
/// `flag_z`.
#[must_use]
pub fn suspicion_against(games: &[GameFigures], band: &Band, flag_z: f64) -> Suspicion {
    let recent = &games[games.len().saturating_sub(WINDOW)..];
    let decisions: u32 = recent.iter().map(|g| g.decisions).sum();
    let agreed: u32 = recent.iter().map(|g| g.agreed).sum();
    let loss: f64 = recent.iter().map(|g| g.loss).sum();
    let (agreement, loss_per_decision, z) = if decisions == 0 {
        (0.0, 0.0, 0.0)
    } else {
        let n = f64::from(decisions);
        let agreement = f64::from(agreed) / n;
        let loss_per_decision = loss / n;
        let z = combined_z(band, agreement, loss_per_decision, n);
        (agreement, loss_per_decision, z)
    };
    Suspicion {
        games: recent.len(),
        decisions,
        agreement,
        loss_per_decision,
        band: band.name.to_string(),
        band_agreement: band.agreement,
        band_loss: band.loss,
        z,
        flagged: decisions >= band.min_decisions && z >= flag_z,
    }
}

/// The two one-sided z-scores of an account with `agreement` and `loss` per decision over `n`
/// decisions: agreement above the band's, loss below it.
#[must_use]
pub fn z_scores(band: &Band, agreement: f64, loss: f64, n: f64) -> (f64, f64) {
    let se = |sd: f64, spread: f64| (sd * sd / n + spread * spread).sqrt().max(1e-9);
    (
        (agreement - band.agreement) / se(band.agreement_sd, band.agreement_spread),
        (band.loss - loss) / se(band.loss_sd, band.loss_spread),
    )
}

/// The z-scores of [`z_scores`] combined: their sum over its standard deviation among honest
/// accounts, `sqrt(2 + 2 correlation)`.
fn combined_z(band: &Band, agreement: f64, loss: f64, n: f64) -> f64 {
    let (za, zl) = z_scores(band, agreement, loss, n);
    (za + zl) / (2.0 + 2.0 * band.correlation).max(1e-9).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::review;
    use fiveup_engine::notation::Recorder;
    use fiveup_engine::{Action, FastRng, Rules, Seed};

    /// A two-player game to `target` from `seed` (at most four hands): seat 0 chooses with
    /// `zero` (given the state, the hand's index and the action's index in the hand), seat 1 at
    /// random.
    fn short_game(
        target: u16,
        seed: u64,
        mut zero: impl FnMut(&State, usize, usize) -> Action,
    ) -> Record {
        let seed = Seed::from_u64(seed);
        let rules = Rules {
            target,
            ..Rules::default()
        };
        let mut state = State::from_seed(rules, &seed).unwrap();
        let mut rec = Recorder::new(&state, None, Some(seed)).unwrap();
        let mut rng = FastRng::new(5);
        for h in 0..4 {
            let mut i = 0;
            while matches!(state.phase(), Phase::Play | Phase::Claim) {
                let legal = state.legal_actions();
                let a = if state.to_move() == Seat(0) {
                    zero(&state, h, i)
                } else {
                    legal[rng.below(legal.len() as u32) as usize]
                };
                rec.apply(&mut state, a).unwrap();
                i += 1;
            }
            if state.phase() != Phase::HandOver {
                break;
            }
            state.next_hand_from_seed(&seed).unwrap();
            rec.start_hand(&state);
        }
        rec.finish(&state)
    }

    fn cfg() -> ExpertConfig {
        ExpertConfig::parse("samples=16,threads=1").unwrap()
    }

    #[test]
    fn a_seat_that_plays_the_analysis_best_agrees_every_time() {
        let seed = 77;
        let cfg = analysis_config();
        let record = short_game(150, 3, |state, h, i| {
            let legal = state.legal_actions();
            if legal.len() < 2 {
                return legal[0];
            }
            let evals = analyze(
                &state.view(Seat(0)),
                &cfg,
                seed ^ ((h as u64) << 32) ^ i as u64,
            );
            evals[0].action
        });
        let f = game_figures(&record, Seat(0), &cfg, seed).unwrap();
        assert!(f.decisions >= 5, "{f:?}");
        assert_eq!(f.agreed, f.decisions, "{f:?}");
        assert_eq!(f.loss, 0.0);
        // The other seat played at random: it does not agree every time.
        let other = game_figures(&record, Seat(1), &cfg, seed).unwrap();
        assert!(other.agreed < other.decisions, "{other:?}");
    }

    #[test]
    fn a_random_game_figures_as_its_review_says() {
        let mut rng = FastRng::new(9);
        let record = short_game(50, 12, |state, _, _| {
            let legal = state.legal_actions();
            legal[rng.below(legal.len() as u32) as usize]
        });
        let reviews = review(&record, &cfg(), 4).unwrap();
        for seat in [Seat(0), Seat(1)] {
            let f = game_figures(&record, seat, &cfg(), 4).unwrap();
            let mine: Vec<_> = reviews.iter().filter(|r| r.seat == seat).collect();
            let missed: Vec<_> = mine.iter().filter(|r| !r.within_noise()).collect();
            // Every choice outside the noise of the best is a real choice, and a disagreement;
            // choices within it count only where some other action was worse.
            assert_eq!(
                f.decisions - f.agreed,
                missed.len() as u32,
                "{seat:?} {f:?}"
            );
            assert!(f.decisions as usize <= mine.len());
            assert!(
                f.decisions > f.agreed,
                "random play missed something: {f:?}"
            );
            let loss: f64 = missed.iter().map(|r| r.counted_loss().min(LOSS_CAP)).sum();
            assert!((f.loss - loss).abs() < 1e-9, "{} {loss}", f.loss);
            assert!(f.loss > 0.0);
        }
        // Not a record of this game: refused.
        let mut bad = record.clone();
        bad.hands[0].moves.swap(0, 1);
        assert!(game_figures(&bad, Seat(0), &cfg(), 4).is_err());
    }

    #[test]
    fn figures_travel_as_json() {
        let f = GameFigures {
            decisions: 12,
            agreed: 9,
            loss: 17.25,
        };
        let json = serde_json::to_string(&f).unwrap();
        assert_eq!(serde_json::from_str::<GameFigures>(&json).unwrap(), f);
    }

    /// `games` games of `decisions` decisions each, `agreed` of them agreeing, losing `loss`.
    fn games(n: usize, decisions: u32, agreed: u32, loss: f64) -> Vec<GameFigures> {
        vec![
            GameFigures {
                decisions,
                agreed,
                loss,
            };
            n
        ]
    }

    #[test]
    fn the_bands_cover_every_rating_in_order() {
        assert_eq!(BANDS[0].low, f64::NEG_INFINITY);
        assert_eq!(BANDS[BANDS.len() - 1].high, f64::INFINITY);
        for w in BANDS.windows(2) {
            assert_eq!(w[0].high, w[1].low);
            assert!(w[0].rating < w[1].rating);
        }
        for b in BANDS {
            assert_eq!(
                Some(b.rating),
                crate::measured_rating(b.name).map(f64::from),
                "{}",
                b.name
            );
            assert!(b.low <= b.rating && b.rating < b.high, "{}", b.name);
            assert_eq!(band_for(b.rating).name, b.name);
            assert!(b.agreement > 0.0 && b.agreement < 1.0);
            assert!(b.min_decisions > 0);
        }
        assert_eq!(band_for(-5000.0).name, BANDS[0].name);
        assert_eq!(band_for(5000.0).name, BANDS[BANDS.len() - 1].name);
        assert_eq!(band_for(f64::NAN).name, BANDS[BANDS.len() - 1].name);
        const { assert!(FLAG_Z > 0.0) };
    }

    #[test]
    fn an_assisted_population_is_flagged_and_an_honest_one_is_not() {
        let rating = f64::from(crate::measured_rating("club").unwrap());
        let band = band_for(rating);
        assert_eq!(band.name, "club");
        // Honest: twenty games at the band's own rates.
        let d = 12;
        let honest_agreed = (f64::from(d) * band.agreement).round() as u32;
        let honest = games(WINDOW, d, honest_agreed, f64::from(d) * band.loss);
        let s = suspicion(&honest, rating);
        assert!(!s.flagged, "{s:?}");
        assert!(s.z.abs() < 1.0, "{s:?}");
        assert_eq!((s.games, s.decisions), (WINDOW, WINDOW as u32 * d));
        assert_eq!(s.band, "club");
        // Assisted: every decision the analysis's best, nothing lost.
        let assisted = games(WINDOW, d, d, 0.0);
        let s = suspicion(&assisted, rating);
        assert!(s.flagged, "{s:?}");
        assert_eq!(s.agreement, 1.0);
        assert_eq!(s.loss_per_decision, 0.0);
        assert!(s.z >= FLAG_Z);
        // The same account judged as a stronger player is less suspicious.
        let strong = suspicion(&assisted, 5000.0);
        assert!(strong.z < s.z, "{strong:?}");
        // Too few decisions: never flagged, whatever the figures.
        let few = games(1, band.min_decisions - 1, band.min_decisions - 1, 0.0);
        let s = suspicion(&few, rating);
        assert!(!s.flagged && s.z > 0.0, "{s:?}");
        // Nothing to judge.
        let s = suspicion(&[], rating);
        assert_eq!((s.decisions, s.z, s.flagged), (0, 0.0, false));
        // Only the recent window counts: an account that copied long ago and plays honestly
        // now is not flagged.
        let mut history = assisted.clone();
        history.extend(honest.iter().cloned());
        let s = suspicion(&history, rating);
        assert!(!s.flagged, "{s:?}");
        assert_eq!(s.games, WINDOW);
    }

    #[test]
    fn a_suspicion_travels_as_json() {
        let s = suspicion(&games(5, 10, 9, 3.5), 1314.0);
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<Suspicion>(&json).unwrap(), s);
    }
}
