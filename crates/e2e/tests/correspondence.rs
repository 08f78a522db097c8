//! Correspondence notifications in headless Chromium: notifications allowed (the permission
//! granted through the DevTools protocol), the site's service worker registered from the
//! profile's settings, a push delivered to it through the DevTools protocol's
//! `ServiceWorker.deliverPushMessage`, and the notification it shows. Subscribing needs the
//! browser vendor's push service, which a test with no network cannot reach: that step is
//! checked to fail with a message in words, and the push is delivered to the worker directly.
//! Clicking a system notification cannot be driven through WebDriver or the DevTools protocol.
//! Skipped, with a message, when Chromium or chromedriver is not installed.

use std::time::Duration;

use fiveup_e2e::{click, start_server_with, wait_js, Browsers, Cdp, ChromeDriver};
use serde_json::{json, Value};

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
    for id in 0..64 {
        match c
            .issue_cmd(Cdp(
                "ServiceWorker.deliverPushMessage",
                json!({"origin": base, "registrationId": id.to_string(), "data": payload.to_string()}),
            ))
            .await
        {
            // Chromium accepts a push for an id it does not know without an error, and the
            // site's worker may have any small id (the page registers it on load, and
            // Chromium numbers every registration of the profile: ids past 8 were seen): send
            // to each of the first 64, and the notification says which one took it.
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

// ---------------------------------------------------------------------------------------------
// Two people, one game, over simulated days
// ---------------------------------------------------------------------------------------------

/// Monday 2026-11-23 09:00 UTC.
const MONDAY_9: i64 = 1_795_392_000 + 9 * 3600;
const HOUR: i64 = 3600;

/// A browser's push subscription as the server stores it: the public key and secret of the
/// RFC 8291 example (any valid P-256 point does; the receiver does not decrypt).
const P256DH: &str =
    "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
const AUTH: &str = "BTBZMqHH6r4Tts7J_aSIgg";

/// A push service on loopback: the path of every message posted to it, answered 201.
async fn push_receiver() -> (u16, std::sync::Arc<std::sync::Mutex<Vec<String>>>) {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let got = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = l.local_addr().unwrap().port();
    let g = got.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut s, _)) = l.accept().await else {
                return;
            };
            let g = g.clone();
            tokio::spawn(async move {
                let mut buf = Vec::new();
                let mut chunk = [0u8; 4096];
                // The head, then as many bytes of body as it announces.
                let (head_end, length) = loop {
                    let Ok(n) = s.read(&mut chunk).await else {
                        return;
                    };
                    if n == 0 {
                        return;
                    }
                    buf.extend_from_slice(&chunk[..n]);
                    if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                        let head = String::from_utf8_lossy(&buf[..i]).to_lowercase();
                        let length = head
                            .lines()
                            .find_map(|l| l.strip_prefix("content-length:"))
                            .and_then(|v| v.trim().parse::<usize>().ok())
                            .unwrap_or(0);
                        break (i + 4, length);
                    }
                };
                while buf.len() < head_end + length {
                    match s.read(&mut chunk).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => buf.extend_from_slice(&chunk[..n]),
                    }
                }
                let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
                let path = head.split_whitespace().nth(1).unwrap_or("").to_string();
                g.lock().unwrap().push(path);
                let _ = s
                    .write_all(
                        b"HTTP/1.1 201 Created\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                    )
                    .await;
            });
        }
    });
    (port, got)
}

/// `fetch` from the page (with its session), answering `{status, body}`.
async fn page_fetch(c: &fantoccini::Client, method: &str, path: &str, body: Value) -> Value {
    c.execute_async(
        "const [method, path, body, done] = arguments;
         const init = {method, headers: {'Content-Type': 'application/json'}};
         if (body !== null) init.body = JSON.stringify(body);
         fetch(path, init).then(async (r) => done({status: r.status, body: await r.text()}),
           (e) => done({status: 0, body: String(e)}));",
        vec![json!(method), json!(path), body],
    )
    .await
    .unwrap()
}

async fn guest_in(c: &fantoccini::Client, base: &str, name: &str) {
    c.goto(base).await.unwrap();
    fiveup_e2e::fill(c, "#guest-name", name).await;
    click(c, "#guest-go").await;
    wait_js(
        c,
        &format!("return document.querySelector('#who').textContent.includes({name:?}) && !!document.querySelector('#create-go');"),
        Duration::from_secs(20),
        "the lobby after logging in",
    )
    .await;
}

const TABLE_STATE_JS: &str = r#"
const r = document.querySelector('.table-page');
if (!r) return {page: false};
const next = document.querySelector('#next-hand');
return {
  page: true,
  version: Number(r.dataset.version || 0),
  status: r.dataset.status || '',
  turn: r.dataset.turn || '',
  over: !!document.querySelector('#summary .game-over'),
  summary: !!document.querySelector('#summary'),
  next: !!next && !next.disabled,
  playable: document.querySelectorAll('#hand .hand-tile.playable').length,
  draw: !!document.querySelector('#draw'),
  pass: !!document.querySelector('#pass'),
  errors: window.fiveupErrors || [],
};"#;

/// Make one move at the table page if it is this person's: the first playable tile (and the
/// first end offered), else draw or pass. Whether a move was made.
async fn move_once(c: &fantoccini::Client) -> bool {
    let s = c.execute(TABLE_STATE_JS, vec![]).await.unwrap();
    assert_eq!(s["errors"], json!([]), "script errors at the table");
    if s["turn"] != "mine" || s["summary"] == true {
        if s["next"] == true && s["over"] == false {
            click(c, "#next-hand").await;
        }
        return false;
    }
    let version = s["version"].as_u64().unwrap();
    if s["playable"].as_u64().unwrap() > 0 {
        click(c, "#hand .hand-tile.playable").await;
        let after = wait_js(
            c,
            &format!(
                "const r = document.querySelector('.table-page');
                 if (Number(r.dataset.version) !== {version}) return 'played';
                 if (document.querySelector('.ends-bar .end-btn')) return 'ends';
                 return '';"
            ),
            Duration::from_secs(20),
            "a play or the choice of ends",
        )
        .await;
        if after == "ends" {
            click(c, ".ends-bar .end-btn").await;
        }
    } else if s["draw"] == true {
        click(c, "#draw").await;
    } else if s["pass"] == true {
        click(c, "#pass").await;
    } else {
        return false;
    }
    wait_js(
        c,
        &format!(
            "return Number(document.querySelector('.table-page').dataset.version) > {version};"
        ),
        Duration::from_secs(20),
        "the move stored",
    )
    .await;
    true
}

/// Evaluate `expression` (a promise) in the site's service worker, through the browser's own
/// DevTools endpoint (chromedriver's command endpoint reaches the page only).
async fn in_service_worker(c: &fantoccini::Client, base: &str, expression: &str) -> Value {
    use futures_util::{SinkExt as _, StreamExt as _};
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let caps = c.capabilities().expect("the session's capabilities");
    let debugger = caps["goog:chromeOptions"]["debuggerAddress"]
        .as_str()
        .expect("chromedriver names the browser's DevTools address")
        .replace("localhost", "127.0.0.1");
    let sw = format!("{base}/sw.js");
    let mut target = None;
    for _ in 0..200 {
        let mut s = tokio::net::TcpStream::connect(&debugger).await.unwrap();
        s.write_all(
            format!("GET /json/list HTTP/1.1\r\nHost: {debugger}\r\nConnection: close\r\n\r\n")
                .as_bytes(),
        )
        .await
        .unwrap();
        // The DevTools server may keep the connection open: read the head, then the body's
        // announced length.
        let mut buf = Vec::new();
        let mut chunk = [0u8; 8192];
        let text = loop {
            let n = tokio::time::timeout(Duration::from_secs(10), s.read(&mut chunk))
                .await
                .expect("the DevTools server answers")
                .unwrap();
            buf.extend_from_slice(&chunk[..n]);
            let t = String::from_utf8_lossy(&buf).to_string();
            if let Some((head, body)) = t.split_once("\r\n\r\n") {
                let length = head
                    .lines()
                    .find_map(|l| {
                        l.to_lowercase()
                            .strip_prefix("content-length:")
                            .map(|v| v.trim().to_string())
                    })
                    .and_then(|v| v.parse::<usize>().ok());
                if n == 0 || length.is_some_and(|l| body.len() >= l) {
                    break t;
                }
            } else if n == 0 {
                break t;
            }
        };
        let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
        let list: Value = serde_json::from_str(body).unwrap_or(json!([]));
        target = list.as_array().and_then(|l| {
            l.iter()
                .find(|t| t["type"] == "service_worker" && t["url"] == sw.as_str())
                .and_then(|t| t["webSocketDebuggerUrl"].as_str().map(str::to_string))
        });
        if target.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let url = target.expect("the service worker's DevTools target");
    let (mut ws, _) = tokio_tungstenite::connect_async(url.as_str())
        .await
        .unwrap();
    let cmd = json!({"id": 1, "method": "Runtime.evaluate",
        "params": {"expression": expression, "awaitPromise": true, "returnByValue": true}});
    ws.send(tokio_tungstenite::tungstenite::Message::text(
        cmd.to_string(),
    ))
    .await
    .unwrap();
    loop {
        let m = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .expect("the service worker answers")
            .expect("the DevTools connection is open")
            .unwrap();
        if let tokio_tungstenite::tungstenite::Message::Text(t) = m {
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["id"] == 1 {
                return v["result"]["result"]["value"].clone();
            }
        }
    }
}

async fn shot(c: &fantoccini::Client, name: &str, w: u32, h: u32) {
    fiveup_e2e::set_viewport(c, w, h).await.unwrap();
    let png = c.screenshot().await.unwrap();
    assert_eq!(fiveup_e2e::png_size(&png), Some((w, h)), "{name}");
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser-shots");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{name}.png")), &png).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_finish_a_correspondence_game_over_simulated_days() {
    let browsers = match Browsers::find() {
        Ok(b) => b,
        Err(msg) => {
            eprintln!("{msg}");
            return;
        }
    };
    let dir = tempfile::tempdir().unwrap();
    // The server runs in this process with a clock the test moves (a production server's
    // clock is the system's, which nothing can move).
    let clock = fiveup_server::correspondence::Clock::manual(MONDAY_9);
    let c2 = clock.clone();
    let server = start_server_with(
        dir.path(),
        Duration::ZERO,
        Duration::from_millis(30),
        move |cfg| {
            cfg.clock = c2;
            cfg.correspondence.tick = Duration::from_millis(20);
            cfg.correspondence.vacation_days = 0;
            // The push receiver is on loopback.
            cfg.correspondence.push_loopback = true;
        },
    )
    .await;
    let base = format!("http://{}", server.local_addr());
    let (port, pushes) = push_receiver().await;
    let count = |device: &str| {
        let p = format!("/p/{device}");
        pushes.lock().unwrap().iter().filter(|x| **x == p).count()
    };
    let driver = ChromeDriver::start(&browsers).unwrap();
    let ann = driver.session(1366, 900).await.unwrap();
    let bob = driver.session(1366, 900).await.unwrap();
    guest_in(&ann, &base, "Ann").await;
    guest_in(&bob, &base, "Bob").await;
    for (c, device) in [(&ann, "ann"), (&bob, "bob")] {
        let r = page_fetch(
            c,
            "POST",
            "/api/push/subscriptions",
            json!({"subscription": {"endpoint": format!("http://127.0.0.1:{port}/p/{device}"),
                     "keys": {"p256dh": P256DH, "auth": AUTH}},
                   "kinds": ["turn", "reminder", "over"]}),
        )
        .await;
        assert_eq!(r["status"], 204, "{r}");
    }
    // Ann makes a two-seat game of three days a move; Bob joins.
    let made = page_fetch(
        &ann,
        "POST",
        "/api/tables",
        json!({"rules": "five-up players=2 target=50",
               "seats": [{"kind": "me"}, {"kind": "open"}],
               "correspondence": {"per_move_hours": 72}}),
    )
    .await;
    assert_eq!(made["status"], 201, "{made}");
    let table = serde_json::from_str::<Value>(made["body"].as_str().unwrap()).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let joined = page_fetch(
        &bob,
        "POST",
        &format!("/api/tables/{table}/join"),
        json!({}),
    )
    .await;
    assert_eq!(joined["status"], 200, "{joined}");
    // The deal: whoever is to move hears it ("your turn"), the other does not.
    let games = |c: &fantoccini::Client| {
        let c = c.clone();
        async move {
            let r = page_fetch(&c, "GET", "/api/correspondence/games", Value::Null).await;
            serde_json::from_str::<Value>(r["body"].as_str().unwrap()).unwrap()
        }
    };
    let mut first = None;
    for _ in 0..1000 {
        if games(&ann).await["your_turn"] == 1 {
            first = Some(0);
        } else if games(&bob).await["your_turn"] == 1 {
            first = Some(1);
        }
        if first.is_some() && count("ann") + count("bob") == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let first = first.expect("someone to move after the deal");
    let people = [(&ann, "ann"), (&bob, "bob")];
    let (mover, mover_dev) = people[first];
    let (other, other_dev) = people[1 - first];
    assert_eq!(
        (count(mover_dev), count(other_dev)),
        (1, 0),
        "the your-turn push"
    );
    // Two days and two hours later the mover has not moved: the 24-hour reminder reaches
    // them, and nothing reaches the other.
    clock.advance(50 * HOUR);
    for _ in 0..1000 {
        if count(mover_dev) == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!((count(mover_dev), count(other_dev)), (2, 0), "the reminder");
    // "My games" for each: the mover's game first with its time left and the header's badge;
    // the other waits.
    mover.goto(&format!("{base}/games")).await.unwrap();
    let row = wait_js(
        mover,
        "const li = document.querySelector('#my-games li'); const b = document.getElementById('games-badge');
         return li && !b.hidden ? [li.className, li.textContent, b.textContent] : null;",
        Duration::from_secs(20),
        "the mover's games and badge",
    )
    .await;
    assert_eq!(row[0], "your-turn", "{row}");
    assert!(
        row[1]
            .as_str()
            .unwrap()
            .contains("your move, 22 h 0 min left"),
        "{row}"
    );
    assert_eq!(row[2], "1");
    other.goto(&format!("{base}/games")).await.unwrap();
    let row = wait_js(
        other,
        "const li = document.querySelector('#my-games li');
         return li ? [li.className, li.textContent, document.getElementById('games-badge').hidden] : null;",
        Duration::from_secs(20),
        "the other's games",
    )
    .await;
    assert_eq!(row[0], "", "{row}");
    assert!(
        row[1].as_str().unwrap().contains("waiting for the others"),
        "{row}"
    );
    assert_eq!(row[2], true, "no badge while nothing waits for you");
    for (w, h) in [(390, 844), (1366, 900)] {
        shot(mover, &format!("corr-my-games-{w}x{h}"), w, h).await;
    }
    fiveup_e2e::set_viewport(mover, 1366, 900).await.unwrap();
    // The mover turns notifications on; a push shows a notification; clicking it (the
    // worker's notificationclick handler, given the real notification) opens the table.
    mover
        .issue_cmd(Cdp(
            "Browser.grantPermissions",
            json!({"permissions": ["notifications"], "origin": base}),
        ))
        .await
        .unwrap();
    mover.goto(&format!("{base}/user/me")).await.unwrap();
    wait_js(
        mover,
        "return document.getElementById('push-enable') !== null",
        Duration::from_secs(20),
        "the notification settings",
    )
    .await;
    click(mover, "#push-enable").await;
    wait_js(
        mover,
        "return window.__sw || (navigator.serviceWorker.getRegistration('/')
           .then((r) => { window.__sw = r && r.active ? r.active.scriptURL : ''; }), '')",
        Duration::from_secs(20),
        "the service worker",
    )
    .await;
    // A page controlled by the worker (loaded after it took over), away from the table.
    mover.goto(&format!("{base}/games")).await.unwrap();
    wait_js(
        mover,
        "return !!navigator.serviceWorker.controller && !!document.querySelector('#my-games');",
        Duration::from_secs(20),
        "a page the worker controls",
    )
    .await;
    let payload = json!({"kind": "reminder", "title": "Your move is due soon",
        "body": "About 22 hours left for your move.", "url": format!("/table/{table}"),
        "tables": [table], "tag": format!("table-{table}")});
    mover
        .issue_cmd(Cdp("ServiceWorker.enable", json!({})))
        .await
        .unwrap();
    for id in 0..64 {
        let _ = mover
            .issue_cmd(Cdp(
                "ServiceWorker.deliverPushMessage",
                json!({"origin": base, "registrationId": id.to_string(), "data": payload.to_string()}),
            ))
            .await;
    }
    let clicked = in_service_worker(
        mover,
        &base,
        &format!(
            "(async () => {{
               for (let i = 0; i < 200; i++) {{
                 const ns = await self.registration.getNotifications();
                 const n = ns.find((x) => x.data && x.data.url === '/table/{table}');
                 if (n) {{
                   self.dispatchEvent(new NotificationEvent('notificationclick', {{notification: n}}));
                   return n.title;
                 }}
                 await new Promise((r) => setTimeout(r, 50));
               }}
               return 'no notification';
             }})()"
        ),
    )
    .await;
    assert_eq!(clicked, "Your move is due soon");
    let opened = wait_js(
        mover,
        "return document.querySelector('.table-page') ? location.pathname : '';",
        Duration::from_secs(20),
        "the table opened by the notification",
    )
    .await;
    assert_eq!(opened, format!("/table/{table}"));
    // The notification is gone once clicked.
    let left = in_service_worker(
        mover,
        &base,
        "self.registration.getNotifications().then((ns) => ns.length)",
    )
    .await;
    assert_eq!(left, 0);
    // Both play to the end, a day and more passing between moves.
    other.goto(&format!("{base}/table/{table}")).await.unwrap();
    wait_js(
        other,
        "return !!document.querySelector('.table-page');",
        Duration::from_secs(20),
        "the other's table",
    )
    .await;
    let mut moves = 0;
    let deadline = std::time::Instant::now() + Duration::from_secs(600);
    loop {
        let mut over = 0;
        for c in [&ann, &bob] {
            if move_once(c).await {
                moves += 1;
                clock.advance(26 * HOUR);
            }
            let s = c.execute(TABLE_STATE_JS, vec![]).await.unwrap();
            if s["over"] == true {
                over += 1;
            }
        }
        if over == 2 {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the game did not end ({moves} moves)"
        );
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    assert!(moves > 1);
    // The game is over for both: "My games" says so.
    for _ in 0..1000 {
        if games(&ann).await["games"][0]["finished"] == true
            && games(&bob).await["games"][0]["finished"] == true
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    for c in [&ann, &bob] {
        c.goto(&format!("{base}/games")).await.unwrap();
        let text = wait_js(
            c,
            "const li = document.querySelector('#my-games li'); return li ? li.textContent : '';",
            Duration::from_secs(20),
            "the finished game in My games",
        )
        .await;
        assert!(text.as_str().unwrap().contains("finished"), "{text}");
    }
    let over: Value = serde_json::from_str(
        page_fetch(&ann, "GET", &format!("/api/games/{table}"), Value::Null).await["body"]
            .as_str()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        over["correspondence"]["per_move_hours"], 72,
        "the replay says so"
    );
    // Moves passed the turn back and forth: each heard of their turns.
    assert!(
        count("ann") >= 2 && count("bob") >= 2,
        "pushes along the way: {:?}",
        pushes.lock().unwrap()
    );
    ann.close().await.unwrap();
    bob.close().await.unwrap();
    server.shutdown().await;
}

/// Say a line in the table's chat.
async fn say_in(c: &fantoccini::Client, text: &str) {
    fiveup_e2e::fill(c, "#chat-input", text).await;
    c.execute(
        "document.querySelector('#chat-input').form.requestSubmit();",
        vec![],
    )
    .await
    .unwrap();
}

const CHAT_JS: &str =
    "return [...document.querySelectorAll('.chat-lines li')].map((li) => li.textContent);";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn muting_from_the_chat_unmuting_from_the_profile_and_the_leaderboard_tabs() {
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
    let ann = driver.session(1366, 900).await.unwrap();
    let bob = driver.session(390, 844).await.unwrap();
    guest_in(&ann, &base, "Ann").await;
    guest_in(&bob, &base, "Bob").await;
    let made = page_fetch(
        &ann,
        "POST",
        "/api/tables",
        json!({"rules": "five-up players=2", "seats": [{"kind": "me"}, {"kind": "open"}]}),
    )
    .await;
    assert_eq!(made["status"], 201, "{made}");
    let table = serde_json::from_str::<Value>(made["body"].as_str().unwrap()).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let joined = page_fetch(
        &bob,
        "POST",
        &format!("/api/tables/{table}/join"),
        json!({}),
    )
    .await;
    assert_eq!(joined["status"], 200, "{joined}");
    for c in [&ann, &bob] {
        c.goto(&format!("{base}/table/{table}")).await.unwrap();
        wait_js(
            c,
            "return !!document.querySelector('#chat-input');",
            Duration::from_secs(20),
            "the table's chat",
        )
        .await;
    }
    say_in(&bob, "hello from bob").await;
    wait_js(
        &ann,
        "return !!document.querySelector('.chat-lines button.mute[aria-label=\"Mute Bob\"]');",
        Duration::from_secs(20),
        "Bob's line with its Mute action",
    )
    .await;
    click(&ann, ".chat-lines button.mute").await;
    // Muting asks first.
    click(&ann, ".chat-lines .mute-yes").await;
    wait_js(
        &ann,
        "return ![...document.querySelectorAll('.chat-lines li')].some((li) => li.textContent.includes('hello from bob'));",
        Duration::from_secs(20),
        "Bob's line hidden once muted",
    )
    .await;
    // Bob's next line does not reach Ann; hers reaches Bob; the game goes on.
    say_in(&bob, "second from bob").await;
    say_in(&ann, "from ann").await;
    wait_js(
        &bob,
        "return [...document.querySelectorAll('.chat-lines li')].some((li) => li.textContent.includes('from ann'));",
        Duration::from_secs(20),
        "Ann's line at Bob's",
    )
    .await;
    wait_js(
        &ann,
        "return [...document.querySelectorAll('.chat-lines li')].some((li) => li.textContent.includes('from ann'));",
        Duration::from_secs(20),
        "Ann's own line",
    )
    .await;
    let seen = ann.execute(CHAT_JS, vec![]).await.unwrap();
    assert!(
        !seen.to_string().contains("from bob"),
        "a muted line shown: {seen}"
    );
    let status = page_fetch(&ann, "GET", &format!("/api/tables/{table}"), Value::Null).await;
    assert!(
        !status["body"].as_str().unwrap().contains("\"finished\""),
        "{status}"
    );
    // The profile lists Bob; Unmute empties the list.
    ann.goto(&format!("{base}/user/me")).await.unwrap();
    wait_js(
        &ann,
        "const b = document.querySelector('#muted-list button'); return b ? b.getAttribute('aria-label') : '';",
        Duration::from_secs(20),
        "the muted players' list",
    )
    .await;
    // The section reads in the page's own colour, not the dimmed one of side notes.
    let colours = ann
        .execute(
            "return [getComputedStyle(document.querySelector('#muted-h')).color, getComputedStyle(document.querySelector('main h1, h1')).color];",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        colours[0], colours[1],
        "the muted players' heading is dimmed: {colours}"
    );
    click(&ann, "#muted-list button").await;
    wait_js(
        &ann,
        "return document.querySelector('#muted-list').textContent === 'Nobody.' && document.querySelector('#muted-msg').textContent.includes('Bob');",
        Duration::from_secs(20),
        "the list emptied",
    )
    .await;
    let back = page_fetch(&ann, "GET", "/api/mutes", Value::Null).await;
    assert_eq!(back["body"], "[]");
    // The leaderboard's tabs, by keyboard: the arrow keys move the selection and the focus.
    ann.goto(&format!("{base}/leaderboard")).await.unwrap();
    wait_js(
        &ann,
        "return !!document.querySelector('#lb-tab-live[aria-selected=\"true\"]');",
        Duration::from_secs(20),
        "the leaderboard's tabs",
    )
    .await;
    let tab = ann
        .find(fantoccini::Locator::Css("#lb-tab-live"))
        .await
        .unwrap();
    tab.send_keys("\u{E014}").await.unwrap();
    let after = wait_js(
        &ann,
        "const c = document.querySelector('#lb-tab-corr');
         return c.getAttribute('aria-selected') === 'true' ? [document.activeElement.id,
           document.querySelector('#lb-panel-live').hidden, document.querySelector('#lb-panel-corr').hidden,
           c.tabIndex, document.querySelector('#lb-tab-live').tabIndex] : null;",
        Duration::from_secs(20),
        "the correspondence tab selected",
    )
    .await;
    assert_eq!(after, json!(["lb-tab-corr", true, false, 0, -1]));
    let corr_tab = ann
        .find(fantoccini::Locator::Css("#lb-tab-corr"))
        .await
        .unwrap();
    corr_tab.send_keys("\u{E011}").await.unwrap();
    wait_js(
        &ann,
        "return document.activeElement.id === 'lb-tab-live' && !document.querySelector('#lb-panel-live').hidden;",
        Duration::from_secs(20),
        "Home back to the live tab",
    )
    .await;
    ann.close().await.unwrap();
    bob.close().await.unwrap();
    server.shutdown().await;
}

/// "My games" names each game as people know it: the game (its rules' name), the opponents
/// and the time per move, not a table's id; on a phone and a laptop, without sideways
/// scrolling, console errors or serious accessibility violations.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn my_games_names_the_game_the_opponents_and_the_clock() {
    let browsers = match Browsers::find() {
        Ok(b) => b,
        Err(msg) => {
            eprintln!("{msg}");
            return;
        }
    };
    let axe = fiveup_e2e::axe_source().unwrap_or_else(|m| panic!("{m}"));
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
    let ann = driver.session(390, 844).await.unwrap();
    let bob = driver.session(1366, 900).await.unwrap();
    guest_in(&ann, &base, "Ann").await;
    guest_in(&bob, &base, "Bob").await;
    let made = page_fetch(
        &ann,
        "POST",
        "/api/tables",
        json!({"rules": "five-up players=2 target=50",
               "seats": [{"kind": "me"}, {"kind": "open"}],
               "correspondence": {"per_move_hours": 72}}),
    )
    .await;
    assert_eq!(made["status"], 201, "{made}");
    let table = serde_json::from_str::<Value>(made["body"].as_str().unwrap()).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let joined = page_fetch(
        &bob,
        "POST",
        &format!("/api/tables/{table}/join"),
        json!({}),
    )
    .await;
    assert_eq!(joined["status"], 200, "{joined}");
    for (c, other, (w, h)) in [(&ann, "Bob", (390, 844)), (&bob, "Ann", (1366, 900))] {
        c.goto(&format!("{base}/games")).await.unwrap();
        let row = wait_js(
            c,
            "const li = document.querySelector('#my-games li'); return li ? li.textContent : '';",
            Duration::from_secs(20),
            "the games",
        )
        .await;
        let row = row.as_str().unwrap();
        assert!(
            row.contains("Five Up")
                && row.contains(&format!("with {other}"))
                && row.contains("3 days a move")
                && !row.contains(&table),
            "{w}: the game, the opponent and the clock, not the table's id: {row:?}"
        );
        let wide = c
            .execute(
                "return document.documentElement.scrollWidth <= window.innerWidth;",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(wide, true, "{w}: no sideways scrolling");
        let v = fiveup_e2e::axe_violations(c, &axe).await;
        assert!(v.is_empty(), "{w}: axe: {v:?}");
        let errors = driver.console_errors(c).await;
        assert!(errors.is_empty(), "{w}: console errors: {errors:?}");
        shot(c, &format!("polish-my-games-{w}x{h}"), w, h).await;
    }
    ann.close().await.unwrap();
    bob.close().await.unwrap();
    server.shutdown().await;
}

/// The header's My games badge follows the websocket: a new game waiting for your move shows
/// on the lobby within seconds (it was read once a minute: 47 s was seen), and once you have
/// moved at the table it clears within seconds (it stayed stale until the next minute); at a
/// phone's and a laptop's size.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_games_badge_follows_the_websocket() {
    let browsers = match Browsers::find() {
        Ok(b) => b,
        Err(msg) => {
            eprintln!("{msg}");
            return;
        }
    };
    let axe = fiveup_e2e::axe_source().unwrap_or_else(|m| panic!("{m}"));
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
    let ann = driver.session(390, 844).await.unwrap();
    let bob = driver.session(1366, 900).await.unwrap();
    guest_in(&ann, &base, "Ann").await;
    guest_in(&bob, &base, "Bob").await;
    // Both wait on the lobby, their badges read (nothing waits yet).
    for c in [&ann, &bob] {
        let hidden = c
            .execute(
                "return document.getElementById('games-badge').hidden;",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(hidden, true, "no badge before any game");
    }
    let made = page_fetch(
        &ann,
        "POST",
        "/api/tables",
        json!({"rules": "five-up players=2 target=50",
               "seats": [{"kind": "me"}, {"kind": "open"}],
               "correspondence": {"per_move_hours": 24}}),
    )
    .await;
    assert_eq!(made["status"], 201, "{made}");
    let table = serde_json::from_str::<Value>(made["body"].as_str().unwrap()).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let joined = page_fetch(
        &bob,
        "POST",
        &format!("/api/tables/{table}/join"),
        json!({}),
    )
    .await;
    assert_eq!(joined["status"], 200, "{joined}");
    // Whoever is to move sees the badge within seconds, without reloading.
    let start = std::time::Instant::now();
    let mut mover = None;
    while start.elapsed() < Duration::from_secs(10) {
        for (k, c) in [&ann, &bob].into_iter().enumerate() {
            let b = c
                .execute(
                    "const b = document.getElementById('games-badge'); return b.hidden ? '' : b.textContent;",
                    vec![],
                )
                .await
                .unwrap();
            if b == "1" {
                mover = Some(k);
            }
        }
        if mover.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let mover = mover.unwrap_or_else(|| {
        panic!(
            "no badge on either lobby {:?} after the game began",
            start.elapsed()
        )
    });
    let (c, (w, h)) = [(&ann, (390, 844)), (&bob, (1366, 900))][mover];
    shot(c, &format!("polish-games-badge-lobby-{w}x{h}"), w, h).await;
    let v = fiveup_e2e::axe_violations(c, &axe).await;
    assert!(v.is_empty(), "{w}: axe with the badge: {v:?}");
    // At the table the mover moves; the badge clears within seconds.
    c.goto(&format!("{base}/table/{table}")).await.unwrap();
    wait_js(
        c,
        "const r = document.querySelector('.table-page'); return r && r.dataset.turn === 'mine' && !document.getElementById('games-badge').hidden;",
        Duration::from_secs(20),
        "the mover's turn at the table, with the badge",
    )
    .await;
    for _ in 0..40 {
        let turn = c
            .execute(
                "return document.querySelector('.table-page').dataset.turn;",
                vec![],
            )
            .await
            .unwrap();
        if turn != "mine" {
            break;
        }
        move_once(c).await;
    }
    let moved = std::time::Instant::now();
    wait_js(
        c,
        "return document.getElementById('games-badge').hidden;",
        Duration::from_secs(8),
        "the badge cleared after the move",
    )
    .await;
    eprintln!("the badge cleared {:?} after the move", moved.elapsed());
    shot(c, &format!("polish-games-badge-moved-{w}x{h}"), w, h).await;
    let errors = driver.console_errors(c).await;
    assert!(errors.is_empty(), "console errors: {errors:?}");
    ann.close().await.unwrap();
    bob.close().await.unwrap();
    server.shutdown().await;
}

/// The contrast ratio (WCAG) of the text of the first element matching `css` against what lies
/// under it: its colour with the opacity of it and its ancestors, over the first background
/// below it that is not transparent (the page's when none is). Answers `[ratio, colours]`.
const CONTRAST_JS: &str = r#"
const el = document.querySelector(arguments[0]);
if (!el) return null;
const rgba = (s) => { const m = s.match(/rgba?\(([^)]+)\)/); const p = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
let alpha = 1;
let bg = null;
for (let e = el; e; e = e.parentElement) {
  const cs = getComputedStyle(e);
  alpha *= Number(cs.opacity);
  if (!bg && e !== el && rgba(cs.backgroundColor)[3] > 0) bg = rgba(cs.backgroundColor);
}
if (!bg) bg = rgba(getComputedStyle(document.body).backgroundColor);
const fg = rgba(getComputedStyle(el).color);
const a = fg[3] * alpha;
const mix = [0, 1, 2].map((i) => fg[i] * a + bg[i] * (1 - a));
const lum = (c) => { const v = c.map((x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; }); return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
const [l1, l2] = [lum(mix), lum(bg)].sort((x, y) => y - x);
return [(l1 + 0.05) / (l2 + 0.05), `text ${mix.map(Math.round)} on ${bg.slice(0, 3)}`];
"#;

/// A correspondence table says so wherever a person meets it (the lobby's list, the waiting
/// panel, the invitation, the table's heading), and in play shows the time left on the move
/// and its deadline as a date, for the player to move and on the other's card for them; no
/// "a computer plays for them" countdown there (nothing takes over at a correspondence table),
/// and an absent player's dimmed name keeps a contrast of 4.5:1 in both themes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_correspondence_table_says_so_and_shows_the_deadline_of_the_move() {
    let browsers = match Browsers::find() {
        Ok(b) => b,
        Err(msg) => {
            eprintln!("{msg}");
            return;
        }
    };
    let dir = tempfile::tempdir().unwrap();
    let clock = fiveup_server::correspondence::Clock::manual(MONDAY_9);
    let c2 = clock.clone();
    let server = start_server_with(
        dir.path(),
        Duration::ZERO,
        Duration::from_millis(30),
        move |cfg| {
            cfg.clock = c2;
            cfg.correspondence.tick = Duration::from_millis(20);
            // Live tables hand an away player's seat to a computer after this long; a
            // correspondence table never does.
            cfg.takeover = Some(Duration::from_secs(60));
        },
    )
    .await;
    let base = format!("http://{}", server.local_addr());
    let driver = ChromeDriver::start(&browsers).unwrap();
    let ann = driver.session(1366, 900).await.unwrap();
    let bob = driver.session(1366, 900).await.unwrap();
    guest_in(&ann, &base, "Ann").await;
    guest_in(&bob, &base, "Bob").await;
    // A listed table with an open seat (the lobby and the waiting panel), and an unlisted one
    // kept for a friend by invitation.
    let made = page_fetch(
        &ann,
        "POST",
        "/api/tables",
        json!({"rules": "five-up players=2 target=50",
               "seats": [{"kind": "me"}, {"kind": "invite"}],
               "correspondence": {"per_move_hours": 72}}),
    )
    .await;
    assert_eq!(made["status"], 201, "{made}");
    let info = serde_json::from_str::<Value>(made["body"].as_str().unwrap()).unwrap();
    let table = info["id"].as_str().unwrap().to_string();
    assert_eq!(
        info["correspondence"],
        json!({"per_move_hours": 72, "no_weekends": false, "vacation": false}),
        "the table says its clock: {info}"
    );
    let invite = info["invites"][0]["path"].as_str().unwrap().to_string();
    ann.goto(&format!("{base}/table/{table}")).await.unwrap();
    let waiting = wait_js(
        &ann,
        "const n = document.getElementById('corr-note'); const b = document.getElementById('corr-badge');
         return n && b ? [n.textContent, b.textContent] : null;",
        Duration::from_secs(20),
        "the waiting panel",
    )
    .await;
    assert!(
        waiting[0]
            .as_str()
            .unwrap()
            .starts_with("Correspondence · 3 days a move: each player has 3 days for each move"),
        "{waiting}"
    );
    assert_eq!(waiting[1], "Correspondence · 3 days a move");
    for (w, h) in [(390, 844), (1366, 900), (1920, 1080)] {
        shot(&ann, &format!("corr-waiting-{w}x{h}"), w, h).await;
    }
    bob.goto(&format!("{base}{invite}")).await.unwrap();
    let heading = wait_js(
        &bob,
        "const h = document.getElementById('wait-h'); return h && document.getElementById('join-invite') ? h.textContent : '';",
        Duration::from_secs(20),
        "the invitation",
    )
    .await;
    assert_eq!(
        heading,
        "Ann invited you to a game of Five Up by correspondence (3 days a move)"
    );
    for (w, h) in [(390, 844), (1366, 900), (1920, 1080)] {
        shot(&bob, &format!("corr-invitation-{w}x{h}"), w, h).await;
    }
    fiveup_e2e::set_viewport(&bob, 1366, 900).await.unwrap();
    fiveup_e2e::set_viewport(&ann, 1366, 900).await.unwrap();
    click(&bob, "#join-invite").await;
    // Play starts: whoever is to move sees the time left and the deadline (Monday 09:00 and
    // three days: Thursday 09:00 UTC), not a counting-up timer.
    let state = |c: &fantoccini::Client| {
        let c = c.clone();
        async move { c.execute(TABLE_STATE_JS, vec![]).await.unwrap() }
    };
    let mut mover = None;
    for _ in 0..500 {
        if state(&ann).await["turn"] == "mine" {
            mover = Some(0);
        } else if state(&bob).await["turn"] == "mine" {
            mover = Some(1);
        }
        if mover.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
    let people = [&ann, &bob];
    let first = mover.expect("someone to move");
    let (mover, other) = (people[first], people[1 - first]);
    let due = "2026-11-26T09:00:00.000Z";
    let mine = wait_js(
        mover,
        "const c = document.getElementById('my-clock'); const t = c && c.querySelector('time');
         return t ? [c.textContent, t.getAttribute('datetime')] : null;",
        Duration::from_secs(20),
        "the mover's clock",
    )
    .await;
    let text = mine[0].as_str().unwrap();
    assert!(
        text.starts_with("Your move: 3 days 0 h left · due ")
            || text.starts_with("Your move: 2 days 23 h left · due "),
        "{mine}"
    );
    assert!(!text.contains("Your time on this turn"), "{mine}");
    assert_eq!(mine[1], due, "{mine}");
    // The other sees the mover's card: their move, the time left and the deadline; once the
    // mover is away, still no computer is said to take over.
    mover.goto(&format!("{base}/games")).await.unwrap();
    let card = wait_js(
        other,
        "const c = document.querySelector('.opp.away.turn'); const t = c && c.querySelector('.corr-move time');
         return t ? [c.textContent, t.getAttribute('datetime')] : null;",
        Duration::from_secs(20),
        "the absent mover's card",
    )
    .await;
    let text = card[0].as_str().unwrap();
    assert!(
        text.contains("their move: 3 days 0 h left · due ")
            || text.contains("their move: 2 days 23 h left · due "),
        "{card}"
    );
    assert!(!text.contains("computer"), "{card}");
    assert_eq!(card[1], due, "{card}");
    // Three hours later (the server's clock) the page, opened again, says 2 days 21 h.
    clock.advance(3 * HOUR);
    other.refresh().await.unwrap();
    let later = wait_js(
        other,
        "const c = document.querySelector('.opp.away.turn .corr-move'); return c && c.querySelector('time') ? c.textContent : '';",
        Duration::from_secs(20),
        "the card after three hours",
    )
    .await;
    assert!(
        later.as_str().unwrap().starts_with("their move: 2 days 2"),
        "{later}"
    );
    // The absent player's dimmed name: 4.5:1 or more in the light and the dark theme.
    for (scheme, name) in [("light", "light"), ("dark", "dark")] {
        other
            .issue_cmd(Cdp(
                "Emulation.setEmulatedMedia",
                json!({"features": [{"name": "prefers-color-scheme", "value": scheme}]}),
            ))
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(200)).await;
        let ratio = other
            .execute(CONTRAST_JS, vec![json!(".opp.away .name")])
            .await
            .unwrap();
        eprintln!("contrast of the absent player's name, {name} theme: {ratio}");
        assert!(
            ratio[0].as_f64().unwrap() >= 4.5,
            "the absent name's contrast in the {name} theme: {ratio}"
        );
        for (w, h) in [(390, 844), (1366, 900), (1920, 1080)] {
            shot(other, &format!("corr-table-away-{name}-{w}x{h}"), w, h).await;
        }
        fiveup_e2e::set_viewport(other, 1366, 900).await.unwrap();
    }
    other
        .issue_cmd(Cdp(
            "Emulation.setEmulatedMedia",
            json!({"features": [{"name": "prefers-color-scheme", "value": "light"}]}),
        ))
        .await
        .unwrap();
    // The mover comes back and moves: the other's own clock now shows their deadline, three
    // days from the move (Monday 12:00 and three days).
    mover.goto(&format!("{base}/table/{table}")).await.unwrap();
    wait_js(
        mover,
        "return !!document.querySelector('#my-clock time');",
        Duration::from_secs(20),
        "the mover back at the table",
    )
    .await;
    for (w, h) in [(390, 844), (1366, 900), (1920, 1080)] {
        shot(mover, &format!("corr-table-mine-{w}x{h}"), w, h).await;
    }
    fiveup_e2e::set_viewport(mover, 1366, 900).await.unwrap();
    assert!(move_once(mover).await, "the mover moved");
    let theirs = wait_js(
        other,
        "const c = document.getElementById('my-clock'); const t = c && c.querySelector('time');
         return t ? [c.textContent, t.getAttribute('datetime')] : null;",
        Duration::from_secs(20),
        "the other's clock after the move",
    )
    .await;
    assert_eq!(theirs[1], "2026-11-26T12:00:00.000Z", "{theirs}");
    let errors = other.execute(TABLE_STATE_JS, vec![]).await.unwrap();
    assert_eq!(errors["errors"], json!([]));
    ann.close().await.unwrap();
    bob.close().await.unwrap();
    server.shutdown().await;
}

/// The profile's notification settings say "blocked" only when the browser's permission is
/// "denied"; while it is "default" they offer to turn notifications on (the browser asks);
/// pressing the button shows a pending state (the button disabled, "Turning on…") and then the
/// outcome in words.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_notification_settings_follow_the_permission_and_show_turning_on() {
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
    guest_in(&c, &base, "Ann").await;
    let settings = |setting: &'static str| {
        let c = c.clone();
        let base = base.clone();
        async move {
            c.issue_cmd(Cdp(
                "Browser.setPermission",
                json!({"permission": {"name": "notifications"}, "setting": setting, "origin": base}),
            ))
            .await
            .unwrap();
            c.goto(&format!("{base}/user/me")).await.unwrap();
            wait_js(
                &c,
                "const s = document.getElementById('push-status'); return s && s.textContent ? [Notification.permission, s.textContent, document.getElementById('push-enable').textContent] : null;",
                Duration::from_secs(20),
                "the notification settings",
            )
            .await
        }
    };
    let asked = settings("prompt").await;
    assert_eq!(asked[0], "default", "{asked}");
    assert!(!asked[1].as_str().unwrap().contains("blocked"), "{asked}");
    assert!(
        asked[1]
            .as_str()
            .unwrap()
            .contains("asks your browser for permission"),
        "{asked}"
    );
    assert_eq!(asked[2], "Turn notifications on");
    for (w, h) in [(390, 844), (1366, 900), (1920, 1080)] {
        shot(&c, &format!("push-default-{w}x{h}"), w, h).await;
    }
    let denied = settings("denied").await;
    assert_eq!(denied[0], "denied", "{denied}");
    assert!(denied[1].as_str().unwrap().contains("blocked"), "{denied}");
    for (w, h) in [(390, 844), (1366, 900), (1920, 1080)] {
        shot(&c, &format!("push-denied-{w}x{h}"), w, h).await;
    }
    let granted = settings("granted").await;
    assert_eq!(granted[0], "granted", "{granted}");
    assert!(
        !granted[1].as_str().unwrap().contains("blocked"),
        "{granted}"
    );
    // Every state of the button and the status line, as they change.
    c.execute(
        "const b = document.getElementById('push-enable'); const s = document.getElementById('push-status');
         window.__states = [];
         const note = () => window.__states.push([b.textContent, b.disabled, s.textContent]);
         new MutationObserver(note).observe(b, {attributes: true, childList: true, characterData: true, subtree: true});
         new MutationObserver(note).observe(s, {childList: true, characterData: true, subtree: true});",
        vec![],
    )
    .await
    .unwrap();
    click(&c, "#push-enable").await;
    let pending = wait_js(
        &c,
        "const b = document.getElementById('push-enable'); return b.disabled ? [b.textContent, document.getElementById('push-status').textContent] : (window.__states.find((x) => x[1]) || null);",
        Duration::from_secs(5),
        "the pending state",
    )
    .await;
    assert_eq!(pending[0], "Turning on…", "{pending}");
    shot(&c, "push-pending-390x844", 390, 844).await;
    // Headless Chromium has no push service to reach: the page gives up after its wait and
    // says so; the button is offered again.
    let outcome = wait_js(
        &c,
        "const b = document.getElementById('push-enable'); const s = document.getElementById('push-status').textContent;
         return !b.disabled && !s.startsWith('Turning') ? [b.textContent, s] : null;",
        Duration::from_secs(40),
        "the outcome",
    )
    .await;
    eprintln!("subscribing in headless Chromium: {outcome}");
    assert_eq!(outcome[0], "Turn notifications on", "{outcome}");
    assert!(
        outcome[1].as_str().unwrap().starts_with("Notifications ")
            && !outcome[1].as_str().unwrap().contains("blocked"),
        "{outcome}"
    );
    c.close().await.unwrap();
    server.shutdown().await;
}
