//! Web Push: the server's VAPID key (made on first start and stored), people's subscriptions,
//! and sending a message: encrypted for the browser (RFC 8291, aes128gcm, by `web-push-native`),
//! signed for the push service (VAPID, RFC 8292, an ES256 token signed with `p256`), and posted
//! with the hyper-util client (HTTPS through rustls). A push service that answers 404 or 410 has
//! dropped the subscription: it is deleted here too.

use std::time::Duration;

use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use base64::Engine as _;
use http_body_util::{BodyExt as _, Full};
use hyper::body::Bytes;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
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

/// Check a subscription from a browser: an `https` endpoint (or `http` on loopback, for
/// tests and development), a valid P-256 key and a 16-byte secret.
pub fn check(sub: &Subscription) -> Result<(), String> {
    let uri: hyper::Uri = sub
        .endpoint
        .parse()
        .map_err(|_| "the endpoint is not a URL".to_string())?;
    let host = uri.host().unwrap_or("");
    let loopback = host == "127.0.0.1" || host == "localhost" || host == "[::1]";
    match uri.scheme_str() {
        Some("https") => {}
        Some("http") if loopback => {}
        _ => return Err("the endpoint must be an https URL".to_string()),
    }
    if sub.endpoint.len() > 1000 {
        return Err("the endpoint is too long".to_string());
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

/// The HTTP client for push services.
pub type PushClient = Client<
    hyper_rustls::HttpsConnector<hyper_util::client::legacy::connect::HttpConnector>,
    Full<Bytes>,
>;

/// A client for push services: HTTPS (rustls, the web's root certificates), or plain HTTP to
/// loopback.
#[must_use]
pub fn client() -> PushClient {
    let https = hyper_rustls::HttpsConnectorBuilder::new()
        .with_webpki_roots()
        .https_or_http()
        .enable_http1()
        .build();
    Client::builder(TokioExecutor::new())
        .pool_idle_timeout(Duration::from_secs(30))
        .build(https)
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
    match tokio::time::timeout(timeout, client.request(req)).await {
        Ok(Ok(res)) => {
            let status = res.status().as_u16();
            let _ = tokio::time::timeout(timeout, res.into_body().collect()).await;
            match status {
                200..=299 => Sent::Delivered,
                404 | 410 => Sent::Gone,
                429 | 500..=599 => Sent::Retry,
                _ => Sent::Refused,
            }
        }
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
        assert_eq!(check(&good), Ok(()));
        let mut s = good.clone();
        s.endpoint = "http://push.example.com/x".into();
        assert!(check(&s).is_err());
        s.endpoint = "http://127.0.0.1:9/x".into();
        assert_eq!(check(&s), Ok(()));
        let mut s = good.clone();
        s.keys.auth = B64.encode([7u8; 15]);
        assert!(check(&s).is_err());
        let mut s = good;
        s.keys.p256dh = "AAAA".into();
        assert!(check(&s).is_err());
        assert!(topic("a").len() <= 32);
        assert_ne!(topic("a"), topic("b"));
    }
}
