//! `fiveup rules`: the presets and options that every command (and the server) reads, as text
//! or JSON; with a rules spec, that spec's rules written out in full.

use fiveup_engine::{Preset, Rules};
use serde::Serialize;

use crate::outln;

/// `fiveup rules [SPEC] [--json]`
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A rules spec (a preset, then options: `"five-up target=150"`): show its rules in full,
    /// every option named. Without it, list the presets and options.
    pub spec: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// One option of the rules strings.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct OptionDoc {
    /// Its name, `key` in `key=value`.
    pub name: &'static str,
    /// The values it takes: a list, or a range in words.
    pub values: &'static str,
    /// What it does.
    pub help: &'static str,
}

/// Every option [`Rules::parse`] reads (`hand-size` and `partners` are other names of `hand`
/// and `partnerships`).
pub const OPTIONS: [OptionDoc; 25] = [
    OptionDoc {
        name: "set",
        values: "6, 9, 12",
        help: "the set: double-six, double-nine or double-twelve",
    },
    OptionDoc {
        name: "players",
        values: "2 to 4 (double-six), 2 to 8 (double-nine and double-twelve)",
        help: "players at the table",
    },
    OptionDoc {
        name: "partnerships",
        values: "true, false",
        help: "four or six players in two partnerships, even seats against odd",
    },
    OptionDoc {
        name: "hand",
        values: "1 to what the set allows",
        help: "tiles dealt to each player",
    },
    OptionDoc {
        name: "target",
        values: "a whole number from 1",
        help: "the score that wins the game",
    },
    OptionDoc {
        name: "spinner",
        values: "first, none, all",
        help: "which doubles spin (take tiles on all four sides)",
    },
    OptionDoc {
        name: "sprouts",
        values: "after-both-sides, at-once",
        help: "when a spinner's sprouts open",
    },
    OptionDoc {
        name: "no-double",
        values: "redeal, draw-until-double, heaviest-tile, each-draws",
        help: "the first lead when no double was dealt",
    },
    OptionDoc {
        name: "first-lead",
        values: "highest-double, highest-double-any, lot, top-double",
        help: "who leads the first hand, and what",
    },
    OptionDoc {
        name: "next-lead",
        values: "winner, rotate, first-lead",
        help: "who leads the later hands",
    },
    OptionDoc {
        name: "drawing",
        values: "true, false",
        help: "a player who cannot lay draws from the boneyard",
    },
    OptionDoc {
        name: "voluntary-draw",
        values: "true, false",
        help: "a player may draw while holding a playable tile",
    },
    OptionDoc {
        name: "boneyard-keep",
        values: "a whole number",
        help: "boneyard tiles that are never drawn",
    },
    OptionDoc {
        name: "draw-one",
        values: "true, false",
        help: "a player who cannot lay draws one tile, then passes",
    },
    OptionDoc {
        name: "play-scoring",
        values: "fives, fives-and-threes, none",
        help: "which counts score during play",
    },
    OptionDoc {
        name: "award",
        values: "opponents, difference, subtract-own",
        help: "what the winner of a hand scores",
    },
    OptionDoc {
        name: "doubles-one-half",
        values: "true, false",
        help: "a double left in hand counts one half",
    },
    OptionDoc {
        name: "blocked-tie",
        values: "share, nobody",
        help: "a blocked hand tied for least pips",
    },
    OptionDoc {
        name: "game-end",
        values: "immediate, finish-hand",
        help: "whether reaching the target ends the game at once",
    },
    OptionDoc {
        name: "exact-target",
        values: "true, false",
        help: "the target must be reached exactly",
    },
    OptionDoc {
        name: "hands",
        values: "a whole number (0: no limit)",
        help: "the game ends after this many hands",
    },
    OptionDoc {
        name: "cribbage",
        values: "true, false",
        help: "every score divided by 5 (a cribbage board)",
    },
    OptionDoc {
        name: "manual",
        values: "true, false",
        help: "points are scored only when claimed; missed points open to a Muggins call",
    },
    OptionDoc {
        name: "muggins-call",
        values: "next, any",
        help: "who may call Muggins on missed points",
    },
    OptionDoc {
        name: "cross-first",
        values: "true, false",
        help: "Cross Dominoes: the first double's four sides are filled first",
    },
];

/// A preset as listed.
#[derive(Debug, Serialize)]
struct PresetDoc {
    name: &'static str,
    players: (u8, u8),
    set: u8,
    /// Its rules at its smallest table, every option named.
    options: String,
}

fn presets() -> Vec<PresetDoc> {
    Preset::ALL
        .iter()
        .map(|&p| PresetDoc {
            name: p.name(),
            players: p.players(),
            set: p.set(),
            options: Rules::preset(p, p.players().0).to_options_string(),
        })
        .collect()
}

pub fn run(args: &Args) -> Result<(), String> {
    if let Some(spec) = &args.spec {
        let rules = Rules::parse(spec).map_err(|e| format!("{spec:?}: {e}"))?;
        if args.json {
            let v = serde_json::json!({
                "options": rules.to_options_string(),
                "fields": rules,
            });
            outln!("{v}");
        } else {
            outln!("{}", rules.to_options_string());
        }
        return Ok(());
    }
    if args.json {
        let v = serde_json::json!({ "presets": presets(), "options": OPTIONS });
        outln!("{v}");
        return Ok(());
    }
    outln!("Presets (the first word of a rules spec; `five-up` when none is given):");
    for p in presets() {
        outln!(
            "  {:<17} {} to {} players, double-{}",
            p.name,
            p.players.0,
            p.players.1,
            match p.set {
                6 => "six",
                9 => "nine",
                _ => "twelve",
            }
        );
        outln!("      {}", p.options);
    }
    outln!("");
    outln!("Options (key=value after the preset, e.g. \"five-up players=3 target=150\"):");
    for o in OPTIONS {
        outln!("  {:<17} {}", o.name, o.help);
        outln!("      {}", o.values);
    }
    outln!("");
    outln!("`fiveup rules SPEC` writes a spec out in full; --json for one JSON object.");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every option listed is one the rules read, with every value listed where the values
    /// are a list, and every option the rules write is listed.
    #[test]
    fn the_options_listed_are_the_options_read() {
        for o in OPTIONS {
            let words: Vec<&str> = o.values.split(", ").collect();
            let list = words.iter().all(|w| !w.contains(' '));
            let values = if list { words } else { vec!["1"] };
            for v in values {
                let mut r = Rules::default();
                r.set_option(o.name, v)
                    .unwrap_or_else(|e| panic!("{}={v}: {e}", o.name));
            }
        }
        let mut all = Rules::preset(Preset::PartyTwelve, 5);
        all.first_lead = fiveup_engine::FirstLead::Lot;
        all.cross_first = true;
        all.hand_limit = 3;
        all.blocked_tie = fiveup_engine::BlockedTie::Nobody;
        for w in all.to_options_string().split(' ') {
            let key = w.split('=').next().unwrap();
            assert!(OPTIONS.iter().any(|o| o.name == key), "{key} is not listed");
        }
    }
}
