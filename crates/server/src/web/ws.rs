//! The websocket: one per client, following the lobby or one table.

use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use fiveup_protocol::{
    ClientMsg, ErrorCode, ServerMsg, UserRef, HARD_FRAME_LIMIT, MAX_FRAME_BYTES, PROTOCOL_VERSION,
};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{broadcast, mpsc};

use crate::limiter::Bucket;
use crate::table::actor::{self, ClientCommand, Out, Outbox, TableCmd, TableHandle};
use crate::web::listen::ConnGuard;
use crate::{accounts, ApiError, App};

/// The message types a client may send.
const TYPES: [&str; 9] = [
    "lobby",
    "open",
    "act",
    "seed",
    "hint",
    "chat",
    "rematch",
    "ping",
    "tournament",
];

/// Whether a websocket upgrade's `Origin` is allowed: none (not a browser), the server's own
/// (its host equal to the `Host` header), or one of the allowed origins.
#[must_use]
pub fn origin_allowed(headers: &HeaderMap, allow: &[String]) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    if allow.iter().any(|a| a.eq_ignore_ascii_case(origin)) {
        return true;
    }
    let Some((_, host_part)) = origin.split_once("://") else {
        return false;
    };
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    !host.is_empty() && host_part.eq_ignore_ascii_case(host)
}

/// A websocket let in: the client's address, and behind a trusted proxy its place in the
/// per-client cap (held while the socket is open).
#[derive(Debug)]
pub struct Admitted(Option<IpAddr>, Option<Arc<ConnGuard>>);

/// Let a websocket in, or refuse it. Behind a trusted proxy every client comes from the
/// proxy's address, which has no cap: the websockets are counted per client address the proxy
/// names instead (a relay from another instance names its client too), `/ws` and the bot
/// websocket alike.
pub fn admit(
    app: &App,
    peer: Option<axum::Extension<ConnectInfo<SocketAddr>>>,
    headers: &HeaderMap,
) -> Result<Admitted, ApiError> {
    let trusted = &app.cfg.trusted_proxies;
    let peer = peer.map(|p| (p.0).0);
    let client = peer.map(|p| crate::web::listen::client_ip(p.ip(), headers, trusted));
    let mut forwarded = None;
    if let (Some(peer), Some(client)) = (peer, client) {
        if trusted.contains(&peer.ip()) {
            match app.forwarded_conns.admit(client, trusted.contains(&client)) {
                Some(g) => forwarded = Some(g),
                None => {
                    return Err(ApiError::new(
                        ErrorCode::RateLimited,
                        format!(
                            "too many open connections from your address (at most {}): close \
                             some first",
                            app.cfg.max_conns_per_addr
                        ),
                    ))
                }
            }
        }
    }
    Ok(Admitted(client, forwarded))
}

/// `GET /ws`.
pub async fn upgrade(
    ws: WebSocketUpgrade,
    State(app): State<Arc<App>>,
    guard: Option<axum::Extension<Arc<ConnGuard>>>,
    peer: Option<axum::Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
) -> Response {
    if !origin_allowed(&headers, &app.cfg.allow_origins) {
        return ApiError::new(
            ErrorCode::BadOrigin,
            "websockets are only accepted from this server's own pages",
        )
        .into_response();
    }
    let Admitted(client, forwarded) = match admit(&app, peer, &headers) {
        Ok(a) => a,
        Err(refused) => return refused.into_response(),
    };
    let user = match accounts::user_of(&app.db, &headers).await {
        Ok(u) => u,
        Err(e) => return e.into_response(),
    };
    let token = user
        .as_ref()
        .and_then(|_| accounts::token_of(&headers))
        .map(|t| accounts::token_hash(&t));
    // The socket keeps its place in the per-address connection cap while it is open.
    let guard = guard.map(|g| g.0);
    // What a relay to another instance needs: the session cookie; and whether this socket is
    // itself a relay (never relayed again).
    let hand_on = HandOn {
        cookie: headers.get(header::COOKIE).cloned(),
        relayed: headers.contains_key(crate::web::relay::RELAYED),
        client,
        bot: None,
        auth: None,
    };
    accept(ws, app, user, token, hand_on, guard, forwarded)
}

/// A bot's websocket (`GET /api/bot/ws`, let in by [`admit`] and authenticated by
/// [`crate::bots`]): the same connection as a person's, with the bot's account and token,
/// limited to what a bot may send.
pub fn accept_bot(
    ws: WebSocketUpgrade,
    app: Arc<App>,
    user: UserRef,
    (token_hash, token_id): (String, i64),
    headers: &HeaderMap,
    guard: Option<Arc<ConnGuard>>,
    Admitted(client, forwarded): Admitted,
) -> Response {
    let hand_on = HandOn {
        cookie: None,
        relayed: headers.contains_key(crate::web::relay::RELAYED),
        client,
        bot: Some(token_id),
        auth: headers.get(header::AUTHORIZATION).cloned(),
    };
    accept(
        ws,
        app,
        Some(user),
        Some(token_hash),
        hand_on,
        guard,
        forwarded,
    )
}

fn accept(
    ws: WebSocketUpgrade,
    app: Arc<App>,
    user: Option<UserRef>,
    token: Option<String>,
    hand_on: HandOn,
    guard: Option<Arc<ConnGuard>>,
    forwarded: Option<Arc<ConnGuard>>,
) -> Response {
    ws.max_message_size(HARD_FRAME_LIMIT)
        .max_frame_size(HARD_FRAME_LIMIT)
        // Client messages are small: a small read buffer keeps each read cheap.
        .read_buffer_size(MAX_FRAME_BYTES)
        // A batch of queued messages is written with one flush (`FLUSH_BYTES`): buffering
        // more before writing gains nothing, and a client that does not read would hold it.
        .write_buffer_size(FLUSH_BYTES)
        // At most one message waits in the socket's own buffer: the queue before it is
        // bounded in bytes (see `Outbox`).
        .max_write_buffer_size(HARD_FRAME_LIMIT.max(MAX_FRAME_BYTES) * 64)
        .on_upgrade(move |socket| async move {
            connection(socket, app, user, token, hand_on).await;
            drop(guard);
            drop(forwarded);
        })
}

/// How a websocket is handed on to the instance running its table.
#[derive(Clone, Debug)]
struct HandOn {
    cookie: Option<axum::http::HeaderValue>,
    relayed: bool,
    /// The client's address (named to the owner in `X-Forwarded-For`).
    client: Option<IpAddr>,
    /// For a bot's socket: the id of the bot token it was opened with.
    bot: Option<i64>,
    /// For a bot's socket: its `Authorization` header (a relay signs in with it).
    auth: Option<axum::http::HeaderValue>,
}

/// Where a followed table runs.
enum Target {
    /// Here.
    Local(TableHandle),
    /// On another instance, through a relay taking the client's messages as they came.
    Remote(mpsc::Sender<Arc<str>>),
}

struct Following {
    id: String,
    target: Target,
    rx: mpsc::Receiver<Out>,
    bytes: Arc<AtomicUsize>,
    last: u64,
}

async fn next_out(t: &mut Option<Following>) -> Option<Out> {
    match t {
        Some(f) => f.rx.recv().await,
        None => std::future::pending().await,
    }
}

async fn next_lobby(
    l: &mut Option<broadcast::Receiver<Arc<str>>>,
) -> Result<Arc<str>, broadcast::error::RecvError> {
    match l {
        Some(r) => r.recv().await,
        None => std::future::pending().await,
    }
}

fn error(id: Option<String>, code: ErrorCode, message: impl Into<String>) -> Arc<str> {
    crate::to_json(&ServerMsg::Error {
        id,
        code,
        message: message.into(),
        version: None,
    })
}

fn lobby_msg(app: &App) -> Arc<str> {
    let (tables, total) = app.hub.lobby(0, app.cfg.lobby_limit);
    crate::to_json(&ServerMsg::Lobby { tables, total })
}

async fn subscribe(
    app: &Arc<App>,
    conn: u64,
    user: Option<&UserRef>,
    hand_on: &HandOn,
    id: &str,
    since: Option<u64>,
) -> Result<Following, ApiError> {
    // A duplicate board's table shows the deal every other entrant is still to play.
    if !crate::tournament::boards::visible(app, id, user.map(|u| u.id))
        .await
        .map_err(ApiError::internal)?
    {
        return Err(ApiError::new(
            ErrorCode::NoSuchTable,
            crate::tournament::api::BOARD_HIDDEN,
        ));
    }
    // While a table changes hands (its owner stopped or died), it is looked for until its
    // lease has run out and another instance (maybe this one) has taken it.
    let deadline = tokio::time::Instant::now()
        + app.cfg.lease
        + std::time::Duration::from_secs(if app.cluster.is_some() { 10 } else { 0 });
    let mut closed = 0;
    let mut told = false;
    // A finished table's task may just have left memory: then it is loaded again.
    while closed < 2 {
        let handle = match actor::find(app, id).await? {
            actor::Found::Local(h) => h,
            actor::Found::Remote { owner, addr } => {
                if hand_on.relayed {
                    return Err(ApiError::new(
                        ErrorCode::ShuttingDown,
                        format!("table {id} runs on instance {owner}"),
                    ));
                }
                if let Some(addr) = addr {
                    let credential = match &hand_on.auth {
                        Some(a) => ("authorization", Some(a)),
                        None => ("cookie", hand_on.cookie.as_ref()),
                    };
                    match crate::web::relay::open_with(
                        app,
                        &addr,
                        credential,
                        hand_on.client,
                        id,
                        since,
                    )
                    .await
                    {
                        Ok(r) => {
                            return Ok(Following {
                                id: id.to_string(),
                                target: Target::Remote(r.tx),
                                rx: r.rx,
                                bytes: r.bytes,
                                last: since.unwrap_or(0),
                            })
                        }
                        Err(e) => {
                            if !told {
                                told = true;
                                crate::log(&format!(
                                    "table {id}: cannot reach {owner} ({e}); waiting for it or \
                                     for its lease to run out"
                                ));
                            }
                        }
                    }
                }
                if tokio::time::Instant::now() >= deadline {
                    break;
                }
                tokio::time::sleep(std::time::Duration::from_millis(200)).await;
                continue;
            }
        };
        let (tx, rx, bytes) = Outbox::new(app.cfg.ws_queue_bytes);
        let cmd = TableCmd::Subscribe {
            conn,
            user: user.cloned(),
            since,
            tx,
        };
        if handle.tx.send(cmd).await.is_ok() {
            return Ok(Following {
                id: id.to_string(),
                target: Target::Local(handle),
                rx,
                bytes,
                last: since.unwrap_or(0),
            });
        }
        closed += 1;
    }
    Err(ApiError::new(
        ErrorCode::ShuttingDown,
        "the table is closing",
    ))
}

async fn unsubscribe(t: &mut Option<Following>, conn: u64) {
    if let Some(f) = t.take() {
        // A relay ends when its sender is dropped.
        if let Target::Local(h) = f.target {
            let _ = h.tx.send(TableCmd::Unsubscribe { conn }).await;
        }
    }
}

/// Counts an open websocket in the metrics while it lives.
struct Counted(prometheus::IntGauge);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.dec();
    }
}

/// The most bytes of queued messages written with one flush.
const FLUSH_BYTES: usize = 64 * 1024;

/// Why a connection ends.
enum End {
    /// The client went away (or the socket failed): nothing more to say.
    Gone,
    /// Close with this code and reason.
    Close(u16, &'static str),
}

/// Write one message within the write timeout.
async fn write(
    sink: &mut futures_util::stream::SplitSink<WebSocket, Message>,
    msg: Message,
    timeout: std::time::Duration,
) -> Result<(), End> {
    match tokio::time::timeout(timeout, sink.send(msg)).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(_)) => Err(End::Gone),
        // The client does not read: its buffer stays full.
        Err(_) => Err(End::Gone),
    }
}

/// The close code for a read error: too large (1009), not UTF-8 (1007), else a protocol
/// error (1002).
fn close_for(e: &axum::Error) -> (u16, &'static str) {
    let text = format!("{e:?} {e}").to_ascii_lowercase();
    if text.contains("capacity") || text.contains("too long") || text.contains("too big") {
        (1009, "message too large")
    } else if text.contains("utf") {
        (1007, "text is not UTF-8")
    } else {
        (1002, "protocol error")
    }
}

#[allow(clippy::too_many_lines)]
async fn connection(
    socket: WebSocket,
    app: Arc<App>,
    user: Option<UserRef>,
    token: Option<String>,
    hand_on: HandOn,
) {
    let conn = app.next_conn.fetch_add(1, Ordering::Relaxed);
    app.metrics.connections.inc();
    let _counted = Counted(app.metrics.connections.clone());
    let (mut sink, mut stream) = socket.split();
    let wt = app.cfg.ws_write_timeout;
    let welcome = crate::to_json(&ServerMsg::Welcome {
        protocol: PROTOCOL_VERSION,
        user: user.clone(),
    });
    if write(&mut sink, Message::Text(Utf8Bytes::from(&*welcome)), wt)
        .await
        .is_err()
    {
        return;
    }
    let mut bucket = Bucket::new(app.cfg.ws_rate.0, app.cfg.ws_rate.1);
    let mut table: Option<Following> = None;
    let mut lobby: Option<broadcast::Receiver<Arc<str>>> = None;
    let mut shutdown = app.shutdown.clone();
    let mut revoked = app.revoked.subscribe();
    // Tournament news: this person's tables, and the event followed.
    let mut notes = app.tournaments.notes.subscribe();
    let mut tour: Option<String> = None;
    // Keepalive: a ping after `ws_ping` without a word from the client; a client silent for
    // two periods is gone.
    let ping_every = app.cfg.ws_ping;
    let mut heard = tokio::time::Instant::now();
    let mut ticker = tokio::time::interval_at(heard + ping_every, ping_every);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let end: End = loop {
        let reply: Option<Arc<str>> = tokio::select! {
            m = stream.next() => {
                heard = tokio::time::Instant::now();
                let text = match m {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Binary(_))) => {
                        let e = error(None, ErrorCode::BadJson, "messages are JSON text");
                        if let Err(end) = write(&mut sink, Message::Text(Utf8Bytes::from(&*e)), wt).await {
                            break end;
                        }
                        continue;
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_))) | None => break End::Gone,
                    Some(Err(e)) => {
                        let (code, reason) = close_for(&e);
                        break End::Close(code, reason);
                    }
                };
                handle_text(&app, conn, user.as_ref(), &hand_on, &mut bucket, &mut table, &mut lobby, &mut tour, text.as_str()).await
            }
            out = next_out(&mut table) => match out {
                Some((v, text)) => {
                    if let Some(f) = table.as_mut() {
                        // Everything queued goes out with one flush (an `event` and its `ack`
                        // usually leave together): one system call instead of one each.
                        f.last = f.last.max(v);
                        let mut n = text.len();
                        let batch = async {
                            sink.feed(Message::Text(Utf8Bytes::from(&*text))).await?;
                            while n < FLUSH_BYTES {
                                let Ok((v, more)) = f.rx.try_recv() else { break };
                                f.last = f.last.max(v);
                                n += more.len();
                                sink.feed(Message::Text(Utf8Bytes::from(&*more))).await?;
                            }
                            sink.flush().await
                        };
                        let r = match tokio::time::timeout(wt, batch).await {
                            Ok(Ok(())) => Ok(()),
                            _ => Err(End::Gone),
                        };
                        Outbox::written(&f.bytes, n);
                        if let Err(end) = r {
                            break end;
                        }
                    }
                    None
                }
                None => {
                    // The table dropped us (we fell behind) or stopped: follow it again from
                    // the last version we passed on.
                    let (id, last) = table.as_ref().map(|f| (f.id.clone(), f.last)).unwrap_or_default();
                    table = None;
                    match subscribe(&app, conn, user.as_ref(), &hand_on, &id, Some(last)).await {
                        Ok(f) => { table = Some(f); None }
                        // A relay whose table moved on: the relaying instance finds it again.
                        Err(_) if hand_on.relayed => break End::Close(1012, "table moved"),
                        // The table is changing hands and could not be found in time: the
                        // client reconnects (through the proxy) and opens it again.
                        Err(e) if e.code == ErrorCode::ShuttingDown => {
                            let e = error(None, e.code, e.message);
                            let _ = write(&mut sink, Message::Text(Utf8Bytes::from(&*e)), wt).await;
                            break End::Close(1012, "table moving");
                        }
                        Err(e) => Some(error(None, e.code, e.message)),
                    }
                }
            },
            l = next_lobby(&mut lobby) => match l {
                Ok(text) => Some(text),
                Err(broadcast::error::RecvError::Lagged(_)) => Some(lobby_msg(&app)),
                Err(broadcast::error::RecvError::Closed) => { lobby = None; None }
            },
            n = notes.recv() => match n {
                Ok(crate::tournament::Note::Table { users, text }) => {
                    user.as_ref().filter(|u| users.contains(&u.id)).map(|_| text)
                }
                Ok(crate::tournament::Note::Event { id, text }) => {
                    (tour.as_deref() == Some(&*id)).then_some(text)
                }
                Err(_) => None,
            },
            _ = ticker.tick() => {
                if heard.elapsed() >= ping_every * 2 {
                    break End::Close(1001, "no answer to ping");
                }
                if heard.elapsed() >= ping_every {
                    if let Err(end) = write(&mut sink, Message::Ping(axum::body::Bytes::new()), wt).await {
                        break end;
                    }
                }
                None
            }
            r = revoked.recv() => match r {
                Ok(h) if token.as_deref() == Some(h.trim_end_matches(crate::moderation::actions::BANNED)) => {
                    // A ban ends every session of the person (and their bots' tokens): the
                    // connection says why before it closes.
                    let banned = h.ends_with(crate::moderation::actions::BANNED);
                    let e = if banned {
                        error(None, ErrorCode::Banned, "your account was closed by a moderator: this connection is closed")
                    } else {
                        error(None, ErrorCode::NotLoggedIn, if hand_on.bot.is_some() {
                            "the bot token was revoked: this connection is closed"
                        } else {
                            "you logged out: this connection is closed"
                        })
                    };
                    let _ = write(&mut sink, Message::Text(Utf8Bytes::from(&*e)), wt).await;
                    break End::Close(1008, if banned { "account closed" } else { "logged out" });
                }
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => None,
                Err(broadcast::error::RecvError::Closed) => None,
            },
            r = shutdown.changed() => {
                let stop = r.is_err() || *shutdown.borrow();
                if !stop {
                    continue;
                }
                let e = error(None, ErrorCode::ShuttingDown, "the server is restarting; reconnect shortly");
                let _ = write(&mut sink, Message::Text(Utf8Bytes::from(&*e)), wt).await;
                break End::Close(1012, "restarting");
            }
        };
        if let Some(text) = reply {
            if let Err(end) = write(&mut sink, Message::Text(Utf8Bytes::from(&*text)), wt).await {
                break end;
            }
        }
    };
    if let End::Close(code, reason) = end {
        let _ = write(
            &mut sink,
            Message::Close(Some(CloseFrame {
                code,
                reason: Utf8Bytes::from_static(reason),
            })),
            wt,
        )
        .await;
    }
    unsubscribe(&mut table, conn).await;
}

#[allow(clippy::too_many_arguments)]
async fn handle_text(
    app: &Arc<App>,
    conn: u64,
    user: Option<&UserRef>,
    hand_on: &HandOn,
    bucket: &mut Bucket,
    table: &mut Option<Following>,
    lobby: &mut Option<broadcast::Receiver<Arc<str>>>,
    tour: &mut Option<String>,
    text: &str,
) -> Option<Arc<str>> {
    if text.len() > MAX_FRAME_BYTES {
        return Some(error(
            None,
            ErrorCode::FrameTooLarge,
            format!(
                "a message may have at most {MAX_FRAME_BYTES} bytes, this one has {}",
                text.len()
            ),
        ));
    }
    let value: Result<serde_json::Value, _> = serde_json::from_str(text);
    let id = value
        .as_ref()
        .ok()
        .and_then(|v| v.get("id"))
        .and_then(|v| v.as_str())
        .map(str::to_string);
    if !bucket.take(Instant::now()) {
        // With the command's id, so that the client knows which command was dropped.
        return Some(error(
            id,
            ErrorCode::RateLimited,
            "too many messages; this one was dropped",
        ));
    }
    let value = match value {
        Ok(v) => v,
        Err(e) => return Some(error(None, ErrorCode::BadJson, format!("not JSON: {e}"))),
    };
    let Some(kind) = value
        .get("type")
        .and_then(|t| t.as_str())
        .map(str::to_string)
    else {
        return Some(error(
            id,
            ErrorCode::BadJson,
            "a message is a JSON object with a \"type\"",
        ));
    };
    if !TYPES.contains(&kind.as_str()) {
        return Some(error(
            id,
            ErrorCode::UnknownType,
            format!(
                "unknown message type {kind:?}; types are {}",
                TYPES.join(", ")
            ),
        ));
    }
    if let Some(token_id) = hand_on.bot {
        if let Some(refused) = crate::bots::refuse_message(app, token_id, &kind) {
            return Some(error(id, refused.code, refused.message));
        }
    }
    let msg: ClientMsg = match serde_json::from_value(value) {
        Ok(m) => m,
        Err(e) => {
            return Some(error(
                id,
                ErrorCode::BadJson,
                format!("bad {kind} message: {e}"),
            ))
        }
    };
    let cmd = match msg {
        ClientMsg::Ping => return Some(crate::to_json(&ServerMsg::Pong)),
        ClientMsg::Tournament { tournament } => {
            if tournament.is_empty() {
                *tour = None;
                return None;
            }
            return match crate::tournament::api::summary(app, &tournament).await {
                Ok(m) => {
                    *tour = Some(tournament);
                    Some(m)
                }
                Err(e) => Some(error(None, e.code, e.message)),
            };
        }
        ClientMsg::Lobby => {
            unsubscribe(table, conn).await;
            *lobby = Some(app.hub.lobby_tx.subscribe());
            return Some(lobby_msg(app));
        }
        ClientMsg::Open { table: tid, since } => {
            *lobby = None;
            unsubscribe(table, conn).await;
            return match subscribe(app, conn, user, hand_on, &tid, since).await {
                Ok(f) => {
                    *table = Some(f);
                    None
                }
                Err(e) => Some(error(None, e.code, e.message)),
            };
        }
        ClientMsg::Act {
            id,
            version,
            action,
        } => ClientCommand::Act {
            id,
            version,
            action,
        },
        ClientMsg::Seed { id, hand, seed } => ClientCommand::Seed { id, hand, seed },
        ClientMsg::Hint { id } => ClientCommand::Hint { id },
        ClientMsg::Chat { text } => ClientCommand::Chat { text },
        ClientMsg::Rematch { id } => ClientCommand::Rematch { id },
    };
    let Some(f) = table.as_ref() else {
        return Some(error(
            id,
            ErrorCode::BadRequest,
            "open a table first (an \"open\" message)",
        ));
    };
    if user.is_none() {
        return Some(error(
            id,
            ErrorCode::NotLoggedIn,
            "log in or play as a guest to take part",
        ));
    }
    let sent = match &f.target {
        Target::Local(h) => {
            h.tx.send(TableCmd::Client {
                conn,
                user: user.cloned(),
                msg: cmd,
            })
            .await
            .is_ok()
        }
        // The owner checks the message again, as it came.
        Target::Remote(tx) => tx.send(Arc::from(text)).await.is_ok(),
    };
    if !sent {
        return Some(error(id, ErrorCode::ShuttingDown, "the table is closing"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins() {
        let mut h = HeaderMap::new();
        assert!(origin_allowed(&h, &[]));
        h.insert(header::HOST, "127.0.0.1:8080".parse().unwrap());
        h.insert(header::ORIGIN, "http://127.0.0.1:8080".parse().unwrap());
        assert!(origin_allowed(&h, &[]));
        h.insert(header::ORIGIN, "https://evil.example".parse().unwrap());
        assert!(!origin_allowed(&h, &[]));
        assert!(origin_allowed(&h, &["https://evil.example".to_string()]));
        h.insert(header::ORIGIN, "null".parse().unwrap());
        assert!(!origin_allowed(&h, &[]));
    }
}
