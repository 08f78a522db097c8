//! Correspondence notifications in headless Chromium: notifications allowed (the permission
//! granted through the DevTools protocol), the site's service worker registered from the
//! profile's settings, a push delivered to it through the DevTools protocol's
//! `ServiceWorker.deliverPushMessage`, and the notification it shows. Subscribing needs the
//! browser vendor's push service, which a test with no network cannot reach: that step is
//! checked to fail with a message in words, and the push is delivered to the worker directly.
//! Clicking a system notification cannot be driven through WebDriver or the DevTools protocol.
//! Skipped, with a message, when Chromium or chromedriver is not installed.

use std::time::Duration;

use fiveup_e2e::{click, start_server_with, wait_js, Browsers, ChromeDriver};
use serde_json::{json, Value};

/// A DevTools command sent through chromedriver (`goog/cdp/execute`).
#[derive(Debug)]
struct Cdp(&'static str, Value);

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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_push_shows_a_notification_that_names_the_table() {
    let browsers = match Browsers::find() {
        Ok(b) => b,
        Err(msg) => {
            eprintln!("{msg}");
            return;
        }
    };
    let dir = tempfile::tempdir().unwrap();
    let server = start_server_with(
        dir.path(),
        Duration::ZERO,
        Duration::from_millis(30),
        |_| {},
    )
    .await;
    let base = format!("http://{}", server.local_addr());
    let driver = ChromeDriver::start(&browsers).unwrap();
    let c = driver.session(1366, 900).await.unwrap();
    c.goto(&format!("{base}/")).await.unwrap();
    let me: Value = c
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch('/api/guest', {method: 'POST', headers: {'Content-Type': 'application/json'},
               body: JSON.stringify({nickname: 'Ann'})}).then((r) => r.json()).then(done, (e) => done(String(e)));",
            vec![],
        )
        .await
        .unwrap();
    assert!(me["user"]["id"].is_i64(), "{me}");
    c.issue_cmd(Cdp(
        "Browser.grantPermissions",
        json!({"permissions": ["notifications"], "origin": base}),
    ))
    .await
    .unwrap();
    c.goto(&format!("{base}/user/me")).await.unwrap();
    wait_js(
        &c,
        "return document.getElementById('push-enable') !== null",
        Duration::from_secs(20),
        "the notification settings",
    )
    .await;
    assert_eq!(
        c.execute("return Notification.permission", vec![])
            .await
            .unwrap(),
        "granted"
    );
    click(&c, "#push-enable").await;
    // The worker is registered (subscribing then needs the push service, out of reach here).
    let script = wait_js(
        &c,
        "return window.__sw || (navigator.serviceWorker.getRegistration('/')
           .then((r) => { window.__sw = r && r.active ? r.active.scriptURL : ''; }), '')",
        Duration::from_secs(20),
        "the service worker",
    )
    .await;
    assert_eq!(script, format!("{base}/sw.js"));
    // Headless Chromium with no network never answers the subscription (it waits on the
    // vendor's push service): the page's status line stays empty or names the failure.
    let status = c
        .execute(
            "return document.getElementById('push-status').textContent",
            vec![],
        )
        .await
        .unwrap();
    eprintln!("subscribing in headless Chromium: {status:?}");
    // A push as the server sends it, delivered to the worker.
    let payload = json!({"kind": "turn", "title": "Your turn", "body": "Your move against Bob.",
                         "url": "/table/abc123", "tables": ["abc123"], "tag": "table-abc123"});
    c.issue_cmd(Cdp("ServiceWorker.enable", json!({})))
        .await
        .unwrap();
    let mut delivered = false;
    let mut errors = Vec::new();
    for id in 0..8 {
        match c
            .issue_cmd(Cdp(
                "ServiceWorker.deliverPushMessage",
                json!({"origin": base, "registrationId": id.to_string(), "data": payload.to_string()}),
            ))
            .await
        {
            // Chromium accepts a push for an id it does not know without an error, and the
            // site's worker may have any small id (the page registers it on load): send to
            // each, and the notification says which one took it.
            Ok(_) => delivered = true,
            Err(e) => errors.push(e.to_string()),
        }
    }
    assert!(delivered, "no registration took the push: {errors:?}");
    let shown = wait_js(
        &c,
        "return window.__shown || (navigator.serviceWorker.getRegistration('/')
           .then((r) => r.getNotifications()).then((ns) => { if (ns.length) window.__shown =
             ns.map((n) => ({title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url})); }), null)",
        Duration::from_secs(20),
        "the notification",
    )
    .await;
    assert_eq!(
        shown,
        json!([{"title": "Your turn", "body": "Your move against Bob.", "tag": "table-abc123",
                "url": "/table/abc123"}])
    );
    c.close().await.unwrap();
    server.shutdown().await;
}
