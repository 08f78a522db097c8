//! The rating pools: who a game result rates against whom. People and bot accounts are rated
//! in pools of their own; a person may opt into rated games against bots.

use std::collections::BTreeSet;

use fiveup_protocol::UserRef;

use crate::store::db;

/// Which of these users chose to have their games against bots rated.
pub async fn opted_in(
    conn: &mut sqlx::AnyConnection,
    ids: &[i64],
) -> Result<BTreeSet<i64>, String> {
    let mut out = BTreeSet::new();
    for &id in ids {
        let row = sqlx::query("SELECT bot_rated FROM users WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *conn)
            .await
            .map_err(db::db_err)?;
        if let Some(r) = row {
            if db::int(&r, "bot_rated")? != 0 {
                out.insert(id);
            }
        }
    }
    Ok(out)
}

/// Rated games between the same two accounts that move their ratings in a day (24 hours):
/// further games between them that day are played and stored, unrated for that pair.
pub const RATED_PER_PAIR_PER_DAY: usize = 3;

/// Whether any of these accounts is marked for computer-assisted play (a game with one of
/// them rates nobody).
pub async fn any_marked(conn: &mut sqlx::AnyConnection, ids: &[i64]) -> Result<bool, String> {
    for &id in ids {
        let row = sqlx::query("SELECT mod_assisted FROM users WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *conn)
            .await
            .map_err(db::db_err)?;
        if row.is_some_and(|r| db::int(&r, "mod_assisted").unwrap_or(0) != 0) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Rated games of the last 24 hours (before `now`, seconds) in which `a` was rated against
/// `b`.
pub async fn rated_today(
    conn: &mut sqlx::AnyConnection,
    a: i64,
    b: i64,
    now: i64,
) -> Result<usize, String> {
    let rows = sqlx::query("SELECT results FROM rating_changes WHERE user_id = $1 AND at > $2")
        .bind(a)
        .bind(now - 86_400)
        .fetch_all(&mut *conn)
        .await
        .map_err(db::db_err)?;
    let mut n = 0;
    for r in &rows {
        let results: Vec<crate::moderation::refund::StoredResult> =
            serde_json::from_str(&db::text(r, "results")?)
                .map_err(|e| format!("stored results: {e}"))?;
        if results.iter().any(|x| x.opponent == b) {
            n += 1;
        }
    }
    Ok(n)
}

/// Whether a game result between `a` and `b` moves their ratings: two people, or two bots
/// (the bots' own pool), or a bot and a person who opted into rated games against bots.
#[must_use]
pub fn rated_pair(a: &UserRef, b: &UserRef, opted: &BTreeSet<i64>) -> bool {
    match (a.bot, b.bot) {
        (false, false) | (true, true) => true,
        (true, false) => opted.contains(&b.id),
        (false, true) => opted.contains(&a.id),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(id: i64, bot: bool) -> UserRef {
        UserRef {
            id,
            name: format!("u{id}"),
            registered: true,
            bot,
        }
    }

    #[test]
    fn bots_are_rated_in_their_own_pool_unless_a_person_opts_in() {
        let none = BTreeSet::new();
        let (ann, bob, b1, b2) = (user(1, false), user(2, false), user(3, true), user(4, true));
        assert!(rated_pair(&ann, &bob, &none));
        assert!(rated_pair(&b1, &b2, &none));
        assert!(!rated_pair(&ann, &b1, &none));
        assert!(!rated_pair(&b1, &ann, &none));
        let opted: BTreeSet<i64> = [1].into();
        assert!(rated_pair(&ann, &b1, &opted));
        assert!(rated_pair(&b1, &ann, &opted));
        assert!(!rated_pair(&bob, &b1, &opted));
    }
}
