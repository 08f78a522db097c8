//! The browser client's files, embedded in the binary.
//!
//! Files live in `crates/server/web/`; each one served is listed in [`FILES`] with its path
//! under `/static/` and its content type. `index.html` (when listed) is also served at `/` and
//! at the client's page paths (`/table/...`, `/game/...`, `/user/...`), where the client's
//! scripts read the path.

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

/// An embedded file: its path under `/static/`, its content type, its bytes.
pub type Asset = (&'static str, &'static str, &'static [u8]);

/// Every embedded file. Add an entry per file:
/// `("app.js", "text/javascript; charset=utf-8", include_bytes!("../web/app.js"))`.
pub const FILES: &[Asset] = &[];

/// The file at `path`, if embedded.
#[must_use]
pub fn find(path: &str) -> Option<&'static Asset> {
    FILES.iter().find(|(p, _, _)| *p == path)
}

fn serve(path: &str) -> Response {
    match find(path) {
        Some((_, mime, bytes)) => (
            [
                (header::CONTENT_TYPE, *mime),
                (header::CACHE_CONTROL, "no-cache"),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            ],
            *bytes,
        )
            .into_response(),
        None => (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            format!("no file {path:?} is built into this server\n"),
        )
            .into_response(),
    }
}

/// `GET /` and the client's page paths: `index.html`.
pub async fn index() -> Response {
    serve("index.html")
}

/// `GET /static/{*path}`.
pub async fn file(Path(path): Path<String>) -> Response {
    serve(&path)
}
