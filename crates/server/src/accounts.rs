//! Accounts and sessions: guests, registration and login with Argon2id password hashes,
//! session tokens (only their SHA-256 is stored), and the session cookie.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use axum::http::HeaderMap;
use fiveup_protocol::{ErrorCode, UserRef, SESSION_COOKIE};

use crate::db::{self, Db};
use crate::fairness::{random_bytes, sha256, to_hex};
use crate::ApiError;

/// How long a session lasts, in seconds.
pub const SESSION_SECS: i64 = 30 * 24 * 3600;

/// Check a guest nickname.
pub fn check_nickname(s: &str) -> Result<String, ApiError> {
    let s = s.trim();
    let n = s.chars().count();
    if n == 0 || n > 24 {
        return Err(ApiError::new(
            ErrorCode::BadName,
            "a nickname has 1 to 24 characters",
        ));
    }
    if !s
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '_' | '-' | '.'))
    {
        return Err(ApiError::new(
            ErrorCode::BadName,
            "a nickname may hold letters, digits, spaces, '_', '-' and '.'",
        ));
    }
    Ok(s.to_string())
}

/// Check a user name.
pub fn check_username(s: &str) -> Result<String, ApiError> {
    let n = s.chars().count();
    if !(3..=24).contains(&n)
        || !s
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
    {
        return Err(ApiError::new(
            ErrorCode::BadName,
            "a user name has 3 to 24 characters: letters, digits, '_', '-' and '.'",
        ));
    }
    Ok(s.to_string())
}

/// Check a password.
pub fn check_password(s: &str) -> Result<(), ApiError> {
    let n = s.chars().count();
    if !(8..=200).contains(&n) {
        return Err(ApiError::new(
            ErrorCode::BadPassword,
            "a password has 8 to 200 characters",
        ));
    }
    Ok(())
}

/// Hash a password with Argon2id (off the async threads).
pub async fn hash_password(pw: String) -> Result<String, ApiError> {
    tokio::task::spawn_blocking(move || {
        let salt_bytes = random_bytes();
        let salt = SaltString::encode_b64(&salt_bytes[..16])
            .map_err(|e| ApiError::internal(e.to_string()))?;
        Argon2::default()
            .hash_password(pw.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| ApiError::internal(e.to_string()))
    })
    .await
    .map_err(|e| ApiError::internal(e.to_string()))?
}

/// Check a password against its stored hash (off the async threads).
pub async fn verify_password(pw: String, hash: String) -> bool {
    tokio::task::spawn_blocking(move || {
        PasswordHash::new(&hash)
            .map(|h| Argon2::default().verify_password(pw.as_bytes(), &h).is_ok())
            .unwrap_or(false)
    })
    .await
    .unwrap_or(false)
}

fn user_from_row(row: &sqlx::any::AnyRow) -> Result<UserRef, String> {
    Ok(UserRef {
        id: db::int(row, "id")?,
        name: db::text(row, "name")?,
        registered: db::int(row, "registered")? != 0,
    })
}

/// Make a guest.
pub async fn create_guest(db: &Db, nickname: &str) -> Result<UserRef, ApiError> {
    let row = sqlx::query(
        "INSERT INTO users (name, registered, created_at) VALUES ($1, 0, $2) \
         RETURNING id, name, registered",
    )
    .bind(nickname)
    .bind(crate::now())
    .fetch_one(&db.pool)
    .await
    .map_err(|e| ApiError::internal(db::db_err(e)))?;
    user_from_row(&row).map_err(ApiError::internal)
}

/// Register: a new account, or the current guest account made registered.
pub async fn register(
    db: &Db,
    current: Option<&UserRef>,
    username: &str,
    hash: &str,
) -> Result<UserRef, ApiError> {
    let key = username.to_lowercase();
    let taken = sqlx::query("SELECT id FROM users WHERE name_key = $1")
        .bind(key.as_str())
        .fetch_optional(&db.pool)
        .await
        .map_err(|e| ApiError::internal(db::db_err(e)))?;
    if taken.is_some() {
        return Err(ApiError::new(
            ErrorCode::NameTaken,
            format!("the name {username:?} is taken"),
        ));
    }
    let res =
        match current.filter(|u| !u.registered) {
            Some(guest) => sqlx::query(
                "UPDATE users SET name = $1, name_key = $2, password_hash = $3, registered = 1 \
             WHERE id = $4 RETURNING id, name, registered",
            )
            .bind(username)
            .bind(key.as_str())
            .bind(hash)
            .bind(guest.id)
            .fetch_one(&db.pool)
            .await,
            None => {
                sqlx::query(
                    "INSERT INTO users (name, name_key, password_hash, registered, created_at) \
             VALUES ($1, $2, $3, 1, $4) RETURNING id, name, registered",
                )
                .bind(username)
                .bind(key.as_str())
                .bind(hash)
                .bind(crate::now())
                .fetch_one(&db.pool)
                .await
            }
        };
    match res {
        Ok(row) => user_from_row(&row).map_err(ApiError::internal),
        // A concurrent registration of the same name hits the unique index.
        Err(e) if e.to_string().to_lowercase().contains("unique") => Err(ApiError::new(
            ErrorCode::NameTaken,
            format!("the name {username:?} is taken"),
        )),
        Err(e) => Err(ApiError::internal(db::db_err(e))),
    }
}

/// Log in.
pub async fn login(db: &Db, username: &str, password: &str) -> Result<UserRef, ApiError> {
    let row =
        sqlx::query("SELECT id, name, registered, password_hash FROM users WHERE name_key = $1")
            .bind(username.to_lowercase())
            .fetch_optional(&db.pool)
            .await
            .map_err(|e| ApiError::internal(db::db_err(e)))?;
    let bad = || ApiError::new(ErrorCode::BadCredentials, "wrong user name or password");
    let Some(row) = row else {
        // Spend the same time as a real check, so names cannot be probed by timing.
        let _ = verify_password(password.to_string(), dummy_hash().await).await;
        return Err(bad());
    };
    let hash: String = db::text(&row, "password_hash").map_err(ApiError::internal)?;
    if !verify_password(password.to_string(), hash).await {
        return Err(bad());
    }
    user_from_row(&row).map_err(ApiError::internal)
}

/// A hash of a random password, checked against when a user name is unknown.
async fn dummy_hash() -> String {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    if let Some(h) = DUMMY.get() {
        return h.clone();
    }
    let h = hash_password(to_hex(&random_bytes()))
        .await
        .unwrap_or_default();
    DUMMY.get_or_init(|| h).clone()
}

/// Start a session; returns the token for the cookie.
pub async fn new_session(db: &Db, user: &UserRef) -> Result<String, ApiError> {
    let token = to_hex(&random_bytes());
    let now = crate::now();
    sqlx::query(
        "INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(to_hex(&sha256(token.as_bytes())))
    .bind(user.id)
    .bind(now)
    .bind(now + SESSION_SECS)
    .execute(&db.pool)
    .await
    .map_err(|e| ApiError::internal(db::db_err(e)))?;
    Ok(token)
}

/// End a session.
pub async fn end_session(db: &Db, token: &str) -> Result<(), ApiError> {
    sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
        .bind(to_hex(&sha256(token.as_bytes())))
        .execute(&db.pool)
        .await
        .map_err(|e| ApiError::internal(db::db_err(e)))?;
    Ok(())
}

/// The session token in a request's cookies.
#[must_use]
pub fn token_of(headers: &HeaderMap) -> Option<String> {
    for v in headers.get_all(axum::http::header::COOKIE) {
        let Ok(s) = v.to_str() else { continue };
        for part in s.split(';') {
            if let Some((k, val)) = part.trim().split_once('=') {
                if k == SESSION_COOKIE && val.len() == 64 {
                    return Some(val.to_string());
                }
            }
        }
    }
    None
}

/// The user of a request's session, if any.
pub async fn user_of(db: &Db, headers: &HeaderMap) -> Result<Option<UserRef>, ApiError> {
    let Some(token) = token_of(headers) else {
        return Ok(None);
    };
    let row = sqlx::query(
        "SELECT u.id, u.name, u.registered FROM sessions s JOIN users u ON u.id = s.user_id \
         WHERE s.token_hash = $1 AND s.expires_at > $2",
    )
    .bind(to_hex(&sha256(token.as_bytes())))
    .bind(crate::now())
    .fetch_optional(&db.pool)
    .await
    .map_err(|e| ApiError::internal(db::db_err(e)))?;
    row.map(|r| user_from_row(&r).map_err(ApiError::internal))
        .transpose()
}

/// Whether the request reached us over TLS (as a TLS-terminating proxy reports it).
#[must_use]
pub fn over_tls(headers: &HeaderMap) -> bool {
    let proto = headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(',')
                .next()
                .is_some_and(|p| p.trim().eq_ignore_ascii_case("https"))
        });
    let fwd = headers
        .get("forwarded")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.to_ascii_lowercase().contains("proto=https"));
    proto || fwd
}

/// The `Set-Cookie` value for a session token (`None`: clear the cookie).
#[must_use]
pub fn cookie(token: Option<&str>, secure: bool) -> String {
    let sec = if secure { "; Secure" } else { "" };
    match token {
        Some(t) => format!(
            "{SESSION_COOKIE}={t}; Path=/; HttpOnly; SameSite=Lax; Max-Age={SESSION_SECS}{sec}"
        ),
        None => format!("{SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0{sec}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_passwords_are_checked() {
        assert!(check_nickname("Ann B.").is_ok());
        assert!(check_nickname("").is_err());
        assert!(check_nickname("<script>").is_err());
        assert!(check_username("ab").is_err());
        assert!(check_username("ann_1").is_ok());
        assert!(check_password("short").is_err());
        assert!(check_password("long enough").is_ok());
    }

    #[test]
    fn cookies_are_http_only_and_lax() {
        let c = cookie(Some("t"), false);
        assert!(c.contains("HttpOnly") && c.contains("SameSite=Lax") && !c.contains("Secure"));
        assert!(cookie(Some("t"), true).contains("; Secure"));
        let mut h = HeaderMap::new();
        h.insert("x-forwarded-proto", "https".parse().unwrap());
        assert!(over_tls(&h));
        assert!(!over_tls(&HeaderMap::new()));
    }

    #[tokio::test]
    async fn argon2id_hashes_verify() {
        let h = hash_password("correct horse".into()).await.unwrap();
        assert!(h.starts_with("$argon2id$"));
        assert!(verify_password("correct horse".into(), h.clone()).await);
        assert!(!verify_password("wrong horse".into(), h).await);
    }
}
