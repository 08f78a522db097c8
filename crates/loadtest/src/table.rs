//! One table of the load test: one guest player per seat (two for the default rules, up to
//! eight), each with its own websocket; the first creates the table through the HTTP API, the
//! others sit down, and all send their deal seeds and play game after game from the legal
//! actions the server sends, timing every command from send to acknowledgement.

use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fiveup_engine::Action;
use fiveup_protocol::{
    ClientMsg, CreateTableRequest, GuestRequest, JoinRequest, RulesSpec, SeatConfig, TableInfo,
};
use futures_util::{FutureExt, SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

use crate::http::{self, Target};
use crate::wire::{self, EventKind, Incoming, Kind};

/// What every table shares.
#[derive(Debug)]
pub struct Shared {
    /// The server.
    pub target: Target,
    /// Rules of each table, as an options string.
    pub rules: String,
    /// Seats of each table (the rules' player count): one client each.
    pub players: usize,
    /// The mean pause before a player acts (each pause is drawn uniformly from half to one
    /// and a half times it); zero: act as soon as the view arrives.
    pub think: Duration,
    /// How long a player waits for any message before the table counts a timeout.
    pub timeout: Duration,
    /// Games each table plays (`None`: until told to stop).
    pub games: Option<u32>,
    /// Spread the clients over loopback addresses (`127.1.x.y`).
    pub spread: bool,
    /// The start of the run: sample times are counted from it.
    pub epoch: Instant,
}

/// One timed command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// When it was sent, in milliseconds from the start of the run.
    pub at_ms: u32,
    /// Its round trip in microseconds.
    pub rtt_us: u32,
}

/// What one table did.
#[derive(Clone, Debug, Default)]
pub struct TableResult {
    /// Moves (`act`), timed to their `ack`.
    pub moves: Vec<Sample>,
    /// Seeds (`seed`), timed to their `ack`.
    pub seeds: Vec<Sample>,
    /// Games played to their end.
    pub games: u32,
    /// Every error: an `error` message (by code), an unexpected close, a timeout, a failed
    /// request.
    pub errors: Vec<String>,
}

pub(crate) type Ws = WebSocketStream<TcpStream>;

/// Bytes read from a websocket at a time.
const READ_BUFFER: usize = 16 * 1024;

/// A small deterministic generator (SplitMix64) for think times and deal seeds.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    #[must_use]
    pub const fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// 32 bytes as 64 hex digits.
    pub fn seed_hex(&mut self) -> String {
        let mut s = String::with_capacity(64);
        for _ in 0..4 {
            s.push_str(&format!("{:016x}", self.next_u64()));
        }
        s
    }
}

/// The loopback address of client `n` when spreading: `127.1.x.y` with `y` in `1..=254`.
#[must_use]
pub fn spread_addr(n: usize) -> IpAddr {
    let host = n % 254 + 1;
    let mid = (n / 254) % 256;
    let high = 1 + n / (254 * 256);
    IpAddr::V4(Ipv4Addr::new(127, high as u8, mid as u8, host as u8))
}

#[derive(Debug)]
pub(crate) struct Pending {
    id: String,
    sent: Instant,
    seed: bool,
}

/// One player: a guest session and its websocket.
#[derive(Debug)]
pub(crate) struct Player {
    pub(crate) ws: Ws,
    pub(crate) cookie: String,
    pub(crate) src: Option<IpAddr>,
    /// The last table version seen.
    pub(crate) version: u64,
    /// The version at which this player last chose an action.
    acted_at: Option<u64>,
    /// The last hand this player sent a seed for.
    seeded: u16,
    pub(crate) pending: Vec<Pending>,
    /// An action waiting for its think time: when, what, at which version.
    pub(crate) due: Option<(Instant, Action, u64)>,
    next_id: u64,
    /// Waiting for the snapshot of a table just opened (older messages are skipped).
    opening: bool,
    pub(crate) finished: bool,
}

pub(crate) fn ms_since(epoch: Instant, t: Instant) -> u32 {
    u32::try_from(t.duration_since(epoch).as_millis()).unwrap_or(u32::MAX)
}

pub(crate) fn micros(d: Duration) -> u32 {
    u32::try_from(d.as_micros()).unwrap_or(u32::MAX)
}

/// A guest session for `name` (from `src` when given): its cookie.
pub(crate) async fn guest(
    target: &Target,
    src: Option<IpAddr>,
    name: &str,
) -> Result<String, String> {
    let body = serde_json::to_string(&GuestRequest {
        nickname: name.to_string(),
    })
    .map_err(|e| e.to_string())?;
    let r = http::post(target, src, "/api/guest", None, &body).await?;
    if r.status != 200 {
        return Err(format!("POST /api/guest answered {}: {}", r.status, r.body));
    }
    r.cookie
        .ok_or_else(|| "POST /api/guest set no session cookie".to_string())
}

pub(crate) async fn connect_ws(
    target: &Target,
    src: Option<IpAddr>,
    cookie: &str,
) -> Result<Ws, String> {
    let stream = http::connect(target.addr, src)
        .await
        .map_err(|e| format!("websocket connect: {e}"))?;
    let mut req = target
        .ws_url()
        .into_client_request()
        .map_err(|e| format!("websocket request: {e}"))?;
    req.headers_mut().insert(
        "Cookie",
        HeaderValue::from_str(cookie).map_err(|e| format!("cookie: {e}"))?,
    );
    // The library's default read buffer (128 KiB) is zeroed on every read: a smaller one
    // keeps thousands of connections cheap.
    let config = WebSocketConfig::default().read_buffer_size(READ_BUFFER);
    let (ws, _) = tokio_tungstenite::client_async_with_config(req, stream, Some(config))
        .await
        .map_err(|e| format!("websocket upgrade: {e}"))?;
    Ok(ws)
}

impl Player {
    pub(crate) async fn new(
        sh: &Shared,
        src: Option<IpAddr>,
        name: &str,
    ) -> Result<Player, String> {
        let cookie = guest(&sh.target, src, name).await?;
        let ws = connect_ws(&sh.target, src, &cookie).await?;
        Ok(Player {
            ws,
            cookie,
            src,
            version: 0,
            acted_at: None,
            seeded: 0,
            pending: Vec::new(),
            due: None,
            next_id: 0,
            opening: false,
            finished: false,
        })
    }

    async fn send(&mut self, msg: &ClientMsg) -> Result<(), String> {
        let text = serde_json::to_string(msg).map_err(|e| e.to_string())?;
        self.ws
            .send(Message::text(text))
            .await
            .map_err(|e| format!("send: {e}"))
    }

    /// Follow a new table: forget the previous one's state.
    pub(crate) async fn open(&mut self, table: &str) -> Result<(), String> {
        self.version = 0;
        self.acted_at = None;
        self.seeded = 0;
        self.due = None;
        self.opening = true;
        self.finished = false;
        self.send(&ClientMsg::Open {
            table: table.to_string(),
            since: None,
        })
        .await
    }

    fn new_id(&mut self, prefix: char) -> String {
        self.next_id += 1;
        format!("{prefix}{}", self.next_id)
    }

    pub(crate) async fn act(&mut self, action: Action, version: u64) -> Result<(), String> {
        let id = self.new_id('m');
        self.pending.push(Pending {
            id: id.clone(),
            sent: Instant::now(),
            seed: false,
        });
        self.send(&ClientMsg::Act {
            id,
            version,
            action,
        })
        .await
    }
}

/// What a message told the table loop.
pub(crate) enum Step {
    Continue,
    Closed(String),
}

/// Handle one message of one player.
pub(crate) async fn on_message(
    p: &mut Player,
    msg: Option<Result<Message, tokio_tungstenite::tungstenite::Error>>,
    sh: &Shared,
    rng: &mut Rng,
    stopping: bool,
    out: &mut TableResult,
) -> Result<Step, String> {
    let text = match msg {
        None => return Ok(Step::Closed("the server closed the websocket".into())),
        Some(Err(e)) => return Ok(Step::Closed(format!("websocket: {e}"))),
        Some(Ok(Message::Text(t))) => t,
        Some(Ok(Message::Close(f))) => {
            return Ok(Step::Closed(format!(
                "the server closed the websocket: {f:?}"
            )))
        }
        Some(Ok(_)) => return Ok(Step::Continue),
    };
    let now = Instant::now();
    let m: Incoming =
        serde_json::from_str(&text).map_err(|e| format!("unreadable message: {e}"))?;
    match m.kind {
        Kind::Ack => {
            if let Some(i) = p.pending.iter().position(|x| Some(&x.id) == m.id.as_ref()) {
                let x = p.pending.swap_remove(i);
                let s = Sample {
                    at_ms: ms_since(sh.epoch, x.sent),
                    rtt_us: micros(now.duration_since(x.sent)),
                };
                if x.seed {
                    out.seeds.push(s);
                } else {
                    out.moves.push(s);
                }
            }
        }
        Kind::Error => {
            if let Some(i) = p.pending.iter().position(|x| Some(&x.id) == m.id.as_ref()) {
                p.pending.swap_remove(i);
            }
            let code = m
                .code
                .and_then(|c| serde_json::to_value(c).ok())
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_else(|| "unknown".to_string());
            out.errors
                .push(format!("error {code}: {}", m.message.unwrap_or_default()));
        }
        Kind::Snapshot | Kind::Event => {
            if m.kind == Kind::Snapshot {
                p.opening = false;
            } else if p.opening {
                return Ok(Step::Continue);
            }
            let (Some(version), Some(view)) = (m.version, m.view) else {
                return Err(format!("a {:?} without a version or view", m.kind));
            };
            p.version = version;
            if view.finished() || m.event.is_some_and(|e| e.kind == EventKind::GameOver) {
                p.finished = true;
                p.due = None;
                return Ok(Step::Continue);
            }
            if let Some(hand) = view.seed_wanted() {
                if hand > p.seeded && !stopping {
                    p.seeded = hand;
                    let id = p.new_id('s');
                    p.pending.push(Pending {
                        id: id.clone(),
                        sent: Instant::now(),
                        seed: true,
                    });
                    let seed = rng.seed_hex();
                    p.send(&ClientMsg::Seed { id, hand, seed }).await?;
                }
            }
            p.due = None;
            if view.my_turn() && p.acted_at != Some(version) && !stopping {
                if let Some(action) = wire::choose(&view.legal) {
                    p.acted_at = Some(version);
                    if sh.think.is_zero() {
                        p.act(action, version).await?;
                    } else {
                        let pause = sh.think.mul_f64(0.5 + rng.unit());
                        p.due = Some((now + pause, action, version));
                    }
                }
            }
        }
        Kind::Welcome | Kind::TournamentTable | Kind::Other => {}
    }
    Ok(Step::Continue)
}

pub(crate) async fn wait_welcome(p: &mut Player, timeout: Duration) -> Result<(), String> {
    loop {
        let m = tokio::time::timeout(timeout, p.ws.next())
            .await
            .map_err(|_| "timeout waiting for the welcome".to_string())?;
        match m {
            Some(Ok(Message::Text(t))) => {
                let m: Incoming = serde_json::from_str(&t).map_err(|e| e.to_string())?;
                if m.kind == Kind::Welcome {
                    return Ok(());
                }
            }
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(format!("websocket: {e}")),
            None => return Err("the server closed the websocket".into()),
        }
    }
}

async fn create_table(sh: &Shared, creator: &Player) -> Result<String, String> {
    let req = CreateTableRequest {
        rules: RulesSpec::Options(sh.rules.clone()),
        seats: std::iter::once(SeatConfig::Me)
            .chain(std::iter::repeat_n(
                SeatConfig::Open,
                sh.players.saturating_sub(1),
            ))
            .collect(),
        unlisted: false,
        request_id: None,
        correspondence: None,
        hints: false,
    };
    let body = serde_json::to_string(&req).map_err(|e| e.to_string())?;
    let r = http::post(
        &sh.target,
        creator.src,
        "/api/tables",
        Some(&creator.cookie),
        &body,
    )
    .await?;
    if r.status != 201 {
        return Err(format!(
            "POST /api/tables answered {}: {}",
            r.status, r.body
        ));
    }
    let info: TableInfo = serde_json::from_str(&r.body)
        .map_err(|e| format!("POST /api/tables: unreadable answer: {e}"))?;
    Ok(info.id)
}

async fn join_table(sh: &Shared, p: &Player, table: &str, seat: u8) -> Result<(), String> {
    let body = serde_json::to_string(&JoinRequest {
        seat: Some(seat),
        invite: None,
    })
    .map_err(|e| e.to_string())?;
    let path = format!("/api/tables/{table}/join");
    let r = http::post(&sh.target, p.src, &path, Some(&p.cookie), &body).await?;
    if r.status != 200 {
        return Err(format!("POST {path} answered {}: {}", r.status, r.body));
    }
    Ok(())
}

/// Set up and play one game: create the table, open it on every player's websocket, take the
/// other seats, then play until the game ends or the run stops.
#[allow(clippy::too_many_lines)]
async fn play_game(
    sh: &Shared,
    players: &mut [Player],
    rng: &mut Rng,
    stop: &mut watch::Receiver<bool>,
    ready: &mut Option<tokio::sync::oneshot::Sender<()>>,
    out: &mut TableResult,
) -> Result<bool, String> {
    let id = create_table(sh, &players[0]).await?;
    for p in players.iter_mut() {
        p.open(&id).await?;
    }
    for (seat, p) in players.iter().enumerate().skip(1) {
        join_table(sh, p, &id, seat as u8).await?;
    }
    if let Some(r) = ready.take() {
        let _ = r.send(());
    }
    let far = Instant::now() + Duration::from_secs(86_400 * 365);
    let mut stopping = *stop.borrow();
    let mut last_message = Instant::now();
    loop {
        let quiet = players.iter().all(|p| p.pending.is_empty());
        if stopping && quiet {
            return Ok(false);
        }
        if quiet && players.iter().all(|p| p.finished) {
            return Ok(true);
        }
        let due = players
            .iter()
            .filter_map(|p| p.due.map(|d| d.0))
            .min()
            .unwrap_or(far);
        let idle = last_message + sh.timeout;
        // The next message of any player (the other reads are dropped unread: a read that is
        // not finished loses nothing).
        let next = futures_util::future::select_all(players.iter_mut().map(|p| p.ws.next()))
            .map(|(m, i, _rest)| (m, i));
        tokio::select! {
            (m, i) = next => {
                last_message = Instant::now();
                if let Step::Closed(why) = on_message(&mut players[i], m, sh, rng, stopping, out).await? {
                    return Err(why);
                }
            }
            () = tokio::time::sleep_until(due.into()) => {
                let now = Instant::now();
                for p in players.iter_mut() {
                    if let Some((when, action, version)) = p.due {
                        if when <= now {
                            p.due = None;
                            if version == p.version {
                                p.act(action, version).await?;
                            }
                        }
                    }
                }
            }
            r = stop.changed(), if !stopping => {
                if r.is_err() || *stop.borrow() {
                    stopping = true;
                    for p in players.iter_mut() {
                        p.due = None;
                    }
                }
            }
            () = tokio::time::sleep_until(idle.into()) => {
                let waiting: usize = players.iter().map(|p| p.pending.len()).sum();
                return Err(format!(
                    "timeout: no message for {:?} ({waiting} commands unanswered)",
                    sh.timeout
                ));
            }
        }
    }
}

/// Run one table until it has played its games or `stop` turns true. `ready` is told once
/// the first game's seats are filled (the table is "up").
pub async fn run_table(
    sh: Arc<Shared>,
    index: usize,
    seed: u64,
    mut stop: watch::Receiver<bool>,
    ready: tokio::sync::oneshot::Sender<()>,
) -> TableResult {
    let mut out = TableResult::default();
    let mut rng = Rng::new(seed ^ (index as u64).wrapping_mul(0x2545_f491_4f6c_dd1d));
    let mut ready = Some(ready);
    let n = sh.players.max(2);
    let src = |k: usize| sh.spread.then(|| spread_addr(n * index + k));
    let setup = async {
        let mut players = Vec::with_capacity(n);
        for k in 0..n {
            let name = format!("load{index}{}", char::from(b'a' + k as u8));
            players.push(Player::new(&sh, src(k), &name).await?);
        }
        for p in &mut players {
            wait_welcome(p, sh.timeout).await?;
        }
        Ok::<_, String>(players)
    };
    let mut players = match setup.await {
        Ok(p) => p,
        Err(e) => {
            out.errors.push(e);
            return out;
        }
    };
    loop {
        if *stop.borrow() {
            break;
        }
        match play_game(&sh, &mut players, &mut rng, &mut stop, &mut ready, &mut out).await {
            Ok(true) => {
                out.games += 1;
                if sh.games.is_some_and(|g| out.games >= g) {
                    break;
                }
            }
            Ok(false) => break,
            Err(e) => {
                out.errors.push(e);
                return out;
            }
        }
    }
    for p in &mut players {
        let _ = p.ws.close(None).await;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_addresses_are_distinct_loopback_hosts() {
        let mut seen = std::collections::HashSet::new();
        for n in 0..70_000 {
            let a = spread_addr(n);
            assert!(a.is_loopback());
            let IpAddr::V4(v4) = a else { panic!() };
            assert!(v4.octets()[3] != 0 && v4.octets()[3] != 255);
            assert!(seen.insert(a));
        }
    }

    #[test]
    fn the_generator_is_deterministic_and_seeds_are_hex() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        assert_eq!(a.next_u64(), b.next_u64());
        let s = a.seed_hex();
        assert_eq!(s.len(), 64);
        assert!(s.bytes().all(|c| c.is_ascii_hexdigit()));
        for _ in 0..1000 {
            let u = a.unit();
            assert!((0.0..1.0).contains(&u));
        }
    }
}
