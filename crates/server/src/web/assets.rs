//! The browser client's files, embedded in the binary.
//!
//! Files live in `crates/server/web/`; each one served is listed in [`FILES`] with its path
//! under `/static/` and its content type. `index.html` (when listed) is also served at `/` and
//! at the client's page paths (`/table/...`, `/game/...`, `/user/...`), where the client's
//! scripts read the path.

use axum::extract::Path;
use std::sync::OnceLock;

use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};

/// An embedded file: its path under `/static/`, its content type, its bytes.
pub type Asset = (&'static str, &'static str, &'static [u8]);

/// Every embedded file. Add an entry per file:
/// `("app.js", "text/javascript; charset=utf-8", include_bytes!("../../web/app.js"))`.
pub const FILES: &[Asset] = &[
    (
        "icon-192.png",
        "image/png",
        include_bytes!("../../web/icon-192.png"),
    ),
    (
        "icon-512.png",
        "image/png",
        include_bytes!("../../web/icon-512.png"),
    ),
    (
        "icon.svg",
        "image/svg+xml",
        include_bytes!("../../web/icon.svg"),
    ),
    (
        "index.html",
        "text/html; charset=utf-8",
        include_bytes!("../../web/index.html"),
    ),
    (
        "js/api.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/api.js"),
    ),
    (
        "js/engines.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/engines.js"),
    ),
    (
        "js/app.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/app.js"),
    ),
    (
        "js/board.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/board.js"),
    ),
    (
        "js/call.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/call.js"),
    ),
    (
        "js/conn.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/conn.js"),
    ),
    (
        "js/context.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/context.js"),
    ),
    (
        "js/corr.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/corr.js"),
    ),
    (
        "js/deal.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/deal.js"),
    ),
    (
        "js/dom.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/dom.js"),
    ),
    (
        "js/format.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/format.js"),
    ),
    (
        "js/geometry.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/geometry.js"),
    ),
    (
        "js/howto.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/howto.js"),
    ),
    (
        "js/leaderboard.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/leaderboard.js"),
    ),
    (
        "js/lobby.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/lobby.js"),
    ),
    (
        "js/moderation.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/moderation.js"),
    ),
    (
        "js/offline.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/offline.js"),
    ),
    (
        "js/panels.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/panels.js"),
    ),
    (
        "js/profile.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/profile.js"),
    ),
    (
        "js/ratings.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/ratings.js"),
    ),
    (
        "js/replay.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/replay.js"),
    ),
    (
        "js/table.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/table.js"),
    ),
    (
        "js/tally.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/tally.js"),
    ),
    (
        "js/testpage.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/testpage.js"),
    ),
    (
        "js/tests.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/tests.js"),
    ),
    (
        "js/tiles.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/tiles.js"),
    ),
    (
        "js/tournaments.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/tournaments.js"),
    ),
    (
        "js/tourview.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/tourview.js"),
    ),
    (
        "js/verifyview.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/js/verifyview.js"),
    ),
    (
        "manifest.webmanifest",
        "application/manifest+json",
        include_bytes!("../../web/manifest.webmanifest"),
    ),
    (
        "offline.html",
        "text/html; charset=utf-8",
        include_bytes!("../../web/offline.html"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_bytes!("../../web/style.css"),
    ),
    (
        "sw-push.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/sw-push.js"),
    ),
    (
        "sw.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/sw.js"),
    ),
    (
        "test.html",
        "text/html; charset=utf-8",
        include_bytes!("../../web/test.html"),
    ),
];

/// The file at `path`, if embedded.
#[must_use]
pub fn find(path: &str) -> Option<&'static Asset> {
    FILES.iter().find(|(p, _, _)| *p == path)
}

/// The `Content-Security-Policy` of the client's pages.
pub const PAGE_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; \
     frame-ancestors 'none'";

/// A strong validator for an embedded file: the first 16 bytes of its SHA-256, in hex.
fn etag(index: usize) -> &'static str {
    static TAGS: OnceLock<Vec<String>> = OnceLock::new();
    &TAGS.get_or_init(|| {
        FILES
            .iter()
            .map(|(_, _, bytes)| {
                format!(
                    "\"{}\"",
                    crate::table::fairness::to_hex(&crate::table::fairness::sha256(bytes)[..16])
                )
            })
            .collect()
    })[index]
}

/// The file's answer: `no-cache` with an `ETag`, so browsers revalidate on every load (a new
/// server version is picked up at once) and get `304 Not Modified` while the file is the same.
fn serve(path: &str, headers: &HeaderMap) -> Response {
    match FILES.iter().position(|(p, _, _)| *p == path) {
        Some(i) => {
            let (_, mime, bytes) = FILES[i];
            let tag = etag(i);
            let fresh = headers
                .get(header::IF_NONE_MATCH)
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.split(',').any(|t| t.trim() == tag || t.trim() == "*"));
            let common = [
                (header::CACHE_CONTROL, "no-cache"),
                (header::ETAG, tag),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            ];
            if fresh {
                (StatusCode::NOT_MODIFIED, common).into_response()
            } else if mime.starts_with("text/html") {
                // Pages load only this server's own scripts, styles and images, talk only to
                // it, and may not be framed.
                let csp = (header::CONTENT_SECURITY_POLICY, PAGE_POLICY);
                (common, [(header::CONTENT_TYPE, mime), csp], bytes).into_response()
            } else {
                (common, [(header::CONTENT_TYPE, mime)], bytes).into_response()
            }
        }
        None => (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            format!("no file {path:?} is built into this server\n"),
        )
            .into_response(),
    }
}

/// `GET /` and the client's page paths: `index.html`.
pub async fn index(headers: HeaderMap) -> Response {
    serve("index.html", &headers)
}

/// `GET /favicon.ico`: browsers ask for it on their own; the icon (an SVG, which every current
/// browser shows as a favicon).
pub async fn favicon(headers: HeaderMap) -> Response {
    serve("icon.svg", &headers)
}

/// `GET /manifest.webmanifest`: the web app manifest (name, icons, colours), so that a phone can
/// add the site to its home screen.
pub async fn manifest(headers: HeaderMap) -> Response {
    serve("manifest.webmanifest", &headers)
}

/// `GET /sw.js`: the service worker (`web/sw.js`), at the site's root so that it serves the
/// whole site, with this release's fingerprint (of every embedded file) written into it: a new
/// release is a new worker, which replaces the old one's cache.
pub async fn service_worker(headers: HeaderMap) -> Response {
    static BODY: OnceLock<(String, String)> = OnceLock::new();
    let (body, tag) = BODY.get_or_init(|| {
        let mut all = Vec::new();
        for (path, _, bytes) in FILES {
            all.extend_from_slice(path.as_bytes());
            all.extend_from_slice(&crate::table::fairness::sha256(bytes));
        }
        let version = crate::table::fairness::to_hex(&crate::table::fairness::sha256(&all)[..8]);
        let (_, _, src) = find("sw.js").expect("sw.js is embedded");
        let body = String::from_utf8_lossy(src).replace("__FIVEUP_VERSION__", &version);
        (body, format!("\"sw-{version}\""))
    });
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == tag));
    let common = [
        (header::CACHE_CONTROL, "no-cache"),
        (header::ETAG, tag.as_str()),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    ];
    if fresh {
        return (StatusCode::NOT_MODIFIED, common).into_response();
    }
    (
        common,
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        body.clone(),
    )
        .into_response()
}

/// `GET /static/{*path}`.
pub async fn file(Path(path): Path<String>, headers: HeaderMap) -> Response {
    serve(&path, &headers)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file of `web/` is embedded, and every embedded file has a content type by its
    /// extension.
    #[test]
    fn every_web_file_is_embedded() {
        fn walk(dir: &std::path::Path, base: &std::path::Path, out: &mut Vec<String>) {
            for e in std::fs::read_dir(dir).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    walk(&p, base, out);
                } else {
                    out.push(
                        p.strip_prefix(base)
                            .unwrap()
                            .to_string_lossy()
                            .replace('\\', "/"),
                    );
                }
            }
        }
        let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
        let mut on_disk = Vec::new();
        walk(&base, &base, &mut on_disk);
        on_disk.sort();
        let mut listed: Vec<String> = FILES.iter().map(|(p, _, _)| (*p).to_string()).collect();
        listed.sort();
        assert_eq!(listed, on_disk);
        for (path, mime, bytes) in FILES {
            let want = match path.rsplit('.').next() {
                Some("html") => "text/html; charset=utf-8",
                Some("js") => "text/javascript; charset=utf-8",
                Some("css") => "text/css; charset=utf-8",
                Some("svg") => "image/svg+xml",
                Some("webmanifest") => "application/manifest+json",
                Some("png") => "image/png",
                other => panic!("no content type for {other:?}"),
            };
            assert_eq!(*mime, want, "{path}");
            assert!(!bytes.is_empty(), "{path}");
        }
    }

    /// The modules a script imports: `import ... from '...'`, `export ... from '...'`,
    /// `import '...'` and `import('...')`, as written.
    fn imports(src: &str) -> Vec<&str> {
        fn quoted(s: &str) -> Option<&str> {
            let s = s.trim_start();
            let q = s.chars().next().filter(|c| matches!(c, '\'' | '"' | '`'))?;
            let rest = &s[1..];
            rest.find(q).map(|end| &rest[..end])
        }
        let mut out = Vec::new();
        for line in src.lines() {
            let t = line.trim_start();
            if t.starts_with("import") || t.starts_with("export") || t.starts_with('}') {
                if let Some(at) = t.find(" from ") {
                    out.extend(quoted(&t[at + 6..]));
                } else if let Some(rest) = t.strip_prefix("import ") {
                    out.extend(quoted(rest));
                }
            }
        }
        for (at, _) in src.match_indices("import(") {
            out.extend(quoted(&src[at + 7..]));
        }
        out
    }

    /// Imports run one way in the client: `app.js` (the router) loads the pages, the pages
    /// import shared modules, and no module imports `app.js`: what the pages share with it
    /// (navigation, the session) is in `context.js`, which `app.js` fills in at start.
    #[test]
    fn no_module_imports_the_app() {
        let mut scripts = 0;
        for (path, _, bytes) in FILES {
            if !path.ends_with(".js") {
                continue;
            }
            scripts += 1;
            let src = std::str::from_utf8(bytes).unwrap();
            for module in imports(src) {
                assert!(
                    module.rsplit('/').next() != Some("app.js"),
                    "{path} imports {module}: pages take what they share with the app from \
                     js/context.js"
                );
            }
        }
        assert!(scripts > 20, "{scripts}");
        // The scan sees imports of every form: the router's pages and the pages' context.
        let of = |p: &str| imports(std::str::from_utf8(find(p).unwrap().2).unwrap());
        let app = of("js/app.js");
        assert!(
            app.contains(&"./context.js") && app.contains(&"./lobby.js"),
            "{app:?}"
        );
        for page in ["js/lobby.js", "js/table.js", "js/tournaments.js"] {
            assert!(of(page).contains(&"./context.js"), "{page}");
        }
    }

    #[test]
    fn files_revalidate_with_etags() {
        let r = serve("style.css", &HeaderMap::new());
        assert_eq!(r.status(), StatusCode::OK);
        assert_eq!(r.headers()[header::CACHE_CONTROL], "no-cache");
        let tag = r.headers()[header::ETAG].clone();
        let mut h = HeaderMap::new();
        h.insert(header::IF_NONE_MATCH, tag.clone());
        let again = serve("style.css", &h);
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
        assert_eq!(again.headers()[header::ETAG], tag);
        h.insert(header::IF_NONE_MATCH, "\"other\"".parse().unwrap());
        assert_eq!(serve("style.css", &h).status(), StatusCode::OK);
        assert_eq!(serve("nope.js", &h).status(), StatusCode::NOT_FOUND);
        let page = serve("index.html", &HeaderMap::new());
        assert_eq!(page.headers()[header::CONTENT_SECURITY_POLICY], PAGE_POLICY);
        assert!(r.headers().get(header::CONTENT_SECURITY_POLICY).is_none());
    }

    #[tokio::test]
    async fn the_service_worker_carries_the_release() {
        let r = service_worker(HeaderMap::new()).await;
        assert_eq!(r.status(), StatusCode::OK);
        assert_eq!(r.headers()[header::CACHE_CONTROL], "no-cache");
        let tag = r.headers()[header::ETAG].clone();
        let body = axum::body::to_bytes(r.into_body(), 1 << 20).await.unwrap();
        let text = String::from_utf8(body.to_vec()).unwrap();
        assert!(
            !text.contains("__FIVEUP_VERSION__"),
            "the release is written in"
        );
        let version = tag
            .to_str()
            .unwrap()
            .trim_matches('"')
            .trim_start_matches("sw-");
        assert_eq!(version.len(), 16);
        assert!(text.contains(&format!("const VERSION = '{version}';")));
        let mut h = HeaderMap::new();
        h.insert(header::IF_NONE_MATCH, tag);
        assert_eq!(service_worker(h).await.status(), StatusCode::NOT_MODIFIED);
    }
}
