//! # fiveup-protocol
//!
//! The messages of `fiveup serve`: the JSON bodies of its HTTP API and every websocket message
//! in both directions, as serde types. The server and any Rust client share these types; the
//! browser speaks the same JSON. `docs/protocol.md` documents every endpoint and message with
//! examples, the versioning and resync rules, the error codes and the verifiable-deal scheme.
//!
//! Engine values keep their own JSON forms: a tile is `"6-4"`, an action is its record token
//! (`"6-6"`, `"5-0@W"`, `"D"`, `"P"`, `"C10"`, `"M"`), an arm is `"W"`, `"E"`, `"N"`, `"S"` or
//! a number, a seat is a number, rules are the engine's `Rules` object.
//!
//! ```
//! use fiveup_protocol::{ClientMsg, ServerMsg, ErrorCode};
//!
//! let m: ClientMsg = serde_json::from_str(
//!     r#"{"type":"act","id":"c7","version":12,"action":"5-0@W"}"#).unwrap();
//! assert!(matches!(m, ClientMsg::Act { version: 12, .. }));
//! let e = ServerMsg::Error {
//!     id: Some("c7".into()), code: ErrorCode::StaleVersion,
//!     message: "the table is at version 13".into(), version: Some(13),
//! };
//! assert_eq!(serde_json::to_string(&e).unwrap(),
//!     r#"{"type":"error","id":"c7","code":"stale_version","message":"the table is at version 13","version":13}"#);
//! ```

use fiveup_engine::{Action, ArmId, Entry, HandEnd, LayoutTree, LeadKind, Phase, Pip, Rules, Tile};
use serde::{Deserialize, Serialize};

/// The protocol version. Additions (new optional fields, new message types, new error codes)
/// keep it; a change that breaks existing clients raises it.
pub const PROTOCOL_VERSION: u32 = 1;

/// The largest websocket text message the server reads, in bytes. Longer messages are refused
/// with [`ErrorCode::FrameTooLarge`]; messages over [`HARD_FRAME_LIMIT`] close the connection.
pub const MAX_FRAME_BYTES: usize = 8 * 1024;

/// Messages longer than this close the websocket (close code 1009).
pub const HARD_FRAME_LIMIT: usize = 64 * 1024;

/// The longest chat line, in characters.
pub const MAX_CHAT_CHARS: usize = 500;

/// The name of the verifiable-deal scheme (see `docs/protocol.md`).
pub const DEAL_SCHEME: &str = "fiveup-deal-v1";

/// The name of the session cookie.
pub const SESSION_COOKIE: &str = "fiveup_session";

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/// Every error the server reports, over HTTP (in [`ErrorBody`]) and over the websocket (in
/// [`ServerMsg::Error`]). Serialised in `snake_case`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The request or message is not valid JSON, or a field has the wrong type.
    BadJson,
    /// A state-changing request that is not `Content-Type: application/json`.
    BadContentType,
    /// Over a quota: too many open tables, or too many with computer players.
    QuotaExceeded,
    /// A websocket message with an unknown `type`.
    UnknownType,
    /// A websocket message longer than [`MAX_FRAME_BYTES`].
    FrameTooLarge,
    /// Too many messages or requests in a short time; wait and retry.
    RateLimited,
    /// The websocket upgrade came from a page of another site.
    BadOrigin,
    /// A request that needs a session has none (log in or play as a guest first).
    NotLoggedIn,
    /// Wrong user name or password.
    BadCredentials,
    /// The user name is registered already.
    NameTaken,
    /// A name or password that breaks the rules given in the message.
    BadName,
    /// A password that breaks the rules given in the message.
    BadPassword,
    /// The rules or the table settings are not valid; the message says why.
    BadRules,
    /// Some other field is not valid; the message says why.
    BadRequest,
    /// No such table.
    NoSuchTable,
    /// No such game record (or the game is not finished yet).
    NoSuchGame,
    /// No such user.
    NoSuchUser,
    /// No such tournament.
    NoSuchTournament,
    /// The seat is not free (or needs an invitation you do not have).
    SeatTaken,
    /// The invitation token is unknown or used.
    BadInvite,
    /// You already sit at this table.
    AlreadySeated,
    /// The command needs a seat at the table and you have none (spectators only watch).
    NotSeated,
    /// The table has not started, or is between hands.
    NotStarted,
    /// The game is over.
    GameOver,
    /// The game has started: seats can no longer be left or changed.
    AlreadyStarted,
    /// The command carried a version other than the table's current one. Nothing changed;
    /// the error carries the current version.
    StaleVersion,
    /// It is another seat's turn.
    NotYourTurn,
    /// The action is not legal now; the message gives the engine's reason.
    IllegalAction,
    /// A seed contribution that is malformed, late, or for another hand.
    BadSeed,
    /// A hint is already being computed for you, or hints are not available now.
    HintUnavailable,
    /// The command id was used before for a different command.
    DuplicateId,
    /// The server is shutting down; reconnect shortly.
    ShuttingDown,
    /// Something failed on the server (such as the database); nothing changed.
    Internal,
    /// The request needs a role the person does not have (moderation routes: moderators).
    Forbidden,
    /// The account was closed by a moderator: it cannot log in.
    Banned,
    /// You have an open report about this person already (or appealed this action already).
    AlreadyReported,
}

impl ErrorCode {
    /// The HTTP status the server answers with for this error.
    #[must_use]
    pub const fn http_status(self) -> u16 {
        match self {
            ErrorCode::NotLoggedIn | ErrorCode::BadCredentials => 401,
            ErrorCode::BadOrigin | ErrorCode::Forbidden | ErrorCode::Banned => 403,
            ErrorCode::NoSuchTable
            | ErrorCode::NoSuchGame
            | ErrorCode::NoSuchUser
            | ErrorCode::NoSuchTournament => 404,
            ErrorCode::NameTaken
            | ErrorCode::SeatTaken
            | ErrorCode::AlreadySeated
            | ErrorCode::StaleVersion
            | ErrorCode::DuplicateId
            | ErrorCode::GameOver
            | ErrorCode::AlreadyStarted
            | ErrorCode::AlreadyReported
            | ErrorCode::NotStarted => 409,
            ErrorCode::FrameTooLarge => 413,
            ErrorCode::BadContentType => 415,
            ErrorCode::RateLimited | ErrorCode::QuotaExceeded => 429,
            ErrorCode::Internal => 500,
            ErrorCode::ShuttingDown => 503,
            _ => 400,
        }
    }
}

/// The body of every HTTP error response.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ErrorBody {
    /// What went wrong, for programs.
    pub error: ErrorCode,
    /// What went wrong, for people.
    pub message: String,
}

// ---------------------------------------------------------------------------------------------
// Accounts
// ---------------------------------------------------------------------------------------------

/// `POST /api/guest`: play as a guest under a nickname.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct GuestRequest {
    /// 1 to 24 characters: letters, digits, spaces, `_`, `-`, `.`.
    pub nickname: String,
}

/// `POST /api/register` and `POST /api/login`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Credentials {
    /// 3 to 24 characters: letters, digits, `_`, `-`, `.`; unique regardless of case.
    pub username: String,
    /// 8 to 200 characters.
    pub password: String,
    /// Registering only: the name shown at tables (1 to 24 characters: letters, digits, single
    /// spaces, `_`, `-`, `.`; like no other registered player's name). Left out: a guest keeps
    /// their nickname, anyone else is shown by their user name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
}

/// `POST /api/me/name`: a registered player's new display name.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct DisplayName {
    /// 1 to 24 characters: letters, digits, single spaces, `_`, `-`, `.`.
    pub display_name: String,
}

/// A user as others see them.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct UserRef {
    /// The user's id.
    pub id: i64,
    /// The user name, or a guest's nickname.
    pub name: String,
    /// Whether the user has an account (false: a guest).
    pub registered: bool,
    /// Whether the account is a bot: a computer program playing through the bot API,
    /// shown as a computer everywhere (absent: a person).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
}

/// `GET /api/me` and the answer to guest, register and login.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Me {
    /// The logged-in user.
    pub user: UserRef,
}

// ---------------------------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------------------------

/// The rules of a new table: either an options string as `fiveup` reads it (`"cross
/// players=4 target=150"`), or the engine's full `Rules` object.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RulesSpec {
    /// A preset name and/or `key=value` options, as `Rules::parse` reads them.
    Options(String),
    /// Every option spelled out.
    Rules(Rules),
}

/// What a seat of a new table is.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum SeatConfig {
    /// The creator sits here.
    Me,
    /// Any logged-in player may take it.
    Open,
    /// Kept for whoever has the seat's invitation link.
    Invite,
    /// A computer player: `level` is `random`, `greedy`, `club` or `expert`.
    Bot {
        /// The player's spec.
        level: String,
    },
}

/// `POST /api/tables`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct CreateTableRequest {
    /// The rules; `players` in them fixes the number of seats.
    pub rules: RulesSpec,
    /// One entry per seat, in seat order. At most one [`SeatConfig::Me`]; with none the
    /// creator does not sit (and may watch).
    pub seats: Vec<SeatConfig>,
    /// Unlisted tables do not appear in the lobby; they are reached by link.
    #[serde(default)]
    pub unlisted: bool,
    /// The client's id for this request (1 to 64 characters): a repeat of a create with the
    /// same id (its answer was lost) answers the table the first one made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
    /// A correspondence table: a time per move in hours or days instead of live play (see
    /// `docs/correspondence.md`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub correspondence: Option<CorrespondenceSpec>,
    /// Hints allowed: players may ask for the computer's evaluation of their plays, and the
    /// game is never rated, whoever sits (a casual table). Refused with `correspondence`,
    /// whose games always count. Without it, hints are given only where the result does not
    /// count (see `TableInfo::counts`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hints: bool,
}

/// The clock of a correspondence table.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct CorrespondenceSpec {
    /// Hours per move: 6, 24, 48, 72, 120 or 168.
    pub per_move_hours: u32,
    /// The clock stands still on Saturdays and Sundays (UTC).
    #[serde(default)]
    pub no_weekends: bool,
    /// Players may use vacation days from their yearly allowance when a move would time out.
    #[serde(default)]
    pub vacation: bool,
}

/// Where a table stands.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TableStatus {
    /// Seats are still free.
    Waiting,
    /// Every seat is taken; a hand is about to be dealt (the server has published its
    /// commitment and collects the players' seeds), or the previous hand's result is shown.
    Dealing,
    /// A hand is being played.
    Playing,
    /// The game is over; its record is stored.
    Finished,
}

/// Who sits in a seat.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Occupant {
    /// Free for anyone.
    Open,
    /// Kept for the holder of the invitation.
    Invite,
    /// A person.
    Human {
        /// Who.
        user: UserRef,
    },
    /// A computer player.
    Bot {
        /// Its spec (`club`, `expert`, ...).
        level: String,
    },
}

/// One seat of a table.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct SeatInfo {
    /// The seat number, from 0.
    pub seat: u8,
    /// Who sits there.
    pub occupant: Occupant,
    /// For a person: whether a client of theirs is connected now.
    pub connected: bool,
    /// For a person: a computer player is playing for them (they were away too long); it
    /// hands the seat back as soon as they return. Never at a tournament table.
    pub taken_over: bool,
    /// For a person: a computer player has played for them at some point of this game (they
    /// were away, or resigned), so a win of their side does not count as theirs. Never at a
    /// tournament table.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_computer: bool,
    /// For a person: they resigned (or left during the game); a computer player plays their
    /// seat to the end and does not hand it back. At a tournament table: they are out of the
    /// game, which ended at once (a no-show, a third strike of the turn clock, or leaving),
    /// and nobody played their seat.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub resigned: bool,
}

/// A seat's invitation link (only shown to the table's creator).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Invite {
    /// The seat.
    pub seat: u8,
    /// The token to pass to `join`.
    pub token: String,
    /// A path to share: `/table/{id}?invite={token}`.
    pub path: String,
}

/// A table as listed: `GET /api/lobby`, `GET /api/tables/{id}`, and the answers to create and
/// join.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct TableInfo {
    /// The table's id (also the id of its game record).
    pub id: String,
    /// The table's version (see the protocol document).
    pub version: u64,
    /// Where it stands.
    pub status: TableStatus,
    /// The rules.
    pub rules: Rules,
    /// The rules as a canonical options string.
    pub options: String,
    /// Every seat.
    pub seats: Vec<SeatInfo>,
    /// The creator.
    pub creator: Option<UserRef>,
    /// Whether it is left out of the lobby.
    pub unlisted: bool,
    /// The hand being played (0 before the first deal).
    pub hand_no: u16,
    /// Scores per side.
    pub scores: Vec<i32>,
    /// Creation time, seconds since the Unix epoch.
    pub created_at: i64,
    /// The invitation links of seats kept by invitation: only in the answer to the creator.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub invites: Vec<Invite>,
    /// The seat of the user asking, if they sit here.
    pub your_seat: Option<u8>,
    /// The creator allowed hints: the game is casual and never rated.
    #[serde(default)]
    pub hints_allowed: bool,
    /// The result counts (a rated game: registered people on two sides or more and no hints
    /// allowed; every tournament table; every correspondence game): no computer help is given
    /// here, hints and every other evaluation of the position in play are refused.
    #[serde(default)]
    pub counts: bool,
    /// A tournament's table: the tournament it plays for (its id, as in `/tournaments/{id}`).
    /// The table page names the event and its round and links back to it; and no computer
    /// player ever plays a person's seat here (no takeover of an away person; leaving during
    /// the game loses it): the tournament's no-show time and turn clock decide instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<String>,
    /// A correspondence table's clock (its time per move); absent at a live table. The
    /// deadline of the move being waited for is `GET /api/correspondence/tables/{id}/clock`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub correspondence: Option<CorrespondenceSpec>,
}

/// `POST /api/tables/{id}/join`.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct JoinRequest {
    /// The seat wanted; with none, the invitation's seat or the first open seat.
    #[serde(default)]
    pub seat: Option<u8>,
    /// An invitation token.
    #[serde(default)]
    pub invite: Option<String>,
}

/// `GET /api/lobby`: tables with free seats, and tables in play to watch.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Lobby {
    /// Listed tables that are waiting for players or being played, newest first (at most
    /// `limit` of them from `offset` on; see `GET /api/lobby`).
    pub tables: Vec<TableInfo>,
    /// How many tables are listed in all.
    #[serde(default)]
    pub total: usize,
}

/// One rules preset with its rules for each player count.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct PresetInfo {
    /// The preset's name (`five-up`, `cross`, ...).
    pub name: String,
    /// Its rules for 2 to 8 players on its own set, in that order (`rules[players - 2]`).
    pub rules: Vec<Rules>,
    /// The set it is played with (its highest pip: 6, 9 or 12).
    #[serde(default = "double_six")]
    pub set: u8,
    /// The player counts it is meant for, `[fewest, most]`: fewer than `fewest` are refused
    /// (the party game is for five or more); more than `most`, up to what the set seats, are
    /// allowed.
    #[serde(default = "two_to_four")]
    pub players: [u8; 2],
    /// The tiles dealt to each player when it is played with another set: only the hand size
    /// and the set change with the set.
    #[serde(default)]
    pub hands: Vec<SetHands>,
}

/// The default hand sizes of a preset on one set.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct SetHands {
    /// The set (its highest pip).
    pub set: u8,
    /// Tiles each for 2 to 8 players, in that order.
    pub hand_size: Vec<u8>,
}

const fn double_six() -> u8 {
    6
}

const fn two_to_four() -> [u8; 2] {
    [2, 4]
}

/// `GET /api/rules?spec=...`: a rules string read and checked as a new table's would be. The
/// answer is always 200: either the rules, or why a table could not have them (so a form
/// checking as the player chooses logs no failed request).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct RulesCheck {
    /// The rules it makes, when they are valid.
    pub rules: Option<Rules>,
    /// Their canonical options string, when they are valid.
    pub options: Option<String>,
    /// Why they are not valid: the message a table creation would answer.
    pub error: Option<String>,
}

/// One option of the rules, for building a form.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct OptionInfo {
    /// The key in an options string (`target`, `spinner`, ...).
    pub key: String,
    /// The field of the `Rules` object it sets.
    pub field: String,
    /// The allowed values as written in an options string (for numbers: the range, such as
    /// `"50..=1000"`).
    pub values: Vec<String>,
}

/// `GET /api/config`: what a client needs to offer table creation.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ServerConfig {
    /// [`PROTOCOL_VERSION`].
    pub protocol: u32,
    /// The server's version.
    pub server: String,
    /// Every preset.
    pub presets: Vec<PresetInfo>,
    /// Every rules option.
    pub options: Vec<OptionInfo>,
    /// The computer players a seat may hold, weakest first.
    pub bot_levels: Vec<String>,
    /// [`MAX_FRAME_BYTES`].
    pub max_frame_bytes: usize,
    /// Seconds a disconnected player's turn waits before a computer player takes the seat
    /// over (0: never).
    pub takeover_secs: u64,
    /// Seconds the server waits for the players' seeds before dealing without the missing
    /// ones.
    pub seed_wait_secs: u64,
}

// ---------------------------------------------------------------------------------------------
// The table as one viewer sees it
// ---------------------------------------------------------------------------------------------

/// A legal action of the viewer, with the points it would score at once.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct LegalAction {
    /// The action, to send back as is in `act`.
    pub action: Action,
    /// The tile laid, for a play.
    pub tile: Option<Tile>,
    /// The arm, for a play on an arm (`None` for the lead, a draw or a pass).
    pub arm: Option<ArmId>,
    /// Points it scores at once (0 for anything but a scoring play).
    pub points: u16,
}

/// An open end of the layout.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct OpenEnd {
    /// The arm.
    pub arm: ArmId,
    /// The pip showing at its end.
    pub pip: Pip,
    /// What it adds to the count (a double at the end counts both halves).
    pub counts: u8,
}

/// The deal proof of a hand, as far as it is known to everyone at the time.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct HandProof {
    /// The hand number.
    pub hand: u16,
    /// [`DEAL_SCHEME`].
    pub scheme: String,
    /// SHA-256 of the server seed, 64 hex digits, published before the hand.
    pub commitment: String,
    /// Seats whose seed is in (before the reveal the seeds themselves are not shown).
    pub contributed: Vec<u8>,
    /// After the hand: the server seed (64 hex digits).
    pub server_seed: Option<String>,
    /// After the hand: each seat's seed (64 hex digits), `null` for a seat that sent none.
    pub client_seeds: Option<Vec<Option<String>>>,
    /// After the hand: the deal seed the engine dealt from (64 hex digits).
    pub deal_seed: Option<String>,
}

/// A finished hand: every hand revealed and the award step by step.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct HandOutcome {
    /// The hand number.
    pub hand: u16,
    /// Domino by a seat, or blocked.
    pub end: HandEnd,
    /// The tiles left in each seat's hand.
    pub hands: Vec<Vec<Tile>>,
    /// Pips counted in each seat's hand (after the doubles-one-half option).
    pub pips: Vec<u16>,
    /// Pips per side.
    pub side_pips: Vec<u16>,
    /// The sides that won the hand.
    pub winners: Vec<u8>,
    /// Each side's award as the rules reckon it.
    pub awards: Vec<i32>,
    /// What was added to each side's score (an exact target can refuse an award).
    pub scored: Vec<i32>,
    /// Scores after the hand.
    pub scores: Vec<i32>,
    /// The award explained, one line per step, in English.
    pub explanation: Vec<String>,
    /// The game ended during the hand: a side reached the target with a play (under
    /// `game-end=immediate`), so the hand was not played out and no award was made (`end` is
    /// then `blocked` only as a placeholder).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mid_hand: bool,
}

/// Everything one viewer (a seat, or a spectator) may see of a table: sent in snapshots and
/// with every event. A spectator's view has no tiles in hand and no legal actions.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct TableView {
    /// The table as listed.
    pub table: TableInfo,
    /// The viewer's seat (`None`: spectator).
    pub you: Option<u8>,
    /// The hand number (0 before the first deal).
    pub hand_no: u16,
    /// The engine's phase (`None` before the first deal).
    pub phase: Option<Phase>,
    /// Whose turn it is.
    pub to_move: Option<u8>,
    /// The leader of the hand.
    pub leader: Option<u8>,
    /// How the leader was chosen.
    pub lead_kind: Option<LeadKind>,
    /// The tile that decided who leads, which everyone has seen: the highest double (or the
    /// set's top double, or the heaviest tile) that its holder must lead or that made them the
    /// leader, or the double drawn for the lead (that draw is also in the history). `None` for
    /// a free lead or a lead by lot.
    #[serde(default)]
    pub shown_tile: Option<Tile>,
    /// For a hand opened by lot (`first-lead=lot`): the seat the lot chose (the deal's `lot`
    /// line).
    #[serde(default)]
    pub lot: Option<u8>,
    /// Cross Dominoes (`cross-first`): the first double's four sides are not all covered yet,
    /// so only they are open.
    #[serde(default)]
    pub cross_pending: bool,
    /// Cross Dominoes: the arms that wait for the cross to be complete (closed now, open once
    /// it is).
    #[serde(default)]
    pub waiting: Vec<ArmId>,
    /// Scores per side.
    pub scores: Vec<i32>,
    /// The side of each seat.
    pub sides: Vec<u8>,
    /// Tiles in each seat's hand.
    pub hand_sizes: Vec<u8>,
    /// Tiles left in the boneyard.
    pub boneyard: u8,
    /// How many boneyard tiles may still be drawn.
    pub can_draw: bool,
    /// The count of the open ends.
    pub count: u16,
    /// The open ends.
    pub open_ends: Vec<OpenEnd>,
    /// The layout as it lies: the lead, each arm's tiles and where it hangs.
    pub layout: LayoutTree,
    /// The hand's history as this viewer may know it (others' drawn tiles hidden).
    pub history: Vec<Entry>,
    /// The viewer's tiles.
    pub my_tiles: Vec<Tile>,
    /// The viewer's legal actions with their points (empty unless it is the viewer's turn).
    pub legal: Vec<LegalAction>,
    /// Manual scoring: points open to a Muggins call by the viewer.
    pub muggins_available: u16,
    /// The current (or next) hand's deal proof.
    pub proof: Option<HandProof>,
    /// Whether the viewer has sent a seed for the hand being dealt.
    pub seed_sent: bool,
    /// Every finished hand's proof, revealed.
    pub proofs: Vec<HandProof>,
    /// The last finished hand, while its result is shown (until the next deal).
    pub last_hand: Option<HandOutcome>,
    /// The winning side, once the game is over.
    pub winner: Option<u8>,
    /// The table created to play again, once someone asked for one.
    pub rematch: Option<String>,
}

/// A chat line.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ChatLine {
    /// Who wrote it.
    pub from: UserRef,
    /// Their seat, if seated.
    pub seat: Option<u8>,
    /// The text.
    pub text: String,
    /// When, seconds since the Unix epoch.
    pub at: i64,
}

/// What happened at a table, as one viewer may know it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum EventView {
    /// A seat changed: someone sat down or left, or a computer player took it over or handed
    /// it back.
    Seat {
        /// The seat as it is now.
        seat: SeatInfo,
    },
    /// Every seat is taken: the game begins.
    Started,
    /// The server's commitment for the next hand is published; seated clients should send
    /// their seed (`seed` message).
    Commit {
        /// The hand it is for.
        hand: u16,
        /// SHA-256 of the server seed, 64 hex digits.
        commitment: String,
    },
    /// A seat's seed is in (the seed stays hidden until the hand is over).
    SeedIn {
        /// The hand.
        hand: u16,
        /// The seat.
        seat: u8,
    },
    /// A hand was dealt.
    Dealt {
        /// The hand.
        hand: u16,
        /// Its leader.
        leader: u8,
    },
    /// A seat acted.
    Action {
        /// Who.
        seat: u8,
        /// What (`"D"` for a draw: the tile is not part of the action).
        action: Action,
        /// Points it scored.
        points: u16,
        /// The count after it.
        count: u16,
        /// The tile drawn: only in the drawer's own copy of the event.
        drawn: Option<Tile>,
    },
    /// A hand ended: every hand revealed, the award, and the deal's proof revealed.
    HandOver {
        /// The result.
        outcome: Box<HandOutcome>,
        /// The proof with the seeds revealed.
        proof: Box<HandProof>,
    },
    /// The game ended.
    GameOver {
        /// The winning side.
        winner: u8,
        /// Final scores.
        scores: Vec<i32>,
    },
    /// Someone asked to play again: the new table's id.
    Rematch {
        /// The new table.
        table: String,
    },
}

/// An event with the table version it made.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct VersionedEvent {
    /// The version after the event.
    pub version: u64,
    /// What happened.
    pub event: EventView,
}

// ---------------------------------------------------------------------------------------------
// Websocket messages
// ---------------------------------------------------------------------------------------------

/// A message from a client. Every message is a JSON object with a `type`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type", deny_unknown_fields)]
pub enum ClientMsg {
    /// Follow the lobby: the server sends `lobby`, then `lobby_table` and `lobby_gone` as
    /// tables change. Opening a table stops it.
    Lobby,
    /// Follow a table (as its player if you sit there, else as a spectator). `since`: the last
    /// version this client saw, to receive the events it missed.
    Open {
        /// The table id.
        table: String,
        /// The last version seen, if any.
        #[serde(default)]
        since: Option<u64>,
    },
    /// Play, draw, pass, claim or call Muggins at the open table.
    Act {
        /// A command id chosen by the client, unique per table and seat (1 to 64
        /// characters). A command sent again with the same id gets the same answer.
        id: String,
        /// The table version the client saw when it chose the action.
        version: u64,
        /// The action, as in the legal list.
        action: Action,
    },
    /// Contribute a seed to the deal of a hand (after its `commit`).
    Seed {
        /// A command id, as for `act`.
        id: String,
        /// The hand the seed is for.
        hand: u16,
        /// 32 random bytes as 64 hex digits.
        seed: String,
    },
    /// Ask for the expert's evaluation of each legal action (your turn only).
    Hint {
        /// A request id, echoed in the answer.
        id: String,
    },
    /// Say something at the open table.
    Chat {
        /// The text, 1 to [`MAX_CHAT_CHARS`] characters.
        text: String,
    },
    /// Ask for a rematch once the game is over: a new table with the same rules and players.
    Rematch {
        /// A command id.
        id: String,
    },
    /// Keep-alive; answered with `pong`.
    Ping,
    /// Follow a tournament: the server sends `tournament` now and again each time its
    /// standings, pairings or status change. Following another one (or the lobby, or a table)
    /// does not stop it; an empty id stops it.
    Tournament {
        /// The tournament's id.
        tournament: String,
    },
}

/// An evaluated action in a hint.
#[derive(Clone, Copy, PartialEq, Debug, Serialize, Deserialize)]
pub struct HintEval {
    /// The action.
    pub action: Action,
    /// Its mean value for the viewer's side, in points (the difference in points over the
    /// rest of the hand, or, near the target, the chance of winning the game scaled to 100).
    pub mean: f64,
    /// The standard error of the mean.
    pub stderr: f64,
    /// Sampled worlds behind the mean.
    pub samples: u32,
}

/// A message from the server.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum ServerMsg {
    /// First message on every connection.
    Welcome {
        /// [`PROTOCOL_VERSION`].
        protocol: u32,
        /// The logged-in user, if any.
        user: Option<UserRef>,
    },
    /// The lobby's listed tables (answer to `lobby`).
    Lobby {
        /// The tables (the newest, at most as many as the server lists at once).
        tables: Vec<TableInfo>,
        /// How many tables are listed in all.
        #[serde(default)]
        total: usize,
    },
    /// A listed table appeared or changed.
    LobbyTable {
        /// The table.
        table: TableInfo,
    },
    /// A table left the lobby (finished, or its last seat filled and it is private).
    LobbyGone {
        /// Its id.
        id: String,
    },
    /// The whole table as the viewer may see it (answer to `open`; also sent when the client
    /// fell too far behind).
    Snapshot {
        /// The table's version.
        version: u64,
        /// The view.
        view: Box<TableView>,
        /// The events after the `since` of the `open`, when the server still holds them all
        /// (for the log); empty otherwise.
        missed: Vec<VersionedEvent>,
        /// Whether `missed` holds every event after `since`.
        complete: bool,
        /// The recent chat.
        chat: Vec<ChatLine>,
    },
    /// Something happened at the open table; `view` is the table after it.
    Event {
        /// The version after the event.
        version: u64,
        /// What happened.
        event: EventView,
        /// The table after it, for this viewer.
        view: Box<TableView>,
    },
    /// A command was accepted (and stored): `version` is the table version it made.
    Ack {
        /// The command id.
        id: String,
        /// The version after the command.
        version: u64,
    },
    /// A command or message was refused; nothing changed.
    Error {
        /// The command id, if the message had one.
        id: Option<String>,
        /// What went wrong.
        code: ErrorCode,
        /// What went wrong, for people.
        message: String,
        /// The table's current version, where it matters (`stale_version`).
        version: Option<u64>,
    },
    /// A chat line at the open table.
    Chat {
        /// The line.
        line: ChatLine,
    },
    /// The answer to `hint`: the legal actions, best first.
    Hint {
        /// The request id.
        id: String,
        /// The table version it was computed for.
        version: u64,
        /// The evaluations, best first.
        evals: Vec<HintEval>,
    },
    /// A seated person's client connected or disconnected (not a versioned event: it changes
    /// nothing in the game).
    Presence {
        /// The seat.
        seat: u8,
        /// Whether a client of theirs is connected now.
        connected: bool,
    },
    /// Answer to `ping`.
    Pong,
    /// A followed tournament changed (and the answer to `tournament`).
    Tournament {
        /// The event.
        event: TournamentSummary,
    },
    /// Your table in a tournament is ready: sent to every connection of each person seated
    /// at it, whatever they are following.
    TournamentTable {
        /// The tournament's id.
        tournament: String,
        /// Its name.
        name: String,
        /// The table to open.
        table: String,
    },
    /// A tournament you entered was cancelled by its creator: sent to every connection of
    /// each person entered, whatever they are following.
    TournamentCancelled {
        /// The tournament's id.
        tournament: String,
        /// Its name.
        name: String,
    },
}

/// A tournament's state as pushed over the websocket.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct TournamentSummary {
    /// The id.
    pub id: String,
    /// The name.
    pub name: String,
    /// `upcoming`, `running` or `finished`.
    pub status: String,
    /// Rounds paired so far (matches opened, in an arena).
    pub round: u32,
    /// Entrants.
    pub entrants: u32,
    /// The standings, best first.
    pub standings: Vec<TournamentStanding>,
}

/// One line of a tournament's standings.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct TournamentStanding {
    /// Rank (equal ranks share a number).
    pub rank: u32,
    /// The entrant's number in the event.
    pub entrant: u32,
    /// The name (a team's name).
    pub name: String,
    /// Points in the format's score.
    pub points: f64,
    /// Matches played, won, drawn, lost.
    pub played: u32,
    /// Won.
    pub won: u32,
    /// Drawn.
    pub drawn: u32,
    /// Lost.
    pub lost: u32,
    /// Withdrawn, eliminated or gone.
    pub out: bool,
}

// ---------------------------------------------------------------------------------------------
// Games, replays, profiles, verification
// ---------------------------------------------------------------------------------------------

/// One action of a replayed hand, with the whole table after it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ReplayStep {
    /// Position in the hand, from 1.
    pub index: u32,
    /// Who acted.
    pub seat: u8,
    /// The action.
    pub action: Action,
    /// Points it scored.
    pub points: u16,
    /// The tile drawn, for a draw.
    pub drawn: Option<Tile>,
    /// The count after it.
    pub count: u16,
    /// The open ends after it.
    pub open_ends: Vec<OpenEnd>,
    /// Scores after it.
    pub scores: Vec<i32>,
    /// Every seat's tiles after it.
    pub hands: Vec<Vec<Tile>>,
    /// Tiles left in the boneyard after it.
    pub boneyard: u8,
    /// The layout after it.
    pub layout: LayoutTree,
    /// Cross Dominoes: the arms waiting for the cross after it (see [`TableView::waiting`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub waiting: Vec<ArmId>,
}

/// One hand of a replay.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ReplayHand {
    /// The hand number.
    pub hand: u16,
    /// Each seat's dealt tiles.
    pub dealt: Vec<Vec<Tile>>,
    /// The boneyard in draw order.
    pub boneyard: Vec<Tile>,
    /// Who led.
    pub leader: u8,
    /// How the leader was chosen.
    pub lead_kind: LeadKind,
    /// The tile shown to decide the lead (see [`TableView::shown_tile`]).
    #[serde(default)]
    pub shown_tile: Option<Tile>,
    /// The seat the lot chose, for a hand opened by lot.
    #[serde(default)]
    pub lot: Option<u8>,
    /// Tiles drawn before the lead to find a double.
    pub lead_draws: Vec<(u8, Tile)>,
    /// Scores before the hand.
    pub scores_before: Vec<i32>,
    /// Every action.
    pub steps: Vec<ReplayStep>,
    /// The result, if the hand ended.
    pub outcome: Option<HandOutcome>,
    /// The deal's proof.
    pub proof: Option<HandProof>,
}

/// `GET /api/games/{id}`: a finished game, step by step.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Replay {
    /// The game id (its table's id).
    pub id: String,
    /// The rules.
    pub rules: Rules,
    /// Who sat where.
    pub seats: Vec<SeatInfo>,
    /// Every hand.
    pub hands: Vec<ReplayHand>,
    /// The winning side.
    pub winner: Option<u8>,
    /// Final scores.
    pub scores: Vec<i32>,
    /// When it finished, seconds since the Unix epoch.
    pub finished_at: i64,
    /// The record in the engine's text notation (also at `/api/games/{id}/record.txt`).
    pub record: String,
    /// A correspondence game's clock (absent for a live game).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub correspondence: Option<CorrespondenceSpec>,
}

/// The verdict on one decision of a game.
#[derive(Clone, Copy, PartialEq, Debug, Serialize, Deserialize)]
pub struct MoveVerdict {
    /// The hand, from 1.
    pub hand: u16,
    /// The action's position in the hand, from 1 (matches [`ReplayStep::index`]).
    pub index: u32,
    /// Who chose.
    pub seat: u8,
    /// What they chose.
    pub chosen: Action,
    /// The expert's best action.
    pub best: Action,
    /// The chosen action's value.
    pub chosen_value: f64,
    /// The best action's value.
    pub best_value: f64,
    /// Points lost against the best (0 for the best choice).
    pub loss: f64,
    /// Legal actions there were.
    pub options: u32,
}

/// `GET /api/games/{id}/review`: a verdict for every decision with a choice.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Review {
    /// The game id.
    pub id: String,
    /// The analysing player's settings.
    pub analyser: String,
    /// The verdicts, in game order. Forced actions (one legal choice) have none.
    pub moves: Vec<MoveVerdict>,
}

/// A player's statistics.
#[derive(Clone, Copy, PartialEq, Debug, Default, Serialize, Deserialize)]
pub struct Stats {
    /// Finished games.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Hands played to their end.
    pub hands: u32,
    /// Points the player's side scored in those hands.
    pub points: i64,
    /// `points / hands` (0 with no hands).
    pub points_per_hand: f64,
}

/// A Glicko-2 rating.
#[derive(Clone, Copy, PartialEq, Debug, Serialize, Deserialize)]
pub struct Rating {
    /// The rating (1500 to start).
    pub rating: f64,
    /// Its deviation (350 to start).
    pub deviation: f64,
    /// Its volatility (0.06 to start).
    pub volatility: f64,
}

/// One game in a player's history.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct HistoryEntry {
    /// The game (table) id.
    pub game: String,
    /// When it finished, seconds since the Unix epoch.
    pub finished_at: i64,
    /// The rules as an options string.
    pub options: String,
    /// The player's seat.
    pub seat: u8,
    /// Names in seat order.
    pub names: Vec<String>,
    /// Whether the player's side won, and the win counts as theirs (see `by_computer`).
    pub won: bool,
    /// Final scores per side.
    pub scores: Vec<i32>,
    /// A computer player played for them during the game (they were away, or resigned): the
    /// game counts, a win of their side does not count as theirs.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_computer: bool,
    /// A correspondence game's clock (absent for a live game).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub correspondence: Option<CorrespondenceSpec>,
}

/// `GET /api/users/{id}`.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Profile {
    /// Who.
    pub user: UserRef,
    /// Statistics.
    pub stats: Stats,
    /// The rating (registered players only).
    pub rating: Option<Rating>,
    /// The correspondence rating, kept apart from the live one (registered players only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corr_rating: Option<Rating>,
    /// Finished games, newest first (at most 100; `?kind=live` or `?kind=correspondence`
    /// keeps one kind).
    pub history: Vec<HistoryEntry>,
    /// What moderators marked the account for, in words (computer-assisted play, rating
    /// manipulation, closed); empty for most.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<String>,
}

/// `POST /api/verify`: a record in the text notation or JSON.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct VerifyRequest {
    /// The record.
    pub record: String,
}

/// One hand's verification.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct HandCheck {
    /// The hand.
    pub hand: u16,
    /// Whether the commitment matches the server seed and the deal matches the deal seed.
    pub ok: bool,
    /// What was found.
    pub message: String,
}

/// The answer to `POST /api/verify`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct VerifyReport {
    /// Whether every hand checked out (and the record replays).
    pub ok: bool,
    /// Every hand.
    pub hands: Vec<HandCheck>,
    /// A problem with the record as a whole, if any.
    pub error: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_messages_round_trip() {
        let msgs = [
            r#"{"type":"lobby"}"#,
            r#"{"type":"open","table":"t1","since":4}"#,
            r#"{"type":"act","id":"a","version":3,"action":"D"}"#,
            r#"{"type":"seed","id":"s","hand":1,"seed":"00"}"#,
            r#"{"type":"hint","id":"h"}"#,
            r#"{"type":"chat","text":"hi"}"#,
            r#"{"type":"rematch","id":"r"}"#,
            r#"{"type":"ping"}"#,
        ];
        for m in msgs {
            let v: ClientMsg = serde_json::from_str(m).unwrap();
            let back = serde_json::to_string(&v).unwrap();
            let again: ClientMsg = serde_json::from_str(&back).unwrap();
            assert_eq!(v, again);
        }
        let open: ClientMsg = serde_json::from_str(r#"{"type":"open","table":"t1"}"#).unwrap();
        assert_eq!(
            open,
            ClientMsg::Open {
                table: "t1".into(),
                since: None
            }
        );
    }

    #[test]
    fn unknown_types_and_fields_are_refused() {
        assert!(serde_json::from_str::<ClientMsg>(r#"{"type":"cheat"}"#).is_err());
        assert!(serde_json::from_str::<ClientMsg>(r#"{"type":"act","id":"a"}"#).is_err());
        assert!(serde_json::from_str::<ClientMsg>(
            r#"{"type":"act","id":"a","version":1,"action":"13-9"}"#
        )
        .is_err());
    }

    #[test]
    fn rules_spec_reads_both_forms() {
        let s: RulesSpec = serde_json::from_str(r#""cross players=4""#).unwrap();
        assert_eq!(s, RulesSpec::Options("cross players=4".into()));
        let r = serde_json::to_string(&Rules::default()).unwrap();
        let s: RulesSpec = serde_json::from_str(&r).unwrap();
        assert_eq!(s, RulesSpec::Rules(Rules::default()));
    }

    #[test]
    fn seat_configs_are_tagged() {
        let s: Vec<SeatConfig> = serde_json::from_str(
            r#"[{"kind":"me"},{"kind":"bot","level":"club"},{"kind":"open"},{"kind":"invite"}]"#,
        )
        .unwrap();
        assert_eq!(
            s[1],
            SeatConfig::Bot {
                level: "club".into()
            }
        );
    }

    #[test]
    fn error_codes_have_statuses() {
        assert_eq!(ErrorCode::NoSuchTable.http_status(), 404);
        assert_eq!(ErrorCode::RateLimited.http_status(), 429);
        assert_eq!(
            serde_json::to_string(&ErrorCode::FrameTooLarge).unwrap(),
            "\"frame_too_large\""
        );
    }
}
