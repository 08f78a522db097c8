//! Computer-assisted play found from the moves, off the hot path.
//!
//! Every rated game (live and correspondence) is queued when it ends (`fairplay_queue`). One
//! worker per instance takes the games one at a time and analyses each rated person's
//! decisions with the master level's evaluation (`fiveup_bots::fairplay`): of the decisions
//! with two or more plays of different value, how many chose the best play, and the points
//! lost against it. The worker runs on one blocking thread and sleeps after each game so that
//! it uses at most `--fairplay-share` percent of one core (25 by default; 0 turns it off):
//! tables never wait for it (their computer players use the compute pool, not this thread).
//!
//! Per account, the figures of its last [`WINDOW`] analysed rated games are compared with the
//! honest players of its rating band, as the server's [`Judging`] says ([`judged`]); an account
//! over the threshold gets an automatic flag in the moderators' queue, with its figures as
//! evidence (strength: how far over the band it is). docs/fairplay.md says how the bands and
//! the threshold were measured.

use std::sync::Arc;
use std::time::{Duration, Instant};

use fiveup_bots::fairplay::{GameFigures, Suspicion};
use fiveup_engine::Seat;

use crate::store::db;
use crate::App;

/// The games an account's suspicion figure is taken over (its most recent analysed ones).
pub const WINDOW: i64 = 20;

/// How long the worker waits for news before it looks at the queue again (games queued by
/// another instance, or left after a failure).
const IDLE: Duration = Duration::from_secs(5);

/// Tries at analysing one game before it is dropped from the queue (logged).
const ATTEMPTS: i64 = 3;

/// Queue a finished rated game for the analysis (idempotent).
pub async fn enqueue(app: &App, game: &str) -> Result<(), String> {
    sqlx::query(
        "INSERT INTO fairplay_queue (game_id, queued_at) VALUES ($1, $2) \
         ON CONFLICT (game_id) DO NOTHING",
    )
    .bind(game)
    .bind(crate::now())
    .execute(&app.db.pool)
    .await
    .map_err(db::db_err)?;
    app.fairplay_wake.notify_one();
    Ok(())
}

/// Start the worker (unless `--fairplay-share 0`).
pub fn start(app: &Arc<App>) {
    if app.cfg.fairplay_share == 0 {
        return;
    }
    let app = app.clone();
    tokio::spawn(async move {
        let mut shutdown = app.shutdown.clone();
        loop {
            if *shutdown.borrow() {
                return;
            }
            match next(&app).await {
                Ok(Some(spent)) => {
                    // Rest in proportion to the work: at most the share of one core.
                    let share = f64::from(app.cfg.fairplay_share.min(100));
                    let rest = spent.mul_f64((100.0 - share) / share);
                    tokio::select! {
                        () = tokio::time::sleep(rest) => {}
                        _ = shutdown.changed() => {}
                    }
                }
                Ok(None) => {
                    tokio::select! {
                        () = app.fairplay_wake.notified() => {}
                        () = tokio::time::sleep(IDLE) => {}
                        _ = shutdown.changed() => {}
                    }
                }
                Err(e) => {
                    crate::log(&format!("fair-play analysis: {e}"));
                    tokio::select! {
                        () = tokio::time::sleep(IDLE) => {}
                        _ = shutdown.changed() => {}
                    }
                }
            }
        }
    });
}

/// Take the oldest queued game and analyse it. `Ok(None)`: the queue is empty. Returns the
/// time the analysis took.
pub async fn next(app: &Arc<App>) -> Result<Option<Duration>, String> {
    let Some(row) = sqlx::query(
        "SELECT game_id, attempts FROM fairplay_queue ORDER BY queued_at, game_id LIMIT 1",
    )
    .fetch_optional(&app.db.pool)
    .await
    .map_err(db::db_err)?
    else {
        return Ok(None);
    };
    let game = db::text(&row, "game_id")?;
    let attempts = db::int(&row, "attempts")?;
    // Taken by deleting it: another instance's worker that read the same row finds it gone.
    let taken = sqlx::query("DELETE FROM fairplay_queue WHERE game_id = $1")
        .bind(game.as_str())
        .execute(&app.db.pool)
        .await
        .map_err(db::db_err)?;
    if taken.rows_affected() == 0 {
        return Ok(Some(Duration::ZERO));
    }
    let t = Instant::now();
    match analyse(app, &game).await {
        Ok(()) => Ok(Some(t.elapsed())),
        Err(e) => {
            if attempts + 1 < ATTEMPTS {
                let _ = sqlx::query(
                    "INSERT INTO fairplay_queue (game_id, queued_at, attempts) VALUES ($1, $2, $3) \
                     ON CONFLICT (game_id) DO NOTHING",
                )
                .bind(game.as_str())
                .bind(crate::now())
                .bind(attempts + 1)
                .execute(&app.db.pool)
                .await;
            }
            Err(format!("game {game}: {e}"))
        }
    }
}

/// Analyse one game: each rated person's figures, then their suspicion.
async fn analyse(app: &Arc<App>, game: &str) -> Result<(), String> {
    let people = sqlx::query(
        "SELECT c.user_id AS user_id, c.before_rating AS rating, \
         c.before_deviation AS deviation, c.at AS at, p.seat AS seat \
         FROM rating_changes c JOIN game_players p ON p.game_id = c.game_id \
         AND p.user_id = c.user_id WHERE c.game_id = $1",
    )
    .bind(game)
    .fetch_all(&app.db.pool)
    .await
    .map_err(db::db_err)?;
    if people.is_empty() {
        return Ok(());
    }
    let text = crate::games::record_text(&app.db, game)
        .await
        .map_err(|e| e.message)?;
    let mut seats = Vec::new();
    for p in &people {
        seats.push((
            db::int(p, "user_id")?,
            db::int(p, "seat")? as u8,
            db::float(p, "rating")?,
            db::float(p, "deviation")?,
            db::int(p, "at")?,
        ));
    }
    let cfg = app.cfg.fairplay_config;
    let seed = seed_of(game);
    let asked: Vec<u8> = seats.iter().map(|s| s.1).collect();
    let figures = tokio::task::spawn_blocking(move || -> Result<Vec<GameFigures>, String> {
        let record = crate::games::parse_record(&text)?;
        asked
            .iter()
            .map(|&s| {
                fiveup_bots::fairplay::game_figures(&record, Seat(s), &cfg, seed).map_err(|e| e.0)
            })
            .collect()
    })
    .await
    .map_err(|e| e.to_string())??;
    for ((user, _, rating, deviation, at), f) in seats.iter().zip(figures) {
        // The flag is raised (or refreshed) before the game's figures are stored, over the
        // stored games and this one: whoever sees the figures sees the flag they raise.
        let mut analysed = analysed_of(app, *user).await?;
        if !analysed.iter().any(|a| a.game == game) {
            analysed.push(Analysed {
                game: game.to_string(),
                at: *at,
                figures: f.clone(),
                rating: *rating,
                deviation: *deviation,
            });
            // Newest first, as they are read (a game analysed late takes its place by time).
            analysed.sort_by(|a, b| b.at.cmp(&a.at).then_with(|| b.game.cmp(&a.game)));
            analysed.truncate(WINDOW as usize);
        }
        flag_if_suspect(app, *user, &analysed).await?;
        sqlx::query(
            "INSERT INTO fairplay_games (game_id, user_id, at, rating, decisions, agreed, loss) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (game_id, user_id) DO NOTHING",
        )
        .bind(game)
        .bind(*user)
        .bind(*at)
        .bind(*rating)
        .bind(i64::from(f.decisions))
        .bind(i64::from(f.agreed))
        .bind(f.loss)
        .execute(&app.db.pool)
        .await
        .map_err(db::db_err)?;
    }
    Ok(())
}

/// A game's analysis seed: the same game is analysed the same way on every instance.
#[must_use]
pub fn seed_of(game: &str) -> u64 {
    let h = crate::table::fairness::sha256(game.as_bytes());
    u64::from_le_bytes(h[..8].try_into().expect("eight bytes"))
}

/// One analysed game of an account, as stored.
#[derive(Clone, Debug)]
pub struct Analysed {
    pub game: String,
    pub at: i64,
    pub figures: GameFigures,
    /// The account's server rating before the game.
    pub rating: f64,
    /// That rating's deviation before the game (Glicko-2; 350 for a new account).
    pub deviation: f64,
}

/// The account's latest analysed games (at most [`WINDOW`]), newest first.
pub async fn analysed_of(app: &App, user: i64) -> Result<Vec<Analysed>, String> {
    let rows = sqlx::query(
        "SELECT f.game_id AS game_id, f.at AS at, f.decisions AS decisions, \
         f.agreed AS agreed, f.loss AS loss, f.rating AS rating, \
         COALESCE(c.before_deviation, $3) AS deviation FROM fairplay_games f \
         LEFT JOIN rating_changes c ON c.game_id = f.game_id AND c.user_id = f.user_id \
         WHERE f.user_id = $1 ORDER BY f.at DESC, f.game_id DESC LIMIT $2",
    )
    .bind(user)
    .bind(WINDOW)
    .bind(crate::games::glicko::initial().deviation)
    .fetch_all(&app.db.pool)
    .await
    .map_err(db::db_err)?;
    let mut out = Vec::with_capacity(rows.len());
    for r in &rows {
        out.push(Analysed {
            game: db::text(r, "game_id")?,
            at: db::int(r, "at")?,
            figures: GameFigures {
                decisions: db::int(r, "decisions")? as u32,
                agreed: db::int(r, "agreed")? as u32,
                loss: db::float(r, "loss")?,
            },
            rating: db::float(r, "rating")?,
            deviation: db::float(r, "deviation")?,
        });
    }
    Ok(out)
}

/// How the server judges an account's figures: in which band, from what threshold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judging {
    /// The account is judged in the band of its rating plus this many rating deviations (on
    /// the bands' scale, [`strength_scale`]): the strongest band its rating does not rule out
    /// at that confidence. A rating follows the luck of the deals for many games, and judging
    /// an honest account in a band below its strength is what raises false flags
    /// (docs/fairplay.md, "The band of a server rating").
    pub band_deviations: f64,
    /// The combined z-score from which an account is flagged.
    pub flag_z: f64,
}

/// The server's judging (the defaults of `--fairplay-band-deviations` and
/// `--fairplay-flag-z`): the band of the rating, flagged from z ≥ 4.0. Chosen from two runs of
/// 1,000 honest accounts each and one of 150 copiers, playing rated games through a server
/// (`fiveup loadtest --fairplay`, docs/benchmarks.md, "Through a server"): of the judgings that
/// flagged at most 0.5% of the honest accounts, the one that found the most accounts copying
/// every move within 20 games (0.35% of 2,000 honest accounts flagged; 21 of 50 copiers found).
/// The library's engine-level threshold, 2.85, holds where the band is known; a server's
/// rating after 20 games is too loose for it (3.8% of honest accounts flagged), and moving the
/// band up by deviations protected them at a higher cost in copiers than this threshold does.
pub const JUDGING: Judging = Judging {
    band_deviations: 0.0,
    flag_z: 4.0,
};

/// The figure over an account's analysed games (newest first, as [`analysed_of`] gives
/// them), judged as `judging` says, or `None` when none was analysed yet.
#[must_use]
pub fn judged(analysed: &[Analysed], judging: Judging) -> Option<Suspicion> {
    let latest = analysed.first()?;
    // Oldest first, as the library pools them.
    let games: Vec<GameFigures> = analysed.iter().rev().map(|a| a.figures.clone()).collect();
    // The band is taken from the rating the account had before its latest analysed game.
    let rating = strength_scale(latest.rating + judging.band_deviations * latest.deviation);
    let band = fiveup_bots::fairplay::band_for(rating);
    Some(fiveup_bots::fairplay::suspicion_against(
        &games,
        band,
        judging.flag_z,
    ))
}

/// A server rating on the scale of the honest bands. The bands are named by the measured
/// ratings of the levels that stand for them (docs/strength.md: random 1000, club 1314); the
/// server's Glicko-2 ratings start every account at 1500 and have no anchor to that scale. Left
/// as they are, every new account would be judged in the top band, where even copying every
/// move hardly stands out (docs/benchmarks.md, "Finding computer-assisted play"). So a new
/// account is judged as the middle band's players (club, where the threshold's false positives
/// and the copiers' figures were measured), and it moves band as its rating moves: the rating
/// is shifted by the club band's rating less the server's starting rating. This is a
/// placement, not a calibration; the threshold of [`JUDGING`] was measured with it
/// (docs/fairplay.md, "The band of a server rating").
#[must_use]
pub fn strength_scale(rating: f64) -> f64 {
    let club = fiveup_bots::fairplay::BANDS
        .iter()
        .find(|b| b.name == "club")
        .map_or(crate::games::glicko::initial().rating, |b| b.rating);
    rating - crate::games::glicko::initial().rating + club
}

/// Put (or refresh) an automatic flag on `user` when their figure over `analysed` (their
/// latest analysed games, newest first) is over the threshold.
async fn flag_if_suspect(app: &App, user: i64, analysed: &[Analysed]) -> Result<(), String> {
    let Some(s) = judged(analysed, app.cfg.fairplay_judging) else {
        return Ok(());
    };
    if !s.flagged {
        return Ok(());
    }
    let marked = sqlx::query("SELECT mod_assisted FROM users WHERE id = $1")
        .bind(user)
        .fetch_one(&app.db.pool)
        .await
        .map_err(db::db_err)?;
    if db::int(&marked, "mod_assisted")? != 0 {
        return Ok(());
    }
    let body = format!(
        "agreement with the master's best play {:.1}% over {} decisions in {} games (honest \
         players of the {} band: {:.1}%); {:.2} points lost a decision; {:.1} standard errors \
         over the band",
        s.agreement * 100.0,
        s.decisions,
        s.games,
        s.band,
        s.band_agreement * 100.0,
        s.loss_per_decision,
        s.z
    );
    super::farms::flag(app, user, "flag-assist", "computer-help", s.z, &body).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_game(rating: f64, deviation: f64) -> Vec<Analysed> {
        vec![Analysed {
            game: "g".into(),
            at: 0,
            figures: GameFigures {
                decisions: 200,
                agreed: 198,
                loss: 10.0,
            },
            rating,
            deviation,
        }]
    }

    #[test]
    fn the_judging_takes_the_band_of_the_rating_plus_its_deviations_and_its_own_threshold() {
        let at = |rating, deviation, band_deviations, flag_z| {
            judged(
                &one_game(rating, deviation),
                Judging {
                    band_deviations,
                    flag_z,
                },
            )
            .expect("one game")
        };
        // 1500 is the club band's; one deviation of 100 above it is the strong band's.
        let club = at(1500.0, 100.0, 0.0, 3.0);
        let strong = at(1500.0, 100.0, 1.0, 3.0);
        assert_eq!(
            (club.band.as_str(), strong.band.as_str()),
            ("club", "strong")
        );
        // Agreeing on 99% of 200 decisions stands far over club and less over strong.
        assert!(club.z > strong.z && club.flagged);
        // The same figures under a threshold above their z are not flagged.
        assert!(!at(1500.0, 100.0, 0.0, club.z + 0.1).flagged);
        // No analysed game, no figure.
        assert!(judged(&[], JUDGING).is_none());
    }

    #[test]
    fn a_new_account_is_judged_in_the_club_band_and_moves_with_its_rating() {
        let band = |r: f64| fiveup_bots::fairplay::band_for(strength_scale(r)).name;
        assert_eq!(band(1500.0), "club");
        assert_eq!(band(1700.0), "strong");
        assert_eq!(band(1300.0), "casual");
    }
}
