//! Web Push: the server's VAPID key (made on first start and stored), people's subscriptions,
//! and sending a message: encrypted for the browser (RFC 8291, aes128gcm, by `web-push-native`),
//! signed for the push service (VAPID, RFC 8292, an ES256 token signed with `p256`), and posted
//! with the hyper-util client (HTTPS through rustls). A push service that answers 404 or 410 has
//! dropped the subscription: it is deleted here too.
//!
//! An endpoint is a URL that anyone with a session gives the server, which then posts to it:
//! the server would be a proxy into its own network. So an endpoint must be `https://` to a
//! public host on the default port ([`check`]), and every connection is checked when it is
//! made, on the address it is made to ([`client`]): names are resolved by a resolver that keeps
//! public addresses only, and the connector refuses a connection to any other address, so a
//! name that resolved to a public address when it was registered and resolves to a private one
//! now (DNS rebinding) reaches nothing. Redirects are not followed (hyper's client does not).

use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use base64::Engine as _;
use http_body_util::{BodyExt as _, Full};
use hyper::body::Bytes;
use hyper_util::client::legacy::connect::dns::Name;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::{TokioExecutor, TokioIo};
use p256::ecdsa::signature::Signer as _;
use serde::{Deserialize, Serialize};
use web_push_native::p256 as wp256;

use crate::store::db::{self, Db};

/// How long a push service keeps a message for a browser that is offline (its `TTL`): a day.
pub const TTL: u64 = 24 * 3600;

/// The notification kinds a person turns on or off, each on its own.
pub const KINDS: [&str; 4] = ["turn", "reminder", "over", "chat"];

/// A subscription as the browser's `PushSubscription.toJSON()` gives it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Subscription {
    /// The push service's URL for this browser.
    pub endpoint: String,
    /// The browser's keys.
    pub keys: Keys,
}

/// A subscription's keys.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Keys {
    /// Its P-256 public key, base64url.
    pub p256dh: String,
    /// Its authentication secret (16 bytes), base64url.
    pub auth: String,
}

/// What a notification says. It names the table and the opponents only: never a tile.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Payload {
    /// `turn`, `reminder`, `over`.
    pub kind: String,
    /// The title shown.
    pub title: String,
    /// The text shown.
    pub body: String,
    /// The page a click opens (`/table/ID`, or `/games` for several).
    pub url: String,
    /// The tables it is about.
    pub tables: Vec<String>,
    /// Collapses notifications about the same thing on the device.
    pub tag: String,
}

/// The server's VAPID key pair.
#[derive(Clone)]
pub struct Vapid {
    key: p256::ecdsa::SigningKey,
    /// The public key, uncompressed SEC1, base64url: what `pushManager.subscribe` is given as
    /// its `applicationServerKey`.
    pub public: String,
}

impl std::fmt::Debug for Vapid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Vapid")
            .field("public", &self.public)
            .finish_non_exhaustive()
    }
}

impl Vapid {
    fn from_secret(secret: &[u8]) -> Result<Vapid, String> {
        let key = p256::ecdsa::SigningKey::from_slice(secret)
            .map_err(|e| format!("bad stored VAPID key: {e}"))?;
        let public = B64.encode(key.verifying_key().to_encoded_point(false).as_bytes());
        Ok(Vapid { key, public })
    }

    /// The key stored in the database, made and stored first if there is none (instances
    /// sharing a database race to insert one; all then read the one that won).
    pub async fn load_or_make(db: &Db) -> Result<Vapid, String> {
        let fresh = p256::SecretKey::random(&mut p256::elliptic_curve::rand_core::OsRng);
        sqlx::query(
            "INSERT INTO push_keys (id, private_key, created_at) VALUES (1, $1, $2) \
             ON CONFLICT (id) DO NOTHING",
        )
        .bind(B64.encode(fresh.to_bytes()))
        .bind(crate::now())
        .execute(&db.pool)
        .await
        .map_err(db::db_err)?;
        let row = sqlx::query("SELECT private_key FROM push_keys WHERE id = 1")
            .fetch_one(&db.pool)
            .await
            .map_err(db::db_err)?;
        let secret = B64
            .decode(db::text(&row, "private_key")?)
            .map_err(|e| format!("bad stored VAPID key: {e}"))?;
        Vapid::from_secret(&secret)
    }

    /// The `Authorization` header for a push service: a token for its origin, valid 12 hours
    /// (by the real clock: the push service checks it), naming the operator's contact.
    #[must_use]
    pub fn authorization(&self, endpoint: &hyper::Uri, contact: &str) -> String {
        let aud = format!(
            "{}://{}",
            endpoint.scheme_str().unwrap_or("https"),
            endpoint
                .authority()
                .map_or("", hyper::http::uri::Authority::as_str)
        );
        let header = B64.encode(br#"{"typ":"JWT","alg":"ES256"}"#);
        let claims = B64.encode(
            serde_json::json!({"aud": aud, "exp": crate::now() + 12 * 3600, "sub": contact})
                .to_string(),
        );
        let signed = format!("{header}.{claims}");
        let sig: p256::ecdsa::Signature = self.key.sign(signed.as_bytes());
        format!(
            "vapid t={signed}.{}, k={}",
            B64.encode(sig.to_bytes()),
            self.public
        )
    }
}

/// Subscriptions one person may have (devices with notifications on); one more is refused.
pub const MAX_SUBSCRIPTIONS: i64 = 10;

/// Whether an address is one of the public internet's: not loopback, private (RFC 1918, IPv6
/// unique local), link-local (cloud metadata services live there), shared (carrier-grade NAT),
/// unspecified, broadcast, multicast, documentation, benchmarking or reserved. An IPv4 address
/// inside IPv6 (mapped, NAT64) is judged as that IPv4 address; other IPv6 addresses must be
/// global unicast (2000::/3), less the special ranges inside it.
#[must_use]
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, c, _] = v4.octets();
            !(a == 0
                || a == 10
                || a == 127
                || (a == 100 && (64..128).contains(&b))
                || (a == 169 && b == 254)
                || (a == 172 && (16..32).contains(&b))
                || (a == 192 && b == 168)
                || (a == 192 && b == 0 && (c == 0 || c == 2))
                || (a == 192 && b == 88 && c == 99)
                || (a == 198 && (b == 18 || b == 19))
                || (a == 198 && b == 51 && c == 100)
                || (a == 203 && b == 0 && c == 113)
                || a >= 224)
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public(IpAddr::V4(v4));
            }
            let s = v6.segments();
            // NAT64's well-known prefix 64:ff9b::/96 carries an IPv4 address.
            if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
                let [a, b] = s[6].to_be_bytes();
                let [c, d] = s[7].to_be_bytes();
                return is_public(IpAddr::V4(std::net::Ipv4Addr::new(a, b, c, d)));
            }
            (s[0] & 0xe000) == 0x2000
                // IETF protocol assignments (Teredo, benchmarking, ORCHID), documentation,
                // 6to4 (an IPv4 address inside, of any kind).
                && !(s[0] == 0x2001 && s[1] < 0x0200)
                && !(s[0] == 0x2001 && s[1] == 0x0db8)
                && s[0] != 0x2002
        }
    }
}

/// Whether the server may connect to `ip` for a push: a public address, or with
/// [`Settings::push_loopback`](super::Settings::push_loopback) (tests only) a loopback one.
#[must_use]
pub fn allowed(ip: IpAddr, loopback: bool) -> bool {
    is_public(ip) || (loopback && ip.is_loopback())
}

/// An endpoint's host as an address, if it is one (`[::1]` without its brackets).
fn host_ip(uri: &hyper::Uri) -> Option<IpAddr> {
    let host = uri.host()?;
    host.trim_start_matches('[')
        .trim_end_matches(']')
        .parse()
        .ok()
}

/// Check a subscription from a browser: an `https` endpoint on the default port whose host is
/// a public address or a name with a dot (not `localhost`), a valid P-256 key and a 16-byte
/// secret. With `loopback` (tests only, see
/// [`Settings::push_loopback`](super::Settings::push_loopback)), `http` or `https` to a
/// loopback address on any port is accepted too. Where a name leads is checked on each
/// connection (see [`client`]).
pub fn check(sub: &Subscription, loopback: bool) -> Result<(), String> {
    if sub.endpoint.len() > 1000 {
        return Err("the endpoint is too long".to_string());
    }
    let uri: hyper::Uri = sub
        .endpoint
        .parse()
        .map_err(|_| "the endpoint is not a URL".to_string())?;
    let ip = host_ip(&uri);
    let test_receiver = loopback && ip.is_some_and(|ip| ip.is_loopback());
    match uri.scheme_str() {
        Some("https") => {}
        Some("http") if test_receiver => {}
        _ => return Err("the endpoint must be an https URL".to_string()),
    }
    if !test_receiver {
        let host = uri
            .host()
            .unwrap_or("")
            .trim_end_matches('.')
            .to_ascii_lowercase();
        let private_name =
            host == "localhost" || host.ends_with(".localhost") || !host.contains('.');
        if ip.is_some_and(|ip| !is_public(ip)) || (ip.is_none() && private_name) {
            return Err(
                "the endpoint's host must be a push service on the internet, not a local or \
                 private address"
                    .to_string(),
            );
        }
        if uri.port_u16().is_some_and(|p| p != 443) {
            return Err("the endpoint must be on the https port (443)".to_string());
        }
    }
    if uri.authority().is_some_and(|a| a.as_str().contains('@')) {
        return Err("the endpoint may not hold a user name or password".to_string());
    }
    keys_of(sub)?;
    Ok(())
}

fn keys_of(sub: &Subscription) -> Result<(wp256::PublicKey, web_push_native::Auth), String> {
    let public = B64
        .decode(sub.keys.p256dh.trim_end_matches('='))
        .ok()
        .and_then(|b| wp256::PublicKey::from_sec1_bytes(&b).ok())
        .ok_or("keys.p256dh is not a P-256 public key")?;
    let auth = B64
        .decode(sub.keys.auth.trim_end_matches('='))
        .ok()
        .filter(|a| a.len() == 16)
        .ok_or("keys.auth is not a 16-byte secret")?;
    Ok((public, web_push_native::Auth::clone_from_slice(&auth)))
}

/// How a push service answered.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Sent {
    /// Accepted.
    Delivered,
    /// The subscription is gone (404, 410): delete it.
    Gone,
    /// Try again later (429, 5xx, no connection).
    Retry,
    /// Refused for good (another 4xx): drop the message.
    Refused,
}

/// How long connecting to a push service may take (the whole request has
/// [`Settings::push_timeout`](super::Settings::push_timeout)).
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

/// The error of a connection refused for its address.
const NOT_PUBLIC: &str = "not a public address";

fn not_public(what: &str) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::PermissionDenied,
        format!("{what}: {NOT_PUBLIC}"),
    )
}

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// Resolves a push service's name to its public addresses only (none: an error).
#[derive(Clone, Debug)]
pub struct PublicResolver {
    loopback: bool,
}

impl tower::Service<Name> for PublicResolver {
    type Response = std::vec::IntoIter<SocketAddr>;
    type Error = std::io::Error;
    type Future = BoxFuture<Result<Self::Response, std::io::Error>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), std::io::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, name: Name) -> Self::Future {
        let loopback = self.loopback;
        Box::pin(async move {
            let addrs: Vec<SocketAddr> = tokio::net::lookup_host((name.as_str(), 0))
                .await?
                .filter(|a| allowed(a.ip(), loopback))
                .collect();
            if addrs.is_empty() {
                return Err(not_public(name.as_str()));
            }
            Ok(addrs.into_iter())
        })
    }
}

/// The connector under TLS: refuses an endpoint whose host is an address that is not public
/// before connecting, and any connection whose peer is not a public address once connected
/// (before a byte is sent).
#[derive(Clone, Debug)]
pub struct PublicConnector {
    inner: HttpConnector<PublicResolver>,
    loopback: bool,
}

impl tower::Service<hyper::Uri> for PublicConnector {
    type Response = TokioIo<tokio::net::TcpStream>;
    type Error = Box<dyn std::error::Error + Send + Sync>;
    type Future = BoxFuture<Result<Self::Response, Self::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx).map_err(Into::into)
    }

    fn call(&mut self, uri: hyper::Uri) -> Self::Future {
        let loopback = self.loopback;
        if let Some(ip) = host_ip(&uri).filter(|ip| !allowed(*ip, loopback)) {
            return Box::pin(async move { Err(not_public(&ip.to_string()).into()) });
        }
        let connecting = self.inner.call(uri);
        Box::pin(async move {
            let stream = connecting.await?;
            let peer = stream.inner().peer_addr()?;
            if !allowed(peer.ip(), loopback) {
                return Err(not_public(&peer.ip().to_string()).into());
            }
            Ok(stream)
        })
    }
}

/// The HTTP client for push services.
pub type PushClient = Client<hyper_rustls::HttpsConnector<PublicConnector>, Full<Bytes>>;

/// A client for push services: HTTPS (rustls, the web's root certificates) to public
/// addresses only, connecting within [`CONNECT_TIMEOUT`]; with `loopback` (tests only) plain
/// HTTP or HTTPS to loopback addresses too.
#[must_use]
pub fn client(loopback: bool) -> PushClient {
    let mut http = HttpConnector::new_with_resolver(PublicResolver { loopback });
    http.enforce_http(false);
    http.set_connect_timeout(Some(CONNECT_TIMEOUT));
    let connector = PublicConnector {
        inner: http,
        loopback,
    };
    let builder = hyper_rustls::HttpsConnectorBuilder::new().with_webpki_roots();
    let https = if loopback {
        builder.https_or_http()
    } else {
        builder.https_only()
    }
    .enable_http1()
    .wrap_connector(connector);
    Client::builder(TokioExecutor::new())
        .pool_idle_timeout(Duration::from_secs(30))
        .build(https)
}

/// Whether an error of the client is a connection refused for its address.
fn refused_address(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut cur = Some(e);
    while let Some(e) = cur {
        if e.to_string().ends_with(NOT_PUBLIC) {
            return true;
        }
        cur = e.source();
    }
    false
}

/// Encrypt and send one message to one subscription, within `timeout`.
pub async fn send(
    client: &PushClient,
    vapid: &Vapid,
    contact: &str,
    sub: &Subscription,
    payload: &Payload,
    topic: &str,
    timeout: Duration,
) -> Sent {
    let Ok((public, auth)) = keys_of(sub) else {
        return Sent::Gone;
    };
    let Ok(uri) = sub.endpoint.parse::<hyper::Uri>() else {
        return Sent::Gone;
    };
    let body = serde_json::to_vec(payload).expect("payloads serialise");
    let Ok(encrypted) = web_push_native::encrypt(body, &public, &auth) else {
        return Sent::Refused;
    };
    let req = hyper::Request::post(uri.clone())
        .header("TTL", TTL)
        .header("Content-Encoding", "aes128gcm")
        .header("Content-Type", "application/octet-stream")
        .header(
            "Urgency",
            if payload.kind == "reminder" {
                "high"
            } else {
                "normal"
            },
        )
        // A push service replaces a waiting message of the same topic: a message sent again
        // after a restart replaces the first if it was not delivered yet.
        .header("Topic", topic)
        .header("Authorization", vapid.authorization(&uri, contact))
        .body(Full::new(Bytes::from(encrypted)));
    let Ok(req) = req else {
        return Sent::Refused;
    };
    // One deadline for the answer and its body.
    let answered = tokio::time::timeout(timeout, async {
        let res = client.request(req).await?;
        let status = res.status().as_u16();
        // The answer's body is not needed: read a little of it, so that the connection can
        // carry the next message, and no more.
        let _ = http_body_util::Limited::new(res.into_body(), 16 * 1024)
            .collect()
            .await;
        Ok::<u16, hyper_util::client::legacy::Error>(status)
    })
    .await;
    match answered {
        Ok(Ok(status)) => match status {
            200..=299 => Sent::Delivered,
            404 | 410 => Sent::Gone,
            429 | 500..=599 => Sent::Retry,
            // Redirects (not followed) and other refusals.
            _ => Sent::Refused,
        },
        // An endpoint that leads to an address that is not public is no push service.
        Ok(Err(e)) if refused_address(&e) => Sent::Gone,
        _ => Sent::Retry,
    }
}

/// A topic (at most 32 base64url characters, as RFC 8030 asks) naming one message.
#[must_use]
pub fn topic(key: &str) -> String {
    use sha2::Digest as _;
    B64.encode(&sha2::Sha256::digest(key.as_bytes())[..24])
}

#[cfg(test)]
mod tests {
    use super::*;
    use p256::elliptic_curve::sec1::ToEncodedPoint as _;

    #[test]
    fn vapid_tokens_verify_with_the_public_key() {
        use p256::ecdsa::signature::Verifier as _;
        let secret = p256::SecretKey::random(&mut p256::elliptic_curve::rand_core::OsRng);
        let v = Vapid::from_secret(&secret.to_bytes()).unwrap();
        let uri: hyper::Uri = "https://push.example.com/abc/def".parse().unwrap();
        let h = v.authorization(&uri, "mailto:ops@example.com");
        let t = h
            .strip_prefix("vapid t=")
            .unwrap()
            .split(", k=")
            .next()
            .unwrap();
        let k = h.split(", k=").nth(1).unwrap();
        assert_eq!(k, v.public);
        let parts: Vec<&str> = t.split('.').collect();
        assert_eq!(parts.len(), 3);
        let claims: serde_json::Value =
            serde_json::from_slice(&B64.decode(parts[1]).unwrap()).unwrap();
        assert_eq!(claims["aud"], "https://push.example.com");
        assert_eq!(claims["sub"], "mailto:ops@example.com");
        let key = p256::ecdsa::VerifyingKey::from_sec1_bytes(&B64.decode(k).unwrap()).unwrap();
        let sig = p256::ecdsa::Signature::from_slice(&B64.decode(parts[2]).unwrap()).unwrap();
        key.verify(format!("{}.{}", parts[0], parts[1]).as_bytes(), &sig)
            .unwrap();
        // Tampered claims do not verify.
        assert!(key.verify(b"x.y", &sig).is_err());
    }

    #[test]
    fn subscriptions_are_checked() {
        let ua = p256::SecretKey::random(&mut p256::elliptic_curve::rand_core::OsRng);
        let good = Subscription {
            endpoint: "https://fcm.googleapis.com/fcm/send/x".into(),
            keys: Keys {
                p256dh: B64.encode(ua.public_key().to_encoded_point(false).as_bytes()),
                auth: B64.encode([7u8; 16]),
            },
        };
        assert_eq!(check(&good, false), Ok(()));
        let mut s = good.clone();
        for bad in [
            "http://push.example.com/x",
            "http://127.0.0.1:9/x",
            "https://127.0.0.1:9/x",
            "http://localhost:9/x",
            "https://localhost/x",
            "https://a.localhost./x",
            "https://[::1]/x",
            "https://10.1.2.3/x",
            "https://169.254.169.254/latest/meta-data/",
            "https://[fd00::1]/x",
            "https://[::ffff:192.168.0.1]/x",
            "https://metadata/x",
            "https://push.example.com:8443/x",
            "https://user:pw@push.example.com/x",
            "ftp://push.example.com/x",
        ] {
            s.endpoint = bad.into();
            assert!(check(&s, false).is_err(), "{bad}");
        }
        s.endpoint = "https://push.example.com:443/x".into();
        assert_eq!(check(&s, false), Ok(()));
        // The tests' receivers on loopback, with the test setting only.
        for test in [
            "http://127.0.0.1:9/x",
            "https://127.0.0.2:9/x",
            "http://[::1]:9/x",
        ] {
            s.endpoint = test.into();
            assert_eq!(check(&s, true), Ok(()), "{test}");
        }
        s.endpoint = "http://10.1.2.3:9/x".into();
        assert!(check(&s, true).is_err());
        let mut s = good.clone();
        s.keys.auth = B64.encode([7u8; 15]);
        assert!(check(&s, false).is_err());
        let mut s = good;
        s.keys.p256dh = "AAAA".into();
        assert!(check(&s, false).is_err());
        assert!(topic("a").len() <= 32);
        assert_ne!(topic("a"), topic("b"));
    }

    #[test]
    fn only_public_addresses_are_public() {
        for private in [
            "0.0.0.0",
            "10.0.0.1",
            "100.64.0.1",
            "127.0.0.1",
            "127.0.0.2",
            "169.254.169.254",
            "172.16.0.1",
            "172.31.255.255",
            "192.0.0.170",
            "192.0.2.1",
            "192.168.1.1",
            "198.18.0.1",
            "198.51.100.1",
            "203.0.113.1",
            "224.0.0.1",
            "255.255.255.255",
            "::",
            "::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "64:ff9b::a00:1",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "ff02::1",
            "2001:db8::1",
            "2001::1",
            "2002:a00:1::1",
            "fd00:ec2::254",
        ] {
            assert!(!is_public(private.parse().unwrap()), "{private}");
        }
        for public in [
            "8.8.8.8",
            "142.250.74.78",
            "172.32.0.1",
            "100.128.0.1",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
            "2a00:1450:4001:82b::200a",
            "2606:4700::1111",
        ] {
            assert!(is_public(public.parse().unwrap()), "{public}");
        }
        assert!(allowed("127.0.0.1".parse().unwrap(), true));
        assert!(!allowed("10.0.0.1".parse().unwrap(), true));
    }

    /// A name that leads to loopback, and a loopback address stored before endpoints were
    /// checked, reach nothing: the connection is refused by its address, before a byte is
    /// sent, and the subscription is gone.
    #[tokio::test]
    async fn connections_to_addresses_that_are_not_public_are_refused() {
        let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = l.local_addr().unwrap().port();
        let accepted = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let a = accepted.clone();
        let server = tokio::spawn(async move {
            while let Ok((_s, _)) = l.accept().await {
                a.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
        });
        let secret = p256::SecretKey::random(&mut p256::elliptic_curve::rand_core::OsRng);
        let v = Vapid::from_secret(&secret.to_bytes()).unwrap();
        let ua = p256::SecretKey::random(&mut p256::elliptic_curve::rand_core::OsRng);
        let payload = Payload {
            kind: "turn".into(),
            title: "t".into(),
            body: "b".into(),
            url: "/".into(),
            tables: vec![],
            tag: "t".into(),
        };
        let c = client(false);
        for endpoint in [
            format!("https://localhost:{port}/admin/shutdown?confirm=yes"),
            format!("https://127.0.0.1:{port}/admin/shutdown?confirm=yes"),
            format!("http://127.0.0.1:{port}/admin/shutdown?confirm=yes"),
        ] {
            let sub = Subscription {
                endpoint: endpoint.clone(),
                keys: Keys {
                    p256dh: B64.encode(ua.public_key().to_encoded_point(false).as_bytes()),
                    auth: B64.encode([7u8; 16]),
                },
            };
            let sent = send(
                &c,
                &v,
                "mailto:a@b.c",
                &sub,
                &payload,
                "t",
                Duration::from_secs(5),
            )
            .await;
            let expected = if endpoint.starts_with("http:") {
                // Plain HTTP is refused before any connection is tried.
                Sent::Retry
            } else {
                Sent::Gone
            };
            assert_eq!(sent, expected, "{endpoint}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert_eq!(accepted.load(std::sync::atomic::Ordering::SeqCst), 0);
        // The test setting lets the loopback receiver be reached.
        let sub = Subscription {
            endpoint: format!("http://127.0.0.1:{port}/p"),
            keys: Keys {
                p256dh: B64.encode(ua.public_key().to_encoded_point(false).as_bytes()),
                auth: B64.encode([7u8; 16]),
            },
        };
        let _ = send(
            &client(true),
            &v,
            "mailto:a@b.c",
            &sub,
            &payload,
            "t",
            Duration::from_millis(300),
        )
        .await;
        assert_eq!(accepted.load(std::sync::atomic::Ordering::SeqCst), 1);
        server.abort();
    }
}
