//! The accept loop: HTTP/1.1 connections with a header-read (and idle) timeout, a cap on
//! connections per client address and in all, and the client address of each request (the
//! socket's, or the one a trusted proxy reports in `X-Forwarded-For`).
//!
//! `axum::serve` sets no timeouts: a request header sent a byte at a time, or a connection that
//! never sends anything, stays open for ever. Here every connection serves through hyper's
//! HTTP/1 server with `header_read_timeout`, which runs whenever the connection waits for a
//! request head (the first one, and between keep-alive requests), so slow and idle sockets are
//! closed after [`crate::Config::header_timeout`].

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::http::{HeaderMap, Request};
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tower::ServiceExt as _;

/// The kernel send buffer of each connection, in bytes.
const SEND_BUFFER: usize = 256 * 1024;

/// Open connections per client address, and in all.
#[derive(Debug)]
pub struct ConnCounter {
    per_addr: usize,
    total_max: usize,
    /// Past this many connections (the cap less [`RESERVE_SHARE`] of it), an address holding
    /// [`TIGHT_PER_ADDR`] or more gets no more.
    tight: usize,
    open: Mutex<(HashMap<IpAddr, usize>, usize)>,
}

/// One open connection; dropping the last clone of it frees its place. A websocket keeps the
/// guard of the connection it was upgraded from.
#[derive(Debug)]
pub struct ConnGuard {
    counter: Arc<ConnCounter>,
    ip: IpAddr,
}

impl Drop for ConnGuard {
    fn drop(&mut self) {
        let mut o = self.counter.open.lock().expect("conn lock");
        o.1 = o.1.saturating_sub(1);
        if let Some(n) = o.0.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                o.0.remove(&self.ip);
            }
        }
    }
}

impl ConnCounter {
    /// At most `per_addr` connections from one address (`0`: no cap) and `total_max` in all.
    #[must_use]
    pub fn new(per_addr: usize, total_max: usize) -> Arc<ConnCounter> {
        Arc::new(ConnCounter {
            per_addr,
            total_max,
            tight: total_max - total_max / RESERVE_SHARE,
            open: Mutex::new((HashMap::new(), 0)),
        })
    }

    /// A place for a new connection from `ip`, if it is within the caps. `exempt` addresses
    /// (trusted proxies, which carry everyone's connections) have no per-address cap. The
    /// last places (a [`RESERVE_SHARE`] of the cap) are kept for addresses that hold fewer
    /// than [`TIGHT_PER_ADDR`] connections, so that a few addresses each at the per-address
    /// cap cannot take every place from the people coming next.
    #[must_use]
    pub fn admit(self: &Arc<Self>, ip: IpAddr, exempt: bool) -> Option<Arc<ConnGuard>> {
        let mut o = self.open.lock().expect("conn lock");
        if o.1 >= self.total_max {
            return None;
        }
        let tight = o.1 >= self.tight;
        let n = o.0.entry(ip).or_insert(0);
        if !exempt && self.per_addr > 0 && (*n >= self.per_addr || (tight && *n >= TIGHT_PER_ADDR))
        {
            if *n == 0 {
                o.0.remove(&ip);
            }
            return None;
        }
        *n += 1;
        o.1 += 1;
        Some(Arc::new(ConnGuard {
            counter: self.clone(),
            ip,
        }))
    }

    /// Connections open now.
    #[must_use]
    pub fn open(&self) -> usize {
        self.open.lock().expect("conn lock").1
    }
}

/// The client's address: the socket's, or, when the socket is a trusted proxy's, the last
/// address in `X-Forwarded-For` that is not itself a trusted proxy.
#[must_use]
pub fn client_ip(peer: IpAddr, headers: &HeaderMap, trusted: &[IpAddr]) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    let mut chain: Vec<IpAddr> = Vec::new();
    for v in headers.get_all("x-forwarded-for") {
        let Ok(s) = v.to_str() else { return peer };
        for part in s.split(',') {
            match part.trim().parse::<IpAddr>() {
                Ok(ip) => chain.push(ip),
                // A malformed list: trust none of it.
                Err(_) => return peer,
            }
        }
    }
    chain
        .into_iter()
        .rev()
        .find(|ip| !trusted.contains(ip))
        .unwrap_or(peer)
}

/// File descriptors kept for the server's own work when connections are capped: the database
/// pool, its listener and lock connections, SQLite's files, the runtime. Connections (clients'
/// and the relays' own to other instances) are refused before they would take these.
pub const FILE_RESERVE: u64 = 128;

/// The share of the connection cap kept for light addresses: a quarter.
pub const RESERVE_SHARE: usize = 4;

/// In the kept share, an address holding this many connections gets no more (a page's
/// connection and its websocket pass).
pub const TIGHT_PER_ADDR: usize = 2;

/// An open-file limit below this is unsafe for a public server: its connection cap (the limit
/// less [`FILE_RESERVE`]) is taken by a few hundred addresses at the per-address cap, a few
/// dozen at 1,024. The server warns at start (see [`file_limit_warning`]).
pub const FILES_WANTED: u64 = 65_536;

/// The warning for an open-file limit of `files` that could not be raised further, if it is
/// below [`FILES_WANTED`].
#[must_use]
pub fn file_limit_warning(files: u64, max_conns: usize, per_addr: usize) -> Option<String> {
    (files < FILES_WANTED).then(|| {
        let addrs = if per_addr > 0 {
            format!(
                " ({} addresses at {per_addr} each)",
                max_conns.div_ceil(per_addr)
            )
        } else {
            String::new()
        };
        format!(
            "WARNING: the open-file limit is {files} and cannot be raised (the hard limit): at \
             most {max_conns} connections, which a few addresses can take{addrs}; a quarter is \
             kept for addresses holding fewer than {TIGHT_PER_ADDR}. Set LimitNOFILE=1048576 in \
             the systemd unit (deploy/fiveup.service), `ulimit -Hn` in a shell, or the \
             container's nofile ulimit, to at least {FILES_WANTED}"
        )
    })
}

/// Raise the soft limit on open files to the hard limit where allowed; returns the limits
/// before and now (`None` where unknown).
#[must_use]
pub fn raise_file_limit() -> Option<(u64, u64)> {
    let (before, _) = rlimit::Resource::NOFILE.get().ok()?;
    let now = rlimit::increase_nofile_limit(u64::MAX).ok()?;
    Some((before, now))
}

/// The cap on open connections for an open-file limit of `files`: the limit less
/// [`FILE_RESERVE`], at least 64.
#[must_use]
pub fn max_conns(files: u64) -> usize {
    usize::try_from(files.saturating_sub(FILE_RESERVE).max(64)).unwrap_or(usize::MAX)
}

/// Serve `router` on `listener` until `stop` turns true; then stop accepting, let the requests
/// in flight finish (at most `grace`) and return.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    counter: Arc<ConnCounter>,
    trusted: Arc<Vec<IpAddr>>,
    header_timeout: Duration,
    mut stop: watch::Receiver<bool>,
) {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .keep_alive(true);
    // Every connection task holds a clone; when all are gone, every request has finished.
    let (done_tx, mut done_rx) = tokio::sync::mpsc::channel::<()>(1);
    loop {
        let (tcp, peer) = tokio::select! {
            r = listener.accept() => match r {
                Ok(c) => c,
                Err(e) => {
                    // Out of file descriptors (or another transient error): do not spin.
                    crate::log(&format!("accept failed: {e}"));
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = async { let _ = stop.wait_for(|s| *s).await; } => break,
        };
        let Some(guard) = counter.admit(peer.ip(), trusted.contains(&peer.ip())) else {
            // Over the cap: closed at once (dropping the socket).
            drop(tcp);
            continue;
        };
        // Small messages (an `ack` right after an `event`) must not wait for the client's
        // delayed TCP acknowledgement (Nagle's algorithm): up to 40 ms on Linux.
        let _ = tcp.set_nodelay(true);
        // A fixed send buffer (no autotuning up to megabytes): what a client does not read
        // backs up into the server's bounded queues, which drop it.
        let _ = socket2::SockRef::from(&tcp).set_send_buffer_size(SEND_BUFFER);
        let router = router.clone();
        let conn_guard = guard.clone();
        let service = hyper::service::service_fn(move |mut req: Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            req.extensions_mut().insert(conn_guard.clone());
            let r = router.clone();
            async move { Ok::<_, Infallible>(r.oneshot(req).await.unwrap_or_else(|e| match e {})) }
        });
        let conn = http
            .serve_connection(TokioIo::new(tcp), service)
            .with_upgrades();
        let mut stop_conn = stop.clone();
        let done = done_tx.clone();
        tokio::spawn(async move {
            let mut conn = std::pin::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                () = async { let _ = stop_conn.wait_for(|s| *s).await; } => {
                    // Finish the request in flight, then close.
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
            drop(guard);
            drop(done);
        });
    }
    drop(listener);
    drop(done_tx);
    let _ = tokio::time::timeout(Duration::from_secs(10), done_rx.recv()).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forwarded_for_is_trusted_only_from_proxies() {
        let proxy: IpAddr = "10.0.0.1".parse().unwrap();
        let mut h = HeaderMap::new();
        h.insert("x-forwarded-for", "1.2.3.4, 5.6.7.8".parse().unwrap());
        let other: IpAddr = "9.9.9.9".parse().unwrap();
        assert_eq!(client_ip(other, &h, &[proxy]), other);
        assert_eq!(
            client_ip(proxy, &h, &[proxy]),
            "5.6.7.8".parse::<IpAddr>().unwrap()
        );
        h.insert("x-forwarded-for", "garbage".parse().unwrap());
        assert_eq!(client_ip(proxy, &h, &[proxy]), proxy);
        assert_eq!(client_ip(proxy, &HeaderMap::new(), &[proxy]), proxy);
    }

    #[test]
    fn connections_are_capped_per_address() {
        let c = ConnCounter::new(2, 10);
        let ip: IpAddr = "1.1.1.1".parse().unwrap();
        let a = c.admit(ip, false).unwrap();
        let _b = c.admit(ip, false).unwrap();
        assert!(c.admit(ip, false).is_none());
        assert!(c.admit(ip, true).is_some());
        drop(a);
        let _c = c.admit(ip, false).unwrap();
        assert_eq!(c.open(), 2);
        let full = ConnCounter::new(0, 1);
        let _one = full.admit(ip, false).unwrap();
        assert!(full.admit("2.2.2.2".parse().unwrap(), false).is_none());
    }

    #[test]
    fn the_last_quarter_is_kept_for_light_addresses() {
        let c = ConnCounter::new(64, 100);
        let heavy: IpAddr = "1.1.1.1".parse().unwrap();
        let light: IpAddr = "2.2.2.2".parse().unwrap();
        let held: Vec<_> = (0..80).filter_map(|_| c.admit(heavy, false)).collect();
        assert_eq!(held.len(), 64);
        let more: Vec<_> = (0..20)
            .filter_map(|i| c.admit(IpAddr::from([3, 0, 0, i]), false))
            .collect();
        // 75 places taken by anyone; past them, two per address.
        assert_eq!(c.open(), 84);
        assert!(c.admit(heavy, false).is_none());
        let _l = (
            c.admit(light, false).unwrap(),
            c.admit(light, false).unwrap(),
        );
        assert!(c.admit(light, false).is_none());
        assert!(c.admit(heavy, true).is_some());
        drop((held, more));
    }

    #[test]
    fn a_low_file_limit_is_warned_of() {
        let w = file_limit_warning(1024, max_conns(1024), 64).unwrap();
        assert!(w.contains("1024") && w.contains("LimitNOFILE") && w.contains("896"));
        assert!(file_limit_warning(1_048_576, max_conns(1_048_576), 64).is_none());
    }
}
