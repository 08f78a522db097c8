//! What the generator reads of the server's websocket messages, and how its players choose.
//!
//! The server's messages are the `fiveup-protocol` types; every `event` carries the whole
//! table view. A player of the load test needs only a few fields of it, so it reads the same
//! JSON into the lean mirrors below (serde skips the rest without building it): this keeps the
//! generator's own work per message small, since it shares the machine with the server. The
//! tests check the mirrors against messages serialised from the protocol types.

use fiveup_engine::Action;
use fiveup_protocol::{ErrorCode, LegalAction, TableStatus};
use serde::Deserialize;

/// The `type` of a server message.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// The first message.
    Welcome,
    /// The answer to `open`.
    Snapshot,
    /// A versioned event with the view after it.
    Event,
    /// A command was accepted and stored.
    Ack,
    /// A command or message was refused.
    Error,
    /// A tournament table of the player's is ready (`tournament_table`).
    TournamentTable,
    /// Anything else (chat, presence, lobby, pong, ...).
    #[serde(other)]
    Other,
}

/// A server message, as far as the generator reads it.
#[derive(Clone, Debug, Deserialize)]
pub struct Incoming {
    /// The message type.
    #[serde(rename = "type")]
    pub kind: Kind,
    /// The command id of an `ack` or `error`.
    #[serde(default)]
    pub id: Option<String>,
    /// The table version (`snapshot`, `event`, `ack`, `error` where given).
    #[serde(default)]
    pub version: Option<u64>,
    /// The event of an `event`.
    #[serde(default)]
    pub event: Option<EventLite>,
    /// The view of a `snapshot` or `event`.
    #[serde(default)]
    pub view: Option<ViewLite>,
    /// The code of an `error`.
    #[serde(default)]
    pub code: Option<ErrorCode>,
    /// The message of an `error`.
    #[serde(default)]
    pub message: Option<String>,
    /// The table of a `tournament_table`.
    #[serde(default)]
    pub table: Option<String>,
}

/// The kind of an event.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// The server's commitment for the next hand: seated clients send their seeds.
    Commit,
    /// A hand was dealt.
    Dealt,
    /// Somebody acted.
    Action,
    /// The game ended.
    GameOver,
    /// Any other event.
    #[serde(other)]
    Other,
}

/// An event, as far as the generator reads it.
#[derive(Clone, Copy, Debug, Deserialize)]
pub struct EventLite {
    /// Its kind.
    pub kind: EventKind,
    /// The hand, for `commit` and `dealt`.
    #[serde(default)]
    pub hand: Option<u16>,
}

/// The table part of a view.
#[derive(Clone, Copy, Debug, Deserialize)]
pub struct TableLite {
    /// Where the table stands.
    pub status: TableStatus,
}

/// The proof part of a view: which hand it is for.
#[derive(Clone, Copy, Debug, Deserialize)]
pub struct ProofLite {
    /// The hand.
    pub hand: u16,
}

/// A viewer's table view, as far as a player of the load test needs it.
#[derive(Clone, Debug, Deserialize)]
pub struct ViewLite {
    /// The table.
    pub table: TableLite,
    /// The viewer's seat.
    #[serde(default)]
    pub you: Option<u8>,
    /// Whose turn it is.
    #[serde(default)]
    pub to_move: Option<u8>,
    /// The viewer's legal actions with their points.
    #[serde(default)]
    pub legal: Vec<LegalAction>,
    /// The current (or next) hand's proof.
    #[serde(default)]
    pub proof: Option<ProofLite>,
    /// Whether the viewer sent its seed for the hand being dealt.
    #[serde(default)]
    pub seed_sent: bool,
    /// The winning side, once the game is over.
    #[serde(default)]
    pub winner: Option<u8>,
}

impl ViewLite {
    /// The hand whose seed this viewer should send now, if any: the table is dealing, the
    /// commitment is out and the viewer has not sent its seed.
    #[must_use]
    pub fn seed_wanted(&self) -> Option<u16> {
        if self.table.status == TableStatus::Dealing && !self.seed_sent && self.you.is_some() {
            self.proof.map(|p| p.hand)
        } else {
            None
        }
    }

    /// Whether the viewer is to act now.
    #[must_use]
    pub fn my_turn(&self) -> bool {
        self.you.is_some() && self.to_move == self.you && !self.legal.is_empty()
    }

    /// Whether the game is over.
    #[must_use]
    pub fn finished(&self) -> bool {
        self.winner.is_some() || self.table.status == TableStatus::Finished
    }
}

/// The generator's player: the play scoring the most points (the first listed among equals);
/// with no play, the first other action offered (draw or pass). Claims and Muggins calls are
/// only chosen when nothing else is offered.
#[must_use]
pub fn choose(legal: &[LegalAction]) -> Option<Action> {
    let rank = |l: &LegalAction| match l.action {
        Action::Play { .. } => (2u8, l.points),
        Action::Draw | Action::Pass => (1, 0),
        Action::Claim(_) | Action::Muggins => (0, l.points),
    };
    let mut best: Option<&LegalAction> = None;
    for l in legal {
        if best.is_none_or(|b| rank(l) > rank(b)) {
            best = Some(l);
        }
    }
    best.map(|l| l.action)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fiveup_protocol::{EventView, ServerMsg};

    fn legal(action: &str, points: u16) -> LegalAction {
        let action: Action = serde_json::from_str(&format!("\"{action}\"")).unwrap();
        let (tile, arm) = match action {
            Action::Play { tile, arm } => (Some(tile), arm),
            _ => (None, None),
        };
        LegalAction {
            action,
            tile,
            arm,
            points,
        }
    }

    #[test]
    fn chooses_the_highest_scoring_play_then_draw_or_pass() {
        let l = [legal("3-1@W", 0), legal("6-3@E", 10), legal("5-0@W", 10)];
        assert_eq!(choose(&l), Some(l[1].action));
        assert_eq!(choose(&[legal("D", 0)]), Some(Action::Draw));
        assert_eq!(choose(&[legal("P", 0)]), Some(Action::Pass));
        assert_eq!(choose(&[]), None);
        let with_draw = [legal("D", 0), legal("2-1@W", 0)];
        assert_eq!(choose(&with_draw), Some(with_draw[1].action));
        let lead = [legal("6-6", 0), legal("5-5", 10)];
        assert_eq!(choose(&lead), Some(lead[1].action));
    }

    #[test]
    fn reads_a_tournament_call() {
        let call = serde_json::to_string(&ServerMsg::TournamentTable {
            tournament: "t1".into(),
            name: "Sunday arena".into(),
            table: "k3v9q2m7x1ab".into(),
        })
        .unwrap();
        let m: Incoming = serde_json::from_str(&call).unwrap();
        assert_eq!(m.kind, Kind::TournamentTable);
        assert_eq!(m.table.as_deref(), Some("k3v9q2m7x1ab"));
    }

    #[test]
    fn reads_the_protocols_messages() {
        let ack = serde_json::to_string(&ServerMsg::Ack {
            id: "m-3".into(),
            version: 17,
        })
        .unwrap();
        let m: Incoming = serde_json::from_str(&ack).unwrap();
        assert_eq!(m.kind, Kind::Ack);
        assert_eq!(m.id.as_deref(), Some("m-3"));
        assert_eq!(m.version, Some(17));

        let err = serde_json::to_string(&ServerMsg::Error {
            id: Some("m-4".into()),
            code: ErrorCode::StaleVersion,
            message: "the table is at version 18".into(),
            version: Some(18),
        })
        .unwrap();
        let m: Incoming = serde_json::from_str(&err).unwrap();
        assert_eq!(m.kind, Kind::Error);
        assert_eq!(m.code, Some(ErrorCode::StaleVersion));
        assert_eq!(m.version, Some(18));

        let m: Incoming = serde_json::from_str(r#"{"type":"pong"}"#).unwrap();
        assert_eq!(m.kind, Kind::Other);
        let m: Incoming =
            serde_json::from_str(r#"{"type":"welcome","protocol":1,"user":null}"#).unwrap();
        assert_eq!(m.kind, Kind::Welcome);
        let m: Incoming =
            serde_json::from_str(r#"{"type":"presence","seat":1,"connected":true}"#).unwrap();
        assert_eq!(m.kind, Kind::Other);

        let ev = serde_json::to_string(&EventView::Commit {
            hand: 2,
            commitment: "ab".repeat(32),
        })
        .unwrap();
        let e: EventLite = serde_json::from_str(&ev).unwrap();
        assert_eq!(e.kind, EventKind::Commit);
        assert_eq!(e.hand, Some(2));
        let ev = serde_json::to_string(&EventView::GameOver {
            winner: 1,
            scores: vec![120, 255],
        })
        .unwrap();
        let e: EventLite = serde_json::from_str(&ev).unwrap();
        assert_eq!(e.kind, EventKind::GameOver);
        let e: EventLite = serde_json::from_str(r#"{"kind":"started"}"#).unwrap();
        assert_eq!(e.kind, EventKind::Other);
    }

    #[test]
    fn reads_a_view_from_the_protocol_document() {
        // The example view of docs/protocol.md, with the table filled in.
        let text = r#"{"type":"event","version":43,
          "event":{"kind":"action","seat":1,"action":"D","points":0,"count":12,"drawn":null},
          "view":{"table":{"id":"k3v9q2m7x1ab","version":43,"status":"playing","rules":{},
            "options":"","seats":[],"creator":null,"unlisted":false,"hand_no":1,
            "scores":[0,0],"created_at":0,"your_seat":0},
          "you":0,"hand_no":1,"phase":"play","to_move":0,"leader":1,
          "lead_kind":"highest-double","scores":[0,0],"sides":[0,1],"hand_sizes":[6,6],
          "boneyard":14,"can_draw":true,"count":6,
          "open_ends":[{"arm":"W","pip":3,"counts":6},{"arm":"E","pip":3,"counts":0}],
          "layout":{"root":"3-3","arms":[],"count":6},
          "history":[{"kind":"play","seat":1,"tile":"3-3","arm":null,"count":6,"points":0}],
          "my_tiles":["3-1","6-3","2-0","4-4","5-5","6-1"],
          "legal":[{"action":"3-1@W","tile":"3-1","arm":"W","points":0},
                   {"action":"6-3@W","tile":"6-3","arm":"W","points":5}],
          "muggins_available":0,
          "proof":{"hand":1,"scheme":"fiveup-deal-v1","commitment":"9c1e","contributed":[0,1],
                   "server_seed":null,"client_seeds":null,"deal_seed":null},
          "seed_sent":true,"proofs":[],"last_hand":null,"winner":null,"rematch":null}}"#;
        let m: Incoming = serde_json::from_str(text).unwrap();
        assert_eq!(m.kind, Kind::Event);
        assert_eq!(m.version, Some(43));
        assert_eq!(m.event.unwrap().kind, EventKind::Action);
        let v = m.view.unwrap();
        assert!(v.my_turn());
        assert_eq!(v.seed_wanted(), None);
        assert!(!v.finished());
        assert_eq!(choose(&v.legal), Some(v.legal[1].action));
    }

    #[test]
    fn a_dealing_view_asks_for_a_seed_once() {
        let text = r#"{"table":{"status":"dealing"},"you":1,"to_move":null,"legal":[],
            "proof":{"hand":3},"seed_sent":false,"winner":null}"#;
        let mut v: ViewLite = serde_json::from_str(text).unwrap();
        assert_eq!(v.seed_wanted(), Some(3));
        v.seed_sent = true;
        assert_eq!(v.seed_wanted(), None);
        v.seed_sent = false;
        v.you = None;
        assert_eq!(v.seed_wanted(), None);
    }
}
