//! `fiveup connect`: put a local outside engine online as a bot account. The bridge lists the
//! challenges and open seats the bot may take (`GET /api/bot/seats`), joins those its options
//! allow, and plays each game over the bot websocket through the engine (crates/outside's
//! player: its time limit, fallback moves and strikes). A lost connection is opened again and
//! the table resumed from the last version seen; an action not yet acknowledged is sent again
//! with the same id, which the server answers as it did the first time. See `docs/bots.md`.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use fiveup_bots::Player as _;
use fiveup_engine::{Action, Entry, HandStart, Phase, Rules, Seat, Seed, State};
use fiveup_loadtest::http::{connect as tcp_connect, parse_response, Response, Target};
use fiveup_loadtest::seatview::{decision_due, engine_view, seed_due, start_of};
use fiveup_outside::messages::DealProof;
use fiveup_outside::{EngineConfig, EngineHost, EnginePlayer};
use fiveup_protocol::{
    ClientMsg, ErrorCode, EventView, HandProof, ServerMsg, TableStatus, TableView,
};
use fiveup_server::table::fairness;
use futures_util::{SinkExt as _, StreamExt as _};
use serde::Deserialize;
use tokio::io::{AsyncRead, AsyncReadExt as _, AsyncWrite, AsyncWriteExt as _};
use tokio_rustls::rustls::pki_types::{pem::PemObject as _, CertificateDer, ServerName};
use tokio_rustls::rustls::{ClientConfig, RootCertStore};
use tokio_tungstenite::tungstenite::client::IntoClientRequest as _;
use tokio_tungstenite::tungstenite::Message;

/// Whether to take rated games, casual games, or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RatedChoice {
    /// Rated and casual games.
    Any,
    /// Only games rated for the bot.
    Rated,
    /// Only games not rated for the bot.
    Casual,
}

/// `fiveup connect --server URL --token TOKEN -- COMMAND...`
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The server: `https://host[:port]` (TLS, checked against Mozilla's root certificates) or
    /// `http://host:port`.
    #[arg(long)]
    pub server: String,
    /// A PEM file of certificates to trust besides Mozilla's roots (a server with a
    /// certificate of its own making); only with `https://`.
    #[arg(long)]
    pub ca: Option<std::path::PathBuf>,
    /// The bot token (`fub_...`), as shown once when it was made; or set FIVEUP_BOT_TOKEN.
    /// (A token on the command line shows in the process list: the variable does not.)
    #[arg(long)]
    pub token: Option<String>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub games: usize,
    /// Accept only these rules (a preset and options, as `fiveup` reads them; repeat for
    /// several). Without it, any rules.
    #[arg(long = "rules")]
    pub rules: Vec<String>,
    /// Rated games, casual games, or both.
    #[arg(long, value_enum, default_value_t = RatedChoice::Any)]
    pub rated: RatedChoice,
    /// Take open seats of listed tables too (by default only challenges to this bot).
    #[arg(long)]
    pub open: bool,
    /// Stop after this many games are over (by default, run until stopped).
    #[arg(long)]
    pub max_games: Option<u64>,
    /// Milliseconds the engine has for each move (past them the fallback plays it).
    #[arg(long, default_value_t = 2000)]
    pub move_ms: u64,
    /// The built-in player that makes the moves the engine fails to make.
    #[arg(long, default_value = "greedy")]
    pub fallback: String,
    /// Seconds between looks for new challenges and seats.
    #[arg(long, default_value_t = 2.0)]
    pub poll: f64,
    /// How long to keep trying to reach the server, seconds: at the start (with a growing wait
    /// between tries), and for a game whose connection was lost before giving it up.
    #[arg(long, default_value_t = 600)]
    pub give_up: u64,
    /// The engine command, after `--`.
    #[arg(last = true, required = true)]
    pub command: Vec<String>,
}

pub fn run(args: &Args) -> Result<(), String> {
    let token = match &args.token {
        Some(t) => t.clone(),
        None => std::env::var("FIVEUP_BOT_TOKEN")
            .map_err(|_| "give the bot token with --token or FIVEUP_BOT_TOKEN".to_string())?,
    };
    let token = token.trim().to_string();
    if !token.starts_with("fub_")
        || token.len() != 68
        || !token[4..].bytes().all(|b| b.is_ascii_hexdigit())
    {
        return Err("a bot token is fub_ and 64 hex digits, as the server showed it".into());
    }
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    if !(args.poll > 0.0 && args.poll <= 3600.0) {
        return Err("--poll is a number of seconds from more than 0 to 3600".into());
    }
    let mut accept = Vec::new();
    for r in &args.rules {
        let rules = Rules::parse(r).map_err(|e| format!("--rules {r:?}: {e}"))?;
        rules
            .validate()
            .map_err(|e| format!("--rules {r:?}: {e}"))?;
        accept.push(rules);
    }
    let command = shlex::try_join(args.command.iter().map(String::as_str))
        .map_err(|e| format!("the engine command: {e}"))?;
    let config = EngineConfig {
        move_time: Duration::from_millis(args.move_ms.max(1)),
        fallback: args.fallback.clone(),
        ..EngineConfig::default()
    };
    let host = EngineHost::start(&command, &config)?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    rt.block_on(bridge(args, &token, accept, host))
}

/// Log a line on standard error.
fn say(msg: &str) {
    eprintln!("fiveup connect: {msg}");
}

/// A connection to the server: TCP, wrapped in TLS for `https://`.
trait Io: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

/// Where the server is, and how to speak TLS to it when its URL is `https://`.
#[derive(Clone)]
struct Server {
    /// Its address and `host:port` (the `Host` header).
    target: Target,
    /// The TLS client and the name its certificate must carry.
    tls: Option<(tokio_rustls::TlsConnector, ServerName<'static>)>,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("target", &self.target)
            .field("tls", &self.tls.is_some())
            .finish()
    }
}

impl Server {
    /// Read `https://host[:port]` or `http://host:port`.
    async fn parse(url: &str, ca: Option<&std::path::Path>) -> Result<Server, String> {
        let Some(rest) = url.strip_prefix("https://") else {
            if ca.is_some() {
                return Err("--ca goes with an https:// server".into());
            }
            return Ok(Server {
                target: Target::parse(url).await?,
                tls: None,
            });
        };
        let host = rest.split('/').next().unwrap_or_default();
        if host.is_empty() {
            return Err(format!("no host in the server URL {url:?}"));
        }
        // The name the certificate must carry: the host without its port ([::1] without its
        // brackets).
        let (name, with_port) = if let Some(v6) = host.strip_prefix('[') {
            let (ip, port) = v6
                .split_once(']')
                .ok_or_else(|| format!("a bad address in {url:?}"))?;
            let port = port.strip_prefix(':').unwrap_or("443");
            (ip.to_string(), format!("[{ip}]:{port}"))
        } else if let Some((h, p)) = host.rsplit_once(':') {
            (h.to_string(), format!("{h}:{p}"))
        } else {
            (host.to_string(), format!("{host}:443"))
        };
        let target = Target::parse(&format!("http://{with_port}")).await?;
        let mut roots = RootCertStore {
            roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
        };
        if let Some(file) = ca {
            let pem = std::fs::read(file)
                .map_err(|e| format!("cannot read --ca {}: {e}", file.display()))?;
            let mut added = 0;
            for cert in CertificateDer::pem_slice_iter(&pem) {
                let cert = cert.map_err(|e| format!("--ca {}: {e}", file.display()))?;
                roots
                    .add(cert)
                    .map_err(|e| format!("--ca {}: {e}", file.display()))?;
                added += 1;
            }
            if added == 0 {
                return Err(format!("--ca {}: no certificate in it", file.display()));
            }
        }
        let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
        let config = ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| e.to_string())?
            .with_root_certificates(roots)
            .with_no_client_auth();
        let name = ServerName::try_from(name.clone())
            .map_err(|_| format!("{name:?} is not a host name or an address"))?;
        Ok(Server {
            target,
            tls: Some((tokio_rustls::TlsConnector::from(Arc::new(config)), name)),
        })
    }

    /// A new connection (TLS done, when it is `https://`).
    async fn stream(&self) -> Result<Box<dyn Io>, String> {
        let tcp = tcp_connect(self.target.addr, None)
            .await
            .map_err(|e| format!("cannot connect to {}: {e}", self.target.addr))?;
        match &self.tls {
            None => Ok(Box::new(tcp)),
            Some((tls, name)) => {
                Ok(Box::new(tls.connect(name.clone(), tcp).await.map_err(
                    |e| format!("TLS with {}: {e}", self.target.host),
                )?))
            }
        }
    }

    /// The bot websocket's URL.
    fn ws_url(&self) -> String {
        let scheme = if self.tls.is_some() { "wss" } else { "ws" };
        format!("{scheme}://{}/api/bot/ws", self.target.host)
    }
}

/// A bot API request with the token.
async fn request(
    server: &Server,
    token: &str,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> Result<Response, String> {
    let target = &server.target;
    let mut stream = server.stream().await?;
    let body = body.unwrap_or("");
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        target.host,
        body.len()
    );
    stream
        .write_all(req.as_bytes())
        .await
        .map_err(|e| format!("{method} {path}: {e}"))?;
    let mut raw = Vec::with_capacity(4096);
    match tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut raw))
        .await
        .map_err(|_| format!("{method} {path}: no answer in 30 s"))?
    {
        Ok(_) => {}
        // A TLS peer that closes without its close_notify after a whole answer: the answer
        // stands (its length is checked when it is read).
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof && !raw.is_empty() => {}
        Err(e) => return Err(format!("{method} {path}: {e}")),
    }
    parse_response(&raw).map_err(|e| format!("{method} {path}: {e}"))
}

#[derive(Debug, Deserialize)]
struct Offer {
    table: String,
    seat: u8,
    options: String,
    rated: bool,
    #[serde(default)]
    invite: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Seats {
    challenges: Vec<Offer>,
    open: Vec<Offer>,
}

/// Why the bridge stops.
fn refused(r: &Response) -> Option<String> {
    (r.status == 401).then(|| format!("the server refused the bot token: {}", r.body))
}

async fn bridge(
    args: &Args,
    token: &str,
    accept: Vec<Rules>,
    host: Arc<EngineHost>,
) -> Result<(), String> {
    let server = Server::parse(&args.server, args.ca.as_deref()).await?;
    let me = reach(&server, token, Duration::from_secs(args.give_up)).await?;
    let me: serde_json::Value = serde_json::from_str(&me.body).map_err(|e| e.to_string())?;
    say(&format!(
        "playing as {} (engine {}) on {}",
        me["user"]["name"].as_str().unwrap_or("?"),
        host.name(),
        args.server
    ));
    let mut running: HashMap<String, tokio::task::JoinHandle<Result<String, String>>> =
        HashMap::new();
    let mut over: u64 = 0;
    let mut seed: u64 = 1;
    let poll = Duration::from_secs_f64(args.poll);
    loop {
        let done: Vec<String> = running
            .iter()
            .filter(|(_, h)| h.is_finished())
            .map(|(k, _)| k.clone())
            .collect();
        for id in done {
            let h = running.remove(&id).expect("listed");
            match h.await {
                Ok(Ok(summary)) => say(&format!("table {id}: {summary}")),
                Ok(Err(e)) => say(&format!("table {id}: {e}")),
                Err(e) => say(&format!("table {id}: the game's task failed: {e}")),
            }
            over += 1;
        }
        let budget = args
            .max_games
            .map_or(u64::MAX, |m| m.saturating_sub(over + running.len() as u64));
        if budget == 0 && running.is_empty() {
            say(&format!(
                "{over} games over; stopping (engine: {})",
                host.conduct().summary()
            ));
            return Ok(());
        }
        if running.len() < args.games && budget > 0 {
            match request(&server, token, "GET", "/api/bot/seats", None).await {
                Ok(r) if r.status == 200 => {
                    let seats: Seats = serde_json::from_str(&r.body)
                        .map_err(|e| format!("GET /api/bot/seats: {e}"))?;
                    let open = if args.open { seats.open } else { Vec::new() };
                    let mut room =
                        (args.games - running.len()).min(budget.min(usize::MAX as u64) as usize);
                    for o in seats.challenges.into_iter().chain(open) {
                        if room == 0 {
                            break;
                        }
                        if running.contains_key(&o.table) || !wanted(&o, &accept, args.rated) {
                            continue;
                        }
                        let body =
                            serde_json::json!({"seat": o.seat, "invite": o.invite}).to_string();
                        let path = format!("/api/bot/tables/{}/join", o.table);
                        match request(&server, token, "POST", &path, Some(&body)).await {
                            Ok(j) if j.status == 200 => {
                                say(&format!(
                                    "joined table {} seat {} ({}{})",
                                    o.table,
                                    o.seat,
                                    o.options,
                                    if o.rated { ", rated" } else { "" }
                                ));
                                room -= 1;
                                seed += 1;
                                let game = Game {
                                    server: server.clone(),
                                    token: token.to_string(),
                                    table: o.table.clone(),
                                    give_up: Duration::from_secs(args.give_up),
                                };
                                let player = EnginePlayer::new(host.clone(), seed)
                                    .map_err(|e| e.to_string())?;
                                running.insert(o.table.clone(), tokio::spawn(game.play(player)));
                            }
                            Ok(j) => {
                                if let Some(e) = refused(&j) {
                                    return Err(e);
                                }
                                say(&format!("table {}: not joined: {}", o.table, j.body));
                            }
                            Err(e) => say(&e),
                        }
                    }
                }
                Ok(r) => {
                    if let Some(e) = refused(&r) {
                        return Err(e);
                    }
                    say(&format!("GET /api/bot/seats: {} {}", r.status, r.body));
                }
                Err(e) => say(&format!("{e}; trying again")),
            }
        }
        tokio::time::sleep(poll).await;
    }
}

/// The bot's account, asked of a server that may not be up yet: a server that cannot be reached
/// (or answers 502 to 504 from behind a proxy) is asked again with a growing wait (0.25 s,
/// doubling, at most 15 s) for up to `give_up`; a refused token, a certificate that cannot be
/// checked or any other answer stops at once.
async fn reach(server: &Server, token: &str, give_up: Duration) -> Result<Response, String> {
    let t0 = tokio::time::Instant::now();
    let mut wait = Duration::from_millis(250);
    loop {
        let why = match request(server, token, "GET", "/api/bot/account", None).await {
            Ok(r) if r.status == 200 => return Ok(r),
            Ok(r) if (502..=504).contains(&r.status) => format!("the server answers {}", r.status),
            Ok(r) => {
                return Err(refused(&r)
                    .unwrap_or_else(|| format!("GET /api/bot/account: {} {}", r.status, r.body)))
            }
            // A certificate that cannot be checked will not be checked later either.
            Err(e) if e.starts_with("TLS with") => return Err(e),
            Err(e) => e,
        };
        if t0.elapsed() + wait > give_up {
            return Err(format!(
                "cannot reach the server (gave up after {} s): {why}",
                give_up.as_secs()
            ));
        }
        say(&format!(
            "{why}; trying again in {:.1} s",
            wait.as_secs_f64()
        ));
        tokio::time::sleep(wait).await;
        wait = (wait * 2).min(Duration::from_secs(15));
    }
}

/// Whether the options allow an offer.
fn wanted(o: &Offer, accept: &[Rules], rated: RatedChoice) -> bool {
    let rules_ok = accept.is_empty() || Rules::parse(&o.options).is_ok_and(|r| accept.contains(&r));
    let rated_ok = match rated {
        RatedChoice::Any => true,
        RatedChoice::Rated => o.rated,
        RatedChoice::Casual => !o.rated,
    };
    rules_ok && rated_ok
}

/// One game played through the bot websocket.
struct Game {
    server: Server,
    token: String,
    table: String,
    give_up: Duration,
}

/// A command sent and not yet acknowledged.
#[derive(Clone, Debug)]
struct Pending {
    id: String,
    msg: ClientMsg,
}

impl Game {
    async fn play(self, player: EnginePlayer) -> Result<String, String> {
        let mut player = Some(player);
        let mut since: Option<u64> = None;
        let mut pending: Option<Pending> = None;
        let mut decided: Option<u64> = None;
        let mut seeded: Option<u16> = None;
        let mut next_id: u64 = 0;
        let prefix = format!(
            "{:016x}",
            fiveup_server::table::fairness::random_bytes()[..8]
                .iter()
                .fold(0u64, |a, b| (a << 8) | u64::from(*b))
        );
        let mut lost_since: Option<tokio::time::Instant> = None;
        let mut reconnects = 0u32;
        let mut follow = Follow::default();
        loop {
            let url = self.server.ws_url();
            let mut req = url.into_client_request().map_err(|e| e.to_string())?;
            req.headers_mut().insert(
                "authorization",
                format!("Bearer {}", self.token)
                    .parse()
                    .map_err(|_| "the token is not a header value".to_string())?,
            );
            let server = &self.server;
            let opened = async move {
                let stream = server.stream().await.map_err(|e| {
                    tokio_tungstenite::tungstenite::Error::Io(std::io::Error::other(e))
                })?;
                tokio_tungstenite::client_async(req, stream).await
            };
            let ws = match tokio::time::timeout(Duration::from_secs(10), opened).await {
                Ok(Ok((ws, _))) => ws,
                Ok(Err(e)) => {
                    if let tokio_tungstenite::tungstenite::Error::Http(r) = &e {
                        if r.status() == 401 {
                            return Err("the server refused the bot token".into());
                        }
                    }
                    let t0 = *lost_since.get_or_insert_with(tokio::time::Instant::now);
                    if t0.elapsed() > self.give_up {
                        return Err(format!("cannot reach the server: {e}"));
                    }
                    tokio::time::sleep(Duration::from_millis(300)).await;
                    continue;
                }
                Err(_) => continue,
            };
            if lost_since.take().is_some() || since.is_some() {
                reconnects += 1;
            }
            let (mut tx, mut rx) = ws.split();
            let open = ClientMsg::Open {
                table: self.table.clone(),
                since,
            };
            let text = |m: &ClientMsg| {
                Message::Text(serde_json::to_string(m).expect("messages serialise").into())
            };
            if tx.send(text(&open)).await.is_err() {
                continue;
            }
            // The command not acknowledged before the loss, again with its id.
            if let Some(p) = &pending {
                if tx.send(text(&p.msg)).await.is_err() {
                    continue;
                }
            }
            let mut view: Option<TableView> = None;
            let mut fresh = false;
            loop {
                let m = match tokio::time::timeout(Duration::from_secs(90), rx.next()).await {
                    Ok(Some(Ok(Message::Text(t)))) => t,
                    Ok(Some(Ok(Message::Close(_)) | Err(_)) | None) | Err(_) => break,
                    Ok(Some(Ok(_))) => continue,
                };
                let Ok(msg) = serde_json::from_str::<ServerMsg>(&m) else {
                    continue;
                };
                match msg {
                    ServerMsg::Snapshot {
                        view: v,
                        missed,
                        complete,
                        ..
                    } => {
                        // The events missed while the connection was down, for the end of a
                        // hand that the snapshot no longer shows.
                        if complete {
                            for m in &missed {
                                if let Err(e) = follow.missed(&m.event, &mut player) {
                                    say(&format!("table {}: {e}", self.table));
                                }
                            }
                        }
                        since = Some(since.unwrap_or(0).max(v.table.version));
                        view = Some(*v);
                        fresh = true;
                    }
                    ServerMsg::Event { view: v, .. } => {
                        since = Some(since.unwrap_or(0).max(v.table.version));
                        view = Some(*v);
                        fresh = true;
                    }
                    ServerMsg::Ack { id, .. } if pending.as_ref().is_some_and(|p| p.id == id) => {
                        pending = None;
                    }
                    ServerMsg::Error {
                        id, code, message, ..
                    } => {
                        if code == ErrorCode::NotLoggedIn {
                            return Err(format!(
                                "the server closed the bot's connection: {message}"
                            ));
                        }
                        if code == ErrorCode::NoSuchTable {
                            return Err(message);
                        }
                        if id.is_some() && pending.as_ref().map(|p| &p.id) == id.as_ref() {
                            // Refused (stale, not our turn any more): decide again from the
                            // next view.
                            pending = None;
                            decided = None;
                        }
                        say(&format!("table {}: {message}", self.table));
                    }
                    _ => {}
                }
                let Some(v) = view.as_ref() else { continue };
                if std::mem::take(&mut fresh) {
                    if let Err(e) = follow.view(v, &mut player) {
                        say(&format!("table {}: {e}", self.table));
                    }
                }
                if v.table.status == TableStatus::Finished {
                    let you = v.you.unwrap_or(0);
                    let side = v.table.rules.side_of(Seat(you)).idx();
                    let won = v.winner.map(|w| w as usize == side);
                    return Ok(format!(
                        "game over, scores {:?}{}{}",
                        v.scores,
                        match won {
                            Some(true) => ", won",
                            Some(false) => ", lost",
                            None => "",
                        },
                        if reconnects > 0 {
                            format!(", {reconnects} reconnections")
                        } else {
                            String::new()
                        }
                    ));
                }
                if pending.is_some() {
                    continue;
                }
                // The seed for the deal (neither it nor a decision is due to an unseated view).
                if let Some(hand) = seed_due(v, seeded) {
                    next_id += 1;
                    let id = format!("{prefix}-{next_id}");
                    let msg = ClientMsg::Seed {
                        id: id.clone(),
                        hand,
                        seed: fiveup_server::table::fairness::to_hex(
                            &fiveup_server::table::fairness::random_bytes(),
                        ),
                    };
                    seeded = Some(hand);
                    pending = Some(Pending {
                        id,
                        msg: msg.clone(),
                    });
                    if tx.send(text(&msg)).await.is_err() {
                        break;
                    }
                    continue;
                }
                if !decision_due(v, decided) {
                    continue;
                }
                decided = Some(v.table.version);
                let action = match engine_view(v, follow.start_of(v.hand_no)) {
                    Ok(ev) => {
                        let mut p = player.take().expect("the player is back after each move");
                        let (p, a) = tokio::task::spawn_blocking(move || {
                            let a = p.choose(&ev);
                            (p, a)
                        })
                        .await
                        .map_err(|e| format!("the engine's thread failed: {e}"))?;
                        player = Some(p);
                        a
                    }
                    Err(e) => {
                        say(&format!(
                            "table {}: {e}; playing the first legal action",
                            self.table
                        ));
                        v.legal[0].action
                    }
                };
                next_id += 1;
                let id = format!("{prefix}-{next_id}");
                let msg = ClientMsg::Act {
                    id: id.clone(),
                    version: v.table.version,
                    action,
                };
                pending = Some(Pending {
                    id,
                    msg: msg.clone(),
                });
                if tx.send(text(&msg)).await.is_err() {
                    break;
                }
            }
            say(&format!(
                "table {}: connection lost; reconnecting",
                self.table
            ));
            lost_since.get_or_insert_with(tokio::time::Instant::now);
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

/// The deal commitments and proofs of the hands a view shows, told to the engine's player.
fn tell_proofs(v: &TableView, player: &mut EnginePlayer) {
    for p in v.proof.iter().chain(&v.proofs) {
        player.commit(p.hand, p.commitment.clone());
        if let (Some(server_seed), Some(client_seeds), Some(deal_seed)) =
            (&p.server_seed, &p.client_seeds, &p.deal_seed)
        {
            player.reveal(
                p.hand,
                DealProof {
                    scheme: p.scheme.clone(),
                    commitment: p.commitment.clone(),
                    server_seed: server_seed.clone(),
                    client_seeds: client_seeds.clone(),
                    deal_seed: deal_seed.clone(),
                },
            );
        }
    }
}

/// What the bridge follows of a game so that its engine is told everything a local match
/// tells it: the deal commitments and proofs, and every hand's end, with the events after the
/// engine's last decision and every hand revealed (from which the engine's earlier hands are
/// kept). A hand's end is the hand replayed exactly: its deal from the deal seed the server
/// reveals when the hand is over, and its actions in order.
#[derive(Debug, Default)]
struct Follow {
    /// The hand followed.
    hand: Option<u16>,
    /// How it started, once known.
    start: Option<HandStart>,
    /// Its actions so far, in order.
    actions: Vec<Action>,
    /// The last hand whose end the engine was told (0: none yet).
    told: u16,
    /// How the hand after the last one told starts.
    next: Option<HandStart>,
    /// The rules and the bot's seat, from the last view.
    rules: Option<Rules>,
    seat: Option<Seat>,
}

impl Follow {
    /// The start of hand `hand`, when known.
    fn start_of(&self, hand: u16) -> Option<HandStart> {
        self.start
            .filter(|s| s.hand_no == hand && self.hand == Some(hand))
    }

    /// Follow hand `hand` from now on (nothing changes when it is already followed).
    fn begin(&mut self, hand: u16) {
        if self.hand == Some(hand) {
            return;
        }
        self.hand = Some(hand);
        self.actions.clear();
        self.start = if hand == 1 {
            Some(HandStart::first())
        } else {
            self.next.filter(|s| s.hand_no == hand)
        };
    }

    /// A view of the table: the hand it shows, in play or over; at its end, the engine is told.
    fn view(&mut self, v: &TableView, player: &mut Option<EnginePlayer>) -> Result<(), String> {
        let Some(p) = player.as_mut() else {
            return Ok(());
        };
        tell_proofs(v, p);
        self.rules = Some(v.table.rules);
        self.seat = v.you.map(Seat);
        let Some(phase) = v.phase else {
            return Ok(());
        };
        let over = matches!(phase, Phase::HandOver | Phase::GameOver);
        // While the next hand is being dealt, the table still shows the last one, over.
        let hand = match (&v.last_hand, over) {
            (Some(o), true) => o.hand,
            (None, true) => return Ok(()),
            (_, false) => v.hand_no,
        };
        self.begin(hand);
        self.actions = v.history.iter().filter_map(Entry::action).collect();
        if self.start.is_none() {
            self.start = Some(start_of(v)?);
        }
        if !over {
            return Ok(());
        }
        let Some(proof) = v.proofs.iter().find(|p| p.hand == hand) else {
            return Ok(());
        };
        let Some(you) = v.you else { return Ok(()) };
        self.finish(v.table.rules, Seat(you), hand, proof, Some(&v.history), p)
    }

    /// An event missed while disconnected (from a resumed table's snapshot, in order).
    fn missed(&mut self, ev: &EventView, player: &mut Option<EnginePlayer>) -> Result<(), String> {
        match ev {
            EventView::Dealt { hand, .. } => self.begin(*hand),
            EventView::Action { action, .. } if self.hand.is_some() => self.actions.push(*action),
            EventView::HandOver { outcome, proof } => {
                if let (Some(p), Some(rules), Some(seat)) = (player.as_mut(), self.rules, self.seat)
                {
                    return self.finish(rules, seat, outcome.hand, proof, None, p);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Tell the engine the end of hand `hand`, replayed from its deal seed (checked against
    /// `history`, the seat's history of it, when given).
    fn finish(
        &mut self,
        rules: Rules,
        seat: Seat,
        hand: u16,
        proof: &HandProof,
        history: Option<&[Entry]>,
        player: &mut EnginePlayer,
    ) -> Result<(), String> {
        if self.hand != Some(hand) || hand <= self.told {
            return Ok(());
        }
        self.told = hand;
        let start = self
            .start
            .ok_or_else(|| format!("hand {hand}'s start is unknown; its end is not sent"))?;
        let seed = proof
            .deal_seed
            .as_deref()
            .ok_or_else(|| format!("hand {hand}'s deal seed is not revealed"))
            .and_then(Seed::parse)?;
        let deal = fairness::deal(&seed, hand, &rules, start.highest_double);
        let mut state = State::with_start(rules, deal, start)
            .map_err(|e| format!("hand {hand} cannot be dealt again: {e}"))?;
        for &a in &self.actions {
            state
                .apply(a)
                .map_err(|e| format!("hand {hand} does not replay ({a}: {e})"))?;
        }
        let view = state.view(seat);
        if !matches!(state.phase(), Phase::HandOver | Phase::GameOver)
            || history.is_some_and(|h| h != view.history())
        {
            return Err(format!("hand {hand} does not replay to its end"));
        }
        self.next = state.next_hand_start();
        player.hand_over(&view);
        Ok(())
    }
}
