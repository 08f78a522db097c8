//! Seats and joining: sitting down, presence, rematches.

use fiveup_protocol::{ErrorCode, JoinRequest, Occupant, ServerMsg, TableStatus, UserRef};
use tokio::sync::oneshot;

use super::*;
use crate::table::project::Viewer;
use crate::table::{Refusal, SeatSetup, Stored, TableConfig};

impl Actor {
    /// Whether a hand of a rated game is being played: registered people on two sides or more.
    pub(super) fn rated_hand_in_play(&self) -> bool {
        self.core.status == TableStatus::Playing && self.core.registered_sides() >= 2
    }

    pub(super) async fn join(&mut self, user: &UserRef, req: &JoinRequest) -> Result<(), Refusal> {
        if self.core.seat_of(user.id).is_some() {
            return Err(Refusal::new(
                ErrorCode::AlreadySeated,
                "you already sit at this table",
            ));
        }
        if self.core.status != TableStatus::Waiting {
            return Err(Refusal::new(
                ErrorCode::AlreadyStarted,
                "the game has started",
            ));
        }
        let invite_seat = match &req.invite {
            None => None,
            Some(tok) => Some(
                self.core
                    .cfg
                    .seats
                    .iter()
                    .position(|s| matches!(s, SeatSetup::Invite { token } if token == tok))
                    .filter(|&i| matches!(self.core.seats[i].occupant, Occupant::Invite))
                    .ok_or_else(|| {
                        Refusal::new(ErrorCode::BadInvite, "this invitation is unknown or used")
                    })? as u8,
            ),
        };
        let seat = match (req.seat, invite_seat) {
            (Some(s), Some(i)) if s != i => {
                return Err(Refusal::new(
                    ErrorCode::BadInvite,
                    format!("this invitation is for seat {i}"),
                ))
            }
            (_, Some(i)) => i,
            (Some(s), None) => {
                if s >= self.core.players() {
                    return Err(Refusal::new(
                        ErrorCode::BadRequest,
                        format!("there is no seat {s}"),
                    ));
                }
                let kept_for_me =
                    matches!(
                        self.core.cfg.seats[s as usize],
                        SeatSetup::Reserved { user: u } if u == user.id
                    ) && matches!(self.core.seats[s as usize].occupant, Occupant::Invite);
                if !kept_for_me && !matches!(self.core.seats[s as usize].occupant, Occupant::Open) {
                    return Err(Refusal::new(
                        ErrorCode::SeatTaken,
                        format!("seat {s} is not free"),
                    ));
                }
                s
            }
            (None, None) => self
                .core
                .seats
                .iter()
                .position(|s| matches!(s.occupant, Occupant::Open))
                .ok_or_else(|| Refusal::new(ErrorCode::SeatTaken, "no seat is free"))?
                as u8,
        };
        self.commit(vec![Stored::Sit {
            seat,
            user: user.clone(),
        }])
        .await?;
        self.resubscribe_viewers();
        Ok(())
    }

    /// After a seat change a subscriber's seat may have changed: recompute viewers.
    pub(super) fn resubscribe_viewers(&mut self) {
        for i in 0..self.subs.len() {
            let user = self.subs[i].viewer.user;
            self.subs[i].viewer.seat = user.and_then(|u| self.core.seat_of(u));
        }
        self.refresh_presence();
    }

    /// Recompute which seats are connected and tell everyone about changes.
    pub(super) fn refresh_presence(&mut self) {
        let n = self.core.players() as usize;
        let mut now = vec![false; n];
        for s in &self.subs {
            if let Some(seat) = s.viewer.seat {
                now[seat as usize] = true;
            }
        }
        for (seat, &connected) in now.iter().enumerate() {
            if connected != self.core.connected[seat] {
                self.core.connected[seat] = connected;
                if matches!(self.core.seats[seat].occupant, Occupant::Human { .. }) {
                    let msg = crate::to_json(&ServerMsg::Presence {
                        seat: seat as u8,
                        connected,
                    });
                    let v = self.core.version;
                    self.subs.retain(|s| s.tx.push(v, msg.clone()));
                }
            }
        }
    }

    /// `rematch`: the first to ask creates the new table, sitting there alone, with each other
    /// person's seat kept for them; the others accept by asking too, which seats them. The
    /// game starts when everyone has.
    pub(super) async fn rematch(
        &mut self,
        viewer: Viewer,
        user: Option<&UserRef>,
        id: &str,
    ) -> Result<u64, Refusal> {
        Self::valid_id(id)?;
        let (Some(seat), Some(user)) = (viewer.seat, user) else {
            return Err(Refusal::new(
                ErrorCode::NotSeated,
                "you do not sit at this table",
            ));
        };
        if let Some(prev) = self.check_dup(seat, id, "rematch") {
            return prev;
        }
        if let Some(new_id) = self.core.rematch.clone() {
            // Accept: a seat at the new table.
            let h = table(&self.app, &new_id).await?;
            let (reply, rx) = oneshot::channel();
            let closing = || Refusal::new(ErrorCode::ShuttingDown, "the table is closing");
            h.tx.send(TableCmd::AcceptRematch {
                user: user.clone(),
                reply,
            })
            .await
            .map_err(|_| closing())?;
            rx.await.map_err(|_| closing())??;
            return Ok(self.core.version);
        }
        let new_id = crate::new_id();
        self.seated_command(viewer, id, "rematch", |me| {
            if me.core.status != TableStatus::Finished {
                return Err(Refusal::new(ErrorCode::NotStarted, "the game is not over"));
            }
            Ok(Stored::Rematch {
                table: new_id.clone(),
                seat,
                cmd: id.to_string(),
            })
        })
        .await
    }

    /// A person of the game before takes the seat kept for them.
    pub(super) async fn accept_rematch(&mut self, user: &UserRef) -> Result<u64, Refusal> {
        if self.core.seat_of(user.id).is_some() {
            return Ok(self.core.version);
        }
        let kept = self
            .core
            .cfg
            .seats
            .iter()
            .position(|s| matches!(s, SeatSetup::Reserved { user: u } if *u == user.id));
        let Some(seat) = kept else {
            return Err(Refusal::new(
                ErrorCode::NotSeated,
                "no seat is kept for you at the new table",
            ));
        };
        self.join(
            user,
            &JoinRequest {
                seat: Some(seat as u8),
                invite: None,
            },
        )
        .await?;
        Ok(self.core.version)
    }

    pub(super) async fn create_rematch(&mut self, new_id: &str, asker: u8) -> Result<(), Refusal> {
        let mut seats = Vec::new();
        let mut sits = Vec::new();
        for (i, s) in self.core.seats.iter().enumerate() {
            match &s.occupant {
                Occupant::Human { user } if i == asker as usize => {
                    seats.push(SeatSetup::Open);
                    sits.push((i as u8, user.clone()));
                }
                // Nobody is seated without saying so: the seat waits for them.
                Occupant::Human { user } => seats.push(SeatSetup::Reserved { user: user.id }),
                Occupant::Bot { level } => seats.push(SeatSetup::Bot {
                    level: level.clone(),
                }),
                _ => seats.push(SeatSetup::Open),
            }
        }
        let cfg = TableConfig {
            id: new_id.to_string(),
            rules: self.core.cfg.rules,
            seats,
            creator: self.core.cfg.creator.clone(),
            unlisted: self.core.cfg.unlisted,
            created_at: crate::now(),
            request: None,
            correspondence: self.core.cfg.correspondence,
            // A rematch is an ordinary table.
            tournament: None,
            hints: self.core.cfg.hints,
        };
        create(&self.app, cfg, sits).await.map(|_| ())
    }
}
