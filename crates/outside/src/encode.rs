//! The encoder: protocol messages made from a seat's [`View`] and nothing else.
//!
//! Every method takes a [`View`], which holds only what its seat may know (its own tiles, the
//! public history with other seats' draws as counts, and every hand once the result reveals
//! them), so no message can carry a tile the seat may not see: the types allow no other
//! source.

use fiveup_engine::{Entry, Seat, TileSet, View};

use crate::messages::{Clock, PastHand, Position, RulesMsg, TableMsg, ToEngine};

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
        out.push(ToEngine::Hand {
            start: *view.start(),
            leader: view.leader(),
            lead_kind: view.lead_kind(),
            shown: view.shown_tile(),
            tiles: dealt_tiles(view),
            commitment: None,
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
        let sides = usize::from(view.rules().sides());
        if let Some(result) = result {
            self.earlier.push(PastHand {
                start: *view.start(),
                leader: view.leader(),
                lead_kind: view.lead_kind(),
                history: view.history().to_vec(),
                result,
            });
        }
        out.push(ToEngine::HandOver {
            result,
            scores: view.scores().0[..sides].to_vec(),
            winner: view.winner(),
            proof: None,
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
            start: *view.start(),
            leader: view.leader(),
            lead_kind: view.lead_kind(),
            shown: view.shown_tile(),
            hand: view.hand(),
            hand_sizes: view.hand_sizes().0[..n].to_vec(),
            boneyard: view.boneyard_len(),
            scores: view.scores().0[..usize::from(rules.sides())].to_vec(),
            count: view.layout().count(),
            to_move: view.to_move(),
            phase: view.phase(),
            history: view.history().to_vec(),
            earlier_hands: earlier,
        }
    }

    /// The request for a decision in `view` (the viewer's turn).
    #[must_use]
    pub fn request(&self, view: &View, id: u64, clock: Clock) -> ToEngine {
        let legal: Vec<_> = view.legal_actions().iter().copied().collect();
        let points = legal.iter().map(|&a| view.points_of(a)).collect();
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
    use fiveup_engine::{FastRng, Phase, Preset, Rules, Seed, State};

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
