//! The fair-play mode (`fiveup loadtest --fairplay`): the detector of computer-assisted play
//! measured through a real server, from the registration of the accounts to the moderators'
//! flags.
//!
//! Simulated people register person accounts on a server started in this process (SQLite,
//! the fair-play worker's share at 100%) and play rated two-player games of Five Up to 150
//! against each other through the HTTP API and their websockets. Each client chooses its
//! moves with a computer level from its seat's view alone, rebuilt from what the server sends
//! the seat ([`crate::seatview`]): an honest account plays its level (`casual`, `club`,
//! `strong`) and a uniformly random legal action on a share of its decisions with a choice
//! (its slip rate, drawn per account between 0 and twice `slip`); an assisted account is a
//! `club` account that plays the `master` level's move on a share of its decisions with a
//! choice. These are the populations of the engine-level measurement (the example
//! `fairplay_measure` of fiveup-bots).
//!
//! Nothing is judged here: the server's own worker analyses every rated game, places each
//! account in a band from its server rating, and flags it in the moderators' queue. A
//! moderator account reads what the server found (`GET /api/moderation/users/{id}`: the
//! analysed games' figures, the account's rating and band, its flags).
//!
//! * **Honest accounts** play in one mixed pool, as people of different strength meet on a
//!   server: each round pairs the accounts at random, never a pair that has played
//!   [`fiveup_server::games::pool::RATED_PER_PAIR_PER_DAY`] games (further games between them
//!   that day would not be rated), until each has played its games. Their ratings move from
//!   1500 with their results, and the server judges each in the band of its rating. At the
//!   end, once the worker has analysed every game, an account flagged for computer help is a
//!   false positive (a flag stays in the queue until a moderator closes it, so this is an
//!   account flagged at any of its checks).
//! * **Assisted accounts** (per share copied) each play honest `club` accounts of their own
//!   (sparring partners, rated too, not counted), a new partner every three games. After
//!   each game the client waits until the server has analysed it and looks for the flag. A
//!   flagged account plays on to the cap, so that other judgings can be replayed over all its
//!   games ([`crate::judging`]).
//!
//! Every account connects from 127.0.0.1, so the rating-farm checks see one address; their
//! flags (`flag-farm`) are counted in the report, apart.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use fiveup_bots::fairplay::{seed_path, SimulatedPerson};
use fiveup_engine::{Action, FastRng, View};
use fiveup_protocol::{
    ClientMsg, CreateTableRequest, JoinRequest, Me, RulesSpec, SeatConfig, ServerMsg, TableInfo,
    TableStatus, TableView,
};
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::Semaphore;
use tokio_tungstenite::tungstenite::Message;

use crate::http::{self, Target};
use crate::table::{connect_ws, Rng, Ws};
use crate::{inproc, procinfo, seatview};

/// The honest levels, weakest first.
pub const HONEST: [&str; 3] = ["casual", "club", "strong"];

/// Rated games a pair of accounts may play in a day.
const PER_PAIR: u32 = fiveup_server::games::pool::RATED_PER_PAIR_PER_DAY as u32;

/// The password of every simulated account.
const PASSWORD: &str = "a long load test password";

/// The settings of a fair-play run.
#[derive(Clone, Debug)]
pub struct FairplayOptions {
    /// Honest accounts of each level of [`HONEST`].
    pub honest: [usize; 3],
    /// Games each honest account plays.
    pub honest_games: u32,
    /// Assisted accounts per share in `copy`.
    pub assisted: usize,
    /// The shares of decisions with a choice on which an assisted account plays the master
    /// level's move.
    pub copy: Vec<f64>,
    /// The games each assisted account plays (the first flag is noted; it plays on).
    pub assisted_games: u32,
    /// The mean slip rate: each account's is drawn uniformly between 0 and twice it.
    pub slip: f64,
    /// Seed of the accounts' slip rates, their players, the pairings and the deal seeds.
    pub seed: u64,
    /// Tables played at once.
    pub tables: usize,
    /// Moves chosen at once (each on a blocking thread).
    pub choosers: usize,
    /// Worker threads of the in-process server.
    pub server_threads: usize,
    /// Worker threads of the players.
    pub client_threads: usize,
    /// How long a player waits for any message during a game.
    pub timeout: Duration,
    /// How long the run waits for the server's analysis of a game.
    pub analysis_timeout: Duration,
    /// The rules of every game, as an options string.
    pub rules: String,
}

impl Default for FairplayOptions {
    fn default() -> FairplayOptions {
        FairplayOptions {
            honest: [480, 480, 40],
            honest_games: 20,
            assisted: 50,
            copy: vec![0.3, 0.6, 1.0],
            assisted_games: 30,
            slip: 0.05,
            seed: 1,
            tables: 64,
            choosers: 2,
            server_threads: fiveup_server::default_workers(true),
            client_threads: 2,
            timeout: Duration::from_secs(300),
            analysis_timeout: Duration::from_secs(3600),
            rules: "five-up target=150".to_string(),
        }
    }
}

/// One analysed game of an account, as the server stored it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AnalysedGame {
    /// Decisions that counted.
    pub decisions: u32,
    /// Of those, the ones that agreed with the analysis's best.
    pub agreed: u32,
    /// Points lost against the best.
    pub loss: f64,
    /// The account's server rating before the game.
    pub rating: f64,
    /// That rating's deviation before the game.
    pub deviation: f64,
}

/// What the server found about one account.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct AccountResult {
    /// Its population.
    pub population: String,
    /// Its user name.
    pub name: String,
    /// Its user id.
    pub id: i64,
    /// Its slip rate.
    pub slip: f64,
    /// Games it played to their end.
    pub played: u32,
    /// Its analysed games as the server stored them, oldest first. An honest account's are
    /// read at the end (the server's window, its last 20); an assisted account's after each
    /// game, so all of them.
    pub games: Vec<AnalysedGame>,
    /// An assisted account: the game after which the server first flagged it (it plays on to
    /// the cap, so that other judgings can be replayed over all its games).
    pub flagged_at: Option<u32>,
    /// Whether the server flagged it for computer help.
    pub flagged: bool,
    /// Whether the server flagged it as a rating farm.
    pub farm_flagged: bool,
    /// Its server rating at the end.
    pub rating: f64,
    /// The band the server judged it in at the end (its last analysed game's).
    pub band: Option<String>,
    /// Its suspicion figure at the end.
    pub z: Option<f64>,
    /// The judging the run's server flagged with: (band deviations, threshold). Absent in a
    /// dump from before it was written; the replay then compares with today's default.
    #[serde(default)]
    pub judged_with: Option<(f64, f64)>,
}

/// One population's figures.
#[derive(Clone, Debug, Serialize)]
pub struct PopulationRow {
    /// Its name (`honest casual`, `club copying master on 30%`).
    pub name: String,
    /// Whether it is honest.
    pub honest: bool,
    /// Accounts.
    pub accounts: usize,
    /// Games analysed (account-games).
    pub games: usize,
    /// Decisions that count, per game.
    pub decisions_per_game: f64,
    /// Agreement with the analysis's best, pooled.
    pub agreement: f64,
    /// Points lost per decision, pooled.
    pub loss: f64,
    /// Accounts flagged for computer help.
    pub flagged: usize,
    /// Assisted: accounts flagged within the honest accounts' game count.
    pub flagged_within_honest_games: usize,
    /// Assisted: games to be flagged, median and 90th percentile (nearest rank; `None`: not
    /// within the cap).
    pub games_to_flag: Option<(Option<u32>, Option<u32>)>,
    /// Honest: the share flagged and its Wilson 95% interval.
    pub false_positives: Option<(f64, f64, f64)>,
    /// Mean server rating at the end.
    pub mean_rating: f64,
    /// The bands the accounts were judged in at the end, with counts.
    pub bands: BTreeMap<String, usize>,
    /// Accounts flagged as rating farms.
    pub farm_flagged: usize,
}

/// What a fair-play run found.
#[derive(Clone, Debug, Serialize)]
pub struct FairplayReport {
    /// The populations, honest first, then the honest accounts together, then the assisted.
    pub rows: Vec<PopulationRow>,
    /// Every account.
    pub accounts: Vec<AccountResult>,
    /// Games played to their end.
    pub games_played: u64,
    /// Games that failed (an error, a timeout).
    pub errors: u64,
    /// Errors by kind, with counts.
    pub error_kinds: BTreeMap<String, u64>,
    /// Seconds of the whole run, registration included.
    pub wall_secs: f64,
    /// Seconds of the assisted phase and of the honest phase (with the wait for the analysis).
    pub phase_secs: [f64; 2],
    /// Processor seconds of the whole process (server, its fair-play worker and players).
    pub cpu_secs: Option<f64>,
    /// Processor seconds of the players' threads and their move choices.
    pub players_cpu_secs: Option<f64>,
    /// Games each honest account was to play, and the assisted accounts' cap.
    pub honest_games: u32,
    /// The assisted accounts' cap.
    pub assisted_games: u32,
    /// Other judgings replayed over the run's stored figures.
    pub judging: crate::judging::Grid,
}

impl FairplayReport {
    /// Whether every game was played and analysed.
    #[must_use]
    pub fn clean(&self) -> bool {
        self.errors == 0
    }
}

fn pct(x: f64) -> String {
    format!("{:.2}%", 100.0 * x)
}

fn games_cell(g: Option<u32>) -> String {
    g.map_or_else(|| "never".to_string(), |g| g.to_string())
}

impl fmt::Display for FairplayReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "| population | games | accounts | decisions a game | agreement | loss / decision | \
             games to be flagged (median / p90) | flagged | false-positive rate (95% CI) | \
             bands at the end | mean rating |"
        )?;
        writeln!(
            f,
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
        )?;
        for r in &self.rows {
            let when = match r.games_to_flag {
                Some((m, p)) => format!(
                    "{} / {}{}",
                    games_cell(m),
                    games_cell(p),
                    if m.is_none() || p.is_none() {
                        format!(" (within {})", self.assisted_games)
                    } else {
                        String::new()
                    }
                ),
                None => "-".to_string(),
            };
            let flagged = if r.honest {
                format!("{} within {} games", r.flagged, self.honest_games)
            } else {
                format!(
                    "{} of {} within {} games ({} within {})",
                    r.flagged,
                    r.accounts,
                    self.assisted_games,
                    r.flagged_within_honest_games,
                    self.honest_games
                )
            };
            let fp = r.false_positives.map_or_else(
                || "-".to_string(),
                |(p, lo, hi)| format!("{} ({} .. {})", pct(p), pct(lo), pct(hi)),
            );
            let bands = r
                .bands
                .iter()
                .map(|(b, n)| format!("{b} {n}"))
                .collect::<Vec<_>>()
                .join(", ");
            writeln!(
                f,
                "| {} | {} | {} | {:.1} | {:.3} | {:.2} | {when} | {flagged} | {fp} | {bands} | \
                 {:.0} |",
                r.name,
                r.games,
                r.accounts,
                r.decisions_per_game,
                r.agreement,
                r.loss,
                r.mean_rating
            )?;
        }
        let farms: usize = self
            .rows
            .iter()
            .filter(|r| r.name != "honest, all")
            .map(|r| r.farm_flagged)
            .sum();
        writeln!(f, "\nrating-farm flags (apart): {farms}")?;
        writeln!(
            f,
            "games played: {}, failed: {}",
            self.games_played, self.errors
        )?;
        for (k, n) in &self.error_kinds {
            writeln!(f, "  {n} x {k}")?;
        }
        let opt = |v: Option<f64>| v.map_or_else(|| "unknown".to_string(), |v| format!("{v:.0}"));
        writeln!(
            f,
            "time: {:.0} s in all (assisted phase {:.0} s, honest phase {:.0} s); processor: {} s \
             (players {} s)",
            self.wall_secs,
            self.phase_secs[0],
            self.phase_secs[1],
            opt(self.cpu_secs),
            opt(self.players_cpu_secs)
        )?;
        write!(
            f,
            "\nother judgings, replayed over the stored figures:\n{}",
            self.judging
        )
    }
}

/// A simulated account.
#[derive(Clone, Debug)]
struct Account {
    population: String,
    name: String,
    id: i64,
    cookie: String,
    level: &'static str,
    slip: f64,
    copy: f64,
    /// Games it was seated at (finished or failed).
    played: u32,
    /// Games it finished.
    done: u32,
    seat0: u32,
}

/// A simulated person at one game: the engine-level measurement's (its level's player,
/// slips, and perhaps the master level).
fn person(a: &Account, seed: u64) -> Result<SimulatedPerson, String> {
    SimulatedPerson::new(a.level, a.slip, a.copy, seed).map_err(|e| e.to_string())
}

/// What every game shares.
struct Shared {
    target: Target,
    rules: String,
    timeout: Duration,
    analysis_timeout: Duration,
    tables: Arc<Semaphore>,
    choosers: Arc<Semaphore>,
    moderator: String,
}

async fn register(target: &Target, name: &str) -> Result<(i64, String), String> {
    let body = serde_json::json!({"username": name, "password": PASSWORD}).to_string();
    let r = http::post(target, None, "/api/register", None, &body).await?;
    if r.status != 200 {
        return Err(format!(
            "POST /api/register answered {}: {}",
            r.status, r.body
        ));
    }
    let me: Me = serde_json::from_str(&r.body).map_err(|e| format!("POST /api/register: {e}"))?;
    let cookie = r
        .cookie
        .ok_or_else(|| "POST /api/register set no session cookie".to_string())?;
    Ok((me.user.id, cookie))
}

async fn send(ws: &mut Ws, msg: &ClientMsg) -> Result<(), String> {
    let text = serde_json::to_string(msg).map_err(|e| e.to_string())?;
    ws.send(Message::text(text))
        .await
        .map_err(|e| format!("send: {e}"))
}

/// The account's websocket, once the server welcomed it.
async fn open_ws(sh: &Shared, a: &Account) -> Result<Ws, String> {
    let mut ws = connect_ws(&sh.target, None, &a.cookie).await?;
    loop {
        let m = tokio::time::timeout(sh.timeout, ws.next())
            .await
            .map_err(|_| "timeout waiting for the welcome".to_string())?;
        match m {
            Some(Ok(Message::Text(t))) => {
                if matches!(serde_json::from_str(&t), Ok(ServerMsg::Welcome { .. })) {
                    return Ok(ws);
                }
            }
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(format!("websocket: {e}")),
            None => return Err("the server closed the websocket".into()),
        }
    }
}

async fn create_table(sh: &Shared, a: &Account) -> Result<String, String> {
    let req = CreateTableRequest {
        rules: RulesSpec::Options(sh.rules.clone()),
        seats: vec![SeatConfig::Me, SeatConfig::Open],
        unlisted: false,
        request_id: None,
        correspondence: None,
        hints: false,
    };
    let body = serde_json::to_string(&req).map_err(|e| e.to_string())?;
    let r = http::post(&sh.target, None, "/api/tables", Some(&a.cookie), &body).await?;
    if r.status != 201 {
        return Err(format!(
            "POST /api/tables answered {}: {}",
            r.status, r.body
        ));
    }
    let info: TableInfo =
        serde_json::from_str(&r.body).map_err(|e| format!("POST /api/tables: {e}"))?;
    Ok(info.id)
}

async fn join_table(sh: &Shared, a: &Account, table: &str) -> Result<(), String> {
    let body = serde_json::to_string(&JoinRequest {
        seat: Some(1),
        invite: None,
    })
    .map_err(|e| e.to_string())?;
    let path = format!("/api/tables/{table}/join");
    let r = http::post(&sh.target, None, &path, Some(&a.cookie), &body).await?;
    if r.status != 200 {
        return Err(format!("POST {path} answered {}: {}", r.status, r.body));
    }
    Ok(())
}

/// Choose a move on a blocking thread (at most `choosers` at once).
async fn choose(
    sh: &Shared,
    person: &mut Option<SimulatedPerson>,
    view: View,
) -> Result<Action, String> {
    let _permit = sh.choosers.acquire().await.map_err(|e| e.to_string())?;
    let mut p = person.take().ok_or("the player is busy")?;
    let (p, a) = tokio::task::spawn_blocking(move || {
        let a = p.choose(&view);
        (p, a)
    })
    .await
    .map_err(|e| format!("a player's thread failed: {e}"))?;
    *person = Some(p);
    Ok(a)
}

/// One seat of one game, from the views the server sends it, until the game is over.
async fn play_seat(
    sh: &Shared,
    ws: &mut Ws,
    table: &str,
    mut person: Option<SimulatedPerson>,
    mut rng: Rng,
) -> Result<(), String> {
    let mut decided: Option<u64> = None;
    let mut seeded: Option<u16> = None;
    let mut pending: Option<String> = None;
    let mut last: Option<Box<TableView>> = None;
    let mut next_id = 0u64;
    loop {
        let m = tokio::time::timeout(sh.timeout, ws.next())
            .await
            .map_err(|_| format!("timeout: no message for {:?}", sh.timeout))?;
        let text = match m {
            Some(Ok(Message::Text(t))) => t,
            Some(Ok(Message::Close(f))) => {
                return Err(format!("the server closed the websocket: {f:?}"))
            }
            Some(Ok(_)) => continue,
            Some(Err(e)) => return Err(format!("websocket: {e}")),
            None => return Err("the server closed the websocket".into()),
        };
        let Ok(msg) = serde_json::from_str::<ServerMsg>(&text) else {
            continue;
        };
        let v = match msg {
            ServerMsg::Snapshot { view, .. } | ServerMsg::Event { view, .. } => view,
            ServerMsg::Ack { id, .. } => {
                if pending.as_ref() != Some(&id) {
                    continue;
                }
                // The views that came while it was pending are acted on now.
                pending = None;
                match last.take() {
                    Some(v) => v,
                    None => continue,
                }
            }
            ServerMsg::Error { id, message, .. } => {
                if id.is_none() || pending != id {
                    return Err(format!("error: {message}"));
                }
                // Refused (stale): decide again from the last view.
                pending = None;
                decided = None;
                match last.take() {
                    Some(v) => v,
                    None => continue,
                }
            }
            _ => continue,
        };
        if v.table.id != table {
            continue;
        }
        if v.table.status == TableStatus::Finished {
            return Ok(());
        }
        if v.you.is_none() {
            continue;
        }
        if pending.is_some() {
            last = Some(v);
            continue;
        }
        if let Some(hand) = seatview::seed_due(&v, seeded) {
            next_id += 1;
            let id = format!("s{next_id}");
            seeded = Some(hand);
            pending = Some(id.clone());
            let seed = rng.seed_hex();
            send(ws, &ClientMsg::Seed { id, hand, seed }).await?;
            last = Some(v);
            continue;
        }
        if !seatview::decision_due(&v, decided) {
            last = Some(v);
            continue;
        }
        decided = Some(v.table.version);
        let view = seatview::engine_view(&v, None)?;
        let action = choose(sh, &mut person, view).await?;
        if !v.legal.iter().any(|l| l.action == action) {
            return Err(format!(
                "the player chose {action}, which the server does not offer"
            ));
        }
        next_id += 1;
        let id = format!("m{next_id}");
        pending = Some(id.clone());
        send(
            ws,
            &ClientMsg::Act {
                id,
                version: v.table.version,
                action,
            },
        )
        .await?;
        last = Some(v);
    }
}

/// One rated game, `a` in seat 0 and `b` in seat 1: its id (the game's, as the server
/// stores it).
async fn play_game(
    sh: &Shared,
    a: &Account,
    b: &Account,
    game_seed: u64,
) -> Result<String, String> {
    let _table = sh.tables.acquire().await.map_err(|e| e.to_string())?;
    let mut wa = open_ws(sh, a).await?;
    let mut wb = open_ws(sh, b).await?;
    let id = create_table(sh, a).await?;
    for ws in [&mut wa, &mut wb] {
        send(
            ws,
            &ClientMsg::Open {
                table: id.clone(),
                since: None,
            },
        )
        .await?;
    }
    join_table(sh, b, &id).await?;
    let pa = person(a, seed_path(&[game_seed, 0]))?;
    let pb = person(b, seed_path(&[game_seed, 1]))?;
    let (ra, rb) = tokio::join!(
        play_seat(
            sh,
            &mut wa,
            &id,
            Some(pa),
            Rng::new(seed_path(&[game_seed, 2]))
        ),
        play_seat(
            sh,
            &mut wb,
            &id,
            Some(pb),
            Rng::new(seed_path(&[game_seed, 3]))
        )
    );
    let _ = wa.close(None).await;
    let _ = wb.close(None).await;
    ra?;
    rb?;
    Ok(id)
}

/// What the moderators' page shows about an account, as far as the run reads it.
#[derive(Clone, Debug, Default)]
struct Evidence {
    /// Analysed games, newest first, with the game's id.
    analysed: Vec<(String, AnalysedGame)>,
    flagged: bool,
    farm_flagged: bool,
    rating: f64,
    band: Option<String>,
    z: Option<f64>,
}

async fn evidence(sh: &Shared, user: i64) -> Result<Evidence, String> {
    let path = format!("/api/moderation/users/{user}");
    let r = http::get(&sh.target, None, &path, Some(&sh.moderator)).await?;
    if r.status != 200 {
        return Err(format!("GET {path} answered {}: {}", r.status, r.body));
    }
    let v: Value = serde_json::from_str(&r.body).map_err(|e| format!("GET {path}: {e}"))?;
    let mut e = Evidence {
        rating: v["rating"]["rating"].as_f64().unwrap_or(f64::NAN),
        band: v["fairplay"]["band"].as_str().map(str::to_string),
        z: v["fairplay"]["z"].as_f64(),
        ..Evidence::default()
    };
    for g in v["analysed"].as_array().into_iter().flatten() {
        e.analysed.push((
            g["game"].as_str().unwrap_or_default().to_string(),
            AnalysedGame {
                decisions: g["decisions"].as_u64().unwrap_or(0) as u32,
                agreed: g["agreed"].as_u64().unwrap_or(0) as u32,
                loss: g["loss"].as_f64().unwrap_or(0.0),
                rating: g["rating"].as_f64().unwrap_or(f64::NAN),
                deviation: g["deviation"].as_f64().unwrap_or(f64::NAN),
            },
        ));
    }
    for rep in v["reports"].as_array().into_iter().flatten() {
        match rep["kind"].as_str() {
            Some("flag-assist") => e.flagged = true,
            Some("flag-farm") => e.farm_flagged = true,
            _ => {}
        }
    }
    Ok(e)
}

/// Wait until the server has analysed `game` for `user`: the evidence then.
async fn analysed(sh: &Shared, user: i64, game: &str) -> Result<Evidence, String> {
    let t0 = Instant::now();
    loop {
        let e = evidence(sh, user).await?;
        if e.analysed.iter().any(|g| g.0 == game) {
            return Ok(e);
        }
        if t0.elapsed() > sh.analysis_timeout {
            return Err(format!(
                "game {game} was not analysed within {:?}",
                sh.analysis_timeout
            ));
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

#[derive(Default)]
struct Errors(BTreeMap<String, u64>);

impl Errors {
    fn add(&mut self, e: &str) {
        // The kind: the message without its numbers (table ids and counts vary).
        let kind: String = e
            .chars()
            .map(|c| if c.is_ascii_digit() { '#' } else { c })
            .take(160)
            .collect();
        *self.0.entry(kind).or_insert(0) += 1;
    }

    fn total(&self) -> u64 {
        self.0.values().sum()
    }

    /// Stop the run when more than a tenth of a round's `games` failed since `before` errors:
    /// something is wrong with the run, not with a game.
    fn check(&self, before: u64, games: usize) -> Result<(), String> {
        let failed = self.total() - before;
        if failed * 10 > games as u64 {
            let first = self.0.keys().next().cloned().unwrap_or_default();
            return Err(format!(
                "{failed} of a round's {games} games failed (for instance: {first}); stopping"
            ));
        }
        Ok(())
    }
}

/// Register `n` accounts of one population.
#[allow(clippy::too_many_arguments)]
async fn register_all(
    sh: &Shared,
    population: &str,
    prefix: &str,
    level: &'static str,
    copy: f64,
    n: usize,
    opts: &FairplayOptions,
    salt: u64,
) -> Result<Vec<Account>, String> {
    let gate = Arc::new(Semaphore::new(8));
    let mut handles = Vec::with_capacity(n);
    for i in 0..n {
        let gate = gate.clone();
        let target = sh.target.clone();
        let name = format!("{prefix}{i:04}");
        handles.push(tokio::spawn(async move {
            let _p = gate.acquire_owned().await.map_err(|e| e.to_string())?;
            register(&target, &name).await.map(|r| (name, r))
        }));
    }
    let mut out = Vec::with_capacity(n);
    for (i, h) in handles.into_iter().enumerate() {
        let (name, (id, cookie)) = h.await.map_err(|e| e.to_string())??;
        let seed = seed_path(&[opts.seed, salt, i as u64]);
        let mut rng = FastRng::new(seed);
        out.push(Account {
            population: population.to_string(),
            name,
            id,
            cookie,
            level,
            slip: 2.0 * opts.slip * rng.unit(),
            copy,
            played: 0,
            done: 0,
            seat0: 0,
        });
    }
    Ok(out)
}

/// The population's name of a share copied.
fn copy_name(c: f64) -> String {
    format!("club copying master on {:.0}%", 100.0 * c)
}

/// Play the assisted populations: each assisted account against its sparring partners to the
/// cap, checked after each game (the first flag is noted; the account plays on, so that the
/// run can replay other judgings over all its games). Returns the assisted accounts' results.
async fn assisted_phase(
    sh: &Arc<Shared>,
    opts: &FairplayOptions,
    assisted: &mut [Vec<Account>],
    sparring: &mut [Vec<Account>],
    errors: &mut Errors,
    played: &mut u64,
) -> Result<Vec<Vec<AccountResult>>, String> {
    let mut results: Vec<Vec<AccountResult>> = assisted
        .iter()
        .map(|accs| {
            accs.iter()
                .map(|a| AccountResult {
                    population: a.population.clone(),
                    name: a.name.clone(),
                    id: a.id,
                    slip: a.slip,
                    ..AccountResult::default()
                })
                .collect()
        })
        .collect();
    for round in 0..opts.assisted_games {
        let mut jobs = Vec::new();
        for (c, accs) in assisted.iter().enumerate() {
            let m = sparring[c].len();
            for (i, a) in accs.iter().enumerate() {
                let s = &sparring[c][(i + (round / PER_PAIR) as usize) % m];
                let (x, y) = if round % 2 == 0 {
                    (a.clone(), s.clone())
                } else {
                    (s.clone(), a.clone())
                };
                let seed = seed_path(&[opts.seed, 2, c as u64, i as u64, u64::from(round)]);
                let sh = sh.clone();
                jobs.push((
                    c,
                    i,
                    tokio::spawn(async move {
                        let game = play_game(&sh, &x, &y, seed).await?;
                        let mine = if x.copy > 0.0 { x.id } else { y.id };
                        let e = analysed(&sh, mine, &game).await?;
                        Ok::<_, String>((game, e))
                    }),
                ));
            }
        }
        if jobs.is_empty() {
            break;
        }
        let round_games = jobs.len();
        let errors_before = errors.total();
        for (c, i, h) in jobs {
            let m = sparring[c].len();
            let r = &mut results[c][i];
            match h.await.map_err(|e| e.to_string())? {
                Ok((game, e)) => {
                    *played += 1;
                    r.played += 1;
                    assisted[c][i].played += 1;
                    sparring[c][(i + (round / PER_PAIR) as usize) % m].played += 1;
                    if let Some(g) = e.analysed.iter().find(|g| g.0 == game) {
                        r.games.push(g.1.clone());
                    }
                    r.rating = e.rating;
                    r.band = e.band;
                    r.z = e.z;
                    r.farm_flagged |= e.farm_flagged;
                    if e.flagged && !r.flagged {
                        r.flagged = true;
                        r.flagged_at = Some(round + 1);
                    }
                }
                Err(e) => errors.add(&e),
            }
        }
        errors.check(errors_before, round_games)?;
    }
    Ok(results)
}

/// Pair the honest accounts that still need games, at random, never a pair that has played
/// its day's rated games.
fn pairings(
    accounts: &[Account],
    games: u32,
    counts: &HashMap<(usize, usize), u32>,
    rng: &mut FastRng,
) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..accounts.len())
        .filter(|&i| accounts[i].played < games)
        .collect();
    for i in (1..order.len()).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        order.swap(i, j);
    }
    let mut taken = vec![false; order.len()];
    let mut out = Vec::new();
    for x in 0..order.len() {
        if taken[x] {
            continue;
        }
        let a = order[x];
        let partner = (x + 1..order.len()).find(|&y| {
            let b = order[y];
            !taken[y] && counts.get(&(a.min(b), a.max(b))).copied().unwrap_or(0) < PER_PAIR
        });
        if let Some(y) = partner {
            taken[x] = true;
            taken[y] = true;
            let b = order[y];
            // The one who has held seat 0 less often takes it.
            if accounts[a].seat0 <= accounts[b].seat0 {
                out.push((a, b));
            } else {
                out.push((b, a));
            }
        }
    }
    out
}

/// Play the honest accounts' games in rounds of random pairings.
async fn honest_phase(
    sh: &Arc<Shared>,
    opts: &FairplayOptions,
    accounts: &mut [Account],
    errors: &mut Errors,
    played: &mut u64,
) -> Result<(), String> {
    let mut counts: HashMap<(usize, usize), u32> = HashMap::new();
    let mut rng = FastRng::new(seed_path(&[opts.seed, 3]));
    // A round where no account can be paired ends the phase (an account may then play fewer
    // games: the report says how many each played).
    for round in 0..opts.honest_games.saturating_mul(4) {
        let pairs = pairings(accounts, opts.honest_games, &counts, &mut rng);
        if pairs.is_empty() {
            break;
        }
        let mut jobs = Vec::with_capacity(pairs.len());
        for &(a, b) in &pairs {
            let (x, y) = (accounts[a].clone(), accounts[b].clone());
            let seed = seed_path(&[opts.seed, 4, u64::from(round), a as u64, b as u64]);
            let sh = sh.clone();
            jobs.push((
                a,
                b,
                tokio::spawn(async move { play_game(&sh, &x, &y, seed).await }),
            ));
        }
        let round_games = jobs.len();
        let errors_before = errors.total();
        for (a, b, h) in jobs {
            // A failed game still counts against the pair and the accounts' games (it may
            // have been rated before it failed).
            *counts.entry((a.min(b), a.max(b))).or_insert(0) += 1;
            accounts[a].seat0 += 1;
            accounts[a].played += 1;
            accounts[b].played += 1;
            match h.await.map_err(|e| e.to_string())? {
                Ok(_) => {
                    *played += 1;
                    accounts[a].done += 1;
                    accounts[b].done += 1;
                }
                Err(e) => errors.add(&e),
            }
        }
        errors.check(errors_before, round_games)?;
    }
    Ok(())
}

/// Wait for the analysis of every honest account's games, then read what the server found.
async fn honest_results(
    sh: &Arc<Shared>,
    accounts: &[Account],
) -> Result<Vec<AccountResult>, String> {
    let window = fiveup_server::moderation::fairplay::WINDOW as usize;
    let t0 = Instant::now();
    let mut out = Vec::with_capacity(accounts.len());
    for a in accounts {
        let want = (a.done as usize).min(window);
        let e = loop {
            let e = evidence(sh, a.id).await?;
            if e.analysed.len() >= want {
                break e;
            }
            if t0.elapsed() > sh.analysis_timeout {
                return Err(format!(
                    "{}'s games were not analysed within {:?}",
                    a.name, sh.analysis_timeout
                ));
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        };
        out.push(AccountResult {
            population: a.population.clone(),
            name: a.name.clone(),
            id: a.id,
            slip: a.slip,
            played: a.done,
            games: e.analysed.iter().rev().map(|g| g.1.clone()).collect(),
            flagged_at: None,
            flagged: e.flagged,
            farm_flagged: e.farm_flagged,
            rating: e.rating,
            band: e.band,
            z: e.z,
            judged_with: None,
        });
    }
    Ok(out)
}

/// The nearest-rank quantile of games to be flagged (`None`: not flagged within the cap).
pub(crate) fn quantile(sorted: &[Option<u32>], q: f64) -> Option<u32> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

fn row(name: &str, honest: bool, accs: &[&AccountResult], honest_games: u32) -> PopulationRow {
    let (mut d, mut ag, mut l, mut g) = (0u64, 0u64, 0.0, 0usize);
    let mut bands = BTreeMap::new();
    for a in accs {
        for game in &a.games {
            d += u64::from(game.decisions);
            ag += u64::from(game.agreed);
            l += game.loss;
            g += 1;
        }
        *bands
            .entry(a.band.clone().unwrap_or_else(|| "none".to_string()))
            .or_insert(0) += 1;
    }
    let flagged = accs.iter().filter(|a| a.flagged).count();
    let n = accs.len();
    let games_to_flag = (!honest).then(|| {
        let mut when: Vec<Option<u32>> = accs.iter().map(|a| a.flagged_at).collect();
        when.sort_by_key(|w| w.unwrap_or(u32::MAX));
        (quantile(&when, 0.5), quantile(&when, 0.9))
    });
    let false_positives = honest.then(|| {
        let (lo, hi) = fiveup_bots::duel::wilson95(flagged as u64, n as u64);
        (flagged as f64 / n.max(1) as f64, lo, hi)
    });
    let ratings: Vec<f64> = accs
        .iter()
        .map(|a| a.rating)
        .filter(|r| r.is_finite())
        .collect();
    PopulationRow {
        name: name.to_string(),
        honest,
        accounts: n,
        games: g,
        decisions_per_game: d as f64 / g.max(1) as f64,
        agreement: ag as f64 / d.max(1) as f64,
        loss: l / d.max(1) as f64,
        flagged,
        flagged_within_honest_games: accs
            .iter()
            .filter(|a| a.flagged_at.is_some_and(|w| w <= honest_games))
            .count(),
        games_to_flag,
        false_positives,
        mean_rating: ratings.iter().sum::<f64>() / ratings.len().max(1) as f64,
        bands,
        farm_flagged: accs.iter().filter(|a| a.farm_flagged).count(),
    }
}

/// Run the fair-play measurement against a server started in this process. Blocks; makes its
/// own runtimes.
pub fn run(opts: &FairplayOptions) -> Result<FairplayReport, String> {
    let honest_total: usize = opts.honest.iter().sum();
    if honest_total == 1 {
        return Err("honest accounts play each other: at least two are needed".into());
    }
    if opts.assisted > 0 && opts.copy.is_empty() {
        return Err("assisted accounts need a share to copy".into());
    }
    if opts.copy.iter().any(|c| !(0.0..=1.0).contains(c)) || !(0.0..=0.5).contains(&opts.slip) {
        return Err("the shares copied are from 0 to 1, the slip rate from 0 to 0.5".into());
    }
    if opts.tables == 0 || opts.choosers == 0 {
        return Err("--tables and --choosers must be at least 1".into());
    }
    let rules = fiveup_engine::Rules::parse(&opts.rules)
        .map_err(|e| format!("rules {:?}: {e}", opts.rules))?;
    if rules.players != 2 {
        return Err("the fair-play mode plays two-player games".into());
    }
    crate::ensure_open_files(4 * opts.tables as u64 + 256)?;
    let start = Instant::now();
    let cpu_before = procinfo::cpu_secs(None);
    let mut judging = fiveup_server::moderation::fairplay::JUDGING;
    let server = inproc::InProcess::start_with(opts.server_threads, |c| {
        c.fairplay_share = 100;
        // Every account connects from 127.0.0.1, two websockets a table.
        c.max_conns_per_addr = 0;
        judging = c.fairplay_judging;
    })?;
    let rt = crate::client_runtime(opts.client_threads)?;
    let url = server.url.clone();
    let result = (|| {
        let target = rt.block_on(Target::parse(&url))?;
        let (_, moderator) = rt.block_on(register(&target, "fpmoderator"))?;
        server.grant_moderator("fpmoderator")?;
        let sh = Arc::new(Shared {
            target,
            rules: opts.rules.clone(),
            timeout: opts.timeout,
            analysis_timeout: opts.analysis_timeout,
            tables: Arc::new(Semaphore::new(opts.tables)),
            choosers: Arc::new(Semaphore::new(opts.choosers)),
            moderator,
        });
        rt.block_on(drive(opts, &sh, start, judging))
    })();
    let players = crate::client_cpu();
    rt.shutdown_timeout(Duration::from_secs(5));
    server.stop();
    let mut report = result?;
    report.cpu_secs = procinfo::cpu_secs(None).zip(cpu_before).map(|(a, b)| a - b);
    report.players_cpu_secs = Some(players);
    report.wall_secs = start.elapsed().as_secs_f64();
    Ok(report)
}

async fn drive(
    opts: &FairplayOptions,
    sh: &Arc<Shared>,
    start: Instant,
    judging: fiveup_server::moderation::fairplay::Judging,
) -> Result<FairplayReport, String> {
    let mut errors = Errors::default();
    let mut played = 0u64;
    // The accounts.
    let mut honest = Vec::new();
    for (li, &n) in opts.honest.iter().enumerate() {
        let level = HONEST[li];
        let name = format!("honest {level}");
        honest.extend(
            register_all(sh, &name, &level[..3], level, 0.0, n, opts, 10 + li as u64).await?,
        );
    }
    let mut assisted = Vec::new();
    let mut sparring = Vec::new();
    if opts.assisted > 0 {
        // Enough partners that no pair plays more than its day's rated games.
        let partners = opts
            .assisted
            .max(opts.assisted_games.div_ceil(PER_PAIR) as usize);
        for (ci, &c) in opts.copy.iter().enumerate() {
            let pct = (100.0 * c).round() as u32;
            assisted.push(
                register_all(
                    sh,
                    &copy_name(c),
                    &format!("a{pct}x"),
                    "club",
                    c,
                    opts.assisted,
                    opts,
                    20 + ci as u64,
                )
                .await?,
            );
            sparring.push(
                register_all(
                    sh,
                    "sparring club",
                    &format!("s{pct}x"),
                    "club",
                    0.0,
                    partners,
                    opts,
                    30 + ci as u64,
                )
                .await?,
            );
        }
    }
    // Assisted first: each waits for the analysis of its games, which the honest games would
    // otherwise queue behind.
    let t_assisted = Instant::now();
    let assisted_results = if assisted.is_empty() {
        Vec::new()
    } else {
        assisted_phase(
            sh,
            opts,
            &mut assisted,
            &mut sparring,
            &mut errors,
            &mut played,
        )
        .await?
    };
    let assisted_secs = t_assisted.elapsed().as_secs_f64();
    let t_honest = Instant::now();
    honest_phase(sh, opts, &mut honest, &mut errors, &mut played).await?;
    let honest_results = honest_results(sh, &honest).await?;
    let honest_secs = t_honest.elapsed().as_secs_f64();

    let mut rows = Vec::new();
    let hg = opts.honest_games;
    for level in HONEST {
        let name = format!("honest {level}");
        let accs: Vec<&AccountResult> = honest_results
            .iter()
            .filter(|a| a.population == name)
            .collect();
        if !accs.is_empty() {
            rows.push(row(&name, true, &accs, hg));
        }
    }
    if !honest_results.is_empty() {
        let all: Vec<&AccountResult> = honest_results.iter().collect();
        rows.push(row("honest, all", true, &all, hg));
    }
    for (ci, accs) in assisted_results.iter().enumerate() {
        let refs: Vec<&AccountResult> = accs.iter().collect();
        rows.push(row(&copy_name(opts.copy[ci]), false, &refs, hg));
    }
    let mut accounts = honest_results;
    accounts.extend(assisted_results.into_iter().flatten());
    let errors_total = errors.0.values().sum();
    for a in &mut accounts {
        a.judged_with = Some((judging.band_deviations, judging.flag_z));
    }
    let judging = crate::judging::grid(
        &accounts,
        &crate::judging::BAND_DEVIATIONS,
        &crate::judging::FLAG_ZS,
    );
    Ok(FairplayReport {
        rows,
        accounts,
        games_played: played,
        errors: errors_total,
        error_kinds: errors.0,
        wall_secs: start.elapsed().as_secs_f64(),
        phase_secs: [assisted_secs, honest_secs],
        cpu_secs: None,
        players_cpu_secs: None,
        honest_games: hg,
        assisted_games: opts.assisted_games,
        judging,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn account(played: u32) -> Account {
        Account {
            population: "honest club".into(),
            name: "x".into(),
            id: 1,
            cookie: String::new(),
            level: "club",
            slip: 0.0,
            copy: 0.0,
            played,
            done: played,
            seat0: 0,
        }
    }

    #[test]
    fn pairings_respect_the_pair_limit_and_give_everyone_their_games() {
        let mut accs: Vec<Account> = (0..8).map(|_| account(0)).collect();
        let mut counts = HashMap::new();
        let mut rng = FastRng::new(3);
        for _ in 0..80 {
            let pairs = pairings(&accs, 20, &counts, &mut rng);
            if pairs.is_empty() {
                break;
            }
            for (a, b) in pairs {
                assert_ne!(a, b);
                let c = counts.entry((a.min(b), a.max(b))).or_insert(0);
                *c += 1;
                assert!(*c <= PER_PAIR);
                accs[a].played += 1;
                accs[b].played += 1;
                accs[a].seat0 += 1;
            }
        }
        // Eight accounts: seven partners, three games each, 21 >= 20 games possible; the
        // random pairing may strand a few short of it.
        let short = accs.iter().filter(|a| a.played < 20).count();
        assert!(
            short <= 2,
            "{:?}",
            accs.iter().map(|a| a.played).collect::<Vec<_>>()
        );
        assert!(accs.iter().all(|a| a.played <= 20));
    }

    #[test]
    fn quantiles_count_never_last() {
        let w = [Some(3), Some(5), None, None];
        assert_eq!(quantile(&w, 0.5), Some(5));
        assert_eq!(quantile(&w, 0.9), None);
    }
}
