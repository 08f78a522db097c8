//! What a table is, in the table runtime's own types: its fixed settings (rules, seats, who
//! created it), its kind (casual, correspondence with its move clock, a tournament's table with
//! its clocks) and whether its result counts. The concerns above the runtime read these; the
//! runtime imports none of them.

use fiveup_engine::Rules;
use fiveup_protocol::UserRef;
use serde::{Deserialize, Serialize};

use crate::store::db;

/// How a seat was set up when the table was created.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum SeatSetup {
    /// Anyone may sit.
    Open,
    /// Kept for the holder of this invitation token.
    Invite {
        /// The token.
        token: String,
    },
    /// A computer player.
    Bot {
        /// Its level.
        level: String,
    },
    /// Kept for one person (a player of the game before, until they accept the rematch);
    /// shown as an invitation seat.
    Reserved {
        /// Their user id.
        user: i64,
    },
}

/// A table's fixed settings, stored with it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct TableConfig {
    /// The id.
    pub id: String,
    /// The rules.
    pub rules: Rules,
    /// Each seat's setup.
    pub seats: Vec<SeatSetup>,
    /// Who created it.
    pub creator: Option<UserRef>,
    /// Left out of the lobby.
    pub unlisted: bool,
    /// Seconds since the epoch.
    pub created_at: i64,
    /// The creator's request id, if the create request had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<String>,
    /// A correspondence table's clock (a time per move, no computer takeover): see
    /// `docs/correspondence.md`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub correspondence: Option<CorrSettings>,
    /// What a tournament's table adds (`docs/tournaments.md`, "Online"); none at other tables.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<TourTable>,
    /// The creator allowed hints: a casual table whose game is never rated.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hints: bool,
}

/// The settings a tournament gives its tables on top of the ordinary ones.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct TourTable {
    /// A duplicate board's server seed (64 hex digits): every hand's commitment is to this
    /// seed and the hand is dealt from it with no client seeds, so that every table playing
    /// the board gets the same deal (hand `n` of the board is the engine's deal `n` of the
    /// deal seed `SHA-256("fiveup-deal-v1" || seed || players || 0x00 per seat)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
    /// The tournament's id, written into the game's record (`Tournament`), with
    /// `DuplicateBoard` for a board: a board's record is hidden from those who did not play it
    /// until the tournament ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// A person who has made no move of their own loses the game as a no-show
    /// (`Stored::NoShow`) once the game has waited this many milliseconds for them (for their
    /// move, or their seed of the hand), counted from the table's opening second at the
    /// earliest. No computer ever plays a person's seat at a tournament table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_show_ms: Option<u64>,
    /// The turn clock, for a person who has made a move of their own: one who has not moved
    /// this many milliseconds after their turn came gets a strike, and their clock starts
    /// again (nobody moves for them); the [`STRIKES_FORFEIT`]th strike loses the game. A
    /// table without one has the no-show time as its turn clock
    /// (`TableCore::turn_ms`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_ms: Option<u64>,
    /// The match clock: this many milliseconds after the table opened (counted from its
    /// opening second) the hand in play is finished and the higher score wins; a tie is
    /// decided by the next score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_ms: Option<u64>,
    /// The account whose tournament this is: its computer players think on that account's
    /// share of the CPU (`table::compute`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<i64>,
    /// The name of each computer seat's entrant, by seat, for the game's record (`club 3`
    /// is recorded `club 3 (computer)`); empty for a seat that is no entrant's computer
    /// player (those keep the usual names).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
}

/// The strike of the turn clock that loses the game.
pub const STRIKES_FORFEIT: u8 = 3;

impl TableConfig {
    /// The account whose share of the computer players' CPU this table's searches take: its
    /// creator, or a tournament table's organiser (`compute::SERVER` for neither).
    #[must_use]
    pub fn owner(&self) -> i64 {
        self.creator
            .as_ref()
            .map(|u| u.id)
            .or_else(|| self.tournament.as_ref().and_then(|t| t.owner))
            .unwrap_or(crate::table::compute::SERVER)
    }
}

/// A correspondence table's clock, fixed at creation: a time per move and no computer
/// takeover (`docs/correspondence.md`). The correspondence concern checks a request into one
/// (`correspondence::settings_from_spec`) and keeps the deadlines.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct CorrSettings {
    /// Seconds per move.
    pub per_move: i64,
    /// The clock stands still on Saturdays and Sundays (UTC).
    #[serde(default)]
    pub no_weekends: bool,
    /// Players may use vacation days here (from their yearly allowance).
    #[serde(default)]
    pub vacation: bool,
}

impl CorrSettings {
    /// As clients see them.
    #[must_use]
    pub fn spec(&self) -> fiveup_protocol::CorrespondenceSpec {
        fiveup_protocol::CorrespondenceSpec {
            per_move_hours: u32::try_from(self.per_move / 3_600).unwrap_or(u32::MAX),
            no_weekends: self.no_weekends,
            vacation: self.vacation,
        }
    }
}

/// The correspondence clock of a table's stored settings (`TableConfig` as JSON), if it has
/// one.
#[must_use]
pub fn spec_from_config(config: &str) -> Option<fiveup_protocol::CorrespondenceSpec> {
    serde_json::from_str::<TableConfig>(config)
        .ok()?
        .correspondence
        .map(|c| c.spec())
}

/// The correspondence clock of a stored table (a finished game's too), if it has one.
pub async fn corr_spec_of(
    db: &db::Db,
    table: &str,
) -> Result<Option<fiveup_protocol::CorrespondenceSpec>, String> {
    let row = sqlx::query("SELECT config FROM game_tables WHERE id = $1")
        .bind(table)
        .fetch_optional(&db.pool)
        .await
        .map_err(db::db_err)?;
    Ok(row
        .and_then(|r| db::text(&r, "config").ok())
        .and_then(|c| spec_from_config(&c)))
}
