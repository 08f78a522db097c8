//! Fair play and moderation in headless Chromium, as the people involved meet it: a player who
//! lost a rated game reports the winner from the winner's profile (on a phone); a moderator
//! finds the report in the queue, reads the evidence and marks the account as
//! computer-assisted; the victim's rating is given back, the mark shows on the profile and the
//! log lists it; the marked player sees the notice and appeals; then a ban closes the banned
//! player's open table at once. The pages are checked with axe-core and photographed at each
//! size. Skipped, with a message, when Chromium or chromedriver is not installed.

use std::path::PathBuf;
use std::time::Duration;

use fantoccini::Client;
use fiveup_e2e::{
    axe_source, axe_violations, click, fill, png_size, select, start_server_with, wait_js,
    Browsers, ChromeDriver,
};
use serde_json::Value;

fn browsers() -> Option<Browsers> {
    match Browsers::find() {
        Ok(b) => Some(b),
        Err(msg) => {
            eprintln!("{msg}");
            None
        }
    }
}

fn shots_dir() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser-shots");
    std::fs::create_dir_all(&d).expect("the screenshot directory");
    d
}

async fn screenshot(c: &Client, name: &str, want: (u32, u32)) {
    let png = c.screenshot().await.expect("a screenshot");
    assert_eq!(png_size(&png), Some(want), "{name}: the PNG's size");
    std::fs::write(shots_dir().join(format!("{name}.png")), &png).expect("write the screenshot");
}

/// Register `name` from the lobby's log-in form.
async fn register(c: &Client, base: &str, name: &str) {
    c.goto(base).await.unwrap();
    fill(c, "#login-name", name).await;
    fill(c, "#login-pass", "correct horse battery").await;
    click(c, "#acc-h ~ form button[type=button]").await;
    wait_js(
        c,
        &format!("return document.querySelector('#who').textContent.includes({name:?}) && !!document.querySelector('#create-go');"),
        Duration::from_secs(10),
        "the lobby after registering",
    )
    .await;
}

/// The signed-in player's id, asked by the page.
async fn my_id(c: &Client) -> i64 {
    let v: Value = c
        .execute(
            "return fetch('/api/me').then((r) => r.json()).then((m) => m.user.id);",
            vec![],
        )
        .await
        .unwrap();
    v.as_i64().unwrap()
}

async fn rating_of(c: &Client, id: i64) -> f64 {
    let v: Value = c
        .execute(
            &format!("return fetch('/api/users/{id}').then((r) => r.json()).then((p) => p.rating.rating);"),
            vec![],
        )
        .await
        .unwrap();
    v.as_f64().unwrap()
}

/// A player in the page itself, over its own websocket: seeds when asked, and plays the
/// legal action scoring the most (`greedy`) or the least; `window.fiveupGame` says `over` at
/// the end.
const PLAYER_JS: &str = r#"
const [table, greedy] = arguments;
window.fiveupGame = 'playing';
const ws = new WebSocket(`ws://${location.host}/ws`);
let n = 0; const sent = new Set(); const seeded = new Set();
ws.onopen = () => ws.send(JSON.stringify({ type: 'open', table }));
ws.onmessage = (ev) => {
  const m = JSON.parse(ev.data);
  const v = m.view;
  if (!v) return;
  if (v.table.status === 'finished') { window.fiveupGame = 'over'; ws.close(); return; }
  if (v.you == null) return;
  const p = v.proof;
  if (v.table.status === 'dealing' && !v.seed_sent && p && !p.server_seed && !p.contributed.includes(v.you) && !seeded.has(p.hand)) {
    seeded.add(p.hand);
    ws.send(JSON.stringify({ type: 'seed', id: `s${++n}`, hand: p.hand, seed: v.you.toString(16).padStart(2, '0').repeat(32) }));
  }
  if (v.legal && v.legal.length && !sent.has(v.table.version)) {
    sent.add(v.table.version);
    const pick = [...v.legal].sort((a, b) => greedy ? b.points - a.points : a.points - b.points)[0];
    ws.send(JSON.stringify({ type: 'act', id: `a${++n}`, version: v.table.version, action: pick.action }));
  }
};
return true;
"#;

/// A rated game between the two pages (the first makes the table, the second joins), played
/// by [`PLAYER_JS`]: the first greedily, the second avoiding points.
async fn rated_game(winner: &Client, loser: &Client) -> String {
    let id: Value = winner
        .execute(
            "return fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({rules: 'five-up target=50', seats: [{kind: 'me'}, {kind: 'open'}]})}).then((r) => r.json()).then((t) => t.id);",
            vec![],
        )
        .await
        .unwrap();
    let id = id.as_str().unwrap().to_string();
    let joined: Value = loser
        .execute(
            &format!("return fetch('/api/tables/{id}/join', {{method: 'POST', headers: {{'Content-Type': 'application/json'}}, body: '{{}}'}}).then((r) => r.status);"),
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(joined, 200, "joined the table");
    winner
        .execute(PLAYER_JS, vec![Value::from(id.clone()), Value::from(true)])
        .await
        .unwrap();
    loser
        .execute(PLAYER_JS, vec![Value::from(id.clone()), Value::from(false)])
        .await
        .unwrap();
    for c in [winner, loser] {
        wait_js(
            c,
            "return window.fiveupGame === 'over';",
            Duration::from_secs(90),
            "the rated game's end",
        )
        .await;
    }
    id
}

async fn axe_clean(c: &Client, axe: &str, what: &str) {
    let v = axe_violations(c, axe).await;
    assert!(
        v.is_empty(),
        "{what}: axe found serious or critical violations: {v:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_report_a_mark_with_refunds_the_log_an_appeal_and_a_ban_that_closes_the_table() {
    let Some(browsers) = browsers() else { return };
    let axe = axe_source().expect("axe-core");
    let dir = tempfile::tempdir().unwrap();
    // The fair-play worker runs (the rig turns it off): the evidence lists the analysed games.
    let server = start_server_with(
        dir.path(),
        Duration::ZERO,
        Duration::from_millis(300),
        |c| c.fairplay_share = 100,
    )
    .await;
    let base = format!("http://{}", server.local_addr());
    let driver = ChromeDriver::start(&browsers).unwrap();
    let cheat = driver.session(1366, 900).await.unwrap();
    let victim = driver.session(390, 844).await.unwrap();
    let moder = driver.session(1920, 1080).await.unwrap();
    register(&cheat, &base, "sharp").await;
    register(&victim, &base, "vic").await;
    register(&moder, &base, "moder").await;
    let db = fiveup_server::store::db::Db::connect(&dir.path().join("fiveup.db").to_string_lossy())
        .await
        .unwrap();
    fiveup_server::moderation::set_moderator(&db, "moder", true)
        .await
        .unwrap();
    let (cheat_id, victim_id) = (my_id(&cheat).await, my_id(&victim).await);

    // Rated games until the victim has lost one (the greedy side nearly always wins).
    let mut lost = None;
    for _ in 0..3 {
        let before = rating_of(&victim, victim_id).await;
        let game = rated_game(&cheat, &victim).await;
        let after = rating_of(&victim, victim_id).await;
        if after < before {
            lost = Some((game, after));
            break;
        }
    }
    let (game, lowered) = lost.expect("the victim lost a rated game");

    // The victim reports the winner from the winner's profile, on a phone.
    victim
        .goto(&format!("{base}/user/{cheat_id}"))
        .await
        .unwrap();
    click(&victim, ".report-btn").await;
    wait_js(
        &victim,
        "return document.activeElement && document.activeElement.id === 'report-reason';",
        Duration::from_secs(5),
        "the report dialog with the focus on its reason",
    )
    .await;
    select(&victim, "#report-reason", "computer-help").await;
    fill(&victim, "#report-text", "every play was the best one").await;
    axe_clean(&victim, &axe, "the report dialog").await;
    screenshot(&victim, "moderation-report-390", (390, 844)).await;
    click(&victim, "#report-go").await;
    wait_js(
        &victim,
        "return !!document.querySelector('#report-done');",
        Duration::from_secs(10),
        "the report's thanks",
    )
    .await;
    click(&victim, "#report-close").await;

    // The moderator: the menu has Moderation; the queue has the report.
    moder.goto(&base).await.unwrap();
    wait_js(
        &moder,
        "const a = document.querySelector('#nav-moderation'); return a && !a.hidden && a.offsetWidth > 0;",
        Duration::from_secs(10),
        "the Moderation link in the menu",
    )
    .await;
    click(&moder, "#nav-moderation").await;
    wait_js(
        &moder,
        "return document.querySelectorAll('#queue .queue-item').length === 1;",
        Duration::from_secs(10),
        "the queue with the report",
    )
    .await;
    axe_clean(&moder, &axe, "the moderation queue").await;
    screenshot(&moder, "moderation-queue-1920", (1920, 1080)).await;
    click(&moder, "#queue .evidence-link").await;
    wait_js(
        &moder,
        "return !!document.querySelector('#act-form');",
        Duration::from_secs(10),
        "the evidence page",
    )
    .await;
    let evidence: Value = moder
        .execute(
            "return [document.querySelector('#ev-h').textContent, document.querySelector('.mod-recent').textContent, document.querySelectorAll('#ev-same li').length];",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(evidence[0], "sharp");
    assert!(evidence[1].as_str().unwrap().contains(&game), "{evidence}");
    assert!(
        evidence[2].as_u64().unwrap() >= 1,
        "the same address: {evidence}"
    );
    axe_clean(&moder, &axe, "the evidence page").await;
    // Once the server has analysed the rated games, the evidence page lists each with the
    // rating the account had then (and twice its deviation), as the judging's band used it.
    wait_js(
        &moder,
        &format!(
            "const x = new XMLHttpRequest(); x.open('GET', '/api/moderation/users/{cheat_id}', false); \
             x.send(); return x.status === 200 && JSON.parse(x.responseText).analysed.length > 0;"
        ),
        Duration::from_secs(60),
        "the background analysis of the rated games",
    )
    .await;
    moder.refresh().await.unwrap();
    let first_row = wait_js(
        &moder,
        "const r = document.querySelector('.mod-games tbody tr'); \
         return r ? [...r.cells].map((c) => c.textContent) : null;",
        Duration::from_secs(10),
        "the analysed games' table",
    )
    .await;
    let then = first_row[2].as_str().unwrap_or_default();
    let (rating, deviation) = then
        .split_once(" ± ")
        .expect("rating ± twice the deviation");
    assert!(
        rating.parse::<u32>().is_ok() && deviation.parse::<u32>().is_ok(),
        "{first_row}"
    );
    select(&moder, "#act-kind", "mark-assisted").await;
    fill(&moder, "#act-reason", "agreement far over the band").await;
    // The confirmation is the browser's own dialog: accepted here.
    moder
        .execute("window.confirm = () => true; return true;", vec![])
        .await
        .unwrap();
    click(&moder, "#act-go").await;
    wait_js(
        &moder,
        "return document.querySelector('#ev-marks').textContent.includes('computer-assisted');",
        Duration::from_secs(10),
        "the mark on the evidence page",
    )
    .await;
    screenshot(&moder, "moderation-evidence-1920", (1920, 1080)).await;

    // The victim's rating is given back; the mark shows on the profile; the log lists it.
    let refunded = rating_of(&victim, victim_id).await;
    assert!(
        refunded > lowered + 1.0,
        "refunded: {lowered} -> {refunded}"
    );
    victim
        .goto(&format!("{base}/user/{cheat_id}"))
        .await
        .unwrap();
    wait_js(
        &victim,
        "const m = document.querySelector('#prof-marks'); return !!m && m.textContent.includes('computer-assisted play');",
        Duration::from_secs(10),
        "the mark on the profile",
    )
    .await;
    moder.goto(&format!("{base}/moderation")).await.unwrap();
    let log: Value = wait_js(
        &moder,
        "const r = document.querySelector('#mod-log tbody tr'); return r ? r.textContent : '';",
        Duration::from_secs(10),
        "the log",
    )
    .await;
    let log = log.as_str().unwrap();
    assert!(
        log.contains("mark-assisted") && log.contains("sharp") && log.contains("moder"),
        "{log}"
    );

    // The marked player sees the notice at once on their next page, and appeals.
    cheat.goto(&base).await.unwrap();
    wait_js(
        &cheat,
        "return !!document.querySelector('#mod-notices .mod-notice');",
        Duration::from_secs(10),
        "the notice",
    )
    .await;
    axe_clean(&cheat, &axe, "the notice").await;
    screenshot(&cheat, "moderation-notice-1366", (1366, 900)).await;
    click(&cheat, "#mod-notices details.appeal summary").await;
    let area: Value = cheat
        .execute(
            "return document.querySelector('#mod-notices textarea').id;",
            vec![],
        )
        .await
        .unwrap();
    fill(
        &cheat,
        &format!("#{}", area.as_str().unwrap()),
        "I study the game",
    )
    .await;
    click(&cheat, "#mod-notices .appeal-go").await;
    wait_js(
        &cheat,
        "return document.querySelector('#mod-notices').textContent.includes('Your appeal is with the moderators');",
        Duration::from_secs(10),
        "the appeal sent",
    )
    .await;
    moder.goto(&format!("{base}/moderation")).await.unwrap();
    wait_js(
        &moder,
        "return !!document.querySelector('#queue .queue-item.appeal');",
        Duration::from_secs(10),
        "the appeal in the queue",
    )
    .await;

    // A ban closes the banned player's open table at once.
    let table: Value = cheat
        .execute(
            "return fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({rules: 'five-up target=50', seats: [{kind: 'me'}, {kind: 'open'}]})}).then((r) => r.json()).then((t) => t.id);",
            vec![],
        )
        .await
        .unwrap();
    cheat
        .goto(&format!("{base}/table/{}", table.as_str().unwrap()))
        .await
        .unwrap();
    wait_js(
        &cheat,
        "return !!document.querySelector('.table-page');",
        Duration::from_secs(10),
        "the banned player's table",
    )
    .await;
    moder
        .goto(&format!("{base}/moderation/user/{cheat_id}"))
        .await
        .unwrap();
    wait_js(
        &moder,
        "return !!document.querySelector('#act-form');",
        Duration::from_secs(10),
        "the evidence page again",
    )
    .await;
    select(&moder, "#act-kind", "ban").await;
    fill(&moder, "#act-reason", "computer help again").await;
    moder
        .execute("window.confirm = () => true; return true;", vec![])
        .await
        .unwrap();
    let t0 = std::time::Instant::now();
    click(&moder, "#act-go").await;
    wait_js(
        &cheat,
        "return !!document.querySelector('#banned') && !document.querySelector('.table-page');",
        Duration::from_secs(10),
        "the table closed and the ban said",
    )
    .await;
    let took = t0.elapsed();
    assert!(took < Duration::from_secs(5), "closed at once: {took:?}");
    screenshot(&cheat, "moderation-banned-1366", (1366, 900)).await;
    let me: Value = cheat
        .execute("return fetch('/api/me').then((r) => r.status);", vec![])
        .await
        .unwrap();
    assert_eq!(me, 401, "the session ended");

    for c in [cheat, victim, moder] {
        c.close().await.unwrap();
    }
    server.shutdown().await;
}
