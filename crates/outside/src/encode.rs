//! The encoder: protocol messages made from a seat's [`View`] and nothing else.
//!
//! Every method takes a [`View`], which holds only what its seat may know (its own tiles, the
//! public history with other seats' draws as counts, and every hand once the result reveals
//! them), so no message can carry a tile the seat may not see: the types allow no other
//! source.

use std::collections::BTreeMap;

use fiveup_engine::{Action, Anchor, ArmId, Entry, Layout, LayoutTree, Seat, TileSet, View};

use crate::messages::{
    Clock, DealProof, OpenEnd, PastHand, Position, ResultMsg, RulesMsg, StartMsg, TableMsg,
    ToEngine,
};

/// The messages one seat's engine has been sent, so that each is sent once and in order.
#[derive(Clone, Debug, Default)]
pub struct Encoder {
    /// Games begun, numbered from 1.
    game: u64,
    /// The hand whose events are being sent (its number), once begun.
    hand_no: Option<u16>,
    /// Entries of the current hand already sent.
    sent: usize,
    /// Whether the current hand's result was sent.
    over_sent: bool,
    /// Counts after the last entry sent: tiles by seat, boneyard, scores by side.
    hand_sizes: Vec<u8>,
    boneyard: u8,
    scores: Vec<i32>,
    /// The game's finished hands.
    earlier: Vec<PastHand>,
    /// The host's commitments to its deals, by hand number.
    commitments: BTreeMap<u16, String>,
    /// What opens them, by hand number, once the hand is over.
    proofs: BTreeMap<u16, DealProof>,
}

/// The table as the protocol describes it.
fn table(view: &View) -> TableMsg {
    let rules = view.rules();
    TableMsg {
        players: rules.players,
        seat: view.seat(),
        sides: rules.sides(),
        partnerships: rules.partnerships,
        seat_sides: (0..rules.players).map(|s| rules.side_of(Seat(s))).collect(),
        side: view.side(),
    }
}

/// The open ends of `layout` (laid out as `tree`) with what each adds to the count: the outer
/// half of a plain tile at the end, both halves of a double at the end, nothing for a spinner's
/// sprout with no tile yet; a lone double lead shows the same half at both ends and counts one
/// half at each. The ends' counts add up to the layout's count. (The same rule as the table
/// protocol's `open_ends`.)
#[must_use]
pub fn open_ends(layout: &Layout, tree: &LayoutTree) -> Vec<OpenEnd> {
    let lead_double = tree.root.filter(|t| t.is_double());
    let arm_of = |id: ArmId| tree.arms.iter().find(|a| a.id == id);
    layout
        .open_arms()
        .map(|arm| {
            let pip = layout.arm_pip(arm);
            let line = arm_of(arm);
            let counts = match line.and_then(|l| l.tiles.last()) {
                Some(last) if last.tile.is_double() => 2 * pip,
                Some(_) => layout.arm_contribution(arm),
                None => match (line.map(|l| &l.anchor), lead_double) {
                    // A side of a double lead: both halves when the other side has a tile
                    // against the double, one half each while both sides are empty.
                    (Some(Anchor::Root), Some(_)) => {
                        let other = ArmId(arm.0 ^ 1);
                        if arm_of(other).is_some_and(|o| !o.tiles.is_empty()) {
                            2 * pip
                        } else {
                            pip
                        }
                    }
                    (Some(Anchor::Root), None) => layout.arm_contribution(arm),
                    // An empty sprout counts nothing: its spinner is counted by the arms.
                    _ => 0,
                },
            };
            OpenEnd { arm, pip, counts }
        })
        .collect()
}

/// What action `a` is worth to the side of `view`'s seat, in points: a lay, the points its
/// count makes (scored at once, or under manual scoring by the claim that follows it); a
/// claim, the points it scores (the right claim scores what the lay made, `C0` nothing); a
/// Muggins call, the missed points it takes; a draw or a pass, 0. An exact target that would
/// refuse the points makes them 0.
#[must_use]
pub fn action_points(view: &View, a: Action) -> u16 {
    let rules = view.rules();
    let made = match a {
        Action::Play { .. } => view.points_of(a),
        // The only claims offered are C0 and the right one.
        Action::Claim(n) => n,
        Action::Muggins => view.muggins_available(),
        Action::Draw | Action::Pass => 0,
    };
    if rules.exact_target && view.scores()[view.side()] + i32::from(made) > i32::from(rules.target)
    {
        return 0;
    }
    made
}

/// The seat's tiles as dealt: those it holds, plus those it laid, less those it drew.
fn dealt_tiles(view: &View) -> TileSet {
    let me = view.seat();
    let mut t = view.hand();
    for e in view.history() {
        match *e {
            Entry::Play { seat, tile, .. } if seat == me => t.insert(tile),
            Entry::Draw {
                seat,
                tile: Some(tile),
                ..
            }
            | Entry::LeadDraw {
                seat,
                tile: Some(tile),
            } if seat == me => t.remove(tile),
            _ => {}
        }
    }
    t
}

impl Encoder {
    /// An encoder with nothing sent.
    #[must_use]
    pub fn new() -> Encoder {
        Encoder::default()
    }

    /// Forget what was sent (a new process for the same game): the next messages begin the
    /// game again. The finished hands are kept for the requests' positions.
    pub fn reconnect(&mut self) {
        self.game = 0;
        self.hand_no = None;
        self.sent = 0;
        self.over_sent = false;
    }

    /// The host's commitment to the deal of hand `hand_no`, sent with that hand.
    pub fn commit(&mut self, hand_no: u16, commitment: String) {
        self.commitments.insert(hand_no, commitment);
    }

    /// What opens the commitment of hand `hand_no`, sent with its end.
    pub fn reveal(&mut self, hand_no: u16, proof: DealProof) {
        self.proofs.insert(hand_no, proof);
    }

    /// The game's finished hands so far.
    #[must_use]
    pub fn earlier_hands(&self) -> &[PastHand] {
        &self.earlier
    }

    /// Begin a new game with `view`'s rules and seat.
    fn new_game(&mut self, view: &View, out: &mut Vec<ToEngine>) {
        self.game += 1;
        self.hand_no = None;
        out.push(ToEngine::NewGame {
            game: self.game,
            rules: RulesMsg::new(view.rules()),
            table: table(view),
        });
    }

    /// The messages that bring the engine up to date with `view`: a new game and a new hand
    /// when they begin, then every entry of the hand not yet sent.
    pub fn catch_up(&mut self, view: &View) -> Vec<ToEngine> {
        let mut out = Vec::new();
        let hand_no = view.start().hand_no;
        match self.hand_no {
            Some(h) if h == hand_no => {}
            Some(h) if h < hand_no => self.begin_hand(view, &mut out),
            _ => {
                // A hand number that goes back starts a new game in the same session.
                if self.hand_no.is_some() {
                    self.earlier.clear();
                }
                self.new_game(view, &mut out);
                self.begin_hand(view, &mut out);
            }
        }
        let rules = view.rules();
        for e in &view.history()[self.sent.min(view.history().len())..] {
            let side = |s: Seat| usize::from(rules.side_of(s).0);
            match *e {
                Entry::Play { seat, points, .. } => {
                    self.hand_sizes[seat.idx()] = self.hand_sizes[seat.idx()].saturating_sub(1);
                    self.scores[side(seat)] += i32::from(points);
                }
                Entry::Draw { seat, .. } | Entry::LeadDraw { seat, .. } => {
                    self.hand_sizes[seat.idx()] += 1;
                    self.boneyard = self.boneyard.saturating_sub(1);
                }
                Entry::Claim { seat, points, .. } | Entry::Muggins { seat, points } => {
                    self.scores[side(seat)] += i32::from(points);
                }
                Entry::Pass { .. } => {}
            }
            out.push(ToEngine::Event {
                entry: *e,
                hand_sizes: self.hand_sizes.clone(),
                boneyard: self.boneyard,
                scores: self.scores.clone(),
            });
        }
        self.sent = view.history().len();
        out
    }

    fn begin_hand(&mut self, view: &View, out: &mut Vec<ToEngine>) {
        let rules = view.rules();
        self.hand_no = Some(view.start().hand_no);
        self.sent = 0;
        self.over_sent = false;
        self.hand_sizes = vec![rules.hand_size; usize::from(rules.players)];
        self.boneyard = rules.boneyard_size();
        self.scores = view.start().scores.0[..usize::from(rules.sides())].to_vec();
        let hand_no = view.start().hand_no;
        out.push(ToEngine::Hand {
            start: StartMsg::new(view.start(), rules),
            leader: view.leader(),
            lead_kind: view.lead_kind(),
            shown: view.shown_tile(),
            tiles: dealt_tiles(view),
            commitment: self.commitments.get(&hand_no).cloned(),
        });
    }

    /// The messages at the end of a hand: the entries not yet sent, then the result (none when
    /// a side reached the target mid-hand and so ended the game). Empty when `view`'s hand is
    /// not over, and only the entries when its end was already sent.
    pub fn hand_over(&mut self, view: &View) -> Vec<ToEngine> {
        let result = view.result().copied();
        if result.is_none() && view.winner().is_none() {
            return Vec::new();
        }
        let mut out = self.catch_up(view);
        if self.over_sent {
            return out;
        }
        self.over_sent = true;
        let rules = view.rules();
        let sides = usize::from(rules.sides());
        let result = result.map(|r| ResultMsg::new(&r, rules));
        if let Some(result) = &result {
            self.earlier.push(PastHand {
                start: StartMsg::new(view.start(), rules),
                leader: view.leader(),
                lead_kind: view.lead_kind(),
                history: view.history().to_vec(),
                result: result.clone(),
            });
        }
        out.push(ToEngine::HandOver {
            result,
            scores: view.scores().0[..sides].to_vec(),
            winner: view.winner(),
            proof: self.proofs.get(&view.start().hand_no).cloned(),
        });
        out
    }

    /// Everything `view`'s seat knows, with the game's earlier hands.
    #[must_use]
    pub fn position(&self, view: &View) -> Position {
        let rules = view.rules();
        let n = usize::from(rules.players);
        // Earlier hands belong to this game only while the view's hand follows them.
        let earlier = self
            .earlier
            .iter()
            .filter(|h| h.start.hand_no < view.start().hand_no)
            .cloned()
            .collect();
        Position {
            rules: RulesMsg::new(rules),
            table: table(view),
            start: StartMsg::new(view.start(), rules),
            leader: view.leader(),
            lead_kind: view.lead_kind(),
            shown: view.shown_tile(),
            hand: view.hand(),
            hand_sizes: view.hand_sizes().0[..n].to_vec(),
            boneyard: view.boneyard_len(),
            scores: view.scores().0[..usize::from(rules.sides())].to_vec(),
            count: view.layout().count(),
            open_ends: open_ends(
                view.layout(),
                &LayoutTree::from_history(rules, view.history()),
            ),
            to_move: view.to_move(),
            phase: view.phase(),
            history: view.history().to_vec(),
            earlier_hands: earlier,
        }
    }

    /// The request for a decision in `view` (the viewer's turn), each legal action with its
    /// [`action_points`].
    #[must_use]
    pub fn request(&self, view: &View, id: u64, clock: Clock) -> ToEngine {
        let legal: Vec<_> = view.legal_actions().iter().copied().collect();
        let points = legal.iter().map(|&a| action_points(view, a)).collect();
        ToEngine::Request {
            id,
            legal,
            points,
            clock,
            position: Box::new(self.position(view)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fiveup_engine::{Action, FastRng, Phase, Preset, Rules, Seed, State};

    /// After every action of games of every preset (manual scoring and Muggins calls
    /// included), the counts in the last event sent are the view's own.
    #[test]
    fn events_count_tiles_and_scores_as_the_view_does() {
        let mut rng = FastRng::new(17);
        for preset in Preset::ALL {
            for manual in [false, true] {
                let (players, _) = preset.players();
                let mut rules = Rules::preset(preset, players);
                rules.manual_scoring = manual;
                if rules.validate().is_err() {
                    continue;
                }
                let seed = Seed::from_u64(rng.next_u64());
                let mut s = State::from_seed(rules, &seed).unwrap();
                let me = Seat(players - 1);
                let mut enc = Encoder::new();
                let mut hands = 0;
                let mut events = 0;
                loop {
                    while matches!(s.phase(), Phase::Play | Phase::Claim) {
                        let v = s.view(me);
                        let msgs = enc.catch_up(&v);
                        if let Some(ToEngine::Event {
                            hand_sizes,
                            boneyard,
                            scores,
                            ..
                        }) = msgs.last()
                        {
                            events += msgs.len();
                            let n = usize::from(rules.players);
                            assert_eq!(hand_sizes[..], v.hand_sizes().0[..n], "{preset}");
                            assert_eq!(*boneyard, v.boneyard_len(), "{preset}");
                            assert_eq!(scores[..], v.scores().0[..scores.len()], "{preset}");
                        }
                        let l = s.legal_actions();
                        let a = l[rng.below(l.len() as u32) as usize];
                        s.apply(a).unwrap();
                    }
                    let over = enc.hand_over(&s.view(me));
                    assert!(
                        matches!(over.last(), Some(ToEngine::HandOver { .. })),
                        "{preset}"
                    );
                    assert!(enc.hand_over(&s.view(me)).is_empty(), "sent once");
                    hands += 1;
                    if s.phase() == Phase::GameOver || hands == 3 {
                        break;
                    }
                    s.next_hand_from_seed(&seed).unwrap();
                }
                assert!(events > 0);
                let p = enc.position(&s.view(me));
                // The position holds the finished hands before the view's own.
                let before = s.start().hand_no;
                assert!(p.earlier_hands.iter().all(|h| h.start.hand_no < before));
                assert_eq!(p.earlier_hands.len(), usize::from(before) - 1, "{preset}");
            }
        }
    }

    /// At every decision of games of every preset (manual scoring included), the request's
    /// open ends add up to its count and are where its plays go, with the pips they match; a
    /// claim is worth what it scores and a Muggins call what it takes, so the most points pick
    /// the right claim.
    #[test]
    fn requests_carry_the_open_ends_and_what_each_action_is_worth() {
        let mut rng = FastRng::new(23);
        let (mut claims, mut calls) = (0, 0);
        for preset in Preset::ALL {
            for manual in [false, true] {
                let (players, _) = preset.players();
                let mut rules = Rules::preset(preset, players);
                rules.manual_scoring = manual;
                if rules.validate().is_err() {
                    continue;
                }
                for deal in 0..4 {
                    let seed = Seed::from_u64(rng.next_u64() ^ deal);
                    let mut s = State::from_seed(rules, &seed).unwrap();
                    while matches!(s.phase(), Phase::Play | Phase::Claim) {
                        let v = s.view(s.to_move());
                        let ToEngine::Request {
                            legal,
                            points,
                            position,
                            ..
                        } = Encoder::new().request(
                            &v,
                            1,
                            Clock {
                                move_ms: 1,
                                left_ms: None,
                            },
                        )
                        else {
                            unreachable!()
                        };
                        let ends = &position.open_ends;
                        let sum: u16 = ends.iter().map(|e| u16::from(e.counts)).sum();
                        // (Under Cross, while the cross is not complete, the arms that wait
                        // for it count but are not open: the rule is the table view's.)
                        if !v.layout().cross_pending() {
                            assert_eq!(sum, position.count, "{preset}: {ends:?}");
                        }
                        for a in &legal {
                            if let Action::Play {
                                tile,
                                arm: Some(arm),
                            } = *a
                            {
                                let end = ends.iter().find(|e| e.arm == arm).expect("an end");
                                assert!(tile.has(end.pip), "{preset}: {tile} on {end:?}");
                            }
                        }
                        let best = (0..legal.len()).max_by_key(|&i| points[i]).unwrap();
                        if s.phase() == Phase::Claim && s.claimable() > 0 {
                            let due = s.claimable();
                            assert_eq!(legal[best], Action::Claim(due), "{preset}");
                            assert_eq!(points[best], due);
                            claims += 1;
                        }
                        if let Some(i) = legal.iter().position(|&a| a == Action::Muggins) {
                            assert_eq!(points[i], v.muggins_available());
                            assert!(points[i] > 0);
                            calls += 1;
                        }
                        let a = legal[rng.below(legal.len() as u32) as usize];
                        s.apply(a).unwrap();
                    }
                }
            }
        }
        assert!(claims > 0 && calls > 0, "{claims} claims, {calls} calls");
    }

    /// The arrays by seat and by side of a hand's start and result have an entry for every
    /// seat and side, and never fewer than four, on tables of 2 to 8 seats (a seat past the
    /// fourth that went out is still there, with an empty hand).
    #[test]
    fn results_have_an_entry_for_every_seat_and_side() {
        let mut rng = FastRng::new(8);
        for players in 2u8..=8 {
            // The party game seats five or more; smaller tables play Five Up on the same set.
            let spec = if players >= 5 {
                format!("party-twelve players={players}")
            } else {
                format!("five-up players={players} set=12")
            };
            let rules = Rules::parse(&spec).unwrap();
            for deal in 0..3 {
                let mut s = State::from_seed(rules, &Seed::from_u64(deal)).unwrap();
                while matches!(s.phase(), Phase::Play | Phase::Claim) {
                    let l = s.legal_actions();
                    s.apply(l[rng.below(l.len() as u32) as usize]).unwrap();
                }
                let mut enc = Encoder::new();
                let msgs = enc.hand_over(&s.view(Seat(0)));
                let seats = usize::from(players).max(4);
                let sides = usize::from(rules.sides()).max(4);
                for m in &msgs {
                    match m {
                        ToEngine::Hand { start, .. } => assert_eq!(start.scores.len(), sides),
                        ToEngine::HandOver {
                            result: Some(r), ..
                        } => {
                            assert_eq!(r.hands.len(), seats, "{players}");
                            assert_eq!(r.pips.len(), seats);
                            assert_eq!(r.side_pips.len(), sides);
                            assert_eq!(r.awards.len(), sides);
                            assert_eq!(r.scored.len(), sides);
                            // The message reads back as the engine's result.
                            assert_eq!(r.to_result(), *s.result().unwrap());
                        }
                        _ => {}
                    }
                }
                let p = enc.position(&s.view(Seat(0)));
                assert_eq!(p.start.scores.len(), sides);
                assert_eq!(p.start.to_start(), *s.start());
            }
        }
    }

    #[test]
    fn a_new_game_and_its_first_hand_come_first() {
        let s = State::from_seed(Rules::default(), &Seed::from_u64(4)).unwrap();
        let v = s.view(Seat(1));
        let msgs = Encoder::new().catch_up(&v);
        assert!(matches!(msgs[0], ToEngine::NewGame { game: 1, .. }));
        match &msgs[1] {
            ToEngine::Hand { tiles, .. } => assert_eq!(*tiles, s.deal().hand(Seat(1))),
            m => panic!("{m:?}"),
        }
    }
}
