//! Sending the queued push messages (`push_outbox`), in a task of its own: the timers'
//! scheduler never waits on a push service.
//!
//! Each message is claimed (so that two instances do not both send it) and sent on a task of
//! its own, to each of its person's subscriptions at once. Sends are bounded per push service
//! host ([`PER_HOST`]) and in all ([`IN_FLIGHT`]), a host's permit taken before one of the
//! whole: a host that never answers holds its own few permits for [`push_timeout`] each and
//! delays no other host's messages. A message is deleted once every subscription answered for
//! good (the subscriptions served are kept with it, so that a retry does not send to them
//! again), and tried again after [`RETRY`] seconds otherwise; it gives up after a day (the push
//! services' own limit).
//!
//! A subscription whose push service does not answer (no connection, a timeout, 429 or 5xx)
//! backs off: it is skipped for [`BACKOFF_FIRST`] seconds, doubling with each failure in a row
//! up to [`BACKOFF_MAX`]; one whose every try has failed for [`DROP_AFTER`] seconds is deleted
//! at its next failure, as is one answered 404 or 410, or one whose endpoint breaks the rules
//! of [`push::check`].
//!
//! [`push_timeout`]: super::Settings::push_timeout

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use sqlx::Row as _;
use tokio::sync::{Notify, Semaphore};

use super::{clock, push, settings};
use crate::store::db;
use crate::App;

/// Sends at once to one push service host.
pub const PER_HOST: usize = 4;
/// Sends at once in all.
pub const IN_FLIGHT: usize = 64;
/// Messages being sent at once (each to all its person's subscriptions).
pub const MESSAGES_IN_FLIGHT: usize = 1000;
/// Seconds before a claimed message is tried again (a push service did not answer, or the
/// process stopped while sending).
pub const RETRY: i64 = 60;
/// Seconds a subscription is skipped after its first failure in a row (doubling with each).
pub const BACKOFF_FIRST: i64 = 60;
/// The longest a subscription is skipped after a failure.
pub const BACKOFF_MAX: i64 = clock::HOUR;
/// A subscription whose every try failed for this long is deleted at its next failure.
pub const DROP_AFTER: i64 = clock::DAY;

/// The deliveries under way and their limits.
#[derive(Debug)]
pub struct Deliveries {
    /// A semaphore of [`PER_HOST`] permits per host with sends under way or waiting.
    hosts: Mutex<HashMap<String, Arc<Semaphore>>>,
    /// [`IN_FLIGHT`] permits.
    all: Arc<Semaphore>,
    /// The messages being sent.
    messages: Mutex<HashSet<i64>>,
    /// Woken when a message is queued.
    queued: Notify,
}

impl Default for Deliveries {
    fn default() -> Deliveries {
        Deliveries {
            hosts: Mutex::default(),
            all: Arc::new(Semaphore::new(IN_FLIGHT)),
            messages: Mutex::default(),
            queued: Notify::new(),
        }
    }
}

impl Deliveries {
    /// A message was queued: send it now rather than at the next tick.
    pub fn wake(&self) {
        self.queued.notify_one();
    }

    fn host(&self, host: &str) -> Arc<Semaphore> {
        let mut hosts = self.hosts.lock().expect("not poisoned");
        // Forget the hosts with nothing under way (only this map holds their semaphore).
        if hosts.len() > 256 {
            hosts.retain(|_, s| Arc::strong_count(s) > 1);
        }
        hosts
            .entry(host.to_string())
            .or_insert_with(|| Arc::new(Semaphore::new(PER_HOST)))
            .clone()
    }

    /// Mark a message as being sent, unless it is already or too many are.
    fn start(&self, id: i64) -> bool {
        let mut m = self.messages.lock().expect("not poisoned");
        m.len() < MESSAGES_IN_FLIGHT && m.insert(id)
    }

    fn room(&self) -> usize {
        MESSAGES_IN_FLIGHT.saturating_sub(self.messages.lock().expect("not poisoned").len())
    }
}

/// Forgets a message being sent when its task ends, however it ends.
struct Sending {
    app: Arc<App>,
    id: i64,
}

impl Drop for Sending {
    fn drop(&mut self) {
        self.app
            .corr
            .deliveries
            .messages
            .lock()
            .expect("not poisoned")
            .remove(&self.id);
    }
}

/// Start the delivery task: at every tick, and whenever a message is queued, it claims the
/// messages due and starts sending each.
pub fn start(app: &Arc<App>) {
    let app = app.clone();
    tokio::spawn(async move {
        let mut shutdown = app.shutdown.clone();
        loop {
            tokio::select! {
                () = tokio::time::sleep(settings(&app).tick) => {}
                () = app.corr.deliveries.queued.notified() => {}
                _ = shutdown.changed() => return,
            }
            if *shutdown.borrow() {
                return;
            }
            if let Err(e) = deliver(&app).await {
                if !*shutdown.borrow() {
                    crate::log(&format!("push messages: {e}"));
                }
            }
        }
    });
}

/// A message claimed for sending.
struct Message {
    id: i64,
    user: i64,
    class: String,
    topic: String,
    payload: String,
    created_at: i64,
    /// The subscriptions it was sent to, or that refused it for good.
    done: Vec<i64>,
}

/// Claim the messages due (not claimed, or claimed [`RETRY`] seconds ago and not done) and
/// start sending each on a task of its own; returns how many were started.
pub async fn deliver(app: &Arc<App>) -> Result<usize, String> {
    let deliveries = &app.corr.deliveries;
    let room = deliveries.room().min(200);
    if room == 0 {
        return Ok(0);
    }
    let now = app.cfg.clock.now();
    let rows = sqlx::query(
        "SELECT id, user_id, kind, topic, payload, created_at, done FROM push_outbox \
         WHERE claimed_at IS NULL OR claimed_at < $1 ORDER BY id LIMIT $2",
    )
    .bind(now - RETRY)
    .bind(i64::try_from(room).unwrap_or(200))
    .fetch_all(&app.db.pool)
    .await
    .map_err(db::db_err)?;
    let mut started = 0;
    for r in &rows {
        let id = db::int(r, "id")?;
        if !deliveries.start(id) {
            continue;
        }
        let sending = Sending {
            app: app.clone(),
            id,
        };
        let claimed = sqlx::query(
            "UPDATE push_outbox SET claimed_at = $1 WHERE id = $2 \
             AND (claimed_at IS NULL OR claimed_at < $3)",
        )
        .bind(now)
        .bind(id)
        .bind(now - RETRY)
        .execute(&app.db.pool)
        .await
        .map_err(db::db_err)?;
        if claimed.rows_affected() != 1 {
            continue;
        }
        let m = Message {
            id,
            user: db::int(r, "user_id")?,
            class: db::text(r, "kind")?,
            topic: db::text(r, "topic")?,
            payload: db::text(r, "payload")?,
            created_at: db::int(r, "created_at")?,
            done: db::text(r, "done")?
                .split(',')
                .filter_map(|s| s.parse().ok())
                .collect(),
        };
        started += 1;
        tokio::spawn(async move {
            let app = sending.app.clone();
            if let Err(e) = send_message(&app, m).await {
                if !*app.shutdown.borrow() {
                    crate::log(&format!("a push message: {e}"));
                }
            }
            drop(sending);
        });
    }
    Ok(started)
}

/// A subscription as stored, with its failures.
struct Sub {
    id: i64,
    sub: push::Subscription,
    failures: i64,
    failing_since: Option<i64>,
    retry_at: i64,
}

/// A person's subscriptions that take a kind of message.
async fn subscriptions(app: &App, user: i64, class: &str) -> Result<Vec<Sub>, String> {
    let rows = sqlx::query(
        "SELECT id, endpoint, p256dh, auth, kinds, failures, failing_since, retry_at \
         FROM push_subscriptions WHERE user_id = $1",
    )
    .bind(user)
    .fetch_all(&app.db.pool)
    .await
    .map_err(db::db_err)?;
    let mut subs = Vec::new();
    for r in &rows {
        let kinds = db::text(r, "kinds")?;
        if kinds.split(',').any(|k| k == class) {
            subs.push(Sub {
                id: db::int(r, "id")?,
                sub: push::Subscription {
                    endpoint: db::text(r, "endpoint")?,
                    keys: push::Keys {
                        p256dh: db::text(r, "p256dh")?,
                        auth: db::text(r, "auth")?,
                    },
                },
                failures: db::int(r, "failures")?,
                failing_since: r
                    .try_get::<Option<i64>, _>("failing_since")
                    .map_err(db::db_err)?,
                retry_at: db::int(r, "retry_at")?,
            });
        }
    }
    Ok(subs)
}

/// Send one message within the limits, to every subscription of its person not served yet and
/// not backing off, all at once; then keep what is done with it or delete it.
async fn send_message(app: &Arc<App>, mut m: Message) -> Result<(), String> {
    let payload: push::Payload = serde_json::from_str(&m.payload).map_err(|e| e.to_string())?;
    let now = app.cfg.clock.now();
    let mut pending = false;
    let mut sends = Vec::new();
    for sub in subscriptions(app, m.user, &m.class).await? {
        if m.done.contains(&sub.id) {
            continue;
        }
        if sub.retry_at > now {
            pending = true;
            continue;
        }
        sends.push(async {
            let sent = send_limited(app, &sub.sub, &payload, &m.topic).await;
            (sub, sent)
        });
    }
    let results = futures_util::future::join_all(sends).await;
    let now = app.cfg.clock.now();
    for (sub, sent) in results {
        match sent {
            Some(push::Sent::Delivered) => {
                app.corr
                    .delivered
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                m.done.push(sub.id);
                if sub.failures > 0 {
                    sqlx::query(
                        "UPDATE push_subscriptions SET failures = 0, failing_since = NULL, \
                         retry_at = 0 WHERE id = $1",
                    )
                    .bind(sub.id)
                    .execute(&app.db.pool)
                    .await
                    .map_err(db::db_err)?;
                }
            }
            Some(push::Sent::Refused) => m.done.push(sub.id),
            Some(push::Sent::Gone) => delete(app, sub.id).await?,
            Some(push::Sent::Retry) => pending |= !failed(app, &sub, now).await?,
            // Not sent: the server is stopping.
            None => pending = true,
        }
    }
    let expired = now - m.created_at > clock::DAY;
    if pending && !expired {
        let done: Vec<String> = m.done.iter().map(ToString::to_string).collect();
        sqlx::query("UPDATE push_outbox SET done = $1 WHERE id = $2")
            .bind(done.join(","))
            .bind(m.id)
            .execute(&app.db.pool)
            .await
            .map_err(db::db_err)?;
    } else {
        sqlx::query("DELETE FROM push_outbox WHERE id = $1")
            .bind(m.id)
            .execute(&app.db.pool)
            .await
            .map_err(db::db_err)?;
    }
    Ok(())
}

/// Send to one subscription once a permit of its host and one of the whole are free; `None`
/// if the server stops meanwhile. An endpoint that breaks the rules (stored before them) is
/// gone.
async fn send_limited(
    app: &Arc<App>,
    sub: &push::Subscription,
    payload: &push::Payload,
    topic: &str,
) -> Option<push::Sent> {
    let s = settings(app);
    if push::check(sub, s.push_loopback).is_err() {
        return Some(push::Sent::Gone);
    }
    let host = sub
        .endpoint
        .parse::<hyper::Uri>()
        .ok()
        .and_then(|u| u.host().map(str::to_ascii_lowercase))
        .unwrap_or_default();
    let deliveries = &app.corr.deliveries;
    let mut shutdown = app.shutdown.clone();
    let sending = async {
        let _host = deliveries.host(&host).acquire_owned().await.ok()?;
        let _all = deliveries.all.clone().acquire_owned().await.ok()?;
        if *app.shutdown.borrow() {
            return None;
        }
        let c = &app.corr;
        Some(
            push::send(
                &c.client,
                &c.vapid,
                &s.contact,
                sub,
                payload,
                topic,
                s.push_timeout,
            )
            .await,
        )
    };
    tokio::select! {
        sent = sending => sent,
        _ = shutdown.wait_for(|stop| *stop) => None,
    }
}

async fn delete(app: &App, id: i64) -> Result<(), String> {
    sqlx::query("DELETE FROM push_subscriptions WHERE id = $1")
        .bind(id)
        .execute(&app.db.pool)
        .await
        .map_err(db::db_err)?;
    Ok(())
}

/// How long a subscription is skipped after its `failures`th failure in a row.
#[must_use]
pub fn backoff(failures: i64) -> i64 {
    let doublings = u32::try_from(failures.clamp(1, 16) - 1).unwrap_or(0);
    (BACKOFF_FIRST << doublings).min(BACKOFF_MAX)
}

/// A push service did not answer: back off, or drop a subscription failing for a day (then
/// `true`).
async fn failed(app: &App, sub: &Sub, now: i64) -> Result<bool, String> {
    if sub
        .failing_since
        .is_some_and(|since| now - since >= DROP_AFTER)
    {
        delete(app, sub.id).await?;
        return Ok(true);
    }
    sqlx::query(
        "UPDATE push_subscriptions SET failures = failures + 1, \
         failing_since = COALESCE(failing_since, $1), retry_at = $2 WHERE id = $3",
    )
    .bind(now)
    .bind(now + backoff(sub.failures + 1))
    .bind(sub.id)
    .execute(&app.db.pool)
    .await
    .map_err(db::db_err)?;
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_an_hour() {
        let b: Vec<i64> = (1..=8).map(backoff).collect();
        assert_eq!(b, [60, 120, 240, 480, 960, 1920, 3600, 3600]);
        assert_eq!(backoff(1000), 3600);
    }
}
