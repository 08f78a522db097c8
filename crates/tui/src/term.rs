//! The terminal runner: raw mode, the alternate screen and the mouse, events into the
//! [`App`], and the pause before each computer move. This is the only module that touches
//! the terminal and the clock.

use std::io::stdout;
use std::time::{Duration, Instant};

use crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyCode, KeyEventKind, KeyModifiers,
    MouseButton, MouseEventKind,
};
use crossterm::execute;

use crate::app::{App, Key};
use crate::ui;

/// How the full-screen game runs.
#[derive(Clone, Copy, Debug)]
pub struct RunOptions {
    /// The pause before each computer move, so a person can follow it.
    pub delay: Duration,
}

/// Map a terminal key to the app's keys (`None`: ignored).
#[must_use]
pub fn map_key(code: KeyCode) -> Option<Key> {
    Some(match code {
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Enter => Key::Enter,
        KeyCode::Esc => Key::Esc,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Tab => Key::Tab,
        KeyCode::BackTab => Key::BackTab,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        KeyCode::F(n) => Key::F(n),
        _ => return None,
    })
}

/// Map a terminal key with its modifiers: a letter with Ctrl held is [`Key::Ctrl`] (Ctrl-C
/// interrupts, Ctrl-U clears a text field), never the letter itself.
#[must_use]
pub fn map_key_event(code: KeyCode, modifiers: KeyModifiers) -> Option<Key> {
    match code {
        KeyCode::Char(c) if modifiers.contains(KeyModifiers::CONTROL) => {
            Some(Key::Ctrl(c.to_ascii_lowercase()))
        }
        _ => map_key(code),
    }
}

/// How the full-screen game ended.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Ended {
    /// The player quit: what to say once the screen is restored (where each record went).
    Quit {
        /// The message, if there is anything to say.
        message: Option<String>,
    },
    /// Ctrl-C: what to say once the screen is restored, and the exit status (130, as for an
    /// interrupted program, or 1 when the record could not be saved).
    Interrupted {
        /// The message.
        message: String,
        /// The exit status.
        status: u8,
    },
}

/// Run the app full-screen until the user quits.
pub fn run(mut app: App, opts: RunOptions) -> Result<Ended, String> {
    let mut terminal = ratatui::try_init()
        .map_err(|e| format!("cannot use the terminal ({e}); --plain plays without one"))?;
    let _ = execute!(stdout(), EnableMouseCapture);
    let result = (|| -> Result<(), String> {
        let size = terminal.size().map_err(|e| e.to_string())?;
        app.resize(size.width, size.height);
        let mut last = Instant::now();
        loop {
            let mut hits = Vec::new();
            terminal
                .draw(|f| hits = ui::render(&app, f))
                .map_err(|e| format!("cannot draw: {e}"))?;
            app.hits = hits;
            if app.quit {
                return Ok(());
            }
            let wait = if app.wants_tick() {
                opts.delay.saturating_sub(last.elapsed())
            } else {
                Duration::from_millis(500)
            };
            if event::poll(wait).map_err(|e| e.to_string())? {
                match event::read().map_err(|e| e.to_string())? {
                    Event::Key(k) if k.kind != KeyEventKind::Release => {
                        if let Some(key) = map_key_event(k.code, k.modifiers) {
                            app.key(key);
                        }
                    }
                    Event::Mouse(m) if m.kind == MouseEventKind::Down(MouseButton::Left) => {
                        app.click(m.column, m.row);
                    }
                    Event::Resize(w, h) => app.resize(w, h),
                    _ => {}
                }
            } else if app.wants_tick() && last.elapsed() >= opts.delay {
                app.tick();
                last = Instant::now();
            }
            if !app.wants_tick() {
                last = Instant::now();
            }
        }
    })();
    let _ = execute!(stdout(), DisableMouseCapture);
    ratatui::restore();
    result?;
    // Said after the screen is restored, so that it stays in view; the exit status says it too.
    if app.interrupted {
        let (message, status) = app.interrupt_report();
        return Ok(Ended::Interrupted { message, status });
    }
    match app.save_error.take() {
        Some(e) => Err(format!("the record was NOT saved: {e}")),
        None => Ok(Ended::Quit {
            message: app.farewell(),
        }),
    }
}
