//! Outside engines as players: [`EngineHost`] (one engine command in one match, with its
//! strikes), [`EnginePlayer`] (one seat's process, implementing the bots crate's [`Player`])
//! and [`Roster`] (the specs of a match, built-in and outside).
//!
//! # Faults, strikes and forfeits
//! Each decision the engine fails is played by the fallback player (a built-in level,
//! `greedy` unless configured) and records one strike, whatever went wrong: no answer within
//! the time for the move, an answer naming no legal action, a line that is not a protocol
//! message, a line longer than [`MAX_LINE`](crate::messages::MAX_LINE), an engine that exited,
//! closed its output or stopped reading its input, or a failed handshake. An engine that
//! exited, stopped reading, sent an overlong line or failed its handshake is killed, and the
//! fallback plays the rest of that game without further strikes; the next game starts a fresh
//! process.
//!
//! After [`STRIKES`] strikes in one match the engine *forfeits* the match: it is never asked
//! again, no process of it is started again, and the fallback makes every decision of its seats
//! for the rest of the match. The match is still played out, its statistics are those of the
//! games as played, and the report marks the player forfeited with its strikes and the number
//! of decisions the fallback made. `fiveup arena` scores a forfeited match as lost on every
//! deal.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use fiveup_bots::{make_bot, Bot, Player, SpecError};
use fiveup_engine::{Action, View};
use serde::Serialize;

use crate::child::{Child, Line, SendError, QUEUE};
use crate::encode::Encoder;
use crate::messages::{is_blank, to_line, Clock, Eval, FromEngine, OptionSpec, ToEngine, PROTOCOL};

/// Strikes after which an engine forfeits its match.
pub const STRIKES: usize = 3;

/// The prefix of an engine spec: `engine:python3 examples/engines/greedy.py`.
pub const ENGINE_PREFIX: &str = "engine:";

/// Time a healthy engine has, after its game, to read the last messages and the quit and exit
/// before it is killed.
pub const QUIT_GRACE: Duration = Duration::from_millis(250);

/// Time allowed beyond the time for a move for the answer to travel (pipes, scheduling).
pub const GRACE: Duration = Duration::from_millis(100);

/// The least time a move is asked with: once less than this is left of a game's bank, the bank
/// is spent, and the fallback makes the engine's remaining moves of the game without strikes.
pub const MIN_MOVE: Duration = Duration::from_millis(10);

/// How outside engines are run in a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// The time for each move.
    pub move_time: Duration,
    /// A bank of time for each game, spent by the engine's moves (`None`: no bank).
    pub game_time: Option<Duration>,
    /// The time to start and answer the hello.
    pub handshake: Duration,
    /// The built-in player that makes the moves the engine fails to make.
    pub fallback: String,
    /// Options to set, `name=value`: each is set in every engine that announces it.
    pub options: Vec<(String, String)>,
    /// Pass the engines' standard error through (else it is discarded).
    pub stderr: bool,
    /// Keep every line sent to the engine, for [`EnginePlayer::take_sent`] (tests, debugging).
    pub record: bool,
}

impl Default for EngineConfig {
    fn default() -> EngineConfig {
        EngineConfig {
            move_time: Duration::from_millis(2000),
            game_time: None,
            handshake: Duration::from_secs(10),
            fallback: "greedy".into(),
            options: Vec::new(),
            stderr: false,
            record: false,
        }
    }
}

/// The kind of an engine's fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FaultKind {
    /// No answer within the time for the move.
    Timeout,
    /// An answer that names no legal action.
    Illegal,
    /// A line that is not a protocol message.
    Garbage,
    /// A line longer than [`MAX_LINE`](crate::messages::MAX_LINE) bytes: the engine is killed.
    TooLong,
    /// The engine exited or closed its output.
    Exited,
    /// The engine stopped reading its input.
    NotReading,
    /// The engine could not be started or did not answer the hello.
    Handshake,
}

impl FaultKind {
    /// The kind's name in reports.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            FaultKind::Timeout => "timeout",
            FaultKind::Illegal => "illegal",
            FaultKind::Garbage => "garbage",
            FaultKind::TooLong => "too-long",
            FaultKind::Exited => "exited",
            FaultKind::NotReading => "not-reading",
            FaultKind::Handshake => "handshake",
        }
    }

    /// Whether the engine is killed for the rest of the game.
    const fn kills(self) -> bool {
        matches!(
            self,
            FaultKind::Exited | FaultKind::NotReading | FaultKind::Handshake | FaultKind::TooLong
        )
    }
}

/// One strike.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Strike {
    /// What went wrong.
    pub kind: FaultKind,
    /// Details.
    pub detail: String,
}

/// How an engine behaved in a match.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Conduct {
    /// Its strikes, in the order they were recorded.
    pub strikes: Vec<Strike>,
    /// Whether it forfeited the match.
    pub forfeited: bool,
    /// Decisions the engine made.
    pub engine_decisions: u64,
    /// Decisions the fallback made for it.
    pub fallback_decisions: u64,
    /// Processes started (one per seat and game).
    pub processes: u64,
    /// Decisions the fallback made, without strikes, because the game's bank was spent (among
    /// `fallback_decisions`).
    pub out_of_time: u64,
}

impl Conduct {
    /// One line for reports: `0 strikes`, `2 strikes (timeout, illegal)`, with `, forfeited`.
    #[must_use]
    pub fn summary(&self) -> String {
        let mut s = format!(
            "{} strike{}",
            self.strikes.len(),
            if self.strikes.len() == 1 { "" } else { "s" }
        );
        if !self.strikes.is_empty() {
            let kinds: Vec<&str> = self.strikes.iter().map(|k| k.kind.name()).collect();
            s.push_str(&format!(" ({})", kinds.join(", ")));
        }
        if self.forfeited {
            s.push_str(", forfeited");
        }
        s.push_str(&format!(
            ", {} engine decisions, {} by the fallback",
            self.engine_decisions, self.fallback_decisions
        ));
        if self.out_of_time > 0 {
            s.push_str(&format!(" ({} once its bank was spent)", self.out_of_time));
        }
        s
    }
}

/// What an engine says of itself in its hello answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EngineId {
    /// Its name.
    pub name: String,
    /// Its author.
    pub author: String,
    /// Its version.
    pub version: String,
    /// The options it accepts.
    pub options: Vec<OptionSpec>,
}

/// One engine command in one match: its configuration, what it announced, and its strikes,
/// shared by every seat's process.
#[derive(Debug)]
pub struct EngineHost {
    argv: Vec<String>,
    command: String,
    config: EngineConfig,
    id: EngineId,
    /// The options set at every start, with their values.
    set: Vec<(String, serde_json::Value)>,
    conduct: Mutex<Conduct>,
    forfeited: AtomicBool,
    engine_decisions: AtomicU64,
    fallback_decisions: AtomicU64,
    processes: AtomicU64,
    out_of_time: AtomicU64,
}

/// A fault, with its details.
type Fault = (FaultKind, String);

/// Start `argv`, say hello and read the engine's id, within `limit`.
fn handshake(argv: &[String], config: &EngineConfig) -> Result<(Child, EngineId), Fault> {
    let mut child = Child::spawn(argv, config.stderr).map_err(|e| {
        (
            FaultKind::Handshake,
            format!("cannot start {}: {e}", argv[0]),
        )
    })?;
    let hello = to_line(&ToEngine::Hello {
        protocol: PROTOCOL.into(),
        program: format!("fiveup {}", env!("CARGO_PKG_VERSION")),
    });
    child
        .send(hello)
        .map_err(|_| (FaultKind::Handshake, "the engine closed its input".into()))?;
    let deadline = Instant::now() + config.handshake;
    loop {
        match child.recv(deadline) {
            None => {
                return Err((
                    FaultKind::Handshake,
                    format!(
                        "no id within {} ms of the hello",
                        config.handshake.as_millis()
                    ),
                ))
            }
            Some(Line::Closed) => {
                return Err((
                    FaultKind::Handshake,
                    "the engine exited before its id".into(),
                ))
            }
            Some(Line::TooLong) => {
                return Err((FaultKind::Handshake, "a line too long before its id".into()))
            }
            Some(Line::Text(l)) if is_blank(&l) => {}
            Some(Line::Text(l)) => match serde_json::from_str::<FromEngine>(&l) {
                Ok(FromEngine::Info { .. }) => {}
                Ok(FromEngine::Id {
                    name,
                    author,
                    version,
                    options,
                }) => {
                    return Ok((
                        child,
                        EngineId {
                            name,
                            author,
                            version,
                            options,
                        },
                    ))
                }
                _ => {
                    return Err((
                        FaultKind::Handshake,
                        format!("expected an id, got {:?}", clip(&l)),
                    ))
                }
            },
        }
    }
}

/// At most 80 characters of an engine's line, for messages.
fn clip(s: &str) -> String {
    s.chars().take(80).collect()
}

impl EngineHost {
    /// Check an engine command: split it into words, start it once to read its id, check the
    /// options to set against those it announces (an option it does not announce is skipped:
    /// see [`EngineHost::applied_options`]), and check the fallback spec.
    pub fn start(command: &str, config: &EngineConfig) -> Result<Arc<EngineHost>, String> {
        let argv = shlex::split(command)
            .filter(|w| !w.is_empty())
            .ok_or_else(|| format!("cannot read the engine command {command:?}"))?;
        match make_bot(&config.fallback, 0) {
            Ok(Bot::Seat(_)) => {}
            Ok(Bot::Omniscient(_)) => {
                return Err(format!(
                    "the fallback {} sees every hand; choose a seat player",
                    config.fallback
                ))
            }
            Err(e) => return Err(format!("fallback: {e}")),
        }
        let (child, id) =
            handshake(&argv, config).map_err(|(_, e)| format!("engine {command:?}: {e}"))?;
        child.quit(to_line(&ToEngine::Quit), QUIT_GRACE);
        let mut set = Vec::new();
        for (name, text) in &config.options {
            if let Some(spec) = id.options.iter().find(|o| &o.name == name) {
                let v = spec
                    .parse(text)
                    .map_err(|e| format!("engine {}: {e}", id.name))?;
                set.push((name.clone(), v));
            }
        }
        Ok(Arc::new(EngineHost {
            argv,
            command: command.to_string(),
            config: config.clone(),
            id,
            set,
            conduct: Mutex::new(Conduct::default()),
            forfeited: AtomicBool::new(false),
            engine_decisions: AtomicU64::new(0),
            fallback_decisions: AtomicU64::new(0),
            processes: AtomicU64::new(0),
            out_of_time: AtomicU64::new(0),
        }))
    }

    /// What the engine announced.
    #[must_use]
    pub fn id(&self) -> &EngineId {
        &self.id
    }

    /// The command as given.
    #[must_use]
    pub fn command(&self) -> &str {
        &self.command
    }

    /// The player's name in reports: the engine's name and version, and its command.
    #[must_use]
    pub fn name(&self) -> String {
        let v = if self.id.version.is_empty() {
            String::new()
        } else {
            format!(" {}", self.id.version)
        };
        format!("{}{v} (engine:{})", self.id.name, self.command)
    }

    /// The names of the configured options this engine announces (and so is sent).
    #[must_use]
    pub fn applied_options(&self) -> Vec<String> {
        self.set.iter().map(|(n, _)| n.clone()).collect()
    }

    /// Whether the engine has forfeited the match.
    #[must_use]
    pub fn forfeited(&self) -> bool {
        self.forfeited.load(Ordering::SeqCst)
    }

    /// How the engine behaved so far.
    #[must_use]
    pub fn conduct(&self) -> Conduct {
        let mut c = self.conduct.lock().map(|c| c.clone()).unwrap_or_default();
        c.engine_decisions = self.engine_decisions.load(Ordering::SeqCst);
        c.fallback_decisions = self.fallback_decisions.load(Ordering::SeqCst);
        c.processes = self.processes.load(Ordering::SeqCst);
        c.out_of_time = self.out_of_time.load(Ordering::SeqCst);
        c
    }

    /// Record a strike; the third forfeits the match.
    fn strike(&self, kind: FaultKind, detail: String) {
        if let Ok(mut c) = self.conduct.lock() {
            if c.forfeited {
                return;
            }
            c.strikes.push(Strike { kind, detail });
            if c.strikes.len() >= STRIKES {
                c.forfeited = true;
                self.forfeited.store(true, Ordering::SeqCst);
            }
        }
    }
}

/// One seat's engine process for one game (a fresh player per game, as the match runner makes
/// them): started at its first decision, told every event, asked at every decision, and
/// killed when dropped.
pub struct EnginePlayer {
    host: Arc<EngineHost>,
    fallback: Box<dyn Player>,
    child: Option<Child>,
    /// The engine failed in a way that ends its game (it is not started again this game).
    dead: bool,
    encoder: Encoder,
    next_id: u64,
    /// What is left of the game's bank.
    bank: Option<Duration>,
    last_eval: Option<Eval>,
    sent: Vec<String>,
}

impl std::fmt::Debug for EnginePlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "EnginePlayer({})", self.host.name())
    }
}

impl EnginePlayer {
    /// A player for one game, its fallback seeded with `seed`.
    pub fn new(host: Arc<EngineHost>, seed: u64) -> Result<EnginePlayer, SpecError> {
        let fallback = match make_bot(&host.config.fallback, seed)? {
            Bot::Seat(p) => p,
            Bot::Omniscient(_) => {
                return Err(SpecError("the fallback must be a seat player".into()));
            }
        };
        let bank = host.config.game_time;
        Ok(EnginePlayer {
            host,
            fallback,
            child: None,
            dead: false,
            encoder: Encoder::new(),
            next_id: 0,
            bank,
            last_eval: None,
            sent: Vec::new(),
        })
    }

    /// The evaluation the engine attached to its last answer, if any.
    #[must_use]
    pub fn last_eval(&self) -> Option<&Eval> {
        self.last_eval.as_ref()
    }

    /// The host's commitment to the deal of hand `hand_no` (an online table): sent with the
    /// hand.
    pub fn commit(&mut self, hand_no: u16, commitment: String) {
        self.encoder.commit(hand_no, commitment);
    }

    /// What opens the commitment of hand `hand_no`: sent with the hand's end.
    pub fn reveal(&mut self, hand_no: u16, proof: crate::messages::DealProof) {
        self.encoder.reveal(hand_no, proof);
    }

    /// Every line sent to the engine since the last call (only with
    /// [`EngineConfig::record`]).
    pub fn take_sent(&mut self) -> Vec<String> {
        std::mem::take(&mut self.sent)
    }

    fn send(&mut self, msg: &ToEngine) -> Result<(), Fault> {
        let line = to_line(msg);
        if self.host.config.record {
            self.sent.push(line.clone());
        }
        let child = self
            .child
            .as_mut()
            .ok_or((FaultKind::Exited, "no process".to_string()))?;
        child.send(line).map_err(|e| match e {
            SendError::NotReading => (
                FaultKind::NotReading,
                format!("{QUEUE} messages waited for the engine to read them"),
            ),
            SendError::Exited => (FaultKind::Exited, "the engine closed its input".into()),
        })
    }

    /// Start the process for this game and set its options.
    fn start(&mut self) -> Result<(), Fault> {
        self.host.processes.fetch_add(1, Ordering::SeqCst);
        let (child, _) = handshake(&self.host.argv, &self.host.config)?;
        self.child = Some(child);
        self.encoder.reconnect();
        for (name, value) in self.host.set.clone() {
            self.send(&ToEngine::SetOption { name, value })?;
        }
        Ok(())
    }

    /// Lines received since the last request: answers to earlier requests and info lines are
    /// dropped, anything else is a fault.
    fn drain(&mut self) -> Result<(), Fault> {
        let Some(child) = self.child.as_mut() else {
            return Ok(());
        };
        for _ in 0..QUEUE {
            match child.try_recv() {
                None => return Ok(()),
                Some(line) => check_stray(line, self.next_id)?,
            }
        }
        Ok(())
    }

    /// Ask the engine for its move in `view`.
    fn ask(&mut self, view: &View) -> Result<Action, Fault> {
        if self.child.is_none() {
            self.start()?;
        }
        for msg in self.encoder.catch_up(view) {
            self.send(&msg)?;
        }
        self.drain()?;
        self.next_id += 1;
        let id = self.next_id;
        let mut time = self.host.config.move_time;
        if let Some(b) = self.bank {
            time = time.min(b);
        }
        let clock = Clock {
            move_ms: time.as_millis() as u64,
            left_ms: self.bank.map(|b| b.as_millis() as u64),
        };
        let request = self.encoder.request(view, id, clock);
        let legal: Vec<Action> = view.legal_actions().iter().copied().collect();
        self.send(&request)?;
        let asked = Instant::now();
        let deadline = asked + time + GRACE;
        let child = self.child.as_mut().expect("started");
        // The id of a late answer to an earlier request, for the timeout's report.
        let mut late: Option<u64> = None;
        let answer = loop {
            match child.recv(deadline) {
                None => {
                    let also = late.map_or(String::new(), |l| {
                        format!(" (only a late answer to request {l})")
                    });
                    break Err((
                        FaultKind::Timeout,
                        format!(
                            "no answer to request {id} within {} ms{also}",
                            time.as_millis()
                        ),
                    ));
                }
                Some(Line::Text(l)) => match serde_json::from_str::<FromEngine>(&l) {
                    Ok(FromEngine::Action {
                        id: got,
                        index,
                        action,
                        eval,
                    }) if got == id => {
                        break FromEngine::pick(index, action.as_deref(), &legal)
                            .map(|a| (a, eval))
                            .map_err(|e| (FaultKind::Illegal, e));
                    }
                    Ok(FromEngine::Action { id: got, .. }) if (1..id).contains(&got) => {
                        late = Some(got);
                    }
                    _ => {
                        if let Err(f) = check_stray(Line::Text(l), id) {
                            break Err(f);
                        }
                    }
                },
                Some(other) => {
                    if let Err(f) = check_stray(other, id) {
                        break Err(f);
                    }
                }
            }
        };
        if let Some(b) = self.bank.as_mut() {
            *b = b.saturating_sub(asked.elapsed());
        }
        let (action, eval) = answer?;
        self.last_eval = eval;
        Ok(action)
    }

    fn fallback_choose(&mut self, view: &View) -> Action {
        self.host.fallback_decisions.fetch_add(1, Ordering::SeqCst);
        self.fallback.choose(view)
    }

    fn fault(&mut self, (kind, detail): Fault) {
        self.host.strike(kind, detail);
        if kind.kills() {
            self.dead = true;
            self.child = None;
        }
    }
}

/// A line that is not the awaited answer: dropped when it is blank, an info line or a late
/// answer to an earlier request (up to `sent`, the last request sent), else a fault: an answer
/// with an id never sent is garbage.
fn check_stray(line: Line, sent: u64) -> Result<(), Fault> {
    match line {
        Line::Closed => Err((FaultKind::Exited, "the engine closed its output".into())),
        Line::TooLong => Err((
            FaultKind::TooLong,
            format!("a line over {} bytes", crate::messages::MAX_LINE),
        )),
        Line::Text(l) if is_blank(&l) => Ok(()),
        Line::Text(l) => match serde_json::from_str::<FromEngine>(&l) {
            Ok(FromEngine::Action { id, .. }) if id == 0 || id > sent => Err((
                FaultKind::Garbage,
                if sent == 0 {
                    format!("an answer to request {id}, but no request was sent")
                } else {
                    format!("an answer to request {id}, which was never sent (the last is {sent})")
                },
            )),
            Ok(FromEngine::Info { .. } | FromEngine::Action { .. }) => Ok(()),
            Ok(FromEngine::Id { .. }) => Err((FaultKind::Garbage, "an id out of turn".into())),
            Err(e) => Err((FaultKind::Garbage, format!("{e} in {:?}", clip(&l)))),
        },
    }
}

impl Player for EnginePlayer {
    fn name(&self) -> String {
        self.host.name()
    }

    fn choose(&mut self, view: &View) -> Action {
        if self.host.forfeited() {
            self.child = None;
            return self.fallback_choose(view);
        }
        if self.dead {
            return self.fallback_choose(view);
        }
        if self.bank.is_some_and(|b| b < MIN_MOVE) {
            // Running out of time is no fault: the moves that spent the bank were the engine's.
            self.host.out_of_time.fetch_add(1, Ordering::SeqCst);
            return self.fallback_choose(view);
        }
        match self.ask(view) {
            Ok(a) => {
                self.host.engine_decisions.fetch_add(1, Ordering::SeqCst);
                a
            }
            Err(f) => {
                self.fault(f);
                self.fallback_choose(view)
            }
        }
    }

    fn hand_over(&mut self, view: &View) {
        let msgs = self.encoder.hand_over(view);
        if self.child.is_none() || self.dead || self.host.forfeited() {
            return;
        }
        for msg in msgs {
            if let Err(f) = self.send(&msg) {
                self.fault(f);
                return;
            }
        }
    }
}

impl Drop for EnginePlayer {
    fn drop(&mut self) {
        // A healthy engine reads the end of the game and the quit, and exits; a failed one
        // was killed already.
        if let Some(child) = self.child.take() {
            child.quit(to_line(&ToEngine::Quit), QUIT_GRACE);
        }
    }
}

/// The players of a match: built-in specs as they are, and engine specs
/// (`engine:COMMAND`) started, checked and given keys (`engine#1`, ...) that
/// [`Roster::make`] turns into [`EnginePlayer`]s. Each engine spec added gets a host of its
/// own, so the same command as both players has two records of strikes.
#[derive(Debug, Default)]
pub struct Roster {
    config: EngineConfig,
    hosts: Vec<Arc<EngineHost>>,
}

impl Roster {
    /// A roster running engines with `config`.
    #[must_use]
    pub fn new(config: EngineConfig) -> Roster {
        Roster {
            config,
            hosts: Vec::new(),
        }
    }

    /// Whether `spec` names an outside engine.
    #[must_use]
    pub fn is_engine(spec: &str) -> bool {
        spec.trim_start().starts_with(ENGINE_PREFIX)
    }

    /// Add a player: an engine spec is started and checked and its key returned; any other
    /// spec is checked by [`make_bot`] and returned as it is.
    pub fn add(&mut self, spec: &str) -> Result<String, String> {
        if let Some(command) = spec.trim_start().strip_prefix(ENGINE_PREFIX) {
            let host = EngineHost::start(command, &self.config)?;
            self.hosts.push(host);
            return Ok(format!("engine#{}", self.hosts.len()));
        }
        make_bot(spec, 0).map_err(|e| format!("{spec}: {e}"))?;
        Ok(spec.to_string())
    }

    /// The host behind a key from [`Roster::add`] (`None` for a built-in spec).
    #[must_use]
    pub fn host(&self, key: &str) -> Option<&Arc<EngineHost>> {
        let n: usize = key.strip_prefix("engine#")?.parse().ok()?;
        self.hosts.get(n.checked_sub(1)?)
    }

    /// Every configured option that no engine announces (each is an error for the caller).
    #[must_use]
    pub fn unused_options(&self) -> Vec<String> {
        self.config
            .options
            .iter()
            .map(|(n, _)| n.clone())
            .filter(|n| !self.hosts.iter().any(|h| h.applied_options().contains(n)))
            .collect()
    }

    /// A player from a spec or key (the match runner's maker: see
    /// [`fiveup_bots::duel::run_match_using`]).
    pub fn make(&self, spec: &str, seed: u64) -> Result<Bot, SpecError> {
        if spec.starts_with("engine#") {
            let host = self
                .host(spec)
                .ok_or_else(|| SpecError(format!("no engine {spec}")))?;
            return Ok(Bot::Seat(Box::new(EnginePlayer::new(host.clone(), seed)?)));
        }
        if Roster::is_engine(spec) {
            return Err(SpecError(format!(
                "{spec}: add engines to the roster before the match"
            )));
        }
        make_bot(spec, seed)
    }
}
