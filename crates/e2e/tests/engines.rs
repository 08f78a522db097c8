//! The engines page and a person's bots in headless Chromium, at a phone's, a laptop's and a
//! wide window's size: a registered person creates a bot from their profile with the keyboard,
//! sees its token once (with a copy button), the token works on the bot API, revokes it (the
//! bot API refuses it at once), and finds the bot on the engines page. Each page fits the
//! window, logs no console error, passes axe-core with no serious or critical violation, and is
//! photographed. Skipped, with a message, when Chromium or chromedriver is not installed.

use std::path::PathBuf;
use std::time::Duration;

use fantoccini::Client;
use fiveup_e2e::{
    axe_source, axe_violations, click, fill, png_size, start_server, wait_js, Browsers,
    ChromeDriver,
};
use serde_json::Value;

const SIZES: [(u32, u32); 3] = [(390, 844), (1366, 900), (1920, 1080)];

async fn check_page(driver: &ChromeDriver, c: &Client, axe: &str, name: &str, size: (u32, u32)) {
    let what = format!("{name} at {}x{}", size.0, size.1);
    c.execute("window.scrollTo(0, 0);", vec![]).await.unwrap();
    let w = c
        .execute(
            "return [document.documentElement.scrollWidth, window.innerWidth];",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(w[0], w[1], "{what}: the page is wider than the window");
    let errors = driver.console_errors(c).await;
    assert!(errors.is_empty(), "{what}: console errors: {errors:?}");
    let script: Value = c
        .execute("return window.fiveupErrors || [];", vec![])
        .await
        .unwrap();
    assert_eq!(script, Value::Array(vec![]), "{what}: script errors");
    let v = axe_violations(c, axe).await;
    assert!(
        v.is_empty(),
        "{what}: accessibility violations:\n{}",
        v.join("\n")
    );
    let png = c.screenshot().await.expect("a screenshot");
    assert_eq!(png_size(&png), Some(size), "{what}: the PNG's size");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser-shots");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{name}-{}x{}.png", size.0, size.1)), &png).unwrap();
}

/// The status of a bot API request with `token` (from the test, not the page: a refusal in the
/// page would be logged as a console error).
async fn bot_status(addr: std::net::SocketAddr, token: &str) -> u16 {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "GET /api/bot/account HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n\r\n"
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), s.read_to_end(&mut raw))
        .await
        .unwrap()
        .unwrap();
    String::from_utf8_lossy(&raw)
        .split(' ')
        .nth(1)
        .and_then(|x| x.parse().ok())
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_creates_and_revokes_a_bot_token_and_finds_the_bot_on_the_engines_page() {
    let browsers = match Browsers::find() {
        Ok(b) => b,
        Err(msg) => {
            eprintln!("{msg}");
            return;
        }
    };
    let axe = axe_source().unwrap_or_else(|m| panic!("{m}"));
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(dir.path(), Duration::ZERO, Duration::from_secs(10)).await;
    let base = format!("http://{}", server.local_addr());
    let driver = ChromeDriver::start(&browsers).unwrap();
    for (k, size) in SIZES.into_iter().enumerate() {
        let c = driver.session(size.0, size.1).await.unwrap();
        c.goto(&base).await.unwrap();
        let status = c
            .execute(
                "return fetch('/api/register', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({username: arguments[0], password: 'correct horse'})}).then((r) => r.status);",
                vec![Value::String(format!("owner{k}"))],
            )
            .await
            .unwrap();
        assert_eq!(status, 200);
        c.goto(&format!("{base}/user/me")).await.unwrap();
        wait_js(
            &c,
            "return !!document.querySelector('#bot-list ul, #bot-list p');",
            Duration::from_secs(10),
            "the profile's bots",
        )
        .await;
        // With the keyboard: the name, then Enter submits the form.
        let bot = format!("engine{k}");
        fill(&c, "#bot-name", &format!("{bot}\u{E007}")).await;
        wait_js(&c, "return (document.querySelector('#token-value') || {}).value?.startsWith('fub_') && document.querySelectorAll('#bot-list .revoke').length === 1;", Duration::from_secs(10), "the new token").await;
        let token = c
            .execute(
                "return document.querySelector('#token-value').value;",
                vec![],
            )
            .await
            .unwrap()
            .as_str()
            .unwrap()
            .to_string();
        assert_eq!(token.len(), 68);
        let focused = c
            .execute("return document.activeElement.id;", vec![])
            .await
            .unwrap();
        assert_eq!(
            focused, "token-value",
            "the token is focused and selected, ready to copy"
        );
        click(&c, "#copy-token").await;
        wait_js(
            &c,
            "return document.querySelector('#bots-status').textContent.length > 0;",
            Duration::from_secs(5),
            "the copy's answer",
        )
        .await;
        assert_eq!(bot_status(server.local_addr(), &token).await, 200);
        check_page(&driver, &c, &axe, "profile-bots", size).await;
        // Shown once: the list does not hold it, and a reload does not show it again.
        c.refresh().await.unwrap();
        wait_js(
            &c,
            "return document.querySelectorAll('#bot-list .revoke').length === 1;",
            Duration::from_secs(10),
            "the profile again",
        )
        .await;
        let page = c
            .execute("return document.body.innerHTML;", vec![])
            .await
            .unwrap();
        assert!(!page.as_str().unwrap().contains(&token[4..]));
        click(&c, "#bot-list .revoke").await;
        // Revoking asks first.
        click(&c, "#bot-list .revoke-yes").await;
        wait_js(&c, "return document.querySelector('#bots-status').textContent.includes('revoked') && document.querySelectorAll('#bot-list .revoke').length === 0;", Duration::from_secs(10), "the revocation").await;
        assert_eq!(bot_status(server.local_addr(), &token).await, 401);
        c.goto(&format!("{base}/engines")).await.unwrap();
        wait_js(&c, &format!("return !!document.querySelector('#engines') && document.querySelector('#engines').textContent.includes({bot:?});"), Duration::from_secs(10), "the engines page").await;
        check_page(&driver, &c, &axe, "engines", size).await;
        c.close().await.unwrap();
    }
    server.shutdown().await;
}
