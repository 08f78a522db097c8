//! Test helpers: a tiny HTTP client, websocket clients, and a player loop, all speaking to a
//! real server over loopback.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::process::Child;
use std::time::{Duration, Instant};

use fiveup_protocol::{ClientMsg, EventView, ServerMsg, TableStatus, TableView};
use futures_util::{SinkExt, StreamExt};
use serde::de::DeserializeOwned;
use serde::Serialize;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// How long any single wait may take before the test fails.
pub const WAIT: Duration = Duration::from_secs(60);

/// The databases to run against: SQLite in `dir` always, PostgreSQL when
/// `FIVEUP_TEST_POSTGRES_URL` is set (a fresh schema per call).
pub async fn databases(dir: &std::path::Path, name: &str) -> Vec<(String, String)> {
    let mut out = vec![(
        "sqlite".to_string(),
        dir.join(format!("{name}.db")).display().to_string(),
    )];
    match std::env::var("FIVEUP_TEST_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => out.push(("postgres".to_string(), pg_schema(&url).await)),
        _ => {
            // Written past the test harness's capture, so that it shows in every run.
            use std::io::Write as _;
            let _ = writeln!(
                std::io::stderr(),
                "note: {name}: SQLite only, PostgreSQL skipped (set FIVEUP_TEST_POSTGRES_URL to \
                 a PostgreSQL URL to run it against PostgreSQL too)"
            );
        }
    }
    out
}

/// A fresh schema in the PostgreSQL database, and a URL that uses it.
pub async fn pg_schema(url: &str) -> String {
    use sqlx::Connection;
    let schema = format!("t_{}", fiveup_server::new_id());
    let mut c = sqlx::PgConnection::connect(url)
        .await
        .expect("PostgreSQL is reachable");
    sqlx::query(&format!("CREATE SCHEMA {schema}"))
        .execute(&mut c)
        .await
        .expect("create a schema");
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}options=-c%20search_path%3D{schema}")
}

/// A test configuration: a free port, no pauses.
pub fn config(db: &str) -> fiveup_server::Config {
    let mut c = fiveup_server::Config::new();
    c.bind = "127.0.0.1:0".parse().unwrap();
    c.database = db.to_string();
    c.bot_delay = Duration::ZERO;
    c.takeover = None;
    c.seed_wait = Duration::from_secs(30);
    c.hint_config.samples = 8;
    c.review_config.samples = 4;
    c.expert_spec = "expert:samples=8,threads=1".to_string();
    c.http_rate = (0.0, 0.0);
    c.user_rate = (0.0, 0.0);
    // The tests play many games as a few people (the quota test sets its own limits).
    c.max_open_tables = 10_000;
    c.max_bot_tables = 10_000;
    // Tournaments too (the computer players' share test sets the defaults).
    c.max_open_events = 10_000;
    c.max_events_per_day = 10_000;
    c.max_bot_entrants = 10_000;
    c.max_bot_entrants_per_account = 100_000;
    // The tests read events as often as they like (the tournament scale attack sets a limit).
    c.tournament_read_rate = (0.0, 0.0);
    // All from 127.0.0.1: no per-address limits on guests and tables (the quota test sets its
    // own).
    c.guest_rate = (0.0, 0.0);
    c.max_open_tables_per_addr = 10_000;
    c.max_bot_tables_per_addr = 10_000;
    // The test clients answer as fast as the server does, well over a person's 20 messages a
    // second (the rate-limit test sets its own limit).
    c.ws_rate = (0.0, 0.0);
    // The fair-play analysis of rated games runs only where a test asks for it (tests/moderation.rs):
    // elsewhere it would only add work to a busy machine.
    c.fairplay_share = 0;
    c
}

/// An HTTP answer.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    pub fn json<T: DeserializeOwned>(&self) -> T {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("bad body ({e}): {} {}", self.status, self.body))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// One HTTP/1.1 request.
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: Option<&str>,
    extra: &[(&str, &str)],
) -> Answer {
    let mut s = TcpStream::connect(addr).await.expect("connect");
    let body = body.unwrap_or("");
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
        body.len()
    );
    if let Some(c) = cookie {
        req.push_str(&format!("Cookie: fiveup_session={c}\r\n"));
    }
    for (k, v) in extra {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    s.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(WAIT, s.read_to_end(&mut raw))
        .await
        .expect("HTTP answer in time")
        .unwrap();
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, rest) = text.split_once("\r\n\r\n").expect("HTTP head");
    let mut lines = head.lines();
    let status: u16 = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"));
    let body = if chunked {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    Answer {
        status,
        headers,
        body,
    }
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((len, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(len.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        s = &rest[n + 2..];
    }
    out
}

pub async fn post<T: Serialize>(
    addr: SocketAddr,
    path: &str,
    cookie: Option<&str>,
    body: &T,
) -> Answer {
    let b = serde_json::to_string(body).unwrap();
    http(addr, "POST", path, cookie, Some(&b), &[]).await
}

pub async fn get(addr: SocketAddr, path: &str, cookie: Option<&str>) -> Answer {
    http(addr, "GET", path, cookie, None, &[]).await
}

/// The session token of an answer's cookie.
pub fn session_of(a: &Answer) -> String {
    let c = a.header("set-cookie").expect("a session cookie");
    let v = c.split(';').next().unwrap();
    v.split_once('=').unwrap().1.to_string()
}

/// A guest's session token.
pub async fn guest(addr: SocketAddr, name: &str) -> (String, i64) {
    let a = post(
        addr,
        "/api/guest",
        None,
        &serde_json::json!({ "nickname": name }),
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.body);
    let me: fiveup_protocol::Me = a.json();
    (session_of(&a), me.user.id)
}

/// A registered player's session token: a guest named `name` who registers under that name.
pub async fn registered(addr: SocketAddr, name: &str) -> String {
    let (cookie, _) = guest(addr, name).await;
    let a = post(
        addr,
        "/api/register",
        Some(&cookie),
        &serde_json::json!({"username": name, "password": "correct horse battery"}),
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.body);
    session_of(&a)
}

pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A websocket client.
pub struct Client {
    pub ws: Ws,
    /// The last view seen.
    pub view: Option<TableView>,
    /// Every event seen, with its version.
    pub events: Vec<(u64, EventView)>,
    /// Every raw message seen.
    pub raw: Vec<String>,
    pub next_id: u64,
    /// A prefix making this client's command ids unique.
    pub prefix: String,
    /// The hands this client sent a seed for.
    pub seeded: Vec<u16>,
    /// The last message `play_until` sent, with the version it was sent at: kept on the
    /// client so that a second call does not send again what the first sent and the table
    /// has not yet answered.
    pub last_sent: Option<(u64, String)>,
}

pub async fn connect(addr: SocketAddr, cookie: Option<&str>) -> Client {
    let mut req = format!("ws://{addr}/ws").into_client_request().unwrap();
    if let Some(c) = cookie {
        req.headers_mut()
            .insert("cookie", format!("fiveup_session={c}").parse().unwrap());
    }
    let (ws, _) = tokio_tungstenite::connect_async(req)
        .await
        .expect("ws connect");
    let mut c = Client {
        ws,
        view: None,
        events: Vec::new(),
        raw: Vec::new(),
        next_id: 0,
        prefix: fiveup_server::new_id(),
        seeded: Vec::new(),
        last_sent: None,
    };
    match c.recv().await {
        ServerMsg::Welcome { protocol, .. } => assert_eq!(protocol, 1),
        m => panic!("expected welcome, got {m:?}"),
    }
    c
}

impl Client {
    pub async fn send(&mut self, m: &ClientMsg) {
        if let ClientMsg::Seed { hand, .. } = m {
            self.seeded.push(*hand);
        }
        self.send_text(&serde_json::to_string(m).unwrap()).await;
    }

    pub async fn send_text(&mut self, t: &str) {
        self.ws
            .send(Message::text(t.to_string()))
            .await
            .expect("send");
    }

    /// The next message (fails the test after [`WAIT`]).
    pub async fn recv(&mut self) -> ServerMsg {
        loop {
            let m = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("a message in time")
                .expect("the connection is open")
                .expect("a websocket message");
            let Message::Text(t) = m else { continue };
            let t = t.to_string();
            let msg: ServerMsg =
                serde_json::from_str(&t).unwrap_or_else(|e| panic!("bad message {e}: {t}"));
            self.raw.push(t);
            match &msg {
                ServerMsg::Snapshot { view, missed, .. } => {
                    self.view = Some((**view).clone());
                    for e in missed {
                        self.events.push((e.version, e.event.clone()));
                    }
                }
                ServerMsg::Event {
                    version,
                    event,
                    view,
                } => {
                    self.view = Some((**view).clone());
                    self.events.push((*version, event.clone()));
                }
                _ => {}
            }
            return msg;
        }
    }

    /// Messages until one matches.
    pub async fn until(&mut self, mut f: impl FnMut(&ServerMsg) -> bool) -> ServerMsg {
        loop {
            let m = self.recv().await;
            if f(&m) {
                return m;
            }
        }
    }

    pub async fn open(&mut self, table: &str, since: Option<u64>) -> TableView {
        self.send(&ClientMsg::Open {
            table: table.to_string(),
            since,
        })
        .await;
        match self
            .until(|m| matches!(m, ServerMsg::Snapshot { .. } | ServerMsg::Error { .. }))
            .await
        {
            ServerMsg::Snapshot { view, .. } => *view,
            m => panic!("open failed: {m:?}"),
        }
    }

    pub fn id(&mut self) -> String {
        self.next_id += 1;
        format!("{}-{}", self.prefix, self.next_id)
    }

    /// What this client should do now, if anything: send its seed, or act.
    pub fn due(&self) -> Option<ClientMsg> {
        let v = self.view.as_ref()?;
        let seat = v.you?;
        if v.table.status == TableStatus::Dealing && !v.seed_sent {
            if let Some(p) = &v.proof {
                if p.server_seed.is_none()
                    && !p.contributed.contains(&seat)
                    && !self.seeded.contains(&p.hand)
                {
                    return Some(ClientMsg::Seed {
                        id: String::new(),
                        hand: p.hand,
                        seed: format!("{:02x}", seat).repeat(32),
                    });
                }
            }
        }
        if let Some(l) = v.legal.first() {
            return Some(ClientMsg::Act {
                id: String::new(),
                version: v.table.version,
                action: l.action,
            });
        }
        None
    }

    /// Whether the game is over in the last view.
    pub fn over(&self) -> bool {
        self.view
            .as_ref()
            .is_some_and(|v| v.table.status == TableStatus::Finished)
    }
}

/// Play until the game is over: each client sends its seeds and plays its first legal action
/// whenever it is due. Returns the number of actions the clients sent and had acknowledged.
pub async fn play_out(clients: &mut [Client], max_acts: usize) -> usize {
    let n = play_until(clients, max_acts, |cs| cs.iter().all(Client::over)).await;
    // A view can say "finished" before the hand-over and game-over events of the same change
    // have been read: read up to the game-over event.
    for c in clients.iter_mut() {
        while !c
            .events
            .iter()
            .any(|(_, e)| matches!(e, EventView::GameOver { .. }))
        {
            c.recv().await;
        }
    }
    n
}

/// Play as [`play_out`] does until `stop` says so.
pub async fn play_until(
    clients: &mut [Client],
    max_acts: usize,
    stop: impl Fn(&[Client]) -> bool,
) -> usize {
    let mut acked = 0;
    for _round in 0..100_000 {
        if stop(clients) {
            return acked;
        }
        // Act for anyone due, once per version.
        for c in clients.iter_mut() {
            if let Some(mut m) = c.due() {
                let v = c.view.as_ref().unwrap().table.version;
                let key = (v, format!("{m:?}"));
                if c.last_sent.as_ref() == Some(&key) {
                    continue;
                }
                c.last_sent = Some(key);
                let id = c.id();
                match &mut m {
                    ClientMsg::Seed { id: i, .. } | ClientMsg::Act { id: i, .. } => *i = id,
                    _ => {}
                }
                if matches!(m, ClientMsg::Act { .. }) {
                    acked += 1;
                    assert!(acked <= max_acts, "too many actions");
                }
                c.send(&m).await;
            }
        }
        // Wait for something to happen at some client.
        let mut progressed = false;
        for c in clients.iter_mut() {
            if let Ok(Some(Ok(Message::Text(t)))) =
                tokio::time::timeout(Duration::from_millis(20), c.ws.next()).await
            {
                let t = t.to_string();
                let msg: ServerMsg = serde_json::from_str(&t).unwrap();
                if let ServerMsg::Error { code, message, .. } = &msg {
                    // A seed sent from a view that still showed the seed window open, after
                    // the server's short seed wait ended and it dealt without it, is refused
                    // as late: that is the server's right answer, and the deal's event follows.
                    // Any other error fails the test.
                    let late_seed = *code == fiveup_protocol::ErrorCode::BadSeed
                        && !c.seeded.is_empty()
                        && message == "no hand is waiting for seeds now";
                    assert!(late_seed, "unexpected error {code:?}: {message}");
                    c.raw.push(t);
                    progressed = true;
                    continue;
                }
                c.raw.push(t);
                match msg {
                    ServerMsg::Snapshot { view, .. } => c.view = Some(*view),
                    ServerMsg::Event {
                        version,
                        event,
                        view,
                    } => {
                        c.view = Some(*view);
                        c.events.push((version, event));
                    }
                    _ => {}
                }
                progressed = true;
            }
        }
        let _ = progressed;
    }
    panic!("the game did not end");
}

/// A child process (a server, a proxy), killed if the test ends while it runs.
pub struct Proc(pub Child);

impl Drop for Proc {
    fn drop(&mut self) {
        if let Ok(None) = self.0.try_wait() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

/// The `haproxy` program, if installed (Debian puts it in `/usr/sbin`).
pub fn haproxy_bin() -> Option<std::path::PathBuf> {
    let mut dirs: Vec<std::path::PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    dirs.extend(["/usr/sbin", "/usr/local/sbin", "/sbin"].map(std::path::PathBuf::from));
    dirs.into_iter()
        .map(|d| d.join("haproxy"))
        .find(|p| p.is_file())
}

/// A free loopback port.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// HAProxy ending TLS in front of `backend` with the repository's `deploy/haproxy-tls.cfg` and
/// a certificate made by `deploy/make-cert.sh` (for `localhost` and 127.0.0.1), on free
/// loopback ports.
pub struct TlsProxy {
    /// The proxy, stopped when this is dropped.
    pub proc: Proc,
    /// Its plain HTTP port (which redirects) and its HTTPS port.
    pub http: u16,
    pub https: u16,
    /// The certificate and key (PEM), which a client trusts to reach it.
    pub pem: std::path::PathBuf,
}

/// Start a [`TlsProxy`] in `dir`, or `None` (with a note) without `haproxy` or `openssl`.
pub fn tls_proxy(dir: &std::path::Path, backend: SocketAddr) -> Option<TlsProxy> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../deploy");
    let Some(haproxy) = haproxy_bin() else {
        eprintln!("note: TLS proxy: skipped, it needs haproxy (.ci/run installs it)");
        return None;
    };
    if std::process::Command::new("openssl")
        .arg("version")
        .output()
        .is_err()
    {
        eprintln!("note: TLS proxy: skipped, it needs openssl");
        return None;
    }
    // The repository's certificate script, run from a copy so that it writes here.
    std::fs::copy(format!("{root}/make-cert.sh"), dir.join("make-cert.sh")).unwrap();
    let st = std::process::Command::new("sh")
        .arg(dir.join("make-cert.sh"))
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(st.success(), "deploy/make-cert.sh");
    let certs = dir.join("certs");
    let pem = certs.join("localhost.pem");
    assert!(pem.is_file());
    let (http, https) = (free_port(), free_port());
    let mut cfg = std::fs::read_to_string(format!("{root}/haproxy-tls.cfg")).unwrap();
    cfg = cfg
        .replace("bind 0.0.0.0:80\n", &format!("bind 127.0.0.1:{http}\n"))
        .replace(
            "bind 0.0.0.0:443 ssl crt /etc/haproxy/certs/",
            &format!("bind 127.0.0.1:{https} ssl crt {}/", certs.display()),
        );
    for ip in ["172.30.0.11", "172.30.0.12", "172.30.0.13"] {
        cfg = cfg.replace(&format!("{ip}:8080"), &backend.to_string());
    }
    let file = dir.join("haproxy.cfg");
    std::fs::write(&file, &cfg).unwrap();
    let check = std::process::Command::new(&haproxy)
        .args(["-c", "-f"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}{}",
        String::from_utf8_lossy(&check.stdout),
        String::from_utf8_lossy(&check.stderr)
    );
    let proc = Proc(
        std::process::Command::new(&haproxy)
            .args(["-db", "-f"])
            .arg(&file)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap(),
    );
    // Listening once a connection is taken.
    let end = std::time::Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", https)).is_err() {
        assert!(std::time::Instant::now() < end, "haproxy does not listen");
        std::thread::sleep(Duration::from_millis(50));
    }
    Some(TlsProxy {
        proc,
        http,
        https,
        pem,
    })
}

/// A new bot of the registered person `cookie`: its token (shown once) and its id.
pub async fn make_bot(addr: SocketAddr, cookie: &str, name: &str) -> (String, i64) {
    let a = post(
        addr,
        "/api/bots",
        Some(cookie),
        &serde_json::json!({ "name": name }),
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.body);
    let made: serde_json::Value = a.json();
    (
        made["token"].as_str().unwrap().to_string(),
        made["bot"]["id"].as_i64().unwrap(),
    )
}

/// A table of `five-up target=50` made by `cookie` with its other seat offered to the bot
/// `bot_id` as a challenge: the table's id.
pub async fn challenge_bot(addr: SocketAddr, cookie: &str, bot_id: i64) -> String {
    let t = post(
        addr,
        "/api/tables",
        Some(cookie),
        &serde_json::json!({"rules": "five-up target=50", "seats": [{"kind": "me"}, {"kind": "invite"}]}),
    )
    .await;
    assert_eq!(t.status, 201, "{}", t.body);
    let table = t.json::<serde_json::Value>()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let c = post(
        addr,
        &format!("/api/bots/{bot_id}/challenge"),
        Some(cookie),
        &serde_json::json!({ "table": table }),
    )
    .await;
    assert_eq!(c.status, 200, "{}", c.body);
    table
}

/// The next "your table is ready" call a client received (reading up to `wait` for one).
pub async fn next_call(c: &mut Client, cursor: &mut usize, wait: Duration) -> Option<String> {
    let deadline = Instant::now() + wait;
    loop {
        while *cursor < c.raw.len() {
            let m: ServerMsg = serde_json::from_str(&c.raw[*cursor]).unwrap();
            *cursor += 1;
            if let ServerMsg::TournamentTable { table, .. } = m {
                return Some(table);
            }
        }
        let left = deadline.checked_duration_since(Instant::now())?;
        if tokio::time::timeout(left, c.recv()).await.is_err() {
            return None;
        }
    }
}
