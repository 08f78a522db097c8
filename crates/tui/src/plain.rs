//! `fiveup play --plain`: the game as lines of text, for pipes and screen readers.
//!
//! Every action is printed as a sentence as it happens. When it is the human's turn the game
//! prints a short status and a line starting `Legal:` with the legal actions in record
//! notation, then reads one command per line. With no human seat the computers play the whole
//! game unattended; the log and the final score are printed.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use fiveup_engine::{Action, ArmId, Phase, Seat, Side, Tile, View};

use crate::game::{Game, Setup};
use crate::tally::tally;

/// The commands, for `help`.
pub const HELP: &str = "\
Commands:
  hand              your tiles, numbered, with the ends each one fits
  ends              the open ends and the pips showing on them
  count             the count of the open ends
  scores            every score, in points and as the paper tally
  tiles             tiles left in each hand and in the boneyard
  board             the layout, arm by arm
  log [N]           the whole log, or its last N lines
  play TILE [END]   lay a tile: play 6-4 W, play 6-4@W, play 3 (the third tile in
                    your hand); the end may be left out when the tile fits only one
  6-4 W, 6-4@W, 3   the same without the word play
  draw | pass       draw from the boneyard, or pass when you cannot play or draw
  claim N           claim N points for your play (manual scoring; claim 0: none)
  muggins           take the points the previous player did not claim
  hint              the expert's evaluation of each legal action
  show hands        show the computer players' hands (for learning); hide hands
  save FILE         save the game record (JSON if FILE ends in .json)
  next              deal the next hand once a hand is over
  again             a new game with the same players once the game is over
  quit              stop (the record is saved first if --save was given)";

/// A tile in the hand and the arms it may be laid on (`None` in the list: a lead).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct HandTile {
    /// The tile.
    pub tile: Tile,
    /// Where it may go now (empty: not playable).
    pub arms: Vec<Option<ArmId>>,
}

/// The viewer's hand, in the engine's tile order, with where each tile fits.
#[must_use]
pub fn hand_tiles(view: &View) -> Vec<HandTile> {
    let legal = view.legal_actions();
    view.hand()
        .iter()
        .map(|tile| HandTile {
            tile,
            arms: legal
                .iter()
                .filter_map(|a| match *a {
                    Action::Play { tile: t, arm } if t == tile => Some(arm),
                    _ => None,
                })
                .collect(),
        })
        .collect()
}

/// The open ends: `W 5, E 3`.
#[must_use]
pub fn ends_text(view: &View) -> String {
    let l = view.layout();
    if l.is_empty() {
        return "none: the table is empty".into();
    }
    let v: Vec<String> = l
        .open_arms()
        .map(|a| format!("{a} {}", l.arm_pip(a)))
        .collect();
    let mut text = if v.is_empty() {
        "none open".to_string()
    } else {
        v.join(", ")
    };
    if l.cross_pending() {
        // Cross Dominoes: the arms that wait until the cross is complete.
        let tree = fiveup_engine::LayoutTree::from_history(view.rules(), view.history());
        let waiting: Vec<String> = crate::board::waiting_arms(&tree, true)
            .iter()
            .map(|a| format!("{a} {}", l.arm_pip(*a)))
            .collect();
        if !waiting.is_empty() {
            text.push_str(&format!("; waiting for the cross: {}", waiting.join(", ")));
        }
    }
    text
}

/// Tiles left per seat and in the boneyard.
#[must_use]
pub fn tiles_text(game: &Game, view: &View) -> String {
    let n = game.rules().players;
    let mut v: Vec<String> = (0..n)
        .map(|p| {
            format!(
                "{} {}",
                game.names()[usize::from(p)],
                view.hand_sizes()[Seat(p)]
            )
        })
        .collect();
    v.push(format!("boneyard {}", view.boneyard_len()));
    v.join(", ")
}

/// Scores with their tallies.
#[must_use]
pub fn scores_text(game: &Game, view: &View) -> String {
    let r = game.rules();
    let v: Vec<String> = (0..r.sides())
        .map(|s| {
            let pts = view.scores()[Side(s)];
            format!("{} {} ({})", game.side_name(Side(s)), pts, tally(pts))
        })
        .collect();
    format!("{}; target {}", v.join(", "), r.target)
}

/// The layout, arm by arm: which double each sprout grows from, and which doubles spin.
#[must_use]
pub fn board_text(game: &Game, view: &View) -> String {
    use fiveup_engine::Anchor;
    let tree = fiveup_engine::LayoutTree::from_history(game.rules(), view.history());
    let Some(root) = tree.root else {
        return "The table is empty.".into();
    };
    // The spinners: every double that carries sprouts, and where it lies.
    let mut spinners: Vec<(fiveup_engine::Tile, String, Vec<String>)> = Vec::new();
    for a in &tree.arms {
        if let Anchor::Sprout { double, arm, .. } = a.anchor {
            let place = match arm {
                None => "the lead".to_string(),
                Some(x) => format!("on {x}"),
            };
            match spinners.iter_mut().find(|s| s.0 == double) {
                Some(s) => s.2.push(a.id.to_string()),
                None => spinners.push((double, place, vec![a.id.to_string()])),
            }
        }
    }
    let waiting = crate::board::waiting_arms(&tree, view.layout().cross_pending());
    let mut out = format!("Lead {root}.");
    if !waiting.is_empty() {
        out.push_str(" The cross is not complete: only the sides of its double take tiles.");
    }
    if spinners.is_empty() {
        out.push_str(" No double spins.");
    }
    for (d, place, arms) in &spinners {
        out.push_str(&format!(
            " Spinner {d} ({place}): sprouts {}.",
            arms.join(" and ")
        ));
    }
    for a in &tree.arms {
        let from = match a.anchor {
            Anchor::Root => String::new(),
            Anchor::Sprout { double, .. } => format!(" (a sprout of {double})"),
        };
        if waiting.contains(&a.id) {
            let tiles: Vec<String> = a
                .tiles
                .iter()
                .map(|p| format!("{}-{}", p.inner, p.outer))
                .collect();
            let tiles = if tiles.is_empty() {
                "no tiles".to_string()
            } else {
                tiles.join(" ")
            };
            out.push_str(&format!(
                " {}{from}: {tiles}, end {} waiting for the cross.",
                a.id, a.end
            ));
            continue;
        }
        if a.tiles.is_empty() && !a.open {
            out.push_str(&format!(
                " {}{from}: not open yet; it opens once both sides of the spinner are covered.",
                a.id
            ));
            continue;
        }
        let tiles: Vec<String> = a
            .tiles
            .iter()
            .map(|p| format!("{}-{}", p.inner, p.outer))
            .collect();
        let end = if a.open {
            format!("open end {}", a.end)
        } else {
            "closed".into()
        };
        if tiles.is_empty() {
            out.push_str(&format!(" {}{from}: no tiles, {end}.", a.id));
        } else {
            out.push_str(&format!(" {}{from}: {}, {end}.", a.id, tiles.join(" ")));
        }
    }
    out
}

/// Parse a play command's arguments (`6-4 W`, `6-4@W`, `3`) against the viewer's hand.
pub fn parse_play(view: &View, args: &[&str]) -> Result<Action, String> {
    let hand = hand_tiles(view);
    let (tile_word, end_word) = match args {
        [t] => match t.split_once('@') {
            Some((a, b)) => (a, Some(b)),
            None => (*t, None),
        },
        [t, e] => (*t, Some(*e)),
        _ => return Err("say which tile: play 6-4 W, or play 3 for your third tile".into()),
    };
    let tile = if let Ok(i) = tile_word.parse::<usize>() {
        if i == 0 || i > hand.len() {
            return Err(format!(
                "you have {}; {i} is not one of them",
                crate::game::count_of(hand.len() as i64, "tile", "tiles")
            ));
        }
        hand[i - 1].tile
    } else {
        let t = tile_word
            .parse::<Tile>()
            .map_err(|e| format!("{e}; write a tile as 6-4"))?;
        if !view.rules().tiles().contains(t) {
            return Err(format!(
                "not a tile: \"{tile_word}\" is not in a double-{} set",
                view.rules().set
            ));
        }
        t
    };
    let Some(entry) = hand.iter().find(|h| h.tile == tile) else {
        return Err(format!("{tile} is not in your hand"));
    };
    let arm = match end_word {
        Some(e) => Some(e.parse::<ArmId>()?),
        None => match entry.arms.as_slice() {
            [] => None,
            [one] => *one,
            many => {
                let ends: Vec<String> = many
                    .iter()
                    .map(|a| a.map_or("lead".into(), |a| a.to_string()))
                    .collect();
                return Err(format!(
                    "{tile} fits more than one end ({}); say which: play {tile} {}",
                    ends.join(", "),
                    ends[0]
                ));
            }
        },
    };
    let arm = if view.layout().is_empty() { None } else { arm };
    if !view.layout().is_empty() && arm.is_none() {
        return Err(format!("{tile} fits no open end"));
    }
    Ok(Action::Play { tile, arm })
}

/// The latest record of the game in play and the file it goes to (`--save`), shared with
/// whoever must save it when the program is interrupted (Ctrl-C).
pub type Latest =
    std::sync::Arc<std::sync::Mutex<Option<(fiveup_engine::notation::Record, Option<PathBuf>)>>>;

/// Options of the plain mode.
#[derive(Clone, Debug, Default)]
pub struct PlainOptions {
    /// Save the record here at the end (and on quit); a game played again, or a file that
    /// already holds a record, takes a numbered file instead (`game-2.txt`).
    pub save: Option<PathBuf>,
    /// Kept up to date with the game's record after every action, for whoever must save it
    /// when the program is interrupted (Ctrl-C).
    pub latest: Option<Latest>,
}

/// Save to the game's record file, saying so; a failure is said too and ends the program
/// with it.
fn save_to(game: &mut Game, path: Option<&PathBuf>, out: &mut dyn Write) -> Result<(), String> {
    if let Some(p) = path {
        match game.save(p) {
            Ok(()) => w(out, &format!("Record saved to {}.", p.display()))?,
            Err(e) => {
                w(out, &format!("The record was NOT saved: {e}."))?;
                return Err(format!("the record was not saved: {e}"));
            }
        }
    }
    Ok(())
}

/// The record file of a new game under `--save` (`base`): taken from the files no game of the
/// session took, and said when it is not `base`.
fn claim(
    base: Option<&PathBuf>,
    claimed: &mut Vec<PathBuf>,
    out: &mut dyn Write,
) -> Result<Option<PathBuf>, String> {
    let Some(base) = base else {
        return Ok(None);
    };
    let path = crate::game::record_file(base, claimed);
    if path != *base {
        let why = if claimed.contains(base) {
            "keeps the last game's record"
        } else {
            "already holds a record"
        };
        w(
            out,
            &format!(
                "{} {why}; this game's goes to {}.",
                base.display(),
                path.display()
            ),
        )?;
    }
    claimed.push(path.clone());
    Ok(Some(path))
}

fn w(out: &mut dyn Write, s: &str) -> Result<(), String> {
    writeln!(out, "{s}").map_err(|e| format!("cannot write output: {e}"))
}

/// Play in plain mode, reading commands from `input` and writing to `out`.
pub fn run(
    setup: Setup,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    opts: &PlainOptions,
) -> Result<(), String> {
    let mut game = Game::new(setup)?;
    let mut printed = 0;
    let mut prompted = false;
    // The game's progress when the status was last printed: it is printed again only after
    // something happened, the `Legal:` line after every command.
    let mut status_at: Option<(usize, Phase)> = None;
    w(
        out,
        &format!(
            "{} in plain mode: {}; {}. Type help for the commands.",
            crate::screen::game_title(game.rules()),
            game.rules().to_options_string(),
            seats_text(&game)
        ),
    )?;
    // Every game's record has a file of its own: none is written over.
    let mut claimed = Vec::new();
    let mut record_path = claim(opts.save.as_ref(), &mut claimed, out)?;
    // A run of draws is folded into its log line as it grows: the line is printed once the run
    // is over, so the lines printed are final.
    let mut last_text = String::new();
    loop {
        if let Some(latest) = &opts.latest {
            if let Ok(mut l) = latest.lock() {
                *l = Some((game.record(), record_path.clone()));
            }
        }
        let log = game.log();
        let waiting = game.computer_to_act() || game.forced_human_action().is_some();
        // The game over line waits for the last hand's summary (the tiles held, the award).
        let closing = game.phase() == Phase::GameOver
            && !prompted
            && log.last().is_some_and(|l| l.text.starts_with("Game over"));
        let settled = if (waiting && game.line_growing()) || closing {
            log.len() - 1
        } else {
            log.len()
        };
        // A line printed before and folded further since (you drew again): print it whole.
        let from = if printed > 0 && printed <= settled && log[printed - 1].text != last_text {
            printed - 1
        } else {
            printed
        };
        for l in &log[from.min(settled)..settled] {
            w(out, &l.text)?;
            if let Some(t) = &l.totals {
                w(out, &format!("Scores: {t}."))?;
            }
            last_text.clone_from(&l.text);
        }
        printed = settled.max(printed);
        match game.phase() {
            Phase::GameOver => {
                if !prompted {
                    final_lines(&game, out)?;
                    printed = game.log().len();
                    if let Some(l) = game.log().last() {
                        last_text.clone_from(&l.text);
                    }
                    save_to(&mut game, record_path.as_ref(), out)?;
                    prompted = true;
                }
                if game.human().is_none() {
                    return Ok(());
                }
                w(out, "Game over. Type again for a new game, or quit.")?;
            }
            Phase::HandOver => {
                if !prompted {
                    hand_over_lines(&game, out)?;
                    prompted = true;
                }
                if game.human().is_none() {
                    game.next_hand()?;
                    prompted = false;
                    continue;
                }
                w(out, "Hand over. Type next for the next hand.")?;
            }
            Phase::Play | Phase::Claim => {
                prompted = false;
                if game.computer_to_act() {
                    if game.computer_step().is_none() {
                        return Err("a computer player could not move".into());
                    }
                    continue;
                }
                if let Some(a) = game.forced_human_action() {
                    let why = if a == Action::Draw {
                        "You have nothing to play: you draw."
                    } else if game.drew_once() {
                        "The tile you drew does not fit, and you draw once a turn: you pass."
                    } else {
                        "You have nothing to play and nothing to draw: you pass."
                    };
                    // Once for a run of draws, whose tiles the log line then lists.
                    if !game.line_growing() {
                        w(out, why)?;
                    }
                    game.act(a)?;
                    continue;
                }
                let now = Some((game.log().len(), game.phase()));
                turn_lines(&game, out, status_at != now)?;
                status_at = now;
            }
        }
        out.flush().map_err(|e| e.to_string())?;
        let mut line = String::new();
        let n = input.read_line(&mut line).map_err(|e| e.to_string())?;
        if n == 0 {
            save_to(&mut game, record_path.as_ref(), out)?;
            w(out, "End of input: goodbye.")?;
            return Ok(());
        }
        match command(&mut game, line.trim(), out)? {
            Flow::Go => {}
            Flow::Quit => {
                save_to(&mut game, record_path.as_ref(), out)?;
                w(out, "Goodbye.")?;
                return Ok(());
            }
            Flow::Again => {
                game = game.play_again()?;
                record_path = claim(opts.save.as_ref(), &mut claimed, out)?;
                printed = 0;
                last_text.clear();
                prompted = false;
            }
        }
    }
}

enum Flow {
    Go,
    Quit,
    Again,
}

fn seats_text(game: &Game) -> String {
    game.setup()
        .seats
        .iter()
        .zip(game.names())
        .map(|(k, n)| match k {
            crate::game::SeatKind::Human => format!("{n}: human"),
            crate::game::SeatKind::Computer(l) => format!("{n}: {l}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn turn_lines(game: &Game, out: &mut dyn Write, status: bool) -> Result<(), String> {
    let v = game.view();
    let hand: Vec<String> = hand_tiles(&v)
        .iter()
        .enumerate()
        .map(|(i, h)| {
            format!(
                "{}) {}{}",
                i + 1,
                h.tile,
                if h.arms.is_empty() { "" } else { "*" }
            )
        })
        .collect();
    if status && v.phase() == Phase::Claim {
        w(
            out,
            "Your play: claim its points (claim N; claim 0 for none).",
        )?;
    } else if status {
        let count = if game.counting_hidden() {
            String::new()
        } else {
            format!(" Count {}.", v.layout().count())
        };
        w(
            out,
            &format!(
                "Your turn. Ends: {}.{count} Hand: {} (* playable).",
                ends_text(&v),
                hand.join(" ")
            ),
        )?;
    }
    let legal: Vec<String> = v.legal_actions().iter().map(ToString::to_string).collect();
    w(out, &format!("Legal: {}", legal.join(" ")))
}

fn hand_over_lines(game: &Game, out: &mut dyn Write) -> Result<(), String> {
    let hands = game.visible_hands();
    for p in 0..game.rules().players {
        if let Some(t) = hands[Seat(p)] {
            w(
                out,
                &format!("{} held: {}", game.names()[usize::from(p)], hand_list(t)),
            )?;
        }
    }
    for l in game.award_explanation() {
        w(out, &l)?;
    }
    Ok(())
}

fn hand_list(t: fiveup_engine::TileSet) -> String {
    if t.is_empty() {
        "nothing".into()
    } else {
        t.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The end of a game: the last hand's summary (when it was scored), the log's game over line
/// (why it ended, when that was not the usual way), then the final score.
fn final_lines(game: &Game, out: &mut dyn Write) -> Result<(), String> {
    if game.result().is_some() {
        hand_over_lines(game, out)?;
    }
    if let Some(l) = game
        .log()
        .last()
        .filter(|l| l.text.starts_with("Game over"))
    {
        w(out, &l.text)?;
    }
    let v = game.view();
    let winner = game.winner().map_or("nobody".into(), |s| game.side_name(s));
    w(
        out,
        &format!(
            "Final score: {}. Winner: {winner}.",
            (0..game.rules().sides())
                .map(|s| format!("{} {}", game.side_name(Side(s)), v.scores()[Side(s)]))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    )
}

fn command(game: &mut Game, line: &str, out: &mut dyn Write) -> Result<Flow, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let v = game.view();
    let Some((&head, args)) = words.split_first() else {
        return Ok(Flow::Go);
    };
    let head_l = head.to_ascii_lowercase();
    let reply = |out: &mut dyn Write, s: &str| w(out, s);
    match head_l.as_str() {
        "help" | "?" | "h" => reply(out, HELP)?,
        "hand" => {
            let list: Vec<String> = hand_tiles(&v)
                .iter()
                .enumerate()
                .map(|(i, h)| {
                    let fits = if h.arms.is_empty() {
                        if v.layout().is_empty() {
                            "cannot lead".into()
                        } else {
                            "does not fit".into()
                        }
                    } else {
                        let ends: Vec<String> = h
                            .arms
                            .iter()
                            .map(|a| a.map_or("lead".into(), |a| a.to_string()))
                            .collect();
                        if v.layout().is_empty() {
                            "can lead".into()
                        } else {
                            format!("fits {}", ends.join(", "))
                        }
                    };
                    format!("{}) {} {fits}", i + 1, h.tile)
                })
                .collect();
            reply(out, &format!("Your hand: {}.", list.join("; ")))?;
        }
        "ends" => reply(out, &format!("Open ends: {}.", ends_text(&v)))?,
        "count" if game.counting_hidden() => reply(
            out,
            &format!(
                "Under manual scoring you add up the count yourself: the open ends are {}.",
                ends_text(&v)
            ),
        )?,
        "count" => {
            let c = v.layout().count();
            let scoring = fiveup_engine::State::count_points(game.rules(), c);
            reply(
                out,
                &format!(
                    "The count is {c}{}.",
                    if scoring > 0 {
                        format!(" (it scored {scoring})")
                    } else {
                        String::new()
                    }
                ),
            )?;
        }
        "scores" | "score" => reply(out, &format!("Scores: {}.", scores_text(game, &v)))?,
        "tiles" | "counts" => reply(out, &format!("Tiles: {}.", tiles_text(game, &v)))?,
        "board" | "layout" => reply(out, &board_text(game, &v))?,
        "log" => {
            let n = args
                .first()
                .and_then(|a| a.parse::<usize>().ok())
                .unwrap_or(usize::MAX);
            let log = game.log();
            for l in &log[log.len().saturating_sub(n)..] {
                reply(out, &l.text)?;
            }
        }
        "hint" => {
            let evals = game.hint();
            if evals.is_empty() {
                reply(out, "No hint: it is not your turn.")?;
            } else {
                let (unit, lines) = game.hint_lines(&evals);
                reply(out, &format!("Expert's evaluation ({unit}), best first:"))?;
                for l in lines {
                    reply(out, &format!("  {l}"))?;
                }
            }
        }
        "show" => {
            game.show_hands = true;
            reply(out, "Computer hands are shown.")?;
            let hands = game.visible_hands();
            for p in 0..game.rules().players {
                if let Some(t) = hands[Seat(p)] {
                    reply(
                        out,
                        &format!("{}: {}", game.names()[usize::from(p)], hand_list(t)),
                    )?;
                }
            }
        }
        "hide" => {
            game.show_hands = false;
            reply(out, "Computer hands are hidden.")?;
        }
        "save" => match args.first() {
            Some(p) => match game.save(std::path::Path::new(p)) {
                Ok(()) => reply(out, &format!("Record saved to {p}."))?,
                Err(e) => reply(out, &format!("Not saved: {e}"))?,
            },
            None => reply(out, "Say where: save FILE")?,
        },
        "quit" | "exit" | "q" => return Ok(Flow::Quit),
        "next" => {
            if let Err(e) = game.next_hand() {
                reply(out, &format!("Cannot: {e}."))?;
            }
        }
        "again" => {
            if game.phase() == Phase::GameOver {
                return Ok(Flow::Again);
            }
            reply(out, "The game is not over.")?;
        }
        "draw" | "d" => act(game, Action::Draw, out)?,
        "pass" | "p" => act(game, Action::Pass, out)?,
        "muggins" | "m" => act(game, Action::Muggins, out)?,
        "claim" | "c" => match args.first().map(|a| a.parse::<u16>()) {
            Some(Ok(n)) => act(game, Action::Claim(n), out)?,
            _ => reply(out, "Say how many points: claim 10 (claim 0 for none).")?,
        },
        "play" => match parse_play(&v, args) {
            Ok(a) => act(game, a, out)?,
            Err(e) => reply(out, &e)?,
        },
        _ => {
            // A bare action in record notation, or a tile (and an end).
            if let Ok(a) = head.parse::<Action>() {
                if matches!(a, Action::Play { .. }) && !head.contains('@') {
                    match parse_play(&v, &words) {
                        Ok(a) => act(game, a, out)?,
                        Err(e) => reply(out, &e)?,
                    }
                } else {
                    act(game, a, out)?;
                }
            } else if head.parse::<usize>().is_ok() {
                match parse_play(&v, &words) {
                    Ok(a) => act(game, a, out)?,
                    Err(e) => reply(out, &e)?,
                }
            } else {
                reply(out, &format!("Unknown command {head:?}; type help."))?;
            }
        }
    }
    Ok(Flow::Go)
}

fn act(game: &mut Game, a: Action, out: &mut dyn Write) -> Result<(), String> {
    if let Err(e) = game.act(a) {
        w(out, &format!("Not allowed: {e}."))?;
    }
    Ok(())
}

/// A record told hand by hand for the plain mode: every hand as dealt, every action, and how
/// each hand was scored.
pub fn replay_lines(record: &fiveup_engine::notation::Record) -> Result<Vec<String>, String> {
    let rules = record.rules;
    let names = &crate::game::display_names(&record.seats, rules.players);
    let game = record
        .replay()
        .map_err(|e| crate::game::replay_error_text(&e, names))?;
    let side_name = |s: Side| -> String {
        (0..rules.players)
            .map(Seat)
            .filter(|&p| rules.side_of(p) == s)
            .map(|p| names[p.idx()].clone())
            .collect::<Vec<_>>()
            .join(" & ")
    };
    let mut out = vec![format!(
        "Replay: {} players; {}.",
        rules.players,
        rules.to_options_string()
    )];
    for (h, rh) in game.hands.iter().enumerate() {
        let deal = &record.hands[h].deal;
        out.push(format!("Hand {}:", h + 1));
        for p in 0..rules.players {
            out.push(format!(
                "  {} {}",
                crate::game::agree(&names[usize::from(p)], "holds", "hold"),
                hand_list(deal.hand(Seat(p)))
            ));
        }
        for (i, e) in rh.log.iter().enumerate() {
            let prev = i.checked_sub(1).map(|j| &rh.log[j]);
            out.push(format!(
                "  {}",
                crate::game::describe_in(e, prev, names, &rules, false)
            ));
        }
        if let Some(r) = &rh.result {
            for l in crate::game::explain_award(&rules, r, names, side_name) {
                out.push(format!("  {l}"));
            }
        }
    }
    let scores: Vec<String> = (0..rules.sides())
        .map(|s| format!("{} {}", side_name(Side(s)), game.scores[usize::from(s)]))
        .collect();
    out.push(match game.winner {
        Some(w) => format!(
            "Final score: {}. Winner: {}.",
            scores.join(", "),
            side_name(w)
        ),
        None => format!(
            "Score so far (the game was not finished): {}.",
            scores.join(", ")
        ),
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::SeatKind;

    fn play(setup: Setup, input: &str) -> String {
        let mut out = Vec::new();
        run(
            setup,
            &mut input.as_bytes(),
            &mut out,
            &PlainOptions::default(),
        )
        .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn computers_play_a_whole_game_unattended() {
        let mut s = Setup::new(4);
        s.seats = vec![
            SeatKind::Computer("club".into()),
            SeatKind::Computer("greedy".into()),
        ];
        let text = play(s, "");
        assert!(text.contains("Final score:"), "{text}");
        assert!(text.contains("Game over:"), "{text}");
    }

    #[test]
    fn the_game_over_line_follows_the_last_hands_summary() {
        for seed in 1..=6 {
            let mut s = Setup::new(seed);
            s.seats = vec![
                SeatKind::Computer("club".into()),
                SeatKind::Computer("greedy".into()),
            ];
            let text = play(s, "");
            let lines: Vec<&str> = text.lines().collect();
            let over = lines
                .iter()
                .position(|l| l.starts_with("Game over: "))
                .expect("the game over line");
            assert_eq!(
                lines
                    .iter()
                    .filter(|l| l.starts_with("Game over: "))
                    .count(),
                1
            );
            assert!(lines[over + 1].starts_with("Final score: "), "{text}");
            // Every hand's summary, the last one's included, comes before it.
            let last = lines
                .iter()
                .rposition(|l| l.starts_with("Scored: "))
                .expect("a scored hand");
            assert!(last < over, "{text}");
        }
    }

    #[test]
    fn five_players_play_a_whole_double_nine_game_with_the_board_and_ends_commands() {
        let mut s = Setup::new(11);
        s.rules = fiveup_engine::Rules::parse("five-up set=9 players=5").expect("rules");
        s.seats = vec![
            SeatKind::Human,
            SeatKind::Computer("club".into()),
            SeatKind::Computer("greedy".into()),
            SeatKind::Computer("random".into()),
            SeatKind::Computer("club".into()),
        ];
        // The human asks for the board and the ends, then tries each tile by its number on
        // each end (refused tries change nothing), else draws or passes, until the game ends.
        let mut cycle = String::from("board\nends\n");
        for k in 1..=30 {
            cycle.push_str(&format!("play {k}\n"));
            for end in ["W", "E", "N", "S"] {
                cycle.push_str(&format!("play {k} {end}\n"));
            }
        }
        cycle.push_str("draw\npass\nnext\n");
        let input = cycle.repeat(400);
        let text = play(s, &input);
        assert!(text.contains("Final score:"), "{text}");
        for name in ["You", "West", "Northwest", "Northeast", "East"] {
            assert!(text.contains(name), "{name}");
        }
        assert!(
            text.contains("Lead 9-9") || text.contains("9-"),
            "double-nine tiles"
        );
        assert!(text.contains("Open ends:"));
    }

    #[test]
    fn cross_dominoes_says_which_arms_wait_for_the_cross() {
        let mut s = Setup::new(1);
        s.rules = fiveup_engine::Rules::parse("cross-dominoes").expect("rules");
        // Seed 1: North leads 3-3; every tile laid goes on a side of the cross until all four
        // are covered, and the rest wait.
        let mut input = String::new();
        for k in 1..=7 {
            input.push_str(&format!("play {k} W\nplay {k} E\n"));
        }
        input.push_str("board\nends\nquit\n");
        let text = play(s, &input);
        assert!(
            text.contains("Open ends: N 3, S 3; waiting for the cross: "),
            "{text}"
        );
        assert!(
            text.contains("The cross is not complete: only the sides of its double take tiles."),
            "{text}"
        );
        assert!(text.contains("waiting for the cross."), "{text}");
    }

    /// `South 20, North 35` (or `South +5, North +0`) -> [20, 35]
    fn numbers(t: &str) -> Vec<i32> {
        t.trim_end_matches('.')
            .split(", ")
            .map(|p| p.rsplit(' ').next().unwrap().parse().unwrap())
            .collect()
    }

    #[test]
    fn running_totals_follow_every_scoring_play_and_draws_are_one_line() {
        let mut last_play_scored = 0;
        for seed in 1..=12 {
            let mut s = Setup::new(seed);
            s.seats = vec![
                SeatKind::Computer("club".into()),
                SeatKind::Computer("random".into()),
            ];
            let text = play(s, "");
            let lines: Vec<&str> = text.lines().collect();
            let mut scoring = 0;
            for (i, l) in lines.iter().enumerate() {
                if l.contains(" and scored ") {
                    scoring += 1;
                    assert!(
                        lines[i + 1].starts_with("Scores: South "),
                        "{l} then {}",
                        lines[i + 1]
                    );
                    last_play_scored += usize::from(lines[i + 2].contains(" over: "));
                }
            }
            assert!(scoring > 3, "{text}");
            // The totals after the last play of a hand do not yet hold its award: totals plus
            // the awards make the scores the next hand starts from.
            let mut totals = vec![0, 0];
            for l in &lines {
                if let Some(t) = l.strip_prefix("Scores: ") {
                    totals = numbers(t);
                }
                if let Some(t) = l.strip_prefix("Scored: ") {
                    let n = numbers(t);
                    totals = vec![totals[0] + n[0], totals[1] + n[1]];
                }
                if let Some((_, sc)) = l.split_once(" dealt; scores ") {
                    assert_eq!(totals, numbers(sc), "{l}\n{text}");
                }
            }
            for w in lines.windows(2) {
                let who = |t: &str| t.split(" drew ").next().map(str::to_string);
                if w[0].contains(" drew ") && w[1].contains(" drew ") {
                    assert_ne!(who(w[0]), who(w[1]), "{w:?}");
                }
            }
        }
        assert!(last_play_scored > 0, "some hand ends with a scoring play");
    }

    #[test]
    fn board_names_the_spinner_and_the_double_each_sprout_grows_from() {
        let mut g = Game::new(Setup::new(2)).unwrap();
        for _ in 0..200 {
            let t = fiveup_engine::LayoutTree::from_history(g.rules(), g.view().history());
            if t.arms.len() >= 4 && g.human_to_act() {
                break;
            }
            if g.computer_to_act() {
                g.computer_step();
            } else {
                let a = g.view().legal_actions()[0];
                g.act(a).unwrap();
            }
        }
        let text = board_text(&g, &g.view());
        assert!(text.contains("Spinner "), "{text}");
        assert!(text.contains("(a sprout of "), "{text}");
    }

    #[test]
    fn manual_scoring_leaves_the_count_to_the_player() {
        let mut s = Setup::new(3);
        s.rules.manual_scoring = true;
        let text = play(s, "count\nquit\n");
        assert!(text.contains("you add up the count yourself"), "{text}");
        assert!(!text.contains(" Count "), "{text}");
        assert!(!text.contains(": count "), "{text}");
    }

    #[test]
    fn a_record_that_cannot_be_saved_is_said_after_the_score_and_fails() {
        let mut s = Setup::new(4);
        s.seats = vec![
            SeatKind::Computer("club".into()),
            SeatKind::Computer("greedy".into()),
        ];
        let mut out = Vec::new();
        let opts = PlainOptions {
            save: Some(PathBuf::from("/nonexistent-fiveup-dir/x.txt")),
            latest: None,
        };
        let r = run(s, &mut "".as_bytes(), &mut out, &opts);
        let text = String::from_utf8(out).unwrap();
        assert!(r.is_err(), "{text}");
        assert!(text.contains("Final score:"), "{text}");
        assert!(text.contains("NOT saved"), "{text}");
    }

    /// Commands that play whatever the hand allows, `rounds` times over.
    fn any_moves(rounds: usize) -> String {
        let mut cycle = String::new();
        for k in 1..=9 {
            cycle.push_str(&format!("play {k}\n"));
            for end in ["W", "E", "N", "S"] {
                cycle.push_str(&format!("play {k} {end}\n"));
            }
        }
        cycle.push_str("draw\npass\nnext\n");
        cycle.repeat(rounds)
    }

    #[test]
    fn again_keeps_every_games_record_in_a_file_of_its_own() {
        let dir = std::env::temp_dir().join(format!("fiveup-plain-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("again.txt");
        let second = dir.join("again-2.txt");
        let _ = std::fs::remove_file(&path);
        let _ = std::fs::remove_file(&second);
        let mut s = Setup::new(5);
        s.rules = fiveup_engine::Rules::parse("five-up target=50").unwrap();
        let input = format!("{}again\n{}quit\n", any_moves(60), any_moves(60));
        let mut out = Vec::new();
        let opts = PlainOptions {
            save: Some(path.clone()),
            latest: None,
        };
        run(s, &mut input.as_bytes(), &mut out, &opts).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.matches("Final score:").count(), 2, "{text}");
        assert!(
            text.contains(&format!("Record saved to {}.", path.display())),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "{} keeps the last game's record; this game's goes to {}.",
                path.display(),
                second.display()
            )),
            "{text}"
        );
        assert!(
            text.contains(&format!("Record saved to {}.", second.display())),
            "{text}"
        );
        let first = std::fs::read_to_string(&path).unwrap();
        let other = std::fs::read_to_string(&second).unwrap();
        assert_ne!(first, other, "two games, two records");
        // The first game's record is its own: its seed, finished.
        let r = fiveup_engine::notation::Record::parse(&first).unwrap();
        assert!(r.replay().unwrap().winner.is_some());
    }

    #[test]
    fn commands_answer_and_bad_input_changes_nothing() {
        let text = play(
            Setup::new(2),
            "help\nhand\nends\ncount\nscores\ntiles\nboard\nlog 2\nplay 9-9\nfoo\npass\nshow hands\nhide\nquit\n",
        );
        assert!(text.contains("Commands:"));
        assert!(text.contains("Your hand:"));
        assert!(text.contains("Open ends:"));
        assert!(
            text.contains("Scores: You 0 (-), North 0 (-); target 250."),
            "{text}"
        );
        assert!(text.contains("Unknown command \"foo\""));
        assert!(text.contains("Goodbye."));
    }
}
