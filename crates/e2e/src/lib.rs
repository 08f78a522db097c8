//! # fiveup-e2e
//!
//! The harness of the browser tests (`tests/browser.rs`): the real game server on a free port
//! with a temporary SQLite file, `chromedriver` on a free port, and headless Chromium sessions
//! driven over WebDriver with `fantoccini`. Chromium runs with a fresh profile directory per
//! session and every background-networking feature off, so it makes no connection besides the
//! test server. When Chromium or chromedriver is missing, [`Browsers::find`] says so and the
//! tests skip with that message.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

/// The Chromium and chromedriver programs.
#[derive(Clone, Debug)]
pub struct Browsers {
    /// The browser.
    pub chromium: PathBuf,
    /// The WebDriver server for it.
    pub chromedriver: PathBuf,
}

impl Browsers {
    /// Find both programs: `FIVEUP_CHROMIUM` and `FIVEUP_CHROMEDRIVER` if set, else the Debian
    /// packages' `/usr/bin/chromium` and `/usr/bin/chromedriver`. The error says what is
    /// missing and how to install it.
    pub fn find() -> Result<Browsers, String> {
        let pick = |var: &str, default: &str| {
            std::env::var_os(var).map_or_else(|| PathBuf::from(default), PathBuf::from)
        };
        let chromium = pick("FIVEUP_CHROMIUM", "/usr/bin/chromium");
        let chromedriver = pick("FIVEUP_CHROMEDRIVER", "/usr/bin/chromedriver");
        for p in [&chromium, &chromedriver] {
            if !p.is_file() {
                return Err(format!(
                    "browser tests skipped: {} not found (install the Debian packages with \
                     `apt-get install -y chromium chromium-driver`, or set FIVEUP_CHROMIUM and \
                     FIVEUP_CHROMEDRIVER)",
                    p.display()
                ));
            }
        }
        Ok(Browsers {
            chromium,
            chromedriver,
        })
    }
}

/// A free TCP port on loopback.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port on loopback")
}

/// A running chromedriver, stopped when dropped. Each session gets its own Chromium profile
/// directory under `profiles`.
#[derive(Debug)]
pub struct ChromeDriver {
    child: Child,
    port: u16,
    browsers: Browsers,
    profiles: tempfile::TempDir,
    sessions: std::sync::Mutex<Vec<String>>,
}

/// The flags every Chromium of the tests runs with: headless, and quiet on the network.
pub const CHROMIUM_FLAGS: [&str; 11] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--force-device-scale-factor=1",
    "--hide-scrollbars",
];

impl ChromeDriver {
    /// Start chromedriver on a free port and wait until it answers.
    pub fn start(browsers: &Browsers) -> Result<ChromeDriver, String> {
        let port = free_port();
        let child = Command::new(&browsers.chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", browsers.chromedriver.display()))?;
        let driver = ChromeDriver {
            child,
            port,
            browsers: browsers.clone(),
            profiles: tempfile::tempdir().map_err(|e| e.to_string())?,
            sessions: std::sync::Mutex::new(Vec::new()),
        };
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if start.elapsed() > Duration::from_secs(20) {
                return Err("chromedriver did not start listening within 20 s".to_string());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(driver)
    }

    /// A new browser session (its own Chromium, profile and cookies) with a window of
    /// `width` x `height` CSS pixels.
    pub async fn session(&self, width: u32, height: u32) -> Result<Client, String> {
        self.session_with(width, height, &[]).await
    }

    /// [`ChromeDriver::session`] with extra Chromium flags (such as
    /// `--force-prefers-reduced-motion`).
    pub async fn session_with(
        &self,
        width: u32,
        height: u32,
        extra: &[&str],
    ) -> Result<Client, String> {
        let profile = tempfile::Builder::new()
            .prefix("profile")
            .tempdir_in(self.profiles.path())
            .map_err(|e| e.to_string())?
            .keep();
        let mut args: Vec<String> = CHROMIUM_FLAGS.iter().map(|s| (*s).to_string()).collect();
        args.push(format!("--user-data-dir={}", profile.display()));
        args.push(format!("--window-size={width},{height}"));
        args.extend(extra.iter().map(|s| (*s).to_string()));
        // The browser's console is kept (see `console_errors`).
        let caps = json!({
            "browserName": "chrome",
            "goog:loggingPrefs": { "browser": "ALL" },
            "goog:chromeOptions": {
                "binary": self.browsers.chromium.to_string_lossy(),
                "args": args,
            }
        });
        let Value::Object(caps) = caps else {
            unreachable!("an object")
        };
        // On a loaded machine chromedriver has been seen to drop the first session request
        // while Chromium starts; a session is asked for up to three times.
        let mut last = String::new();
        let mut opened = None;
        for attempt in 0..3u64 {
            match ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
                .capabilities(caps.clone())
                .connect(&format!("http://127.0.0.1:{}", self.port))
                .await
            {
                Ok(c) => {
                    opened = Some(c);
                    break;
                }
                Err(e) => {
                    last = e.to_string();
                    tokio::time::sleep(std::time::Duration::from_secs(1 + attempt)).await;
                }
            }
        }
        let client =
            opened.ok_or_else(|| format!("cannot open a browser session (3 tries): {last}"))?;
        if let Ok(Some(id)) = client.session_id().await {
            self.sessions.lock().expect("not poisoned").push(id);
        }
        // The window may differ from the viewport; make the viewport the size asked for.
        set_viewport(&client, width, height).await?;
        Ok(client)
    }
}

/// Resize the window of `client` so that its viewport (the page's `innerWidth` and
/// `innerHeight`) is `width` by `height`.
pub async fn set_viewport(client: &Client, width: u32, height: u32) -> Result<(), String> {
    let inner: Value = client
        .execute("return [window.innerWidth, window.innerHeight];", vec![])
        .await
        .map_err(|e| e.to_string())?;
    let (iw, ih) = (
        inner[0].as_u64().unwrap_or(0) as u32,
        inner[1].as_u64().unwrap_or(0) as u32,
    );
    if (iw, ih) != (width, height) && iw > 0 && ih > 0 {
        let (ww, wh) = client.get_window_size().await.map_err(|e| e.to_string())?;
        client
            .set_window_size(
                (ww as u32 + width).saturating_sub(iw),
                (wh as u32 + height).saturating_sub(ih),
            )
            .await
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

impl ChromeDriver {
    /// The console messages of level `SEVERE` (script errors, failed loads, `console.error`)
    /// that the session's pages logged since the last call, read from chromedriver's log.
    pub async fn console_errors(&self, c: &Client) -> Vec<String> {
        self.console_messages(c)
            .await
            .into_iter()
            .filter(|(level, _)| level == "SEVERE")
            .map(|(_, m)| m)
            .collect()
    }

    /// Every console message (level and text: warnings and logs too) that the session's pages
    /// logged since the last call to this or [`ChromeDriver::console_errors`].
    pub async fn console_messages(&self, c: &Client) -> Vec<(String, String)> {
        let Ok(Some(id)) = c.session_id().await else {
            return vec![("SEVERE".to_string(), "no session id".to_string())];
        };
        let port = self.port;
        let answer = tokio::task::spawn_blocking(move || {
            http_call(
                port,
                "POST",
                &format!("/session/{id}/se/log"),
                r#"{"type":"browser"}"#,
            )
        })
        .await
        .ok()
        .and_then(Result::ok)
        .unwrap_or_default();
        let body = answer.split("\r\n\r\n").nth(1).unwrap_or("");
        let v: Value = serde_json::from_str(body).unwrap_or(Value::Null);
        v["value"]
            .as_array()
            .map(|entries| {
                entries
                    .iter()
                    .map(|e| {
                        (
                            e["level"].as_str().unwrap_or("").to_string(),
                            e["message"].as_str().unwrap_or("").to_string(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// A plain blocking HTTP/1.1 request to chromedriver on loopback; the whole answer as text.
fn http_call(port: u16, method: &str, path: &str, body: &str) -> std::io::Result<String> {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port))?;
    s.set_read_timeout(Some(Duration::from_secs(10)))?;
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    // Read the head, then exactly Content-Length bytes (chromedriver may keep the connection
    // open after answering).
    let mut out = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        let n = s.read(&mut buf)?;
        if n == 0 {
            break;
        }
        out.extend_from_slice(&buf[..n]);
        if let Some(end) = out.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&out[..end]).to_ascii_lowercase();
            let len = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok());
            if len.is_some_and(|len| out.len() >= end + 4 + len) {
                break;
            }
        }
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

impl Drop for ChromeDriver {
    fn drop(&mut self) {
        // End every session still open (a failed test never reached its `close`), so that no
        // browser outlives the test, then stop chromedriver.
        let sessions =
            std::mem::take(&mut *self.sessions.lock().unwrap_or_else(|e| e.into_inner()));
        for id in sessions {
            let _ = delete_session(self.port, &id);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `DELETE /session/{id}` on chromedriver, with a plain blocking HTTP request (this runs in
/// `Drop`, outside any async runtime). Closing a session that is already closed is harmless.
fn delete_session(port: u16, id: &str) -> std::io::Result<()> {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port))?;
    s.set_read_timeout(Some(Duration::from_secs(10)))?;
    write!(
        s,
        "DELETE /session/{id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    )?;
    // The first bytes of the answer mean the session is gone (or was already).
    let mut answer = [0u8; 512];
    let _ = s.read(&mut answer)?;
    Ok(())
}

/// Start the real game server on a free port with an SQLite file in `dir`: computer players
/// act after `bot_delay`, a deal waits at most `seed_wait` for the players' seeds.
pub async fn start_server(
    dir: &Path,
    bot_delay: Duration,
    seed_wait: Duration,
) -> fiveup_server::Server {
    start_server_with(dir, bot_delay, seed_wait, |_| {}).await
}

/// [`start_server`] with the configuration changed by `change` first (another address, a
/// takeover delay, ...).
pub async fn start_server_with(
    dir: &Path,
    bot_delay: Duration,
    seed_wait: Duration,
    change: impl FnOnce(&mut fiveup_server::Config),
) -> fiveup_server::Server {
    let mut c = fiveup_server::Config::new();
    c.bind = "127.0.0.1:0".parse().expect("an address");
    c.database = dir.join("fiveup.db").to_string_lossy().into_owned();
    c.bot_delay = bot_delay;
    c.takeover = None;
    c.seed_wait = seed_wait;
    c.hint_config.samples = 16;
    c.review_config.samples = 8;
    c.expert_spec = "expert:samples=16,threads=1".to_string();
    c.http_rate = (0.0, 0.0);
    c.ws_rate = (200.0, 400.0);
    // No fair-play analysis of the rated games the tests play (a test may turn it on).
    c.fairplay_share = 0;
    change(&mut c);
    fiveup_server::start(c).await.expect("the server starts")
}

/// The width and height of a PNG image, if `bytes` is one.
#[must_use]
pub fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.len() < 24 || &bytes[..8] != b"\x89PNG\r\n\x1a\n" || &bytes[12..16] != b"IHDR" {
        return None;
    }
    let w = u32::from_be_bytes(bytes[16..20].try_into().ok()?);
    let h = u32::from_be_bytes(bytes[20..24].try_into().ok()?);
    Some((w, h))
}

/// Run `script` (a function body returning a value) until it returns something truthy, or
/// fail after `timeout` with `what` and the last value.
pub async fn wait_js(c: &Client, script: &str, timeout: Duration, what: &str) -> Value {
    let start = Instant::now();
    loop {
        let last = match c.execute(script, vec![]).await {
            Ok(v) => {
                let truthy = match &v {
                    Value::Null => false,
                    Value::Bool(b) => *b,
                    Value::Number(n) => n.as_f64() != Some(0.0),
                    Value::String(s) => !s.is_empty(),
                    _ => true,
                };
                if truthy {
                    return v;
                }
                v
            }
            Err(e) => Value::String(e.to_string()),
        };
        assert!(
            start.elapsed() < timeout,
            "timed out after {timeout:?} waiting for {what} (last value: {last})"
        );
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}

/// Click the element `css`, waiting up to five seconds for it to appear.
pub async fn click(c: &Client, css: &str) {
    let start = Instant::now();
    loop {
        match c.find(Locator::Css(css)).await {
            Ok(e) => match e.click().await {
                Ok(()) => return,
                Err(err) if start.elapsed() > Duration::from_secs(5) => {
                    panic!("cannot click {css}: {err}")
                }
                Err(_) => {}
            },
            Err(err) if start.elapsed() > Duration::from_secs(5) => {
                panic!("no element {css}: {err}")
            }
            Err(_) => {}
        }
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}

/// Type `text` into the input `css` (after clearing it).
pub async fn fill(c: &Client, css: &str, text: &str) {
    let e = c
        .wait()
        .at_most(Duration::from_secs(5))
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("no input {css}: {e}"));
    e.clear().await.expect("clear");
    e.send_keys(text).await.expect("type");
}

/// Choose the option with `value` in the select `css`.
pub async fn select(c: &Client, css: &str, value: &str) {
    let e = c
        .wait()
        .at_most(Duration::from_secs(5))
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("no select {css}: {e}"));
    e.select_by_value(value)
        .await
        .unwrap_or_else(|e| panic!("cannot choose {value} in {css}: {e}"));
}

/// Where the browser tests find axe-core (`axe.min.js`): `FIVEUP_AXE` if set, else
/// `crates/e2e/axe/node_modules/axe-core/axe.min.js`, where `.ci/run` installs it with npm.
pub fn axe_source() -> Result<String, String> {
    let path = std::env::var_os("FIVEUP_AXE").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("axe/node_modules/axe-core/axe.min.js"),
        PathBuf::from,
    );
    std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "axe-core not found at {} ({e}): install it with              `npm install --no-save --no-package-lock --prefix crates/e2e/axe axe-core@4.11`",
            path.display()
        )
    })
}

/// Run axe-core (`source`, from [`axe_source`]) on the page open in `c`: the violations of
/// serious or critical impact, each as `rule: impact: what (where)`.
pub async fn axe_violations(c: &Client, source: &str) -> Vec<String> {
    c.execute(source, vec![]).await.expect("axe-core loads");
    let r = c
        .execute_async(
            "const done = arguments[arguments.length - 1];
             axe.run(document, { resultTypes: ['violations'] })
               .then((r) => done(r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
                 .map((v) => `${v.id}: ${v.impact}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')})`)),
                     (e) => done([`axe failed: ${e}`]));",
            vec![],
        )
        .await
        .expect("axe-core runs");
    serde_json::from_value(r).unwrap_or_default()
}

/// The page's script errors (collected by the client in `window.fiveupErrors`).
pub async fn script_errors(c: &Client) -> Vec<String> {
    c.execute("return window.fiveupErrors || [];", vec![])
        .await
        .ok()
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default()
}

/// A Chrome DevTools command sent through chromedriver (`goog/cdp/execute`): its method and
/// parameters, as in `c.issue_cmd(Cdp("Input.dispatchTouchEvent", json!({...})))`.
#[derive(Debug)]
pub struct Cdp(pub &'static str, pub Value);

impl fantoccini::wd::WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/goog/cdp/execute",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (
            http::Method::POST,
            Some(json!({"cmd": self.0, "params": self.1}).to_string()),
        )
    }
}

/// A tap with a finger at `(x, y)` (CSS pixels in the window), as a phone's touch screen sends
/// it: a touch start and end, through the DevTools protocol (trusted events, so the page sees a
/// real gesture).
pub async fn tap(c: &Client, x: f64, y: f64) {
    for kind in ["touchStart", "touchEnd"] {
        let points = if kind == "touchEnd" {
            json!([])
        } else {
            json!([{ "x": x, "y": y }])
        };
        c.issue_cmd(Cdp(
            "Input.dispatchTouchEvent",
            json!({ "type": kind, "touchPoints": points }),
        ))
        .await
        .expect("a touch event");
    }
}
