//! Properties of random games, for every preset and every set (double-six, double-nine and
//! double-twelve), 2 to 8 players (4 and 6 with and without partnerships), with house options
//! mixed in: tiles are never lost or duplicated, the count
//! kept as tiles are laid equals the count recomputed, scores stay in fives, the legal list and
//! `is_legal` agree on every possible action, illegal actions change nothing, views hide other
//! hands, and resampled states reproduce the view they came from.

use fiveup_engine::{
    Action, ArmId, Award, BlockedTie, Deal, Entry, FastRng, FirstLead, GameEnd, MugginsCall,
    NextLead, NoDouble, Phase, PlayScoring, Preset, ResampleError, Rules, Sampler, Seat, Seed,
    SetupError, Side, SproutRule, State, Tile, TileSet, View, MAX_ARMS,
};
use proptest::prelude::*;

/// Rules: a preset, a set, a player count the set allows (4 and 6 players with or without
/// partnerships), and, half the time, a random mix of house options (kept only if the mix is
/// valid). Double-six is drawn half the time.
fn rules_strategy() -> impl Strategy<Value = Rules> {
    (
        0..Preset::ALL.len(),
        prop::sample::select(vec![6u8, 6, 6, 9, 12]),
        2u8..=8,
        any::<bool>(),
        any::<bool>(),
        any::<u32>(),
    )
        .prop_map(|(p, set, players, partners, mix, bits)| {
            let preset = Preset::ALL[p];
            // The party preset is a double-twelve game; every other preset plays on any set.
            let set = if preset == Preset::PartyTwelve {
                12
            } else {
                set
            };
            let mut r = Rules::preset_with_set(preset, players, set);
            if players == 4 || players == 6 {
                r.partnerships = partners;
            }
            if mix {
                let base = r;
                let pick = |shift: u32, n: u32| (bits >> shift) % n;
                r.hand_size = [r.hand_size, 3, 5, 7, 9][pick(0, 5) as usize];
                r.sprouts = [SproutRule::AfterBothSides, SproutRule::AtOnce][pick(3, 2) as usize];
                r.no_double = [
                    NoDouble::Redeal,
                    NoDouble::HeaviestTile,
                    NoDouble::DrawUntilDouble,
                    NoDouble::EachDraws,
                ][pick(4, 4) as usize];
                r.next_lead =
                    [NextLead::Winner, NextLead::Rotate, NextLead::FirstLead][pick(6, 3) as usize];
                r.voluntary_draw = r.drawing && pick(7, 2) == 1;
                r.boneyard_keep = pick(8, 3) as u8;
                r.award =
                    [Award::Opponents, Award::Difference, Award::SubtractOwn][pick(10, 3) as usize];
                r.doubles_count_one_half = pick(12, 2) == 1;
                r.game_end = [GameEnd::Immediate, GameEnd::FinishHand][pick(13, 2) as usize];
                r.exact_target = pick(14, 4) == 0;
                r.manual_scoring = r.play_scoring != PlayScoring::None && pick(16, 2) == 1;
                r.target = [r.target, 50, 100][pick(17, 3) as usize];
                r.first_lead = [
                    FirstLead::HighestDouble,
                    FirstLead::HighestDoubleAny,
                    FirstLead::Lot,
                    FirstLead::TopDouble,
                ][pick(19, 4) as usize];
                r.cross_first = r.spinner != fiveup_engine::SpinnerRule::None && pick(21, 3) == 0;
                r.blocked_tie = [BlockedTie::Share, BlockedTie::Nobody][pick(23, 2) as usize];
                r.muggins_call = [MugginsCall::Next, MugginsCall::Any][pick(24, 2) as usize];
                r.draw_one = r.drawing && pick(25, 3) == 0;
                r.hand_limit = [0, 0, 3][pick(26, 3) as usize];
                if r.validate().is_err() {
                    r = base;
                }
            }
            r
        })
}

/// Every action the engine could be asked about: leads, plays on every arm (open or not) of
/// every tile of the set and of the next pip up (tiles that are not in the set at all), draw,
/// pass, claims of 0 to 40 and 255, and a Muggins call.
fn universe(set: u8) -> Vec<Action> {
    let mut v = Vec::new();
    let outside = Tile::all((set + 1).min(12));
    for t in outside {
        v.push(Action::lead(t));
        for a in 0..MAX_ARMS as u8 {
            v.push(Action::play(t, ArmId(a)));
        }
    }
    v.extend([
        Action::Draw,
        Action::Pass,
        Action::Muggins,
        Action::Claim(255),
    ]);
    v.extend((0..=40).map(Action::Claim));
    v
}

/// The first hand of a game. With `no_doubles` the deal keeps every double in the boneyard,
/// which exercises the no-double rules (falling back to a seeded deal when they say redeal).
fn first_hand(rules: Rules, seed: u64, no_doubles: bool) -> State {
    if no_doubles {
        let mut rng = FastRng::new(seed);
        let mut order: Vec<Tile> = rules.tiles().iter().collect();
        fiveup_engine::shuffle(&mut order, |n| rng.below(n));
        order.sort_by_key(|t| t.is_double());
        let deal = Deal::from_order(&rules, &order).expect("28 tiles");
        match State::new(rules, deal) {
            Ok(s) => return s,
            Err(SetupError::NoDouble) => {}
            Err(e) => panic!("{e}"),
        }
    }
    State::from_seed(rules, &Seed::from_u64(seed)).expect("valid rules")
}

/// Play up to `hands` hands with random legal actions, calling `f` on every state reached
/// (including the first) and with the action and state before it.
fn play_games(
    rules: Rules,
    seed: u64,
    no_doubles: bool,
    hands: u32,
    mut f: impl FnMut(&State, Option<(&State, Action)>),
) {
    let mut rng = FastRng::new(seed ^ 0x5eed);
    let mut s = first_hand(rules, seed, no_doubles);
    f(&s, None);
    for h in 0..hands {
        while matches!(s.phase(), Phase::Play | Phase::Claim) {
            let l = s.legal_actions();
            assert!(!l.is_empty(), "no legal action in {s:?}");
            let a = l[rng.below(l.len() as u32) as usize];
            let before = s.clone();
            s.apply(a)
                .unwrap_or_else(|e| panic!("listed {a} refused: {e}"));
            f(&s, Some((&before, a)));
        }
        if s.phase() == Phase::GameOver || h + 1 == hands {
            break;
        }
        s.next_hand_from_seed(&Seed::from_u64(seed.wrapping_add(1)))
            .unwrap_or_else(|e| panic!("next hand: {e}"));
        f(&s, None);
    }
}

fn assert_tiles_accounted(s: &State) {
    let mut seen = s.layout().tiles();
    let mut n = seen.len();
    for p in (0..s.rules().players).map(Seat) {
        let h = s.hand(p);
        assert!(seen.and(h).is_empty(), "{p} holds a tile seen elsewhere");
        seen = seen.or(h);
        n += h.len();
    }
    for &t in s.boneyard() {
        assert!(!seen.contains(t), "boneyard tile {t} seen elsewhere");
        seen.insert(t);
        n += 1;
    }
    assert_eq!(seen, s.rules().tiles());
    assert_eq!(n as usize, s.rules().tile_count());
    assert_eq!(s.boneyard().len(), usize::from(s.boneyard_len()));
}

fn assert_count_consistent(s: &State) {
    assert_eq!(s.layout().count(), s.layout().recount(), "{s:?}");
}

fn assert_fives(s: &State, outcome_points: Option<u16>) {
    if s.rules().small_scale() {
        return;
    }
    for side in (0..s.rules().sides()).map(Side) {
        assert_eq!(s.scores()[side] % 5, 0, "score of {side}");
    }
    if let Some(p) = outcome_points {
        assert_eq!(p % 5, 0);
    }
    for e in s.log() {
        match *e {
            Entry::Play { points, .. }
            | Entry::Claim { points, .. }
            | Entry::Muggins { points, .. } => assert_eq!(points % 5, 0, "{e:?}"),
            _ => {}
        }
    }
    if let Some(r) = s.result() {
        for side in (0..s.rules().sides()).map(Side) {
            assert_eq!(r.awards[side] % 5, 0);
            assert_eq!(r.scored[side] % 5, 0);
        }
    }
}

/// The quoted text of a tile as it appears in serialised views.
fn quoted(t: Tile) -> String {
    format!("\"{t}\"")
}

fn assert_view_private(s: &State, seat: Seat, v: &View, check_json: bool) {
    assert_eq!(v.seat(), seat);
    assert_eq!(v.hand(), s.hand(seat));
    for p in (0..s.rules().players).map(Seat) {
        assert_eq!(u32::from(v.hand_sizes()[p]), s.hand(p).len());
    }
    assert_eq!(v.boneyard_len(), s.boneyard_len());
    assert_eq!(v.layout(), s.layout());
    assert_eq!(v.history().len(), s.log().len());
    for (mine, full) in v.history().iter().zip(s.log()) {
        match (*mine, *full) {
            (Entry::Draw { seat: p, tile, .. }, Entry::Draw { tile: real, .. })
            | (Entry::LeadDraw { seat: p, tile }, Entry::LeadDraw { tile: real, .. }) => {
                if p == seat {
                    assert_eq!(tile, real);
                } else {
                    assert_eq!(tile, None, "{seat} sees a tile {p} drew");
                }
            }
            (a, b) => assert_eq!(a, b),
        }
    }
    let hidden = s
        .rules()
        .tiles()
        .minus(s.hand(seat))
        .minus(s.layout().tiles());
    assert_eq!(v.unseen(), hidden);
    if s.to_move() == seat {
        assert_eq!(
            v.legal_actions().as_slice(),
            s.legal_actions().as_slice(),
            "view and state disagree for {seat}"
        );
    } else {
        assert!(v.legal_actions().is_empty());
    }
    if check_json && s.result().is_none() {
        let json = serde_json::to_string(&v.to_data()).expect("view serialises");
        for t in hidden {
            assert!(
                !json.contains(&quoted(t)),
                "{seat}'s view shows hidden {t}: {json}"
            );
        }
    }
}

fn fingerprint(s: &State) -> (String, Vec<View>) {
    let views = (0..s.rules().players).map(|p| s.view(Seat(p))).collect();
    (format!("{s:?}"), views)
}

proptest! {
    /// After every action: the 28 tiles are each in exactly one place, the count equals the
    /// recount, scores are in fives (unless the scale is small), `is_legal` and `check` agree
    /// with the legal list on every possible action, illegal actions are refused and change
    /// nothing, legal ones apply as `apply_unchecked` does, and each seat's view holds only what
    /// that seat may know.
    #[test]
    fn invariants_after_every_action(
        rules in rules_strategy(),
        seed in any::<u64>(),
        no_doubles in prop::bool::weighted(0.15),
    ) {
        let all = universe(rules.set);
        let mut rng = FastRng::new(seed ^ 0x1117);
        play_games(rules, seed, no_doubles, 2, |s, step| {
            assert_tiles_accounted(s);
            assert_count_consistent(s);
            let outcome_points = step.map(|(before, a)| {
                let mut again = before.clone();
                again.apply_unchecked(a).points
            });
            assert_fives(s, outcome_points);
            if let Some((before, a)) = step {
                let mut again = before.clone();
                again.apply_unchecked(a);
                assert_eq!(fingerprint(&again), fingerprint(s));
            }

            let legal = s.legal_actions();
            for &a in legal.iter() {
                assert!(s.is_legal(a), "listed {} is not legal", a);
            }
            let mut illegal = Vec::new();
            for &a in &all {
                let listed = legal.contains(&a);
                assert_eq!(s.is_legal(a), listed, "{} listed={}", a, listed);
                assert_eq!(s.check(a).is_ok(), listed);
                if !listed {
                    illegal.push(a);
                }
            }
            let before = fingerprint(s);
            for _ in 0..4 {
                let a = illegal[rng.below(illegal.len() as u32) as usize];
                let mut t = s.clone();
                assert!(t.apply(a).is_err(), "{} applied", a);
                assert_eq!(&fingerprint(&t), &before, "{} changed the state", a);
            }
            let json = rng.below(8) == 0;
            for p in (0..s.rules().players).map(Seat) {
                assert_view_private(s, p, &s.view(p), json);
            }
        });
    }

    /// A state sampled from any seat's view gives back exactly that view, keeps the viewer's
    /// hand, and is itself a sound state: at any point of any game.
    #[test]
    fn resampled_states_reproduce_the_view(
        rules in rules_strategy(),
        seed in any::<u64>(),
        no_doubles in prop::bool::weighted(0.15),
        stops in prop::array::uniform3(0.0f64..1.0),
    ) {
        check_resampling(rules, seed, no_doubles, stops, |_| true);
    }

    /// The same property on the positions the sampler handles today: after the lead, with the
    /// hand in progress, the boneyard still drawable, and draws forced (no voluntary drawing).
    #[test]
    fn resampled_states_reproduce_the_view_mid_hand(
        rules in rules_strategy(),
        seed in any::<u64>(),
        no_doubles in prop::bool::weighted(0.15),
        stops in prop::array::uniform3(0.0f64..1.0),
    ) {
        check_resampling(rules, seed, no_doubles, stops, |s| {
            !s.rules().voluntary_draw
                && !s.layout().is_empty()
                && !s.is_hand_over()
                && s.can_draw()
        });
    }
}

/// Play one hand; at three points chosen by `stops` (fractions of the hand's length) where
/// `supported` holds, sample twice from every seat's view and check the samples.
fn check_resampling(
    rules: Rules,
    seed: u64,
    no_doubles: bool,
    stops: [f64; 3],
    supported: impl Fn(&State) -> bool,
) {
    let mut steps = 0u32;
    play_games(rules, seed, no_doubles, 1, |_, _| steps += 1);
    let points: Vec<u32> = stops
        .iter()
        .map(|f| (f64::from(steps) * f) as u32)
        .collect();
    let mut rng = FastRng::new(seed ^ 0xa11ce);
    let mut i = 0u32;
    play_games(rules, seed, no_doubles, 1, |s, _| {
        if points.contains(&i) && supported(s) {
            for p in (0..s.rules().players).map(Seat) {
                let v = s.view(p);
                let mut sampler = Sampler::new(&v);
                for _ in 0..2 {
                    // Exactly uniform where the sampler can count; else (bigger sets, many
                    // players) a consistent deal all the same.
                    let got = match sampler.sample(&mut rng) {
                        Err(ResampleError::TooComplex) => sampler.sample_consistent(&mut rng),
                        other => other,
                    };
                    match got {
                        Ok(sample) => {
                            assert_eq!(sample.view(p), v, "resampled view differs for {p}");
                            assert_eq!(sample.hand(p), s.hand(p));
                            assert_tiles_accounted(&sample);
                            assert_count_consistent(&sample);
                        }
                        Err(e) => panic!("{p} could not resample: {e}\n{s:?}"),
                    }
                }
            }
        }
        i += 1;
    });
}

/// The universe of actions used above really is every tile on every arm.
#[test]
fn universe_covers_every_play() {
    let u = universe(6);
    let plays: TileSet = u
        .iter()
        .filter_map(|a| match a {
            Action::Play {
                tile,
                arm: Some(ArmId(27)),
            } => Some(*tile),
            _ => None,
        })
        .collect();
    assert_eq!(plays, Tile::all(7));
    assert_eq!(MAX_ARMS, 28);
}

/// Every preset, at every table it is meant for, ends within a bound of hands: 10,000 seeded
/// games of random legal play in all (the bound a never-ending mix would break).
#[test]
fn every_preset_ends_within_a_bound_of_hands() {
    const GAMES: u64 = 10_000;
    const BOUND: u16 = 200;
    let tables: Vec<(Preset, u8)> = Preset::ALL
        .into_iter()
        .flat_map(|p| {
            let (lo, hi) = p.players();
            (lo..=hi).map(move |n| (p, n))
        })
        .collect();
    let per = GAMES / tables.len() as u64 + 1;
    let mut most = (0u16, String::new());
    let mut games = 0u64;
    for (i, &(preset, n)) in tables.iter().enumerate() {
        let rules = Rules::preset(preset, n);
        for g in 0..per {
            let seed = (i as u64) << 32 | g;
            let mut rng = FastRng::new(seed);
            let mut s = State::from_seed(rules, &Seed::from_u64(seed)).expect("valid preset");
            loop {
                while matches!(s.phase(), Phase::Play | Phase::Claim) {
                    let a = s.random_action(&mut rng);
                    s.apply(a).expect("a legal action");
                }
                let hand = s.start().hand_no;
                if s.phase() == Phase::GameOver {
                    if hand > most.0 {
                        most = (hand, format!("{preset} with {n} players, seed {seed}"));
                    }
                    break;
                }
                assert!(
                    hand < BOUND,
                    "{preset} with {n} players, seed {seed}: {hand} hands"
                );
                s.next_hand_from_seed(&Seed::from_u64(seed))
                    .expect("the next hand");
            }
            games += 1;
        }
    }
    assert!(games >= GAMES);
    println!(
        "{games} games: the longest took {} hands ({})",
        most.0, most.1
    );
}
