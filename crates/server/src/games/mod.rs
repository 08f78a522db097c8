//! Finished games: storing the record, statistics and ratings; replays, reviews, profiles and
//! deal verification. Ratings are computed by [`glicko`].

pub mod glicko;
pub mod pool;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use fiveup_engine::notation::Record;
use fiveup_engine::{LayoutTree, LeadKind, Seat, Side, State, Tile};
use fiveup_protocol::{
    ErrorCode, HandCheck, HandProof, HistoryEntry, MoveVerdict, Occupant, Profile, Rating, Replay,
    ReplayHand, ReplayStep, Review, SeatInfo, Stats, UserRef, VerifyReport, DEAL_SCHEME,
};

use crate::store::db::{self, Db};
use crate::table::TableCore;
use crate::table::{fairness, outcome};
use crate::{ApiError, App};

/// The date `YYYY-MM-DD` of a Unix time (UTC).
#[must_use]
pub fn date_of(t: i64) -> String {
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = t.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!("{y:04}-{m:02}-{d:02}")
}

/// Store a finished table's game: its record, each person's statistics and the ratings.
/// Storing twice is harmless (the second time changes nothing).
pub async fn finalize(app: &Arc<App>, core: &TableCore) -> Result<(), String> {
    let now = crate::now();
    let Some(record) = core.record(&date_of(now)) else {
        return Ok(());
    };
    // A two-seat correspondence game decided by a timeout has no engine result: the player on
    // time wins with the scores as they stood.
    let forfeit = core.forfeit.map(|w| fiveup_engine::notation::GameSummary {
        winner: fiveup_engine::Side(w),
        scores: core.scores(),
    });
    let Some(game) = record.game.as_ref().or(forfeit.as_ref()) else {
        return Ok(());
    };
    let rules = core.cfg.rules;
    let winner = game.winner;
    let seats: Vec<SeatInfo> = (0..core.players()).map(|s| core.seat_info(s)).collect();
    let names = record.seats.clone();
    let mut tx = app.db.pool.begin().await.map_err(db::db_err)?;
    let inserted = sqlx::query(
        "INSERT INTO games (id, finished_at, options, record, seats, names, scores, winner) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING",
    )
    .bind(core.cfg.id.as_str())
    .bind(now)
    .bind(rules.to_options_string())
    .bind(record.to_text())
    .bind(serde_json::to_string(&seats).expect("seats serialise"))
    .bind(serde_json::to_string(&names).expect("names serialise"))
    .bind(serde_json::to_string(&game.scores).expect("scores serialise"))
    .bind(i64::from(winner.0))
    .execute(&mut *tx)
    .await
    .map_err(db::db_err)?;
    if inserted.rows_affected() == 0 {
        return Ok(());
    }
    let hands = record.hands.len() as i64;
    // A person a computer player played for (away too long, or resigned) does not win: their
    // side's win is not counted as theirs, and their rating takes it as a loss. Nor does a
    // person out of the game (a tournament's no-show, third strike or forfeit), whose side
    // may still be given the game when every side has someone out.
    let no_win = |seat: u8| {
        let s = &core.seats[seat as usize];
        s.by_computer || s.resigned
    };
    let mut people: Vec<(u8, UserRef)> = Vec::new();
    for (i, s) in core.seats.iter().enumerate() {
        if let Occupant::Human { user } = &s.occupant {
            people.push((i as u8, user.clone()));
        }
    }
    for (seat, user) in &people {
        let side = rules.side_of(Seat(*seat));
        let won = side == winner && !no_win(*seat);
        sqlx::query(
            "INSERT INTO game_players (game_id, seat, user_id, won) VALUES ($1, $2, $3, $4)",
        )
        .bind(core.cfg.id.as_str())
        .bind(i64::from(*seat))
        .bind(user.id)
        .bind(i64::from(won))
        .execute(&mut *tx)
        .await
        .map_err(db::db_err)?;
        sqlx::query(
            "UPDATE users SET games = games + 1, wins = wins + $1, hands = hands + $2, \
             points = points + $3 WHERE id = $4",
        )
        .bind(i64::from(won))
        .bind(hands)
        .bind(i64::from(game.scores[side.idx()]))
        .bind(user.id)
        .execute(&mut *tx)
        .await
        .map_err(db::db_err)?;
    }
    // Ratings: every registered person against every registered opponent, among those who
    // made a move of their own (a seat a computer player played throughout rates nobody). A
    // table with hints allowed is casual: it rates nobody.
    let registered: Vec<&(u8, UserRef)> = people
        .iter()
        .filter(|(seat, u)| u.registered && core.acted(*seat) && !core.cfg.hints)
        .collect();
    // A game with an account a moderator marked for computer-assisted play rates nobody.
    let ids: Vec<i64> = registered.iter().map(|(_, u)| u.id).collect();
    let registered = if pool::any_marked(&mut tx, &ids).await? {
        Vec::new()
    } else {
        registered
    };
    // Correspondence games have a rating of their own (as lichess keeps one per speed).
    let (rating, deviation, volatility) = if core.cfg.correspondence.is_some() {
        ("corr_rating", "corr_deviation", "corr_volatility")
    } else {
        ("rating", "deviation", "volatility")
    };
    let mut before: BTreeMap<i64, Rating> = BTreeMap::new();
    for (_, u) in &registered {
        let row = sqlx::query(&format!(
            "SELECT {rating} AS rating, {deviation} AS deviation, {volatility} AS volatility \
             FROM users WHERE id = $1"
        ))
        .bind(u.id)
        .fetch_one(&mut *tx)
        .await
        .map_err(db::db_err)?;
        before.insert(
            u.id,
            Rating {
                rating: db::float(&row, "rating")?,
                deviation: db::float(&row, "deviation")?,
                volatility: db::float(&row, "volatility")?,
            },
        );
    }
    // Bots are rated in their own pool: a game between a bot and a person counts only for
    // people who chose to have games against bots rated (see `pool::rated_pair`).
    let ids: Vec<i64> = registered.iter().map(|(_, u)| u.id).collect();
    let opted = pool::opted_in(&mut tx, &ids).await?;
    // The rating history's time is the server's clock (which the tests move).
    let at = app.cfg.clock.now_ms() / 1000;
    let pool_name = if core.cfg.correspondence.is_some() {
        "correspondence"
    } else {
        "live"
    };
    // Rated games between the same two accounts count a few times a day at most (a rating
    // farm plays many): the pairs over the limit are left out of this game's ratings.
    let mut over_limit: BTreeSet<(i64, i64)> = BTreeSet::new();
    for (i, (_, a)) in registered.iter().enumerate() {
        for (_, b) in &registered[i + 1..] {
            if pool::rated_today(&mut tx, a.id, b.id, at).await? >= pool::RATED_PER_PAIR_PER_DAY {
                over_limit.insert((a.id.min(b.id), a.id.max(b.id)));
            }
        }
    }
    for (seat, u) in &registered {
        let my_side = rules.side_of(Seat(*seat));
        let mut results = Vec::new();
        let mut stored = Vec::new();
        for (oseat, o) in &registered {
            let their_side = rules.side_of(Seat(*oseat));
            if their_side == my_side
                || !pool::rated_pair(u, o, &opted)
                || over_limit.contains(&(u.id.min(o.id), u.id.max(o.id)))
            {
                continue;
            }
            let score = if no_win(*seat) {
                0.0
            } else if my_side == winner {
                1.0
            } else if their_side == winner {
                0.0
            } else {
                0.5
            };
            results.push((before[&o.id], score));
            stored.push(crate::moderation::refund::StoredResult {
                opponent: o.id,
                rating: before[&o.id].rating,
                deviation: before[&o.id].deviation,
                volatility: before[&o.id].volatility,
                score,
            });
        }
        if results.is_empty() {
            continue;
        }
        let r = glicko::update(before[&u.id], &results);
        // What the game did to the rating and against whom: what a refund replays, what the
        // pair limit counts and what the fair-play analysis is queued for.
        let b = before[&u.id];
        sqlx::query(
            "INSERT INTO rating_changes (game_id, user_id, pool, at, before_rating, \
             before_deviation, before_volatility, after_rating, after_deviation, \
             after_volatility, results) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        )
        .bind(core.cfg.id.as_str())
        .bind(u.id)
        .bind(pool_name)
        .bind(at)
        .bind(b.rating)
        .bind(b.deviation)
        .bind(b.volatility)
        .bind(r.rating)
        .bind(r.deviation)
        .bind(r.volatility)
        .bind(serde_json::to_string(&stored).expect("results serialise"))
        .execute(&mut *tx)
        .await
        .map_err(db::db_err)?;
        sqlx::query(&format!(
            "UPDATE users SET {rating} = $1, {deviation} = $2, {volatility} = $3 WHERE id = $4"
        ))
        .bind(r.rating)
        .bind(r.deviation)
        .bind(r.volatility)
        .bind(u.id)
        .execute(&mut *tx)
        .await
        .map_err(db::db_err)?;
    }
    tx.commit().await.map_err(db::db_err)?;
    Ok(())
}

/// The games concern at the table runtime: a finished game's record, statistics and ratings
/// are stored when the table says the game is over.
#[derive(Debug)]
pub struct Records;

impl crate::table::hooks::Concern for Records {
    fn name(&self) -> &'static str {
        "games"
    }

    fn on_event<'a>(
        &'a self,
        app: &'a Arc<App>,
        core: &'a TableCore,
        event: crate::table::hooks::TableEvent,
    ) -> futures_util::future::BoxFuture<'a, Result<(), String>> {
        Box::pin(async move {
            match event {
                crate::table::hooks::TableEvent::GameOver => finalize(app, core).await,
                crate::table::hooks::TableEvent::Changed => Ok(()),
            }
        })
    }
}

/// The proofs a record carries in its tags, by hand number.
#[must_use]
pub fn proofs_of(record: &Record) -> BTreeMap<u16, HandProof> {
    let mut out = BTreeMap::new();
    for h in 1..=record.hands.len() as u16 {
        let Some(commitment) = record.tags.get(&format!("Hand{h}Commit")) else {
            continue;
        };
        let server = record.tags.get(&format!("Hand{h}ServerSeed")).cloned();
        let clients: Option<Vec<Option<String>>> =
            record.tags.get(&format!("Hand{h}ClientSeeds")).map(|s| {
                s.split(',')
                    .map(|x| (x != "-").then(|| x.to_string()))
                    .collect()
            });
        let deal_seed = match (&server, &clients) {
            (Some(s), Some(c)) => seeds_of(s, c)
                .ok()
                .map(|(srv, cl)| fairness::deal_seed(&srv, &cl).to_hex()),
            _ => None,
        };
        let contributed = clients.as_ref().map_or_else(Vec::new, |c| {
            c.iter()
                .enumerate()
                .filter(|(_, x)| x.is_some())
                .map(|(i, _)| i as u8)
                .collect()
        });
        out.insert(
            h,
            HandProof {
                hand: h,
                scheme: DEAL_SCHEME.to_string(),
                commitment: commitment.clone(),
                contributed,
                server_seed: server,
                client_seeds: clients,
                deal_seed,
            },
        );
    }
    out
}

type ParsedSeeds = ([u8; 32], Vec<Option<[u8; 32]>>);

fn seeds_of(server: &str, clients: &[Option<String>]) -> Result<ParsedSeeds, String> {
    let s = fairness::parse_seed_hex(server).map_err(|e| format!("server seed: {e}"))?;
    let mut c = Vec::new();
    for (i, x) in clients.iter().enumerate() {
        c.push(match x {
            None => None,
            Some(h) => {
                Some(fairness::parse_seed_hex(h).map_err(|e| format!("seat {i}'s seed: {e}"))?)
            }
        });
    }
    Ok((s, c))
}

/// Read a record in the text notation or JSON.
pub fn parse_record(text: &str) -> Result<Record, String> {
    let t = text.trim_start();
    let r = if t.starts_with('{') {
        Record::from_json(t)
    } else {
        Record::parse(text)
    };
    r.map_err(|e| format!("not a valid record: {e}"))
}

/// Verify every deal of a record (scheme `fiveup-deal-v1`).
#[must_use]
pub fn verify(text: &str) -> VerifyReport {
    let fail = |e: String| VerifyReport {
        ok: false,
        hands: Vec::new(),
        error: Some(e),
    };
    let record = match parse_record(text) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    match record.tags.get("DealScheme") {
        Some(s) if s == DEAL_SCHEME => {}
        Some(s) => {
            return fail(format!(
                "unknown deal scheme {s:?} (this checks {DEAL_SCHEME})"
            ))
        }
        None => {
            return fail(format!(
                "the record has no [DealScheme] tag: its deals were not made by the \
                 {DEAL_SCHEME} scheme, so there is nothing to verify"
            ))
        }
    }
    let game = match record.replay() {
        Ok(g) => g,
        Err(e) => return fail(format!("the record does not replay: {e}")),
    };
    let players = record.rules.players as usize;
    let mut hands = Vec::new();
    for (i, h) in game.hands.iter().enumerate() {
        let no = (i + 1) as u16;
        let get = |k: &str| record.tags.get(&format!("Hand{no}{k}"));
        let check = || -> Result<String, String> {
            let commit = get("Commit").ok_or("no commitment tag")?;
            let server = get("ServerSeed").ok_or("no server seed tag")?;
            let clients: Vec<Option<String>> = get("ClientSeeds")
                .ok_or("no client seeds tag")?
                .split(',')
                .map(|x| (x != "-").then(|| x.to_string()))
                .collect();
            if clients.len() != players {
                return Err(format!(
                    "{} client seed entries for {players} seats",
                    clients.len()
                ));
            }
            let (s, c) = seeds_of(server, &clients)?;
            let got = fairness::to_hex(&fairness::commitment(&s));
            if !got.eq_ignore_ascii_case(commit) {
                return Err(format!(
                    "the server seed does not match the commitment: SHA-256 gives {got}, \
                     the commitment was {commit}"
                ));
            }
            let seed = fairness::deal_seed(&s, &c);
            let deal = fairness::deal(&seed, no, &record.rules, h.start.highest_double);
            if deal != record.hands[i].deal {
                return Err(format!(
                    "the deal is not the one the seeds give: the seeds give {}, the record \
                     has {}",
                    deal.to_text(),
                    record.hands[i].deal.to_text()
                ));
            }
            Ok(format!(
                "commitment and deal match (deal seed {})",
                seed.to_hex()
            ))
        };
        hands.push(match check() {
            Ok(m) => HandCheck {
                hand: no,
                ok: true,
                message: m,
            },
            Err(e) => HandCheck {
                hand: no,
                ok: false,
                message: e,
            },
        });
    }
    VerifyReport {
        ok: !hands.is_empty() && hands.iter().all(|h| h.ok),
        hands,
        error: None,
    }
}

fn tiles(set: fiveup_engine::TileSet) -> Vec<Tile> {
    set.iter().collect()
}

/// A stored game.
struct GameRow {
    record: String,
    seats: Vec<SeatInfo>,
    finished_at: i64,
}

async fn game_row(db: &Db, id: &str) -> Result<GameRow, ApiError> {
    let row = sqlx::query("SELECT record, seats, finished_at FROM games WHERE id = $1")
        .bind(id)
        .fetch_optional(&db.pool)
        .await
        .map_err(|e| ApiError::internal(db::db_err(e)))?
        .ok_or_else(|| ApiError::new(ErrorCode::NoSuchGame, format!("no finished game {id:?}")))?;
    Ok(GameRow {
        record: db::text(&row, "record").map_err(ApiError::internal)?,
        seats: serde_json::from_str(&db::text(&row, "seats").map_err(ApiError::internal)?)
            .map_err(|e| ApiError::internal(e.to_string()))?,
        finished_at: db::int(&row, "finished_at").map_err(ApiError::internal)?,
    })
}

/// The record text of a finished game.
pub async fn record_text(db: &Db, id: &str) -> Result<String, ApiError> {
    Ok(game_row(db, id).await?.record)
}

/// A finished game, step by step.
pub async fn replay(db: &Db, id: &str) -> Result<Replay, ApiError> {
    let g = game_row(db, id).await?;
    let mut r = build_replay(id, &g.record, g.seats, g.finished_at).map_err(ApiError::internal)?;
    r.correspondence = crate::table::corr_spec_of(db, id)
        .await
        .map_err(ApiError::internal)?;
    Ok(r)
}

/// Build a replay from a record.
pub fn build_replay(
    id: &str,
    text: &str,
    seats: Vec<SeatInfo>,
    finished_at: i64,
) -> Result<Replay, String> {
    let record = parse_record(text)?;
    let game = record.replay().map_err(|e| e.to_string())?;
    let rules = record.rules;
    let n = rules.players as usize;
    let sides = rules.sides() as usize;
    let proofs = proofs_of(&record);
    let mut hands = Vec::new();
    for (i, h) in game.hands.iter().enumerate() {
        let deal = record.hands[i].deal;
        let mut state = State::with_start(rules, deal, h.start).map_err(|e| e.to_string())?;
        let shown = state.shown_tile();
        let mut steps = Vec::new();
        for (k, step) in h.steps.iter().enumerate() {
            state.apply(step.action).map_err(|e| e.to_string())?;
            let layout = state.layout();
            let tree = LayoutTree::from_history(&rules, state.log());
            steps.push(ReplayStep {
                index: (k + 1) as u32,
                seat: step.seat.0,
                action: step.action,
                points: step.points,
                drawn: step.drawn,
                count: step.count,
                open_ends: crate::table::project::open_ends(layout, &tree),
                scores: step.scores.clone(),
                hands: (0..n).map(|p| tiles(state.hand(Seat(p as u8)))).collect(),
                boneyard: state.boneyard_len(),
                waiting: crate::table::project::waiting_arms(&tree, layout.cross_pending()),
                layout: tree,
            });
        }
        let names = record.seats.clone();
        let outcome = (state.result().is_some() || state.winner().is_some())
            .then(|| outcome::hand_outcome(&state, &names));
        hands.push(ReplayHand {
            hand: h.start.hand_no,
            dealt: (0..n)
                .map(|p| deal.hand_slice(Seat(p as u8)).to_vec())
                .collect(),
            boneyard: deal.boneyard().to_vec(),
            leader: h.leader.0,
            lead_kind: h.lead_kind,
            shown_tile: shown,
            lot: (h.lead_kind == LeadKind::Lot).then_some(h.leader.0),
            lead_draws: h.lead_draws.iter().map(|(s, t)| (s.0, *t)).collect(),
            scores_before: h.start.scores.0[..sides].to_vec(),
            steps,
            outcome,
            proof: proofs.get(&h.start.hand_no).cloned(),
        });
    }
    Ok(Replay {
        id: id.to_string(),
        rules,
        seats,
        hands,
        winner: game.winner.map(|w: Side| w.0),
        scores: game.scores.clone(),
        finished_at,
        record: record.to_text(),
        correspondence: None,
    })
}

/// The review of a finished game: computed once (off the async threads), then stored.
pub async fn review(app: &Arc<App>, id: &str) -> Result<Review, ApiError> {
    if let Some(row) = sqlx::query("SELECT body FROM reviews WHERE game_id = $1")
        .bind(id)
        .fetch_optional(&app.db.pool)
        .await
        .map_err(|e| ApiError::internal(db::db_err(e)))?
    {
        let body = db::text(&row, "body").map_err(ApiError::internal)?;
        return serde_json::from_str(&body).map_err(|e| ApiError::internal(e.to_string()));
    }
    let text = record_text(&app.db, id).await?;
    let _permit = app
        .review_slots
        .try_acquire()
        .map_err(|_| ApiError::new(ErrorCode::RateLimited, "reviews are busy; try again soon"))?;
    let cfg = app.cfg.review_config;
    let analyser = format!("expert:samples={},threads=1", cfg.samples);
    let moves = tokio::task::spawn_blocking(move || -> Result<Vec<MoveVerdict>, String> {
        let record = parse_record(&text)?;
        let list = fiveup_bots::review::review(&record, &cfg, 1).map_err(|e| e.0)?;
        Ok(list
            .into_iter()
            .map(|m| MoveVerdict {
                hand: m.hand as u16,
                index: m.index as u32,
                seat: m.seat.0,
                chosen: m.chosen,
                best: m.best,
                chosen_value: m.chosen_value,
                best_value: m.best_value,
                loss: m.loss,
                options: m.options as u32,
            })
            .collect())
    })
    .await
    .map_err(|e| ApiError::internal(e.to_string()))?
    .map_err(ApiError::internal)?;
    let review = Review {
        id: id.to_string(),
        analyser,
        moves,
    };
    let body = serde_json::to_string(&review).map_err(|e| ApiError::internal(e.to_string()))?;
    sqlx::query(
        "INSERT INTO reviews (game_id, body) VALUES ($1, $2) ON CONFLICT (game_id) DO NOTHING",
    )
    .bind(id)
    .bind(body)
    .execute(&app.db.pool)
    .await
    .map_err(|e| ApiError::internal(db::db_err(e)))?;
    Ok(review)
}

/// A user's profile.
/// Which games a profile's history lists.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum HistoryKind {
    /// Every game.
    All,
    /// Live games only.
    Live,
    /// Correspondence games only.
    Correspondence,
}

impl HistoryKind {
    /// From the `kind` parameter of `GET /api/users/{id}`.
    pub fn parse(kind: Option<&str>) -> Result<HistoryKind, ApiError> {
        match kind {
            None | Some("" | "all") => Ok(HistoryKind::All),
            Some("live") => Ok(HistoryKind::Live),
            Some("correspondence") => Ok(HistoryKind::Correspondence),
            Some(k) => Err(ApiError::new(
                ErrorCode::BadRequest,
                format!("kind {k:?}: use live, correspondence or all"),
            )),
        }
    }
}

pub async fn profile(db: &Db, id: i64, kind: HistoryKind) -> Result<Profile, ApiError> {
    let ie = |e: String| ApiError::internal(e);
    let row = sqlx::query(
        "SELECT id, name, registered, rating, deviation, volatility, games, wins, hands, points, \
         corr_rating, corr_deviation, corr_volatility, \
         CAST(CASE WHEN bot_owner IS NULL THEN 0 ELSE 1 END AS BIGINT) AS bot \
         FROM users WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(&db.pool)
    .await
    .map_err(|e| ie(db::db_err(e)))?
    .ok_or_else(|| ApiError::new(ErrorCode::NoSuchUser, format!("no user {id}")))?;
    let registered = db::int(&row, "registered").map_err(ie)? != 0;
    let hands = db::int(&row, "hands").map_err(ie)?;
    let points = db::int(&row, "points").map_err(ie)?;
    let stats = Stats {
        games: db::int(&row, "games").map_err(ie)? as u32,
        wins: db::int(&row, "wins").map_err(ie)? as u32,
        hands: hands as u32,
        points,
        points_per_hand: if hands > 0 {
            points as f64 / hands as f64
        } else {
            0.0
        },
    };
    let rating = registered
        .then(|| -> Result<Rating, String> {
            Ok(Rating {
                rating: db::float(&row, "rating")?,
                deviation: db::float(&row, "deviation")?,
                volatility: db::float(&row, "volatility")?,
            })
        })
        .transpose()
        .map_err(ie)?;
    let corr_rating = registered
        .then(|| -> Result<Rating, String> {
            Ok(Rating {
                rating: db::float(&row, "corr_rating")?,
                deviation: db::float(&row, "corr_deviation")?,
                volatility: db::float(&row, "corr_volatility")?,
            })
        })
        .transpose()
        .map_err(ie)?;
    // A correspondence game is one whose table has correspondence players (every person at a
    // correspondence table is one, see `correspondence::on_change`).
    let filter = match kind {
        HistoryKind::All => "",
        HistoryKind::Live => {
            "AND NOT EXISTS (SELECT 1 FROM corr_players c WHERE c.table_id = g.id) "
        }
        HistoryKind::Correspondence => {
            "AND EXISTS (SELECT 1 FROM corr_players c WHERE c.table_id = g.id) "
        }
    };
    let rows = sqlx::query(&format!(
        "SELECT g.id, g.finished_at, g.options, g.names, g.scores, g.seats, p.seat, p.won, \
         t.config AS config FROM game_players p JOIN games g ON g.id = p.game_id \
         LEFT JOIN game_tables t ON t.id = g.id WHERE p.user_id = $1 {filter}\
         ORDER BY g.finished_at DESC, g.id LIMIT 100",
    ))
    .bind(id)
    .fetch_all(&db.pool)
    .await
    .map_err(|e| ie(db::db_err(e)))?;
    let mut history = Vec::new();
    for r in rows {
        let seat = db::int(&r, "seat").map_err(ie)? as u8;
        let seats: Vec<SeatInfo> =
            serde_json::from_str(&db::text(&r, "seats").map_err(ie)?).unwrap_or_default();
        let by_computer = seats.get(seat as usize).is_some_and(|s| s.by_computer);
        history.push(HistoryEntry {
            game: db::text(&r, "id").map_err(ie)?,
            finished_at: db::int(&r, "finished_at").map_err(ie)?,
            options: db::text(&r, "options").map_err(ie)?,
            seat,
            names: serde_json::from_str(&db::text(&r, "names").map_err(ie)?)
                .map_err(|e| ie(e.to_string()))?,
            won: db::int(&r, "won").map_err(ie)? != 0,
            scores: serde_json::from_str(&db::text(&r, "scores").map_err(ie)?)
                .map_err(|e| ie(e.to_string()))?,
            by_computer,
            correspondence: db::text(&r, "config")
                .ok()
                .and_then(|c| crate::table::spec_from_config(&c)),
        });
    }
    Ok(Profile {
        user: UserRef {
            id: db::int(&row, "id").map_err(ie)?,
            name: db::text(&row, "name").map_err(ie)?,
            registered,
            bot: db::int(&row, "bot").map_err(ie)? != 0,
        },
        stats,
        rating,
        corr_rating,
        history,
        marks: Vec::new(),
    })
}

/// `GET /api/leaderboard`: registered players with a rated game, best rating first.
#[derive(Clone, PartialEq, Debug, serde::Serialize, serde::Deserialize)]
pub struct Leaderboard {
    /// At most [`LEADERBOARD_SIZE`] players.
    pub players: Vec<LeaderRow>,
}

/// One player of the leaderboard.
#[derive(Clone, PartialEq, Debug, serde::Serialize, serde::Deserialize)]
pub struct LeaderRow {
    /// Who.
    pub user: UserRef,
    /// Their Glicko-2 rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Finished games.
    pub games: u32,
    /// Won games.
    pub wins: u32,
}

/// How many players the leaderboard lists.
pub const LEADERBOARD_SIZE: i64 = 100;

/// The leaderboard: registered players whose rating moved (they finished a rated game), by
/// rating, then by fewer games.
pub async fn leaderboard(db: &Db) -> Result<Leaderboard, ApiError> {
    let ie = |e: String| ApiError::internal(e);
    let rows = sqlx::query(
        "SELECT id, name, rating, deviation, games, wins FROM users \
         WHERE registered <> 0 AND bot_owner IS NULL AND games > 0 AND deviation < 350 \
         AND mod_assisted = 0 AND mod_banned = 0 \
         ORDER BY rating DESC, games ASC, id ASC LIMIT $1",
    )
    .bind(LEADERBOARD_SIZE)
    .fetch_all(&db.pool)
    .await
    .map_err(|e| ie(db::db_err(e)))?;
    let mut players = Vec::new();
    for r in rows {
        players.push(LeaderRow {
            user: UserRef {
                id: db::int(&r, "id").map_err(ie)?,
                name: db::text(&r, "name").map_err(ie)?,
                registered: true,
                bot: false,
            },
            rating: db::float(&r, "rating").map_err(ie)?,
            deviation: db::float(&r, "deviation").map_err(ie)?,
            games: db::int(&r, "games").map_err(ie)? as u32,
            wins: db::int(&r, "wins").map_err(ie)? as u32,
        });
    }
    Ok(Leaderboard { players })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(date_of(0), "1970-01-01");
        assert_eq!(date_of(1_763_683_200), "2025-11-21");
        assert_eq!(date_of(951_782_400), "2000-02-29");
    }
}
