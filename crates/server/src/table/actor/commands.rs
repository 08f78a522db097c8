//! Commands: what reaches the task through its channel, and a client's table commands
//! (act, seed, rematch, hint, chat) with command-id handling (a resend gets the first answer).

use std::time::Instant;

use fiveup_protocol::{ErrorCode, ServerMsg, TableStatus, UserRef, VersionedEvent};

use super::*;
use crate::table::project::{event_view, table_info, table_view, Viewer};
use crate::table::{Refusal, Stored};

impl Actor {
    pub(super) async fn handle(&mut self, cmd: TableCmd) {
        match cmd {
            TableCmd::Subscribe {
                conn,
                user,
                since,
                tx,
            } => {
                self.subs.retain(|s| s.conn != conn);
                let viewer = self.viewer_of(user.as_ref());
                let muted = match &user {
                    Some(u) => self.app.hooks.chat_hidden(&self.app, u.id).await,
                    None => Vec::new(),
                };
                let (missed, complete) = self.missed(since, viewer);
                let msg = ServerMsg::Snapshot {
                    version: self.core.version,
                    view: Box::new(table_view(&self.core, viewer)),
                    missed,
                    complete,
                    chat: self
                        .chat
                        .iter()
                        .filter(|c| c.for_viewer(viewer) && !muted.contains(&c.line.from.id))
                        .map(|c| c.line.clone())
                        .collect(),
                };
                if tx.push(self.core.version, crate::to_json(&msg)) {
                    self.subs.push(Sub {
                        conn,
                        viewer,
                        tx,
                        muted,
                    });
                }
                self.refresh_presence();
                if let Some(seat) = viewer.seat {
                    let s = &self.core.seats[seat as usize];
                    if s.taken_over && !s.resigned {
                        let _ = self
                            .commit(vec![Stored::Takeover { seat, on: false }])
                            .await;
                        self.bots.remove(&seat);
                    }
                }
                self.after_change().await;
            }
            TableCmd::Unsubscribe { conn } => {
                self.subs.retain(|s| s.conn != conn);
                self.refresh_presence();
                self.after_change().await;
            }
            TableCmd::Client { conn, user, msg } => self.client(conn, user, msg).await,
            TableCmd::Join { user, req, reply } => {
                self.deserted = false;
                let r = self.join(&user, &req).await;
                let _ = reply.send(r.map(|()| table_info(&self.core, self.viewer_of(Some(&user)))));
                self.after_change().await;
            }
            TableCmd::Leave { user, reply } => {
                let r = match self.core.seat_of(user.id) {
                    None => Err(Refusal::new(ErrorCode::NotSeated, "you do not sit here")),
                    // Before the start the seat is freed; during the game, leaving resigns: a
                    // computer player plays the seat to the end. At a tournament table nobody
                    // plays it: the game is lost at once.
                    Some(seat) if self.core.status == TableStatus::Waiting => {
                        let nobody = self.core.seats.iter().enumerate().all(|(i, s)| {
                            i == usize::from(seat)
                                || !matches!(s.occupant, fiveup_protocol::Occupant::Human { .. })
                        });
                        self.deserted = nobody
                            && self
                                .core
                                .cfg
                                .creator
                                .as_ref()
                                .is_some_and(|c| c.id == user.id);
                        let r = self.commit(vec![Stored::Leave { seat }]).await.map(|_| ());
                        if r.is_err() {
                            self.deserted = false;
                        }
                        r
                    }
                    Some(seat) if self.core.cfg.tournament.is_some() => {
                        let changes = self.dealt_then(vec![Stored::Forfeit { seat }]);
                        self.commit(changes).await.map(|_| ())
                    }
                    Some(seat) => self.commit(vec![Stored::Resign { seat }]).await.map(|_| ()),
                };
                self.resubscribe_viewers();
                let _ = reply.send(r.map(|()| table_info(&self.core, self.viewer_of(Some(&user)))));
            }
            TableCmd::Info { user, reply } => {
                self.after_change().await;
                let _ = reply.send(table_info(
                    &self.core,
                    Viewer {
                        seat: user.and_then(|u| self.core.seat_of(u)),
                        user,
                    },
                ));
            }
            TableCmd::BotMove {
                version,
                seat,
                action,
                bot,
            } => {
                self.bots.insert(seat, bot);
                if self.bot_pending == Some(version) {
                    self.bot_pending = None;
                }
                if version == self.core.version
                    && self.core.to_move() == Some(seat)
                    && self.core.computer_plays(seat)
                {
                    let _ = self
                        .commit(vec![Stored::Act {
                            seat,
                            action,
                            cmd: None,
                        }])
                        .await;
                }
                self.after_change().await;
            }
            TableCmd::SeedTimeout { hand } => {
                if self.seed_timer == Some(hand) {
                    self.seed_timer = None;
                }
                if self.core.pending.as_ref().is_some_and(|p| p.hand == hand) {
                    let _ = self.commit(vec![Stored::Deal { hand }]).await;
                }
                self.after_change().await;
            }
            TableCmd::TakeoverCheck { version, seat } => {
                if self.takeover_pending == Some(version) {
                    self.takeover_pending = None;
                }
                // Never at a tournament table (no timer is set there; this holds if one was).
                if version == self.core.version
                    && self.core.to_move() == Some(seat)
                    && !self.core.computer_plays(seat)
                    && !self.core.connected[seat as usize]
                    && self.core.cfg.tournament.is_none()
                {
                    let _ = self.commit(vec![Stored::Takeover { seat, on: true }]).await;
                }
                self.after_change().await;
            }
            TableCmd::HintDone { user } => {
                if let Some(t) = self.hints.get_mut(&user) {
                    *t = Instant::now();
                }
            }
            TableCmd::NoShowCheck { due } => {
                if self.no_show_due == Some(due) {
                    self.no_show_due = None;
                }
                let absent = self.no_shows_by(due);
                if !absent.is_empty() {
                    // A hand waiting for an absent person's seed is dealt without it first, so
                    // that the game lost has its record.
                    let changes = self.dealt_then(
                        absent
                            .into_iter()
                            .map(|seat| Stored::NoShow { seat })
                            .collect(),
                    );
                    if self.commit(changes).await.is_err() && !self.lost {
                        // Not stored (the database failed): the same check again in a second,
                        // not at once.
                        self.no_show_due = Some(due);
                        let tx = self.tx.clone();
                        tokio::spawn(async move {
                            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                            let _ = tx.send(TableCmd::NoShowCheck { due }).await;
                        });
                    }
                }
                self.after_change().await;
            }
            TableCmd::TurnOut { version, seat } => {
                if self.turn_timer == Some(version) {
                    self.turn_timer = None;
                }
                if version == self.core.version
                    && self.core.to_move() == Some(seat)
                    && !self.core.computer_plays(seat)
                {
                    // A strike, and nobody moves for them: their clock starts again. The third
                    // loses the game (with more than two sides, by a forfeit after it).
                    let mut changes = vec![Stored::Strike { seat }];
                    if self.core.strikes[seat as usize] + 1 >= crate::table::STRIKES_FORFEIT
                        && self.core.cfg.rules.sides() != 2
                    {
                        changes.push(Stored::Forfeit { seat });
                    }
                    let _ = self.commit(changes).await;
                }
                self.after_change().await;
            }
            TableCmd::ClockOut => {
                if self.core.clock_out.is_none() && self.core.status != TableStatus::Finished {
                    let hand = self.core.hand_no();
                    let _ = self.commit(vec![Stored::ClockOut { hand }]).await;
                }
                self.after_change().await;
            }
            TableCmd::Stop | TableCmd::Expire { .. } => {}
            TableCmd::AcceptRematch { user, reply } => {
                let r = self.accept_rematch(&user).await;
                let _ = reply.send(r);
                self.after_change().await;
            }
            TableCmd::Inspect { reply } => {
                let _ = reply.send(Box::new(self.core.clone()));
            }
            TableCmd::MoveTimeout {
                version,
                seat,
                reply,
            } => {
                let done = if version == self.core.version
                    && self.core.to_move() == Some(seat)
                    && !self.core.computer_plays(seat)
                {
                    let r = self.commit(vec![Stored::Timeout { seat }]).await;
                    self.bots.remove(&seat);
                    match r {
                        Ok(_) => Some(true),
                        Err(e) if e.code == ErrorCode::Internal => None,
                        Err(_) => Some(false),
                    }
                } else {
                    Some(false)
                };
                self.after_change().await;
                let _ = reply.send(done);
            }
        }
    }

    pub(super) async fn client(&mut self, conn: u64, user: Option<UserRef>, msg: ClientCommand) {
        let viewer = self.viewer_of(user.as_ref());
        match msg {
            ClientCommand::Act {
                id,
                version,
                action,
            } => {
                let what = format!("act {action}");
                let r = self
                    .seated_command(viewer, &id, &what, |me| {
                        if version != me.core.version {
                            return Err(Refusal::new(
                                ErrorCode::StaleVersion,
                                format!(
                                    "the table is at version {}, not {version}",
                                    me.core.version
                                ),
                            ));
                        }
                        Ok(Stored::Act {
                            seat: viewer.seat.unwrap_or(0),
                            action,
                            cmd: Some(id.clone()),
                        })
                    })
                    .await;
                self.answer(conn, id, r);
            }
            ClientCommand::Seed { id, hand, seed } => {
                let what = format!("seed {hand}");
                let r = self
                    .seated_command(viewer, &id, &what, |_| {
                        Ok(Stored::Seed {
                            hand,
                            seat: viewer.seat.unwrap_or(0),
                            seed: seed.to_ascii_lowercase(),
                            cmd: id.clone(),
                        })
                    })
                    .await;
                self.answer(conn, id, r);
            }
            ClientCommand::Rematch { id } => {
                let r = self.rematch(viewer, user.as_ref(), &id).await;
                self.answer(conn, id, r);
            }
            ClientCommand::Hint { id } => {
                let r = self.hint(conn, viewer, &id);
                if let Err(r) = r {
                    self.error_to(conn, Some(id), &r);
                }
            }
            ClientCommand::Chat { text } => {
                if !self.chat(conn, user, viewer, text).await {
                    return;
                }
            }
        }
        self.after_change().await;
    }

    pub(super) fn answer(&mut self, conn: u64, id: String, r: Result<u64, Refusal>) {
        match r {
            Ok(version) => self.send_to(conn, &ServerMsg::Ack { id, version }),
            Err(e) => self.error_to(conn, Some(id), &e),
        }
    }

    /// A command that needs a seat, with command-id handling: a resend gets the first answer.
    pub(super) async fn seated_command(
        &mut self,
        viewer: Viewer,
        id: &str,
        what: &str,
        make: impl FnOnce(&Actor) -> Result<Stored, Refusal>,
    ) -> Result<u64, Refusal> {
        Self::valid_id(id)?;
        let Some(seat) = viewer.seat else {
            return Err(Refusal::new(
                ErrorCode::NotSeated,
                "you do not sit at this table",
            ));
        };
        if let Some(prev) = self.check_dup(seat, id, what) {
            return prev;
        }
        let change = make(self);
        let r = match change {
            Ok(ch) => {
                let rematch = match &ch {
                    Stored::Rematch { table, seat, .. } => Some((table.clone(), *seat)),
                    _ => None,
                };
                if let Some((new_id, asker)) = rematch {
                    self.create_rematch(&new_id, asker).await?;
                }
                self.commit(vec![ch]).await
            }
            Err(e) => Err(e),
        };
        if let Err(e) = &r {
            self.remember_refusal(seat, id, what, e);
        }
        r
    }

    pub(super) fn check_dup(&self, seat: u8, id: &str, what: &str) -> Option<Result<u64, Refusal>> {
        if let Some(a) = self.core.accepted.get(&(seat, id.to_string())) {
            if a.what == what {
                return Some(Ok(a.version));
            }
            return Some(Err(Refusal::new(
                ErrorCode::DuplicateId,
                format!("the command id {id:?} was used for another command"),
            )));
        }
        if let Some(list) = self.refused.get(&seat) {
            if let Some((_, w, code, msg)) = list.iter().find(|(i, ..)| i == id) {
                if w == what {
                    return Some(Err(Refusal::new(*code, msg.clone())));
                }
                return Some(Err(Refusal::new(
                    ErrorCode::DuplicateId,
                    format!("the command id {id:?} was used for another command"),
                )));
            }
        }
        None
    }

    pub(super) fn remember_refusal(&mut self, seat: u8, id: &str, what: &str, r: &Refusal) {
        if matches!(r.code, ErrorCode::Internal | ErrorCode::DuplicateId) {
            return;
        }
        let list = self.refused.entry(seat).or_default();
        list.push_back((id.to_string(), what.to_string(), r.code, r.message.clone()));
        if list.len() > REFUSED_KEEP {
            list.pop_front();
        }
    }

    pub(super) fn valid_id(id: &str) -> Result<(), Refusal> {
        if id.is_empty() || id.chars().count() > 64 {
            return Err(Refusal::new(
                ErrorCode::BadRequest,
                "a command id has 1 to 64 characters",
            ));
        }
        Ok(())
    }

    pub(super) fn missed(&self, since: Option<u64>, viewer: Viewer) -> (Vec<VersionedEvent>, bool) {
        let Some(since) = since else {
            return (Vec::new(), false);
        };
        if since >= self.core.version {
            return (Vec::new(), since == self.core.version);
        }
        let oldest = self.ring.front().map_or(u64::MAX, |(v, _)| *v);
        if oldest > since + 1 {
            return (Vec::new(), false);
        }
        let list = self
            .ring
            .iter()
            .filter(|(v, _)| *v > since)
            .map(|(v, e)| VersionedEvent {
                version: *v,
                event: event_view(e, viewer),
            })
            .collect();
        (list, true)
    }
}
