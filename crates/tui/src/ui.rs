//! Drawing the screens with ratatui. Everything is drawn from the [`App`]'s state; the only
//! thing returned is where the clickable things landed.

use fiveup_engine::{ArmId, Entry, LayoutTree, Phase, Pip, Rules, Seat, Side, State, TileSet};
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

use crate::app::{
    App, Field, HitMap, Mode, PlayScreen, ReplayScreen, Screen, StartForm, Target, LEVEL_CHOICES,
    MIN_SIZE,
};
use crate::board::{self, Role};
use crate::game::{describe, explain_award, level_label, seat_names, SeatKind, Setup};
use crate::plain::hand_tiles;
use crate::tally::tally;

/// Width of the side panel.
const SIDE: u16 = 30;

#[derive(Clone, Copy, Debug)]
struct Theme {
    color: bool,
}

impl Theme {
    fn base(self) -> Style {
        Style::default()
    }
    fn title(self) -> Style {
        let s = Style::default().add_modifier(Modifier::BOLD);
        if self.color {
            s.fg(Color::Black).bg(Color::Cyan)
        } else {
            s.add_modifier(Modifier::REVERSED)
        }
    }
    fn accent(self) -> Style {
        let s = Style::default().add_modifier(Modifier::BOLD);
        if self.color {
            s.fg(Color::Yellow)
        } else {
            s
        }
    }
    fn good(self) -> Style {
        if self.color {
            Style::default().fg(Color::Green)
        } else {
            Style::default()
        }
    }
    fn dim(self) -> Style {
        if self.color {
            Style::default().fg(Color::DarkGray)
        } else {
            Style::default().add_modifier(Modifier::DIM)
        }
    }
    fn selected(self) -> Style {
        Style::default().add_modifier(Modifier::REVERSED | Modifier::BOLD)
    }
    fn end(self) -> Style {
        let s = Style::default().add_modifier(Modifier::BOLD);
        if self.color {
            s.fg(Color::Magenta)
        } else {
            s
        }
    }
}

/// Draw the app; returns where the clickable things are.
pub fn render(app: &App, f: &mut Frame) -> HitMap {
    let area = f.area();
    let theme = Theme {
        color: !app.no_color,
    };
    let mut hits = Vec::new();
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        too_small(f, area);
        return hits;
    }
    match &app.screen {
        Screen::Start(form) => start_screen(f, area, form, theme),
        Screen::Play(p) => play_screen(f, area, p, theme, &mut hits),
        Screen::Replay(r) => replay_screen(f, area, r, theme),
    }
    hits
}

fn too_small(f: &mut Frame, area: Rect) {
    let text = format!(
        "The terminal is {}x{}. Five Up needs at least {}x{}: please enlarge the window \
         (or play with fiveup play --plain).",
        area.width, area.height, MIN_SIZE.0, MIN_SIZE.1
    );
    f.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
}

fn put(f: &mut Frame, x: u16, y: u16, text: &str, style: Style, clip: Rect) {
    if y < clip.y || y >= clip.y.saturating_add(clip.height) || x >= clip.x + clip.width {
        return;
    }
    let room = usize::from(clip.x + clip.width - x);
    f.buffer_mut().set_stringn(x, y, text, room, style);
}

fn popup(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

// ---------------------------------------------------------------------------------------------
// The start screen

fn start_screen(f: &mut Frame, area: Rect, form: &StartForm, theme: Theme) {
    let title = Line::styled(" Five Up: a new game ", theme.title());
    f.render_widget(
        Paragraph::new(title),
        Rect::new(area.x, area.y, area.width, 1),
    );
    let players = form.players;
    let dummy = Setup {
        rules: Rules::preset(fiveup_engine::Preset::FiveUp, players),
        seats: (0..players)
            .map(|i| {
                if i == 0 {
                    SeatKind::Human
                } else {
                    SeatKind::Computer("club".into())
                }
            })
            .collect(),
        seed: 0,
    };
    let names = seat_names(&dummy);
    let preset = fiveup_engine::Preset::ALL[form.preset % fiveup_engine::Preset::ALL.len()];
    let default_target = Rules::preset(preset, players).target;
    let mut lines: Vec<Line> = Vec::new();
    lines.push(Line::raw(""));
    for (i, field) in form.fields().into_iter().enumerate() {
        let cur = i == form.field.min(form.fields().len() - 1);
        let (label, value, editable) = match field {
            Field::Players => ("Players".to_string(), players.to_string(), false),
            Field::Partners => (
                "Partnerships".to_string(),
                if form.partners {
                    "yes: you and North against West and East".to_string()
                } else {
                    "no: each for themselves".to_string()
                },
                false,
            ),
            Field::Level(s) => (
                format!("{} plays", names.get(s + 1).cloned().unwrap_or_default()),
                level_label(LEVEL_CHOICES[form.levels[s] % LEVEL_CHOICES.len()]),
                false,
            ),
            Field::Preset => ("Rules".to_string(), preset.name().to_string(), false),
            Field::Options => ("More options".to_string(), form.options.clone(), true),
            Field::Target => (
                "Target".to_string(),
                if form.target.is_empty() {
                    format!("{default_target} (the preset's)")
                } else {
                    form.target.clone()
                },
                true,
            ),
            Field::Seed => ("Seed".to_string(), form.seed.clone(), true),
            Field::Start => ("".to_string(), "[ Start the game ]".to_string(), false),
        };
        let marker = if cur { "> " } else { "  " };
        let shown = if field == Field::Start {
            value
        } else if editable {
            format!("[{value}{}]", if cur { "_" } else { "" })
        } else {
            format!("< {value} >")
        };
        let style = if cur { theme.selected() } else { theme.base() };
        lines.push(Line::from(vec![
            Span::raw(format!("{marker}{label:<14}")),
            Span::styled(shown, style),
        ]));
    }
    lines.push(Line::raw(""));
    if let Some(e) = &form.error {
        lines.push(Line::styled(format!("  {e}"), theme.accent()));
    } else {
        match form.setup() {
            Ok(s) => lines.push(Line::styled(
                format!("  {}", s.rules.to_options_string()),
                theme.dim(),
            )),
            Err(e) => lines.push(Line::styled(format!("  {e}"), theme.accent())),
        }
    }
    let body = popup(
        Rect::new(
            area.x,
            area.y + 1,
            area.width,
            area.height.saturating_sub(3),
        ),
        76,
        lines.len() as u16 + 4,
    );
    f.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: false }).block(
            Block::default()
                .borders(Borders::ALL)
                .title(" Choose your game "),
        ),
        body,
    );
    let keys = "Up/Down field  Left/Right change  type to edit  Enter start  Esc quit";
    put(f, area.x, area.y + area.height - 1, keys, theme.dim(), area);
}

// ---------------------------------------------------------------------------------------------
// The table, shared by the game and the replay

struct SeatLine {
    name: String,
    tiles: u8,
    to_move: bool,
}

struct TableModel {
    board_title: String,
    tree: LayoutTree,
    count: u16,
    count_points: u16,
    ends: Vec<(ArmId, Pip)>,
    sides: Vec<(String, i32)>,
    target: u16,
    seats: Vec<SeatLine>,
    boneyard: u8,
    log: Vec<String>,
    highlight: Vec<ArmId>,
    focus: Option<ArmId>,
}

fn ends_of(layout: &fiveup_engine::Layout) -> Vec<(ArmId, Pip)> {
    layout.open_arms().map(|a| (a, layout.arm_pip(a))).collect()
}

fn draw_table(f: &mut Frame, body: Rect, m: &TableModel, theme: Theme, hits: &mut HitMap) {
    let board_w = body.width.saturating_sub(SIDE);
    let board_area = Rect::new(body.x, body.y, board_w, body.height);
    let side_area = Rect::new(body.x + board_w, body.y, body.width - board_w, body.height);
    // The board.
    let block = Block::default()
        .borders(Borders::ALL)
        .title(format!(" {} ", m.board_title));
    let inner = block.inner(board_area);
    f.render_widget(block, board_area);
    let d = board::draw(&m.tree, inner.width, inner.height);
    for g in &d.glyphs {
        let style = match g.role {
            Role::End(a) if m.focus == Some(a) => theme.selected(),
            Role::End(a) if m.highlight.contains(&a) => {
                theme.end().add_modifier(Modifier::UNDERLINED)
            }
            Role::End(_) => theme.end(),
            Role::Elided { .. } => theme.dim(),
            _ => theme.base(),
        };
        put(f, inner.x + g.x, inner.y + g.y, &g.text, style, inner);
        if let Role::End(a) = g.role {
            hits.push((
                inner.x + g.x,
                inner.y + g.y,
                g.text.len() as u16,
                1,
                Target::End(a),
            ));
        }
    }
    if m.tree.root.is_none() {
        put(
            f,
            inner.x + 1,
            inner.y + inner.height / 2,
            "The table is empty: the lead comes first.",
            theme.dim(),
            inner,
        );
    }
    if d.hidden > 0 {
        let note = format!("{} tiles not shown: enlarge the window", d.hidden);
        put(
            f,
            inner.x,
            inner.y + inner.height.saturating_sub(1),
            &note,
            theme.dim(),
            inner,
        );
    }
    // The side panel: scores, counts, whose turn, then the log.
    let mut lines: Vec<Line> = Vec::new();
    let w = usize::from(side_area.width.saturating_sub(2));
    for (name, pts) in &m.sides {
        let t = tally(*pts);
        let head = format!("{name:<12.12} {pts:>4}");
        if head.len() + 1 + t.len() <= w {
            lines.push(Line::from(vec![
                Span::styled(head, theme.accent()),
                Span::raw(" "),
                Span::raw(t),
            ]));
        } else {
            lines.push(Line::styled(head, theme.accent()));
            lines.push(Line::raw(format!("  {t}")));
        }
    }
    let count = if m.count_points > 0 {
        format!("Count {}: scores {}", m.count, m.count_points)
    } else {
        format!("Count {}", m.count)
    };
    lines.push(Line::styled(count, theme.good()));
    let ends: Vec<String> = m.ends.iter().map(|(a, p)| format!("{a} {p}")).collect();
    lines.push(Line::raw(format!(
        "Ends {}",
        if ends.is_empty() {
            "-".to_string()
        } else {
            ends.join(" | ")
        }
    )));
    let seat_style = |s: &SeatLine| {
        if s.to_move {
            theme.accent()
        } else {
            theme.base()
        }
    };
    let marker = |s: &SeatLine| if s.to_move { "> " } else { "  " };
    if m.seats.len() <= 2 {
        lines.push(Line::raw(format!("Boneyard {}", m.boneyard)));
        for s in &m.seats {
            lines.push(Line::styled(
                format!(
                    "{}{:<14.14} {:>2} tile{}",
                    marker(s),
                    s.name,
                    s.tiles,
                    if s.tiles == 1 { "" } else { "s" }
                ),
                seat_style(s),
            ));
        }
    } else {
        // Three or four players: two seats a line, to leave room for the log.
        lines.push(Line::raw(format!(
            "Boneyard {}; tiles in hand:",
            m.boneyard
        )));
        for pair in m.seats.chunks(2) {
            let spans: Vec<Span> = pair
                .iter()
                .map(|s| {
                    Span::styled(
                        format!("{}{:<8.8} {:>2} ", marker(s), s.name, s.tiles),
                        seat_style(s),
                    )
                })
                .collect();
            lines.push(Line::from(spans));
        }
    }
    let table_h = (lines.len() as u16 + 2).min(side_area.height);
    let table_area = Rect::new(side_area.x, side_area.y, side_area.width, table_h);
    f.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .title(format!(" Table: target {} ", m.target)),
        ),
        table_area,
    );
    let log_area = Rect::new(
        side_area.x,
        side_area.y + table_h,
        side_area.width,
        side_area.height - table_h,
    );
    if log_area.height >= 3 {
        let block = Block::default().borders(Borders::ALL).title(" Log ");
        let inner = block.inner(log_area);
        f.render_widget(block, log_area);
        // The latest entries that fit whole (the last one cut only if it alone is too long).
        let mut shown: Vec<String> = Vec::new();
        for entry in m.log.iter().rev() {
            let w = wrap_lines(std::slice::from_ref(entry), usize::from(inner.width));
            if !shown.is_empty() && shown.len() + w.len() > usize::from(inner.height) {
                break;
            }
            shown.splice(0..0, w);
        }
        let skip = shown.len().saturating_sub(usize::from(inner.height));
        for (i, l) in shown[skip..].iter().enumerate() {
            put(f, inner.x, inner.y + i as u16, l, theme.base(), inner);
        }
    }
}

/// Word-wrap lines to `width`, continuation lines indented by one space.
fn wrap_lines(lines: &[String], width: usize) -> Vec<String> {
    let mut out = Vec::new();
    if width < 4 {
        return out;
    }
    for l in lines {
        if l.chars().count() <= width {
            out.push(l.clone());
            continue;
        }
        let mut cur = String::new();
        for word in l.split(' ') {
            let extra = usize::from(!cur.is_empty() && !cur.ends_with(' '));
            if cur.chars().count() + extra + word.chars().count() > width && !cur.trim().is_empty()
            {
                out.push(std::mem::take(&mut cur));
                cur.push(' ');
            }
            if !cur.is_empty() && !cur.ends_with(' ') {
                cur.push(' ');
            }
            let mut word = word.to_string();
            while word.chars().count() > width.saturating_sub(1) {
                let head: String = word.chars().take(width - 1).collect();
                word = word.chars().skip(width - 1).collect();
                cur.push_str(&head);
                out.push(std::mem::take(&mut cur));
                cur.push(' ');
            }
            cur.push_str(&word);
        }
        if !cur.trim().is_empty() {
            out.push(cur);
        }
    }
    out
}

fn text_box(f: &mut Frame, area: Rect, title: &str, lines: &[String], footer: &str, theme: Theme) {
    let w = area.width.min(78);
    let inner_w = usize::from(w.saturating_sub(2));
    let mut wrapped = wrap_lines(lines, inner_w);
    wrapped.push(String::new());
    let h = (wrapped.len() as u16 + 3).min(area.height);
    let r = popup(area, w, h);
    f.render_widget(Clear, r);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(format!(" {title} "))
        .title_bottom(Line::styled(format!(" {footer} "), theme.accent()));
    let inner = block.inner(r);
    f.render_widget(block, r);
    for (i, l) in wrapped.iter().take(usize::from(inner.height)).enumerate() {
        put(f, inner.x, inner.y + i as u16, l, theme.base(), inner);
    }
}

fn tiles_text(t: TileSet) -> String {
    if t.is_empty() {
        "-".into()
    } else {
        t.iter()
            .map(|x| format!("[{}|{}]", x.hi(), x.lo()))
            .collect::<Vec<_>>()
            .join("")
    }
}

// ---------------------------------------------------------------------------------------------
// The game screen

fn play_screen(f: &mut Frame, area: Rect, p: &PlayScreen, theme: Theme, hits: &mut HitMap) {
    let g = &p.game;
    let v = g.view();
    let rules = *g.rules();
    let me = g.viewer();
    // Title.
    let opponents: Vec<String> = g
        .setup()
        .seats
        .iter()
        .zip(g.names())
        .filter_map(|(k, n)| match k {
            SeatKind::Computer(l) => Some(format!("{n} ({l})")),
            SeatKind::Human => None,
        })
        .collect();
    let title = format!(
        " Five Up | hand {} | to {} | seed {} | {} ",
        v.start().hand_no,
        rules.target,
        g.setup().seed,
        opponents.join(", ")
    );
    f.render_widget(
        Paragraph::new(Line::styled(title, theme.title())).style(theme.title()),
        Rect::new(area.x, area.y, area.width, 1),
    );
    // Bottom: the hand box, the message line and the keys line.
    let tiles = hand_tiles(&v);
    let hand_w = area.width.saturating_sub(2);
    let per_row = usize::from(hand_w / 10).max(1);
    let tile_rows = tiles.len().div_ceil(per_row).clamp(1, 2);
    let visible = g.visible_hands();
    let others: Vec<(String, TileSet)> = (0..rules.players)
        .map(Seat)
        .filter(|&s| s != me)
        .filter_map(|s| visible[s].map(|t| (g.names()[s.idx()].clone(), t)))
        .collect();
    let hand_h = 2 + 2 * tile_rows as u16 + others.len() as u16;
    let bottom_h = hand_h + 2;
    let body = Rect::new(
        area.x,
        area.y + 1,
        area.width,
        area.height.saturating_sub(1 + bottom_h),
    );
    let layout = v.layout();
    let (highlight, focus) = match &p.mode {
        Mode::ChooseEnd { arms, at, .. } => (arms.clone(), arms.get(*at).copied()),
        _ => (Vec::new(), None),
    };
    let model = TableModel {
        board_title: match v.phase() {
            Phase::Play | Phase::Claim => {
                if g.human_to_act() {
                    "Your turn".to_string()
                } else {
                    format!("{} to play", g.names()[v.to_move().idx()])
                }
            }
            Phase::HandOver => format!("Hand {} over", v.start().hand_no),
            Phase::GameOver => "Game over".to_string(),
        },
        tree: LayoutTree::from_history(&rules, v.history()),
        count: layout.count(),
        count_points: State::count_points(&rules, layout.count()),
        ends: ends_of(layout),
        sides: (0..rules.sides())
            .map(|s| (g.side_name(Side(s)), v.scores()[Side(s)]))
            .collect(),
        target: rules.target,
        seats: (0..rules.players)
            .map(|s| SeatLine {
                name: g.names()[usize::from(s)].clone(),
                tiles: v.hand_sizes()[Seat(s)],
                to_move: matches!(v.phase(), Phase::Play | Phase::Claim) && v.to_move() == Seat(s),
            })
            .collect(),
        boneyard: v.boneyard_len(),
        log: g.log().iter().map(|l| l.text.clone()).collect(),
        highlight,
        focus,
    };
    draw_table(f, body, &model, theme, hits);
    // The hand.
    let hand_area = Rect::new(area.x, body.y + body.height, area.width, hand_h);
    let whose = if g.human().is_some() {
        "Your hand".to_string()
    } else {
        format!("{}'s hand", g.names()[me.idx()])
    };
    let hand_title = if v.hand().is_empty() {
        format!(" {whose}: empty ")
    } else {
        format!(
            " {whose}: {} tile{}, * playable ",
            v.hand().len(),
            if v.hand().len() == 1 { "" } else { "s" }
        )
    };
    let block = Block::default().borders(Borders::ALL).title(hand_title);
    let inner = block.inner(hand_area);
    f.render_widget(block, hand_area);
    let first_row = (p.selected / per_row)
        .saturating_sub(1)
        .min(tiles.len().div_ceil(per_row).saturating_sub(tile_rows));
    for (i, h) in tiles.iter().enumerate() {
        let row = i / per_row;
        if row < first_row || row >= first_row + tile_rows {
            continue;
        }
        let x = inner.x + ((i % per_row) * 10) as u16;
        let y = inner.y + ((row - first_row) * 2) as u16;
        let sel = i == p.selected && matches!(p.mode, Mode::Normal | Mode::ChooseEnd { .. });
        let text = format!(
            "{}{}[{}|{}]{}",
            if sel { '>' } else { ' ' },
            i + 1,
            h.tile.hi(),
            h.tile.lo(),
            if h.arms.is_empty() { ' ' } else { '*' }
        );
        let style = if sel {
            theme.selected()
        } else if h.arms.is_empty() {
            theme.dim()
        } else {
            theme.good()
        };
        put(f, x, y, &text, style, inner);
        hits.push((x, y, text.len() as u16, 2, Target::HandTile(i)));
        if !h.arms.is_empty() && g.human_to_act() {
            let ends: Vec<String> = h
                .arms
                .iter()
                .map(|a| a.map_or("lead".into(), |a| a.to_string()))
                .collect();
            put(f, x + 2, y + 1, &ends.join(" "), theme.end(), inner);
        }
    }
    for (k, (name, t)) in others.iter().enumerate() {
        let y = inner.y + (2 * tile_rows + k) as u16;
        put(
            f,
            inner.x,
            y,
            &format!("{name}: {}", tiles_text(*t)),
            theme.dim(),
            inner,
        );
    }
    // Message and keys.
    let msg_y = hand_area.y + hand_area.height;
    let message = match &p.mode {
        Mode::Claim(t) => format!(
            "Claim the points of your play: {t}_ (digits, Enter; 0 for none; the count is {})",
            layout.count()
        ),
        Mode::Save(name) => format!("Save the record to: {name}_  (Enter saves, Esc cancels)"),
        _ => p.message.clone(),
    };
    put(f, area.x, msg_y, &message, theme.accent(), area);
    let keys = match (&p.mode, v.phase()) {
        (Mode::ChooseEnd { .. }, _) => "Left/Right end  Enter lay  W E N S: that end  Esc cancel",
        (Mode::Claim(_), _) => "digits points  Enter claim  v hands  s save  H help  q quit",
        (Mode::Save(_), _) => "type a file name (.json for JSON)  Enter save  Esc cancel",
        (_, Phase::HandOver) => "Enter next hand  v hands  s save  L log  H help  q quit",
        (_, Phase::GameOver) => "Enter play again  n new setup  s save  L log  q quit",
        _ => "1-9/Enter play  d draw  p pass  ? hint  v hands  s save  L log  H help  q quit",
    };
    put(f, area.x, msg_y + 1, keys, theme.dim(), area);
    // Overlays.
    if let Some(h) = &p.hint {
        let mut lines: Vec<String> = h
            .iter()
            .map(|e| {
                format!(
                    "{:<8} {:+6.1} +-{:.1}",
                    e.action.to_string(),
                    e.mean,
                    e.stderr
                )
            })
            .collect();
        if lines.is_empty() {
            lines.push("No legal action.".into());
        }
        let hint_area = Rect::new(
            body.x + 1,
            body.y + 1,
            34.min(body.width.saturating_sub(SIDE + 2)),
            body.height.saturating_sub(2),
        );
        let r = Rect::new(
            hint_area.x,
            hint_area.y,
            hint_area.width,
            (lines.len() as u16 + 2).min(hint_area.height),
        );
        f.render_widget(Clear, r);
        let block = Block::default()
            .borders(Borders::ALL)
            .title(" Hint: expert, points ");
        let inner = block.inner(r);
        f.render_widget(block, r);
        for (i, l) in lines.iter().take(usize::from(inner.height)).enumerate() {
            let style = if i == 0 { theme.good() } else { theme.base() };
            put(f, inner.x, inner.y + i as u16, l, style, inner);
        }
    }
    match (&p.mode, v.phase()) {
        (Mode::Help, _) => {
            let lines: Vec<String> = HELP_KEYS.lines().map(str::to_string).collect();
            text_box(f, body, "Keys", &lines, "any key closes", theme);
        }
        (Mode::Log(back), _) => {
            let all: Vec<String> = g.log().iter().map(|l| l.text.clone()).collect();
            let wrapped = wrap_lines(&all, usize::from(body.width.saturating_sub(2)));
            let h = usize::from(body.height.saturating_sub(2));
            let end = wrapped.len().saturating_sub(*back);
            let start = end.saturating_sub(h);
            let r = body;
            f.render_widget(Clear, r);
            let block = Block::default()
                .borders(Borders::ALL)
                .title(" The whole log (Up/Down/PgUp/PgDn/Home/End, other keys close) ");
            let inner = block.inner(r);
            f.render_widget(block, r);
            for (i, l) in wrapped[start..end].iter().enumerate() {
                put(f, inner.x, inner.y + i as u16, l, theme.base(), inner);
            }
        }
        (_, Phase::HandOver) => {
            let mut lines = revealed(g);
            lines.extend(g.award_explanation());
            text_box(
                f,
                board_of(body),
                &format!("Hand {} over", v.start().hand_no),
                &lines,
                "Enter: next hand",
                theme,
            );
        }
        (_, Phase::GameOver) => {
            let winner = g.winner().map_or("Nobody".into(), |s| g.side_name(s));
            let verb = if winner == "You" || winner.contains('&') {
                "win"
            } else {
                "wins"
            };
            let mut lines = vec![format!("{winner} {verb} the game.")];
            for s in 0..rules.sides() {
                let pts = v.scores()[Side(s)];
                lines.push(format!(
                    "{:<12} {:>4}  {}",
                    g.side_name(Side(s)),
                    pts,
                    tally(pts)
                ));
            }
            lines.push(String::new());
            lines.extend(revealed(g));
            lines.extend(g.award_explanation());
            text_box(
                f,
                board_of(body),
                "Game over",
                &lines,
                "Enter: play again, n: new game, q: quit",
                theme,
            );
        }
        _ => {}
    }
}

/// The board's part of the body, where the results are shown (the scores stay in view).
fn board_of(body: Rect) -> Rect {
    Rect::new(body.x, body.y, body.width.saturating_sub(SIDE), body.height)
}

fn revealed(g: &crate::game::Game) -> Vec<String> {
    let hands = g.visible_hands();
    let r = g.result();
    (0..g.rules().players)
        .map(Seat)
        .filter_map(|s| {
            hands[s].map(|t| {
                let pips = r.map_or(t.pips() as u16, |r| r.pips[s]);
                format!("{}: {} ({pips} pips)", g.names()[s.idx()], tiles_text(t))
            })
        })
        .collect()
}

/// The key help page.
pub const HELP_KEYS: &str = "\
Left/Right, Tab   move along your hand
1-9, 0            play that tile (0: the tenth); one key when it fits one end
Enter, Space      play the tile under the cursor
W E N S, 4-9      the end to lay it on, when it fits several (or arrows + Enter)
mouse             click a tile to play it, an end marker to lay it there
d / p             draw / pass (forced draws and passes happen by themselves)
c, digits, Enter  claim your points (manual scoring); m: Muggins
?                 the expert's evaluation of each legal action
v                 show or hide the computer players' hands (for learning)
s                 save the game record (JSON if the name ends in .json)
L, PgUp           the whole log
H, F1             this page
q, Esc            quit (asks first)";

// ---------------------------------------------------------------------------------------------
// The replay viewer

fn replay_screen(f: &mut Frame, area: Rect, r: &ReplayScreen, theme: Theme) {
    let state = r.state();
    let rules = r.record.rules;
    let names: Vec<String> = r.record.seats.clone();
    let title = format!(
        " Replay of {} | hand {} of {} | action {} of {} ",
        r.name,
        r.hand + 1,
        r.record.hands.len(),
        r.step,
        r.steps()
    );
    f.render_widget(
        Paragraph::new(Line::styled(title, theme.title())).style(theme.title()),
        Rect::new(area.x, area.y, area.width, 1),
    );
    let players = rules.players;
    let bottom_h = 2 + u16::from(players) + 2;
    let body = Rect::new(
        area.x,
        area.y + 1,
        area.width,
        area.height.saturating_sub(1 + bottom_h),
    );
    let side_name = |s: Side| -> String {
        (0..players)
            .map(Seat)
            .filter(|&p| rules.side_of(p) == s)
            .map(|p| names[p.idx()].clone())
            .collect::<Vec<_>>()
            .join(" & ")
    };
    let mut log: Vec<String> = state
        .log()
        .iter()
        .map(|e: &Entry| describe(e, &names))
        .collect();
    if let Some(res) = state.result() {
        log.extend(explain_award(&rules, res, &names, side_name));
    }
    let layout = state.layout();
    let model = TableModel {
        board_title: match state.phase() {
            Phase::Play | Phase::Claim => format!("{} to play", names[state.to_move().idx()]),
            Phase::HandOver => "Hand over".into(),
            Phase::GameOver => "Game over".into(),
        },
        tree: LayoutTree::from_history(&rules, state.log()),
        count: layout.count(),
        count_points: State::count_points(&rules, layout.count()),
        ends: ends_of(layout),
        sides: (0..rules.sides())
            .map(|s| (side_name(Side(s)), state.scores()[Side(s)]))
            .collect(),
        target: rules.target,
        seats: (0..players)
            .map(|s| SeatLine {
                name: names[usize::from(s)].clone(),
                tiles: state.hand(Seat(s)).len() as u8,
                to_move: matches!(state.phase(), Phase::Play | Phase::Claim)
                    && state.to_move() == Seat(s),
            })
            .collect(),
        boneyard: state.boneyard_len(),
        log,
        highlight: Vec::new(),
        focus: None,
    };
    let mut hits = Vec::new();
    draw_table(f, body, &model, theme, &mut hits);
    let hands_area = Rect::new(
        area.x,
        body.y + body.height,
        area.width,
        2 + u16::from(players),
    );
    let block = Block::default()
        .borders(Borders::ALL)
        .title(" Every hand (a replay shows them all) ");
    let inner = block.inner(hands_area);
    f.render_widget(block, hands_area);
    for p in 0..players {
        put(
            f,
            inner.x,
            inner.y + u16::from(p),
            &format!(
                "{:<14.14} {}",
                names[usize::from(p)],
                tiles_text(state.hand(Seat(p)))
            ),
            theme.base(),
            inner,
        );
    }
    let y = hands_area.y + hands_area.height;
    let last = state
        .log()
        .last()
        .map(|e| describe(e, &names))
        .unwrap_or_else(|| "The hand is dealt.".into());
    put(f, area.x, y, &last, theme.accent(), area);
    put(
        f,
        area.x,
        y + 1,
        "Left/Right step  Up/Down hand  Home/End start/end of hand  ? help  q quit",
        theme.dim(),
        area,
    );
    if r.help {
        let lines: Vec<String> = [
            "Right, Space, l   the next action (into the next hand at the end)",
            "Left, Backspace   the action before",
            "Down, PgDn, n     the next hand; Up, PgUp, p: the hand before",
            "Home, End         the start or the end of the hand",
            "q, Esc            quit",
        ]
        .iter()
        .map(|s| (*s).to_string())
        .collect();
        text_box(f, body, "Replay keys", &lines, "any key closes", theme);
    }
}
