//! Handing clients on to the instance that runs their table (several instances only).
//!
//! The proxy may send a client to any instance. An instance that does not run the table a
//! client asks for relays: a table's websocket traffic goes over a websocket of its own to the
//! owner (the client's session cookie with it), and table requests (`/api/tables/ID`, `join`,
//! `leave`) are forwarded over HTTP. The owner sees the relay as one more client. When the
//! owner stops or dies, the relay's connection ends and the client's instance finds the table
//! again (taking it itself once its lease has run out), so a client of a surviving instance
//! does not even reconnect.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{HeaderValue, Request, Uri};
use axum::response::{IntoResponse, Response};
use fiveup_protocol::ErrorCode;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use crate::table::actor::{Found, Out, Outbox};
use crate::{ApiError, App};

/// The header marking a request or websocket relayed by another instance (never relayed
/// again: a relay loop is impossible).
pub const RELAYED: &str = "x-fiveup-relayed";

/// The few fields of a server message the relay reads.
#[derive(Deserialize)]
struct Peek {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    version: Option<u64>,
    #[serde(default)]
    code: Option<ErrorCode>,
    #[serde(default)]
    id: Option<String>,
}

/// The most bytes a relay lets wait for its client before it stops reading from the owner.
/// The owner's messages are shared among its subscribers, a relay's are copies of its own: a
/// relay that read on for a client that does not would hold up to the owner's whole bound
/// (`ws_queue_bytes`, 1 MiB) of copies for it. Stopping instead leaves the messages at the
/// owner, where they are shared and bounded (the owner drops a subscriber too far behind, and
/// closes a socket whose writes stay blocked: the relay then ends).
pub const RELAY_QUEUE: usize = 32 * 1024;

/// How often a relay that stopped reading looks whether its client has caught up.
const RELAY_RECHECK: std::time::Duration = std::time::Duration::from_millis(50);

/// A table followed on another instance: commands go to `tx` (raw client messages), the
/// owner's messages come on `rx`.
#[derive(Debug)]
pub struct Remote {
    /// Client messages for the owner.
    pub tx: mpsc::Sender<Arc<str>>,
    /// The owner's messages.
    pub rx: mpsc::Receiver<Out>,
    /// The bytes of those waiting (given back as they are written, see [`Outbox::written`]).
    pub bytes: Arc<std::sync::atomic::AtomicUsize>,
}

/// Follow table `id` on the instance at `addr`: open a websocket there with the client's
/// cookie (a bot's: its `Authorization`, on the bot websocket), send `open`, and wait for its
/// snapshot. An error (the owner no longer runs the table, or cannot be reached) means: find
/// the table again.
pub async fn open(
    app: &Arc<App>,
    addr: &str,
    cookie: Option<&HeaderValue>,
    client: Option<std::net::IpAddr>,
    id: &str,
    since: Option<u64>,
) -> Result<Remote, String> {
    open_with(app, addr, ("cookie", cookie), client, id, since).await
}

/// [`open`] with the credential header given: `("cookie", ...)` on `/ws`, or
/// `("authorization", ...)` on the bot websocket.
pub async fn open_with(
    app: &Arc<App>,
    addr: &str,
    credential: (&str, Option<&HeaderValue>),
    client: Option<std::net::IpAddr>,
    id: &str,
    since: Option<u64>,
) -> Result<Remote, String> {
    let path = if credential.0 == "authorization" {
        "/api/bot/ws"
    } else {
        "/ws"
    };
    let mut req = format!("ws://{addr}{path}")
        .into_client_request()
        .map_err(|e| e.to_string())?;
    if let (name, Some(c)) = credential {
        if let Ok(name) = axum::http::HeaderName::from_bytes(name.as_bytes()) {
            req.headers_mut().insert(name, c.clone());
        }
    }
    // The owner counts the client's websockets by its address, as this instance does.
    if let Some(ip) = client.and_then(|ip| HeaderValue::from_str(&ip.to_string()).ok()) {
        req.headers_mut().insert("x-forwarded-for", ip);
    }
    let me = app.cluster.as_ref().map_or("", |c| c.name.as_str());
    req.headers_mut().insert(
        RELAYED,
        HeaderValue::from_str(me).unwrap_or(HeaderValue::from_static("1")),
    );
    // The relay's own connection takes a file descriptor as a client's does: it counts in
    // the cap on connections (not in any address's).
    let Some(slot) = app
        .conns
        .admit(std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED), true)
    else {
        return Err("too many open connections to relay one more".to_string());
    };
    // Small buffers: a relay reads a message at a time and writes a client's commands.
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(16 * 1024)
        .write_buffer_size(0);
    let connect = tokio_tungstenite::connect_async_with_config(req, Some(config), true);
    let (mut ws, _) = tokio::time::timeout(std::time::Duration::from_secs(3), connect)
        .await
        .map_err(|_| format!("{addr} does not answer"))?
        .map_err(|e| e.to_string())?;
    let open = serde_json::json!({"type": "open", "table": id, "since": since}).to_string();
    ws.send(Message::text(open))
        .await
        .map_err(|e| e.to_string())?;
    // Up to the snapshot: the welcome is the relay's own, an error means the owner moved.
    let first = loop {
        let m = tokio::time::timeout(std::time::Duration::from_secs(10), ws.next())
            .await
            .map_err(|_| format!("{addr} does not answer"))?;
        let Some(Ok(Message::Text(t))) = m else {
            if matches!(m, Some(Ok(Message::Ping(_) | Message::Pong(_)))) {
                continue;
            }
            return Err(format!("{addr} closed the relay"));
        };
        let peek: Peek = serde_json::from_str(&t).map_err(|e| e.to_string())?;
        match peek.kind.as_str() {
            "welcome" => {}
            "snapshot" => break (peek.version.unwrap_or(0), Arc::<str>::from(t.as_str())),
            _ => return Err(format!("{addr} answered {t}")),
        }
    };
    // What waits for the client is bounded in bytes: the relay stops reading at
    // `RELAY_QUEUE`, and a message that would pass the owner's bound ends the relay (the
    // client follows the table again from its last version), as it would lose its place at
    // the owner.
    let (out_tx, out_rx, bytes) = Outbox::new(app.cfg.ws_queue_bytes);
    let (cmd_tx, mut cmd_rx) = mpsc::channel::<Arc<str>>(64);
    let _ = out_tx.push(first.0, first.1);
    let relayed = app.metrics.relayed.clone();
    relayed.inc();
    let waiting = bytes.clone();
    tokio::spawn(async move {
        let mut recheck = tokio::time::interval(RELAY_RECHECK);
        recheck.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            // Read from the owner only while the client keeps up.
            let room = waiting.load(std::sync::atomic::Ordering::Relaxed) < RELAY_QUEUE;
            tokio::select! {
                _ = recheck.tick(), if !room => {}
                m = ws.next(), if room => {
                    let Some(Ok(m)) = m else { break };
                    let Message::Text(t) = m else { continue };
                    let Ok(peek) = serde_json::from_str::<Peek>(&t) else { continue };
                    // The owner stopping is the relay's business, not the client's: the
                    // client's instance finds the table again.
                    if peek.kind == "error" && peek.code == Some(ErrorCode::ShuttingDown)
                        && peek.id.is_none()
                    {
                        break;
                    }
                    let v = peek.version.unwrap_or(0);
                    if !out_tx.push(v, Arc::from(t.as_str())) {
                        break;
                    }
                }
                c = cmd_rx.recv() => {
                    let Some(c) = c else { break };
                    if ws.send(Message::text(c.to_string())).await.is_err() {
                        break;
                    }
                }
            }
        }
        let _ = ws.close(None).await;
        relayed.dec();
        drop(slot);
    });
    Ok(Remote {
        tx: cmd_tx,
        rx: out_rx,
        bytes,
    })
}

/// The table a request is about, for the requests answered by the table's task.
fn table_of(uri: &Uri) -> Option<&str> {
    let rest = uri
        .path()
        .strip_prefix("/api/tables/")
        .or_else(|| uri.path().strip_prefix("/api/bot/tables/"))?;
    let (id, tail) = rest.split_once('/').unwrap_or((rest, ""));
    (matches!(tail, "" | "join" | "leave") && !id.is_empty()).then_some(id)
}

/// Forward a table request to the instance running the table, if that is not this one; the
/// request back otherwise (to be answered here).
pub async fn forward_if_elsewhere(
    app: &Arc<App>,
    req: Request<Body>,
    client: Option<std::net::IpAddr>,
) -> Result<Response, Request<Body>> {
    if app.cluster.is_none() {
        return Err(req);
    }
    let Some(id) = table_of(req.uri()).map(str::to_string) else {
        return Err(req);
    };
    let relayed = req.headers().contains_key(RELAYED);
    let addr = match crate::table::actor::find(app, &id).await {
        Ok(Found::Remote { addr: Some(a), .. }) if !relayed => a,
        Ok(Found::Remote { .. }) => {
            return Ok(ApiError::new(
                ErrorCode::ShuttingDown,
                "the table is moving to another instance; try again in a moment",
            )
            .into_response())
        }
        // Here, or an error the handler gives.
        _ => return Err(req),
    };
    let (mut parts, body) = req.into_parts();
    let pq = parts
        .uri
        .path_and_query()
        .map_or_else(|| parts.uri.path().to_string(), ToString::to_string);
    let Ok(uri) = format!("http://{addr}{pq}").parse::<Uri>() else {
        return Ok(ApiError::internal(format!("bad instance address {addr}")).into_response());
    };
    parts.uri = uri;
    let me = app.cluster.as_ref().map_or("", |c| c.name.as_str());
    if let Ok(v) = HeaderValue::from_str(me) {
        parts.headers.insert(RELAYED, v);
    }
    if let Some(ip) = client {
        if let Ok(v) = HeaderValue::from_str(&ip.to_string()) {
            parts.headers.insert("x-forwarded-for", v);
        }
    }
    let client = hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
        .build_http::<Body>();
    let req = Request::from_parts(parts, body);
    match tokio::time::timeout(std::time::Duration::from_secs(30), client.request(req)).await {
        Ok(Ok(r)) => Ok(r.map(Body::new)),
        _ => Ok(ApiError::new(
            ErrorCode::ShuttingDown,
            "the instance running the table does not answer; try again in a moment",
        )
        .into_response()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_requests() {
        let t = |s: &str| table_of(&s.parse::<Uri>().unwrap()).map(str::to_string);
        assert_eq!(t("/api/tables/abc"), Some("abc".to_string()));
        assert_eq!(t("/api/tables/abc/join"), Some("abc".to_string()));
        assert_eq!(t("/api/tables/abc/leave"), Some("abc".to_string()));
        assert_eq!(t("/api/tables/abc/other"), None);
        assert_eq!(t("/api/tables"), None);
        assert_eq!(t("/api/bot/tables/abc/join"), Some("abc".to_string()));
        assert_eq!(t("/api/lobby"), None);
    }
}
