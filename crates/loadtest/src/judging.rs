//! Other judgings replayed over a fair-play run's stored figures.
//!
//! The server judges an account after each analysed game: its last games' figures against the
//! honest band of its rating plus some rating deviations, flagged from a z-score
//! ([`fiveup_server::moderation::fairplay::Judging`]). A fair-play run keeps every account's
//! analysed games with the rating and deviation each was played at, so the same checks can be
//! replayed with other settings, through the server's own function
//! ([`fiveup_server::moderation::fairplay::judged`]), and the settings chosen from the error
//! rates they give. The replay of the server's own settings must find exactly the flags the
//! server raised: [`Grid::mismatches`] counts the accounts where it does not.

use std::fmt;

use fiveup_server::moderation::fairplay::WINDOW;
use fiveup_server::moderation::fairplay::{judged, Analysed, Judging, JUDGING};
use serde::Serialize;

use crate::fairplay::{AccountResult, AnalysedGame};

/// The first game after which `judging` flags an account whose analysed games are `games`
/// (oldest first), checking after each as the server does; `None`: never.
#[must_use]
pub fn first_flag(games: &[AnalysedGame], judging: Judging) -> Option<u32> {
    let window = WINDOW as usize;
    (1..=games.len()).find_map(|j| {
        // What the server read after game j: its last games, newest first.
        let seen: Vec<Analysed> = games[j.saturating_sub(window)..j]
            .iter()
            .rev()
            .map(|g| Analysed {
                game: String::new(),
                at: 0,
                figures: fiveup_bots::fairplay::GameFigures {
                    decisions: g.decisions,
                    agreed: g.agreed,
                    loss: g.loss,
                },
                rating: g.rating,
                deviation: g.deviation,
            })
            .collect();
        judged(&seen, judging)
            .is_some_and(|s| s.flagged)
            .then_some(j as u32)
    })
}

/// One population under one judging.
#[derive(Clone, Debug, Serialize)]
pub struct Cell {
    /// Accounts.
    pub accounts: usize,
    /// Flagged at any check.
    pub flagged: usize,
    /// Flagged within the honest accounts' game count.
    pub within_honest: usize,
    /// Games to be flagged, median (nearest rank; `None`: not within the games played).
    pub median: Option<u32>,
}

/// One judging's figures over every population.
#[derive(Clone, Debug, Serialize)]
pub struct Line {
    /// Rating deviations added to the rating before its band is taken.
    pub band_deviations: f64,
    /// The threshold.
    pub flag_z: f64,
    /// Honest accounts (all levels together): flagged, and the Wilson 95% interval of the
    /// share.
    pub honest: Cell,
    /// The share and its interval.
    pub false_positives: (f64, f64, f64),
    /// Each honest level, then each assisted population, in the run's order.
    pub populations: Vec<(String, Cell)>,
}

/// Judgings replayed over a run.
#[derive(Clone, Debug, Serialize)]
pub struct Grid {
    /// One line per judging.
    pub lines: Vec<Line>,
    /// The judging the run's server flagged with: (band deviations, threshold).
    pub server: (f64, f64),
    /// Accounts where the replay of the server's judging disagrees with the server's flags:
    /// the account, what the server found and what the replay finds.
    pub mismatches: Vec<String>,
    /// Games each honest account played (the most).
    pub honest_games: u32,
}

fn cell(flags: &[Option<u32>], honest_games: u32) -> Cell {
    let mut sorted: Vec<Option<u32>> = flags.to_vec();
    sorted.sort_by_key(|w| w.unwrap_or(u32::MAX));
    let median = crate::fairplay::quantile(&sorted, 0.5);
    Cell {
        accounts: flags.len(),
        flagged: flags.iter().filter(|f| f.is_some()).count(),
        within_honest: flags
            .iter()
            .filter(|f| f.is_some_and(|g| g <= honest_games))
            .count(),
        median,
    }
}

/// Replay every judging of `band_deviations` × `flag_zs` over `accounts` (a run's, in its
/// order: honest first), and compare the replay of the judging the run's server used
/// (`judged_with`, else [`JUDGING`]) with the server's flags.
#[must_use]
pub fn grid(accounts: &[AccountResult], band_deviations: &[f64], flag_zs: &[f64]) -> Grid {
    let honest = |a: &AccountResult| a.population.starts_with("honest");
    let honest_games = accounts
        .iter()
        .filter(|a| honest(a))
        .map(|a| a.played)
        .max()
        .unwrap_or(0);
    let mut populations: Vec<String> = Vec::new();
    for a in accounts {
        if !populations.contains(&a.population) {
            populations.push(a.population.clone());
        }
    }
    let mut lines = Vec::new();
    for &k in band_deviations {
        for &z in flag_zs {
            let judging = Judging {
                band_deviations: k,
                flag_z: z,
            };
            let flags: Vec<Option<u32>> = accounts
                .iter()
                .map(|a| first_flag(&a.games, judging))
                .collect();
            let pick = |f: &dyn Fn(&AccountResult) -> bool| -> Vec<Option<u32>> {
                accounts
                    .iter()
                    .zip(&flags)
                    .filter(|(a, _)| f(a))
                    .map(|(_, w)| *w)
                    .collect()
            };
            let all = cell(&pick(&|a| honest(a)), honest_games);
            let (lo, hi) = fiveup_bots::duel::wilson95(all.flagged as u64, all.accounts as u64);
            let share = all.flagged as f64 / all.accounts.max(1) as f64;
            lines.push(Line {
                band_deviations: k,
                flag_z: z,
                honest: all,
                false_positives: (share, lo, hi),
                populations: populations
                    .iter()
                    .map(|p| {
                        (
                            p.clone(),
                            cell(&pick(&|a| &a.population == p), honest_games),
                        )
                    })
                    .collect(),
            });
        }
    }
    // The judging the run's server flagged with, as the dump says (else today's default).
    let server =
        accounts
            .iter()
            .find_map(|a| a.judged_with)
            .map_or(JUDGING, |(band_deviations, flag_z)| Judging {
                band_deviations,
                flag_z,
            });
    let game = |g: Option<u32>| g.map_or_else(|| "never".to_string(), |g| format!("game {g}"));
    let mismatches = accounts
        .iter()
        .filter_map(|a| {
            let replayed = first_flag(&a.games, server);
            let differ = if honest(a) {
                replayed.is_some() != a.flagged
            } else {
                replayed != a.flagged_at
            };
            differ.then(|| {
                let server = if honest(a) {
                    (if a.flagged { "flagged" } else { "not flagged" }).to_string()
                } else {
                    game(a.flagged_at)
                };
                format!("{}: server {server}, replay {}", a.name, game(replayed))
            })
        })
        .collect();
    Grid {
        lines,
        server: (server.band_deviations, server.flag_z),
        mismatches,
        honest_games,
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(first) = self.lines.first() else {
            return writeln!(f, "no judging replayed");
        };
        write!(
            f,
            "| band from rating + k deviations | flag from z | honest flagged | false-positive \
             rate (95% CI) |"
        )?;
        for (p, _) in &first.populations {
            write!(f, " {p} |")?;
        }
        writeln!(f)?;
        write!(f, "| --- | --- | --- | --- |")?;
        for _ in &first.populations {
            write!(f, " --- |")?;
        }
        writeln!(f)?;
        for l in &self.lines {
            let (p, lo, hi) = l.false_positives;
            let server = (l.band_deviations, l.flag_z) == self.server;
            write!(
                f,
                "| {}{:.1} | {:.2} | {} of {} | {:.2}% ({:.2} .. {:.2}%) |",
                if server { "**server** " } else { "" },
                l.band_deviations,
                l.flag_z,
                l.honest.flagged,
                l.honest.accounts,
                100.0 * p,
                100.0 * lo,
                100.0 * hi
            )?;
            for (name, c) in &l.populations {
                if name.starts_with("honest") {
                    write!(f, " {} of {} |", c.flagged, c.accounts)?;
                } else {
                    write!(
                        f,
                        " {} of {} ({} within {}), median {} |",
                        c.flagged,
                        c.accounts,
                        c.within_honest,
                        self.honest_games,
                        c.median
                            .map_or_else(|| "never".to_string(), |m| m.to_string())
                    )?;
                }
            }
            writeln!(f)?;
        }
        write!(
            f,
            "replay of the server's judging against the server's flags: {} accounts differ",
            self.mismatches.len()
        )?;
        if !self.mismatches.is_empty() {
            write!(f, " ({})", self.mismatches.join("; "))?;
        }
        Ok(())
    }
}

/// The judgings a run replays: bands from the rating plus 0 to 3 deviations, thresholds from
/// the library's to 4.
pub const BAND_DEVIATIONS: [f64; 7] = [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0];
/// See [`BAND_DEVIATIONS`].
pub const FLAG_ZS: [f64; 6] = [2.85, 3.0, 3.25, 3.5, 3.75, 4.0];

/// Read a run's accounts from the JSON lines `fiveup loadtest --fairplay --dump` wrote.
pub fn read_dump(text: &str) -> Result<Vec<AccountResult>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| serde_json::from_str(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(decisions: u32, agreed: u32, loss: f64, rating: f64, deviation: f64) -> AnalysedGame {
        AnalysedGame {
            decisions,
            agreed,
            loss,
            rating,
            deviation,
        }
    }

    #[test]
    fn a_copier_is_flagged_in_a_weak_band_and_not_in_a_strong_one() {
        // Twenty games agreeing on every decision, losing nothing.
        let low: Vec<AnalysedGame> = (0..20).map(|_| game(12, 12, 0.0, 1450.0, 60.0)).collect();
        let lenient = Judging {
            band_deviations: 0.0,
            flag_z: 2.85,
        };
        let w = first_flag(&low, lenient).expect("flagged");
        assert!(w > 1 && w <= 20, "{w}");
        // A deviation wide enough to reach the strong band: judged there, agreeing on every
        // decision still stands out less, and the check comes later or never.
        let wide: Vec<AnalysedGame> = (0..20).map(|_| game(12, 12, 0.0, 1450.0, 200.0)).collect();
        let strict = Judging {
            band_deviations: 2.0,
            flag_z: 2.85,
        };
        assert!(first_flag(&wide, strict).is_none_or(|s| s > w));
        // An account with no decision that counts is never flagged.
        let none: Vec<AnalysedGame> = (0..20).map(|_| game(0, 0, 0.0, 1500.0, 60.0)).collect();
        assert_eq!(first_flag(&none, lenient), None);
    }

    #[test]
    fn the_server_flags_are_compared_with_the_judging_the_run_used() {
        // A copier whose figures cross 2.85 in the club band but not the default threshold.
        let games: Vec<AnalysedGame> = (0..20).map(|_| game(12, 11, 4.0, 1500.0, 60.0)).collect();
        let lenient = Judging {
            band_deviations: 0.0,
            flag_z: 2.85,
        };
        let at = first_flag(&games, lenient);
        assert!(at.is_some() && first_flag(&games, JUDGING).is_none());
        let mut a = AccountResult {
            population: "club copying master on 60%".into(),
            name: "a60x0000".into(),
            played: 20,
            games,
            flagged: true,
            flagged_at: at,
            judged_with: Some((0.0, 2.85)),
            ..AccountResult::default()
        };
        let g = grid(std::slice::from_ref(&a), &[0.0], &[2.85]);
        assert!(g.mismatches.is_empty(), "{g}");
        assert_eq!(g.server, (0.0, 2.85));
        // Without the run's judging, today's default is assumed, and the flag is a mismatch.
        a.judged_with = None;
        let g = grid(std::slice::from_ref(&a), &[0.0], &[2.85]);
        assert_eq!(g.mismatches.len(), 1, "{g}");
        assert!(g.mismatches[0].contains("server game"), "{g}");
    }

    #[test]
    fn a_dump_line_round_trips() {
        let a = AccountResult {
            population: "honest club".into(),
            name: "clu0001".into(),
            id: 4,
            games: vec![game(10, 8, 12.5, 1500.0, 350.0)],
            ..AccountResult::default()
        };
        let text = serde_json::to_string(&a).unwrap();
        let back = read_dump(&format!("{text}\n\n")).unwrap();
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].games, a.games);
        assert!(read_dump("{not json").is_err());
    }
}
