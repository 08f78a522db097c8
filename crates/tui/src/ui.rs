//! Drawing the screens with ratatui. Everything is drawn from a view of the screens' state
//! ([`crate::screen::ScreenView`]), which the app gives of itself; the only thing returned is
//! where the clickable things landed. Nothing here imports the app (`app.rs`): the drawing
//! reads the screens and changes nothing.

use fiveup_engine::{
    ArmId, Entry, LayoutTree, Phase, Pip, Rules, Seat, Side, State, Tile, TileSet,
};
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

use crate::board::{self, Role};
use crate::game::{
    describe, display_names, explain_award, level_label, seat_names, SeatKind, Setup,
};
use crate::plain::hand_tiles;
use crate::screen::{
    Field, HasScreen, HitMap, Mode, PlayScreen, ReplayScreen, Screen, StartForm, Target, MIN_SIZE,
};
use crate::tally::tally;

/// Width of the side panel.
const SIDE: u16 = 30;

/// The side panels' width for a screen `width` columns wide: 30 up to 119 columns, then three
/// tenths of the screen, up to 48, so that a large screen gives the table and the log room.
#[must_use]
pub fn side_width(width: u16) -> u16 {
    if width < 120 {
        SIDE
    } else {
        (width * 3 / 10).min(48)
    }
}

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
    fn last(self) -> Style {
        let s = Style::default().add_modifier(Modifier::BOLD | Modifier::UNDERLINED);
        if self.color {
            s.fg(Color::Yellow)
        } else {
            s
        }
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

/// Draw the screen showing (`render(&app, f)` draws the app's); returns where the clickable
/// things are.
pub fn render<S: HasScreen + ?Sized>(shown: &S, f: &mut Frame) -> HitMap {
    let view = shown.screen_view();
    let area = f.area();
    let theme = Theme {
        color: !view.no_color,
    };
    let mut hits = Vec::new();
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        too_small(f, area);
        return hits;
    }
    match view.screen {
        Screen::Start(form) => start_screen(f, area, form, theme),
        Screen::Play(p) => play_screen(f, area, p, theme, &mut hits),
        Screen::Replay(r) => replay_screen(f, area, r, theme),
    }
    hits
}

fn too_small(f: &mut Frame, area: Rect) {
    let text = format!(
        "The terminal is {}x{}. Five Up needs at least {}x{}: please enlarge the window \
         (or play with fiveup play --plain). The game waits meanwhile; q quits.",
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
    let preset = fiveup_engine::Preset::ALL[form.preset % fiveup_engine::Preset::ALL.len()];
    let title = Line::styled(
        format!(" {}: a new game ", crate::screen::preset_title(preset)),
        theme.title(),
    );
    let players = form.players;
    let dummy = Setup {
        rules: Rules::preset_with_set(fiveup_engine::Preset::FiveUp, players, form.set),
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
    let preset_rules = Rules::preset_with_set(preset, players, form.set);
    let default_target = preset_rules.target;
    let mut lines: Vec<Line> = Vec::new();
    lines.push(Line::raw(""));
    for (i, field) in form.fields().into_iter().enumerate() {
        let cur = i == form.field.min(form.fields().len() - 1);
        let (label, value, editable) = match field {
            Field::Set => ("Set".to_string(), crate::screen::set_label(form.set), false),
            Field::Players => ("Players".to_string(), players.to_string(), false),
            Field::FirstLead => (
                "First lead".to_string(),
                match form.first_lead {
                    Some(i) => crate::screen::FIRST_LEAD_CHOICES
                        [i % crate::screen::FIRST_LEAD_CHOICES.len()]
                    .1
                    .to_string(),
                    None => format!(
                        "{} (the preset's)",
                        first_lead_name(preset_rules.first_lead)
                    ),
                },
                false,
            ),
            Field::Partners => (
                "Partnerships".to_string(),
                if form.partners {
                    let team = |odd: usize| {
                        let n: Vec<&str> = names
                            .iter()
                            .enumerate()
                            .filter(|(i, _)| i % 2 == odd)
                            .map(|(i, n)| if i == 0 { "you" } else { n.as_str() })
                            .collect();
                        match n.split_last() {
                            Some((last, rest)) if !rest.is_empty() => {
                                format!("{} and {last}", rest.join(", "))
                            }
                            _ => n.join(""),
                        }
                    };
                    if players == 6 {
                        // The whole line would not fit: name the human's team only.
                        format!("yes: {} as a team", team(0))
                    } else {
                        format!("yes: {} against {}", team(0), team(1))
                    }
                } else {
                    "no: each for themselves".to_string()
                },
                false,
            ),
            Field::Level(s) => (
                format!("{} plays", names.get(s + 1).cloned().unwrap_or_default()),
                level_label(&form.levels[s]),
                false,
            ),
            Field::Preset => (
                "Rules".to_string(),
                format!(
                    "{}: {}",
                    preset.name(),
                    crate::screen::preset_description(preset)
                ),
                false,
            ),
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
            Span::raw(format!("{marker}{label:<17}")),
            Span::styled(shown, style),
        ]));
    }
    lines.push(Line::raw(""));
    // The rules in full (or what is wrong), wrapped to the box, never cut.
    let box_w = 76.min(area.width);
    let text_w = usize::from(box_w.saturating_sub(4));
    let (summary, style) = match (&form.error, form.setup()) {
        (Some(e), _) => (e.clone(), theme.accent()),
        (None, Err(e)) => (e, theme.accent()),
        (None, Ok(s)) => (crate::screen::rules_in_words(&s.rules), theme.dim()),
    };
    for l in wrap_plain(&summary, text_w) {
        lines.push(Line::styled(format!("  {l}"), style));
    }
    // A big table at 80x24: the blank lines go first, then the title row, so that the rules
    // (or the error) are still shown whole.
    let mut top = 1;
    if lines.len() + 2 > usize::from(area.height.saturating_sub(2)) {
        lines.retain(|l| l.width() > 0);
        if lines.len() + 2 > usize::from(area.height.saturating_sub(2)) {
            top = 0;
        }
    }
    let body = popup(
        Rect::new(
            area.x,
            area.y + top,
            area.width,
            area.height.saturating_sub(1 + top),
        ),
        box_w,
        lines.len() as u16 + 2,
    );
    f.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .title(" Choose your game "),
        ),
        body,
    );
    if top == 1 {
        f.render_widget(
            Paragraph::new(title),
            Rect::new(area.x, area.y, area.width, 1),
        );
    }
    let keys = "Up/Down field  Left/Right change  type to edit  Enter start  Esc quit";
    put(f, area.x, area.y + area.height - 1, keys, theme.dim(), area);
}

fn first_lead_name(f: fiveup_engine::FirstLead) -> &'static str {
    crate::screen::FIRST_LEAD_CHOICES
        .iter()
        .find(|(x, _)| *x == f)
        .map_or("highest-double", |(_, n)| n)
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
    /// The count, or `None` when the players count for themselves (manual scoring).
    count: Option<u16>,
    count_points: u16,
    ends: Vec<(ArmId, Pip)>,
    /// Cross Dominoes: arms waiting until the cross is complete.
    waiting: Vec<ArmId>,
    sides: Vec<(String, i32)>,
    target: u16,
    seats: Vec<SeatLine>,
    boneyard: u8,
    log: Vec<String>,
    highlight: Vec<ArmId>,
    focus: Option<ArmId>,
    /// The tile laid last, drawn highlighted.
    last: Option<Tile>,
    /// Lines shown in place of the log (the hint), with their title.
    overlay: Option<(String, Vec<String>)>,
}

/// The board in `area` with its frame and title; returns the column just right of the layout.
/// `alone`: the board shown by itself (the `b` key), which needs no pointer to itself.
fn draw_board(
    f: &mut Frame,
    board_area: Rect,
    title: &str,
    m: &TableModel,
    theme: Theme,
    hits: &mut HitMap,
    alone: bool,
) -> u16 {
    // The board.
    let block = Block::default()
        .borders(Borders::ALL)
        .title(format!(" {title} "));
    let inner = block.inner(board_area);
    f.render_widget(block, board_area);
    let d = board::draw_waiting(&m.tree, inner.width, inner.height, &m.waiting);
    let mut right = inner.x;
    for g in &d.glyphs {
        let style = match g.role {
            Role::End(a) if m.focus == Some(a) => theme.selected(),
            Role::End(a) if m.highlight.contains(&a) => {
                theme.end().add_modifier(Modifier::UNDERLINED)
            }
            Role::End(_) => theme.end(),
            Role::Elided { .. } | Role::Shut(_) | Role::Waiting(_) => theme.dim(),
            Role::Tile { tile, .. } | Role::Lead(tile) if m.last == Some(tile) => theme.last(),
            _ => theme.base(),
        };
        put(f, inner.x + g.x, inner.y + g.y, &g.text, style, inner);
        right = right.max(inner.x + g.x + g.text.len() as u16);
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
    let note = if d.hidden > 0 {
        Some(format!(
            "{} not shown: enlarge the window",
            crate::game::count_of(d.hidden as i64, "tile", "tiles")
        ))
    } else if d.crowded > 0 && !alone {
        Some("Crowded: b shows the board alone".to_string())
    } else if d.crowded > 0 {
        Some("Crowded: a larger window draws it straight".to_string())
    } else {
        None
    };
    if let Some(note) = note {
        // On the board's bottom border, where it covers no tile.
        let y = board_area.y + board_area.height.saturating_sub(1);
        let clip = Rect::new(board_area.x + 1, y, board_area.width.saturating_sub(2), 1);
        put(f, clip.x, y, &format!(" {note} "), theme.accent(), clip);
    }
    right
}

/// Where the table was drawn.
struct TableAreas {
    /// The side column (table panel and log).
    side: Rect,
    /// The column just right of the drawn layout, to the right edge.
    free_x: u16,
}

fn ends_of(layout: &fiveup_engine::Layout) -> Vec<(ArmId, Pip)> {
    layout.open_arms().map(|a| (a, layout.arm_pip(a))).collect()
}

/// The last tile laid in a hand's history.
fn last_tile(history: &[Entry]) -> Option<Tile> {
    history.iter().rev().find_map(|e| match *e {
        Entry::Play { tile, .. } => Some(tile),
        _ => None,
    })
}

/// Pieces joined by `sep`, wrapped to `width` without breaking a piece; continuation lines are
/// indented by one space.
fn join_wrapped(head: &str, pieces: &[String], sep: &str, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = head.to_string();
    for (i, p) in pieces.iter().enumerate() {
        let piece = if i + 1 < pieces.len() {
            format!("{p}{sep}")
        } else {
            p.clone()
        };
        if cur.chars().count() + piece.trim_end().chars().count() > width && !cur.trim().is_empty()
        {
            out.push(cur.trim_end().to_string());
            cur = " ".to_string();
        }
        cur.push_str(&piece);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim_end().to_string());
    }
    out
}

/// The table panel's lines: scores, the count and how it is made, the open ends, the tiles.
fn table_lines(m: &TableModel, w: usize, theme: Theme) -> Vec<Line<'static>> {
    let mut lines: Vec<Line> = Vec::new();
    if m.sides.len() > 4 {
        // Five to eight players each for themselves: the points in two columns, so that the
        // count, the ends and the tiles stay in view (the tally is in the score sheet).
        // `>` marks whose turn it is; the tiles in hand follow on one line in the same order.
        let cells: Vec<String> = m
            .sides
            .iter()
            .zip(&m.seats)
            .map(|((n, p), st)| format!("{}{:<9.9} {p:>3}", if st.to_move { '>' } else { ' ' }, n))
            .collect();
        for pair in cells.chunks(2) {
            lines.push(Line::styled(pair.concat(), theme.accent()));
        }
    }
    for (name, pts) in m.sides.iter().filter(|_| m.sides.len() <= 4) {
        let t = tally(*pts);
        if name.chars().count() > 12 {
            // A partnership of three (`You & Northwest & Northeast`): the names whole on their
            // own lines, then the score.
            let names: Vec<String> = name.split(" & ").map(str::to_string).collect();
            for l in join_wrapped("", &names, " & ", w) {
                lines.push(Line::styled(l, theme.accent()));
            }
            let score = format!("{:>17}", pts);
            if score.len() + 1 + t.len() <= w {
                lines.push(Line::from(vec![
                    Span::styled(score, theme.accent()),
                    Span::raw(" "),
                    Span::raw(t),
                ]));
            } else {
                lines.push(Line::styled(score, theme.accent()));
                lines.push(Line::raw(format!("  {t}")));
            }
            continue;
        }
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
    match m.count {
        None => lines.push(Line::styled(
            "Count: yours to add up".to_string(),
            theme.good(),
        )),
        Some(count) => {
            let head = if m.count_points > 0 {
                format!("Count {count} (scores {})", m.count_points)
            } else {
                format!("Count {count}")
            };
            let parts: Vec<String> = crate::board::count_parts(&m.tree)
                .unwrap_or_default()
                .iter()
                .map(ToString::to_string)
                .collect();
            let text = if parts.len() > 1 {
                join_wrapped(&format!("{head} = "), &parts, " + ", w)
            } else {
                vec![head]
            };
            for l in text {
                lines.push(Line::styled(l, theme.good()));
            }
        }
    }
    let ends: Vec<String> = m.ends.iter().map(|(a, p)| format!("{a} {p}")).collect();
    if ends.is_empty() {
        lines.push(Line::raw("Ends -".to_string()));
    } else {
        for l in join_wrapped("Ends ", &ends, " | ", w) {
            lines.push(Line::raw(l));
        }
    }
    if !m.waiting.is_empty() {
        let names: Vec<String> = m.waiting.iter().map(|a| board::waiting_mark(*a)).collect();
        for l in join_wrapped("Wait for the cross: ", &names, ", ", w) {
            lines.push(Line::raw(l));
        }
    }
    if m.sides.len() > 4 {
        let mut pieces: Vec<String> = m.seats.iter().map(|st| st.tiles.to_string()).collect();
        pieces.push(format!("| boneyard {}", m.boneyard));
        for l in join_wrapped("Tiles, same order: ", &pieces, " ", w) {
            lines.push(Line::raw(l));
        }
        return lines;
    }
    // The boneyard and the tiles in each hand, `>` marking whose turn it is.
    let mut pieces = vec![format!("boneyard {}", m.boneyard)];
    for st in &m.seats {
        let name: String = st.name.chars().take(12).collect();
        pieces.push(format!(
            "{}{name} {}",
            if st.to_move { "> " } else { "" },
            st.tiles
        ));
    }
    for l in join_wrapped("Tiles: ", &pieces, " | ", w) {
        lines.push(Line::raw(l));
    }
    lines
}

/// Rows the log keeps at the least, so that the latest actions stay in view.
const MIN_LOG_ROWS: u16 = 3;

fn draw_table(
    f: &mut Frame,
    body: Rect,
    m: &TableModel,
    theme: Theme,
    hits: &mut HitMap,
) -> TableAreas {
    let board_w = body.width.saturating_sub(side_width(body.width));
    let board_area = Rect::new(body.x, body.y, board_w, body.height);
    let side_area = Rect::new(body.x + board_w, body.y, body.width - board_w, body.height);
    let right = draw_board(f, board_area, &m.board_title, m, theme, hits, false);
    // The side panel: scores, counts, whose turn, then the log.
    let w = usize::from(side_area.width.saturating_sub(2));
    let lines = table_lines(m, w, theme);
    // The log keeps three rows; two when that is what the whole table needs (eight players at
    // 80x24 with a message over two rows): the boneyard's count matters more than a third row
    // of the log, whose latest line the message repeats.
    let need = lines.len() as u16 + 2;
    let log_rows = if need + MIN_LOG_ROWS + 2 > side_area.height {
        MIN_LOG_ROWS - 1
    } else {
        MIN_LOG_ROWS
    };
    let table_h = need
        .min(side_area.height.saturating_sub(log_rows + 2))
        .max(3)
        .min(side_area.height);
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
    let (title, entries) = match &m.overlay {
        Some((t, l)) => (t.clone(), l.clone()),
        None => ("Log".to_string(), m.log.clone()),
    };
    if log_area.height >= 3 {
        let block = Block::default()
            .borders(Borders::ALL)
            .title(format!(" {title} "));
        let inner = block.inner(log_area);
        f.render_widget(block, log_area);
        if m.overlay.is_some() {
            let width = usize::from(inner.width);
            let mut wrapped = wrap_lines(&entries, width);
            if wrapped.len() > usize::from(inner.height)
                && entries.last().is_some_and(|l| l.starts_with('('))
            {
                // No room for the closing note (the hint's unit, also in the title): leave it
                // out rather than show it cut.
                wrapped = wrap_lines(&entries[..entries.len() - 1], width);
            }
            let entries = wrapped;
            for (i, l) in entries.iter().take(usize::from(inner.height)).enumerate() {
                let style = if i == 0 { theme.good() } else { theme.base() };
                put(f, inner.x, inner.y + i as u16, l, style, inner);
            }
        } else {
            // The latest entries that fit whole (the last one cut only if it alone is too long).
            let mut shown: Vec<String> = Vec::new();
            for entry in entries.iter().rev() {
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
    TableAreas {
        side: side_area,
        free_x: right + 1,
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

/// Word-wrap one paragraph to `width` with no indent on continuation lines.
fn wrap_plain(text: &str, width: usize) -> Vec<String> {
    wrap_lines(&[text.to_string()], width)
        .into_iter()
        .map(|l| l.strip_prefix(' ').map_or(l.clone(), str::to_string))
        .collect()
}

/// Word-wrap lines whose continuation lines line up under the text after the first run of two
/// or more spaces (a key and its meaning, `key   what it does`), or one space in otherwise.
fn wrap_hanging(lines: &[String], width: usize) -> Vec<String> {
    let mut out = Vec::new();
    for l in lines {
        let indent = l
            .find("  ")
            .map(|i| i + l[i..].chars().take_while(|c| *c == ' ').count())
            .filter(|&i| i < width / 2)
            .unwrap_or(1);
        if l.chars().count() <= width {
            out.push(l.clone());
            continue;
        }
        let body = wrap_plain(
            &l[indent.min(l.len())..],
            width.saturating_sub(indent).max(4),
        );
        for (k, b) in body.into_iter().enumerate() {
            if k == 0 {
                out.push(format!("{}{b}", &l[..indent.min(l.len())]));
            } else {
                out.push(format!("{}{b}", " ".repeat(indent)));
            }
        }
    }
    out
}

/// The lines a [`text_box`] shows in `area` and how many there are to scroll through.
#[must_use]
pub fn box_lines(area_w: u16, lines: &[String]) -> Vec<String> {
    let w = area_w.min(100);
    wrap_hanging(lines, usize::from(w.saturating_sub(2)))
}

/// A box of text in the middle of `area`, scrolled down by `scroll` lines; the footer says when
/// there is more to see.
fn text_box(
    f: &mut Frame,
    area: Rect,
    title: &str,
    lines: &[String],
    footer: &str,
    scroll: usize,
    theme: Theme,
) {
    let w = area.width.min(100);
    let wrapped = box_lines(area.width, lines);
    let h = (wrapped.len() as u16 + 2).min(area.height);
    let r = popup(area, w, h);
    f.render_widget(Clear, r);
    let rows = usize::from(h.saturating_sub(2));
    let max = wrapped.len().saturating_sub(rows);
    let scroll = scroll.min(max);
    let footer = if max > 0 {
        format!(
            " {footer}; Up/Down scroll ({}-{} of {}) ",
            scroll + 1,
            scroll + rows,
            wrapped.len()
        )
    } else {
        format!(" {footer} ")
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .title(format!(" {title} "))
        .title_bottom(Line::styled(footer, theme.accent()));
    let inner = block.inner(r);
    f.render_widget(block, r);
    for (i, l) in wrapped.iter().skip(scroll).take(rows).enumerate() {
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
    let head = format!(
        " {} | hand {} | to {} | seed {} | ",
        crate::screen::game_title(&rules),
        v.start().hand_no,
        rules.target,
        g.setup().seed,
    );
    let mut who = opponents.join(", ");
    if head.len() + who.len() + 1 > usize::from(area.width) {
        // A big table: the levels counted (`club x5`) rather than every seat named.
        let mut levels: Vec<(String, usize)> = Vec::new();
        for k in &g.setup().seats {
            if let SeatKind::Computer(l) = k {
                match levels.iter_mut().find(|(x, _)| x == l) {
                    Some(e) => e.1 += 1,
                    None => levels.push((l.clone(), 1)),
                }
            }
        }
        who = levels
            .iter()
            .map(|(l, n)| format!("{l} x{n}"))
            .collect::<Vec<_>>()
            .join(", ");
        if g.human().is_some() {
            who = format!("you against {who}");
        }
    }
    let title = format!("{head}{who} ");
    f.render_widget(
        Paragraph::new(Line::styled(title, theme.title())).style(theme.title()),
        Rect::new(area.x, area.y, area.width, 1),
    );
    // Bottom: the hand box, the message rows and the keys line.
    let tiles = hand_tiles(&v);
    let hand_w = area.width.saturating_sub(2);
    // Each tile takes ten columns (` 1[6|4]* `), twelve with two-digit pips (` 12[12|10]*`).
    let cell: usize = if tiles.iter().any(|h| h.tile.hi() > 9) {
        12
    } else {
        10
    };
    let per_row = (usize::from(hand_w) / cell).max(1);
    let tile_rows = tiles.len().div_ceil(per_row).clamp(1, 2);
    let visible = g.visible_hands();
    let others: Vec<(String, TileSet)> = (0..rules.players)
        .map(Seat)
        .filter(|&s| s != me)
        .filter_map(|s| visible[s].map(|t| (g.names()[s.idx()].clone(), t)))
        .collect();
    let hand_h = 2 + 2 * tile_rows as u16 + others.len() as u16;
    let message = message_text(p);
    let msg = if matches!(p.mode, Mode::Log(_) | Mode::Help(_) | Mode::Board) {
        vec![String::new()]
    } else {
        let mut m = wrap_plain(&message, usize::from(area.width));
        if m.is_empty() {
            m.push(String::new());
        }
        m.truncate(3);
        m
    };
    let bottom_h = hand_h + msg.len() as u16 + 1;
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
    let overlay = p.hint.as_ref().map(|h| {
        let (unit, mut lines) = g.hint_lines(h);
        if lines.is_empty() {
            lines.push("No legal action.".into());
        }
        lines.push(format!("(expert: {unit})"));
        // The unit is in the title too, so it stays in view when the rows are few.
        let short = if g.hint_in_wins() {
            "Hint: % chance to win"
        } else {
            "Hint: points by hand's end"
        };
        (short.to_string(), lines)
    });
    let model = TableModel {
        board_title: match v.phase() {
            Phase::Play | Phase::Claim => {
                if g.human_to_act() {
                    "Your turn".to_string()
                } else {
                    format!("{} to play", g.names()[v.to_move().idx()])
                }
            }
            Phase::HandOver | Phase::GameOver => {
                format!("Hand {}: the final layout", v.start().hand_no)
            }
        },
        waiting: board::waiting_arms(
            &LayoutTree::from_history(&rules, v.history()),
            layout.cross_pending(),
        ),
        tree: LayoutTree::from_history(&rules, v.history()),
        count: (!g.counting_hidden()).then(|| layout.count()),
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
        last: last_tile(v.history()),
        overlay,
    };
    let areas = draw_table(f, body, &model, theme, hits);
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
    let typed = match &p.mode {
        Mode::Pick(t) => Some(t.as_str()),
        _ => None,
    };
    for (i, h) in tiles.iter().enumerate() {
        let row = i / per_row;
        if row < first_row || row >= first_row + tile_rows {
            continue;
        }
        let x = inner.x + ((i % per_row) * cell) as u16;
        let y = inner.y + ((row - first_row) * 2) as u16;
        let label = (i + 1).to_string();
        let sel = match typed {
            // While a number is typed, every tile it could still name is marked.
            Some(t) => label.starts_with(t),
            None => i == p.selected && matches!(p.mode, Mode::Normal | Mode::ChooseEnd { .. }),
        };
        let text = format!(
            "{}{label}[{}|{}]{}",
            if sel { '>' } else { ' ' },
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
    for (i, l) in msg.iter().enumerate() {
        put(f, area.x, msg_y + i as u16, l, theme.accent(), area);
    }
    let keys = match (&p.mode, v.phase()) {
        (Mode::ChooseEnd { .. }, _) => {
            "Left/Right end  Enter lay  W E N S or number: that end  Esc cancel"
        }
        (Mode::Pick(_), _) => "next digit  Enter this tile  Backspace  Esc cancel",
        (Mode::Claim(_), _) => {
            "digits points  Enter claim  Backspace  v hands  L log  H help  q quit"
        }
        (Mode::Save { .. }, _) => "type a file name (.json for JSON)  Enter save  Esc cancel",
        (Mode::Log(_), _) => "Up/Down PgUp/PgDn Home/End scroll  any other key closes",
        (Mode::Help(_), _) => "Up/Down PgUp/PgDn scroll  any other key closes",
        (Mode::Board, _) => "any key returns to the table",
        (_, Phase::HandOver) => {
            "Enter next hand  Up/Down scroll  v hands  s save  L log  H help  q quit"
        }
        (_, Phase::GameOver) => {
            "Enter play again  n new setup  Up/Down scroll  s save  L log  q quit"
        }
        // Muggins takes the room of `v hands` at 80 columns (the help page has it).
        _ if rules.manual_scoring && area.width >= 83 => {
            "1-9 play  d draw  p pass  m Muggins  ? hint  v hands  s save  L log  H help  q quit"
        }
        _ if rules.manual_scoring => {
            "1-9 play  d draw  p pass  m Muggins  ? hint  s save  L log  H help  q quit"
        }
        _ if tiles.len() >= 10 => {
            "1-99/Enter play  d draw  p pass  ? hint  v hands  s save  L log  H help  q quit"
        }
        _ => "1-9/Enter play  d draw  p pass  ? hint  v hands  s save  L log  H help  q quit",
    };
    put(f, area.x, msg_y + msg.len() as u16, keys, theme.dim(), area);
    // Screens over the table: everything between the title and the message.
    let whole = Rect::new(area.x, body.y, area.width, body.height + hand_h);
    match (&p.mode, v.phase()) {
        (Mode::Board, _) => {
            f.render_widget(Clear, whole);
            hits.retain(|h| !matches!(h.4, Target::End(_)));
            let title = format!("{} (the board alone: any key returns)", model.board_title);
            draw_board(f, whole, &title, &model, theme, hits, true);
        }
        (Mode::Help(scroll), _) => {
            text_box(
                f,
                whole,
                "Keys, the screen and the rules",
                &help_text(&rules),
                "any other key closes",
                *scroll,
                theme,
            );
        }
        (Mode::Log(back), _) => {
            let wrapped = log_view_lines(g, whole.width);
            let h = usize::from(whole.height.saturating_sub(2));
            let back = (*back).min(wrapped.len().saturating_sub(h));
            let end = wrapped.len().saturating_sub(back);
            let start = end.saturating_sub(h);
            f.render_widget(Clear, whole);
            let block = Block::default().borders(Borders::ALL).title(format!(
                " The whole log: lines {}-{} of {} ",
                start + 1,
                end,
                wrapped.len()
            ));
            let inner = block.inner(whole);
            f.render_widget(block, whole);
            for (i, l) in wrapped[start..end].iter().enumerate() {
                put(f, inner.x, inner.y + i as u16, l, theme.base(), inner);
            }
        }
        (_, Phase::HandOver) => {
            // Beside the final layout, over the table panel and the hand.
            let x = areas.free_x.min(areas.side.x).max(area.x);
            let r = Rect::new(x, body.y, area.x + area.width - x, whole.height);
            let mut lines = revealed(g);
            lines.extend(g.award_explanation());
            text_box(
                f,
                r,
                &format!("Hand {} over", v.start().hand_no),
                &lines,
                "Enter: next hand",
                p.scroll,
                theme,
            );
        }
        (_, Phase::GameOver) => {
            // Beside the final layout when there is room for it there (a large screen), else
            // over the table.
            let x = areas.free_x.min(areas.side.x).max(area.x);
            let beside = Rect::new(x, body.y, area.x + area.width - x, whole.height);
            let r = if beside.width >= 60 { beside } else { whole };
            text_box(
                f,
                r,
                "Game over",
                &game_over_lines(g, r.width),
                "Enter: play again, n: new game, q: quit",
                p.scroll,
                theme,
            );
        }
        _ => {}
    }
}

/// The message rows' text: the last message, or the prompt of what is being typed.
fn message_text(p: &PlayScreen) -> String {
    let refused = if p.message.starts_with("Not allowed") {
        format!("{} ", p.message)
    } else {
        String::new()
    };
    match &p.mode {
        Mode::Claim(t) => format!(
            "{refused}Claim the points of your play: {t}_ (type them and Enter; 0 if it scored \
             nothing)"
        ),
        Mode::Pick(t) => {
            format!("Tile {t}_: type the next digit, or Enter for tile {t} (Esc cancels)")
        }
        Mode::Save { name, selected } => {
            if *selected {
                format!(
                    "Save the record to: [{name}]  (typing replaces it; Enter saves, Esc cancels)"
                )
            } else {
                format!("Save the record to: {name}_  (Enter saves, Esc cancels)")
            }
        }
        _ => p.message.clone(),
    }
}

/// The whole log wrapped for the log screen, `width` columns wide with its border.
#[must_use]
pub fn log_view_lines(g: &crate::game::Game, width: u16) -> Vec<String> {
    let all: Vec<String> = g.log().iter().map(|l| l.text.clone()).collect();
    wrap_lines(&all, usize::from(width.saturating_sub(2)))
}

/// The rows the log screen shows at a terminal size (its box, between the title row and the
/// message and keys rows).
#[must_use]
pub fn log_view_rows(size: (u16, u16)) -> usize {
    usize::from(size.1.saturating_sub(1 + 2 + 2))
}

/// The game over screen: the winner, the score sheet of every hand, and the last hand.
#[must_use]
pub fn game_over_lines(g: &crate::game::Game, area_w: u16) -> Vec<String> {
    let rules = g.rules();
    let winner = g.winner().map_or("Nobody".into(), |s| g.side_name(s));
    let verb = if winner == "You" || winner.contains('&') {
        "win"
    } else {
        "wins"
    };
    let v = g.view();
    let mut lines = vec![format!("{winner} {verb} the game.")];
    if let Some(why) = g.end_reason() {
        lines.push(why);
    }
    for s in 0..rules.sides() {
        let pts = v.scores()[Side(s)];
        lines.push(format!(
            "{:<14.14} {:>4}  {}",
            g.side_name(Side(s)),
            pts,
            tally(pts)
        ));
    }
    lines.push(String::new());
    lines.extend(score_sheet(
        g,
        usize::from(area_w.min(100).saturating_sub(2)),
    ));
    lines.push(String::new());
    if g.result().is_some() {
        lines.push(format!("The last hand, hand {}:", v.start().hand_no));
    } else {
        lines.push(format!(
            "The last hand, hand {}, stopped at the target and was not scored:",
            v.start().hand_no
        ));
    }
    lines.extend(revealed(g));
    lines.extend(g.award_explanation());
    lines
}

/// A seat's or side's name in a narrow column: compass points by their letters (`SW`), other
/// names cut to four letters; partners joined with `&`.
fn short_name(name: &str) -> String {
    name.split(" & ")
        .map(|n| match n {
            "North" | "South" | "East" | "West" | "Northwest" | "Northeast" | "Southwest"
            | "Southeast" => {
                n.chars()
                    .filter(char::is_ascii_uppercase)
                    .collect::<String>()
                    + match n {
                        "Northwest" | "Southwest" => "W",
                        "Northeast" | "Southeast" => "E",
                        _ => "",
                    }
            }
            other => other.chars().take(4).collect(),
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// The score sheet within `width` columns: each hand's points (play and award together, the
/// award in brackets) and the totals after it; when that is too wide (eight players at 80x24),
/// a narrow sheet: the points of each hand under short names, then the totals.
#[must_use]
pub fn score_sheet(g: &crate::game::Game, width: usize) -> Vec<String> {
    let full = full_score_sheet(g);
    if full.iter().skip(1).all(|l| l.chars().count() <= width) {
        return full;
    }
    let sides = usize::from(g.rules().sides());
    let names: Vec<String> = (0..sides).map(|s| g.side_name(Side(s as u8))).collect();
    let short: Vec<String> = names.iter().map(|n| short_name(n)).collect();
    let cells: Vec<Vec<String>> = g
        .sheet()
        .iter()
        .map(|r| (0..sides).map(|s| format!("{:+}", r.gained[s])).collect())
        .collect();
    let totals: Vec<String> = (0..sides)
        .map(|s| {
            g.sheet()
                .last()
                .map_or_else(|| "0".to_string(), |r| r.totals[s].to_string())
        })
        .collect();
    let col: Vec<usize> = (0..sides)
        .map(|s| {
            cells
                .iter()
                .map(|c| c[s].len())
                .chain([short[s].chars().count(), totals[s].len()])
                .max()
                .unwrap_or(3)
        })
        .collect();
    let key: Vec<String> = names
        .iter()
        .zip(&short)
        .filter(|(n, s)| n != s)
        .map(|(n, s)| format!("{s} {n}"))
        .collect();
    let mut out = vec![format!(
        "Score sheet: points in each hand, then the totals{}.",
        if key.is_empty() {
            String::new()
        } else {
            format!(" ({})", key.join(", "))
        }
    )];
    let mut head = "Hand ".to_string();
    for s in 0..sides {
        head.push_str(&format!(" {:>w$}", short[s], w = col[s]));
    }
    out.push(head);
    for (r, c) in g.sheet().iter().zip(&cells) {
        let mut row = format!("{:>4} ", r.hand);
        for s in 0..sides {
            row.push_str(&format!(" {:>w$}", c[s], w = col[s]));
        }
        out.push(row);
    }
    let mut row = "Total".to_string();
    for s in 0..sides {
        row.push_str(&format!(" {:>w$}", totals[s], w = col[s]));
    }
    out.push(row);
    out
}

/// The score sheet at full width: every hand's points with the award in brackets, and the total.
fn full_score_sheet(g: &crate::game::Game) -> Vec<String> {
    let sides = usize::from(g.rules().sides());
    let names: Vec<String> = (0..sides).map(|s| g.side_name(Side(s as u8))).collect();
    let cells: Vec<Vec<String>> = g
        .sheet()
        .iter()
        .map(|r| {
            (0..sides)
                .map(|s| format!("{:+} ({:+}) {}", r.gained[s], r.award[s], r.totals[s]))
                .collect()
        })
        .collect();
    let width: Vec<usize> = (0..sides)
        .map(|s| {
            cells
                .iter()
                .map(|c| c[s].len())
                .chain([names[s].chars().count().min(16)])
                .max()
                .unwrap_or(8)
        })
        .collect();
    let mut out = vec![
        "Score sheet: points in the hand (the award in brackets), then the total.".to_string(),
    ];
    let mut head = "Hand".to_string();
    for s in 0..sides {
        head.push_str(&format!("  {:>w$.16}", names[s], w = width[s]));
    }
    out.push(head);
    for (r, c) in g.sheet().iter().zip(&cells) {
        let mut row = format!("{:>4}", r.hand);
        for s in 0..sides {
            row.push_str(&format!("  {:>w$}", c[s], w = width[s]));
        }
        out.push(row);
    }
    out
}

fn revealed(g: &crate::game::Game) -> Vec<String> {
    let hands = g.visible_hands();
    let r = g.result();
    (0..g.rules().players)
        .map(Seat)
        .filter_map(|s| {
            hands[s].map(|t| {
                let pips = r.map_or(t.pips() as u16, |r| r.pips[s]);
                let list = if t.is_empty() {
                    "-".to_string()
                } else {
                    t.iter()
                        .map(|x| format!("[{}|{}]", x.hi(), x.lo()))
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                format!(
                    "{}: {list} ({})",
                    g.names()[s.idx()],
                    crate::game::count_of(pips, "pip", "pips")
                )
            })
        })
        .collect()
}

/// The key help page.
pub const HELP_KEYS: &str = "\
Left/Right, Tab   move along your hand
1-9               play that tile; with ten tiles or more type its number (1 then 2 for tile 12, or 1 then Enter for tile 1); a tile that fits one end is laid at once
Enter, Space      play the tile under the cursor
W E N S, 4-27     the end to lay it on, when it fits several (two digits for 10 and up; or arrows and Enter)
mouse             click a tile to play it, an end marker to lay it there
d / p             draw / pass (forced draws and passes happen by themselves)
c, digits, Enter  claim your points (manual scoring); m: Muggins
?                 the expert's evaluation of each legal action
v                 show or hide the computer players' hands (for learning)
s                 save the game record (JSON if the name ends in .json)
L, PgUp           the whole log
b                 the board alone, on the whole screen (for a crowded layout)
H, F1             this page
q, Esc            quit (asks first)";

/// What the screen shows: the tiles, the ends and the sprouts as the rules lay them out (a
/// game without a spinner has two ends and no sprouts), the last tile, the tally.
#[must_use]
pub fn legend(rules: &Rules) -> Vec<String> {
    use fiveup_engine::{SpinnerRule, SproutRule};
    let mut out = vec![
        "[6|4] /6\\|-|\\4/   a tile lying across, or up and down (top half first); a double lies \
         crosswise to its line"
            .to_string(),
    ];
    out.push(match rules.spinner {
        SpinnerRule::None => {
            "W E               an open end, named by its arm: W grows left from the lead, E \
             right; no double spins, so the layout has these two ends only"
                .to_string()
        }
        SpinnerRule::First => {
            "W E N S           an open end, named by its arm: W grows left from the lead, E \
             right, the spinner's sprouts N up and S down"
                .to_string()
        }
        SpinnerRule::All => {
            "W E N S 4 5 ...   an open end, named by its arm: W grows left from the lead, E \
             right, the first spinner's sprouts N up and S down; later spinners' sprouts are \
             numbered"
                .to_string()
        }
    });
    if rules.spinner != SpinnerRule::None && rules.sprouts == SproutRule::AfterBothSides {
        out.push(
            "+                 a spinner's sprout that is not open yet: it opens once both sides \
             of the spinner are covered"
                .to_string(),
        );
    }
    out.extend(
        [
            "bold, underlined  the tile laid last",
            "(+3)              three tiles of an arm not drawn for lack of room (a larger window \
             shows them)",
            "Tally             scores kept as on paper: | is 5, X is 10, # is a finished figure \
             of 50, +n points that are not a multiple of 5; 135 is ## X X X |",
        ]
        .map(str::to_string),
    );
    out
}

/// The rules that explain the screen, as `rules` has them: how a count scores, who leads the
/// first hand and with what, later leads, Cross Dominoes' waiting arms, manual scoring.
#[must_use]
pub fn rules_legend(rules: &Rules) -> Vec<String> {
    use fiveup_engine::{
        FirstLead, GameEnd, MugginsCall, NextLead, NoDouble, PlayScoring, SpinnerRule,
    };
    let row = |name: &str, text: String| format!("{name:<18}{text}");
    let mut out = Vec::new();
    let scoring = match rules.play_scoring {
        PlayScoring::Fives => "A count that is a multiple of 5 scores it.".to_string(),
        PlayScoring::FivesAndThrees => "A count that divides by 5 or by 3 scores one point \
            for each 5 and one for each 3 it holds (15 scores 3 + 5 = 8)."
            .to_string(),
        PlayScoring::None => "In this game counts score nothing: points come only from the \
            tiles left in hand at the end of a hand."
            .to_string(),
    };
    let parts = if rules.spinner == SpinnerRule::None {
        "the sum of the ends: the outer half of each end tile, and both halves of a double lying \
         at an end"
    } else {
        "the sum of the ends: the outer half of each end tile, both halves of a double lying at \
         an end, and both halves of a spinner until two tiles lie against it; an empty sprout \
         adds nothing"
    };
    out.push(row(
        "Count",
        format!(
            "{parts}. The table panel shows the parts (W 6 + E 1 + 5-5=10). {scoring}{}",
            if rules.cribbage_scale {
                " Every score is divided by 5 (the cribbage scale)."
            } else {
                ""
            }
        ),
    ));
    let spins = rules.spinner != SpinnerRule::None;
    let no_double = match rules.no_double {
        NoDouble::Redeal => "with no double dealt the tiles are dealt again",
        NoDouble::DrawUntilDouble => {
            "with no double dealt the players draw in turn until one draws a double, and lead it"
        }
        NoDouble::HeaviestTile => "with no double dealt the holder of the heaviest tile leads it",
        NoDouble::EachDraws => {
            "with no double dealt every player draws one tile, then the highest double (or the \
             heaviest tile) leads"
        }
    };
    let first = match rules.first_lead {
        FirstLead::HighestDouble => format!(
            "the first hand is led by whoever holds the highest double, and must be led with \
             it{}{}; {no_double}.",
            if rules.play_scoring == PlayScoring::None {
                ""
            } else {
                ": nobody picks a lead that scores at once"
            },
            if spins {
                ", and that double is the spinner the layout grows from"
            } else {
                ""
            }
        ),
        FirstLead::HighestDoubleAny => format!(
            "the first hand is led by whoever holds the highest double, with any tile they \
             choose (the double need not be led); {}.",
            match rules.no_double {
                NoDouble::Redeal => "with no double dealt the tiles are dealt again",
                NoDouble::DrawUntilDouble => {
                    "with no double dealt the players draw in turn until one draws a double, \
                     and that player leads any tile"
                }
                NoDouble::HeaviestTile => {
                    "with no double dealt the holder of the heaviest tile leads any tile"
                }
                NoDouble::EachDraws => {
                    "with no double dealt every player draws one tile, then the holder of the \
                     highest double (or the heaviest tile) leads any tile"
                }
            }
        ),
        FirstLead::Lot => "the first leader is chosen by lot (as part of the deal) and leads \
            any tile; the log says who the lot chose."
            .to_string(),
        FirstLead::TopDouble => format!(
            "the first hand is led by whoever holds {0}-{0}, the set's highest double, and must \
             be led with it; when nobody was dealt it the tiles are dealt again.",
            rules.set
        ),
    };
    let later = match rules.next_lead {
        NextLead::Winner => format!(
            " Later hands: the winner of the hand before leads any tile; after a blocked hand {}.",
            if rules.first_lead == FirstLead::Lot {
                "the lead is by lot again"
            } else {
                "the first hand's rule leads again"
            }
        ),
        NextLead::Rotate => " Later hands: the lead passes clockwise, with any tile.".to_string(),
        NextLead::FirstLead => " Every later hand opens by the first hand's rule.".to_string(),
    };
    out.push(row("The lead", format!("{first}{later}")));
    if rules.cross_first {
        out.push(row(
            "The cross",
            "Cross Dominoes: once the first double is laid, the next tiles must go on its four \
             sides (W, E, N, S) before any arm grows further. Until the cross is complete the \
             arms that wait show their names in lower case past their ends (w, e) and the table \
             panel lists them under Wait for the cross; only the double's free sides are open."
                .to_string(),
        ));
    }
    let mut drawing = if !rules.drawing {
        "there is no drawing: a player who cannot lay a tile passes.".to_string()
    } else if rules.draw_one {
        "a player who cannot lay a tile draws one tile from the boneyard and lays it if it \
         fits; if it does not, the player passes: one draw a turn, however full the boneyard."
            .to_string()
    } else {
        "a player who cannot lay a tile draws from the boneyard until a tile fits; with nothing \
         left to draw, the player passes."
            .to_string()
    };
    if rules.drawing && rules.voluntary_draw {
        drawing.push_str(" A player may also draw when able to lay, one tile at a time.");
    }
    if rules.drawing && rules.boneyard_keep > 0 {
        drawing.push_str(&format!(
            " The last {} of the boneyard {} never drawn.",
            crate::game::count_of(rules.boneyard_keep, "tile", "tiles"),
            if rules.boneyard_keep == 1 {
                "is"
            } else {
                "are"
            }
        ));
    }
    out.push(row("Drawing", drawing));
    if rules.manual_scoring {
        let who = match rules.muggins_call {
            MugginsCall::Next => "the next player, before acting,",
            MugginsCall::Any => {
                "any opponent, each at their turn before acting until the turn comes back to \
                 the side that missed them,"
            }
        };
        out.push(row(
            "Manual scoring",
            format!(
                "you add up the count yourself and claim it; points you miss can be taken by \
                 {who} with Muggins (m)."
            ),
        ));
    }
    let target = if rules.exact_target {
        format!("exactly {}", rules.target)
    } else {
        rules.target.to_string()
    };
    let mut end = match rules.game_end {
        GameEnd::Immediate => format!(
            "the first side to reach {target} wins at once, in the middle of a hand if it comes \
             to that."
        ),
        GameEnd::FinishHand => format!(
            "the hand in which a side reaches {target} is finished; then the highest score at or \
             over the target wins (a tie plays another hand)."
        ),
    };
    match (rules.hand_limit, rules.effective_hand_limit()) {
        (_, 0) => {}
        (0, n) => end.push_str(&format!(
            " Under award=subtract-own scores may fall, so the game also ends after hand {n} at \
             the latest: then the highest score wins (a tie plays another hand)."
        )),
        (_, n) => end.push_str(&format!(
            " The game also ends after hand {n} at the latest (hands={n}): then the highest \
             score wins (a tie plays another hand)."
        )),
    }
    out.push(row("End of the game", end));
    out
}

/// The help page's lines: the keys, the legend of the screen, and this game's rules.
#[must_use]
pub fn help_text(rules: &Rules) -> Vec<String> {
    let mut out = vec!["Keys".to_string()];
    out.extend(HELP_KEYS.lines().map(str::to_string));
    out.push(String::new());
    out.push("The screen and the rules".to_string());
    out.extend(legend(rules));
    out.extend(rules_legend(rules));
    out.push(String::new());
    out.push(format!("{:<18}{}", "This game", rules.to_options_string()));
    out
}

// ---------------------------------------------------------------------------------------------
// The replay viewer

fn replay_screen(f: &mut Frame, area: Rect, r: &ReplayScreen, theme: Theme) {
    let state = r.state();
    let rules = r.record.rules;
    let names: Vec<String> = display_names(&r.record.seats, rules.players);
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
    // The message (the action shown and the expert's verdict) wraps over up to three rows,
    // never cut.
    let mut last = state
        .log()
        .last()
        .map(|e| describe(e, &names))
        .unwrap_or_else(|| "The hand is dealt.".into());
    if r.verdicts {
        last = format!("{last} {}", r.verdict_text());
    }
    let message = wrap_plain(&last, usize::from(area.width.max(1)));
    let message_rows = (message.len() as u16).clamp(1, 3);
    let bottom_h = 2 + u16::from(players) + message_rows + 1;
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
        waiting: board::waiting_arms(
            &LayoutTree::from_history(&rules, state.log()),
            layout.cross_pending(),
        ),
        tree: LayoutTree::from_history(&rules, state.log()),
        count: Some(layout.count()),
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
        last: last_tile(state.log()),
        overlay: None,
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
    for (i, l) in message.iter().take(usize::from(message_rows)).enumerate() {
        put(f, area.x, y + i as u16, l, theme.accent(), area);
    }
    put(
        f,
        area.x,
        y + message_rows,
        "Left/Right step  Up/Down hand  Home/End  e expert  ? help  q quit",
        theme.dim(),
        area,
    );
    if r.help {
        let lines: Vec<String> = [
            "Right, Space, l   the next action (into the next hand at the end)",
            "Left, Backspace   the action before",
            "Down, PgDn, n     the next hand; Up, PgUp, p: the hand before",
            "Home, End         the start or the end of the hand",
            "e                 the expert's verdict on each decision (on or off): best, as good as the best within the noise, or what it lost and the best play",
            "q, Esc            quit",
        ]
        .iter()
        .map(|s| (*s).to_string())
        .collect();
        text_box(f, body, "Replay keys", &lines, "any key closes", 0, theme);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joined_pieces_wrap_within_the_width_and_keep_every_separator() {
        let parts: Vec<String> = ["2-2=4", "E 2", "N 4", "5-5=10", "S 6", "4 3", "5 1"]
            .iter()
            .map(|s| (*s).to_string())
            .collect();
        for width in [12, 20, 28, 40] {
            let lines = join_wrapped("Count 10 (scores 10) = ", &parts, " + ", width);
            for l in &lines {
                assert!(
                    l.chars().count() <= width.max(24),
                    "{l:?} is wider than {width}"
                );
            }
            let joined = lines
                .join(" ")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            assert!(
                joined.ends_with("2-2=4 + E 2 + N 4 + 5-5=10 + S 6 + 4 3 + 5 1"),
                "{joined}"
            );
        }
    }
}
