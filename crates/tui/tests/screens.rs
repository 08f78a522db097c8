//! Snapshots of the main screens, drawn with ratatui's test backend, and a fuzz of the whole
//! app with random keys, clicks, ticks and terminal sizes.

use fiveup_engine::{Action, LayoutTree, Phase, Preset, Rules};
use fiveup_tui::app::{App, Key, Mode, ReplayScreen, Screen, StartForm};
use fiveup_tui::game::{Game, SeatKind, Setup};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

/// Draw the app at its size and return the screen as text.
fn draw(app: &mut App) -> String {
    let (w, h) = app.size;
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("a test terminal");
    let mut hits = Vec::new();
    t.draw(|f| hits = fiveup_tui::ui::render(app, f))
        .expect("drawn");
    app.hits = hits;
    let buf = t.backend().buffer();
    let mut out = String::new();
    for y in 0..h {
        let mut line = String::new();
        for x in 0..w {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The human's move in these tests: the legal action scoring most, the first on ties.
fn human_move(g: &Game) -> Action {
    let v = g.view();
    let legal = v.legal_actions();
    let mut best = legal[0];
    for &a in &legal {
        let score = |a: Action| match a {
            Action::Claim(n) => u32::from(n),
            a => u32::from(v.points_of(a)),
        };
        if score(a) > score(best) {
            best = a;
        }
    }
    best
}

/// Play on (computers and the test's human) until `stop` holds or the game is over.
fn advance(g: &mut Game, stop: impl Fn(&Game) -> bool) {
    for _ in 0..100_000 {
        if stop(g) {
            return;
        }
        match g.phase() {
            Phase::GameOver => return,
            Phase::HandOver => g.next_hand().expect("next hand"),
            _ => {
                if g.computer_to_act() {
                    g.computer_step().expect("a computer move");
                } else {
                    let a = human_move(g);
                    g.act(a).expect("a legal move");
                }
            }
        }
    }
    panic!("the game did not stop");
}

fn cross_on_table(g: &Game) -> bool {
    let t = LayoutTree::from_history(g.rules(), g.view().history());
    g.human_to_act() && t.arms.len() >= 4 && t.arms[..4].iter().all(|a| !a.tiles.is_empty())
}

/// The first seed whose first hand reaches a four-armed spinner cross on the human's turn.
fn cross_game() -> Game {
    for seed in 1.. {
        let mut g = Game::new(Setup::new(seed)).expect("a game");
        advance(&mut g, |g| cross_on_table(g) || g.phase() != Phase::Play);
        if cross_on_table(&g) {
            return g;
        }
    }
    unreachable!()
}

#[test]
fn start_screen() {
    let setup = Setup::new(7);
    let mut app = App::start(StartForm::from_setup(&setup, Preset::FiveUp, ""), (80, 24));
    insta::assert_snapshot!("start", draw(&mut app));
}

#[test]
fn start_screen_for_four_players_with_an_error() {
    let setup = Setup::new(7);
    let mut app = App::start(StartForm::from_setup(&setup, Preset::FiveUp, ""), (80, 24));
    // Preset, Set, Players: 2 -> 4.
    app.key(Key::Down);
    app.key(Key::Down);
    app.key(Key::Right);
    app.key(Key::Right);
    // Partnerships, three levels, first lead, then the options.
    for _ in 0..6 {
        app.key(Key::Down);
    }
    for c in "hand=9".chars() {
        app.key(Key::Char(c));
    }
    app.key(Key::Enter);
    let text = draw(&mut app);
    assert!(
        matches!(app.screen, Screen::Start(_)),
        "a bad option must not start"
    );
    insta::assert_snapshot!("start_four_players_error", text);
}

#[test]
fn mid_hand_with_a_spinner_cross() {
    let g = cross_game();
    let mut app = App::playing(g, (80, 24));
    let text = draw(&mut app);
    insta::assert_snapshot!("mid_hand_cross", text);
}

#[test]
fn end_of_hand_and_game_over() {
    let mut g = cross_game();
    advance(&mut g, |g| {
        g.phase() != Phase::Play && g.phase() != Phase::Claim
    });
    let over = g.phase();
    assert_eq!(
        over,
        Phase::HandOver,
        "this seed's first hand ends without ending the game"
    );
    let mut app = App::playing(g, (80, 24));
    let text = draw(&mut app);
    assert!(text.contains("Pips left"), "{text}");
    insta::assert_snapshot!("end_of_hand", text);
    let Screen::Play(p) = &mut app.screen else {
        unreachable!()
    };
    advance(&mut p.game, |g| g.phase() == Phase::GameOver);
    let text = draw(&mut app);
    assert!(text.contains("Game over"), "{text}");
    insta::assert_snapshot!("game_over", text);
}

#[test]
fn too_small_terminal_says_the_size_needed() {
    let mut app = App::playing(Game::new(Setup::new(3)).expect("a game"), (60, 20));
    let text = draw(&mut app);
    assert!(text.contains("80x24"), "{text}");
    insta::assert_snapshot!("too_small", text);
}

#[test]
fn a_too_small_terminal_pauses_the_game_and_only_quits() {
    let mut s = Setup::new(3);
    s.seats = vec![
        SeatKind::Computer("greedy".into()),
        SeatKind::Computer("club".into()),
    ];
    let mut app = App::playing(Game::new(s).expect("a game"), (79, 24));
    assert!(!app.wants_tick());
    app.key(Key::Char('v'));
    let Screen::Play(p) = &app.screen else {
        unreachable!()
    };
    assert!(
        !p.game.show_hands,
        "keys are ignored while nothing can be seen"
    );
    app.resize(80, 24);
    assert!(app.wants_tick());
    app.resize(30, 10);
    app.key(Key::Char('q'));
    assert!(app.quit);
}

#[test]
fn learning_setting_and_hint() {
    let mut app = App::playing(cross_game(), (100, 30));
    app.key(Key::Char('v'));
    app.key(Key::Char('?'));
    let text = draw(&mut app);
    assert!(text.contains("Hint"), "{text}");
    assert!(text.contains("North: ["), "{text}");
    insta::assert_snapshot!("hint_and_hands_100x30", text);
}

fn replay_app() -> App {
    let mut s = Setup::new(11);
    s.seats = vec![
        SeatKind::Computer("greedy".into()),
        SeatKind::Computer("club".into()),
    ];
    let mut g = Game::new(s).expect("a game");
    advance(&mut g, |g| g.phase() == Phase::GameOver);
    let r = ReplayScreen::new(g.record(), "game.txt").expect("a replay");
    App::replay(r, (80, 24))
}

#[test]
fn replay_steps_forward_and_back() {
    let mut app = replay_app();
    for _ in 0..9 {
        app.key(Key::Right);
    }
    let nine = draw(&mut app);
    app.key(Key::Right);
    app.key(Key::Left);
    assert_eq!(draw(&mut app), nine);
    insta::assert_snapshot!("replay", nine);
    app.key(Key::End);
    let end = draw(&mut app);
    assert!(end.contains("Scored"), "{end}");
}

#[test]
fn a_tile_that_fits_one_end_needs_one_key_and_clicks_play() {
    let mut g = Game::new(Setup::new(21)).expect("a game");
    // Play on until the human holds a tile fitting exactly one end.
    let one_end = |g: &Game| {
        g.human_to_act()
            && !g.view().layout().is_empty()
            && fiveup_tui::plain::hand_tiles(&g.view())
                .iter()
                .any(|h| h.arms.len() == 1)
    };
    advance(&mut g, one_end);
    let tiles = fiveup_tui::plain::hand_tiles(&g.view());
    let i = tiles
        .iter()
        .position(|h| h.arms.len() == 1)
        .expect("a tile");
    let before = g.view().hand().len();
    let mut app = App::playing(g, (80, 24));
    app.key(Key::Char(char::from(b'1' + i as u8)));
    let Screen::Play(p) = &app.screen else {
        unreachable!()
    };
    assert_eq!(p.game.view().hand().len(), before - 1, "{}", p.message);
    // Clicking a hand tile plays it the same way.
    let mut app2 = {
        let mut g = Game::new(Setup::new(21)).expect("a game");
        advance(&mut g, one_end);
        App::playing(g, (80, 24))
    };
    draw(&mut app2);
    let hit = app2
        .hits
        .iter()
        .find(|h| h.4 == fiveup_tui::app::Target::HandTile(i))
        .copied()
        .expect("the tile was drawn");
    app2.click(hit.0, hit.1);
    let Screen::Play(p) = &app2.screen else {
        unreachable!()
    };
    assert_eq!(p.game.view().hand().len(), before - 1, "{}", p.message);
}

#[test]
fn a_tile_fitting_two_ends_asks_which_and_esc_cancels() {
    let two_ends = |g: &Game| {
        g.human_to_act()
            && fiveup_tui::plain::hand_tiles(&g.view())
                .iter()
                .any(|h| h.arms.len() == 2)
    };
    let mut g = Game::new(Setup::new(4)).expect("a game");
    advance(&mut g, two_ends);
    let tiles = fiveup_tui::plain::hand_tiles(&g.view());
    let i = tiles
        .iter()
        .position(|h| h.arms.len() == 2)
        .expect("a tile");
    let arm = tiles[i].arms[1].expect("an arm");
    let before = g.view().hand().len();
    let mut app = App::playing(g, (80, 24));
    let key = Key::Char(char::from(b'1' + i as u8));
    app.key(key);
    let Screen::Play(p) = &app.screen else {
        unreachable!()
    };
    assert!(matches!(p.mode, Mode::ChooseEnd { .. }), "{}", p.message);
    assert!(draw(&mut app).contains("on which end?"));
    app.key(Key::Esc);
    app.key(key);
    let name = arm.to_string().chars().next().expect("a name");
    app.key(Key::Char(name.to_ascii_lowercase()));
    let Screen::Play(p) = &app.screen else {
        unreachable!()
    };
    assert_eq!(p.game.view().hand().len(), before - 1, "{}", p.message);
    assert!(p.game.log().iter().any(|l| l
        .text
        .contains(&format!("You laid {} on {arm}", tiles[i].tile))));
}

#[test]
fn a_forced_draw_is_made_with_a_message() {
    let forced = |g: &Game| g.forced_human_action() == Some(Action::Draw);
    let mut g = Game::new(Setup::new(2)).expect("a game");
    advance(&mut g, forced);
    assert!(forced(&g));
    let mut app = App::playing(g, (80, 24));
    assert!(app.wants_tick());
    app.tick();
    let Screen::Play(p) = &app.screen else {
        unreachable!()
    };
    assert!(
        p.message.starts_with("Nothing to play: You drew "),
        "{}",
        p.message
    );
}

#[test]
fn no_color_draws_without_colours() {
    let mut app = App::playing(cross_game(), (80, 24));
    app.no_color = true;
    let mut t = Terminal::new(TestBackend::new(80, 24)).expect("a test terminal");
    t.draw(|f| {
        fiveup_tui::ui::render(&app, f);
    })
    .expect("drawn");
    let buf = t.backend().buffer();
    for c in &buf.content {
        assert_eq!(c.fg, ratatui::style::Color::Reset);
        assert_eq!(c.bg, ratatui::style::Color::Reset);
    }
    app.no_color = false;
    t.draw(|f| {
        fiveup_tui::ui::render(&app, f);
    })
    .expect("drawn");
    let coloured = t
        .backend()
        .buffer()
        .content
        .iter()
        .any(|c| c.fg != ratatui::style::Color::Reset);
    assert!(coloured, "colours are used when allowed");
}

/// A small deterministic generator for the fuzz (keys, clicks, ticks and sizes over six kinds
/// of game).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const KEYS: [Key; 22] = [
    Key::Enter,
    Key::Esc,
    Key::Left,
    Key::Right,
    Key::Up,
    Key::Down,
    Key::Tab,
    Key::BackTab,
    Key::Backspace,
    Key::Home,
    Key::End,
    Key::PageUp,
    Key::PageDown,
    Key::F(1),
    Key::Char(' '),
    Key::Char('d'),
    Key::Char('p'),
    Key::Char('v'),
    Key::Char('n'),
    Key::Char('c'),
    Key::Char('L'),
    Key::Char('H'),
];

const CHARS: &str = "0123456789wensmqy?aWESN=x-b";

#[test]
fn random_keys_clicks_and_sizes_never_panic() {
    let mut rng = Lcg(12345);
    let mut four = Setup::new(5);
    four.rules = Rules::preset(Preset::Cross, 4);
    four.seats = vec![
        SeatKind::Human,
        SeatKind::Computer("greedy".into()),
        SeatKind::Computer("random".into()),
        SeatKind::Computer("club".into()),
    ];
    let mut manual = Setup::new(6);
    manual.rules.manual_scoring = true;
    // Nine tiles a hand: hands of ten tiles or more, typed by two-digit numbers.
    let nine = setup(Preset::FiveUp, 2, 7, "hand=9");
    let starts: Vec<Box<dyn Fn() -> App>> = vec![
        Box::new(|| {
            App::start(
                StartForm::from_setup(&Setup::new(1), Preset::FiveUp, ""),
                (80, 24),
            )
        }),
        Box::new(|| App::playing(Game::new(Setup::new(2)).expect("a game"), (80, 24))),
        Box::new(move || App::playing(Game::new(four.clone()).expect("a game"), (90, 30))),
        Box::new(move || App::playing(Game::new(manual.clone()).expect("a game"), (80, 24))),
        Box::new(replay_app),
        Box::new(move || App::playing(Game::new(nine.clone()).expect("a game"), (80, 24))),
        // Double-twelve, eight players, every double a spinner: two-digit pips, many arms.
        Box::new(|| {
            App::playing(
                Game::new(setup(Preset::Cross, 8, 9, "set=12")).expect("a game"),
                (100, 32),
            )
        }),
        // The party game as a human would meet it: the start screen, then eight players.
        Box::new(|| {
            App::start(
                StartForm::from_setup(
                    &setup(Preset::PartyTwelve, 8, 3, ""),
                    Preset::PartyTwelve,
                    "",
                ),
                (80, 24),
            )
        }),
    ];
    for make in &starts {
        let mut app = make();
        for _ in 0..500 {
            match rng.below(10) {
                0 => {
                    // Mostly usable sizes, sometimes far too small ones.
                    let (w, h) = if rng.below(10) < 7 {
                        (80 + rng.below(60) as u16, 24 + rng.below(26) as u16)
                    } else {
                        (rng.below(140) as u16, rng.below(50) as u16)
                    };
                    app.resize(w, h);
                }
                1 => {
                    let (w, h) = app.size;
                    app.click(
                        rng.below(u64::from(w) + 1) as u16,
                        rng.below(u64::from(h) + 1) as u16,
                    );
                }
                2 | 3 => app.tick(),
                4 | 5 => {
                    let c = CHARS.as_bytes()[rng.below(CHARS.len() as u64) as usize];
                    if c == b'q' || c == b'y' {
                        // Quitting ends the run; carry on with the same screen anyway.
                        app.key(Key::Char(char::from(c)));
                        app.quit = false;
                    } else if c == b'?' && rng.below(4) != 0 {
                        // The hint searches; keep the fuzz quick.
                    } else {
                        app.key(Key::Char(char::from(c)));
                    }
                }
                _ => {
                    let k = KEYS[rng.below(KEYS.len() as u64) as usize];
                    app.key(k);
                }
            }
            if let Screen::Play(p) = &mut app.screen {
                if let fiveup_tui::app::Mode::Save { name, selected } = &mut p.mode {
                    *selected = false;
                    // Never write files from the fuzz.
                    *name = String::new();
                }
            }
            draw(&mut app);
        }
    }
}

/// The text of a screen's columns `x0..x1`.
fn columns(text: &str, x0: usize, x1: usize) -> String {
    text.lines()
        .map(|l| l.chars().skip(x0).take(x1 - x0).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

fn setup(preset: Preset, players: u8, seed: u64, options: &str) -> Setup {
    let mut words = format!("{} players={players}", preset.name());
    if !options.is_empty() {
        words.push(' ');
        words.push_str(options);
    }
    let mut s = Setup::new(seed);
    s.rules = Rules::parse(&words).expect("rules");
    s.seats = (0..players)
        .map(|i| {
            if i == 0 {
                SeatKind::Human
            } else {
                SeatKind::Computer("greedy".into())
            }
        })
        .collect();
    s
}

#[test]
fn every_open_end_of_a_cross_layout_is_listed_with_the_count_taken_apart() {
    let mut g = Game::new(setup(Preset::Cross, 2, 5, "")).expect("a game");
    let many_ends = |g: &Game| g.human_to_act() && g.view().layout().open_arms().count() >= 6;
    advance(&mut g, many_ends);
    assert!(many_ends(&g), "this seed reaches six open ends");
    let ends: Vec<String> = g
        .view()
        .layout()
        .open_arms()
        .map(|a| format!("{a} {}", g.view().layout().arm_pip(a)))
        .collect();
    let mut app = App::playing(g, (80, 24));
    let text = draw(&mut app);
    let panel = columns(&text, 50, 80).replace(['│', '\n'], " ");
    let panel = panel.split_whitespace().collect::<Vec<_>>().join(" ");
    for e in &ends {
        assert!(
            panel.contains(e.as_str()),
            "{e} missing from the panel:\n{text}"
        );
    }
    assert!(panel.contains("Count") && panel.contains(" = "), "{text}");
}

#[test]
fn the_whole_log_always_shows_a_full_page() {
    let mut g = Game::new(Setup::new(2)).expect("a game");
    advance(&mut g, |g| g.log().len() > 40);
    let mut app = App::playing(g, (80, 24));
    app.key(Key::Char('L'));
    app.key(Key::Home);
    let top = draw(&mut app);
    assert!(top.contains("lines 1-"), "{top}");
    let first = top.lines().nth(2).expect("a row");
    assert!(first.len() > 5, "the first row of the log is empty:\n{top}");
    for _ in 0..200 {
        app.key(Key::Up);
    }
    assert_eq!(
        draw(&mut app),
        top,
        "Up past the top stays on the first page"
    );
    app.key(Key::Down);
    assert!(
        draw(&mut app).contains("lines 2-"),
        "one Down moves one line"
    );
}

#[test]
fn the_start_screen_shows_all_the_rules_at_every_size() {
    for size in [(80, 24), (160, 48)] {
        let mut app = App::start(
            StartForm::from_setup(&Setup::new(7), Preset::FiveUp, ""),
            size,
        );
        let text = draw(&mut app);
        // The rules in words, whole: the last phrase is shown.
        assert!(text.contains("target."), "{text}");
        assert!(!text.contains("manual=false"), "{text}");
    }
}

/// A manual-scoring game at the human's claim.
fn at_a_claim() -> Game {
    for seed in 1.. {
        let mut g = Game::new(setup(Preset::Muggins, 2, seed, "manual=true")).expect("a game");
        let claim = |g: &Game| {
            g.human_to_act() && g.phase() == Phase::Claim && g.view().legal_actions().len() == 2
        };
        advance(&mut g, |g| claim(g) || g.hand_no() > 1);
        if claim(&g) {
            return g;
        }
    }
    unreachable!()
}

#[test]
fn manual_scoring_does_not_count_for_the_player_and_a_wrong_claim_says_why() {
    let g = at_a_claim();
    let right = match g.view().legal_actions().as_slice() {
        [_, Action::Claim(n)] => *n,
        other => panic!("{other:?}"),
    };
    let count = g.view().layout().count();
    let mut app = App::playing(g, (80, 24));
    let text = draw(&mut app);
    assert!(!text.contains(&format!("Count {count}")), "{text}");
    assert!(!text.contains("scores "), "{text}");
    assert!(!text.contains(&format!("count {count}")), "{text}");
    let wrong = right + 5;
    for c in wrong.to_string().chars() {
        app.key(Key::Char(c));
    }
    app.key(Key::Enter);
    let text = draw(&mut app);
    assert!(text.contains("does not match"), "{text}");
    assert!(!text.contains(&format!("scores {right}")), "{text}");
    let Screen::Play(p) = &app.screen else {
        unreachable!()
    };
    assert!(matches!(p.mode, Mode::Claim(_)), "still claiming");
}

#[test]
fn with_ten_tiles_or_more_a_tile_number_takes_two_digits() {
    let mut found = None;
    for seed in 1..400 {
        let mut g = Game::new(setup(Preset::FiveUp, 2, seed, "hand=9")).expect("a game");
        let big = |g: &Game| g.human_to_act() && g.view().hand().len() >= 12;
        advance(&mut g, |g| big(g) || g.hand_no() > 1);
        if big(&g) {
            found = Some(g);
            break;
        }
    }
    let g = found.expect("a hand of twelve tiles");
    let n = g.view().hand().len();
    let mut app = App::playing(g, (80, 24));
    app.key(Key::Char('1'));
    let Screen::Play(p) = &app.screen else {
        unreachable!()
    };
    assert_eq!(p.mode, Mode::Pick("1".into()), "1 waits for a second digit");
    assert_eq!(p.game.view().hand().len(), n, "nothing played yet");
    assert!(draw(&mut app).contains("Tile 1_"));
    app.key(Key::Char('2'));
    let Screen::Play(p) = &app.screen else {
        unreachable!()
    };
    assert_eq!(p.selected, 11, "tile 12 was chosen: {}", p.message);
    // A digit no two-digit number starts with plays at once.
    let mut app = {
        let Screen::Play(p) = app.screen else {
            unreachable!()
        };
        let mut g = p.game;
        if g.phase() == Phase::Claim || !g.human_to_act() {
            return;
        }
        g.show_hands = false;
        App::playing(g, (80, 24))
    };
    app.key(Key::Char('5'));
    let Screen::Play(p) = &app.screen else {
        unreachable!()
    };
    assert!(!matches!(p.mode, Mode::Pick(_)));
}

#[test]
fn four_players_at_80x24_keep_the_log_and_show_the_whole_game_over() {
    let mut g = Game::new(setup(Preset::FiveUp, 4, 3, "")).expect("a game");
    advance(&mut g, |g| g.human_to_act() && g.log().len() > 12);
    let mut app = App::playing(g, (80, 24));
    let text = draw(&mut app);
    let log_rows = text
        .lines()
        .skip_while(|l| !l.contains("┌ Log"))
        .skip(1)
        .take_while(|l| !l.contains('└'))
        .count();
    assert!(log_rows >= 3, "the log keeps three rows:\n{text}");
    for name in ["You ", "West ", "North ", "East ", "boneyard "] {
        assert!(
            columns(&text, 50, 80).contains(name),
            "{name} in the panel:\n{text}"
        );
    }
    let Screen::Play(p) = &mut app.screen else {
        unreachable!()
    };
    advance(&mut p.game, |g| g.phase() == Phase::GameOver);
    let hands = p.game.sheet().len();
    assert_eq!(
        hands,
        usize::from(p.game.hand_no()),
        "every hand is on the sheet"
    );
    let mut text = draw(&mut app);
    assert!(text.contains("Score sheet"), "{text}");
    for _ in 0..60 {
        app.key(Key::Down);
        text.push_str(&draw(&mut app));
    }
    assert!(
        text.contains("Scored:"),
        "the award working is reachable:\n{text}"
    );
    for h in 1..=hands {
        assert!(
            text.lines().any(|l| l
                .trim_start_matches('│')
                .trim_start()
                .starts_with(&format!("{h} "))),
            "hand {h} on the sheet:\n{text}"
        );
    }
}

#[test]
fn a_crowded_layout_at_the_smallest_size_can_be_seen_alone_and_straight() {
    let mut seen = 0;
    let mut straight = 0;
    for seed in 1..200 {
        let mut g = Game::new(setup(Preset::Muggins, 2, seed, "hand=9")).expect("a game");
        advance(&mut g, |g| {
            g.phase() != Phase::Play && g.phase() != Phase::Claim
        });
        let tree = LayoutTree::from_history(g.rules(), g.view().history());
        let d = fiveup_tui::board::draw(&tree, 48, 15);
        if d.crowded == 0 {
            continue;
        }
        seen += 1;
        let mut app = App::playing(g, (80, 24));
        let text = draw(&mut app);
        assert!(text.contains("b shows the board alone"), "{text}");
        // The board alone has the whole screen: 78x19 inside at 80x24.
        app.key(Key::Char('b'));
        let alone = draw(&mut app);
        assert!(alone.contains("the board alone"), "{alone}");
        let d = fiveup_tui::board::draw(&tree, 78, 19);
        assert_eq!(d.hidden, 0);
        straight += usize::from(d.crowded == 0);
        if d.crowded > 0 {
            assert!(alone.contains("larger window"), "{alone}");
        }
        app.key(Key::Char('x'));
        assert_eq!(draw(&mut app), text, "any key returns");
    }
    assert!(seen > 0, "some nine-tile layouts are crowded at 80x24");
    println!("{straight} of {seen} crowded layouts are straight on the board alone");
}

#[test]
fn the_hint_leaves_the_board_in_view_and_writes_plus_minus() {
    let mut app = App::playing(cross_game(), (80, 24));
    let before = draw(&mut app);
    app.key(Key::Char('?'));
    let after = draw(&mut app);
    let board = |t: &str| {
        columns(t, 0, 50)
            .lines()
            .take(18)
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(board(&before), board(&after), "the board is not covered");
    assert!(after.contains('±') && !after.contains("+-"), "{after}");
    assert!(after.contains("points"), "{after}");
}

#[test]
fn near_the_target_the_hint_is_a_chance_to_win() {
    let mut g = Game::new(setup(Preset::FiveUp, 2, 9, "target=100")).expect("a game");
    advance(&mut g, |g| {
        g.human_to_act() && g.hint_in_wins() && g.phase() == Phase::Play
    });
    assert!(g.hint_in_wins());
    let (unit, lines) = g.hint_lines(&g.hint());
    assert!(unit.contains("chance to win"), "{unit}");
    assert!(lines.iter().all(|l| l.contains('%')), "{lines:?}");
}

#[test]
fn the_help_page_lines_up_and_explains_the_screen() {
    let mut app = App::playing(Game::new(Setup::new(2)).expect("a game"), (80, 24));
    app.key(Key::Char('H'));
    let mut text = draw(&mut app);
    for _ in 0..40 {
        app.key(Key::Down);
        text.push_str(&draw(&mut app));
    }
    for want in ["Tally", "highest double", "spinner", "Count"] {
        assert!(text.contains(want), "{want}:\n{text}");
    }
    // Continuation lines start under the meaning column, 18 characters in.
    for l in text
        .lines()
        .filter(|l| l.starts_with("│ ") && !l.trim_matches(['│', ' ']).is_empty())
    {
        let inner = l.trim_start_matches('│');
        let lead = inner.chars().take_while(|c| *c == ' ').count();
        assert!(lead == 0 || lead == 18, "misaligned row {l:?}");
    }
}

#[test]
fn the_end_of_a_hand_leaves_the_final_layout_in_view() {
    let mut g = cross_game();
    advance(&mut g, |g| g.phase() == Phase::HandOver);
    let tree = LayoutTree::from_history(g.rules(), g.view().history());
    let mut app = App::playing(g, (80, 24));
    let text = draw(&mut app);
    let d = fiveup_tui::board::draw(&tree, 48, 15);
    let rows: Vec<&str> = text.lines().collect();
    for gl in &d.glyphs {
        let row: String = rows[usize::from(gl.y) + 2]
            .chars()
            .skip(usize::from(gl.x) + 1)
            .take(gl.text.len())
            .collect();
        assert_eq!(row, gl.text, "covered:\n{text}");
    }
    assert_eq!(text.matches("Hand 1 over").count(), 1, "{text}");
    let Screen::Play(p) = &app.screen else {
        unreachable!()
    };
    let over = p
        .game
        .log()
        .iter()
        .find(|l| l.text.starts_with("Hand 1 over"))
        .expect("logged");
    assert!(over.text.contains("award"), "{}", over.text);
}

#[test]
fn the_last_tile_laid_is_highlighted() {
    let g = cross_game();
    let last = g
        .view()
        .history()
        .iter()
        .rev()
        .find_map(|e| match *e {
            fiveup_engine::Entry::Play { tile, .. } => Some(tile),
            _ => None,
        })
        .expect("a play");
    let tree = LayoutTree::from_history(g.rules(), g.view().history());
    let d = fiveup_tui::board::draw(&tree, 48, 15);
    let gl = d
        .glyphs
        .iter()
        .find(|gl| matches!(gl.role, fiveup_tui::board::Role::Tile { tile, .. } if tile == last))
        .expect("drawn");
    let mut app = App::playing(g, (80, 24));
    app.no_color = true;
    let mut t = Terminal::new(TestBackend::new(80, 24)).expect("a test terminal");
    t.draw(|f| {
        fiveup_tui::ui::render(&app, f);
    })
    .expect("drawn");
    let cell = &t.backend().buffer()[(gl.x + 1, gl.y + 2)];
    assert!(
        cell.modifier.contains(ratatui::style::Modifier::UNDERLINED),
        "{cell:?}"
    );
}

#[test]
fn the_replay_viewer_gives_the_experts_verdicts() {
    let mut app = replay_app();
    app.key(Key::Char('e'));
    for _ in 0..6 {
        app.key(Key::Right);
    }
    let Screen::Replay(r) = &app.screen else {
        unreachable!()
    };
    assert!(r.judged.len() >= 6);
    let text = draw(&mut app);
    assert!(text.contains("Expert: "), "{text}");
    assert!(!text.contains("Expert: ..."), "{text}");
}

#[test]
fn draws_in_a_row_are_one_line_and_seats_have_one_name() {
    let mut s = Setup::new(8);
    s.seats = vec![
        SeatKind::Computer("random".into()),
        SeatKind::Computer("random".into()),
    ];
    let mut g = Game::new(s).expect("a game");
    advance(&mut g, |g| g.phase() == Phase::GameOver);
    let log = g.log();
    for w in log.windows(2) {
        let who = |t: &str| t.split(" drew ").next().map(str::to_string);
        if w[0].text.contains(" drew ") && w[1].text.contains(" drew ") {
            assert_ne!(who(&w[0].text), who(&w[1].text), "{:?}", w);
        }
    }
    assert!(
        log.iter().any(|l| l.text.contains(" tiles")),
        "some run of draws"
    );
    let r = g.record();
    assert_eq!(r.seats, g.names().to_vec());
    assert_eq!(r.seats, vec!["South".to_string(), "North".to_string()]);
    assert!(r
        .tags
        .get("Players")
        .is_some_and(|p| p.contains("North: random")));
}

#[test]
fn an_end_numbered_ten_or_more_takes_two_digits() {
    let two_ends = |g: &Game| {
        g.human_to_act()
            && fiveup_tui::plain::hand_tiles(&g.view())
                .iter()
                .any(|h| h.arms.len() == 2)
    };
    let mut g = Game::new(Setup::new(4)).expect("a game");
    advance(&mut g, two_ends);
    let tiles = fiveup_tui::plain::hand_tiles(&g.view());
    let h = tiles.iter().find(|h| h.arms.len() == 2).expect("a tile");
    let mut app = App::playing(g, (80, 24));
    let Screen::Play(p) = &mut app.screen else {
        unreachable!()
    };
    // As a Cross layout with many spinners would offer: a far sprout, end 12.
    p.mode = Mode::ChooseEnd {
        tile: h.tile,
        arms: vec![h.arms[0].expect("an arm"), fiveup_engine::ArmId(12)],
        at: 0,
        typed: String::new(),
    };
    app.key(Key::Char('1'));
    let Screen::Play(p) = &app.screen else {
        unreachable!()
    };
    assert!(p.message.starts_with("End 1_"), "{}", p.message);
    app.key(Key::Char('2'));
    let Screen::Play(p) = &app.screen else {
        unreachable!()
    };
    // End 12 was asked for (this layout has no end 12, so the engine refuses it).
    assert!(p.message.contains("12"), "{}", p.message);
    assert!(!p.message.contains("does not fit end 1."), "{}", p.message);
}

#[test]
fn every_keys_line_fits_the_smallest_screen_and_manual_scoring_offers_muggins() {
    let g = at_a_claim();
    let mut app = App::playing(g, (80, 24));
    let text = draw(&mut app);
    let keys = text.lines().last().expect("a keys line");
    assert!(
        !keys.contains("Muggins"),
        "no Muggins while claiming: {keys}"
    );
    app.key(Key::Char('0'));
    app.key(Key::Enter);
    let Screen::Play(p) = &mut app.screen else {
        unreachable!()
    };
    advance(&mut p.game, |g| {
        g.human_to_act() && g.phase() == Phase::Play
    });
    let text = draw(&mut app);
    let keys = text.lines().last().expect("a keys line");
    assert!(keys.contains("m Muggins"), "{keys}");
    assert!(keys.contains("L log"), "{keys}");
    assert!(keys.chars().count() <= 80);
}

/// Play on until the human is to act with at least `tiles` tiles on the table (or the hand
/// ends), then draw at `size`.
fn mid_hand(s: Setup, tiles: usize, size: (u16, u16)) -> (Rules, String) {
    let mut g = Game::new(s).expect("a game");
    advance(&mut g, |g| {
        g.phase() != Phase::Play
            || (g.human_to_act() && {
                let t = LayoutTree::from_history(g.rules(), g.view().history());
                t.arms.iter().map(|a| a.tiles.len()).sum::<usize>() + 1 >= tiles
            })
    });
    assert_eq!(g.phase(), Phase::Play, "the hand reaches {tiles} tiles");
    let rules = *g.rules();
    let mut app = App::playing(g, size);
    let text = draw(&mut app);
    (rules, text)
}

#[test]
fn a_six_player_double_twelve_game_at_100x32() {
    let (g, text) = mid_hand(setup(Preset::FiveUp, 6, 4, "set=12"), 14, (100, 32));
    assert_eq!(g.set, 12);
    // Six seats, two partnerships of three, every seat named on the table panel.
    for name in [
        "You",
        "Southwest",
        "Northwest",
        "North",
        "Northeast",
        "Southeast",
    ] {
        assert!(text.contains(name), "{name} missing:\n{text}");
    }
    insta::assert_snapshot!("double_twelve_six_players", text);
}

#[test]
fn a_double_nine_game_at_100x32() {
    let (g, text) = mid_hand(setup(Preset::Cross, 3, 2, "set=9"), 12, (100, 32));
    assert_eq!(g.set, 9);
    insta::assert_snapshot!("double_nine", text);
}

#[test]
fn a_cross_dominoes_game_shows_the_arms_waiting_for_the_cross() {
    // The first seed whose first hand has a cross waiting on the human's turn, with an arm
    // that holds tiles or the lead's far side closed.
    for seed in 1..200 {
        let mut g = Game::new(setup(Preset::CrossDominoes, 2, seed, "")).expect("a game");
        advance(&mut g, |g| {
            g.phase() != Phase::Play
                || (g.human_to_act() && g.view().layout().cross_pending() && {
                    let t = LayoutTree::from_history(g.rules(), g.view().history());
                    !fiveup_tui::board::waiting_arms(&t, true).is_empty()
                })
        });
        if g.phase() != Phase::Play {
            continue;
        }
        let mut app = App::playing(g, (100, 32));
        let text = draw(&mut app);
        assert!(text.contains("Wait for the cross:"), "{text}");
        insta::assert_snapshot!("cross_dominoes", text);
        return;
    }
    panic!("no seed reaches a waiting cross");
}

#[test]
fn eight_players_keep_the_whole_table_panel_at_80x24() {
    let (rules, text) = mid_hand(setup(Preset::FiveUp, 8, 4, "set=12"), 4, (80, 24));
    assert_eq!((rules.players, rules.set), (8, 12));
    for name in [
        "You",
        "Southwest",
        "West",
        "Northwest",
        "North",
        "Northeast",
        "East",
        "Southeast",
    ] {
        assert!(text.contains(name), "{name} missing:\n{text}");
    }
    // The count, the ends and the tiles of every hand all stay in the panel.
    assert!(text.contains("Count "), "{text}");
    assert!(text.contains("Ends "), "{text}");
    assert!(text.contains("boneyard"), "{text}");
    insta::assert_snapshot!("eight_players_80x24", text);
}

/// Every computer player the help of `fiveup play` names: the levels and the player specs.
const NAMED_LEVELS: [&str; 10] = [
    "beginner", "casual", "club", "strong", "master", "random", "greedy", "pimc", "expert",
    "oracle",
];

#[test]
fn every_level_named_on_the_command_line_is_played_as_named_in_full_screen() {
    for level in NAMED_LEVELS {
        // `play --players 4 --level LEVEL --rules cross --seed 7`, as the flags set it up.
        let mut setup = Setup::new(7);
        setup.rules = Rules::preset(Preset::Cross, 4);
        setup.seats = vec![SeatKind::Human];
        setup
            .seats
            .extend((0..3).map(|_| SeatKind::Computer(level.to_string())));
        let form = StartForm::from_setup(&setup, Preset::Cross, "");
        let mut app = App::start(form, (80, 24));
        let text = draw(&mut app);
        let label = fiveup_tui::game::level_label(level);
        assert!(
            text.contains(&label),
            "{level}: the start screen shows it:\n{text}"
        );
        app.key(Key::Enter);
        let Screen::Play(p) = &app.screen else {
            panic!("{level}: the game starts")
        };
        assert_eq!(
            p.game.setup().seats[1..],
            setup.seats[1..],
            "{level}: every computer seat plays as named"
        );
        let record = p.game.record();
        assert_eq!(
            record.tags.get("Players").map(String::as_str),
            Some(format!("You: human, West: {level}, North: {level}, East: {level}").as_str()),
            "{level}: the record names it"
        );
    }
}

/// The help page's lines for `rules`, joined, with the rows' continuation spaces folded.
fn help_for(rules: &str) -> String {
    let rules = Rules::parse(rules).expect("good rules");
    fiveup_tui::ui::help_text(&rules).join("\n")
}

#[test]
fn the_help_follows_the_rules_in_force() {
    // The default: the highest double must lead, a multiple of 5 scores.
    let five_up = help_for("five-up");
    assert!(
        five_up.contains("led by whoever holds the highest double, and must be led with it"),
        "{five_up}"
    );
    assert!(five_up.contains("multiple of 5 scores it"), "{five_up}");
    assert!(!five_up.contains("Cross Dominoes"), "{five_up}");
    // Lot, any-tile and top-double leads say so, and nothing about the highest double.
    let lot = help_for("five-up first-lead=lot");
    assert!(lot.contains("chosen by lot"), "{lot}");
    assert!(!lot.contains("highest double"), "{lot}");
    let any = help_for("five-up first-lead=highest-double-any");
    assert!(any.contains("with any tile they choose"), "{any}");
    assert!(!any.contains("must be led with it"), "{any}");
    let top = help_for("five-up first-lead=top-double");
    assert!(top.contains("whoever holds 6-6"), "{top}");
    let top12 = help_for("party-twelve first-lead=top-double");
    assert!(top12.contains("whoever holds 12-12"), "{top12}");
    // No scoring during play: no count scores.
    let none = help_for("draw");
    assert!(!none.contains("multiple of 5 scores"), "{none}");
    assert!(none.contains("counts score nothing"), "{none}");
    let threes = help_for("fives-and-threes");
    assert!(threes.contains("by 5 or by 3"), "{threes}");
    // Cross Dominoes explains the waiting arms.
    let cross = help_for("cross-dominoes");
    assert!(
        cross.contains("must go on its four sides") && cross.contains("lower case"),
        "{cross}"
    );
    // Manual scoring is explained where it is in force.
    assert!(!five_up.contains("Muggins (m)"), "{five_up}");
    assert!(help_for("five-up manual=true").contains("Muggins (m)"));
}

#[test]
fn the_help_screen_of_a_lot_game_does_not_speak_of_the_highest_double() {
    let mut setup = Setup::new(2);
    setup.rules = Rules::parse("all-fives").expect("rules");
    let mut app = App::playing(Game::new(setup).expect("a game"), (80, 24));
    app.key(Key::Char('H'));
    let mut text = draw(&mut app);
    for _ in 0..40 {
        app.key(Key::Down);
        text.push_str(&draw(&mut app));
    }
    assert!(text.contains("chosen by lot"), "{text}");
    assert!(!text.contains("highest double"), "{text}");
}

#[test]
fn leading_the_wrong_tile_names_the_double_that_must_lead() {
    let g = (1..)
        .map(|seed| Game::new(Setup::new(seed)).expect("a game"))
        .find(|g| g.human_to_act() && g.view().layout().is_empty())
        .expect("a seed where you lead");
    let double = g.view().shown_tile().expect("the highest double");
    let tiles = fiveup_tui::plain::hand_tiles(&g.view());
    let wrong = tiles
        .iter()
        .position(|t| t.tile != double)
        .expect("another tile");
    let before = g.log().len();
    let mut app = App::playing(g, (80, 24));
    app.key(Key::Char(char::from(b'1' + wrong as u8)));
    let text = draw(&mut app);
    let Screen::Play(p) = &app.screen else {
        unreachable!()
    };
    let at = tiles.iter().position(|t| t.tile == double).expect("held") + 1;
    assert_eq!(
        p.message,
        format!(
            "{} cannot lead: {double} (the highest double dealt) must lead this hand (tile {at}).",
            tiles[wrong].tile
        )
    );
    assert!(!text.contains("does not fit any open end"), "{text}");
    assert_eq!(p.game.log().len(), before, "nothing changed");
}

#[test]
fn a_new_game_says_who_leads_and_why() {
    let g = (1..)
        .map(|seed| Game::new(Setup::new(seed)).expect("a game"))
        .find(|g| g.human_to_act())
        .expect("a seed where you lead");
    let mut app = App::playing(g, (80, 24));
    let text = draw(&mut app);
    assert!(
        text.contains("Hand 1 dealt. You hold ") && text.contains("the highest double dealt"),
        "{text}"
    );
}

fn temp_file(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fiveup-screens-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    dir.join(name)
}

#[test]
fn typing_a_name_at_the_save_prompt_replaces_the_offered_one() {
    let path = temp_file("mid.txt");
    let _ = std::fs::remove_file(&path);
    let mut app = App::playing(Game::new(Setup::new(2)).expect("a game"), (80, 24));
    app.key(Key::Char('s'));
    let text = draw(&mut app);
    assert!(
        text.contains("[fiveup-game.txt]") && text.contains("typing replaces it"),
        "the offered name is shown selected:\n{text}"
    );
    for c in path.to_str().expect("utf-8").chars() {
        app.key(Key::Char(c));
    }
    {
        let Screen::Play(p) = &app.screen else {
            unreachable!()
        };
        assert_eq!(
            p.mode,
            Mode::Save {
                name: path.display().to_string(),
                selected: false
            }
        );
    }
    app.key(Key::Enter);
    assert!(path.exists(), "saved under the typed name only");
    // Backspace clears the offered name; Right keeps it for editing; Ctrl-U clears it.
    app.key(Key::Char('s'));
    app.key(Key::Backspace);
    let Screen::Play(p) = &app.screen else {
        unreachable!()
    };
    assert!(matches!(&p.mode, Mode::Save { name, .. } if name.is_empty()));
    app.key(Key::Esc);
    app.key(Key::Char('s'));
    app.key(Key::Right);
    app.key(Key::Backspace);
    let Screen::Play(p) = &app.screen else {
        unreachable!()
    };
    assert!(matches!(&p.mode, Mode::Save { name, .. } if name == "fiveup-game.tx"));
    app.key(Key::Ctrl('u'));
    let Screen::Play(p) = &app.screen else {
        unreachable!()
    };
    assert!(matches!(&p.mode, Mode::Save { name, .. } if name.is_empty()));
}

#[test]
fn ctrl_u_clears_a_text_field_of_the_start_screen() {
    use crossterm::event::{KeyCode, KeyModifiers};
    assert_eq!(
        fiveup_tui::term::map_key_event(KeyCode::Char('u'), KeyModifiers::CONTROL),
        Some(Key::Ctrl('u')),
        "Ctrl-U is not the letter u"
    );
    let mut app = App::start(
        StartForm::from_setup(&Setup::new(7), Preset::FiveUp, ""),
        (80, 24),
    );
    let Screen::Start(form) = &mut app.screen else {
        unreachable!()
    };
    form.field = form
        .fields()
        .iter()
        .position(|f| *f == fiveup_tui::app::Field::Seed)
        .expect("a seed field");
    app.key(Key::Ctrl('u'));
    let Screen::Start(form) = &app.screen else {
        unreachable!()
    };
    assert_eq!(form.seed, "");
    app.key(Key::Char('4'));
    let Screen::Start(form) = &app.screen else {
        unreachable!()
    };
    assert_eq!(form.seed, "4");
}

#[test]
fn ctrl_c_in_full_screen_saves_and_ends_as_an_interrupted_program() {
    let path = temp_file("interrupted.txt");
    let _ = std::fs::remove_file(&path);
    let mut app = App::playing(Game::new(Setup::new(2)).expect("a game"), (80, 24));
    app.save_path = Some(path.clone());
    app.key(Key::Ctrl('c'));
    assert!(app.quit && app.interrupted);
    assert!(path.exists(), "the record is saved");
    let (message, status) = app.interrupt_report();
    assert_eq!(status, 130);
    assert_eq!(
        message,
        format!(
            "Interrupted: record saved to {0} (fiveup play --replay {0} steps through it).",
            path.display()
        )
    );
    // Without --save: said, with the same status.
    let mut app = App::playing(Game::new(Setup::new(2)).expect("a game"), (80, 24));
    app.key(Key::Ctrl('c'));
    assert_eq!(
        app.interrupt_report(),
        (
            "Interrupted: the game was not saved (--save FILE keeps the record).".to_string(),
            130
        )
    );
}

#[test]
fn a_run_of_forced_draws_is_one_step() {
    let mut longest = 0;
    let mut human_runs = 0;
    for seed in 1..40 {
        let mut app = App::playing(Game::new(Setup::new(seed)).expect("a game"), (80, 24));
        for _ in 0..400 {
            let ticks = app.wants_tick();
            let Screen::Play(p) = &mut app.screen else {
                unreachable!()
            };
            if p.game.phase() != Phase::Play && p.game.phase() != Phase::Claim {
                break;
            }
            if !ticks {
                let a = human_move(&p.game);
                p.game.act(a).expect("a legal move");
                continue;
            }
            let seat = p.game.view().to_move();
            let human = p.game.forced_human_action().is_some();
            let pile = p.game.view().boneyard_len();
            app.tick();
            let Screen::Play(p) = &app.screen else {
                unreachable!()
            };
            let drawn = pile - p.game.view().boneyard_len();
            if drawn > 0 {
                // The run is over within the step: its player has something else to do, or
                // someone else is to move.
                assert!(
                    p.game.view().to_move() != seat
                        || !p.game.must_draw()
                        || p.game.phase() != Phase::Play,
                    "seed {seed}: a draw was left for another step"
                );
                longest = longest.max(drawn);
                if human && drawn > 1 {
                    human_runs += 1;
                    assert!(
                        p.message.contains(&format!("drew {drawn} tiles")),
                        "{}",
                        p.message
                    );
                }
            }
        }
    }
    assert!(longest >= 3, "some step drew a run of tiles: {longest}");
    assert!(human_runs > 0, "the human's forced runs are one step too");
}

#[test]
fn the_start_screen_describes_every_preset_in_one_line() {
    for (i, p) in Preset::ALL.into_iter().enumerate() {
        let mut form = StartForm::from_setup(&Setup::new(7), Preset::FiveUp, "");
        form.preset = i;
        let (lo, _) = p.players();
        form.set = p.set();
        form.players = lo;
        let mut app = App::start(form, (80, 24));
        let text = draw(&mut app);
        let line = format!("{}: {}", p.name(), fiveup_tui::app::preset_description(p));
        assert!(text.contains(&line), "{line}:\n{text}");
        // No raw `key=value` words: the rules are in words.
        assert!(
            !text
                .lines()
                .any(|l| l.contains("=true") || l.contains("=false")),
            "{text}"
        );
    }
}

#[test]
fn players_typed_under_more_options_bring_their_seats() {
    let options_at = |form: &StartForm| {
        form.fields()
            .iter()
            .position(|f| *f == fiveup_tui::app::Field::Options)
            .expect("an options field")
    };
    let mut app = App::start(
        StartForm::from_setup(&Setup::new(7), Preset::FiveUp, ""),
        (80, 24),
    );
    let Screen::Start(form) = &mut app.screen else {
        unreachable!()
    };
    form.field = options_at(form);
    for c in "players=6 hand=4".chars() {
        app.key(Key::Char(c));
    }
    // Leaving the field moves the table to its own field: six players, five computer seats.
    app.key(Key::Down);
    let Screen::Start(form) = &app.screen else {
        unreachable!()
    };
    assert_eq!(form.players, 6);
    assert_eq!(form.options, "hand=4");
    assert_eq!(
        form.fields()
            .iter()
            .filter(|f| matches!(f, fiveup_tui::app::Field::Level(_)))
            .count(),
        5
    );
    let text = draw(&mut app);
    assert!(!text.contains("need"), "{text}");
    app.key(Key::Enter);
    let Screen::Play(p) = &app.screen else {
        panic!("the game starts: {}", draw(&mut app))
    };
    assert_eq!(p.game.setup().seats.len(), 6);
    assert_eq!(p.game.rules().hand_size, 4);
    // The seats follow the rules' table even before the field is left.
    let mut form = StartForm::from_setup(&Setup::new(7), Preset::FiveUp, "");
    form.options = "players=3".into();
    assert_eq!(form.setup().expect("three seats").seats.len(), 3);
    // A table the set cannot seat is refused with the rules' reason, and nothing starts.
    let mut form = StartForm::from_setup(&Setup::new(7), Preset::FiveUp, "");
    form.options = "players=9".into();
    form.field = options_at(&form);
    let mut app = App::start(form, (80, 24));
    app.key(Key::Enter);
    assert!(matches!(app.screen, Screen::Start(_)));
    let text = draw(&mut app);
    assert!(text.contains("players must be 2 to 8, not 9"), "{text}");
}

/// An eight-player party game (each for themselves) played to its end by the test's human.
fn eight_player_game_over() -> Game {
    let mut g = Game::new(setup(Preset::PartyTwelve, 8, 3, "target=100")).expect("a game");
    advance(&mut g, |g| g.phase() == Phase::GameOver);
    assert_eq!(g.phase(), Phase::GameOver);
    g
}

#[test]
fn the_eight_player_score_sheet_fits_80x24() {
    let g = eight_player_game_over();
    let hands = g.sheet().len();
    let mut app = App::playing(g, (80, 24));
    // Three screens cover the box (each draw lays out a long double-twelve board).
    let mut text = draw(&mut app);
    for _ in 0..2 {
        for _ in 0..7 {
            app.key(Key::Down);
        }
        text.push_str(&draw(&mut app));
    }
    // The sheet's head, every hand's row and the totals, each on one line of the box.
    let head = text
        .lines()
        .find(|l| l.contains("Hand ") && l.contains(" SE"))
        .unwrap_or_else(|| panic!("the sheet's head:\n{text}"));
    for name in ["You", "SW", "W", "NW", "N", "NE", "E", "SE"] {
        assert!(head.split_whitespace().any(|w| w == name), "{name}: {head}");
    }
    let total = text
        .lines()
        .find(|l| l.contains("│Total "))
        .unwrap_or_else(|| panic!("the totals:\n{text}"));
    assert_eq!(total.split_whitespace().count(), 9 + 1, "{total}");
    for h in 1..=hands {
        assert!(
            text.lines().any(|l| l.starts_with(&format!("│{h:>4}  "))
                && l.split_whitespace().count() == 1 + 9 + 1),
            "hand {h}'s row on one line:\n{text}"
        );
    }
    // The first screen of it, as a person meets it.
    insta::assert_snapshot!(
        "eight_players_game_over_80x24",
        text.lines().take(24).collect::<Vec<_>>().join("\n") + "\n"
    );
}

#[test]
fn the_hint_keeps_its_unit_in_view_with_eight_players_at_80x24() {
    // The human's turn with several legal actions.
    let mut g = Game::new(setup(Preset::PartyTwelve, 8, 4, "")).expect("a game");
    advance(&mut g, |g| {
        g.human_to_act() && g.view().legal_actions().len() >= 3
    });
    assert!(g.view().legal_actions().len() >= 3);
    let mut app = App::playing(g, (80, 24));
    app.key(Key::Char('?'));
    let text = draw(&mut app);
    assert!(
        text.contains("Hint: points by hand's end") || text.contains("Hint: % chance to win"),
        "{text}"
    );
    insta::assert_snapshot!("eight_players_hint_80x24", text);
}

#[test]
fn the_replay_verdict_is_never_cut() {
    for size in [(80, 24), (100, 32)] {
        let mut app = replay_app();
        app.resize(size.0, size.1);
        app.key(Key::Char('e'));
        let mut seen_long = false;
        for _ in 0..80 {
            if seen_long {
                break;
            }
            app.key(Key::Right);
            let Screen::Replay(r) = &app.screen else {
                unreachable!()
            };
            let verdict = r.verdict_text();
            let text = draw(&mut app);
            // The screen's words, joined across lines, hold the whole verdict.
            let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
            let want = verdict.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(words.contains(&want), "{size:?}: {want}\n{text}");
            seen_long |= verdict.len() > 60;
        }
        assert!(seen_long, "a long verdict was shown");
    }
}

#[test]
fn side_panels_use_the_room_of_a_large_screen() {
    let (_, text) = mid_hand(setup(Preset::FiveUp, 8, 4, "set=12"), 4, (160, 48));
    let log = text
        .lines()
        .find(|l| l.contains("┌ Log "))
        .unwrap_or_else(|| panic!("a log:\n{text}"));
    let at = log.chars().position(|c| c == '┌').expect("a corner");
    let width = log.chars().count() - at;
    assert!(width >= 44, "{width} columns:\n{text}");
    // At 80 columns the panels keep their 30.
    let (_, text) = mid_hand(setup(Preset::FiveUp, 8, 4, "set=12"), 4, (80, 24));
    let log = text.lines().find(|l| l.contains("┌ Log ")).expect("a log");
    let at = log.chars().position(|c| c == '┌').expect("a corner");
    assert_eq!(log.chars().count() - at, 30, "{text}");
}

#[test]
fn eight_players_keep_the_boneyard_in_view_under_a_two_row_message() {
    let mut g = Game::new(setup(Preset::FiveUp, 8, 4, "set=12")).expect("a game");
    advance(&mut g, |g| g.human_to_act() && g.view().hand().len() >= 4);
    let mut app = App::playing(g, (80, 24));
    let Screen::Play(p) = &mut app.screen else {
        unreachable!()
    };
    p.message = "Nothing to play: You drew 4 tiles, 5-4, 11-2, 2-2 and 12-1 (nothing to play \
                 on 3 or 12)."
        .into();
    let text = draw(&mut app);
    assert!(text.contains("boneyard"), "{text}");
    // The log keeps two rows at the least.
    let rows: Vec<&str> = text.lines().collect();
    let top = rows
        .iter()
        .position(|l| l.contains("┌ Log "))
        .expect("a log");
    let bottom = rows[top + 1..]
        .iter()
        .position(|l| l.contains("└") && l.ends_with("┘"))
        .expect("its bottom");
    assert!(bottom >= 2, "{text}");
}

/// Play the game on screen to its end as the test's human would, then give the app a key that
/// changes nothing (scrolling) so that it saves at the end, as it does after a move.
fn finish_on_screen(app: &mut App) {
    let Screen::Play(p) = &mut app.screen else {
        panic!("a game is on screen")
    };
    advance(&mut p.game, |g| g.phase() == Phase::GameOver);
    app.key(Key::Up);
}

#[test]
fn playing_again_never_writes_over_the_last_games_record() {
    let path = temp_file("again.txt");
    let second = temp_file("again-2.txt");
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(&second);
    let mut app = App::playing(
        Game::new(setup(Preset::FiveUp, 2, 5, "target=50")).expect("a game"),
        (80, 24),
    );
    app.save_path = Some(path.clone());
    finish_on_screen(&mut app);
    let first = std::fs::read_to_string(&path).expect("the first game is saved");
    // Enter plays again: the new game says where its record goes, and the first stays.
    app.key(Key::Enter);
    let text = draw(&mut app);
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains(&format!(
            "{} keeps the last game's record; this game's goes to {}.",
            path.display(),
            second.display()
        )),
        "{text}"
    );
    finish_on_screen(&mut app);
    assert_eq!(
        std::fs::read_to_string(&path).expect("still there"),
        first,
        "the first game's record is kept"
    );
    let other = std::fs::read_to_string(&second).expect("the second game is saved");
    assert_ne!(other, first);
    let Screen::Play(p) = &app.screen else {
        unreachable!()
    };
    assert_eq!(
        p.message,
        format!("Game over. Record saved to {}.", second.display())
    );
    // Quitting says where each went.
    app.key(Key::Char('q'));
    assert!(app.quit);
    assert_eq!(
        app.farewell(),
        Some(format!(
            "Records saved, one file a game: game 1 to {}, game 2 to {} (fiveup play --replay \
             FILE steps through one).",
            path.display(),
            second.display()
        ))
    );
}

#[test]
fn a_file_holding_a_record_is_kept_and_quitting_says_where_the_record_is() {
    let path = temp_file("kept.txt");
    let second = temp_file("kept-2.txt");
    std::fs::write(&path, "an earlier game\n").expect("written");
    let _ = std::fs::remove_file(&second);
    let mut app = App::playing(Game::new(Setup::new(2)).expect("a game"), (80, 24));
    app.set_save_path(Some(path.clone()));
    let text = draw(&mut app);
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains(&format!(
            "{} already holds a record; this game's goes to {}.",
            path.display(),
            second.display()
        )),
        "{text}"
    );
    // q asks, naming the file; y quits and saves there.
    app.key(Key::Char('q'));
    let Screen::Play(p) = &app.screen else {
        unreachable!()
    };
    assert_eq!(
        p.message,
        format!(
            "Quit the game? y quits and saves its record to {}; any other key carries on.",
            second.display()
        )
    );
    app.key(Key::Char('y'));
    assert!(app.quit);
    assert_eq!(
        std::fs::read_to_string(&path).expect("kept"),
        "an earlier game\n"
    );
    assert!(second.exists(), "saved to the numbered file");
    assert_eq!(
        app.farewell(),
        Some(format!(
            "Record saved to {0} (fiveup play --replay {0} steps through it).",
            second.display()
        ))
    );
    // Saving by hand over a file that holds a record is refused too.
    let mut g = Game::new(Setup::new(3)).expect("a game");
    let e = g.save(&path).expect_err("refused");
    assert!(e.contains("already holds a record"), "{e}");
    assert_eq!(
        std::fs::read_to_string(&path).expect("kept"),
        "an earlier game\n"
    );
}

#[test]
fn the_party_game_offers_five_to_eight_players_only() {
    let mut app = App::start(
        StartForm::from_setup(&Setup::new(7), Preset::FiveUp, ""),
        (80, 24),
    );
    // The preset field is first: Left steps back from Five Up to the party game, which brings
    // its set and its smallest table.
    app.key(Key::Left);
    let Screen::Start(form) = &app.screen else {
        unreachable!()
    };
    assert_eq!(Preset::ALL[form.preset], Preset::PartyTwelve);
    assert_eq!((form.set, form.players), (12, 5));
    // Preset, Set, Players: every step stays within 5 to 8, both ways.
    app.key(Key::Down);
    app.key(Key::Down);
    let mut seen = Vec::new();
    for k in [Key::Left; 6].into_iter().chain([Key::Right; 6]) {
        app.key(k);
        let Screen::Start(form) = &app.screen else {
            unreachable!()
        };
        seen.push(form.players);
    }
    assert!(seen.iter().all(|n| (5..=8).contains(n)), "{seen:?}");
    assert!((5..=8).all(|n| seen.contains(&n)), "{seen:?}");
    // A smaller table typed under more options is refused with the reason.
    let mut form = StartForm::from_setup(&Setup::new(7), Preset::PartyTwelve, "");
    form.options = "players=3".into();
    form.field = form
        .fields()
        .iter()
        .position(|f| *f == fiveup_tui::app::Field::Options)
        .expect("an options field");
    let mut app = App::start(form, (80, 24));
    app.key(Key::Enter);
    assert!(matches!(app.screen, Screen::Start(_)));
    let text = draw(&mut app);
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("party-twelve is a game for 5 to 8 players, not 3"),
        "{text}"
    );
}

/// The start screen for `rules` as `preset`, at `size`.
fn start_for(preset: Preset, rules: &str, size: (u16, u16)) -> String {
    let mut s = Setup::new(7);
    s.rules = Rules::parse(rules).expect("rules");
    s.seats = (0..s.rules.players)
        .map(|i| {
            if i == 0 {
                SeatKind::Human
            } else {
                SeatKind::Computer("club".into())
            }
        })
        .collect();
    let extra = rules.split_once(' ').map_or("", |(_, rest)| rest);
    let mut app = App::start(StartForm::from_setup(&s, preset, extra), size);
    draw(&mut app)
}

/// A screen's words joined by single spaces, across the lines it wraps (inside a box too).
fn words(text: &str) -> String {
    text.replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_help_and_the_start_screen_say_who_may_call_muggins() {
    // The party game: any opponent may call it.
    let party = help_for("party-twelve");
    assert!(
        party.contains("can be taken by any opponent, each at their turn before acting"),
        "{party}"
    );
    assert!(!party.contains("the next player"), "{party}");
    // The default: only the next player.
    let next = help_for("five-up manual=true");
    assert!(
        next.contains("can be taken by the next player, before acting, with Muggins (m)"),
        "{next}"
    );
    for size in [(80, 24), (160, 48)] {
        let text = start_for(Preset::PartyTwelve, "party-twelve", size);
        assert!(
            words(&text).contains("any opponent may call Muggins"),
            "{text}"
        );
        insta::assert_snapshot!(format!("start_party_{}x{}", size.0, size.1), text);
    }
}

#[test]
fn draw_one_is_explained_and_a_pass_after_its_draw_is_not_for_want_of_tiles() {
    // The start screen and the help say what the rule is.
    let text = start_for(Preset::PartyTwelve, "party-twelve", (80, 24));
    assert!(
        words(&text).contains("draw one tile when stuck, and pass if it does not fit"),
        "{text}"
    );
    let help = help_for("party-twelve");
    assert!(
        help.contains("one draw a turn, however full the boneyard"),
        "{help}"
    );
    assert!(help_for("five-up").contains("draws from the boneyard until a tile fits"));
    // A pass after the one draw: the log and the message say so, never "nothing to draw"
    // while the boneyard holds tiles that may be drawn.
    let mut seen_log = false;
    let mut seen_message = false;
    for seed in 1..20 {
        let g = Game::new(setup(Preset::PartyTwelve, 5, seed, "")).expect("a game");
        let mut app = App::playing(g, (80, 24));
        for _ in 0..400 {
            let Screen::Play(p) = &mut app.screen else {
                unreachable!()
            };
            if p.game.phase() != Phase::Play && p.game.phase() != Phase::Claim {
                break;
            }
            let drawable = p.game.view().boneyard_len() > p.game.rules().boneyard_keep;
            if p.game.forced_human_action().is_some() || p.game.computer_to_act() {
                app.tick();
            } else {
                let a = human_move(&p.game);
                p.game.act(a).expect("a legal move");
            }
            let Screen::Play(p) = &app.screen else {
                unreachable!()
            };
            if drawable {
                let last = &p.game.log().last().expect("a log").text;
                assert!(!last.contains("nothing to draw"), "{last}");
                seen_log |= last.contains("passed (the tile drawn does not fit either");
                assert!(
                    !p.message.contains("Nothing to play or draw"),
                    "{}",
                    p.message
                );
                seen_message |= p
                    .message
                    .starts_with("The tile you drew does not fit, and you draw once a turn");
            }
        }
        if seen_log && seen_message {
            break;
        }
    }
    assert!(seen_log && seen_message, "{seen_log} {seen_message}");
}

/// The first game of computers and the test's human under `rules` (two players) that ends by
/// its hand limit.
fn ended_by_the_hand_limit(rules: &str) -> Game {
    for seed in 1..50 {
        let mut s = Setup::new(seed);
        s.rules = Rules::parse(rules).expect("rules");
        let mut g = Game::new(s).expect("a game");
        advance(&mut g, |g| g.phase() == Phase::GameOver);
        if g.end_reason()
            .is_some_and(|r| r.starts_with("Nobody reached"))
        {
            return g;
        }
    }
    panic!("no game of {rules} ended by its hand limit");
}

#[test]
fn a_game_ended_by_its_hand_limit_says_so() {
    // The start screen no longer promises only the target.
    for (rules, want) in [
        (
            "five-up hands=2",
            "or after hand 2 at the latest: then the highest score wins",
        ),
        (
            "five-up award=subtract-own",
            "or after hand 50 at the latest (the limit of award=subtract-own, whose scores may \
             fall): then the highest score wins",
        ),
    ] {
        let text = start_for(Preset::FiveUp, rules, (160, 48));
        assert!(words(&text).contains(want), "{text}");
        assert!(help_for(rules).contains("at the latest"), "{rules}");
    }
    let g = ended_by_the_hand_limit("five-up hands=1 target=1000");
    let last = &g.log().last().expect("a log").text;
    assert!(
        last.starts_with("Game over: ")
            && last.ends_with(
                "Nobody reached 1000 in 1 hand, the most this game plays: the highest score wins."
            ),
        "{last}"
    );
    let mut app = App::playing(g, (80, 24));
    let text = draw(&mut app);
    assert!(
        words(&text).contains("Nobody reached 1000 in 1 hand"),
        "{text}"
    );
    insta::assert_snapshot!("hand_limit_game_over_80x24", text);
    app.resize(160, 48);
    let text = draw(&mut app);
    assert!(
        words(&text).contains("Nobody reached 1000 in 1 hand"),
        "{text}"
    );
    insta::assert_snapshot!("hand_limit_game_over_160x48", text);
}

#[test]
fn each_draws_explains_the_lead_after_the_draws_and_never_calls_them_dealt() {
    let mut found = None;
    for seed in 1..500 {
        let mut s = setup(Preset::FiveUp, 3, seed, "no-double=each-draws hand=3");
        s.seats[1] = SeatKind::Computer("greedy".into());
        let g = Game::new(s).expect("a game");
        if g.log()
            .iter()
            .any(|l| l.text.contains("each player draws one tile"))
        {
            found = Some(g);
            break;
        }
    }
    let g = found.expect("a deal with no double");
    let log: Vec<&str> = g.log().iter().map(|l| l.text.as_str()).collect();
    let lead = log
        .iter()
        .position(|l| *l == g.lead_reason())
        .expect("the lead line");
    let draws: Vec<usize> = log
        .iter()
        .enumerate()
        .filter(|(_, l)| l.contains(" (no double was dealt: each player draws one tile)."))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(draws.len(), 3, "{log:?}");
    assert!(draws.iter().all(|&d| d < lead), "{log:?}");
    assert!(
        log[lead].starts_with("No double was dealt"),
        "{}",
        log[lead]
    );
    assert!(!log[lead].contains("double dealt"), "{}", log[lead]);
    for size in [(80, 24), (160, 48)] {
        let mut app = App::playing(Game::new(g.setup().clone()).expect("the same game"), size);
        let text = draw(&mut app);
        insta::assert_snapshot!(format!("each_draws_{}x{}", size.0, size.1), text);
    }
}

#[test]
fn titles_name_the_game_and_a_large_game_over_leaves_the_board_in_view() {
    for (rules, title) in [
        ("fives-and-threes", " Fives and Threes | "),
        ("party-twelve players=5", " Party game (double-twelve) | "),
        ("muggins", " Muggins | "),
        ("five-up", " Five Up | "),
    ] {
        let mut s = Setup::new(2);
        s.rules = Rules::parse(rules).expect("rules");
        s.seats = (0..s.rules.players)
            .map(|i| {
                if i == 0 {
                    SeatKind::Human
                } else {
                    SeatKind::Computer("greedy".into())
                }
            })
            .collect();
        let mut app = App::playing(Game::new(s).expect("a game"), (80, 24));
        let text = draw(&mut app);
        assert!(text.starts_with(title), "{rules}: {text}");
    }
    // The game ended at the target in the middle of a hand: it says so, and at 160x48 the box
    // stands beside the final layout.
    let mut g = cross_game();
    advance(&mut g, |g| g.phase() == Phase::GameOver);
    assert!(
        g.result().is_none(),
        "this game ends in the middle of a hand"
    );
    let mut app = App::playing(g, (160, 48));
    let text = draw(&mut app);
    assert!(
        words(&text).contains("during hand 8: the game ends at once, before the hand is scored"),
        "{text}"
    );
    let board = text
        .lines()
        .find(|l| l.contains("Hand 8: the final layout"))
        .unwrap_or_else(|| panic!("the board's title in view:\n{text}"));
    let board_at = board.find('┌').expect("the board's corner");
    let over = text
        .lines()
        .find(|l| l.contains("┌ Game over "))
        .expect("the box");
    assert!(
        over.chars().position(|c| c == '┌').expect("a corner") > board_at + 40,
        "{text}"
    );
    insta::assert_snapshot!("game_over_160x48", text);
}

#[test]
fn the_help_of_a_game_without_a_spinner_never_speaks_of_one() {
    for rules in ["muggins", "draw", "block", "party-twelve"] {
        // Not counting the options string (`spinner=none`).
        let help = help_for(rules)
            .lines()
            .filter(|l| !l.starts_with("This game"))
            .collect::<Vec<_>>()
            .join("\n")
            .to_lowercase();
        assert!(!help.contains("spinner"), "{rules}: {help}");
        assert!(!help.contains("sprout"), "{rules}: {help}");
        assert!(help.contains("two ends only"), "{rules}: {help}");
    }
    let help = help_for("five-up");
    assert!(
        help.contains("the spinner's sprouts N up and S down"),
        "{help}"
    );
    assert!(!help.contains("later spinners"), "{help}");
    assert!(help_for("cross").contains("later spinners' sprouts are numbered"));
}

#[test]
fn a_target_in_the_rules_string_is_the_target_fields_alone() {
    // `--rules "five-up target=50"`: the target is shown in its field only, so changing it
    // starts a game to the new target rather than naming two targets.
    let mut s = Setup::new(7);
    s.rules = Rules::parse("five-up target=50").expect("rules");
    let mut form = StartForm::from_setup(&s, Preset::FiveUp, "target=50");
    assert_eq!((form.target.as_str(), form.options.as_str()), ("50", ""));
    form.target = "100".into();
    assert_eq!(form.setup().expect("a game to 100").rules.target, 100);
    // Typed under more options, it moves to its field when the cursor leaves them.
    form.options = "target=150 hand=5".into();
    form.absorb_options();
    assert_eq!(
        (form.target.as_str(), form.options.as_str()),
        ("150", "hand=5")
    );
    assert_eq!(form.setup().expect("a game to 150").rules.target, 150);
}
