//! Rating refunds: when an account is marked as computer-assisted, the people it beat in its
//! last rated games get back what those games took from them (as lichess refunds the victims of
//! a cheater).
//!
//! Every rated game stores, per person, the rating before and after and the results it was
//! computed from (`rating_changes`, written by the games concern). A victim's rating is
//! recomputed by replaying their rating changes from the first refunded game on, with the
//! results against the marked account left out (a game with no result left changes nothing);
//! the results against everyone else stay, against the opponents' ratings as they were then.
//! So the victim ends where they would be had those games never been played against the
//! cheater. Only the rating pool of each game is touched (live and correspondence apart).

use std::collections::BTreeMap;

use fiveup_protocol::Rating;
use serde::{Deserialize, Serialize};

use crate::games::glicko;
use crate::store::db;

/// How far back a mark reaches: the marked account's rated games of the last 30 days.
pub const REFUND_DAYS: i64 = 30;

/// One result of a rated game, as stored: the opponent, their rating before the game, and the
/// score (1 win, 0.5 draw, 0 loss).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredResult {
    /// The opponent's id.
    pub opponent: i64,
    /// Their rating before the game.
    pub rating: f64,
    /// Their deviation.
    pub deviation: f64,
    /// Their volatility.
    pub volatility: f64,
    /// The score against them.
    pub score: f64,
}

/// One rated game of one person, in the order they were played.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// The game.
    pub game: String,
    /// The rating before it.
    pub before: Rating,
    /// Its results.
    pub results: Vec<StoredResult>,
}

/// The rating after replaying `history` (oldest first, starting from the first change's
/// `before`) with every result against `cheater` left out in the games of `refunded`.
/// `None` when the history is empty.
#[must_use]
pub fn replay_without(
    history: &[Change],
    cheater: i64,
    refunded: &std::collections::BTreeSet<String>,
) -> Option<Rating> {
    let mut rating = history.first()?.before;
    for c in history {
        let kept: Vec<(Rating, f64)> = c
            .results
            .iter()
            .filter(|r| !(r.opponent == cheater && refunded.contains(&c.game)))
            .map(|r| {
                (
                    Rating {
                        rating: r.rating,
                        deviation: r.deviation,
                        volatility: r.volatility,
                    },
                    r.score,
                )
            })
            .collect();
        if kept.is_empty() {
            continue;
        }
        rating = glicko::update(rating, &kept);
    }
    Some(rating)
}

/// What a refund did to one victim, kept in the moderation log so that undoing the mark takes
/// it back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Refunded {
    /// The victim.
    pub user: i64,
    /// The pool (`live` or `correspondence`).
    pub pool: String,
    /// Their rating before the refund.
    pub from: Rating,
    /// Their rating after it.
    pub to: Rating,
    /// The games refunded.
    pub games: Vec<String>,
}

fn columns(pool: &str) -> (&'static str, &'static str, &'static str) {
    if pool == "correspondence" {
        ("corr_rating", "corr_deviation", "corr_volatility")
    } else {
        ("rating", "deviation", "volatility")
    }
}

async fn rating_of(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    user: i64,
    pool: &str,
) -> Result<Rating, String> {
    let (r, d, v) = columns(pool);
    let row = sqlx::query(&format!(
        "SELECT {r} AS r, {d} AS d, {v} AS v FROM users WHERE id = $1"
    ))
    .bind(user)
    .fetch_one(&mut **tx)
    .await
    .map_err(db::db_err)?;
    Ok(Rating {
        rating: db::float(&row, "r")?,
        deviation: db::float(&row, "d")?,
        volatility: db::float(&row, "v")?,
    })
}

async fn set_rating(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    user: i64,
    pool: &str,
    to: Rating,
) -> Result<(), String> {
    let (r, d, v) = columns(pool);
    sqlx::query(&format!(
        "UPDATE users SET {r} = $1, {d} = $2, {v} = $3 WHERE id = $4"
    ))
    .bind(to.rating)
    .bind(to.deviation)
    .bind(to.volatility)
    .bind(user)
    .execute(&mut **tx)
    .await
    .map_err(db::db_err)?;
    Ok(())
}

/// Read a person's rating changes in `pool` from `since` (seconds) on, oldest first.
async fn history(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    user: i64,
    pool: &str,
    since: i64,
) -> Result<Vec<Change>, String> {
    let rows = sqlx::query(
        "SELECT game_id, before_rating, before_deviation, before_volatility, results \
         FROM rating_changes WHERE user_id = $1 AND pool = $2 AND at >= $3 \
         ORDER BY at, game_id",
    )
    .bind(user)
    .bind(pool)
    .bind(since)
    .fetch_all(&mut **tx)
    .await
    .map_err(db::db_err)?;
    let mut out = Vec::new();
    for r in &rows {
        out.push(Change {
            game: db::text(r, "game_id")?,
            before: Rating {
                rating: db::float(r, "before_rating")?,
                deviation: db::float(r, "before_deviation")?,
                volatility: db::float(r, "before_volatility")?,
            },
            results: serde_json::from_str(&db::text(r, "results")?)
                .map_err(|e| format!("stored results: {e}"))?,
        });
    }
    Ok(out)
}

/// Refund the victims of `cheater`: every person who lost rating to them in a rated game of
/// the last [`REFUND_DAYS`] (not refunded before) gets the rating they would have without
/// those results. `now` is in seconds since the epoch. Runs in the caller's transaction;
/// returns what was done, per victim.
pub async fn refund_victims(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    cheater: i64,
    now: i64,
) -> Result<Vec<Refunded>, String> {
    let since = now - REFUND_DAYS * 86_400;
    // The cheater's rated games in the window, and in each the people who lost rating to
    // them (their rating went down and they did not beat the cheater).
    let games = sqlx::query(
        "SELECT c.game_id AS game_id, c.user_id AS user_id, c.pool AS pool, c.at AS at, \
         c.results AS results, c.before_rating AS b, c.after_rating AS a \
         FROM rating_changes c JOIN rating_changes m ON m.game_id = c.game_id \
         WHERE m.user_id = $1 AND c.user_id <> $1 AND m.at >= $2 AND c.refunded = 0",
    )
    .bind(cheater)
    .bind(since)
    .fetch_all(&mut **tx)
    .await
    .map_err(db::db_err)?;
    // victim -> pool -> (first game's time, games)
    let mut victims: BTreeMap<(i64, String), (i64, std::collections::BTreeSet<String>)> =
        BTreeMap::new();
    for r in &games {
        let results: Vec<StoredResult> = serde_json::from_str(&db::text(r, "results")?)
            .map_err(|e| format!("stored results: {e}"))?;
        let lost_to_cheater = results
            .iter()
            .any(|x| x.opponent == cheater && x.score < 1.0);
        if !lost_to_cheater || db::float(r, "a")? >= db::float(r, "b")? {
            continue;
        }
        let at = db::int(r, "at")?;
        let e = victims
            .entry((db::int(r, "user_id")?, db::text(r, "pool")?))
            .or_insert((at, std::collections::BTreeSet::new()));
        e.0 = e.0.min(at);
        e.1.insert(db::text(r, "game_id")?);
    }
    let mut out = Vec::new();
    for ((victim, pool), (first, refunded)) in victims {
        let hist = history(tx, victim, &pool, first).await?;
        let Some(to) = replay_without(&hist, cheater, &refunded) else {
            continue;
        };
        let from = rating_of(tx, victim, &pool).await?;
        set_rating(tx, victim, &pool, to).await?;
        for g in &refunded {
            sqlx::query(
                "UPDATE rating_changes SET refunded = 1 WHERE game_id = $1 AND user_id = $2",
            )
            .bind(g.as_str())
            .bind(victim)
            .execute(&mut **tx)
            .await
            .map_err(db::db_err)?;
        }
        out.push(Refunded {
            user: victim,
            pool,
            from,
            to,
            games: refunded.into_iter().collect(),
        });
    }
    Ok(out)
}

/// Take back refunds (undoing a mark): each victim's rating moves back by what the refund
/// gave (their games since then stay counted), and the games may be refunded again later.
pub async fn take_back(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    refunds: &[Refunded],
) -> Result<(), String> {
    for r in refunds {
        let now = rating_of(tx, r.user, &r.pool).await?;
        let back = Rating {
            rating: now.rating - (r.to.rating - r.from.rating),
            deviation: (now.deviation - (r.to.deviation - r.from.deviation)).clamp(30.0, 350.0),
            volatility: now.volatility - (r.to.volatility - r.from.volatility),
        };
        set_rating(tx, r.user, &r.pool, back).await?;
        for g in &r.games {
            sqlx::query(
                "UPDATE rating_changes SET refunded = 0 WHERE game_id = $1 AND user_id = $2",
            )
            .bind(g.as_str())
            .bind(r.user)
            .execute(&mut **tx)
            .await
            .map_err(db::db_err)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    fn res(opponent: i64, o: Rating, score: f64) -> StoredResult {
        StoredResult {
            opponent,
            rating: o.rating,
            deviation: o.deviation,
            volatility: o.volatility,
            score,
        }
    }

    /// Glickman's worked example ("Example of the Glicko-2 system"): a 1500 player (RD 200,
    /// volatility 0.06) who beats a 1400 (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD
    /// 300) ends at 1464.06, RD 151.52, volatility 0.05999. Here that period is one
    /// cut-throat game in which the cheater (id 9, 1500, RD 50) also beat the victim: the
    /// refund leaves that result out, and the victim must end exactly at the paper's figures.
    #[test]
    fn a_refund_gives_the_worked_example_without_the_cheater() {
        let game = vec![
            res(9, r(1500.0, 50.0), 0.0),
            res(1, r(1400.0, 30.0), 1.0),
            res(2, r(1550.0, 100.0), 0.0),
            res(3, r(1700.0, 300.0), 0.0),
        ];
        let history = vec![Change {
            game: "g1".into(),
            before: r(1500.0, 200.0),
            results: game,
        }];
        let refunded: std::collections::BTreeSet<String> = ["g1".to_string()].into();
        let after = replay_without(&history, 9, &refunded).expect("a rating");
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
        // Kept in: the cheater's win costs the victim more.
        let with = replay_without(&history, 9, &Default::default()).expect("a rating");
        assert!(
            with.rating < after.rating - 5.0,
            "{with:?} against {after:?}"
        );
    }

    /// A game whose only result was against the cheater is skipped: the later games are
    /// replayed from the rating before it.
    #[test]
    fn a_game_only_against_the_cheater_changes_nothing() {
        let start = r(1500.0, 200.0);
        let x = r(1600.0, 80.0);
        let history = vec![
            Change {
                game: "lost".into(),
                before: start,
                results: vec![res(9, r(1500.0, 60.0), 0.0)],
            },
            Change {
                game: "won".into(),
                before: r(1400.0, 190.0),
                results: vec![res(4, x, 1.0)],
            },
        ];
        let refunded: std::collections::BTreeSet<String> = ["lost".to_string()].into();
        let after = replay_without(&history, 9, &refunded).expect("a rating");
        assert_eq!(after, glicko::update(start, &[(x, 1.0)]));
        // A game against the cheater outside the refunded set stays.
        let none = replay_without(&history, 9, &Default::default()).expect("a rating");
        assert_ne!(none, after);
        assert!(replay_without(&[], 9, &refunded).is_none());
    }
}
