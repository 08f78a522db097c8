//! The server's settings: everything `fiveup serve` and the tests can change.

use std::net::SocketAddr;
use std::time::Duration;

use fiveup_bots::ExpertConfig;

/// Whether cookies get the `Secure` attribute.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SecureCookies {
    /// When the request came over TLS, as a proxy's `X-Forwarded-Proto`/`Forwarded` says.
    Auto,
    /// Always.
    Always,
}

/// The server's settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen.
    pub bind: SocketAddr,
    /// A `postgres://` URL, an `sqlite:` URL, or an SQLite file path.
    pub database: String,
    /// The pause before a computer player acts.
    pub bot_delay: Duration,
    /// How long a disconnected player's turn waits before a computer player takes over
    /// (`None`: never).
    pub takeover: Option<Duration>,
    /// How long a deal waits for the players' seeds.
    pub seed_wait: Duration,
    /// The search behind hints: by default the strongest level's (`master`), so a hint values
    /// every play as that level would.
    pub hint_config: ExpertConfig,
    /// The most time a hint's search may take: past it the search stops after the world in
    /// progress and the hint rests on the worlds searched so far.
    pub hint_budget: Duration,
    /// The least time between two hints on one connection.
    pub hint_interval: Duration,
    /// The expert's settings for reviews.
    pub review_config: ExpertConfig,
    /// The expert's settings when a `master` sits at a table.
    pub expert_spec: String,
    /// Origins allowed to open websockets besides the server's own.
    pub allow_origins: Vec<String>,
    /// The `Secure` cookie attribute.
    pub secure_cookies: SecureCookies,
    /// Websocket messages per second per connection (average), and the burst.
    pub ws_rate: (f64, f64),
    /// HTTP POST requests per second per client address, and the burst (`0`: no limit).
    pub http_rate: (f64, f64),
    /// How long a connection may take to send a request head, and may stay idle between
    /// requests.
    pub header_timeout: Duration,
    /// Open connections (websockets included) per client address; `0`: no cap.
    pub max_conns_per_addr: usize,
    /// Proxies whose `X-Forwarded-For` names the client (and which have no connection cap).
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// Password hashes (Argon2id, 19 MiB each) computed at once (threads of their own); the
    /// others wait their turn.
    pub hash_slots: usize,
    /// How many password hashes may wait for a thread before more are refused
    /// (`rate_limited`).
    pub hash_queue: usize,
    /// Login attempts per second per account name, and the burst.
    pub login_rate: (f64, f64),
    /// State-changing requests per second per user (joins, leaves, tables, logouts), and the
    /// burst (`0`: no limit).
    pub user_rate: (f64, f64),
    /// Chat lines per second per user (all tables together), and the burst (`0`: no limit).
    pub chat_rate: (f64, f64),
    /// Chat lines per second per table (all people together), and the burst (`0`: no limit).
    pub table_chat_rate: (f64, f64),
    /// Guests made per second per client address, and the burst (`0`: no limit).
    pub guest_rate: (f64, f64),
    /// Bot API requests (HTTP requests, websocket opens) per second per bot token, and the
    /// burst (`0`: no limit).
    pub bot_rate: (f64, f64),
    /// Actions and seeds per second per bot token (all its games together), and the burst
    /// (`0`: no limit).
    pub bot_move_rate: (f64, f64),
    /// Unfinished tables one person may have created at once.
    pub max_open_tables: usize,
    /// Unfinished tables created from one client address at once (all its people together).
    pub max_open_tables_per_addr: usize,
    /// Unfinished tables with computer players created from one client address at once.
    pub max_bot_tables_per_addr: usize,
    /// Unfinished tables with computer players one person may have created at once.
    pub max_bot_tables: usize,
    /// A waiting table nobody changed or followed for this long is closed.
    pub waiting_expiry: Duration,
    /// The most tables a lobby answer lists.
    pub lobby_limit: usize,
    /// The bytes of messages a websocket may have waiting to be sent; a client that lets more
    /// pile up is disconnected.
    pub ws_queue_bytes: usize,
    /// How often the server pings an idle websocket; one that does not answer within the
    /// same time is closed.
    pub ws_ping: Duration,
    /// How long one websocket write may take before the connection is closed.
    pub ws_write_timeout: Duration,
    /// Guests unused for this long (no session, no game, no seat) are deleted.
    pub guest_expiry: Duration,
    /// This instance's name. With a PostgreSQL database it makes the server one of several
    /// sharing it: tables are owned through leases, the lobby is shared (see `cluster`).
    pub instance: Option<String>,
    /// Where the other instances reach this one (default: the address it listens on).
    pub advertise: Option<String>,
    /// How long a table lease lasts without renewal (renewed every third of it).
    pub lease: Duration,
    /// On SIGTERM, how long `/healthz` says "draining" before the tables are handed over, so
    /// that the proxy stops sending new clients first.
    pub drain_wait: Duration,
    /// How long the SQLite writer, once busy, waits for more writes before a commit, so that
    /// one sync of the log serves more moves (see [`crate::store::db::Writer::start`]); zero: never waits.
    pub commit_window: Duration,
    /// How often a tournament director looks at its event (it also looks at once when an
    /// entry changes).
    pub tournament_tick: Duration,
    /// Correspondence play: its clock, timers and push messages.
    pub correspondence: crate::correspondence::Settings,
    /// The server's one clock (tests set a manual one): timers, tournaments, correspondence.
    pub clock: crate::clock::Clock,
    /// Tournaments a person may have created and not yet finished.
    pub max_open_events: i64,
    /// Tournaments a person may create in a day (24 hours).
    pub max_events_per_day: i64,
    /// Computer entrants in one tournament.
    pub max_bot_entrants: i64,
    /// Computer entrants a person may have in all their unfinished tournaments together.
    pub max_bot_entrants_per_account: i64,
    /// Reads of the tournament list and of events (`GET /api/tournaments...`) per second per
    /// client address, and the burst (0: no limit).
    pub tournament_read_rate: (f64, f64),
    /// Events of one creator a tournament list shows per status (the newest).
    pub events_listed_per_creator: i64,
    /// Searching computer players (club and above) that think at once, owners served in turn
    /// (`table::compute`): by default one per core.
    pub compute_slots: usize,
    /// The share of one core (percent) the fair-play analysis of rated games may use: it runs
    /// on one thread and rests in proportion to its work (`moderation::fairplay`); 0 turns it
    /// off.
    pub fairplay_share: u32,
    /// The analysis the fair-play worker runs on each decision.
    pub fairplay_config: ExpertConfig,
    /// How the fair-play figures are judged: the band and the threshold of the automatic flags
    /// (docs/fairplay.md, "The band of a server rating").
    pub fairplay_judging: crate::moderation::fairplay::Judging,
}

impl Config {
    /// Defaults: 127.0.0.1:8080 and `fiveup.db` in the working directory.
    #[must_use]
    pub fn new() -> Config {
        let expert = |samples| ExpertConfig {
            samples,
            threads: 1,
            ..ExpertConfig::default()
        };
        Config {
            bind: SocketAddr::from(([127, 0, 0, 1], 8080)),
            database: "fiveup.db".to_string(),
            bot_delay: Duration::from_millis(700),
            takeover: Some(Duration::from_secs(60)),
            seed_wait: Duration::from_secs(30),
            hint_config: fiveup_bots::search_config("master").unwrap_or_else(|_| expert(400)),
            hint_budget: Duration::from_millis(250),
            hint_interval: Duration::from_millis(500),
            review_config: expert(60),
            expert_spec: fiveup_bots::level_spec("master")
                .unwrap_or("expert:threads=1")
                .to_string(),
            allow_origins: Vec::new(),
            secure_cookies: SecureCookies::Auto,
            ws_rate: (20.0, 40.0),
            http_rate: (50.0, 500.0),
            header_timeout: Duration::from_secs(10),
            max_conns_per_addr: 64,
            trusted_proxies: Vec::new(),
            hash_slots: std::thread::available_parallelism().map_or(2, std::num::NonZero::get),
            hash_queue: 64,
            login_rate: (0.2, 10.0),
            user_rate: (5.0, 50.0),
            chat_rate: (1.0, 5.0),
            guest_rate: (1.0 / 60.0, 20.0),
            bot_rate: (2.0, 60.0),
            bot_move_rate: (10.0, 100.0),
            max_open_tables_per_addr: 30,
            max_bot_tables_per_addr: 9,
            table_chat_rate: (4.0, 20.0),
            max_open_tables: 10,
            max_bot_tables: 3,
            waiting_expiry: Duration::from_secs(3600),
            lobby_limit: 100,
            ws_queue_bytes: 1 << 20,
            ws_ping: Duration::from_secs(30),
            ws_write_timeout: Duration::from_secs(10),
            guest_expiry: Duration::from_secs(30 * 24 * 3600),
            instance: None,
            advertise: None,
            lease: Duration::from_secs(5),
            drain_wait: Duration::from_secs(2),
            commit_window: crate::store::db::COMMIT_WINDOW,
            tournament_tick: Duration::from_secs(1),
            correspondence: crate::correspondence::Settings::default(),
            clock: crate::clock::Clock::system(),
            max_open_events: 5,
            max_events_per_day: 20,
            max_bot_entrants: 64,
            max_bot_entrants_per_account: 128,
            tournament_read_rate: (10.0, 100.0),
            events_listed_per_creator: 3,
            compute_slots: std::thread::available_parallelism().map_or(2, std::num::NonZero::get),
            fairplay_share: 25,
            fairplay_config: fiveup_bots::fairplay::analysis_config(),
            fairplay_judging: crate::moderation::fairplay::JUDGING,
        }
    }

    /// The player spec for a seat level.
    #[must_use]
    pub fn bot_spec(&self, level: &str) -> String {
        if level == "master" || level == "expert" {
            self.expert_spec.clone()
        } else {
            level.to_string()
        }
    }
}

impl Default for Config {
    fn default() -> Config {
        Config::new()
    }
}

/// The computer players a seat may hold, weakest first: the levels of
/// [`fiveup_bots::LEVELS`].
pub const BOT_LEVELS: [&str; 5] = ["beginner", "casual", "club", "strong", "master"];

/// Players a seat may also name directly, as before the levels (not offered in the lists).
pub const BOT_PLAYERS: [&str; 6] = ["random", "greedy", "club", "neural", "pimc", "expert"];
