//! Tournaments in the browser, in headless Chromium against a real server on loopback: two
//! people register, one creates a knockout from the Tournaments page (after the form's own
//! error and the server's), adds two computer entrants, both join (one by the keyboard alone),
//! each is called to their table by the "your table is ready" banner and follows it, they play
//! their games by clicking, and the event page's bracket advances to a champion. The list page
//! and the event page pass axe-core, are worked by the keyboard, fit a phone, a laptop and a
//! desktop window, and are photographed at each. Skipped, with a message, when Chromium or
//! chromedriver is not installed.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::Client;
use fiveup_e2e::{
    axe_source, axe_violations, click, fill, png_size, select, set_viewport, start_server_with,
    wait_js, Browsers, ChromeDriver,
};
use serde_json::Value;

/// The three window sizes every page is checked at: a phone, a laptop, a desktop.
const SIZES: [(u32, u32); 3] = [(390, 844), (1366, 900), (1920, 1080)];

const TAB: char = '\u{E004}';
const ENTER: char = '\u{E007}';

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

async fn press(c: &Client, key: char) {
    let keys = KeyActions::new("keys".into())
        .then(KeyAction::Down { value: key })
        .then(KeyAction::Up { value: key });
    c.perform_actions(keys).await.expect("a key press");
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

/// Go to `path` inside the app (no reload: the page's connections stay open).
async fn go(c: &Client, path: &str) {
    c.execute(
        "return import('/static/js/context.js').then((m) => { m.go(arguments[0]); return true; });",
        vec![Value::String(path.to_string())],
    )
    .await
    .expect("in-app navigation");
}

const STATE_JS: &str = r#"
const r = document.querySelector('.table-page');
if (!r) return {page: false};
const next = document.querySelector('#next-hand');
return {
  page: true,
  version: Number(r.dataset.version || 0),
  turn: r.dataset.turn || '',
  over: !!document.querySelector('#summary .game-over'),
  summary: !!document.querySelector('#summary'),
  next: !!next && !next.disabled,
  playable: document.querySelectorAll('#hand .hand-tile.playable').length,
  draw: !!document.querySelector('#draw'),
  pass: !!document.querySelector('#pass'),
  errors: window.fiveupErrors || [],
};"#;

/// One step at a table by clicking its own controls: the next hand, a tile (and its end), a
/// draw or a pass. Returns whether it did something.
async fn step(c: &Client) -> bool {
    let s: Value = c
        .execute(STATE_JS, vec![])
        .await
        .expect("the table's state");
    assert_eq!(
        s["errors"],
        Value::Array(vec![]),
        "script errors at the table"
    );
    if s["page"] != true || s["over"] == true {
        return false;
    }
    if s["next"] == true {
        click(c, "#next-hand").await;
        return true;
    }
    if s["turn"] != "mine" || s["summary"] == true {
        return false;
    }
    let version = s["version"].as_u64().unwrap();
    if s["playable"].as_u64().unwrap() > 0 {
        click(c, "#hand .hand-tile.playable").await;
        let after = wait_js(
            c,
            &format!(
                "const r = document.querySelector('.table-page');
                 if (!r || Number(r.dataset.version) !== {version}) return 'played';
                 if (document.querySelector('.ends-bar .end-btn')) return 'ends';
                 return '';"
            ),
            Duration::from_secs(10),
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
        &format!("const r = document.querySelector('.table-page'); return !r || Number(r.dataset.version) > {version};"),
        Duration::from_secs(10),
        "the action applied",
    )
    .await;
    true
}

/// No sideways scrolling, no script or console error, no serious or critical accessibility
/// violation, and a screenshot `name-WxH.png`.
async fn check_page(driver: &ChromeDriver, c: &Client, axe: &str, name: &str, size: (u32, u32)) {
    let what = format!("{name} at {}x{}", size.0, size.1);
    set_viewport(c, size.0, size.1).await.unwrap();
    c.execute("window.scrollTo(0, 0);", vec![]).await.unwrap();
    let w = c
        .execute(
            "return [document.documentElement.scrollWidth, window.innerWidth, document.querySelector('header.top').getBoundingClientRect().height,
                     [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5 && !e.closest('.bracket-scroll, .table-scroll, header nav')).slice(0, 5).map((e) => e.tagName + '.' + e.className)];",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        w[0], w[1],
        "{what}: the page is wider than the window: {}",
        w[3]
    );
    assert_eq!(
        w[3],
        Value::Array(vec![]),
        "{what}: elements past the window's edge"
    );
    // The header stays one line (a phone's too), every link of it inside the window.
    assert!(
        w[2].as_f64().unwrap() <= 56.0,
        "{what}: the header is {} px high",
        w[2]
    );
    let cut = c
        .execute(
            "return [...document.querySelectorAll('header nav a')].filter((a) => a.getClientRects().length && a.getBoundingClientRect().right > window.innerWidth + 0.5).map((a) => a.textContent);",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        cut,
        Value::Array(vec![]),
        "{what}: header links past the window's edge"
    );
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
    std::fs::write(
        shots_dir().join(format!("{name}-{}x{}.png", size.0, size.1)),
        &png,
    )
    .expect("write the screenshot");
}

/// Tab from the top of the page until `target` (a script's condition on the focused element
/// `el`) holds, checking that every stop shows a focus outline; returns the stops' names.
async fn tab_to(c: &Client, target: &str, what: &str) -> Vec<String> {
    c.execute(
        "document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);",
        vec![],
    )
    .await
    .unwrap();
    let mut stops = Vec::new();
    for _ in 0..80 {
        press(c, TAB).await;
        let v = c
            .execute(
                &format!(
                    "const el = document.activeElement;
                     if (!el || el === document.body) return {{name: 'body', visible: true, hit: false}};
                     const st = getComputedStyle(el);
                     const visible = st.outlineStyle !== 'none' && parseFloat(st.outlineWidth) > 0;
                     return {{name: el.id || el.getAttribute('href') || el.getAttribute('aria-label') || el.tagName, visible, outline: `${{st.outlineStyle}} ${{st.outlineWidth}} ${{el.matches(':focus')}} ${{el.matches(':focus-visible')}}`, hit: !!({target})}};"
                ),
                vec![],
            )
            .await
            .unwrap();
        let name = v["name"].as_str().unwrap_or("").to_string();
        assert!(
            v["visible"] == true,
            "{what}: {name} has the focus without an outline ({})",
            v["outline"]
        );
        stops.push(name);
        if v["hit"] == true {
            return stops;
        }
    }
    panic!("{what}: not reached by the keyboard; stops: {stops:?}");
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Phase {
    /// On the event page, waiting for a call or the end.
    Waiting,
    /// At a table.
    Playing,
}

/// The whole flow: a knockout of two people and two computer entrants, from the create form to
/// the champion, with the banner's call followed at every table.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_knockout_from_the_form_to_the_champion_by_the_banner() {
    let Some(browsers) = browsers() else { return };
    let axe = match axe_source() {
        Ok(a) => a,
        Err(msg) => panic!("{msg}"),
    };
    let dir = tempfile::tempdir().unwrap();
    let server =
        start_server_with(dir.path(), Duration::ZERO, Duration::from_secs(5), |_| {}).await;
    let base = format!("http://{}", server.local_addr());
    let driver = ChromeDriver::start(&browsers).unwrap();
    let a = driver.session(1366, 900).await.unwrap();
    // Bertil plays on a phone, in the dark theme.
    let b = driver
        .session_with(
            390,
            844,
            &[
                "--force-dark-mode",
                "--blink-settings=preferredColorScheme=0",
            ],
        )
        .await
        .unwrap();
    register(&a, &base, "Annika").await;
    register(&b, &base, "Bertil").await;

    // The list, reached from the header, with nothing in it yet.
    click(&a, "header nav a.nav-tournaments").await;
    wait_js(
        &a,
        "return location.pathname === '/tournaments' && !!document.querySelector('#tc-name');",
        Duration::from_secs(10),
        "the Tournaments page",
    )
    .await;
    check_page(&driver, &a, &axe, "tournaments-empty", (1366, 900)).await;
    // The keyboard reaches the form's every field and its button, each with a focus outline.
    let stops = tab_to(&a, "el.id === 'tc-go'", "the list page").await;
    for id in [
        "tc-name",
        "tc-format",
        "tc-preset",
        "tc-target",
        "tc-start-when",
        "tc-max",
        "tc-min-rating",
    ] {
        assert!(
            stops.iter().any(|s| s == id),
            "the list page: {id} not among the keyboard's stops {stops:?}"
        );
    }

    // The form's own check: no name.
    click(&a, "#tc-go").await;
    wait_js(&a, "return document.querySelector('#tc-error').textContent.includes('name') && document.activeElement.id === 'tc-name';", Duration::from_secs(5), "the missing name named, and focused").await;
    fill(&a, "#tc-name", "Friday knockout").await;
    select(&a, "#tc-format", "knockout").await;
    select(&a, "#tc-preset", "five-up").await;
    fill(&a, "#tc-target", "50").await;
    fill(&a, "#tc-start-when", "4").await;
    // The server's check, in its words: a knockout of best of two cannot have a winner.
    fill(&a, "#tc-best-of", "2").await;
    click(&a, "#tc-go").await;
    wait_js(
        &a,
        "return document.querySelector('#tc-error').textContent.includes('odd number');",
        Duration::from_secs(10),
        "the server's error on the form",
    )
    .await;
    let listed: Value = a
        .execute(
            "return fetch('/api/tournaments').then((r) => r.json());",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        listed["upcoming"],
        Value::Array(vec![]),
        "a refused form creates nothing"
    );
    // The refused request is the console's only error.
    let errors = driver.console_errors(&a).await;
    assert!(
        errors.len() == 1 && errors[0].contains("400"),
        "the console after the refused form: {errors:?}"
    );
    fill(&a, "#tc-best-of", "1").await;
    click(&a, "#tc-go").await;
    let id = wait_js(&a, "const m = location.pathname.match(/^\\/tournaments\\/([a-z0-9]+)$/); return m && document.querySelector('#tour-h') ? m[1] : '';", Duration::from_secs(10), "the new event's page").await;
    let id = id.as_str().unwrap().to_string();
    let event_path = format!("/tournaments/{id}");

    // Two computer entrants, then Annika joins.
    select(&a, "#bot-level", "beginner").await;
    fill(&a, "#bot-count", "2").await;
    click(&a, "#add-bots").await;
    wait_js(
        &a,
        "return document.querySelectorAll('#entrants li').length === 2;",
        Duration::from_secs(10),
        "two computer entrants listed",
    )
    .await;
    check_page(&driver, &a, &axe, "tournament-upcoming", (1366, 900)).await;

    // Bertil joins from the list, then withdraws (before the start: his entry goes).
    go(&b, "/tournaments").await;
    click(&b, "#tour-upcoming .join-listed").await;
    wait_js(
        &b,
        "return location.pathname.startsWith('/tournaments/') && !!document.querySelector('#entered') && document.querySelectorAll('#entrants li:not(.out)').length === 3;",
        Duration::from_secs(10),
        "Bertil in, from the list",
    )
    .await;
    click(&b, "#withdraw").await;
    wait_js(
        &b,
        "return !!document.querySelector('#join') && !document.querySelector('#entered') && document.querySelectorAll('#entrants li').length === 2;",
        Duration::from_secs(10),
        "Bertil withdrawn, Join offered again",
    )
    .await;

    // Annika joins; Bertil (on the event's page) joins again, by the keyboard alone.
    click(&a, "#join").await;
    wait_js(&a, "return !!document.querySelector('#entered') && document.querySelectorAll('#entrants li:not(.out)').length === 3;", Duration::from_secs(10), "Annika entered").await;
    for c in [&a, &b] {
        wait_js(
            c,
            "return document.body.dataset.calls === 'open';",
            Duration::from_secs(10),
            "the calls' connection",
        )
        .await;
    }
    tab_to(&b, "el.id === 'join'", "the event page").await;
    press(&b, ENTER).await;

    // Each is called to a table by the banner, follows it, and plays; back on the event page
    // the bracket shows the match decided. Until the event ends.
    let sessions = [("Annika", &a), ("Bertil", &b)];
    let mut phase = [Phase::Waiting, Phase::Waiting];
    let mut calls = [0u32, 0u32];
    let mut tables: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    let end = Instant::now() + Duration::from_secs(420);
    loop {
        assert!(
            Instant::now() < end,
            "the knockout did not finish in time; calls {calls:?}, phases {phase:?}"
        );
        let mut acted = false;
        let mut finished = [false, false];
        for (k, (who, c)) in sessions.iter().enumerate() {
            // A call shows on whatever page is open (a table just finished included).
            let call: Value = c
                .execute("const b = document.querySelector('#call-banner'); return b && !b.hidden && document.querySelector('#call-go') ? [document.querySelector('#call-go').getAttribute('href'), document.title] : null;", vec![])
                .await
                .unwrap();
            if !call.is_null() {
                let href = call[0].as_str().unwrap().to_string();
                assert!(
                    call[1].as_str().unwrap().starts_with("Your table is ready"),
                    "{who}: the title while called: {}",
                    call[1]
                );
                // Announced to screen readers; photographed the first time (with axe's check).
                wait_js(
                    c,
                    "const a = document.querySelector('#call-banner [role=alert]'); return !!a && a.textContent.startsWith('Your table is ready');",
                    Duration::from_secs(5),
                    "the call announced",
                )
                .await;
                if calls[k] == 0 {
                    let (name, size) = if k == 0 {
                        ("call-banner", (1366, 900))
                    } else {
                        ("call-banner-dark", (390, 844))
                    };
                    check_page(&driver, c, &axe, name, size).await;
                }
                click(c, "#call-go").await;
                wait_js(c, &format!("return location.pathname === {href:?} && !!document.querySelector('.table-page') && document.querySelector('#call-banner').hidden && !document.title.startsWith('Your table is ready');"), Duration::from_secs(10), "the called table, the banner gone").await;
                calls[k] += 1;
                tables[k].push(href);
                phase[k] = Phase::Playing;
                acted = true;
                continue;
            }
            match phase[k] {
                Phase::Playing => {
                    let over = c
                        .execute(
                            "return !!document.querySelector('#summary .game-over');",
                            vec![],
                        )
                        .await
                        .unwrap();
                    if over == true {
                        go(c, &event_path).await;
                        // The match just played is shown decided in the bracket (pushed live).
                        let table = tables[k]
                            .last()
                            .unwrap()
                            .trim_start_matches("/table/")
                            .to_string();
                        wait_js(
                            c,
                            &format!("const l = [...document.querySelectorAll('.bmatch')].find((m) => m.querySelector(`a[href$='{table}']`)); return !!l && l.dataset.status === 'Played';"),
                            Duration::from_secs(20),
                            "the match just played decided in the bracket",
                        )
                        .await;
                        phase[k] = Phase::Waiting;
                        acted = true;
                    } else if step(c).await {
                        acted = true;
                    }
                }
                Phase::Waiting => {
                    let s = c
                        .execute("const s = document.querySelector('#tour-status'); return s ? s.textContent : '';", vec![])
                        .await
                        .unwrap();
                    finished[k] = s.as_str().unwrap_or("").starts_with("Finished");
                }
            }
        }
        if finished.iter().any(|f| *f) && !phase.contains(&Phase::Playing) {
            break;
        }
        if !acted {
            tokio::time::sleep(Duration::from_millis(60)).await;
        }
    }
    eprintln!("calls to a table: Annika {}, Bertil {}", calls[0], calls[1]);
    // Both were called to the first round; the final's people (if any) once more.
    assert!(
        calls.iter().all(|n| *n >= 1),
        "both called to a table: {calls:?}"
    );

    // The finished bracket: three matches played, a champion, every game's replay.
    go(&a, &event_path).await;
    let done = wait_js(
        &a,
        "const ms = [...document.querySelectorAll('.bmatch')];
         const played = ms.filter((m) => m.dataset.status === 'Played').length;
         const champ = document.querySelector('#champion');
         return played === 3 && champ ? {played, champion: champ.textContent, replays: document.querySelectorAll('.all-games .replay-link').length, status: document.querySelector('#tour-status').textContent} : null;",
        Duration::from_secs(20),
        "the finished bracket",
    )
    .await;
    assert!(
        done["replays"].as_u64().unwrap() >= 3,
        "every game's replay linked: {done}"
    );
    let api: Value = a
        .execute(
            &format!("return fetch('/api/tournaments/{id}').then((r) => r.json());"),
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(api["status"], "finished");
    let top = api["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["rank"] == 1)
        .unwrap();
    assert_eq!(
        done["champion"].as_str().unwrap(),
        format!("Champion: {}", top["name"].as_str().unwrap()),
        "the champion shown is the standings' first"
    );
    // A replay link leads to the game's replay.
    click(&a, ".all-games .replay-link").await;
    wait_js(
        &a,
        "return location.pathname.startsWith('/game/') && !!document.querySelector('.replay');",
        Duration::from_secs(10),
        "a game's replay",
    )
    .await;

    // The event page and the list by keyboard and at three sizes, light theme.
    go(&a, &event_path).await;
    wait_js(
        &a,
        "return !!document.querySelector('.bracket-scroll');",
        Duration::from_secs(10),
        "the event page",
    )
    .await;
    tab_to(
        &a,
        "el.classList.contains('bracket-scroll')",
        "the bracket's box",
    )
    .await;
    for size in SIZES {
        set_viewport(&a, size.0, size.1).await.unwrap();
        go(&a, &event_path).await;
        wait_js(
            &a,
            "return !!document.querySelector('#champion');",
            Duration::from_secs(10),
            "the event page",
        )
        .await;
        check_page(&driver, &a, &axe, "tournament-finished", size).await;
        go(&a, "/tournaments").await;
        wait_js(
            &a,
            "return !!document.querySelector('#tour-finished a.tour-name');",
            Duration::from_secs(10),
            "the list with the finished event",
        )
        .await;
        check_page(&driver, &a, &axe, "tournaments", size).await;
    }
    // A bigger bracket: a double elimination of eight computer entrants (through the API),
    // played out by the server, drawn at the three sizes: on the phone its boxes scroll
    // sideways and the page does not.
    let big: Value = a
        .execute(
            "const post = (p, b) => fetch(p, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(b)}).then((r) => r.json());
             return post('/api/tournaments', {name: 'Double trouble', format: {kind: 'knockout', double: true}, rules: 'five-up target=50', best_of: 1, start_when: 8})
               .then((t) => post(`/api/tournaments/${t.id}/bots`, {level: 'beginner', count: 8}).then(() => t.id));",
            vec![],
        )
        .await
        .unwrap();
    let big_path = format!("/tournaments/{}", big.as_str().unwrap());
    go(&a, &big_path).await;
    wait_js(
        &a,
        "return document.querySelector('#tour-status').textContent.startsWith('Finished') && !!document.querySelector('#champion');",
        Duration::from_secs(180),
        "the double elimination played out",
    )
    .await;
    let sides: Value = a
        .execute(
            "return [...document.querySelectorAll('.bside')].map((s) => s.dataset.side);",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(sides[0], "Winners");
    assert_eq!(sides[1], "Losers");
    assert_eq!(sides[2], "GrandFinal");
    for size in SIZES {
        set_viewport(&a, size.0, size.1).await.unwrap();
        go(&a, &big_path).await;
        wait_js(
            &a,
            "return !!document.querySelector('#champion');",
            Duration::from_secs(10),
            "the double bracket",
        )
        .await;
        check_page(&driver, &a, &axe, "tournament-double", size).await;
        if size.0 == 390 {
            let scrolls = a
                .execute("const b = document.querySelector('.bside[data-side=Losers] .bracket-scroll'); return b.scrollWidth > b.clientWidth;", vec![])
                .await
                .unwrap();
            assert_eq!(
                scrolls, true,
                "the losers' bracket scrolls in its box on a phone"
            );
        }
    }

    // Bertil's phone, dark: the finished event.
    go(&b, &event_path).await;
    wait_js(
        &b,
        "return !!document.querySelector('#champion');",
        Duration::from_secs(10),
        "the event page on the phone",
    )
    .await;
    check_page(&driver, &b, &axe, "tournament-finished-dark", (390, 844)).await;
    a.close().await.unwrap();
    b.close().await.unwrap();
    server.shutdown().await;
}

/// The create form makes a daylong: its own fields show (boards, scoring, computer opponents,
/// hours open) and the others hide; no start is needed; the event's page shows the format in
/// words and each board's commitment, and a board's results wait until one has played it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_daylong_from_the_form_shows_its_boards_commitments() {
    let Some(browsers) = browsers() else { return };
    let axe = match axe_source() {
        Ok(a) => a,
        Err(msg) => panic!("{msg}"),
    };
    let dir = tempfile::tempdir().unwrap();
    let server =
        start_server_with(dir.path(), Duration::ZERO, Duration::from_secs(5), |_| {}).await;
    let base = format!("http://{}", server.local_addr());
    let driver = ChromeDriver::start(&browsers).unwrap();
    let a = driver.session(390, 844).await.unwrap();
    register(&a, &base, "Dagny").await;
    go(&a, "/tournaments").await;
    wait_js(
        &a,
        "return !!document.querySelector('#tc-name');",
        Duration::from_secs(10),
        "the Tournaments page",
    )
    .await;
    select(&a, "#tc-format", "daylong").await;
    let shown: Value = a
        .execute(
            "const vis = (id) => !document.getElementById(id).closest('[hidden]'); \
             return ['tc-boards', 'tc-scoring', 'tc-opponents', 'tc-hours', 'tc-rounds', 'tc-minutes', 'tc-min-seats'].map(vis);",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        shown,
        serde_json::json!([true, true, true, true, false, false, false]),
        "a daylong's fields show and the others hide"
    );
    fill(&a, "#tc-name", "Thursday daylong").await;
    fill(&a, "#tc-boards", "3").await;
    fill(&a, "#tc-hours", "2").await;
    select(&a, "#tc-opponents", "club").await;
    select(&a, "#tc-preset", "all-fives").await;
    click(&a, "#tc-go").await;
    let id = wait_js(&a, "const m = location.pathname.match(/^\\/tournaments\\/([a-z0-9]+)$/); return m && document.querySelectorAll('.board-box').length === 3 ? m[1] : '';", Duration::from_secs(20), "the daylong's page with its three boards").await;
    let id = id.as_str().unwrap().to_string();
    let page: Value = a
        .execute(
            "return { text: document.querySelector('main').innerText, \
               commits: [...document.querySelectorAll('.board-box code')].map((c) => c.textContent) };",
            vec![],
        )
        .await
        .unwrap();
    let text = page["text"].as_str().unwrap();
    assert!(
        text.contains("Daylong duplicate, 3 boards, open 2 hours"),
        "{text}"
    );
    assert!(text.contains("Opponents"), "{text}");
    // Each board's commitment is shown from the start, the one the server gives.
    let e: Value = a
        .execute(
            &format!("return fetch('/api/tournaments/{id}').then((r) => r.json());"),
            vec![],
        )
        .await
        .unwrap();
    let commits: Vec<Value> = e["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["commit"].clone())
        .collect();
    assert_eq!(page["commits"].as_array().unwrap(), &commits);
    assert!(commits
        .iter()
        .all(|c| c.as_str().is_some_and(|c| c.len() == 64)));
    assert!(e["boards"]
        .as_array()
        .unwrap()
        .iter()
        .all(|b| b["hidden"] == true && b["seed"].is_null()));
    assert!(
        text.contains("Results are shown once you have played this board"),
        "{text}"
    );
    check_page(&driver, &a, &axe, "tournament-daylong", (390, 844)).await;
    a.close().await.unwrap();
    server.shutdown().await;
}

/// A fetch from the page: `[status, body as JSON]`.
async fn page_json(c: &Client, method: &str, path: &str, body: Value) -> Value {
    c.execute_async(
        "const [method, path, body, done] = arguments;
         const init = {method, headers: {'Content-Type': 'application/json'}};
         if (body !== null) init.body = JSON.stringify(body);
         fetch(path, init).then(async (r) => done([r.status, await r.json().catch(() => null)]),
           (e) => done([0, String(e)]));",
        vec![
            Value::String(method.to_string()),
            Value::String(path.to_string()),
            body,
        ],
    )
    .await
    .unwrap()
}

/// A tournament's table names the event and its round under the table's heading, with a link
/// to the event, and the game over leads back to the event; on a phone and a laptop, without
/// sideways scrolling, console errors or serious accessibility violations.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_table_names_its_event_and_round_and_leads_back() {
    let Some(browsers) = browsers() else { return };
    let axe = axe_source().unwrap_or_else(|m| panic!("{m}"));
    let dir = tempfile::tempdir().unwrap();
    let server =
        start_server_with(dir.path(), Duration::ZERO, Duration::from_secs(5), |_| {}).await;
    let base = format!("http://{}", server.local_addr());
    let driver = ChromeDriver::start(&browsers).unwrap();
    let c = driver.session(390, 844).await.unwrap();
    register(&c, &base, "Annika").await;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let made = page_json(
        &c,
        "POST",
        "/api/tournaments",
        serde_json::json!({"name": "Spring Cup", "format": {"kind": "swiss", "rounds": 1},
            "rules": "five-up target=50", "best_of": 1, "start_when": 2, "start_at": now + 3600}),
    )
    .await;
    assert!(made[0].as_u64().unwrap() < 300, "created: {made}");
    let id = made[1]["id"].as_str().unwrap().to_string();
    let joined = page_json(
        &c,
        "POST",
        &format!("/api/tournaments/{id}/join"),
        serde_json::json!({}),
    )
    .await;
    assert_eq!(joined[0], 200, "joined: {joined}");
    let bots = page_json(
        &c,
        "POST",
        &format!("/api/tournaments/{id}/bots"),
        serde_json::json!({"level": "random", "count": 1}),
    )
    .await;
    assert_eq!(bots[0], 200, "a computer entrant: {bots}");
    // The event starts with two entrants: Annika's table.
    let table = wait_js(
        &c,
        &format!("return fetch('/api/tournaments/{id}').then((r) => r.json()).then((ev) => ((ev.games || [])[0]?.games || [])[0]?.table || '');"),
        Duration::from_secs(20),
        "Annika's tournament table",
    )
    .await
    .as_str()
    .unwrap()
    .to_string();
    c.goto(&format!("{base}/table/{table}")).await.unwrap();
    let line = wait_js(
        &c,
        "const l = document.querySelector('.table-head #tour-line'); const a = l && l.querySelector('a'); return l ? [l.textContent, a ? a.getAttribute('href') : ''] : null;",
        Duration::from_secs(15),
        "the event's line under the table's heading",
    )
    .await;
    assert_eq!(
        line,
        serde_json::json!(["Spring Cup · Round 1", format!("/tournaments/{id}")]),
        "the table names its event and round"
    );
    for size in [(390, 844), (1366, 900)] {
        check_page(&driver, &c, &axe, "polish-tour-table", size).await;
    }
    set_viewport(&c, 390, 844).await.unwrap();
    let end = Instant::now() + Duration::from_secs(240);
    while c
        .execute(
            "return !document.querySelector('#summary .game-over');",
            vec![],
        )
        .await
        .unwrap()
        == true
    {
        assert!(Instant::now() < end, "the game did not end");
        if !step(&c).await {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    let back = c
        .execute(
            "const a = document.querySelector('#summary #tour-back'); return a ? [a.textContent, a.getAttribute('href')] : null;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        back,
        serde_json::json!(["Back to Spring Cup", format!("/tournaments/{id}")]),
        "the game over leads back to the event"
    );
    for size in [(390, 844), (1366, 900)] {
        check_page(&driver, &c, &axe, "polish-tour-game-over", size).await;
    }
    c.close().await.unwrap();
    server.shutdown().await;
}

/// The page's moderate accessibility violations (those `check_page` lets through).
async fn axe_moderate(c: &Client, axe: &str) -> Vec<String> {
    c.execute(axe, vec![]).await.expect("axe-core loads");
    let r = c
        .execute_async(
            "const done = arguments[arguments.length - 1];
             axe.run(document, { resultTypes: ['violations'] })
               .then((r) => done(r.violations.filter((v) => v.impact === 'moderate')
                 .map((v) => `${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')})`)),
                     (e) => done([`axe failed: ${e}`]));",
            vec![],
        )
        .await
        .expect("axe-core runs");
    serde_json::from_value(r).unwrap_or_default()
}

/// Create an event through the API from the page of `c` (logged in); its id.
async fn create_event(c: &Client, settings: Value) -> String {
    let made = page_json(c, "POST", "/api/tournaments", settings).await;
    assert!(made[0].as_u64().unwrap() < 300, "created: {made}");
    made[1]["id"].as_str().unwrap().to_string()
}

/// The open table of the signed-in person's board in the duplicate event `id`, once dealt.
async fn my_board_table(c: &Client, id: &str) -> String {
    wait_js(
        c,
        &format!("return fetch('/api/tournaments/{id}').then((r) => r.json()).then((ev) => {{ const g = (ev.games || []).find((g) => g.games.some((x) => !x.result)); return g ? g.games.find((x) => !x.result).table : ''; }});"),
        Duration::from_secs(20),
        "a board dealt to the entrant",
    )
    .await
    .as_str()
    .unwrap()
    .to_string()
}

/// A duplicate event and a daylong, each with a board of Annika's open: after a reload their
/// pages have "Go to your table" at the top, "Every game" speaks of boards (never "match 2 ·
/// game 1"), and the board's table names the event and the board and is headed as one hand
/// (not "to 250"); at the three sizes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn duplicate_and_daylong_pages_lead_back_to_an_open_board() {
    let Some(browsers) = browsers() else { return };
    let axe = axe_source().unwrap_or_else(|m| panic!("{m}"));
    let dir = tempfile::tempdir().unwrap();
    let server =
        start_server_with(dir.path(), Duration::ZERO, Duration::from_secs(5), |_| {}).await;
    let base = format!("http://{}", server.local_addr());
    let driver = ChromeDriver::start(&browsers).unwrap();
    let c = driver.session(1366, 900).await.unwrap();
    register(&c, &base, "Annika").await;
    let daylong = create_event(
        &c,
        serde_json::json!({"name": "Board night", "format": {"kind": "daylong", "boards": 2, "scoring": "matchpoints", "duration_ms": 7_200_000},
            "rules": "five-up", "best_of": 1, "opponents": "beginner"}),
    )
    .await;
    let duplicate = create_event(
        &c,
        serde_json::json!({"name": "Same deals", "format": {"kind": "duplicate", "boards": 2, "scoring": "matchpoints"},
            "rules": "five-up", "best_of": 1, "opponents": "beginner", "start_when": 2}),
    )
    .await;
    for (id, name, shot) in [
        (&daylong, "Board night", "tournament-daylong-board"),
        (&duplicate, "Same deals", "tournament-duplicate-board"),
    ] {
        let joined = page_json(
            &c,
            "POST",
            &format!("/api/tournaments/{id}/join"),
            serde_json::json!({}),
        )
        .await;
        assert_eq!(joined[0], 200, "joined: {joined}");
        if id == &duplicate {
            let bots = page_json(
                &c,
                "POST",
                &format!("/api/tournaments/{id}/bots"),
                serde_json::json!({"level": "random", "count": 1}),
            )
            .await;
            assert_eq!(bots[0], 200, "a computer entrant: {bots}");
        }
        let table = my_board_table(&c, id).await;
        // A reload: the page is all there is to lead back to the board.
        c.goto(&format!("{base}/tournaments/{id}")).await.unwrap();
        let page = wait_js(
            &c,
            "const a = document.querySelector('#your-table'); const g = document.querySelector('.all-games');
             return a && g ? {href: a.getAttribute('href'), text: a.textContent, games: [...g.querySelectorAll('li')].map((li) => li.textContent)} : null;",
            Duration::from_secs(10),
            &format!("{name}'s page with Go to your table"),
        )
        .await;
        assert_eq!(page["href"], format!("/table/{table}"), "{name}: {page}");
        assert_eq!(page["text"], "Go to your table", "{name}: {page}");
        assert_eq!(
            page["games"],
            serde_json::json!(["Board 1 · Annika · board 1: play"]),
            "{name}: every game, by board"
        );
        for size in SIZES {
            check_page(&driver, &c, &axe, shot, size).await;
        }
        // The board's table: the event and the board under its heading, one hand.
        set_viewport(&c, 1366, 900).await.unwrap();
        click(&c, "#your-table").await;
        let head = wait_js(
            &c,
            "const l = document.querySelector('.table-head #tour-line'); const r = document.querySelector('.table-head details.rules summary');
             return l && r ? [l.textContent, r.textContent, document.querySelector('.table-head h1').textContent, document.querySelector('#scores-h').textContent] : null;",
            Duration::from_secs(15),
            "the board's table",
        )
        .await;
        assert_eq!(
            head[0],
            format!("{name} · Board 1"),
            "{name}: the table names its board"
        );
        let rules = head[1].as_str().unwrap();
        assert!(
            rules.contains("one hand") && !rules.contains("to 250"),
            "{name}: a board's table is headed as one hand: {rules}"
        );
        assert!(
            head[2].as_str().unwrap().starts_with("Five Up: Annika"),
            "{name}: a one-hand board is still Five Up: {head}"
        );
        assert_eq!(head[3], "Scores · one hand", "{name}: {head}");
        if id == &duplicate {
            check_page(&driver, &c, &axe, "tournament-board-table", (1366, 900)).await;
            // A phone, from the start.
            set_viewport(&c, 390, 844).await.unwrap();
            c.refresh().await.unwrap();
            wait_js(
                &c,
                "return !!document.querySelector('.table-head #tour-line') && !!document.querySelector('#hand');",
                Duration::from_secs(15),
                "the board's table on a phone",
            )
            .await;
            tokio::time::sleep(Duration::from_millis(500)).await;
            check_page(&driver, &c, &axe, "tournament-board-table", (390, 844)).await;
            set_viewport(&c, 1920, 1080).await.unwrap();
            check_page(&driver, &c, &axe, "tournament-board-table", (1920, 1080)).await;
        }
    }
    c.close().await.unwrap();
    server.shutdown().await;
}

/// A finished Swiss of eight computer entrants: at 1366x900 its standings fit their box (no
/// sideways scrolling, every tie-break heading whole, the short ones said in full in a key and
/// to a screen reader), and the page with its crosstable has no moderate accessibility
/// violation either (each landmark named uniquely); at the three sizes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn swiss_standings_fit_a_laptop_and_the_crosstable_is_axe_clean() {
    let Some(browsers) = browsers() else { return };
    let axe = axe_source().unwrap_or_else(|m| panic!("{m}"));
    let dir = tempfile::tempdir().unwrap();
    let server =
        start_server_with(dir.path(), Duration::ZERO, Duration::from_secs(5), |_| {}).await;
    let base = format!("http://{}", server.local_addr());
    let driver = ChromeDriver::start(&browsers).unwrap();
    let c = driver.session(1366, 900).await.unwrap();
    register(&c, &base, "Annika").await;
    let id = create_event(
        &c,
        serde_json::json!({"name": "Swiss evening", "format": {"kind": "swiss", "rounds": 3},
            "rules": "five-up target=50", "best_of": 1, "start_when": 8}),
    )
    .await;
    let bots = page_json(
        &c,
        "POST",
        &format!("/api/tournaments/{id}/bots"),
        serde_json::json!({"level": "beginner", "count": 8}),
    )
    .await;
    assert_eq!(bots[0], 200, "computer entrants: {bots}");
    go(&c, &format!("/tournaments/{id}")).await;
    wait_js(
        &c,
        "return document.querySelector('#tour-status').textContent.startsWith('Finished') && !!document.querySelector('#crosstable');",
        Duration::from_secs(180),
        "the Swiss played out",
    )
    .await;
    // The page read again after the last push (whose standings have no tie-breaks).
    go(&c, &format!("/tournaments/{id}")).await;
    wait_js(
        &c,
        "return !!document.querySelector('#crosstable') && document.querySelectorAll('#standings-table thead th').length > 4;",
        Duration::from_secs(10),
        "the finished Swiss with its tie-breaks",
    )
    .await;
    // Measured at every size first, then checked.
    let mut measured = Vec::new();
    for size in SIZES {
        set_viewport(&c, size.0, size.1).await.unwrap();
        let fit = c
            .execute(
                "const box = document.querySelector('#standings-table').parentElement;
                 return {box: box.clientWidth, table: box.scrollWidth, width: Math.round(document.querySelector('#standings-table').getBoundingClientRect().width),
                   cut: [...document.querySelectorAll('#standings-table th')].filter((th) => th.scrollWidth > th.clientWidth + 1).map((th) => th.textContent),
                   heads: [...document.querySelectorAll('#standings-table th')].map((th) => th.textContent),
                   key: (document.querySelector('#tie-key') || {}).textContent || ''};",
                vec![],
            )
            .await
            .unwrap();
        let moderate = axe_moderate(&c, &axe).await;
        eprintln!("standings at {size:?}: {fit}; moderate violations: {moderate:?}");
        measured.push((size, fit, moderate));
    }
    for (size, fit, moderate) in measured {
        set_viewport(&c, size.0, size.1).await.unwrap();
        if size.0 >= 1366 {
            assert!(
                fit["table"].as_u64() <= fit["box"].as_u64(),
                "the standings scroll sideways at {size:?}: {fit}"
            );
        }
        assert_eq!(
            fit["cut"],
            Value::Array(vec![]),
            "headings cut at {size:?}: {fit}"
        );
        // Each short heading is said in full: to a screen reader, and in the key.
        assert_eq!(
            fit["heads"],
            serde_json::json!([
                "Rank",
                "Entrant",
                "Points",
                "W-D-L",
                "BchBuchholz",
                "SBSonneborn-Berger",
                "±point difference"
            ]),
            "{fit}"
        );
        assert_eq!(
            fit["key"], "Tie-breaks: Bch = Buchholz, SB = Sonneborn-Berger, ± = point difference.",
            "{fit}"
        );
        check_page(&driver, &c, &axe, "tournament-swiss", size).await;
        assert!(
            moderate.is_empty(),
            "moderate violations at {size:?}:\n{}",
            moderate.join("\n")
        );
    }
    c.close().await.unwrap();
    server.shutdown().await;
}

/// A knockout of eight on a phone: the bracket's box is narrower than its rounds, and says so
/// (a caption naming the final, a faded right edge that goes once scrolled to the end); the
/// box is reached by the keyboard and named; the headings go in order (no moderate
/// violation); on a laptop nothing needs scrolling and no cue shows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_phone_knockout_bracket_says_it_scrolls() {
    let Some(browsers) = browsers() else { return };
    let axe = axe_source().unwrap_or_else(|m| panic!("{m}"));
    let dir = tempfile::tempdir().unwrap();
    let server =
        start_server_with(dir.path(), Duration::ZERO, Duration::from_secs(5), |_| {}).await;
    let base = format!("http://{}", server.local_addr());
    let driver = ChromeDriver::start(&browsers).unwrap();
    let c = driver.session(390, 844).await.unwrap();
    register(&c, &base, "Annika").await;
    let id = create_event(
        &c,
        serde_json::json!({"name": "Phone cup", "format": {"kind": "knockout", "double": false},
            "rules": "five-up target=50", "best_of": 1, "start_when": 8}),
    )
    .await;
    let bots = page_json(
        &c,
        "POST",
        &format!("/api/tournaments/{id}/bots"),
        serde_json::json!({"level": "beginner", "count": 8}),
    )
    .await;
    assert_eq!(bots[0], 200, "computer entrants: {bots}");
    go(&c, &format!("/tournaments/{id}")).await;
    wait_js(
        &c,
        "return document.querySelector('#tour-status').textContent.startsWith('Finished') && !!document.querySelector('#champion');",
        Duration::from_secs(180),
        "the knockout played out",
    )
    .await;
    const CUE_JS: &str = "const b = document.querySelector('.bside .bracket-scroll'); const cue = document.querySelector('.bside .scroll-cue');
        const fade = b.parentElement.classList.contains('more-right') && getComputedStyle(b.parentElement, '::after').opacity === '1';
        return {over: b.scrollWidth > b.clientWidth, box: b.clientWidth, wide: b.scrollWidth, tabindex: b.getAttribute('tabindex'), label: b.getAttribute('aria-label'),
          cue: cue && cue.getClientRects().length ? cue.textContent : null, fade};";
    for size in SIZES {
        set_viewport(&c, size.0, size.1).await.unwrap();
        go(&c, &format!("/tournaments/{id}")).await;
        wait_js(
            &c,
            "return !!document.querySelector('#champion');",
            Duration::from_secs(10),
            "the bracket",
        )
        .await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let cue = c.execute(CUE_JS, vec![]).await.unwrap();
        let moderate = axe_moderate(&c, &axe).await;
        eprintln!("bracket at {size:?}: {cue}; moderate violations: {moderate:?}");
        assert_eq!(cue["tabindex"], "0", "{cue}");
        assert_eq!(cue["label"], "Bracket, scrolls sideways", "{cue}");
        if size.0 == 390 {
            assert_eq!(
                cue["over"], true,
                "the bracket is wider than a phone: {cue}"
            );
            assert_eq!(
                cue["cue"], "Scroll sideways for the final →",
                "a phone's bracket says it scrolls: {cue}"
            );
            assert_eq!(cue["fade"], true, "a faded right edge: {cue}");
        } else {
            assert_eq!(cue["over"], false, "{cue}");
            assert_eq!(
                cue["cue"],
                Value::Null,
                "no cue where nothing scrolls: {cue}"
            );
            assert_eq!(cue["fade"], false, "{cue}");
        }
        check_page(&driver, &c, &axe, "tournament-knockout", size).await;
        assert!(
            moderate.is_empty(),
            "moderate violations at {size:?}:\n{}",
            moderate.join("\n")
        );
        if size.0 == 390 {
            // Scrolled to the end (the final in view), the right edge no longer fades.
            c.execute(
                "const b = document.querySelector('.bside .bracket-scroll'); b.scrollLeft = b.scrollWidth;",
                vec![],
            )
            .await
            .unwrap();
            wait_js(
                &c,
                "return !document.querySelector('.bside .bracket-wrap').classList.contains('more-right');",
                Duration::from_secs(5),
                "no fade on the right once scrolled to the end",
            )
            .await;
            let end = c.execute(CUE_JS, vec![]).await.unwrap();
            assert_eq!(end["fade"], false, "at the end, no fade: {end}");
        }
    }
    c.close().await.unwrap();
    server.shutdown().await;
}
