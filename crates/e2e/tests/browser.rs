//! The browser table in headless Chromium, driven over WebDriver: the JavaScript unit tests
//! (deal re-derivation against the engine's test vectors, layout geometry, tally), and two
//! people with a computer player playing a whole game by clicking, with a reload mid-hand, the
//! replay stepped through and every deal verified in the browser. Skipped, with a message,
//! when Chromium or chromedriver is not installed.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, MouseActions, PointerAction};
use fantoccini::{Client, Locator};
use fiveup_e2e::{
    click, fill, png_size, script_errors, select, start_server, wait_js, Browsers, ChromeDriver,
};
use serde_json::Value;

const DESKTOP: (u32, u32) = (1280, 800);
const PHONE: (u32, u32) = (360, 740);

fn browsers() -> Option<Browsers> {
    match Browsers::find() {
        Ok(b) => Some(b),
        Err(msg) => {
            eprintln!("{msg}");
            None
        }
    }
}

/// Where the screenshots go: `browser-shots/` in the target directory's test scratch space.
fn shots_dir() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser-shots");
    std::fs::create_dir_all(&d).expect("the screenshot directory");
    d
}

async fn screenshot(c: &Client, name: &str, want: (u32, u32)) -> PathBuf {
    let png = c.screenshot().await.expect("a screenshot");
    assert!(png.len() > 1000, "{name}: a {} byte screenshot", png.len());
    assert_eq!(png_size(&png), Some(want), "{name}: the PNG's size");
    let path = shots_dir().join(format!("{name}.png"));
    std::fs::write(&path, &png).expect("write the screenshot");
    path
}

/// The JavaScript test page (`/static/test.html`) open in a desktop-sized session, with the
/// server, the driver and the database folder it needs kept alive alongside.
struct TestPage {
    c: Client,
    _driver: ChromeDriver,
    server: fiveup_server::Server,
    _dir: tempfile::TempDir,
}

impl TestPage {
    /// Start a server and a browser session and wait until the page's modules are loaded.
    async fn open(browsers: &Browsers) -> TestPage {
        let dir = tempfile::tempdir().unwrap();
        let server = start_server(dir.path(), Duration::ZERO, Duration::from_secs(5)).await;
        let driver = ChromeDriver::start(browsers).unwrap();
        let c = driver.session(DESKTOP.0, DESKTOP.1).await.unwrap();
        c.goto(&format!("http://{}/static/test.html", server.local_addr()))
            .await
            .unwrap();
        wait_js(
            &c,
            "return window.testsReady === true;",
            Duration::from_secs(10),
            "the test page",
        )
        .await;
        TestPage {
            c,
            _driver: driver,
            server,
            _dir: dir,
        }
    }

    /// End the session and stop the server.
    async fn finish(self) {
        self.c.close().await.unwrap();
        self.server.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn javascript_unit_tests_pass_in_chromium() {
    let Some(browsers) = browsers() else { return };
    let page = TestPage::open(&browsers).await;
    let c = &page.c;
    let data = |name: &str| {
        std::fs::read_to_string(format!(
            "{}/../engine/tests/data/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    };
    let vectors = data("shuffle_v1.txt");
    let more = serde_json::json!({
        "nine": data("shuffle_v1_double_nine.txt"),
        "twelve": data("shuffle_v1_double_twelve.txt"),
        "lot": data("shuffle_v1_lot.txt"),
    });
    let r = c
        .execute_async(
            "const done = arguments[arguments.length - 1];
             window.runTests(arguments[0], arguments[1]).then(done, (e) => done({failed: 1, passed: 0, lines: [String(e)]}));",
            vec![Value::String(vectors), more],
        )
        .await
        .unwrap();
    let lines: Vec<String> = serde_json::from_value(r["lines"].clone()).unwrap();
    let failed = r["failed"].as_u64().unwrap();
    let passed = r["passed"].as_u64().unwrap();
    assert_eq!(
        failed,
        0,
        "JavaScript unit tests failed:\n{}",
        lines.join("\n")
    );
    assert!(
        passed >= 45,
        "only {passed} checks ran:\n{}",
        lines.join("\n")
    );
    eprintln!("{passed} JavaScript checks passed in Chromium");
    // Every vector line of the engine's files was checked.
    let count = |what: &str| lines.iter().filter(|l| l.contains(what)).count();
    assert_eq!(count("shuffle v1 vector"), 6);
    let lines_of = |name: &str| {
        data(name)
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .count()
    };
    assert_eq!(
        count("shuffle v1 double-9 vector"),
        lines_of("shuffle_v1_double_nine.txt")
    );
    assert_eq!(
        count("shuffle v1 double-12 vector"),
        lines_of("shuffle_v1_double_twelve.txt")
    );
    assert_eq!(count("the deal's lot"), lines_of("shuffle_v1_lot.txt"));
    page.finish().await;
}

/// Real final layouts of hands played with random legal actions, under `rules`.
fn real_layouts(rules: &str, hands: u64) -> Vec<Value> {
    use fiveup_engine::{Entry, FastRng, LayoutTree, Rules, Seed, State};
    let rules = Rules::parse(rules).unwrap();
    let mut rng = FastRng::new(7);
    (0..hands)
        .map(|n| {
            let mut s = State::from_seed(rules, &Seed::from_u64(n)).unwrap();
            while !s.is_hand_over() {
                let legal = s.legal_actions();
                let a = legal[rng.below(legal.len() as u32) as usize];
                s.apply(a).unwrap();
            }
            let order: Vec<String> = s
                .log()
                .iter()
                .filter_map(|e| match e {
                    Entry::Play { arm: Some(a), .. } => Some(a.to_string()),
                    _ => None,
                })
                .collect();
            let last = s.log().iter().rev().find_map(|e| match e {
                Entry::Play { tile, .. } => Some(tile.to_string()),
                _ => None,
            });
            serde_json::json!({
                "tree": LayoutTree::from_history(&rules, s.log()),
                "order": order,
                "set": rules.set,
                "last": last,
            })
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn layout_geometry_keeps_real_layouts_apart() {
    let Some(browsers) = browsers() else { return };
    let page = TestPage::open(&browsers).await;
    let c = &page.c;
    // One spinner (the first double), no spinner, the sprouts opening at once, and every
    // double spinning (`cross`, where arms crowd each other most); two to six players, on
    // double-six, double-nine and double-twelve sets.
    for rules in [
        "five-up",
        "five-up players=4",
        "five-up players=3 sprouts=at-once",
        "muggins players=2 hand=9",
        "cross players=4",
        // The bigger sets: long arms that never spin (drawn winding), and a crowd of spinners.
        "party-twelve players=6",
        "block players=2 set=12",
        "cross players=5 set=9",
    ] {
        let trees = real_layouts(rules, 300);
        let report = c
            .execute(
                "return window.geometryReport(arguments[0]);",
                vec![Value::Array(trees)],
            )
            .await
            .unwrap();
        assert_eq!(
            report,
            Value::Array(vec![]),
            "{rules}: tiles overlap or are missing"
        );
    }
    // Tile sizes at the end of long double-twelve party hands, six to eight players, on the
    // boards the table gives them, as the six- and eight-seat table tests measured them in
    // Chromium: a phone's (390x844: 378x298 with six seats, 378x232 with eight, the seats in
    // rows above the board) and a laptop's (1366x900, six seats: 790x422). The
    // whole layout always fits the laptop's board at a readable size; the phone shows the
    // whole layout when it fits at a readable size and otherwise a readable window on the tile
    // just laid, which the player pans and zooms; never a tile under 18 px a half.
    let boards = serde_json::json!([
        {"width": 378, "height": 298},
        {"width": 378, "height": 232},
        {"width": 790, "height": 422},
    ]);
    for players in 6..=8 {
        let rules = format!("party-twelve players={players}");
        let mut trees = real_layouts(&rules, 300);
        // The longest hands: the layouts with the most tiles.
        trees.sort_by_key(|t| {
            std::cmp::Reverse(
                t["tree"]["arms"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .map(|arm| arm["tiles"].as_array().map_or(0, |x| x.len()))
                            .sum::<usize>()
                    })
                    .unwrap_or(0),
            )
        });
        let report = c
            .execute(
                "return window.sizeReport(arguments[0], arguments[1]);",
                vec![Value::Array(trees), boards.clone()],
            )
            .await
            .unwrap();
        eprintln!("{rules}: {report}");
        for b in report.as_array().unwrap() {
            let what = format!("{rules} on {}x{}", b["width"], b["height"]);
            assert_eq!(b["overlapping"], 0, "{what}: {b}");
            assert_eq!(b["layouts"], 300, "{what}: {b}");
            assert!(
                b["mostTiles"].as_u64().unwrap() >= 40,
                "{what}: long hands were laid out: {b}"
            );
            assert!(
                b["shownMin"].as_f64().unwrap() >= 18.0 - 1e-9,
                "{what}: tiles shown under 18 px a half: {b}"
            );
            assert_eq!(
                b["lastInView"], true,
                "{what}: the last tile off the view: {b}"
            );
            if b["width"] == 790 {
                assert!(
                    b["fitMin"].as_f64().unwrap() >= 18.0,
                    "{what}: the whole layout fits the laptop's board: {b}"
                );
                assert_eq!(b["windows"], 0, "{what}: {b}");
            }
        }
    }
    page.finish().await;
}

/// The board's view in the test page: its view box, pixels per unit, the fitted size, whether
/// everything is in view, whether the zoom bar shows, and the board's label.
const BOARD_VIEW_JS: &str = "const b = document.querySelector('#board'); const bar = document.querySelector('.zoom-bar');
return {vb: b.getAttribute('viewBox').split(' ').map(Number), unit: Number(b.dataset.unit), fit: Number(b.dataset.fitUnit),
        whole: b.dataset.whole === 'true', bar: !!bar && !bar.hidden, label: b.getAttribute('aria-label'), focus: document.activeElement === b,
        buttons: [...document.querySelectorAll('.zoom-bar button')].filter((x) => x.getBoundingClientRect().width > 0).map((x) => x.id)};";

/// A layout too big to read whole on a phone's board (the longest of 300 eight-player party
/// hands, on the 378x232 board of an eight-seat table): shown in part at 18 px a half with the
/// zoom bar and a label that says so; "Fit" shows it whole (smaller), "Follow" goes back; zoom
/// in, the arrow keys on the focused board and a mouse drag each move the view as they should.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_too_big_to_read_whole_zooms_and_pans() {
    use fantoccini::key::Key;
    let Some(browsers) = browsers() else { return };
    let page = TestPage::open(&browsers).await;
    let c = &page.c;
    let mut trees = real_layouts("party-twelve players=8", 300);
    let size = |t: &Value| {
        t["tree"]["arms"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["tiles"].as_array().unwrap().len())
            .sum::<usize>()
    };
    trees.sort_by_key(|t| std::cmp::Reverse(size(t)));
    let t = trees[0].clone();
    c.execute(
        "const t = arguments[0]; return window.showBoard(t.tree, {order: t.order, lastTile: t.last, wind: true, set: 12}, 378, 232);",
        vec![t],
    )
    .await
    .unwrap();
    let view = || async { c.execute(BOARD_VIEW_JS, vec![]).await.unwrap() };
    let s = view().await;
    eprintln!("zoom: at first {s}");
    assert!((s["unit"].as_f64().unwrap() - 18.0).abs() < 0.01, "{s}");
    assert!(s["fit"].as_f64().unwrap() < 18.0, "{s}");
    assert_eq!(
        (s["whole"].clone(), s["bar"].clone()),
        (Value::Bool(false), Value::Bool(true)),
        "{s}"
    );
    assert!(s["label"].as_str().unwrap().contains("in part"), "{s}");
    assert_eq!(
        s["buttons"],
        serde_json::json!(["zoom-out", "zoom-in", "zoom-fit"]),
        "Follow shows only once the player has zoomed: {s}"
    );
    screenshot(c, "zoomed-board", DESKTOP).await;
    click(c, "#zoom-fit").await;
    let s = view().await;
    assert_eq!(s["whole"], true, "Fit shows it all: {s}");
    assert!(
        (s["unit"].as_f64().unwrap() - s["fit"].as_f64().unwrap()).abs() < 0.01,
        "{s}"
    );
    click(c, "#zoom-follow").await;
    let s = view().await;
    assert!(
        (s["unit"].as_f64().unwrap() - 18.0).abs() < 0.01 && s["whole"] == false,
        "Follow: {s}"
    );
    // From the whole layout, zoom in: the view shrinks about its centre.
    click(c, "#zoom-fit").await;
    let whole = view().await;
    click(c, "#zoom-in").await;
    let s = view().await;
    let ratio = s["unit"].as_f64().unwrap() / whole["unit"].as_f64().unwrap();
    assert!((ratio - 1.3).abs() < 0.01, "zoom in by 1.3: {whole} -> {s}");
    // The arrow keys on the focused board pan it, 80 px a press, up to the layout's edge: down
    // to the bottom edge, then one press up moves exactly 80 px.
    click(c, "#zoom-follow").await;
    c.execute("document.querySelector('#board').focus();", vec![])
        .await
        .unwrap();
    for _ in 0..8 {
        c.active_element()
            .await
            .unwrap()
            .send_keys(&Key::Down.to_string())
            .await
            .unwrap();
    }
    let bottom = view().await;
    assert_eq!(bottom["focus"], true, "{bottom}");
    c.active_element()
        .await
        .unwrap()
        .send_keys(&Key::Up.to_string())
        .await
        .unwrap();
    let up = view().await;
    let px = |a: &Value, b: &Value, k: usize| {
        (b["vb"][k].as_f64().unwrap() - a["vb"][k].as_f64().unwrap()) * a["unit"].as_f64().unwrap()
    };
    assert!(
        (px(&bottom, &up, 1) + 80.0).abs() < 0.5,
        "ArrowUp moved the view {} px: {bottom} -> {up}",
        px(&bottom, &up, 1)
    );
    // A drag of the pointer 60 px up moves the view 60 px down.
    let el = c.find(Locator::Css("#board")).await.unwrap();
    let drag = MouseActions::new("pan".into())
        .then(PointerAction::MoveToElement {
            element: el,
            duration: None,
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Down { button: 0 })
        .then(PointerAction::MoveBy {
            duration: Some(Duration::from_millis(100)),
            x: 0.0,
            y: -60.0,
        })
        .then(PointerAction::Up { button: 0 });
    c.perform_actions(drag).await.unwrap();
    c.release_actions().await.unwrap();
    let dragged = view().await;
    assert!(
        (px(&up, &dragged, 1) - 60.0).abs() < 2.0,
        "a 60 px drag moved the view {} px: {up} -> {dragged}",
        px(&up, &dragged, 1)
    );
    page.finish().await;
}

const STATE_JS: &str = r#"
const r = document.querySelector('.table-page');
if (!r) return {page: false};
const next = document.querySelector('#next-hand');
return {
  page: true,
  version: Number(r.dataset.version || 0),
  status: r.dataset.status || '',
  hand: Number(r.dataset.hand || 0),
  turn: r.dataset.turn || '',
  over: !!document.querySelector('#summary .game-over'),
  summary: !!document.querySelector('#summary'),
  next: !!next && !next.disabled,
  playable: document.querySelectorAll('#hand .hand-tile.playable').length,
  tiles: [...document.querySelectorAll('#hand .hand-tile')].map((b) => b.dataset.tile),
  draw: !!document.querySelector('#draw'),
  pass: !!document.querySelector('#pass'),
  hint: !!document.querySelector('#hint') && !document.querySelector('#hint').disabled,
  prompt: (document.querySelector('#prompt') || {}).textContent || '',
  laid: document.querySelectorAll('#board g.tile').length,
  errors: window.fiveupErrors || [],
  log: [...document.querySelectorAll('.log li')].map((l) => l.textContent),
};"#;

/// The page fits the window's width: nothing sticks out sideways (checked at 360 px).
async fn fits_width(c: &Client, what: &str) {
    let w = c
        .execute(
            "return [document.documentElement.scrollWidth, window.innerWidth];",
            vec![],
        )
        .await
        .unwrap();
    assert!(
        w[0].as_u64().unwrap() <= w[1].as_u64().unwrap(),
        "{what} is wider than the window: {w}"
    );
}

async fn state(c: &Client) -> Value {
    c.execute(STATE_JS, vec![]).await.expect("the page state")
}

/// Play one turn by clicking, if it is this page's turn; returns what it did.
async fn take_turn(c: &Client, who: &str, moves: &mut u32, seen: &mut Seen) -> Option<String> {
    let s = state(c).await;
    if s["turn"] != "mine" || s["summary"] == true {
        return None;
    }
    let version = s["version"].as_u64().unwrap();
    let did;
    if s["playable"].as_u64().unwrap() > 0 {
        let tiles = c
            .execute(
                "return [...document.querySelectorAll('#hand .hand-tile')].map((b, i) => ({i, tile: b.dataset.tile,
                   playable: b.classList.contains('playable'),
                   ends: (b.getAttribute('aria-label').match(/ on [a-z0-9]/g) || []).length}));",
                vec![],
            )
            .await
            .unwrap();
        let tiles = tiles.as_array().unwrap().clone();
        let playable: Vec<&Value> = tiles.iter().filter(|t| t["playable"] == true).collect();
        let multi = playable.iter().find(|t| t["ends"].as_u64().unwrap() >= 2);
        if seen.keyboard == 0 && playable[0]["i"].as_u64().unwrap() < 9 {
            // Keyboard: the tile's number key, then Enter on the first end offered.
            let n = playable[0]["i"].as_u64().unwrap() + 1;
            let tile = playable[0]["tile"].as_str().unwrap();
            let el = c
                .find(Locator::Css(&format!(
                    "#hand .hand-tile[data-tile='{tile}']"
                )))
                .await
                .unwrap();
            el.send_keys(&n.to_string()).await.unwrap();
            let after = played_or_ends(c, version).await;
            if after == "ends" {
                c.active_element()
                    .await
                    .unwrap()
                    .send_keys("\u{E007}")
                    .await
                    .unwrap();
            }
            seen.keyboard += 1;
            did = "played with the keyboard";
            wait_js(
                c,
                &format!("return Number(document.querySelector('.table-page').dataset.version) > {version};"),
                Duration::from_secs(10),
                "the keyboard play",
            )
            .await;
            let focus: Value = c
                .execute("return !!document.activeElement.closest('#hand');", vec![])
                .await
                .unwrap();
            assert_eq!(
                focus,
                Value::Bool(true),
                "{who}: focus stays in the hand after a keyboard play"
            );
        } else if let (0, Some(t), "Ann") = (seen.dragged, multi, who) {
            // Drag and drop: press on the tile, move (the ends light up), release on an end.
            let tile = t["tile"].as_str().unwrap();
            let el = c
                .find(Locator::Css(&format!(
                    "#hand .hand-tile[data-tile='{tile}']"
                )))
                .await
                .unwrap();
            // (On the desktop window, where the hand and the table are both in view.)
            c.execute(
                "arguments[0].scrollIntoView({block: 'nearest'});",
                vec![serde_json::to_value(&el).unwrap()],
            )
            .await
            .unwrap();
            let press = MouseActions::new("drag".into())
                .then(PointerAction::MoveToElement {
                    element: el,
                    duration: None,
                    x: 0.0,
                    y: 0.0,
                })
                .then(PointerAction::Down { button: 0 })
                .then(PointerAction::MoveBy {
                    duration: Some(Duration::from_millis(50)),
                    x: 0.0,
                    y: -40.0,
                });
            c.perform_actions(press).await.unwrap();
            let target = c
                .wait()
                .at_most(Duration::from_secs(5))
                .for_element(Locator::Css("#board g.end.target"))
                .await
                .expect("the ends light up while dragging");
            let drop = MouseActions::new("drag".into())
                .then(PointerAction::MoveToElement {
                    element: target,
                    duration: Some(Duration::from_millis(50)),
                    x: 0.0,
                    y: 0.0,
                })
                .then(PointerAction::Up { button: 0 });
            c.perform_actions(drop).await.unwrap();
            c.release_actions().await.unwrap();
            seen.dragged += 1;
            did = "dragged a tile onto an end";
        } else {
            click(c, "#hand .hand-tile.playable").await;
            // One tap plays when one end fits; otherwise the ends are offered.
            if played_or_ends(c, version).await == "ends" {
                seen.choices += 1;
                // Alternate between the marked end on the board and the button under it.
                if seen.choices % 2 == 1 {
                    click(c, "#board g.end.target").await;
                } else {
                    click(c, ".ends-bar .end-btn").await;
                }
                did = "played on a chosen end";
            } else {
                seen.one_tap += 1;
                did = "played with one tap";
            }
        }
    } else if s["draw"] == true {
        assert!(
            s["prompt"].as_str().unwrap().contains("must draw"),
            "{who}: the must-draw moment is announced: {}",
            s["prompt"]
        );
        if seen.draws == 0 && who == "Ann" {
            c.execute("window.scrollTo(0, 0);", vec![]).await.unwrap();
            screenshot(c, "must-draw", DESKTOP).await;
        }
        click(c, "#draw").await;
        let drawn = wait_js(
            c,
            "const d = document.querySelector('#drawn [data-tile], #drawn svg');
             return document.querySelector('#drawn') ? document.querySelector('#drawn').textContent : '';",
            Duration::from_secs(10),
            "the drawn tile shown to its owner",
        )
        .await;
        assert!(drawn.as_str().unwrap().contains("You drew"));
        seen.draws += 1;
        did = "drew";
    } else if s["pass"] == true {
        click(c, "#pass").await;
        seen.passes += 1;
        did = "passed";
    } else {
        panic!("{who}: my turn but nothing to do: {s}");
    }
    wait_js(
        c,
        &format!(
            "return Number(document.querySelector('.table-page').dataset.version) > {version};"
        ),
        Duration::from_secs(10),
        "the action to be applied",
    )
    .await;
    *moves += 1;
    Some(did.to_string())
}

/// Wait until a click on a tile played it (`played`) or offered its ends (`ends`).
async fn played_or_ends(c: &Client, version: u64) -> String {
    wait_js(
        c,
        &format!(
            "const r = document.querySelector('.table-page');
             if (Number(r.dataset.version) !== {version}) return 'played';
             if (document.querySelector('#board g.end.target')) return 'ends';
             return '';"
        ),
        Duration::from_secs(10),
        "a play or the choice of ends",
    )
    .await
    .as_str()
    .unwrap()
    .to_string()
}

#[derive(Default, Debug)]
struct Seen {
    keyboard: u32,
    dragged: u32,
    hints: u32,
    choices: u32,
    one_tap: u32,
    draws: u32,
    passes: u32,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_and_a_computer_play_a_whole_game_by_clicking() {
    let Some(browsers) = browsers() else { return };
    let started = Instant::now();
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(
        dir.path(),
        Duration::from_millis(20),
        Duration::from_secs(20),
    )
    .await;
    let base = format!("http://{}", server.local_addr());
    let driver = ChromeDriver::start(&browsers).unwrap();
    let a = driver.session(DESKTOP.0, DESKTOP.1).await.unwrap();
    let b = driver.session(PHONE.0, PHONE.1).await.unwrap();

    // Ann plays as a guest and creates a table: three players to 100, Bob invited, a computer
    // player in the third seat.
    a.goto(&base).await.unwrap();
    fill(&a, "#guest-name", "Ann").await;
    click(&a, "#guest-go").await;
    wait_js(&a, "return !!document.querySelector('#create-go') && document.querySelector('#who').textContent.includes('Ann');", Duration::from_secs(10), "Ann's lobby").await;
    select(&a, "#players", "3").await;
    fill(&a, "#opt-target", "100").await;
    select(&a, "#seat-1", "invite").await;
    select(&a, "#seat-2", "bot:casual").await;
    // Bob is looking at the lobby (not logged in yet): the new table appears there live.
    b.goto(&base).await.unwrap();
    wait_js(
        &b,
        "return !!document.querySelector('#tables .empty, #tables .table-item');",
        Duration::from_secs(10),
        "Bob's lobby",
    )
    .await;
    click(&a, "#create-go").await;
    let table_id = wait_js(
        &a,
        "const m = location.pathname.match(/^\\/table\\/([a-z0-9]+)$/); return m ? m[1] : '';",
        Duration::from_secs(10),
        "Ann's new table",
    )
    .await;
    let listed = wait_js(
        &b,
        &format!("const t = document.querySelector('#tables [data-table=\"{}\"]'); return t ? t.textContent : '';", table_id.as_str().unwrap()),
        Duration::from_secs(10),
        "the new table in Bob's lobby",
    )
    .await;
    assert!(
        listed.as_str().unwrap().contains("3 players · to 100"),
        "{listed}"
    );
    fits_width(&b, "the lobby on a phone").await;
    let invite = wait_js(
        &a,
        "const i = document.querySelector('.invite-link'); return i ? i.value : '';",
        Duration::from_secs(10),
        "the invitation link",
    )
    .await;
    let invite = invite.as_str().unwrap().to_string();
    assert!(
        invite.starts_with(&format!("{base}/table/")) && invite.contains("?invite="),
        "{invite}"
    );

    // Bob follows the link on his phone and joins as a guest.
    b.goto(&invite).await.unwrap();
    fill(&b, "#guest-name", "Bob").await;
    click(&b, "#guest-go").await;
    for (c, who) in [(&a, "Ann"), (&b, "Bob")] {
        wait_js(
            c,
            "const r = document.querySelector('.table-page'); return r && r.dataset.status !== 'waiting' && Number(r.dataset.hand) >= 1;",
            Duration::from_secs(30),
            &format!("{who}'s first hand"),
        )
        .await;
    }

    let mut seen = Seen::default();
    let mut moves = 0u32;
    let mut shot_mid = false;
    let mut shot_summary = false;
    let mut reloaded = false;
    let mut hands_seen = 0u32;
    let deadline = Instant::now() + Duration::from_secs(150);
    loop {
        assert!(
            Instant::now() < deadline,
            "the game did not finish in time: {seen:?}"
        );
        let sa = state(&a).await;
        let sb = state(&b).await;
        for (s, who) in [(&sa, "Ann"), (&sb, "Bob")] {
            assert_eq!(
                s["errors"],
                Value::Array(vec![]),
                "{who}'s page has script errors"
            );
            // Every log line reads as words (no stray list punctuation or missing values).
            for line in s["log"].as_array().unwrap() {
                let line = line.as_str().unwrap();
                assert!(
                    !line.contains(",,") && !line.contains("undefined") && !line.contains("null"),
                    "{who}'s log: {line}"
                );
            }
        }
        if sa["over"] == true && sb["over"] == true {
            break;
        }
        // Mid-hand: screenshots at desktop and phone size, and Bob reloads and resumes.
        if !shot_mid
            && sa["laid"].as_u64().unwrap() >= 4
            && sa["summary"] == false
            && sb["summary"] == false
        {
            for c in [&a, &b] {
                c.execute("window.scrollTo(0, 0);", vec![]).await.unwrap();
            }
            screenshot(&a, "table-desktop", DESKTOP).await;
            screenshot(&b, "table-phone", PHONE).await;
            fits_width(&b, "the table on a phone").await;
            shot_mid = true;
        }
        if !reloaded
            && sb["laid"].as_u64().unwrap() >= 3
            && sb["summary"] == false
            && sb["turn"] != "mine"
        {
            let before = state(&b).await;
            b.refresh().await.unwrap();
            let after = wait_js(
                &b,
                &format!(
                    "const r = document.querySelector('.table-page');
                     return r && Number(r.dataset.version) >= {} && Number(r.dataset.hand) === {} ? true : false;",
                    before["version"], before["hand"]
                ),
                Duration::from_secs(10),
                "Bob's table after the reload",
            )
            .await;
            assert_eq!(after, Value::Bool(true));
            let now = state(&b).await;
            if now["version"] == before["version"] {
                assert_eq!(now["tiles"], before["tiles"], "Bob's hand after the reload");
                assert_eq!(now["laid"], before["laid"], "the layout after the reload");
            }
            assert!(!now["tiles"].as_array().unwrap().is_empty());
            reloaded = true;
        }
        // The end of a hand: the summary, its verification, then the next hand.
        if sa["summary"] == true && sa["over"] == false && sa["next"] == true {
            if !shot_summary {
                wait_js(
                    &a,
                    "return !!document.querySelector('#summary .explanation li');",
                    Duration::from_secs(5),
                    "the award explained",
                )
                .await;
                screenshot(&a, "hand-summary", DESKTOP).await;
                click(&a, "#verify-last").await;
                let v = wait_js(&a, "const v = document.querySelector('#summary .verdict'); return v ? v.dataset.ok : '';", Duration::from_secs(10), "the deal verified").await;
                assert_eq!(v, "true", "the hand's deal matches its proof");
                shot_summary = true;
            }
            hands_seen += 1;
            click(&a, "#next-hand").await;
        }
        if sb["summary"] == true && sb["over"] == false && sb["next"] == true {
            click(&b, "#next-hand").await;
        }
        // (A forced move, one legal action, has no hint to ask for.)
        if seen.hints == 0 && sa["turn"] == "mine" && sa["summary"] == false && sa["hint"] == true {
            click(&a, "#hint").await;
            let n = wait_js(
                &a,
                "return document.querySelectorAll('.hint-panel li').length;",
                Duration::from_secs(30),
                "the hint",
            )
            .await;
            assert!(n.as_u64().unwrap() >= 1);
            seen.hints += 1;
            // Chat: Bob says something, Ann reads it.
            fill(&b, "#chat-input", "good luck").await;
            click(&b, ".chat button[type=submit]").await;
            wait_js(&a, "return [...document.querySelectorAll('.chat-lines li')].some((l) => l.textContent === 'Bob: good luck');", Duration::from_secs(10), "the chat line").await;
        }
        let mut acted = false;
        for (c, who) in [(&a, "Ann"), (&b, "Bob")] {
            if take_turn(c, who, &mut moves, &mut seen).await.is_some() {
                acted = true;
            }
        }
        if !acted {
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    }
    assert!(shot_mid && reloaded, "the mid-hand checks ran");
    assert!(
        seen.keyboard == 1 && seen.hints == 1,
        "keyboard play and the hint ran: {seen:?}"
    );
    assert!(moves >= 6, "{moves} moves by clicking");
    eprintln!("game played in {:?}: {moves} moves by clicking, {seen:?}, {hands_seen} hands before the last", started.elapsed());
    if !shot_summary {
        // The game ended with the first hand: the final summary is the end-of-hand summary.
        screenshot(&a, "hand-summary", DESKTOP).await;
    }

    // Game over: both see the winner; Ann asks for a rematch and gets the new table.
    let title = wait_js(
        &a,
        "return document.querySelector('#summary .game-over').textContent;",
        Duration::from_secs(5),
        "the winner",
    )
    .await;
    assert!(title.as_str().unwrap().contains("Game over"), "{title}");
    screenshot(&a, "game-over", DESKTOP).await;
    // Every hand of the game, verified in full at the table: Ann saw them all end.
    click(&a, "#summary button.secondary").await;
    click(&a, ".past-proofs > summary").await;
    let buttons = a
        .find_all(Locator::Css(".past-proofs .verify-btn"))
        .await
        .unwrap();
    assert!(!buttons.is_empty());
    for btn in &buttons {
        btn.click().await.unwrap();
    }
    let verdicts = wait_js(
        &a,
        &format!(
            "const v = [...document.querySelectorAll('.past-proofs .proof')].map((p) => {{
               const d = p.querySelector('.verdict'); const steps = p.querySelectorAll('.steps li');
               return d ? d.dataset.ok + ':' + (steps.length ? steps[steps.length - 1].textContent : '') : '';
             }});
             return v.length === {} && v.every((x) => x) ? v : '';",
            buttons.len()
        ),
        Duration::from_secs(20),
        "every hand verified at the table",
    )
    .await;
    for v in verdicts.as_array().unwrap() {
        let v = v.as_str().unwrap();
        assert!(
            v.starts_with("true:") && v.contains("agree with the re-derived deal"),
            "{v}"
        );
    }
    click(&a, ".show-summary").await;
    // One click on "Play again" seats Ann at the new table and takes her there.
    click(&a, "#play-again").await;
    wait_js(
        &a,
        &format!(
            "const m = location.pathname.match(/^\\/table\\/([a-z0-9]+)$/); return m && m[1] !== {:?} && !!document.querySelector('.table-page');",
            table_id.as_str().unwrap()
        ),
        Duration::from_secs(10),
        "the rematch table",
    )
    .await;

    // The replay: every action forward and back, the verdicts, and every deal verified.
    a.goto(&format!("{base}/game/{}", table_id.as_str().unwrap()))
        .await
        .unwrap();
    let pos = wait_js(
        &a,
        "const p = document.querySelector('#replay-pos'); return p ? p.textContent : '';",
        Duration::from_secs(10),
        "the replay",
    )
    .await;
    let total: u32 = pos
        .as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .trim()
        .trim_end_matches(')')
        .parse()
        .unwrap();
    let expected = a
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch(location.pathname.replace('/game/', '/api/games/')).then((r) => r.json())
               .then((g) => done(g.hands.reduce((n, h) => n + 1 + h.steps.length, 0)));",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        Value::from(total),
        expected,
        "one position per deal and per action"
    );
    wait_js(&a, "return !document.querySelector('.verdict-line') || !document.querySelector('.verdict-line').textContent.includes('reviewing');", Duration::from_secs(60), "the review").await;
    let mut verdicts = 0;
    for i in 1..total {
        click(&a, "#replay-forward").await;
        let p = wait_js(&a, &format!("const p = document.querySelector('#replay-pos').textContent; return p.includes('({} / ') ? p : '';", i + 1), Duration::from_secs(5), "the next step").await;
        assert!(p.as_str().unwrap().contains("Hand"));
        let line: Value = a
            .execute(
                "const v = document.querySelector('.verdict-line'); return v ? v.textContent : '';",
                vec![],
            )
            .await
            .unwrap();
        if line.as_str().unwrap().contains("Verdict:") {
            verdicts += 1;
        }
        if i == total / 2 {
            a.execute("window.scrollTo(0, 0);", vec![]).await.unwrap();
            screenshot(&a, "replay", DESKTOP).await;
        }
    }
    assert!(verdicts > 0, "the replay shows the review's verdicts");
    for i in (1..total).rev() {
        click(&a, "#replay-back").await;
        wait_js(
            &a,
            &format!(
                "return document.querySelector('#replay-pos').textContent.includes('({i} / ');"
            ),
            Duration::from_secs(5),
            "the step back",
        )
        .await;
    }
    let hands: u64 = a
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch(location.pathname.replace('/game/', '/api/games/')).then((r) => r.json()).then((g) => done(g.hands.length));",
            vec![],
        )
        .await
        .unwrap()
        .as_u64()
        .unwrap();
    for h in 1..=hands {
        wait_js(
            &a,
            &format!("return document.querySelector('.replay-proof').dataset.hand === '{h}';"),
            Duration::from_secs(5),
            "the hand's proof",
        )
        .await;
        click(&a, "#verify-replay").await;
        let v = wait_js(&a, "const v = document.querySelector('.replay-proof .verdict'); return v ? v.dataset.ok : '';", Duration::from_secs(10), "the replayed deal verified").await;
        assert_eq!(
            v, "true",
            "hand {h}'s deal re-derived in the browser matches"
        );
        if h < hands {
            click(&a, "#replay-next-hand").await;
        }
    }

    // Bob looks at the replay on his phone.
    b.goto(a.current_url().await.unwrap().as_ref())
        .await
        .unwrap();
    wait_js(
        &b,
        "const p = document.querySelector('#replay-pos'); return p ? p.textContent : '';",
        Duration::from_secs(10),
        "the replay on a phone",
    )
    .await;
    click(&b, "#replay-next-hand").await;
    b.execute("window.scrollTo(0, 0);", vec![]).await.unwrap();
    screenshot(&b, "replay-phone", PHONE).await;
    fits_width(&b, "the replay on a phone").await;

    // Ann's profile lists the game.
    a.goto(&format!("{base}/user/me")).await.unwrap();
    wait_js(
        &a,
        "return document.querySelectorAll('.history tbody tr').length === 1;",
        Duration::from_secs(10),
        "the game in Ann's history",
    )
    .await;
    for (c, who) in [(&a, "Ann"), (&b, "Bob")] {
        assert!(
            script_errors(c).await.is_empty(),
            "{who}'s page has script errors"
        );
    }
    eprintln!(
        "browser scenario done in {:?}; screenshots in {}",
        started.elapsed(),
        shots_dir().display()
    );
    a.close().await.unwrap();
    b.close().await.unwrap();
    server.shutdown().await;
}
