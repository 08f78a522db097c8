//! `club`: a rule-based player that plays the way good club players describe the game.
//!
//! It looks one reply ahead and no further. Each legal play is laid on a copy of the layout and
//! given a score, in points of the standard game; the highest score is played. The terms:
//!
//! 1. **Points now.** What the play scores at once. On the small scales (cribbage, Fives and
//!    Threes) a point is worth five pips at the end of a hand, so play points are counted five
//!    times over to stay comparable with the pip terms below. A play that wins the game at once
//!    (`game-end=immediate`) is always taken; under an exact target a play that would overshoot
//!    counts nothing.
//! 2. **Exposure** (weight [`REPLY`]). The best score the next player, always an opponent,
//!    could make on their reply, expected over the tiles that may be in their hand: the tiles
//!    this seat has not seen, less those the opponent is known not to hold (see *What draws and
//!    passes tell* below), each reply valued at its best arm. The hand is taken as a random
//!    choice among those tiles, so the chance that the best reply is the *i*-th best tile is
//!    exact for that model. A reply of 20 points or more counts [`SHARP`] times its excess over
//!    15 on top of itself (a 20 weighs 22.5, a 30 weighs 37.5), so the player never leaves an
//!    easy 20 when something else scores as much. A reply that would win the game for the
//!    opponent weighs [`GAME_REPLY`].
//! 3. **Forcing** (weight [`FORCE`], [`FORCE_PASS`] when nothing can be drawn). Multiplied by
//!    the chance, in the same model, that the next opponent holds nothing that fits the new
//!    ends and must draw (or pass). A suit they have shown they lack makes that chance 1 when
//!    all the ends show it.
//! 4. **Domino threat.** When the next opponent holds one tile, the chance they can lay it times
//!    the pips this side would pay them (this seat's pips after the play, plus the partner's
//!    expected pips).
//! 5. **Doubles**: a bonus for laying a double, which is hard to place later: [`DOUBLE_EARLY`]
//!    from a full hand, falling evenly to [`DOUBLE_LATE`] for the last tile but one.
//! 6. **Control.** [`KEEP`] for each tile kept that fits the new ends (up to three), plus
//!    [`LOCK`] for each such tile whose suit nobody else can hold any more (no unseen tile
//!    carries it); [`NO_PLAY`] is taken off when no tile kept fits the new ends.
//! 7. **Shedding** (weight per pip from [`PIP_BASE`] up to [`PIP_BASE`] + [`PIP_DANGER`]): the
//!    pips of the tile laid. The weight grows as the smallest opponent hand shrinks below four
//!    tiles (they may go out and be paid for what this seat keeps), or, counting half as much,
//!    as this seat's own hand does, whichever is more.
//! 8. **End of the hand.** Going out scores [`DOMINO`] on top of the rest, so the player always
//!    dominoes when it can. A play that blocks the game (nothing can be drawn and neither this
//!    seat nor any unseen tile fits an end) is worth the award this side expects when its
//!    pips (the partner's expected pips included) are lower than every opponent side's
//!    expected pips, by [`BLOCK_MARGIN`] unless the unseen tiles are exactly the other hand,
//!    and costs this side's pips otherwise. Under `award=subtract-own` it is worth the
//!    opponents' average pips less this side's.
//!
//! **The lead.** On a free lead the player leads its best-scoring tile when that is worth ten
//! or more (5-5 or 6-4 in the standard game; the terms above choose between them); otherwise
//! the terms above choose among all its tiles, which favours a double, and the control term
//! the double of its longest suit.
//!
//! **What draws and passes tell.** A pass proves the player held nothing matching the ends it
//! showed. A forced draw proves the same of the hand before the draw; the tile drawn either fits
//! and is laid at once, or stays and does not fit, so after the turn the player still lacks
//! exactly those suits and nothing more can be said of the others. So a seat's known voids are
//! the ends of its last forced draw plus the ends of every pass since. A draw that was not
//! forced (voluntary drawing) proves nothing. In a hand led by the highest double, no seat that
//! has not drawn holds a higher double; likewise for a heaviest-tile lead.
//!
//! **Everything else.** It draws or passes only when nothing else is legal, claims the exact
//! points under manual scoring, and always calls Muggins when it may. Ties go to the heavier
//! tile, then the double, then the lower tile and arm, so the player is deterministic.

use std::cmp::Ordering;

use fiveup_engine::{
    round5, Action, ActionList, ArmId, Award, Entry, GameEnd, Layout, LeadKind, Phase, PipSet,
    Rules, Seat, State, Tile, TileSet, View, MAX_SEATS,
};

use crate::Player;

/// Weight of the expected best reply of the next opponent.
const REPLY: f64 = 1.0;
/// Extra weight of a reply of 20 or more, per point above 15.
const SHARP: f64 = 0.5;
/// What a reply that wins the game for the opponent weighs.
const GAME_REPLY: f64 = 300.0;
/// Value of making the next opponent draw.
const FORCE: f64 = 15.0;
/// Value of making the next opponent pass (nothing left to draw).
const FORCE_PASS: f64 = 20.0;
/// Bonus for a double laid with a full hand.
const DOUBLE_EARLY: f64 = 4.0;
/// Bonus for a double laid as the last tile but one.
const DOUBLE_LATE: f64 = 1.5;
/// Bonus per tile kept that fits the new ends (up to three).
const KEEP: f64 = 0.75;
/// Further bonus per such tile whose suit no unseen tile carries.
const LOCK: f64 = 1.0;
/// Penalty when no tile kept fits the new ends.
const NO_PLAY: f64 = 4.0;
/// Weight per pip of the tile laid, always.
const PIP_BASE: f64 = 0.05;
/// Further weight per pip when an opponent is about to go out.
const PIP_DANGER: f64 = 0.3;
/// Bonus for going out.
const DOMINO: f64 = 1000.0;
/// How much lower this side's pips must be to seek a block when the other hands are estimated.
const BLOCK_MARGIN: f64 = 3.0;

/// The weights of club's terms: [`Weights::CLUB`] are the constants above, the club player's;
/// other sets make variants of it (see [`crate::expert`]'s rollout policy).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    /// See [`REPLY`].
    pub reply: f64,
    /// See [`SHARP`].
    pub sharp: f64,
    /// See [`FORCE`].
    pub force: f64,
    /// See [`FORCE_PASS`].
    pub force_pass: f64,
    /// See [`DOUBLE_EARLY`].
    pub double_early: f64,
    /// See [`DOUBLE_LATE`].
    pub double_late: f64,
    /// See [`KEEP`].
    pub keep: f64,
    /// See [`LOCK`].
    pub lock: f64,
    /// See [`NO_PLAY`].
    pub no_play: f64,
    /// See [`PIP_BASE`].
    pub pip_base: f64,
    /// See [`PIP_DANGER`].
    pub pip_danger: f64,
    /// See [`BLOCK_MARGIN`].
    pub block_margin: f64,
}

impl Weights {
    /// The club player's weights.
    pub const CLUB: Weights = Weights {
        reply: REPLY,
        sharp: SHARP,
        force: FORCE,
        force_pass: FORCE_PASS,
        double_early: DOUBLE_EARLY,
        double_late: DOUBLE_LATE,
        keep: KEEP,
        lock: LOCK,
        no_play: NO_PLAY,
        pip_base: PIP_BASE,
        pip_danger: PIP_DANGER,
        block_margin: BLOCK_MARGIN,
    };

    /// The weights as a list, in field order (for tuning).
    #[must_use]
    pub fn to_array(&self) -> [f64; 12] {
        [
            self.reply,
            self.sharp,
            self.force,
            self.force_pass,
            self.double_early,
            self.double_late,
            self.keep,
            self.lock,
            self.no_play,
            self.pip_base,
            self.pip_danger,
            self.block_margin,
        ]
    }

    /// Weights from a list in field order.
    #[must_use]
    pub fn from_array(a: [f64; 12]) -> Weights {
        Weights {
            reply: a[0],
            sharp: a[1],
            force: a[2],
            force_pass: a[3],
            double_early: a[4],
            double_late: a[5],
            keep: a[6],
            lock: a[7],
            no_play: a[8],
            pip_base: a[9],
            pip_danger: a[10],
            block_margin: a[11],
        }
    }
}

/// The club player: scores every legal play by the terms listed at the top of `club.rs` and
/// lays the best.
#[derive(Debug, Clone, Copy, Default)]
pub struct Club;

impl Player for Club {
    fn name(&self) -> String {
        "club".into()
    }

    fn choose(&mut self, view: &View) -> Action {
        choose_with(view, &Weights::CLUB)
    }
}

/// Club's choice with these weights.
pub fn choose_with(view: &View, w: &Weights) -> Action {
    choose_inner(view, w, None)
}

/// Club's choice when the next seat's hand is known (`next_hand`): its exposure and forcing
/// terms read that hand instead of guessing it. For rollouts in a sampled world, where the
/// hand is that world's.
pub fn choose_seeing(view: &View, w: &Weights, next_hand: TileSet) -> Action {
    choose_inner(view, w, Some(next_hand))
}

/// The choice when there is no play to weigh: a Muggins call whenever one is open, and the
/// right claim under manual scoring. Shared by club and the learned policy.
pub(crate) fn obvious_choice(view: &View, legal: &ActionList) -> Option<Action> {
    if legal.contains(&Action::Muggins) {
        return Some(Action::Muggins);
    }
    if view.phase() == Phase::Claim {
        return legal.iter().copied().max_by_key(|a| match a {
            Action::Claim(n) => *n,
            _ => 0,
        });
    }
    None
}

/// The legal actions when the seat to move chooses among plays (not a claim or a Muggins call).
fn choosing_plays(view: &View) -> Option<ActionList> {
    if view.phase() != Phase::Play || view.muggins_available() > 0 {
        return None;
    }
    let legal = view.legal_actions();
    (!legal.contains(&Action::Muggins)).then_some(legal)
}

/// On a free lead, for each play, whether the lead rule passes it over: when the best-scoring
/// tile is worth ten or more, every play worth less. `None` when it does not apply.
fn lead_passes_over(
    view: &View,
    ctx: &Context,
    plays: impl Iterator<Item = Action>,
) -> Option<Vec<bool>> {
    if !view.layout().is_empty() {
        return None;
    }
    let points: Vec<f64> = plays.map(|a| ctx.units(ctx.raw_points(a))).collect();
    let best = points.iter().copied().fold(0.0, f64::max);
    (best >= 10.0).then(|| points.iter().map(|&p| p < best).collect())
}

fn choose_inner(view: &View, w: &Weights, next_hand: Option<TileSet>) -> Action {
    let legal = view.legal_actions();
    if let Some(a) = obvious_choice(view, &legal) {
        return a;
    }
    let mut plays: Vec<Action> = legal
        .iter()
        .copied()
        .filter(|a| matches!(a, Action::Play { .. }))
        .collect();
    if plays.is_empty() {
        return *legal
            .iter()
            .next()
            .expect("the player to move has a legal action");
    }
    let mut ctx = Context::new(view, w);
    if let Some(h) = next_hand {
        ctx.cand = h;
    }
    // On a free lead, the best-scoring tile when it is worth ten or more.
    if let Some(skip) = lead_passes_over(view, &ctx, plays.iter().copied()) {
        let mut skip = skip.into_iter();
        plays.retain(|_| !skip.next().unwrap_or(false));
    }
    let scored: Vec<(Action, f64)> = plays.iter().map(|&a| (a, ctx.score(a))).collect();
    scored
        .iter()
        .max_by(|x, y| {
            x.1.partial_cmp(&y.1)
                .unwrap_or(Ordering::Equal)
                .then_with(|| tie_key(x.0).cmp(&tie_key(y.0)))
        })
        .expect("at least one play")
        .0
}

/// Club's score of every legal play for the seat to move in `view` (empty when it has no play
/// to choose: a claim, a Muggins call, or only a draw or a pass). On a free lead, plays the
/// lead rule would pass over (see the module documentation) lose [`LEAD_SKIP`]. The inference
/// of [`crate::expert`] reads these scores as the chance club would make each play.
pub(crate) fn play_scores(view: &View, out: &mut Vec<(Action, f64)>) {
    out.clear();
    let Some(legal) = choosing_plays(view) else {
        return;
    };
    let ctx = Context::new(view, &Weights::CLUB);
    for &a in legal.iter() {
        if matches!(a, Action::Play { .. }) {
            out.push((a, ctx.score(a)));
        }
    }
    if let Some(skip) = lead_passes_over(view, &ctx, out.iter().map(|e| e.0)) {
        for (e, s) in out.iter_mut().zip(skip) {
            if s {
                e.1 -= LEAD_SKIP;
            }
        }
    }
}

/// What a play the lead rule passes over loses in [`play_scores`].
const LEAD_SKIP: f64 = 30.0;

/// How many terms [`play_features`] gives each play.
pub const NF: usize = 24;

/// What a play is worth at once, before any term: a play that wins the game (1e6) or goes out
/// ([`DOMINO`] plus its points), or nothing special.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Special {
    /// No special value: the terms decide.
    No,
    /// The value that outranks any sum of terms.
    Value(f64),
}

/// The terms of every legal play for the seat to move in `view` (empty when it has no play to
/// choose, as in [`play_scores`]): club's own terms, unweighted, then terms club does not
/// have. With [`Weights::CLUB`]'s weights on the first fourteen (see [`club_feature_weights`])
/// their sum is club's score but for a play that wins or goes out, which gets a
/// [`Special`] value instead. Used by the learned rollout policy ([`crate::learned`]).
pub(crate) fn play_features(view: &View, out: &mut Vec<(Action, Special, [f64; NF])>) {
    out.clear();
    let Some(legal) = choosing_plays(view) else {
        return;
    };
    let ctx = Context::new(view, &Weights::CLUB);
    for &a in legal.iter() {
        if matches!(a, Action::Play { .. }) {
            let (sp, f) = ctx.features(a);
            out.push((a, sp, f));
        }
    }
    if let Some(skip) = lead_passes_over(view, &ctx, out.iter().map(|e| e.0)) {
        for (e, s) in out.iter_mut().zip(skip) {
            if s {
                e.2[13] = 1.0;
            }
        }
    }
}

/// The weights under which the first fourteen terms of [`play_features`] add up to club's
/// score, the rest 0.
#[must_use]
pub(crate) fn club_feature_weights() -> [f64; NF] {
    let mut w = [0.0; NF];
    w[0] = 1.0;
    w[1] = -REPLY;
    w[2] = FORCE;
    w[3] = FORCE_PASS;
    w[4] = -1.0;
    w[5] = DOUBLE_LATE;
    w[6] = DOUBLE_EARLY - DOUBLE_LATE;
    w[7] = KEEP;
    w[8] = LOCK;
    w[9] = -NO_PLAY;
    w[10] = PIP_BASE;
    w[11] = PIP_DANGER;
    w[12] = 1.0;
    w[13] = -LEAD_SKIP;
    w
}

/// Tie-break among plays of equal value: larger is better. The learned policy breaks ties the
/// same way.
pub(crate) fn tie_key(a: Action) -> (u8, bool, u8, i16) {
    match a {
        Action::Play { tile, arm } => (
            tile.pips(),
            tile.is_double(),
            u8::MAX - tile.index(),
            -i16::from(arm.map_or(0, |x| x.0)),
        ),
        _ => (0, false, 0, 0),
    }
}

/// What one seat is known not to hold, from the hand's history.
#[derive(Debug, Clone, Copy, Default)]
struct Knowledge {
    /// Suits the seat is known to lack.
    void: PipSet,
    /// Single tiles the seat is known not to hold.
    absent: TileSet,
}

/// Each seat's knowledge from the history seen by the viewer.
fn knowledge(view: &View) -> [Knowledge; MAX_SEATS] {
    let mut k = [Knowledge::default(); MAX_SEATS];
    // A lead chosen by the highest double (or the heaviest tile) shows that nobody held a
    // higher one when the hand began; the tile that decided it was shown to the table.
    if let Some(shown) = view.shown_tile() {
        let above: TileSet = match view.lead_kind() {
            LeadKind::HighestDouble => Tile::DOUBLES
                .iter()
                .filter(|d| d.hi() > shown.hi())
                .collect(),
            LeadKind::HeaviestTile => view
                .rules()
                .tiles()
                .iter()
                .filter(|t| t.weight() > shown.weight())
                .collect(),
            LeadKind::DrawUntilDouble | LeadKind::Free | LeadKind::Lot => TileSet::EMPTY,
        };
        for s in &mut k {
            s.absent = above;
        }
    }
    for e in view.history() {
        match *e {
            Entry::Pass { seat, ends } => {
                let s = &mut k[seat.idx()];
                s.void = PipSet(s.void.0 | ends.0);
            }
            Entry::Draw {
                seat, ends, forced, ..
            } => {
                // The tile drawn may carry any suit but the ends (if it stays in hand).
                k[seat.idx()] = Knowledge {
                    void: if forced { ends } else { PipSet::EMPTY },
                    absent: TileSet::EMPTY,
                };
            }
            Entry::LeadDraw { seat, .. } => k[seat.idx()] = Knowledge::default(),
            Entry::Play { .. } | Entry::Claim { .. } | Entry::Muggins { .. } => {}
        }
    }
    k
}

/// `P(none of k given tiles is in a random hand of h drawn from n)`.
fn none_of(n: u32, h: u32, k: u32) -> f64 {
    if h > n.saturating_sub(k) {
        return 0.0;
    }
    (0..h).fold(1.0, |p, i| p * f64::from(n - k - i) / f64::from(n - i))
}

/// Everything the evaluation needs, worked out once per decision.
struct Context<'a> {
    view: &'a View,
    w: &'a Weights,
    rules: &'a Rules,
    hand: TileSet,
    /// Tiles this seat has not seen.
    unseen: TileSet,
    /// The next seat (an opponent).
    next: Seat,
    /// Tiles the next seat may hold.
    cand: TileSet,
    /// Tiles in the next seat's hand.
    next_len: u32,
    /// Suits the next seat is known to lack.
    next_void: PipSet,
    /// Expected pips of this seat's partner (0 without partnerships).
    partner_pips: f64,
    /// Expected pips of each opponent side's hands, and whether the figure is exact.
    opp_pips: Vec<f64>,
    opp_exact: bool,
    /// Whether a tile can be drawn now.
    drawable: bool,
    /// Smallest opponent hand.
    min_opp_hand: u8,
}

impl<'a> Context<'a> {
    fn new(view: &'a View, w: &'a Weights) -> Context<'a> {
        let rules = view.rules();
        let n = rules.players;
        let me = view.seat();
        let next = me.next(n);
        let unseen = view.unseen();
        let k = knowledge(view);
        let kn = k[next.idx()];
        let cand = unseen.minus(kn.void.tiles()).minus(kn.absent);
        let avg_pip = if unseen.is_empty() {
            0.0
        } else {
            f64::from(unseen.pips()) / f64::from(unseen.len())
        };
        let sizes = view.hand_sizes();
        let my_side = view.side();
        let mut partner_pips = 0.0;
        let mut opp = vec![0.0; rules.sides() as usize];
        let mut min_opp_hand = u8::MAX;
        for s in (0..n).map(Seat).filter(|&s| s != me) {
            let est = f64::from(sizes[s]) * avg_pip;
            let side = rules.side_of(s);
            if side == my_side {
                partner_pips += est;
            } else {
                opp[side.idx()] += est;
                min_opp_hand = min_opp_hand.min(sizes[s]);
            }
        }
        let opp_pips = opp
            .into_iter()
            .enumerate()
            .filter(|&(i, _)| i != my_side.idx())
            .map(|(_, p)| p)
            .collect();
        // With nothing left to draw and a lone opponent, the unseen tiles are their hand.
        let opp_exact = view.boneyard_len() == 0 && n == 2;
        Context {
            view,
            w,
            rules,
            hand: view.hand(),
            unseen,
            next,
            cand,
            next_len: u32::from(sizes[next]),
            next_void: kn.void,
            partner_pips,
            opp_pips,
            opp_exact,
            drawable: view.can_draw(),
            min_opp_hand,
        }
    }

    /// Points in the standard game's units (see the module documentation).
    fn units(&self, points: u16) -> f64 {
        let p = f64::from(points);
        if self.rules.small_scale() {
            5.0 * p
        } else {
            p
        }
    }

    fn lay(&self, layout: &Layout, tile: Tile, arm: Option<ArmId>) -> Layout {
        let mut l = *layout;
        match arm {
            None => l.lay_lead(tile, self.rules),
            Some(a) => l.lay(tile, a, self.rules),
        }
        l
    }

    fn raw_points(&self, a: Action) -> u16 {
        match a {
            Action::Play { tile, arm } => {
                State::count_points(self.rules, self.lay(self.view.layout(), tile, arm).count())
            }
            _ => 0,
        }
    }

    /// What `points` would add to a side on `score`, and whether they would win the game at
    /// once.
    fn effective(&self, score: i32, points: u16) -> (bool, u16) {
        let target = i32::from(self.rules.target);
        let after = score + i32::from(points);
        let immediate = self.rules.game_end == GameEnd::Immediate && points > 0;
        if self.rules.exact_target {
            if after > target {
                (false, 0)
            } else {
                (immediate && after == target, points)
            }
        } else {
            (immediate && after >= target, points)
        }
    }

    /// The score of a play (higher is better).
    fn score(&self, a: Action) -> f64 {
        let Action::Play { tile, arm } = a else {
            return f64::MIN;
        };
        let after = self.lay(self.view.layout(), tile, arm);
        let raw = State::count_points(self.rules, after.count());
        let (wins, scored) = self.effective(self.view.scores()[self.view.side()], raw);
        if wins {
            return 1e6;
        }
        let mut hand = self.hand;
        hand.remove(tile);
        let mut v = self.units(scored);
        if hand.is_empty() {
            return v + DOMINO;
        }
        let my_pips = f64::from(hand.pips());
        let side_pips = my_pips + self.partner_pips;

        // Exposure, forcing and the domino threat.
        let (reply, p_none) = self.reply(&after);
        v -= self.w.reply * reply;
        v += p_none
            * if self.drawable {
                self.w.force
            } else {
                self.w.force_pass
            };
        if self.next_len == 1 {
            v -= (1.0 - p_none) * side_pips;
        }

        // Doubles, early more.
        if tile.is_double() {
            // 1 with a full hand (or more), 0 when laid as the last tile but one.
            let early = (f64::from(hand.len()) - 1.0) / (f64::from(self.rules.hand_size) - 2.0);
            v += self.w.double_late
                + (self.w.double_early - self.w.double_late) * early.clamp(0.0, 1.0);
        }

        // Control of the ends.
        let playable = after.playable_tiles();
        let fits = hand.and(playable);
        if fits.is_empty() {
            v -= self.w.no_play;
        } else {
            v += self.w.keep * f64::from(fits.len().min(3));
            let locked = fits
                .iter()
                .filter(|t| {
                    after
                        .open_pips()
                        .iter()
                        .any(|p| t.has(p) && self.unseen.and(Tile::suit(p)).is_empty())
                })
                .count();
            v += self.w.lock * locked as f64;
        }

        // Shedding pips.
        let danger = (f64::from(4u8.saturating_sub(self.min_opp_hand)) / 3.0)
            .max(0.5 * f64::from(4u8.saturating_sub(hand.len() as u8)) / 3.0)
            .min(1.0);
        v += (self.w.pip_base + self.w.pip_danger * danger) * f64::from(tile.pips());

        // A block.
        if !self.drawable && fits.is_empty() && self.unseen.and(playable).is_empty() {
            v += self.block_value(side_pips);
        }
        v
    }

    /// The terms of a play (see [`play_features`]), or its special value.
    fn features(&self, a: Action) -> (Special, [f64; NF]) {
        let mut f = [0.0; NF];
        let Action::Play { tile, arm } = a else {
            return (Special::Value(f64::MIN), f);
        };
        let before = self.view.layout();
        let after = self.lay(before, tile, arm);
        let raw = State::count_points(self.rules, after.count());
        let (wins, scored) = self.effective(self.view.scores()[self.view.side()], raw);
        if wins {
            return (Special::Value(1e6), f);
        }
        let mut hand = self.hand;
        hand.remove(tile);
        let points = self.units(scored);
        if hand.is_empty() {
            return (Special::Value(points + DOMINO), f);
        }
        f[0] = points;
        let my_pips = f64::from(hand.pips());
        let side_pips = my_pips + self.partner_pips;
        let (reply, p_none) = self.reply(&after);
        f[1] = reply;
        if self.drawable {
            f[2] = p_none;
        } else {
            f[3] = p_none;
        }
        if self.next_len == 1 {
            f[4] = (1.0 - p_none) * side_pips;
        }
        if tile.is_double() {
            let early = (f64::from(hand.len()) - 1.0) / (f64::from(self.rules.hand_size) - 2.0);
            f[5] = 1.0;
            f[6] = early.clamp(0.0, 1.0);
        }
        let playable = after.playable_tiles();
        let fits = hand.and(playable);
        if fits.is_empty() {
            f[9] = 1.0;
        } else {
            f[7] = f64::from(fits.len().min(3));
            f[8] = fits
                .iter()
                .filter(|t| {
                    after
                        .open_pips()
                        .iter()
                        .any(|p| t.has(p) && self.unseen.and(Tile::suit(p)).is_empty())
                })
                .count() as f64;
        }
        let danger = (f64::from(4u8.saturating_sub(self.min_opp_hand)) / 3.0)
            .max(0.5 * f64::from(4u8.saturating_sub(hand.len() as u8)) / 3.0)
            .min(1.0);
        f[10] = f64::from(tile.pips());
        f[11] = danger * f64::from(tile.pips());
        if !self.drawable && fits.is_empty() && self.unseen.and(playable).is_empty() {
            f[12] = self.block_value(side_pips);
        }
        // f[13], the lead rule, is set by `play_features`.

        // Beyond club. My own next play on the new ends, if they stay: its best points and
        // how many of my tiles would score.
        let mut my_best: f64 = 0.0;
        let mut my_scoring = 0.0;
        for t in fits {
            let mut best: f64 = 0.0;
            for arm in after.open_arms().filter(|&x| after.fits(t, x)) {
                let p = State::count_points(self.rules, self.lay(&after, t, Some(arm)).count());
                best = best.max(self.units(p));
            }
            my_best = my_best.max(best);
            if best > 0.0 {
                my_scoring += 1.0;
            }
        }
        f[14] = my_best;
        f[15] = my_scoring;
        // The next seat's best possible reply, and the share of its possible tiles that fit.
        let cand_fit = self.cand.and(playable);
        let mut max_reply: f64 = 0.0;
        for t in cand_fit {
            for arm in after.open_arms().filter(|&x| after.fits(t, x)) {
                let p = State::count_points(self.rules, self.lay(&after, t, Some(arm)).count());
                max_reply = max_reply.max(self.units(p));
            }
        }
        f[16] = max_reply;
        if !self.cand.is_empty() {
            f[17] = f64::from(cand_fit.len()) / f64::from(self.cand.len());
        }
        // Ends the next seat is known to lack.
        let open = after.open_pips();
        f[18] = open.iter().filter(|&p| self.next_void.contains(p)).count() as f64;
        // Late in the hand: points now, and my pips left.
        if !self.drawable {
            f[19] = points;
            f[20] = my_pips;
        }
        // Suits the play newly shows: my tiles and the unseen tiles that carry them.
        let old = if before.is_empty() {
            PipSet::EMPTY
        } else {
            before.open_pips()
        };
        let new: Vec<_> = open.iter().filter(|&p| !old.contains(p)).collect();
        f[21] = hand
            .iter()
            .filter(|t| new.iter().any(|&p| t.has(p)))
            .count() as f64;
        f[22] = self
            .unseen
            .iter()
            .filter(|t| new.iter().any(|&p| t.has(p)))
            .count() as f64;
        // Exposure when the next seat is short of tiles.
        if self.next_len <= 2 {
            f[23] = reply;
        }
        (Special::No, f)
    }

    /// The expected (risk-weighted) best reply of the next seat on `after`, and the chance
    /// that the next seat has no play at all.
    fn reply(&self, after: &Layout) -> (f64, f64) {
        let n = self.cand.len();
        let h = self.next_len.min(n);
        let opp_score = self.view.scores()[self.rules.side_of(self.next)];
        let mut values: Vec<f64> = Vec::new();
        for t in self.cand.and(after.playable_tiles()) {
            let mut best: f64 = 0.0;
            for arm in after.open_arms().filter(|&a| after.fits(t, a)) {
                let raw = State::count_points(self.rules, self.lay(after, t, Some(arm)).count());
                let (wins, scored) = self.effective(opp_score, raw);
                let u = self.units(scored);
                let w = if wins {
                    GAME_REPLY
                } else if u >= 20.0 {
                    u + self.w.sharp * (u - 15.0)
                } else {
                    u
                };
                best = best.max(w);
            }
            values.push(best);
        }
        values.sort_by(|a, b| b.partial_cmp(a).unwrap_or(Ordering::Equal));
        let mut expected = 0.0;
        let mut none_before = 1.0;
        for (i, w) in values.iter().enumerate() {
            let none_after = none_of(n, h, i as u32 + 1);
            expected += w * (none_before - none_after);
            none_before = none_after;
        }
        (expected, none_before)
    }

    /// What blocking the game now is worth to this side.
    fn block_value(&self, side_pips: f64) -> f64 {
        let lowest_opp = self.opp_pips.iter().copied().fold(f64::MAX, f64::min);
        let margin = if self.opp_exact {
            0.0
        } else {
            self.w.block_margin
        };
        let award = |p: f64| f64::from(round5(p.max(0.0).round() as u32));
        let lower = side_pips + margin < lowest_opp;
        match self.rules.award {
            // Every side pays its own pips: what counts is paying less than the others.
            Award::SubtractOwn => {
                let others = self.opp_pips.iter().map(|&p| award(p)).sum::<f64>();
                others / self.opp_pips.len().max(1) as f64 - award(side_pips)
            }
            Award::Opponents if lower => award(self.opp_pips.iter().sum()),
            Award::Difference if lower => self.opp_pips.iter().map(|&p| award(p - side_pips)).sum(),
            Award::Opponents | Award::Difference => -award(side_pips),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fiveup_engine::{Deal, FastRng, HandStart, Preset, Seed};

    use crate::{make_bot, Bot, RandomPlayer};

    fn t(s: &str) -> Tile {
        s.parse().unwrap()
    }

    fn tiles(s: &str) -> Vec<Tile> {
        s.split_whitespace().map(t).collect()
    }

    /// A hand led freely by seat 0, from explicit hands and the front of the boneyard; the
    /// tiles named nowhere follow in index order.
    fn free_hand(rules: Rules, hands: &[&str], front: &str) -> State {
        let hands: Vec<Vec<Tile>> = hands.iter().map(|h| tiles(h)).collect();
        let mut boneyard = tiles(front);
        let named: TileSet = hands.iter().flatten().chain(&boneyard).copied().collect();
        boneyard.extend(rules.tiles().minus(named));
        let deal = Deal::from_hands(&rules, &hands, &boneyard).unwrap();
        State::with_start(rules, deal, HandStart::free(Seat(0))).unwrap()
    }

    fn apply(state: &mut State, actions: &str) {
        for a in actions.split_whitespace() {
            state.apply(a.parse().unwrap()).unwrap();
        }
    }

    fn club(state: &State) -> Action {
        Club.choose(&state.view(state.to_move()))
    }

    /// The best score any unseen tile could make on the reply to `a`.
    fn max_reply(state: &State, a: Action) -> u16 {
        let seat = state.to_move();
        let mut s = state.clone();
        s.apply(a).unwrap();
        let l = *s.layout();
        let mut best = 0;
        for tile in s.view(seat).unseen() {
            for arm in l.open_arms().filter(|&arm| l.fits(tile, arm)) {
                let mut m = l;
                m.lay(tile, arm, s.rules());
                best = best.max(State::count_points(s.rules(), m.count()));
            }
        }
        best
    }

    #[test]
    fn plays_legally_under_every_preset_and_table() {
        let mut rng = FastRng::new(11);
        let mut variants: Vec<Rules> = Vec::new();
        for preset in Preset::ALL {
            for players in 2..=4u8 {
                variants.push(Rules::preset(preset, players));
            }
        }
        for players in 2..=4u8 {
            let mut r = Rules::preset(Preset::FiveUp, players);
            r.manual_scoring = true;
            variants.push(r);
            r.voluntary_draw = true;
            r.boneyard_keep = 2;
            r.exact_target = true;
            variants.push(r);
            let mut r = Rules::preset(Preset::Cross, players);
            r.sprouts = fiveup_engine::SproutRule::AtOnce;
            r.award = Award::Difference;
            variants.push(r);
        }
        for rules in variants {
            for round in 0..3u64 {
                // Club against random players, which miss claims and so offer Muggins calls.
                let mut bots: Vec<Bot> = (0..rules.players)
                    .map(|i| {
                        if (u64::from(i) + round) % 2 == 0 {
                            make_bot("club", 0).unwrap()
                        } else {
                            Bot::Seat(Box::new(RandomPlayer::new(u64::from(i) + round)))
                        }
                    })
                    .collect();
                let mut s = State::from_seed(rules, &Seed::from_u64(rng.next_u64())).unwrap();
                while matches!(s.phase(), Phase::Play | Phase::Claim) {
                    let a = bots[s.to_move().idx()].choose(&s);
                    assert!(s.is_legal(a), "club chose illegal {a} under {rules:?}");
                    s.apply(a).unwrap();
                }
            }
        }
    }

    #[test]
    fn the_name_takes_no_settings() {
        assert_eq!(make_bot("club", 1).unwrap().name(), "club");
        assert!(make_bot("club:weight=2", 1).is_err());
    }

    #[test]
    fn leads_a_ten_on_a_free_lead() {
        let rules = Rules::default();
        let s = free_hand(
            rules,
            &["6-6 4-4 5-5 3-2 1-0 2-1 4-1", "6-5 6-3 5-3 4-3 2-0 3-0 1-1"],
            "",
        );
        assert_eq!(club(&s), Action::lead(t("5-5")));
        let s = free_hand(
            rules,
            &["6-6 3-3 6-4 5-0 1-0 2-1 4-1", "6-5 6-3 5-3 4-3 2-0 5-5 1-1"],
            "",
        );
        assert_eq!(club(&s), Action::lead(t("6-4")));
    }

    #[test]
    fn lays_a_double_early_rather_than_another_tile_of_equal_points() {
        // 6-1 is led; 1-1 and 2-1 both make 8 on the 1 and leave alike replies (4-1 or 4-2
        // for 10, 6-3 for 5), so only the double decides. Greedy would lay the heavier 2-1.
        let mut s = free_hand(
            Rules::default(),
            &["6-1 6-3 4-1 4-2 0-0 6-6 5-2", "1-1 2-1 2-2 5-5 5-3 4-3 3-0"],
            "",
        );
        apply(&mut s, "6-1");
        assert_eq!(s.view(Seat(1)).points_of(club(&s)), 0);
        assert_eq!(club(&s), Action::play(t("1-1"), ArmId(1)));
    }

    #[test]
    fn leaves_no_easy_twenty_for_the_same_points() {
        // 4-1 led, 2-1 on E, 4-4 on W: the count is 10. Every play on the 2 scores nothing,
        // but 6-2 (greedy's choice, the heaviest) lets 6-6 make 20.
        let mut s = free_hand(
            Rules::default(),
            &["4-2 5-4 4-4 4-1 6-6 5-0 6-1", "6-2 6-0 1-0 2-0 5-2 3-2 2-1"],
            "",
        );
        apply(&mut s, "4-1 2-1@E 4-4@W");
        let six_two = Action::play(t("6-2"), ArmId(1));
        assert!(max_reply(&s, six_two) >= 20);
        let a = club(&s);
        assert_ne!(a, six_two);
        assert_eq!(s.view(Seat(1)).points_of(a), 0);
        assert!(max_reply(&s, a) < 20, "{a} leaves {}", max_reply(&s, a));
    }

    #[test]
    fn forces_a_suit_the_next_player_has_shown_it_lacks() {
        // Seat 1 had neither 6 nor 3 on the 6-3 lead and drew 6-0. Laying 3-0 on the 0 leaves
        // two 3s showing, so it must draw again.
        let mut s = free_hand(
            Rules::default(),
            &["6-3 3-0 4-0 3-1 6-6 5-2 4-2", "5-5 5-4 4-4 2-2 2-1 1-1 5-1"],
            "6-0",
        );
        apply(&mut s, "6-3 D 6-0@W");
        let a = club(&s);
        assert_eq!(a, Action::play(t("3-0"), ArmId(0)));
        s.apply(a).unwrap();
        assert_eq!(s.legal_actions().as_slice(), &[Action::Draw]);
    }

    #[test]
    fn a_later_draw_forgets_the_suits_it_may_have_brought() {
        let mut s = free_hand(
            Rules::default(),
            &["6-3 3-0 4-0 3-1 6-6 5-2 4-2", "5-5 5-4 4-4 2-2 2-1 1-1 5-1"],
            "6-0",
        );
        apply(&mut s, "6-3 D 6-0@W");
        let pips = |ps: &[u8]| {
            let mut set = PipSet::EMPTY;
            ps.iter().for_each(|&p| set.insert(p));
            set
        };
        assert_eq!(knowledge(&s.view(Seat(0)))[1].void, pips(&[3, 6]));
        // Seat 1 draws 0-0 on two 3s: it still lacks 3, but the 0-0 it keeps could as well
        // have been a 6.
        apply(&mut s, "3-0@W D");
        assert_eq!(s.to_move(), Seat(1), "0-0 does not fit, so seat 1 draws on");
        assert_eq!(knowledge(&s.view(Seat(0)))[1].void, pips(&[3]));
    }

    #[test]
    fn always_claims_exactly_and_calls_muggins() {
        let rules = Rules {
            manual_scoring: true,
            ..Rules::default()
        };
        let mut s = free_hand(
            rules,
            &["5-5 6-6 4-4 3-2 1-0 2-1 4-1", "6-5 5-0 5-3 4-3 2-0 3-0 1-1"],
            "",
        );
        assert_eq!(club(&s), Action::lead(t("5-5")));
        apply(&mut s, "5-5");
        assert_eq!(club(&s), Action::Claim(10));
        apply(&mut s, "C10 5-0@W C0");
        assert_eq!(club(&s), Action::Muggins);
    }

    #[test]
    fn goes_out_whenever_it_can_and_never_draws_by_choice() {
        let mut rules = Rules::preset(Preset::FiveUp, 2);
        rules.voluntary_draw = true;
        let mut rng = FastRng::new(5);
        let mut outs = 0;
        for _ in 0..40 {
            let mut s = State::from_seed(rules, &Seed::from_u64(rng.next_u64())).unwrap();
            while s.phase() == Phase::Play {
                let seat = s.to_move();
                let a = if seat == Seat(0) {
                    club(&s)
                } else {
                    crate::greedy_action(&s)
                };
                let legal = s.legal_actions();
                if seat == Seat(0) && legal.iter().any(|x| matches!(x, Action::Play { .. })) {
                    assert!(matches!(a, Action::Play { .. }), "{a} instead of a play");
                    if s.hand(seat).len() == 1 {
                        let view = s.view(seat);
                        let best = legal.iter().map(|&x| view.points_of(x)).max();
                        assert_eq!(Some(view.points_of(a)), best);
                        outs += 1;
                    }
                }
                s.apply(a).unwrap();
            }
        }
        assert!(outs > 5, "only {outs} chances to go out");
    }
}
