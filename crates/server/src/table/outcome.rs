//! A finished hand for people: every hand revealed and the award explained step by step.

use fiveup_engine::{Award, HandEnd, Seat, Side, State, Tile};
use fiveup_protocol::HandOutcome;

fn tiles(set: fiveup_engine::TileSet) -> Vec<Tile> {
    set.iter().collect()
}

fn side_name(state: &State, side: u8, names: &[String]) -> String {
    let rules = state.rules();
    let members: Vec<String> = (0..rules.players)
        .filter(|&p| rules.side_of(Seat(p)) == Side(side))
        .map(|p| {
            names
                .get(p as usize)
                .cloned()
                .unwrap_or_else(|| format!("S{p}"))
        })
        .collect();
    members.join(" and ")
}

/// The outcome of the hand that just ended in `state` (or was cut short by the game's end).
#[must_use]
pub fn hand_outcome(state: &State, names: &[String]) -> HandOutcome {
    let rules = *state.rules();
    let n = rules.players as usize;
    let sides = rules.sides() as usize;
    let hand = state.start().hand_no;
    let scores = state.scores().0[..sides].to_vec();
    let Some(r) = state.result() else {
        // The game ended in the middle of the hand (immediate game end): no award.
        let hands: Vec<Vec<Tile>> = (0..n).map(|p| tiles(state.hand(Seat(p as u8)))).collect();
        let pips: Vec<u16> = (0..n)
            .map(|p| state.hand(Seat(p as u8)).pips() as u16)
            .collect();
        let mut side_pips = vec![0u16; sides];
        for p in 0..n {
            side_pips[rules.side_of(Seat(p as u8)).idx()] += pips[p];
        }
        let winner = state.winner().map_or(0, |w| w.0);
        return HandOutcome {
            hand,
            end: HandEnd::Blocked,
            hands,
            pips,
            side_pips,
            winners: vec![winner],
            awards: vec![0; sides],
            scored: vec![0; sides],
            scores,
            explanation: vec![format!(
                "{} reached the target of {} during the hand, which ends the game at once; \
                 no award is made for the hand.",
                side_name(state, winner, names),
                rules.target
            )],
            mid_hand: true,
        };
    };
    let hands: Vec<Vec<Tile>> = (0..n).map(|p| tiles(r.hands.0[p])).collect();
    let pips: Vec<u16> = r.pips.0[..n].to_vec();
    let side_pips: Vec<u16> = r.side_pips.0[..sides].to_vec();
    let winners: Vec<u8> = (0..sides as u8).filter(|&s| r.won(Side(s))).collect();
    let mut ex = Vec::new();
    match r.end {
        HandEnd::Domino { seat } => ex.push(format!(
            "{} played their last tile (domino).",
            names
                .get(seat.idx())
                .cloned()
                .unwrap_or_else(|| format!("S{}", seat.0))
        )),
        HandEnd::Blocked => ex.push(
            "The hand was blocked: nobody could lay a tile or draw. The side with the fewest \
             pips wins it."
                .to_string(),
        ),
    }
    for p in 0..n {
        let list = hands[p]
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        ex.push(format!(
            "{} holds {}: {} pips{}.",
            names.get(p).cloned().unwrap_or_else(|| format!("S{p}")),
            if list.is_empty() {
                "nothing".to_string()
            } else {
                list
            },
            pips[p],
            if rules.doubles_count_one_half && hands[p].iter().any(|t| t.is_double()) {
                " (doubles count one half)"
            } else {
                ""
            }
        ));
    }
    if rules.partnerships {
        for (s, pips) in side_pips.iter().enumerate() {
            ex.push(format!(
                "{}: {pips} pips together.",
                side_name(state, s as u8, names),
            ));
        }
    }
    let rule = match rules.award {
        Award::Opponents => {
            "The winner scores the pips left in the opponents' hands, rounded to the nearest 5"
        }
        Award::Difference => {
            "The winner scores, for each losing side, its pips minus the winner's, each rounded \
             to the nearest 5"
        }
        Award::SubtractOwn => {
            "Every side loses its own pips, rounded to the nearest 5; nobody gains the others'"
        }
    };
    let scale = if rules.cribbage_scale {
        ", then divided by 5 (cribbage scale)"
    } else {
        ""
    };
    ex.push(format!("{rule}{scale}."));
    for s in 0..sides {
        let a = r.awards.0[s];
        if a != 0 || winners.contains(&(s as u8)) {
            ex.push(format!(
                "{}: award {}{}.",
                side_name(state, s as u8, names),
                a,
                if r.scored.0[s] == a {
                    String::new()
                } else {
                    format!(
                        ", of which {} is scored (the exact target refuses the rest)",
                        r.scored.0[s]
                    )
                }
            ));
        }
    }
    let score_line = (0..sides)
        .map(|s| format!("{} {}", side_name(state, s as u8, names), scores[s]))
        .collect::<Vec<_>>()
        .join(", ");
    ex.push(format!("Scores after the hand: {score_line}."));
    HandOutcome {
        hand,
        end: r.end,
        hands,
        pips,
        side_pips,
        winners,
        awards: r.awards.0[..sides].to_vec(),
        scored: r.scored.0[..sides].to_vec(),
        scores,
        explanation: ex,
        mid_hand: false,
    }
}

#[cfg(test)]
mod tests {
    use super::hand_outcome;
    use fiveup_engine::{FastRng, Rules, Seed, State};

    /// A game won during a hand (by a play reaching the target) is marked `mid_hand`, and one
    /// won at a hand's end is not.
    #[test]
    fn a_game_won_during_a_hand_says_so() {
        let rules = Rules::parse("five-up target=50").unwrap();
        let names = vec!["Ann".to_string(), "Bob".to_string()];
        let mut rng = FastRng::new(5);
        let (mut during, mut at_end) = (0, 0);
        for n in 0..200u64 {
            let mut s = State::from_seed(rules, &Seed::from_u64(n)).unwrap();
            let mut hand = 0u64;
            while s.winner().is_none() {
                if s.is_hand_over() {
                    hand += 1;
                    s.next_hand_from_seed(&Seed::from_u64(n * 1000 + hand))
                        .unwrap();
                    continue;
                }
                let legal = s.legal_actions();
                let a = legal[rng.below(legal.len() as u32) as usize];
                s.apply(a).unwrap();
            }
            let o = hand_outcome(&s, &names);
            if s.result().is_none() {
                during += 1;
                assert!(o.mid_hand, "game {n}");
                assert!(
                    o.explanation[0].contains("reached the target"),
                    "{:?}",
                    o.explanation
                );
            } else {
                at_end += 1;
                assert!(!o.mid_hand, "game {n}");
            }
        }
        assert!(
            during > 0 && at_end > 0,
            "{during} won during a hand, {at_end} at its end"
        );
    }
}
