//! The full-screen game as a pure state machine: keys, clicks, resizes and ticks go in and
//! change the screens' state ([`crate::screen`]), which [`crate::ui`] draws from a
//! [`ScreenView`] of the app without importing it. Nothing here touches the terminal or the
//! clock; the runner ([`crate::term`]) decides when a computer player's move is due and calls
//! [`App::tick`].

use std::path::PathBuf;

use fiveup_bots::review::{judge, review_decision};
use fiveup_bots::ExpertConfig;
use fiveup_engine::{Action, ArmId, FirstLead, Phase, Preset, Rules, State};

use crate::game::{Game, Setup};
use crate::plain::hand_tiles;
use crate::screen::{HasScreen, ScreenView};
// The screens' state, as the app's API has always named it (`fiveup_tui::app::StartForm`).
pub use crate::screen::{
    preset_description, rules_in_words, set_label, Field, HitMap, Mode, PlayScreen, ReplayScreen,
    Screen, StartForm, Target, FIRST_LEAD_CHOICES, LEVEL_CHOICES, MIN_SIZE, SET_CHOICES,
};

/// A key, as the app understands it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Key {
    /// A printable character.
    Char(char),
    /// Enter.
    Enter,
    /// Escape.
    Esc,
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Tab.
    Tab,
    /// Shift-Tab.
    BackTab,
    /// Backspace.
    Backspace,
    /// Home.
    Home,
    /// End.
    End,
    /// Page up.
    PageUp,
    /// Page down.
    PageDown,
    /// A function key.
    F(u8),
    /// A letter typed with Ctrl held (lower case): Ctrl-U clears a text field.
    Ctrl(char),
}

impl StartForm {
    /// Move the options that have fields of their own (`set=`, `players=`, `partnerships=`,
    /// `first-lead=`, `target=`) from the more-options text into those fields, so that the
    /// seats and the levels follow them. A value the field cannot take stays in the text, for
    /// the rules to refuse with their reason.
    pub fn absorb_options(&mut self) {
        let mut rest = Vec::new();
        for w in self.options.split_whitespace() {
            let (k, v) = w.split_once('=').unwrap_or((w, ""));
            let taken = match k {
                "set" => match v.parse::<u8>() {
                    Ok(set) if SET_CHOICES.contains(&set) => {
                        self.set = set;
                        self.players = self.players.min(fiveup_engine::max_players(set));
                        true
                    }
                    _ => false,
                },
                "players" => match v.parse::<u8>() {
                    Ok(n) if self.table_range().contains(&n) => {
                        self.players = n;
                        self.partners = n == 4 || n == 6;
                        true
                    }
                    _ => false,
                },
                "partnerships" | "partners" => match v {
                    "true" | "false" if self.players == 4 || self.players == 6 => {
                        self.partners = v == "true";
                        true
                    }
                    _ => false,
                },
                // The target field takes a number; anything else is the rules' to refuse.
                "target" => match v.parse::<u16>() {
                    Ok(_) => {
                        self.target = v.to_string();
                        true
                    }
                    Err(_) => false,
                },
                "first-lead" => match FIRST_LEAD_CHOICES.iter().position(|(_, n)| *n == v) {
                    Some(i) => {
                        self.first_lead = Some(i);
                        true
                    }
                    None => false,
                },
                _ => false,
            };
            if !taken {
                rest.push(w);
            }
        }
        self.options = rest.join(" ");
    }

    /// The tables the form offers: from the preset's smallest (five for the party game) to
    /// the most the set seats.
    fn table_range(&self) -> std::ops::RangeInclusive<u8> {
        let least = Preset::ALL[self.preset % Preset::ALL.len()].players().0;
        let most = fiveup_engine::max_players(self.set).max(least);
        least..=most
    }

    fn change(&mut self, up: bool) {
        let step = |v: usize, n: usize| if up { (v + 1) % n } else { (v + n - 1) % n };
        match self.current() {
            Field::Set => {
                let i = SET_CHOICES.iter().position(|s| *s == self.set).unwrap_or(0);
                self.set = SET_CHOICES[step(i, SET_CHOICES.len())];
                self.players = self.players.min(fiveup_engine::max_players(self.set));
            }
            Field::Players => {
                // From the preset's smallest table (5 for the party game) up to what the set
                // seats.
                let range = self.table_range();
                let (least, most) = (*range.start(), *range.end());
                let n = usize::from(most - least) + 1;
                let i = usize::from(self.players.clamp(least, most) - least);
                self.players = step(i, n) as u8 + least;
                self.partners = self.players == 4 || self.players == 6;
            }
            Field::Partners => self.partners = !self.partners,
            Field::Level(i) => {
                // A player named on the command line that is not one of the choices (`expert`)
                // gives way to the club player.
                let next = LEVEL_CHOICES
                    .iter()
                    .position(|c| *c == self.levels[i])
                    .map_or(2, |at| step(at, LEVEL_CHOICES.len()));
                self.levels[i] = LEVEL_CHOICES[next].to_string();
            }
            Field::Preset => {
                self.preset = step(self.preset, Preset::ALL.len());
                // The preset's own set and table (the party game: double-twelve, 5 to 8).
                let p = Preset::ALL[self.preset];
                self.set = p.set();
                let (lo, hi) = p.players();
                self.players = self.players.clamp(lo, hi);
                self.partners = self.players == 4 || self.players == 6;
            }
            Field::FirstLead => {
                // The preset's rule, then each rule in turn.
                let n = FIRST_LEAD_CHOICES.len() + 1;
                let i = self.first_lead.map_or(0, |i| i + 1);
                self.first_lead = step(i, n).checked_sub(1);
            }
            Field::Target => {
                let cur: i32 = self.target.trim().parse().unwrap_or_else(|_| {
                    i32::from(
                        Rules::preset_with_set(Preset::ALL[self.preset], self.players, self.set)
                            .target,
                    )
                });
                let next = if up { cur + 50 } else { cur - 50 };
                self.target = next.clamp(50, 1000).to_string();
            }
            Field::Seed => {
                let cur: u64 = self.seed.trim().parse().unwrap_or(0);
                self.seed = if up {
                    cur.wrapping_add(1)
                } else {
                    cur.wrapping_sub(1)
                }
                .to_string();
            }
            Field::Options | Field::Start => {}
        }
    }

    fn text(&mut self) -> Option<&mut String> {
        match self.current() {
            Field::Options => Some(&mut self.options),
            Field::Target => Some(&mut self.target),
            Field::Seed => Some(&mut self.seed),
            _ => None,
        }
    }
}

impl ReplayScreen {
    /// Work out the expert's verdict on the action just shown, if not done yet: the same
    /// analysis as `fiveup review` (from the deciding seat's view, seed 1), one thread.
    pub fn judge_current(&mut self) {
        if !self.verdicts || self.step == 0 || self.judged.contains_key(&(self.hand, self.step)) {
            return;
        }
        let i = self.step - 1;
        let h = &self.record.hands[self.hand];
        let start = self.replayed.hands[self.hand].start;
        let verdict = State::with_start(self.record.rules, h.deal, start)
            .ok()
            .and_then(|mut s| {
                for m in &h.moves[..i] {
                    s.apply(m.action).ok()?;
                }
                let chosen = h.moves[i].action;
                let cfg = ExpertConfig {
                    threads: 1,
                    ..ExpertConfig::default()
                };
                let seed = 1 ^ ((self.hand as u64) << 32) ^ i as u64;
                let (seat, evals, options) = review_decision(&s, chosen, &cfg, seed)?;
                judge(self.hand + 1, i + 1, seat, chosen, &evals, options)
            });
        self.judged.insert((self.hand, self.step), verdict);
    }

    fn key(&mut self, k: Key) -> bool {
        if self.help {
            self.help = false;
            return false;
        }
        match k {
            Key::Right | Key::Char(' ' | 'l') => {
                if self.step < self.steps() {
                    self.step += 1;
                } else if self.hand + 1 < self.record.hands.len() {
                    self.hand += 1;
                    self.step = 0;
                }
            }
            Key::Left | Key::Backspace | Key::Char('h') => {
                if self.step > 0 {
                    self.step -= 1;
                } else if self.hand > 0 {
                    self.hand -= 1;
                    self.step = self.steps();
                }
            }
            Key::Down | Key::PageDown | Key::Char('n')
                if self.hand + 1 < self.record.hands.len() =>
            {
                self.hand += 1;
                self.step = 0;
            }
            Key::Up | Key::PageUp | Key::Char('p') => {
                self.hand = self.hand.saturating_sub(1);
                self.step = 0;
            }
            Key::Home => self.step = 0,
            Key::End => self.step = self.steps(),
            Key::F(1) | Key::Char('?') => self.help = true,
            Key::Char('e') => self.verdicts = !self.verdicts,
            Key::Char('q') | Key::Esc => return true,
            _ => {}
        }
        self.judge_current();
        false
    }
}

/// The whole application.
#[derive(Debug)]
pub struct App {
    /// The screen.
    pub screen: Screen,
    /// The terminal size.
    pub size: (u16, u16),
    /// Draw without colours.
    pub no_color: bool,
    /// Set when the user has quit.
    pub quit: bool,
    /// Where `s` saves by default, and where the record is saved at the end.
    pub save_path: Option<PathBuf>,
    /// Where things were drawn last, for clicks.
    pub hits: HitMap,
    /// A record that could not be saved to the `--save` file: the runner reports it and ends
    /// with a failure.
    pub save_error: Option<String>,
    /// Set when the user pressed Ctrl-C: the runner ends as an interrupted program does.
    pub interrupted: bool,
    /// The record files the session's games took under `--save`, in order: each game its own.
    pub claimed: Vec<PathBuf>,
    /// The record files written under `--save`, in order, for the farewell.
    pub saved: Vec<PathBuf>,
}

impl HasScreen for App {
    fn screen_view(&self) -> ScreenView<'_> {
        ScreenView {
            screen: &self.screen,
            no_color: self.no_color,
        }
    }
}

impl App {
    /// An app on the start screen.
    #[must_use]
    pub fn start(form: StartForm, size: (u16, u16)) -> App {
        App {
            screen: Screen::Start(Box::new(form)),
            size,
            no_color: false,
            quit: false,
            save_path: None,
            hits: Vec::new(),
            save_error: None,
            interrupted: false,
            claimed: Vec::new(),
            saved: Vec::new(),
        }
    }

    /// An app straight in a game.
    #[must_use]
    pub fn playing(game: Game, size: (u16, u16)) -> App {
        let mut app = App::start(
            StartForm::from_setup(game.setup(), Preset::FiveUp, ""),
            size,
        );
        app.screen = Screen::Play(Box::new(PlayScreen::new(game)));
        app
    }

    /// An app showing a replay.
    #[must_use]
    pub fn replay(r: ReplayScreen, size: (u16, u16)) -> App {
        let mut app = App::start(
            StartForm::from_setup(&Setup::new(1), Preset::FiveUp, ""),
            size,
        );
        app.screen = Screen::Replay(Box::new(r));
        app
    }

    /// Whether the screen is too small to draw the game.
    #[must_use]
    pub const fn too_small(&self) -> bool {
        self.size.0 < MIN_SIZE.0 || self.size.1 < MIN_SIZE.1
    }

    /// The terminal was resized.
    pub fn resize(&mut self, w: u16, h: u16) {
        self.size = (w, h);
    }

    /// Whether a computer move (or the human's forced draw or pass) is waiting for a tick.
    #[must_use]
    pub fn wants_tick(&self) -> bool {
        if self.too_small() {
            // The game waits while it cannot be seen.
            return false;
        }
        match &self.screen {
            Screen::Play(p) => {
                matches!(p.mode, Mode::Normal | Mode::Log(_) | Mode::Board)
                    && (p.game.computer_to_act() || p.game.forced_human_action().is_some())
            }
            _ => false,
        }
    }

    /// Make the waiting computer move, or the human's forced draw or pass.
    pub fn tick(&mut self) {
        if !self.wants_tick() {
            return;
        }
        self.claim_record_path();
        if let Screen::Play(p) = &mut self.screen {
            p.tick();
        }
        self.autosave();
    }

    /// Keep records in `path` (`--save`): the game on screen takes it, or a numbered file
    /// when it already holds a record.
    pub fn set_save_path(&mut self, path: Option<PathBuf>) {
        self.save_path = path;
        self.claim_record_path();
    }

    /// Give the game on screen its record file, once, when records are kept: the `--save`
    /// file, or the first numbered one (`game-2.txt`) that no other game took and that holds
    /// nothing; a game whose file is not the `--save` file says where its record goes.
    fn claim_record_path(&mut self) {
        let (Screen::Play(p), Some(base)) = (&mut self.screen, &self.save_path) else {
            return;
        };
        if p.record_path.is_some() {
            return;
        }
        let path = crate::game::record_file(base, &self.claimed);
        if path != *base {
            let why = if self.claimed.contains(base) {
                "keeps the last game's record"
            } else {
                "already holds a record"
            };
            p.message = format!(
                "{} {why}; this game's goes to {}. {}",
                base.display(),
                path.display(),
                p.message
            )
            .trim_end()
            .to_string();
        }
        self.claimed.push(path.clone());
        p.record_path = Some(path);
    }

    /// The file the game on screen keeps its record in, if records are kept.
    #[must_use]
    pub fn record_path(&self) -> Option<&PathBuf> {
        match &self.screen {
            Screen::Play(p) => p.record_path.as_ref(),
            _ => None,
        }
    }

    fn note_saved(&mut self, path: &std::path::Path) {
        if !self.saved.iter().any(|s| s == path) {
            self.saved.push(path.to_path_buf());
        }
    }

    /// Save the record once when a game ends, if a file was given.
    fn autosave(&mut self) {
        self.claim_record_path();
        let Screen::Play(p) = &mut self.screen else {
            return;
        };
        let Some(path) = p.record_path.clone() else {
            return;
        };
        if p.game.phase() == Phase::GameOver && !p.saved_at_end {
            p.saved_at_end = true;
            let saved = p.game.save(&path);
            p.message = match &saved {
                Ok(()) => format!("Game over. Record saved to {}.", path.display()),
                Err(e) => format!("Game over. Not saved: {e}"),
            };
            match saved {
                Ok(()) => self.note_saved(&path),
                Err(e) => self.save_error = Some(e),
            }
        }
    }

    /// Save the record to the `--save` file on the way out (quit, Ctrl-C); a failure is kept
    /// in `save_error` for the runner to report.
    pub fn save_on_quit(&mut self) {
        self.claim_record_path();
        let Screen::Play(p) = &mut self.screen else {
            return;
        };
        let Some(path) = p.record_path.clone() else {
            return;
        };
        match p.game.save(&path) {
            Ok(()) => {
                self.save_error = None;
                self.note_saved(&path);
            }
            Err(e) => self.save_error = Some(e),
        }
    }

    /// What to say once the screen is restored after quitting: where each record went.
    #[must_use]
    pub fn farewell(&self) -> Option<String> {
        match self.saved.as_slice() {
            [] => None,
            [one] => Some(format!(
                "Record saved to {0} (fiveup play --replay {0} steps through it).",
                one.display()
            )),
            many => Some(format!(
                "Records saved, one file a game: {} (fiveup play --replay FILE steps through \
                 one).",
                many.iter()
                    .enumerate()
                    .map(|(i, p)| format!("game {} to {}", i + 1, p.display()))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    /// Ctrl-C: save the record to the `--save` file (as quitting does) and end.
    pub fn interrupt(&mut self) {
        self.save_on_quit();
        self.quit = true;
        self.interrupted = true;
    }

    /// What an interrupted game says and its exit status, as plain mode says it.
    #[must_use]
    pub fn interrupt_report(&self) -> (String, u8) {
        let saved = match &self.screen {
            Screen::Play(_) => Some(match &self.save_error {
                Some(e) => Err(e.clone()),
                None => Ok(()),
            }),
            Screen::Replay(_) => return ("Interrupted.".to_string(), 130),
            Screen::Start(_) => None,
        };
        let path = self.record_path().or(self.save_path.as_ref());
        crate::game::interrupt_report(path.map(PathBuf::as_path), saved)
    }

    /// A click at a cell.
    pub fn click(&mut self, x: u16, y: u16) {
        let hit = self
            .hits
            .iter()
            .find(|(hx, hy, w, h, _)| x >= *hx && x < hx + w && y >= *hy && y < hy + h)
            .map(|h| h.4);
        if let (Some(t), Screen::Play(p)) = (hit, &mut self.screen) {
            p.click(t);
        }
    }

    /// A key.
    pub fn key(&mut self, k: Key) {
        self.claim_record_path();
        if k == Key::Ctrl('c') {
            self.interrupt();
            return;
        }
        if k == Key::Ctrl('q') {
            self.save_on_quit();
            self.quit = true;
            return;
        }
        // Nothing is visible on a screen that is too small: only quitting works there.
        if self.too_small() {
            if matches!(k, Key::Char('q') | Key::Esc) {
                self.save_on_quit();
                self.quit = true;
            }
            return;
        }
        match &mut self.screen {
            Screen::Start(form) => {
                if let Some(setup) = start_key(form, k, &mut self.quit) {
                    match Game::new(setup) {
                        Ok(g) => self.screen = Screen::Play(Box::new(PlayScreen::new(g))),
                        Err(e) => form.error = Some(e),
                    }
                }
            }
            Screen::Replay(r) => {
                if r.key(k) {
                    self.quit = true;
                }
            }
            Screen::Play(p) => match p.key(k, self.size) {
                Flow::Stay => {}
                Flow::Quit => {
                    self.save_on_quit();
                    self.quit = true;
                }
                Flow::NewSetup => {
                    let form = StartForm::from_setup(p.game.setup(), Preset::FiveUp, "");
                    let mut form = form;
                    form.preset = 0;
                    let setup = p.game.setup();
                    form.options = options_beyond_preset(&setup.rules);
                    self.screen = Screen::Start(Box::new(form));
                }
            },
        }
        self.autosave();
    }
}

/// What the tile that must lead is: `(the highest double dealt)`.
fn describe_forced_lead(rules: &Rules, v: &fiveup_engine::View, t: fiveup_engine::Tile) -> String {
    use fiveup_engine::LeadKind;
    match v.lead_kind() {
        LeadKind::HighestDouble if rules.first_lead == FirstLead::TopDouble => {
            "(the set's highest double)".into()
        }
        LeadKind::HighestDouble => "(the highest double dealt)".into(),
        LeadKind::HeaviestTile => "(the heaviest tile; no double was dealt)".into(),
        LeadKind::DrawUntilDouble => "(the double drawn)".into(),
        _ if t.is_double() => "(a double)".into(),
        _ => String::new(),
    }
}

/// The options of `rules` that differ from the Five Up preset for its players, as
/// `key=value` words (players, partnerships and target are separate fields).
#[must_use]
pub fn options_beyond_preset(rules: &Rules) -> String {
    let base = Rules::preset_with_set(Preset::FiveUp, rules.players, rules.set);
    let mine = rules.to_options_string();
    let theirs = base.to_options_string();
    let skip = ["set", "players", "partnerships", "target", "first-lead"];
    mine.split_whitespace()
        .filter(|w| !theirs.split_whitespace().any(|t| t == *w))
        .filter(|w| !skip.iter().any(|s| w.starts_with(&format!("{s}="))))
        .collect::<Vec<_>>()
        .join(" ")
}

fn start_key(form: &mut StartForm, k: Key, quit: &mut bool) -> Option<Setup> {
    if form.current() == Field::Options
        && matches!(
            k,
            Key::Up | Key::Down | Key::Tab | Key::BackTab | Key::Enter | Key::Esc
        )
    {
        // Leaving the field: the table, set and lead typed there go to their own fields.
        let before = form.fields().len();
        form.absorb_options();
        // Stay on the options field when the fields above it changed in number.
        let after = form.fields().len();
        form.field = (form.field + after).saturating_sub(before);
    }
    let n = form.fields().len();
    match k {
        Key::Up | Key::BackTab => form.field = (form.field + n - 1) % n,
        Key::Down | Key::Tab => form.field = (form.field + 1) % n,
        Key::Left => form.change(false),
        Key::Right => form.change(true),
        Key::Esc => *quit = true,
        Key::Enter => match form.setup() {
            Ok(s) => return Some(s),
            Err(e) => form.error = Some(e),
        },
        Key::Backspace => {
            if let Some(t) = form.text() {
                t.pop();
            }
        }
        Key::Ctrl('u') => {
            if let Some(t) = form.text() {
                t.clear();
            }
        }
        Key::Char(c) => {
            let field = form.current();
            match form.text() {
                Some(t) => {
                    let ok = match field {
                        Field::Options => c.is_ascii_graphic() || c == ' ',
                        _ => c.is_ascii_digit(),
                    };
                    if ok && t.len() < 60 {
                        t.push(c);
                    }
                }
                None => match c {
                    'q' => *quit = true,
                    ' ' => form.change(true),
                    _ => {}
                },
            }
        }
        _ => {}
    }
    if form.field >= form.fields().len() {
        form.field = form.fields().len() - 1;
    }
    None
}

enum Flow {
    Stay,
    Quit,
    NewSetup,
}

impl PlayScreen {
    /// A screen for a new game.
    #[must_use]
    pub fn new(game: Game) -> PlayScreen {
        let mut p = PlayScreen {
            game,
            selected: 0,
            mode: Mode::Normal,
            message: String::new(),
            hint: None,
            saved_at_end: false,
            record_path: None,
            scroll: 0,
        };
        // A game just dealt says who leads and why.
        let reason = p.game.lead_reason();
        if p.game.log().last().is_some_and(|l| l.text == reason) {
            p.message = format!("Hand {} dealt. {reason}", p.game.hand_no());
        }
        p.after();
        p
    }

    /// The message after the game moved on from a log of `before` lines: the new lines, or the
    /// last line when it was rewritten (a run of draws folded into one line).
    fn news(&self, before: usize) -> String {
        let log = self.game.log();
        if log.len() > before {
            log[before..]
                .iter()
                .map(|l| l.text.clone())
                .collect::<Vec<_>>()
                .join(" ")
        } else {
            log.last().map(|l| l.text.clone()).unwrap_or_default()
        }
    }

    /// One step of the game: a computer's action or the human's forced draw or pass. A run of
    /// forced draws by one player is one step, shown at once (the drawn tile's play is the next
    /// step).
    fn tick(&mut self) {
        let before = self.game.log().len();
        let seat = self.game.view().to_move();
        if let Some(a) = self.game.forced_human_action() {
            // A pass after the one draw a turn of draw-one is not for want of tiles to draw.
            let drew_once = self.game.drew_once();
            if self.game.act(a).is_ok() {
                while self.game.forced_human_action() == Some(Action::Draw) {
                    if self.game.act(Action::Draw).is_err() {
                        break;
                    }
                }
                let what = self.news(before);
                self.message = if a == Action::Draw {
                    format!("Nothing to play: {what}")
                } else if drew_once {
                    format!("The tile you drew does not fit, and you draw once a turn: {what}")
                } else {
                    format!("Nothing to play or draw: {what}")
                };
            }
        } else if let Some(a) = self.game.computer_step() {
            if a == Action::Draw {
                while self.game.must_draw()
                    && self.game.view().to_move() == seat
                    && self.game.computer_to_act()
                {
                    if self.game.computer_step().is_none() {
                        break;
                    }
                }
            }
            self.message = self.news(before);
        }
        self.after();
    }

    /// Keep the cursor on the hand, prompt for a claim when one is due.
    fn after(&mut self) {
        let n = self.game.view().hand().len() as usize;
        if self.selected >= n {
            self.selected = n.saturating_sub(1);
        }
        // On the human's turn the cursor starts on a playable tile.
        if self.game.human_to_act() {
            let tiles = hand_tiles(&self.game.view());
            let playable = |i: usize| tiles.get(i).is_some_and(|h| !h.arms.is_empty());
            if !playable(self.selected) {
                if let Some(i) = (0..tiles.len()).find(|&i| playable(i)) {
                    self.selected = i;
                }
            }
        }
        if self.game.human_to_act() && self.game.phase() == Phase::Claim {
            if !matches!(self.mode, Mode::Claim(_)) {
                self.mode = Mode::Claim(String::new());
            }
        } else if matches!(self.mode, Mode::Claim(_)) {
            self.mode = Mode::Normal;
        }
        if !self.game.human_to_act() {
            self.hint = None;
        }
    }

    fn act(&mut self, a: Action) {
        let before = self.game.log().len();
        match self.game.act(a) {
            Ok(_) => {
                self.message = self.news(before);
                self.hint = None;
                self.mode = Mode::Normal;
            }
            Err(e) => self.message = format!("Not allowed: {e}."),
        }
        self.after();
    }

    /// Play the tile at `i`: at once when it fits one end, else ask for the end.
    fn choose_tile(&mut self, i: usize) {
        let tiles = hand_tiles(&self.game.view());
        let Some(h) = tiles.get(i) else {
            return;
        };
        self.selected = i;
        if !self.game.human_to_act() {
            self.message = "Wait for your turn.".into();
            return;
        }
        match h.arms.as_slice() {
            [] => {
                let v = self.game.view();
                let lead = Action::Play {
                    tile: h.tile,
                    arm: None,
                };
                self.message = match (v.layout().is_empty(), v.check(lead)) {
                    // The hand must be led with a particular tile: name it.
                    (true, Err(fiveup_engine::IllegalAction::MustLead(t))) => {
                        let at = tiles
                            .iter()
                            .position(|x| x.tile == t)
                            .map(|i| format!(" (tile {})", i + 1))
                            .unwrap_or_default();
                        format!(
                            "{} cannot lead: {} {} must lead this hand{at}.",
                            h.tile,
                            t,
                            describe_forced_lead(self.game.rules(), &v, t)
                        )
                    }
                    (true, Err(e)) => format!("{} cannot lead: {}.", h.tile, e),
                    _ => format!("{} does not fit any open end.", h.tile),
                };
            }
            [one] => self.act(Action::Play {
                tile: h.tile,
                arm: *one,
            }),
            many => {
                let arms: Vec<ArmId> = many.iter().filter_map(|a| *a).collect();
                self.message = format!(
                    "Lay {} on which end? {} (arrows and Enter, or click; Esc cancels)",
                    h.tile,
                    arms.iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(" or ")
                );
                self.mode = Mode::ChooseEnd {
                    tile: h.tile,
                    arms,
                    at: 0,
                    typed: String::new(),
                };
            }
        }
    }

    fn click(&mut self, t: Target) {
        match (t, &self.mode) {
            (Target::HandTile(i), Mode::Normal | Mode::ChooseEnd { .. }) => {
                self.mode = Mode::Normal;
                self.choose_tile(i);
            }
            (Target::End(arm), Mode::ChooseEnd { tile, arms, .. }) if arms.contains(&arm) => {
                let tile = *tile;
                self.act(Action::play(tile, arm));
            }
            (Target::End(arm), Mode::Normal) => {
                let tiles = hand_tiles(&self.game.view());
                if let Some(h) = tiles.get(self.selected) {
                    if h.arms.contains(&Some(arm)) {
                        let tile = h.tile;
                        self.act(Action::play(tile, arm));
                    }
                }
            }
            _ => {}
        }
    }

    fn key(&mut self, k: Key, size: (u16, u16)) -> Flow {
        let phase = self.game.phase();
        match &mut self.mode {
            Mode::Board => {
                self.mode = Mode::Normal;
                return Flow::Stay;
            }
            Mode::Help(scroll) => {
                match k {
                    Key::Up => *scroll = scroll.saturating_sub(1),
                    Key::Down => *scroll += 1,
                    Key::PageUp => *scroll = scroll.saturating_sub(10),
                    Key::PageDown => *scroll += 10,
                    Key::Home => *scroll = 0,
                    _ => self.mode = Mode::Normal,
                }
                if let Mode::Help(s) = &mut self.mode {
                    let lines =
                        crate::ui::box_lines(size.0, &crate::ui::help_text(self.game.rules()));
                    *s = (*s).min(lines.len().saturating_sub(crate::ui::log_view_rows(size)));
                }
                return Flow::Stay;
            }
            Mode::Log(back) => {
                let page = crate::ui::log_view_rows(size);
                match k {
                    Key::Up => *back += 1,
                    Key::PageUp => *back += page.max(1),
                    Key::Down => *back = back.saturating_sub(1),
                    Key::PageDown => *back = back.saturating_sub(page.max(1)),
                    Key::Home => *back = usize::MAX,
                    Key::End => *back = 0,
                    _ => self.mode = Mode::Normal,
                }
                // Never past the first page: the screen always shows a full page of the log.
                let lines = crate::ui::log_view_lines(&self.game, size.0).len();
                if let Mode::Log(b) = &mut self.mode {
                    *b = (*b).min(lines.saturating_sub(page));
                }
                return Flow::Stay;
            }
            Mode::Pick(typed) => {
                let n = self.game.view().hand().len() as usize;
                match k {
                    Key::Char(c @ '0'..='9') => {
                        let t = format!("{typed}{c}");
                        match t.parse::<usize>() {
                            Ok(i) if (1..=n).contains(&i) => {
                                self.mode = Mode::Normal;
                                self.choose_tile(i - 1);
                            }
                            _ => {
                                self.mode = Mode::Normal;
                                self.message = format!(
                                    "There is no tile {t}: you hold {}.",
                                    crate::game::count_of(n as i64, "tile", "tiles")
                                );
                            }
                        }
                    }
                    Key::Enter => {
                        let i = typed.parse::<usize>().unwrap_or(0);
                        self.mode = Mode::Normal;
                        if (1..=n).contains(&i) {
                            self.choose_tile(i - 1);
                        }
                    }
                    Key::Backspace | Key::Esc => {
                        self.mode = Mode::Normal;
                        self.message = "Choose a tile.".into();
                    }
                    _ => {}
                }
                return Flow::Stay;
            }
            Mode::ConfirmQuit => {
                if matches!(k, Key::Char('y' | 'Y' | 'q')) {
                    return Flow::Quit;
                }
                self.mode = Mode::Normal;
                self.message = "Carry on.".into();
                return Flow::Stay;
            }
            Mode::Save { name, selected } => {
                match k {
                    Key::Char(c) if !c.is_control() && name.len() < 200 => {
                        // The offered name is replaced by what is typed, not added to.
                        if std::mem::take(selected) {
                            name.clear();
                        }
                        name.push(c);
                    }
                    Key::Backspace => {
                        if std::mem::take(selected) {
                            name.clear();
                        } else {
                            name.pop();
                        }
                    }
                    Key::Ctrl('u') => {
                        *selected = false;
                        name.clear();
                    }
                    Key::Left | Key::Right | Key::End | Key::Home => *selected = false,
                    Key::Esc => {
                        self.mode = Mode::Normal;
                        self.message = "Not saved.".into();
                    }
                    Key::Enter => {
                        let path = PathBuf::from(name.trim());
                        self.message = if name.trim().is_empty() {
                            "Not saved: no file name.".into()
                        } else {
                            match self.game.save(&path) {
                                Ok(()) => format!("Record saved to {}.", path.display()),
                                Err(e) => format!("Not saved: {e}"),
                            }
                        };
                        self.mode = Mode::Normal;
                    }
                    _ => {}
                }
                return Flow::Stay;
            }
            Mode::Claim(typed) => {
                match k {
                    Key::Char(c) if c.is_ascii_digit() && typed.len() < 3 => typed.push(c),
                    Key::Backspace => {
                        typed.pop();
                    }
                    Key::Enter => {
                        let n = typed.parse::<u16>().unwrap_or(0);
                        typed.clear();
                        self.act(Action::Claim(n));
                    }
                    _ => return self.common_key(k),
                }
                return Flow::Stay;
            }
            Mode::ChooseEnd {
                tile,
                arms,
                at,
                typed,
            } => {
                let tile = *tile;
                match k {
                    Key::Left | Key::Up | Key::BackTab => *at = (*at + arms.len() - 1) % arms.len(),
                    Key::Right | Key::Down | Key::Tab => *at = (*at + 1) % arms.len(),
                    Key::Enter | Key::Char(' ') => {
                        let arm = arms[*at];
                        self.act(Action::play(tile, arm));
                    }
                    Key::Esc => {
                        self.mode = Mode::Normal;
                        self.message = "Choose a tile.".into();
                    }
                    Key::Char(c) => {
                        // Ends 10 and up take two digits: 1 then 2 is end 12.
                        let name = format!("{typed}{}", c.to_ascii_uppercase());
                        if let Some(arm) = arms.iter().find(|a| a.to_string() == name).copied() {
                            self.act(Action::play(tile, arm));
                        } else if name.len() == 1
                            && arms.iter().any(|a| a.to_string().starts_with(&name))
                        {
                            typed.clone_from(&name);
                            self.message = format!("End {name}_: type the next digit.");
                        } else {
                            typed.clear();
                            self.message = format!("{tile} does not fit end {name}.");
                        }
                    }
                    _ => {}
                }
                return Flow::Stay;
            }
            Mode::Normal => {}
        }
        match phase {
            Phase::HandOver => match k {
                // The result box scrolls when it is longer than the room beside the layout.
                Key::Up => {
                    self.scroll = self.scroll.saturating_sub(1);
                    Flow::Stay
                }
                Key::Down => {
                    self.scroll = (self.scroll + 1).min(40);
                    Flow::Stay
                }
                Key::Enter | Key::Char(' ' | 'n') => {
                    self.scroll = 0;
                    if let Err(e) = self.game.next_hand() {
                        self.message = e;
                    } else {
                        self.message = format!(
                            "Hand {} dealt. {}",
                            self.game.hand_no(),
                            self.game.lead_reason()
                        );
                        self.selected = 0;
                    }
                    self.after();
                    Flow::Stay
                }
                _ => self.common_key(k),
            },
            Phase::GameOver => match k {
                Key::Up => {
                    self.scroll = self.scroll.saturating_sub(1);
                    Flow::Stay
                }
                Key::Down => {
                    let lines = crate::ui::box_lines(
                        size.0,
                        &crate::ui::game_over_lines(&self.game, size.0),
                    );
                    if self.scroll + crate::ui::log_view_rows(size) < lines.len() + 2 {
                        self.scroll += 1;
                    }
                    Flow::Stay
                }
                Key::Enter | Key::Char('a') => {
                    match self.game.play_again() {
                        Ok(g) => *self = PlayScreen::new(g),
                        Err(e) => self.message = e,
                    }
                    Flow::Stay
                }
                Key::Char('n') => Flow::NewSetup,
                _ => self.common_key(k),
            },
            Phase::Play | Phase::Claim => {
                let n = self.game.view().hand().len() as usize;
                match k {
                    Key::Left => {
                        self.selected = (self.selected + n.max(1) - 1) % n.max(1);
                        Flow::Stay
                    }
                    Key::Right | Key::Tab => {
                        self.selected = (self.selected + 1) % n.max(1);
                        Flow::Stay
                    }
                    Key::Home => {
                        self.selected = 0;
                        Flow::Stay
                    }
                    Key::End => {
                        self.selected = n.saturating_sub(1);
                        Flow::Stay
                    }
                    Key::Enter | Key::Char(' ') => {
                        self.choose_tile(self.selected);
                        Flow::Stay
                    }
                    Key::Char(c @ '1'..='9') => {
                        let d = c as usize - '0' as usize;
                        if d * 10 <= n {
                            // A two-digit tile number starts with this digit: wait for the next.
                            self.mode = Mode::Pick(c.to_string());
                        } else if d <= n {
                            self.choose_tile(d - 1);
                        }
                        Flow::Stay
                    }
                    Key::Char('d') => {
                        self.act(Action::Draw);
                        Flow::Stay
                    }
                    Key::Char('p') => {
                        self.act(Action::Pass);
                        Flow::Stay
                    }
                    Key::Char('m') => {
                        self.act(Action::Muggins);
                        Flow::Stay
                    }
                    Key::Char('c') => {
                        if self.game.phase() == Phase::Claim && self.game.human_to_act() {
                            self.mode = Mode::Claim(String::new());
                        } else {
                            self.message = "No claim is due.".into();
                        }
                        Flow::Stay
                    }
                    Key::Char('?') => {
                        if self.hint.is_some() {
                            self.hint = None;
                        } else if self.game.human_to_act() {
                            self.hint = Some(self.game.hint());
                            self.message =
                                "The expert's evaluation of each legal action (? hides it).".into();
                        } else {
                            self.message = "Hints are for your turn.".into();
                        }
                        Flow::Stay
                    }
                    _ => self.common_key(k),
                }
            }
        }
    }

    fn common_key(&mut self, k: Key) -> Flow {
        match k {
            Key::Char('v') => {
                self.game.show_hands = !self.game.show_hands;
                self.message = if self.game.show_hands {
                    "Computer hands shown (learning setting; v hides them).".into()
                } else {
                    "Computer hands hidden.".into()
                };
            }
            Key::Char('s') => {
                let default = self.record_path.as_ref().map_or_else(
                    || "fiveup-game.txt".to_string(),
                    |p| p.display().to_string(),
                );
                self.mode = Mode::Save {
                    name: default,
                    selected: true,
                };
                self.message = "Save the record to (Enter saves, Esc cancels):".into();
            }
            Key::Char('L') | Key::PageUp => self.mode = Mode::Log(0),
            Key::Char('b') => self.mode = Mode::Board,
            Key::F(1) | Key::Char('H') => self.mode = Mode::Help(0),
            Key::Char('q') | Key::Esc => {
                if self.game.phase() == Phase::GameOver {
                    return Flow::Quit;
                }
                self.mode = Mode::ConfirmQuit;
                self.message = match &self.record_path {
                    Some(p) => format!(
                        "Quit the game? y quits and saves its record to {}; any other key \
                         carries on.",
                        p.display()
                    ),
                    None => "Quit the game? y quits without keeping the record (s saves it); \
                             any other key carries on."
                        .into(),
                };
            }
            _ => {}
        }
        Flow::Stay
    }
}
