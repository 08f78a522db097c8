//! `fiveup serve`: the online game server.

use std::net::SocketAddr;
use std::time::Duration;

use fiveup_server::{Config, SecureCookies};

/// Options of `fiveup serve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,
    /// The database: an SQLite file (created and migrated on first start), an `sqlite:` URL,
    /// or a `postgres://` URL.
    #[arg(long, default_value = "fiveup.db")]
    pub database: String,
    /// Milliseconds a computer player waits before acting.
    #[arg(long, default_value_t = 700)]
    pub bot_delay_ms: u64,
    /// Seconds a disconnected player's turn waits before a computer player takes the seat
    /// over until they return (0: never).
    #[arg(long, default_value_t = 60)]
    pub takeover_secs: u64,
    /// Seconds a deal waits for the players' seeds before dealing without the missing ones.
    #[arg(long, default_value_t = 30)]
    pub seed_wait_secs: u64,
    /// Worlds searched for a hint (default: as many as the `master` level searches).
    #[arg(long)]
    pub hint_samples: Option<u32>,
    /// The most milliseconds a hint's search may take; past it the hint rests on the worlds
    /// searched so far.
    #[arg(long, default_value_t = 250)]
    pub hint_ms: u64,
    /// Another origin (such as `https://fiveup.example`) allowed to open websockets; repeat
    /// for several. The server's own origin is always allowed.
    #[arg(long = "allow-origin")]
    pub allow_origin: Vec<String>,
    /// Always mark session cookies `Secure` (otherwise only when a TLS proxy says the request
    /// came over https with `X-Forwarded-Proto` or `Forwarded`).
    #[arg(long)]
    pub secure_cookies: bool,
    /// HTTP POST requests per second allowed per client address (bursts of ten times as
    /// many); 0 for no limit.
    #[arg(long, default_value_t = 50.0)]
    pub http_rate: f64,
    /// Websocket messages per second allowed per connection (bursts of twice as many).
    #[arg(long, default_value_t = 20.0)]
    pub ws_rate: f64,
    /// Seconds a connection may take to send a request head, or stay idle between requests.
    #[arg(long, default_value_t = 10)]
    pub header_timeout_secs: u64,
    /// Open connections (websockets included) allowed per client address; 0 for no cap.
    #[arg(long, default_value_t = 64)]
    pub max_conns_per_addr: usize,
    /// A proxy address whose `X-Forwarded-For` names the client (repeatable); its own
    /// connections have no per-address cap.
    #[arg(long = "trust-proxy")]
    pub trust_proxy: Vec<std::net::IpAddr>,
    /// Unfinished tables one person may have created at once.
    #[arg(long, default_value_t = 10)]
    pub max_open_tables: usize,
    /// Unfinished tables with computer players one person may have created at once.
    #[arg(long, default_value_t = 3)]
    pub max_bot_tables: usize,
    /// Unfinished tables created from one client address at once (all its people together).
    #[arg(long, default_value_t = 30)]
    pub max_open_tables_per_addr: usize,
    /// Unfinished tables with computer players created from one client address at once.
    #[arg(long, default_value_t = 9)]
    pub max_bot_tables_per_addr: usize,
    /// Guests made per minute per client address (bursts of 20); 0 for no limit.
    #[arg(long, default_value_t = 1.0)]
    pub guest_rate_per_min: f64,
    /// Tournaments one person may have created and not yet finished.
    #[arg(long, default_value_t = 5)]
    pub max_open_events: i64,
    /// Tournaments one person may create in 24 hours.
    #[arg(long, default_value_t = 20)]
    pub max_events_per_day: i64,
    /// Computer entrants in one tournament.
    #[arg(long, default_value_t = 64)]
    pub max_bot_entrants: i64,
    /// Computer entrants in all of one person's unfinished tournaments together.
    #[arg(long, default_value_t = 128)]
    pub max_bot_entrants_per_account: i64,
    /// Searching computer players (club and above) thinking at once, their owners served in
    /// turn (default: one per core).
    #[arg(long)]
    pub compute_slots: Option<usize>,
    /// The share of one core (percent) the fair-play analysis of rated games may use, on one
    /// thread; 0 turns the analysis off (docs/fairplay.md).
    #[arg(long, default_value_t = 25)]
    pub fairplay_share: u32,
    /// The fair-play flags' threshold: the combined z-score over the band's honest players
    /// from which an account is flagged for moderators (docs/fairplay.md, "The band of a
    /// server rating": fewer false flags above it, fewer copiers found).
    #[arg(long, default_value_t = fiveup_server::moderation::fairplay::JUDGING.flag_z)]
    pub fairplay_flag_z: f64,
    /// The fair-play band: an account is judged against honest players of its rating plus
    /// this many rating deviations (0 to 3).
    #[arg(long, default_value_t = fiveup_server::moderation::fairplay::JUDGING.band_deviations)]
    pub fairplay_band_deviations: f64,
    /// Minutes a waiting table nobody changed or followed lasts before it is closed.
    #[arg(long, default_value_t = 60)]
    pub waiting_expiry_mins: u64,
    /// State-changing HTTP requests per second allowed per user (bursts of ten times as
    /// many); 0 for no limit.
    #[arg(long, default_value_t = 5.0)]
    pub user_rate: f64,
    /// This instance's name, unique among instances sharing one PostgreSQL database: with it,
    /// tables are run under leases in the database, the lobby is shared, and a client landing
    /// on an instance that does not run its table is handed on (see docs/deploy.md).
    #[arg(long)]
    pub instance: Option<String>,
    /// Where the other instances reach this one (`host:port`; default: the listening
    /// address).
    #[arg(long)]
    pub advertise: Option<String>,
    /// Seconds a table lease lasts without renewal: how long a dead instance's tables wait
    /// before another takes them (renewed every third of it).
    #[arg(long, default_value_t = 5)]
    pub lease_secs: u64,
    /// On SIGTERM, seconds `/healthz` answers "draining" before the tables are handed over
    /// (several instances only).
    #[arg(long, default_value_t = 2)]
    pub drain_secs: u64,
    /// Microseconds the SQLite writer, when busy, waits for more moves before a commit (one
    /// sync of the log then stores them all); 0: it never waits. Moves are acknowledged only
    /// once stored either way.
    #[arg(long, default_value_t = fiveup_server::store::db::COMMIT_WINDOW.as_micros() as u64)]
    pub commit_window_us: u64,
    /// The operator's contact named to push services in correspondence notifications (a
    /// `mailto:` or `https:` URL).
    #[arg(long, default_value = "mailto:admin@localhost")]
    pub push_contact: String,
    /// Vacation days each person has per year at correspondence tables.
    #[arg(long, default_value_t = 14)]
    pub vacation_days: u32,
    /// Threads running connections and tables (default: on SQLite one fewer than the cores, at
    /// least one, as its writer has a thread of its own; on PostgreSQL every core).
    #[arg(long)]
    pub workers: Option<usize>,
}

/// Run `fiveup serve` until SIGTERM or Ctrl-C.
pub fn run(a: &Args) -> Result<(), String> {
    let mut cfg = Config::new();
    cfg.bind = a.bind;
    cfg.database.clone_from(&a.database);
    cfg.bot_delay = Duration::from_millis(a.bot_delay_ms);
    cfg.takeover = (a.takeover_secs > 0).then(|| Duration::from_secs(a.takeover_secs));
    cfg.seed_wait = Duration::from_secs(a.seed_wait_secs);
    if let Some(n) = a.hint_samples {
        if !(1..=100_000).contains(&n) {
            return Err("--hint-samples must be from 1 to 100000".to_string());
        }
        cfg.hint_config.samples = n;
    }
    if !(1..=60_000).contains(&a.hint_ms) {
        return Err("--hint-ms must be from 1 to 60000".to_string());
    }
    cfg.hint_budget = Duration::from_millis(a.hint_ms);
    cfg.allow_origins.clone_from(&a.allow_origin);
    if a.secure_cookies {
        cfg.secure_cookies = SecureCookies::Always;
    }
    if a.http_rate < 0.0 || a.ws_rate <= 0.0 {
        return Err("--http-rate must be 0 or more and --ws-rate more than 0".to_string());
    }
    cfg.http_rate = (a.http_rate, a.http_rate * 10.0);
    if a.header_timeout_secs == 0 || a.user_rate < 0.0 || a.max_open_tables == 0 {
        return Err(
            "--header-timeout-secs and --max-open-tables must be more than 0, --user-rate 0 or \
             more"
                .to_string(),
        );
    }
    cfg.header_timeout = Duration::from_secs(a.header_timeout_secs);
    cfg.max_conns_per_addr = a.max_conns_per_addr;
    cfg.trusted_proxies.clone_from(&a.trust_proxy);
    cfg.max_open_tables = a.max_open_tables;
    cfg.max_bot_tables = a.max_bot_tables;
    if a.max_open_tables_per_addr == 0 || a.guest_rate_per_min < 0.0 {
        return Err(
            "--max-open-tables-per-addr must be more than 0, --guest-rate-per-min 0 or more"
                .to_string(),
        );
    }
    cfg.max_open_tables_per_addr = a.max_open_tables_per_addr;
    if a.max_open_events < 1
        || a.max_events_per_day < 1
        || a.max_bot_entrants < 0
        || a.max_bot_entrants_per_account < 0
        || a.compute_slots == Some(0)
    {
        return Err(
            "--max-open-events, --max-events-per-day and --compute-slots must be more than 0, \
             --max-bot-entrants and --max-bot-entrants-per-account 0 or more"
                .to_string(),
        );
    }
    cfg.max_open_events = a.max_open_events;
    cfg.max_events_per_day = a.max_events_per_day;
    cfg.max_bot_entrants = a.max_bot_entrants;
    cfg.max_bot_entrants_per_account = a.max_bot_entrants_per_account;
    if let Some(n) = a.compute_slots {
        cfg.compute_slots = n;
    }
    if a.fairplay_share > 100 {
        return Err("--fairplay-share is a percentage of one core: 0 to 100".to_string());
    }
    cfg.fairplay_share = a.fairplay_share;
    if !(1.0..=10.0).contains(&a.fairplay_flag_z) {
        return Err(format!(
            "--fairplay-flag-z {} : a z-score from 1 to 10",
            a.fairplay_flag_z
        ));
    }
    if !(0.0..=3.0).contains(&a.fairplay_band_deviations) {
        return Err(format!(
            "--fairplay-band-deviations {} : from 0 to 3 rating deviations",
            a.fairplay_band_deviations
        ));
    }
    cfg.fairplay_judging = fiveup_server::moderation::fairplay::Judging {
        band_deviations: a.fairplay_band_deviations,
        flag_z: a.fairplay_flag_z,
    };
    cfg.max_bot_tables_per_addr = a.max_bot_tables_per_addr;
    cfg.guest_rate = (a.guest_rate_per_min / 60.0, 20.0);
    cfg.waiting_expiry = Duration::from_secs(a.waiting_expiry_mins.max(1) * 60);
    cfg.user_rate = (a.user_rate, a.user_rate * 10.0);
    cfg.ws_rate = (a.ws_rate, a.ws_rate * 2.0);
    if a.instance.is_none() && a.advertise.is_some() {
        return Err("--advertise goes with --instance".to_string());
    }
    if a.lease_secs == 0 {
        return Err("--lease-secs must be more than 0".to_string());
    }
    cfg.instance.clone_from(&a.instance);
    cfg.advertise.clone_from(&a.advertise);
    cfg.lease = Duration::from_secs(a.lease_secs);
    cfg.drain_wait = Duration::from_secs(a.drain_secs);
    if a.commit_window_us > 100_000 {
        return Err("--commit-window-us must be from 0 to 100000".to_string());
    }
    cfg.commit_window = Duration::from_micros(a.commit_window_us);
    if !(a.push_contact.starts_with("mailto:") || a.push_contact.starts_with("https:")) {
        return Err(format!(
            "--push-contact {:?}: give a mailto: or https: URL",
            a.push_contact
        ));
    }
    cfg.correspondence.contact.clone_from(&a.push_contact);
    cfg.correspondence.vacation_days = a.vacation_days;
    let workers = match a.workers {
        Some(0) => return Err("--workers must be at least 1".to_string()),
        Some(n) if n > 1024 => return Err("--workers must be at most 1024".to_string()),
        Some(n) => n,
        None => fiveup_server::default_workers(fiveup_server::store::db::is_sqlite(&a.database)),
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    rt.block_on(fiveup_server::run(cfg))
}
