//! Accounts and sessions: guests, registration and login with Argon2id password hashes,
//! session tokens (only their SHA-256 is stored), and the session cookie.

use argon2::password_hash::{PasswordHash, SaltString};
use argon2::Argon2;
use axum::http::HeaderMap;
use fiveup_protocol::{ErrorCode, UserRef, SESSION_COOKIE};

use crate::store::db::{self, Db};
use crate::table::fairness::{random_bytes, sha256, to_hex};
use crate::ApiError;

/// How long a session lasts, in seconds.
pub const SESSION_SECS: i64 = 30 * 24 * 3600;

/// The characters a name may hold besides letters and digits.
const NAME_PUNCT: [char; 3] = ['_', '-', '.'];

/// Whether a name character is allowed: a letter or digit that Unicode's identifier profile
/// allows (UTS #39: no invisible fillers, no default-ignorable or obsolete characters), or
/// `_`, `-`, `.` (and a space in nicknames).
fn name_char(c: char, space: bool) -> bool {
    use unicode_security::GeneralSecurityProfile as _;
    NAME_PUNCT.contains(&c)
        || (space && c == ' ')
        || (c.is_alphanumeric() && c.identifier_allowed())
}

/// The keys two names collide on: a name collides with another when they share a key. Both
/// are Unicode's confusables skeleton (UTS #39) of the NFKC form with case folded, lowercased
/// again, without combining marks (`alicẹ` is `alice`):
///
/// * the first folds case before the skeleton (`ALICE` is `alice`);
/// * the second takes the skeleton first, as the name is shown, then folds case and takes it
///   again: a capital I reads as a lowercase l (`aIice` is `alice`).
///
/// `alice`, `аlice` (Cyrillic a), `ａｌｉｃｅ`, `alıce`, `ALICE`, `aIice` and `alicẹ` share a key.
#[must_use]
pub fn name_keys(name: &str) -> (String, String) {
    use unicode_normalization::UnicodeNormalization as _;
    let nfkc: String = name.nfkc().collect();
    let skel = |s: &str| -> String {
        unicode_security::skeleton(&s.to_lowercase())
            .collect::<String>()
            .to_lowercase()
            .nfd()
            .filter(|&c| !unicode_normalization::char::is_combining_mark(c))
            .collect()
    };
    let first = skel(&nfkc);
    let shown: String = unicode_security::skeleton(&nfkc).collect();
    (first, skel(&shown))
}

/// The first of [`name_keys`] (the key of login attempts).
#[must_use]
pub fn name_skeleton(name: &str) -> String {
    name_keys(name).0
}

/// Whether a name's combining marks are each the single mark of a letter (`é`, `ñ`, `ẹ`):
/// marks with no letter, stacked on one letter, or on a digit or punctuation are refused (they
/// draw nothing of their own, or pile up over the line).
fn marks_well_placed(s: &str) -> bool {
    use unicode_normalization::UnicodeNormalization as _;
    let mut prev: Option<char> = None;
    for c in s.nfd() {
        let on_nothing = !prev.is_some_and(char::is_alphabetic)
            || prev.is_some_and(unicode_normalization::char::is_combining_mark);
        if unicode_normalization::char::is_combining_mark(c) && on_nothing {
            return false;
        }
        prev = Some(c);
    }
    true
}

/// Check a guest nickname (NFKC-normalised).
pub fn check_nickname(s: &str) -> Result<String, ApiError> {
    use unicode_normalization::UnicodeNormalization as _;
    let s: String = s.trim().nfkc().collect();
    let s = s.trim();
    let n = s.chars().count();
    if n == 0 || n > 24 {
        return Err(ApiError::new(
            ErrorCode::BadName,
            "a nickname has 1 to 24 characters",
        ));
    }
    if !s.chars().all(|c| name_char(c, true)) || s.contains("  ") || !marks_well_placed(s) {
        return Err(ApiError::new(
            ErrorCode::BadName,
            "a nickname may hold letters, digits, single spaces, '_', '-' and '.'",
        ));
    }
    Ok(s.to_string())
}

/// Check a registered player's display name, the name shown at tables: as a guest's nickname
/// (NFKC-normalised, 1 to 24 characters: letters, digits, single spaces, `_`, `-`, `.`).
pub fn check_display_name(s: &str) -> Result<String, ApiError> {
    check_nickname(s)
        .map_err(|e| ApiError::new(e.code, e.message.replace("a nickname", "a display name")))
}

/// Check a user name (NFKC-normalised).
pub fn check_username(s: &str) -> Result<String, ApiError> {
    use unicode_normalization::UnicodeNormalization as _;
    let s: String = s.nfkc().collect();
    let n = s.chars().count();
    if !(3..=24).contains(&n) || !s.chars().all(|c| name_char(c, false)) {
        return Err(ApiError::new(
            ErrorCode::BadName,
            "a user name has 3 to 24 characters: letters, digits, '_', '-' and '.'",
        ));
    }
    if !marks_well_placed(&s) {
        return Err(ApiError::new(
            ErrorCode::BadName,
            "a user name may hold an accent or other mark only on a letter, one per letter",
        ));
    }
    Ok(s)
}

/// Check a password: 8 to 200 characters, and not one of the easily guessed ones (the most
/// common passwords, repeats such as eight spaces, sequences, the user name itself), as the
/// `zxcvbn` estimator rates them (at most a thousand guesses).
pub fn check_password(s: &str, username: &str) -> Result<(), ApiError> {
    let n = s.chars().count();
    if !(8..=200).contains(&n) {
        return Err(ApiError::new(
            ErrorCode::BadPassword,
            "a password has 8 to 200 characters",
        ));
    }
    // The estimate's cost grows with the length; a long password is not a common one.
    let head: String = s.chars().take(64).collect();
    if s.trim().is_empty() || zxcvbn::zxcvbn(&head, &[username]).score() < zxcvbn::Score::One {
        return Err(ApiError::new(
            ErrorCode::BadPassword,
            "this password is one of the first guessed: choose a less common one",
        ));
    }
    Ok(())
}

/// The Argon2id pool: a few threads of its own (one per core), each reusing its 19 MiB of
/// working memory, and a bounded queue. Hashing on the shared blocking pool let hundreds of
/// hashes run at once, each allocating 19 MiB in its thread's own malloc arena, and the
/// memory stayed with the arenas.
#[derive(Debug)]
pub struct HashPool {
    jobs: std::sync::mpsc::SyncSender<Box<dyn FnOnce() + Send>>,
}

impl HashPool {
    /// `threads` hashing threads; at most `queue` hashes waiting.
    #[must_use]
    pub fn new(threads: usize, queue: usize) -> HashPool {
        let (jobs, rx) = std::sync::mpsc::sync_channel::<Box<dyn FnOnce() + Send>>(queue);
        let rx = std::sync::Arc::new(std::sync::Mutex::new(rx));
        for i in 0..threads.max(1) {
            let rx = rx.clone();
            let _ = std::thread::Builder::new()
                .name(format!("argon2-{i}"))
                .spawn(move || loop {
                    let job = match rx.lock() {
                        Ok(r) => r.recv(),
                        Err(_) => return,
                    };
                    match job {
                        Ok(job) => job(),
                        Err(_) => return,
                    }
                });
        }
        HashPool { jobs }
    }

    /// Run `f` on a hashing thread; refused with `rate_limited` when the queue is full.
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Box<dyn FnOnce() + Send> = Box::new(move || {
            let _ = tx.send(f());
        });
        match self.jobs.try_send(job) {
            Ok(()) => {}
            Err(std::sync::mpsc::TrySendError::Full(_)) => {
                return Err(ApiError::new(
                    ErrorCode::RateLimited,
                    "the server is busy checking passwords; try again in a moment",
                ))
            }
            Err(std::sync::mpsc::TrySendError::Disconnected(_)) => {
                return Err(ApiError::internal("the password threads stopped"))
            }
        }
        rx.await
            .map_err(|_| ApiError::internal("a password check failed"))
    }
}

thread_local! {
    /// Each hashing thread's Argon2 working memory, allocated once and reused (a fresh
    /// 19 MiB aligned allocation per hash is not given back to the system by malloc).
    static BLOCKS: std::cell::RefCell<Vec<argon2::Block>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Argon2id of `pw` with `salt` and `params` into `out`, in this thread's working memory.
fn argon2id_into(
    params: argon2::Params,
    pw: &[u8],
    salt: &[u8],
    out: &mut [u8],
) -> Result<(), ApiError> {
    let n = params.block_count();
    let a = Argon2::new(argon2::Algorithm::Argon2id, argon2::Version::V0x13, params);
    BLOCKS.with(|b| {
        let mut b = b.borrow_mut();
        if b.len() < n {
            b.resize(n, argon2::Block::default());
        }
        a.hash_password_into_with_memory(pw, salt, out, &mut b[..n])
            .map_err(|e| ApiError::internal(e.to_string()))
    })
}

/// Hash a password with Argon2id (19 MiB, 2 passes; on the hashing pool), as a PHC string.
pub async fn hash_password(pool: &HashPool, pw: String) -> Result<String, ApiError> {
    pool.run(move || {
        let salt = SaltString::encode_b64(&random_bytes()[..16])
            .map_err(|e| ApiError::internal(e.to_string()))?;
        let params = argon2::Params::default();
        let mut out = [0u8; 32];
        let mut raw = [0u8; 16];
        let salt_bytes = salt
            .decode_b64(&mut raw)
            .map_err(|e| ApiError::internal(e.to_string()))?;
        argon2id_into(params.clone(), pw.as_bytes(), salt_bytes, &mut out)?;
        let output = argon2::password_hash::Output::new(&out)
            .map_err(|e| ApiError::internal(e.to_string()))?;
        Ok(format!(
            "$argon2id$v=19$m={},t={},p={}${}${}",
            params.m_cost(),
            params.t_cost(),
            params.p_cost(),
            salt.as_str(),
            output
        ))
    })
    .await?
}

/// Check a password against its stored hash (on the hashing pool).
pub async fn verify_password(pool: &HashPool, pw: String, hash: String) -> Result<bool, ApiError> {
    pool.run(move || {
        let Ok(parsed) = PasswordHash::new(&hash) else {
            return false;
        };
        let (Ok(params), Some(salt), Some(expected)) =
            (argon2::Params::try_from(&parsed), parsed.salt, parsed.hash)
        else {
            return false;
        };
        let mut raw = [0u8; 64];
        let Ok(salt) = salt.decode_b64(&mut raw) else {
            return false;
        };
        let mut out = vec![0u8; expected.len()];
        if argon2id_into(params, pw.as_bytes(), salt, &mut out).is_err() {
            return false;
        }
        // `Output` compares in constant time.
        argon2::password_hash::Output::new(&out).is_ok_and(|o| o == expected)
    })
    .await
}

fn user_from_row(row: &sqlx::any::AnyRow) -> Result<UserRef, String> {
    Ok(UserRef {
        id: db::int(row, "id")?,
        name: db::text(row, "name")?,
        registered: db::int(row, "registered")? != 0,
        // Sessions are never a bot's: a row read without the column is a person's.
        bot: db::int(row, "bot").unwrap_or(0) != 0,
    })
}

/// Whether a registered account's login name or display name is `name` or confusable with it
/// (shares a key).
async fn registered_like(db: &Db, name: &str) -> Result<bool, ApiError> {
    registered_like_except(db, name, None).await
}

/// `registered_like`, leaving out the account `except` (a player's own names).
async fn registered_like_except(
    db: &Db,
    name: &str,
    except: Option<i64>,
) -> Result<bool, ApiError> {
    let (a, b) = name_keys(name);
    let taken = sqlx::query(
        "SELECT id FROM users WHERE registered = 1 AND id <> $3 AND \
         (name_skel = $1 OR name_skel = $2 OR name_skel2 = $1 OR name_skel2 = $2 \
          OR shown_skel = $1 OR shown_skel = $2 OR shown_skel2 = $1 OR shown_skel2 = $2)",
    )
    .bind(a)
    .bind(b)
    .bind(except.unwrap_or(-1))
    .fetch_optional(&db.pool)
    .await
    .map_err(|e| ApiError::internal(db::db_err(e)))?;
    Ok(taken.is_some())
}

/// Refuse a display name that is another registered player's name or looks like one.
async fn display_free(db: &Db, name: &str, own: Option<i64>) -> Result<(), ApiError> {
    if registered_like_except(db, name, own).await? {
        return Err(ApiError::new(
            ErrorCode::NameTaken,
            format!("{name:?} is another player's name (or looks like one): choose another"),
        ));
    }
    Ok(())
}

/// Set a registered player's display name (checked by `check_display_name`): the name shown at
/// tables from now on, which nobody else may take or imitate. Their login name is unchanged.
pub async fn set_display_name(db: &Db, user: &UserRef, name: &str) -> Result<UserRef, ApiError> {
    if !user.registered {
        return Err(ApiError::new(
            ErrorCode::BadRequest,
            "a guest changes their name by playing under another nickname",
        ));
    }
    display_free(db, name, Some(user.id)).await?;
    let (a, b) = name_keys(name);
    let row = sqlx::query(
        "UPDATE users SET name = $1, shown_skel = $2, shown_skel2 = $3, must_rename = 0 \
         WHERE id = $4 RETURNING id, name, registered",
    )
    .bind(name)
    .bind(a)
    .bind(b)
    .bind(user.id)
    .fetch_one(&db.pool)
    .await
    .map_err(|e| ApiError::internal(db::db_err(e)))?;
    user_from_row(&row).map_err(ApiError::internal)
}

/// Fill in the keys of registered names stored before they were kept (or when their
/// computation changed).
pub async fn backfill_skeletons(db: &Db) -> Result<(), String> {
    let rows = sqlx::query(
        "SELECT id, name FROM users WHERE registered = 1 \
         AND (name_skel IS NULL OR name_skel2 IS NULL)",
    )
    .fetch_all(&db.pool)
    .await
    .map_err(db::db_err)?;
    for r in rows {
        let (a, b) = name_keys(&db::text(&r, "name")?);
        sqlx::query("UPDATE users SET name_skel = $1, name_skel2 = $2 WHERE id = $3")
            .bind(a)
            .bind(b)
            .bind(db::int(&r, "id")?)
            .execute(&db.pool)
            .await
            .map_err(db::db_err)?;
    }
    Ok(())
}

/// Make a guest; a guest may not take a registered player's name (or one confusable with it).
pub async fn create_guest(db: &Db, nickname: &str) -> Result<UserRef, ApiError> {
    if registered_like(db, nickname).await? {
        return Err(ApiError::new(
            ErrorCode::NameTaken,
            format!(
                "{nickname:?} is a registered player's name (or looks like one): choose another"
            ),
        ));
    }
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

/// Register: a new account, or the current guest account made registered. `display`: the name
/// shown at tables (checked by `check_display_name`); without one, a guest keeps the nickname
/// they played under (when no registered player's name looks like it), anyone else is shown
/// by their login name.
pub async fn register(
    db: &Db,
    current: Option<&UserRef>,
    username: &str,
    hash: &str,
    display: Option<&str>,
) -> Result<UserRef, ApiError> {
    let key = username.to_lowercase();
    let (skel, skel2) = name_keys(username);
    let taken = sqlx::query(
        "SELECT id FROM users WHERE name_key = $1 OR name_skel = $2 OR name_skel = $3 \
         OR name_skel2 = $2 OR name_skel2 = $3 OR shown_skel = $2 OR shown_skel = $3 \
         OR shown_skel2 = $2 OR shown_skel2 = $3",
    )
    .bind(key.as_str())
    .bind(skel.as_str())
    .bind(skel2.as_str())
    .fetch_optional(&db.pool)
    .await
    .map_err(|e| ApiError::internal(db::db_err(e)))?;
    if taken.is_some() {
        return Err(ApiError::new(
            ErrorCode::NameTaken,
            format!("the name {username:?} is taken, or too like a name that is"),
        ));
    }
    let guest = current.filter(|u| !u.registered);
    let own = guest.map(|g| g.id);
    let shown = match display {
        Some(d) => {
            display_free(db, d, own).await?;
            d.to_string()
        }
        None => match guest {
            Some(g) if !registered_like_except(db, &g.name, own).await? => g.name.clone(),
            _ => username.to_string(),
        },
    };
    let (shown_skel, shown_skel2) = name_keys(&shown);
    let res =
        match guest {
            Some(guest) => sqlx::query(
                "UPDATE users SET name = $1, name_key = $2, password_hash = $3, registered = 1, \
                 name_skel = $5, name_skel2 = $6, shown_skel = $7, shown_skel2 = $8 \
                 WHERE id = $4 RETURNING id, name, registered",
            )
            .bind(shown.as_str())
            .bind(key.as_str())
            .bind(hash)
            .bind(guest.id)
            .bind(skel.as_str())
            .bind(skel2.as_str())
            .bind(shown_skel.as_str())
            .bind(shown_skel2.as_str())
            .fetch_one(&db.pool)
            .await,
            None => {
                sqlx::query(
                    "INSERT INTO users (name, name_key, password_hash, registered, created_at, \
                     name_skel, name_skel2, shown_skel, shown_skel2) \
                     VALUES ($1, $2, $3, 1, $4, $5, $6, $7, $8) \
                     RETURNING id, name, registered",
                )
                .bind(shown.as_str())
                .bind(key.as_str())
                .bind(hash)
                .bind(crate::now())
                .bind(skel.as_str())
                .bind(skel2.as_str())
                .bind(shown_skel.as_str())
                .bind(shown_skel2.as_str())
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
pub async fn login(
    db: &Db,
    pool: &HashPool,
    username: &str,
    password: &str,
) -> Result<UserRef, ApiError> {
    let row = sqlx::query(
        "SELECT id, name, registered, password_hash, mod_banned FROM users WHERE name_key = $1",
    )
    .bind(username.to_lowercase())
    .fetch_optional(&db.pool)
    .await
    .map_err(|e| ApiError::internal(db::db_err(e)))?;
    let bad = || ApiError::new(ErrorCode::BadCredentials, "wrong user name or password");
    let Some(row) = row else {
        // Spend the same time as a real check, so names cannot be probed by timing.
        let _ = verify_password(pool, password.to_string(), dummy_hash(pool).await?).await?;
        return Err(bad());
    };
    // A bot account has no password: it never logs in (it uses its bot tokens).
    let Ok(hash) = db::text(&row, "password_hash") else {
        let _ = verify_password(pool, password.to_string(), dummy_hash(pool).await?).await?;
        return Err(bad());
    };
    if !verify_password(pool, password.to_string(), hash).await? {
        return Err(bad());
    }
    // Told only to someone who knows the password: a closed account is not revealed to
    // anyone guessing names.
    if db::int(&row, "mod_banned").map_err(ApiError::internal)? != 0 {
        return Err(ApiError::new(
            ErrorCode::Banned,
            "this account was closed by a moderator: it cannot log in (the notice it was sent \
             says why)",
        ));
    }
    user_from_row(&row).map_err(ApiError::internal)
}

/// The id of a banned account, for the one thing its owner may still do (appeal the ban): the
/// name and password must be right and the account banned; anything else is answered as a
/// wrong password.
pub async fn banned_account(
    db: &Db,
    pool: &HashPool,
    username: &str,
    password: &str,
) -> Result<i64, ApiError> {
    let bad = || ApiError::new(ErrorCode::BadCredentials, "wrong user name or password");
    let row = sqlx::query("SELECT id, password_hash, mod_banned FROM users WHERE name_key = $1")
        .bind(username.to_lowercase())
        .fetch_optional(&db.pool)
        .await
        .map_err(|e| ApiError::internal(db::db_err(e)))?;
    let Some(row) = row else {
        let _ = verify_password(pool, password.to_string(), dummy_hash(pool).await?).await?;
        return Err(bad());
    };
    let Ok(hash) = db::text(&row, "password_hash") else {
        return Err(bad());
    };
    if !verify_password(pool, password.to_string(), hash).await?
        || db::int(&row, "mod_banned").map_err(ApiError::internal)? == 0
    {
        return Err(bad());
    }
    db::int(&row, "id").map_err(ApiError::internal)
}

/// A hash of a random password, checked against when a user name is unknown.
async fn dummy_hash(pool: &HashPool) -> Result<String, ApiError> {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    if let Some(h) = DUMMY.get() {
        return Ok(h.clone());
    }
    let h = hash_password(pool, to_hex(&random_bytes())).await?;
    Ok(DUMMY.get_or_init(|| h).clone())
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

/// The stored form of a session token: its SHA-256 in hex.
#[must_use]
pub fn token_hash(token: &str) -> String {
    to_hex(&sha256(token.as_bytes()))
}

/// End a session.
pub async fn end_session(db: &Db, token: &str) -> Result<(), ApiError> {
    sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
        .bind(token_hash(token))
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
         WHERE s.token_hash = $1 AND s.expires_at > $2 AND u.mod_banned = 0",
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
        assert!(check_password("short", "ann").is_err());
        assert!(check_password("long enough", "ann").is_ok());
    }

    #[test]
    fn confusable_names_share_a_skeleton_and_invisible_ones_are_refused() {
        let alice = name_skeleton("alice");
        for twin in [
            "\u{430}lice",
            "ALICE",
            "\u{ff41}\u{ff4c}\u{ff49}\u{ff43}\u{ff45}",
            "al\u{131}ce",
        ] {
            assert_eq!(
                name_skeleton(&check_username(twin).unwrap()),
                alice,
                "{twin}"
            );
        }
        assert_eq!(check_username("\u{ff41}lice").unwrap(), "alice");
        assert!(check_username("alice\u{3164}").is_err());
        assert!(check_username("ali\u{200b}ce").is_err());
        assert!(check_nickname("Ann\u{202e}B").is_err());
        assert_ne!(name_skeleton("alice"), name_skeleton("alina"));
        // A capital I reads as a lowercase l; a mark under a letter is still the letter.
        let (a, _) = name_keys("alice");
        for twin in ["aIice", "alic\u{1eb9}", "alice\u{323}", "ALICE"] {
            let (x, y) = name_keys(&check_username(twin).unwrap());
            assert!(x == a || y == a, "{twin}");
        }
        assert!(check_username("al\u{301}\u{301}ice").is_err());
        assert!(check_username("al1\u{301}ce").is_err());
        assert!(check_username("jos\u{e9}").is_ok());
    }

    #[test]
    fn the_most_common_passwords_are_refused() {
        for pw in ["password", "12345678", "        ", "aaaaaaaa", "11111111"] {
            assert_eq!(
                check_password(pw, "alice").unwrap_err().code,
                ErrorCode::BadPassword,
                "{pw:?}"
            );
        }
        for pw in ["correct horse", "battery staple", "another one"] {
            assert!(check_password(pw, "alice").is_ok(), "{pw:?}");
        }
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
        use argon2::password_hash::PasswordVerifier as _;
        let pool = HashPool::new(1, 4);
        let h = hash_password(&pool, "correct horse".into()).await.unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        // The standard verifier agrees (the PHC string is the usual one).
        let parsed = PasswordHash::new(&h).unwrap();
        assert!(Argon2::default()
            .verify_password(b"correct horse", &parsed)
            .is_ok());
        assert!(verify_password(&pool, "correct horse".into(), h.clone())
            .await
            .unwrap());
        assert!(!verify_password(&pool, "wrong horse".into(), h)
            .await
            .unwrap());
    }
}
