//! `fiveup play`: Five Up in the terminal against the computer, in full screen or as plain
//! lines, and the replay viewer.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use fiveup_engine::notation::Record;

use fiveup_engine::Preset;
use fiveup_tui::app::{App, ReplayScreen, StartForm};
use fiveup_tui::game::{Game, SeatKind, Setup};
use fiveup_tui::plain::{self, PlainOptions};
use fiveup_tui::term::{self, RunOptions};

/// Options of `fiveup play`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Players: 2 to 8 (taken from --seats when that is given; else from --rules, else the
    /// preset's smallest table).
    #[arg(long)]
    pub players: Option<u8>,
    /// The set: 6 (double-six, the default), 9 (double-nine) or 12 (double-twelve); the same as
    /// `--option set=N`.
    #[arg(long)]
    pub set: Option<u8>,
    /// Four or six players in two partnerships, even seats against odd (the default for four
    /// and six players).
    #[arg(long, conflicts_with = "individual")]
    pub partners: bool,
    /// Four or six players each for themselves.
    #[arg(long)]
    pub individual: bool,
    /// Who sits in each seat, seat 0 first, comma-separated: `human` or a computer level
    /// (beginner, casual, club, strong, master) or any player spec (random, greedy, club,
    /// neural, pimc, expert; oracle cheats by seeing every hand). Without `human` every seat is a
    /// computer and the game plays itself: `--seats club,master`.
    #[arg(long, value_name = "LIST")]
    pub seats: Option<String>,
    /// The level of every computer seat when --seats is not given.
    #[arg(long, default_value = "club")]
    pub level: String,
    /// Rules preset, optionally followed by options: `cross`, `"five-up target=150"`.
    #[arg(long, default_value = "five-up")]
    pub rules: String,
    /// One more option, `key=value` (repeatable), e.g. `--option sprouts=at-once`.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// The target score (default: the preset's).
    #[arg(long)]
    pub target: Option<u16>,
    /// The game's seed (deals and computer choices); default: from the clock.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Step through a saved record (text or JSON) instead of playing.
    #[arg(long, value_name = "FILE")]
    pub replay: Option<PathBuf>,
    /// Line-based mode for pipes and screen readers: commands on standard input.
    #[arg(long)]
    pub plain: bool,
    /// Save the game record to this file at the end (JSON if it ends in `.json`); also the
    /// default name for saving during the game.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Milliseconds to pause before each computer move in full screen.
    #[arg(long, default_value_t = 700)]
    pub delay: u64,
}

/// The options given besides the rules string: `--set`, `--option`, `--target`.
fn extra_options(a: &Args) -> Vec<String> {
    let mut options = Vec::new();
    if let Some(s) = a.set {
        options.push(format!("set={s}"));
    }
    options.extend(a.options.iter().cloned());
    if let Some(t) = a.target {
        options.push(format!("target={t}"));
    }
    options
}

/// The seats the flags describe.
fn seats_from(a: &Args) -> Result<Vec<SeatKind>, String> {
    if let Some(list) = &a.seats {
        let seats: Vec<SeatKind> = list
            .split(',')
            .map(str::trim)
            .map(|s| {
                if s.eq_ignore_ascii_case("human") || s.eq_ignore_ascii_case("you") {
                    SeatKind::Human
                } else {
                    SeatKind::Computer(s.to_string())
                }
            })
            .collect();
        if let Some(p) = a.players {
            if usize::from(p) != seats.len() {
                return Err(format!(
                    "--players {p} but --seats names {} seats",
                    seats.len()
                ));
            }
        }
        return Ok(seats);
    }
    let n = match a.players {
        Some(n) => n,
        // The table the rules name (`party-twelve players=6`), else the preset's smallest.
        None => {
            let mut words = a.rules.clone();
            for o in extra_options(a) {
                words.push(' ');
                words.push_str(&o);
            }
            fiveup_engine::Rules::parse(&words)
                .map_err(|e| e.to_string())?
                .players
        }
    };
    if !(2..=8).contains(&n) {
        return Err(format!("--players must be 2 to 8, got {n}"));
    }
    let mut seats = vec![SeatKind::Human];
    for _ in 1..n {
        seats.push(SeatKind::Computer(a.level.clone()));
    }
    Ok(seats)
}

/// The setup the flags describe, checked.
fn setup_from(a: &Args) -> Result<(Setup, Preset, String), String> {
    let seats = seats_from(a)?;
    let players = u8::try_from(seats.len()).map_err(|_| "too many seats".to_string())?;
    let options = extra_options(a);
    // The count as the player gave it, for the error when the rules name another.
    let how = if a.seats.is_some() {
        format!("--seats names {players} seats")
    } else {
        format!("--players is {players}")
    };
    let rules = crate::selfplay::rules_for_table(
        &a.rules,
        Some((players, how)),
        a.partners,
        a.individual,
        &options,
    )?;
    let mut words = a.rules.split_whitespace();
    let preset = words
        .next()
        .and_then(|p| p.parse::<Preset>().ok())
        .unwrap_or(Preset::FiveUp);
    let mut extra: Vec<String> = words.map(str::to_string).collect();
    extra.extend(a.options.iter().cloned());
    if let Some(s) = a.set {
        extra.push(format!("set={s}"));
    }
    let seed = a.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_secs() ^ u64::from(d.subsec_nanos()))
    });
    let setup = Setup { rules, seats, seed };
    setup.validate()?;
    Ok((setup, preset, extra.join(" ")))
}

/// On Ctrl-C (SIGINT) in plain mode, save the latest record to its game's file (when `--save`
/// is given) before ending, as the end of input and `quit` do, and say so as full screen does. The terminal's raw mode
/// makes Ctrl-C a key in full screen; in plain mode it is a signal, caught here with tokio's
/// handler on a thread of its own.
fn save_on_interrupt(save: Option<PathBuf>, latest: plain::Latest) {
    // The game starts only once the handler is in place, so a Ctrl-C at any moment is caught
    // (on a busy machine the thread may start late).
    let (ready_tx, ready_rx) = std::sync::mpsc::channel::<()>();
    std::thread::spawn(move || {
        let Ok(rt) = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        else {
            return;
        };
        let caught = rt.block_on(async {
            // The first poll registers the handler: say so, then wait for the signal.
            let mut wait = std::pin::pin!(tokio::signal::ctrl_c());
            let first = std::future::poll_fn(|cx| {
                std::task::Poll::Ready(std::future::Future::poll(wait.as_mut(), cx))
            })
            .await;
            let _ = ready_tx.send(());
            match first {
                std::task::Poll::Ready(r) => r,
                std::task::Poll::Pending => wait.await,
            }
        });
        if caught.is_err() {
            return;
        }
        let latest = latest.lock().ok().and_then(|l| l.clone());
        // The game's own file: the --save file, or a numbered one for a later game.
        let path = latest
            .as_ref()
            .map_or(save, |(_, p): &(Record, Option<PathBuf>)| p.clone());
        let saved = latest.map(|(r, _)| match &path {
            Some(p) => fiveup_tui::game::save_record(&r, p),
            None => Ok(()),
        });
        let (message, code) = fiveup_tui::game::interrupt_report(path.as_deref(), saved);
        // Standard error: the game's thread holds standard output's lock while it reads.
        eprintln!("\n{message}");
        std::process::exit(i32::from(code));
    });
    let _ = ready_rx.recv_timeout(std::time::Duration::from_secs(5));
}

fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// The full-screen game the flags describe: the start screen, filled in from the flags, when
/// the human sits in seat 0; other seatings start at once.
fn full_screen_app(setup: Setup, preset: Preset, extra: &str) -> Result<App, String> {
    Ok(if setup.seats.first() == Some(&SeatKind::Human) {
        App::start(StartForm::from_setup(&setup, preset, extra), (80, 24))
    } else {
        App::playing(Game::new(setup)?, (80, 24))
    })
}

/// Run `fiveup play`.
pub fn run(a: &Args) -> Result<(), String> {
    if let Some(path) = &a.replay {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let records = crate::replay::read_records(&text)?;
        let Some(record) = records.into_iter().next() else {
            return Err("the file holds no record".into());
        };
        if a.plain {
            for l in plain::replay_lines(&record)? {
                crate::outln!("{l}");
            }
            return Ok(());
        }
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into(),
        );
        let screen = ReplayScreen::new(record, &name)?;
        let mut app = App::replay(screen, (80, 24));
        app.no_color = no_color();
        let ended = term::run(
            app,
            RunOptions {
                delay: Duration::from_millis(a.delay),
            },
        )?;
        return interrupted(ended);
    }
    let (setup, preset, extra) = setup_from(a)?;
    // A game is not played for a record that cannot be written.
    if let Some(path) = &a.save {
        fiveup_tui::game::check_save_path(path)?;
    }
    if a.plain {
        let latest: plain::Latest = Arc::new(Mutex::new(None));
        save_on_interrupt(a.save.clone(), Arc::clone(&latest));
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        return plain::run(
            setup,
            &mut input,
            &mut out,
            &PlainOptions {
                save: a.save.clone(),
                latest: Some(latest),
            },
        );
    }
    let mut app = full_screen_app(setup, preset, &extra)?;
    app.no_color = no_color();
    app.set_save_path(a.save.clone());
    let ended = term::run(
        app,
        RunOptions {
            delay: Duration::from_millis(a.delay),
        },
    )?;
    interrupted(ended)
}

/// End as an interrupted program when Ctrl-C ended the game: the message, then status 130 (or
/// 1 when the record could not be saved), as in plain mode. A game quit says where each
/// record went.
fn interrupted(ended: term::Ended) -> Result<(), String> {
    match ended {
        term::Ended::Interrupted { message, status } => {
            eprintln!("{message}");
            std::process::exit(i32::from(status));
        }
        term::Ended::Quit { message } => {
            if let Some(m) = message {
                crate::outln!("{m}");
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use fiveup_tui::app::{Key, Screen};

    #[derive(clap::Parser)]
    struct Flags {
        #[command(flatten)]
        play: Args,
    }

    fn flags(words: &[&str]) -> Args {
        Flags::parse_from(std::iter::once("play").chain(words.iter().copied())).play
    }

    /// The documented `play --players 4 --level L --rules cross --seed 7` starts in full screen
    /// with three computers of level L, for every level the help names.
    #[test]
    fn every_level_is_played_as_named_in_full_screen() {
        for level in [
            "beginner", "casual", "club", "strong", "master", "random", "greedy", "pimc", "expert",
            "oracle",
        ] {
            let a = flags(&[
                "--players",
                "4",
                "--level",
                level,
                "--rules",
                "cross",
                "--seed",
                "7",
            ]);
            let (setup, preset, extra) = setup_from(&a).expect("the flags are good");
            let mut app = full_screen_app(setup, preset, &extra).expect("an app");
            app.key(Key::Enter);
            let Screen::Play(p) = &app.screen else {
                panic!("{level}: the game starts");
            };
            let seats: Vec<SeatKind> = p.game.setup().seats.clone();
            assert_eq!(
                seats[1..],
                [
                    SeatKind::Computer(level.into()),
                    SeatKind::Computer(level.into()),
                    SeatKind::Computer(level.into())
                ],
                "{level}"
            );
            assert_eq!(
                p.game.record().tags.get("Players").cloned(),
                Some(format!(
                    "You: human, West: {level}, North: {level}, East: {level}"
                )),
                "{level}: the record names the level played"
            );
            // --seats too.
            let a = flags(&["--seats", &format!("human,{level}"), "--seed", "7"]);
            let (setup, preset, extra) = setup_from(&a).expect("the flags are good");
            let mut app = full_screen_app(setup, preset, &extra).expect("an app");
            app.key(Key::Enter);
            let Screen::Play(p) = &app.screen else {
                panic!("{level}: the game starts");
            };
            assert_eq!(p.game.setup().seats[1], SeatKind::Computer(level.into()));
        }
    }
}
