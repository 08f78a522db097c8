//! Fuzz target: the legal list and `is_legal` agree, illegal actions change nothing, and the
//! count kept as tiles are laid equals the count recomputed.
//!
//! Input: byte 0 picks the preset and the table (2, 3 or 4 players, 4 with or without
//! partnerships); bytes 1-3 choose house options (ignored if the mix is invalid); bytes 4-11
//! are the game's seed; every further byte is one step. A step byte below 0xc0 lays the legal
//! action it indexes (modulo the list's length); from 0xc0 up it reads an arbitrary action from
//! the next bytes, which is applied only if legal, and must be refused otherwise.

#![no_main]

use fiveup_engine::{
    Action, ArmId, Award, BySeat, BySide, Entry, FastRng, GameEnd, HandResult, Layout, NextLead, NoDouble,
    Phase, PlayScoring, Preset, Rules, Seat, Seed, Side, SproutRule, State, Tile, MAX_ARMS,
};
use libfuzzer_sys::fuzz_target;

struct Input<'a> {
    data: &'a [u8],
    pos: usize,
}

impl Input<'_> {
    fn byte(&mut self) -> Option<u8> {
        let b = self.data.get(self.pos).copied();
        self.pos += 1;
        b
    }

    fn byte_or_zero(&mut self) -> u8 {
        self.byte().unwrap_or(0)
    }
}

fn rules(input: &mut Input<'_>) -> Rules {
    let b = input.byte_or_zero();
    let preset = Preset::ALL[usize::from(b) % Preset::ALL.len()];
    let table = (b / 8) % 4;
    let players = [2, 3, 4, 4][usize::from(table)];
    let mut r = Rules::preset(preset, players);
    r.partnerships = table == 2;
    let bits = u32::from_le_bytes([
        input.byte_or_zero(),
        input.byte_or_zero(),
        input.byte_or_zero(),
        0,
    ]);
    if bits & 1 == 1 {
        let base = r;
        let pick = |shift: u32, n: u32| ((bits >> shift) % n) as usize;
        r.hand_size = [r.hand_size, 5, 6, 7, 9][pick(1, 5)];
        r.sprouts = [SproutRule::AfterBothSides, SproutRule::AtOnce][pick(4, 2)];
        r.no_double = [
            NoDouble::Redeal,
            NoDouble::HeaviestTile,
            NoDouble::DrawUntilDouble,
        ][pick(5, 3)];
        r.next_lead = [NextLead::Winner, NextLead::Rotate][pick(7, 2)];
        r.voluntary_draw = r.drawing && pick(8, 2) == 1;
        r.boneyard_keep = pick(9, 3) as u8;
        r.award = [Award::Opponents, Award::Difference, Award::SubtractOwn][pick(11, 3)];
        r.doubles_count_one_half = pick(13, 2) == 1;
        r.game_end = [GameEnd::Immediate, GameEnd::FinishHand][pick(14, 2)];
        r.exact_target = pick(15, 2) == 1;
        r.manual_scoring = r.play_scoring != PlayScoring::None && pick(16, 2) == 1;
        r.target = [r.target, 50, 61, 1000][pick(17, 4)];
        if r.validate().is_err() {
            r = base;
        }
    }
    r
}

fn arbitrary_action(kind: u8, input: &mut Input<'_>) -> Action {
    let tile = Tile::from_index(input.byte_or_zero() % 28).expect("index below 28");
    match kind % 8 {
        0 => Action::lead(tile),
        1 => Action::play(tile, ArmId(input.byte_or_zero())),
        2 | 7 => Action::play(tile, ArmId(input.byte_or_zero() % MAX_ARMS as u8)),
        3 => Action::Draw,
        4 => Action::Pass,
        5 => Action::Claim(input.byte_or_zero()),
        _ => Action::Muggins,
    }
}

/// Everything an action could change.
#[derive(PartialEq, Debug)]
struct Snapshot {
    log: Vec<Entry>,
    hands: BySeat<fiveup_engine::TileSet>,
    scores: BySide<i32>,
    layout: Layout,
    phase: Phase,
    to_move: Seat,
    boneyard: Vec<Tile>,
    drew: (bool, bool),
    claimable: u8,
    muggins: u8,
    result: Option<HandResult>,
    winner: Option<Side>,
}

fn snapshot(s: &State) -> Snapshot {
    Snapshot {
        log: s.log().to_vec(),
        hands: *s.hands(),
        scores: *s.scores(),
        layout: *s.layout(),
        phase: s.phase(),
        to_move: s.to_move(),
        boneyard: s.boneyard().to_vec(),
        drew: s.drew_this_turn(),
        claimable: s.claimable(),
        muggins: s.muggins_available(),
        result: s.result().copied(),
        winner: s.winner(),
    }
}

/// Every action the engine could be asked about (plays on every arm, claims 0 to 40).
fn universe() -> Vec<Action> {
    let mut v = vec![Action::Draw, Action::Pass, Action::Muggins];
    for t in Tile::all(6) {
        v.push(Action::lead(t));
        for a in 0..MAX_ARMS as u8 {
            v.push(Action::play(t, ArmId(a)));
        }
    }
    v.extend((0..=40).map(Action::Claim));
    v
}

fn check_state(s: &State, all: &[Action]) {
    assert_eq!(s.layout().count(), s.layout().recount(), "{s:?}");
    // The list-free paths agree with the list: the count (which reads the kept number of
    // plays), every index, and the random pick.
    if matches!(s.phase(), Phase::Play | Phase::Claim) {
        let list = s.legal_actions();
        assert_eq!(s.legal_action_count(), list.len(), "{s:?}");
        for (k, a) in list.iter().enumerate() {
            assert_eq!(s.nth_legal_action(k), *a, "{s:?}");
        }
        let mut rng = FastRng::new(u64::from(s.layout().count()) + list.len() as u64);
        assert!(list.contains(&s.random_action(&mut rng)), "{s:?}");
    }
    let mut seen = s.layout().tiles();
    for p in (0..s.rules().players).map(Seat) {
        assert!(seen.and(s.hand(p)).is_empty());
        seen = seen.or(s.hand(p));
    }
    for &t in s.boneyard() {
        assert!(!seen.contains(t));
        seen.insert(t);
    }
    assert_eq!(seen, Tile::all(6));
    let legal = s.legal_actions();
    assert_eq!(
        legal.is_empty(),
        !matches!(s.phase(), Phase::Play | Phase::Claim),
        "{s:?}"
    );
    for &a in all {
        let listed = legal.contains(&a);
        assert_eq!(s.is_legal(a), listed, "{a} listed={listed} in {s:?}");
        assert_eq!(s.check(a).is_ok(), listed, "{a}");
    }
    for &a in legal.iter() {
        assert!(s.is_legal(a), "{a}");
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input { data, pos: 0 };
    let rules = rules(&mut input);
    let mut seed_bytes = [0u8; 8];
    for b in &mut seed_bytes {
        *b = input.byte_or_zero();
    }
    let seed = Seed::from_u64(u64::from_le_bytes(seed_bytes));
    let Ok(mut state) = State::from_seed(rules, &seed) else {
        // Only a missing double under the redeal rule can fail, and from_seed redeals.
        panic!("no game from a valid rules value");
    };
    let all = universe();
    check_state(&state, &all);
    let mut steps = 0;
    while let Some(b) = input.byte() {
        steps += 1;
        if steps > 4000 {
            break;
        }
        if state.is_hand_over() {
            if state.phase() == Phase::GameOver {
                break;
            }
            state
                .next_hand_from_seed(&seed)
                .expect("the next hand deals");
            check_state(&state, &all);
        }
        let legal = state.legal_actions();
        if b < 0xc0 {
            let a = legal[usize::from(b) % legal.len()];
            state
                .apply(a)
                .unwrap_or_else(|e| panic!("listed {a} refused: {e}"));
        } else {
            let a = arbitrary_action(b, &mut input);
            let listed = legal.contains(&a);
            assert_eq!(state.is_legal(a), listed, "{a}");
            if listed {
                state
                    .apply(a)
                    .unwrap_or_else(|e| panic!("listed {a} refused: {e}"));
            } else {
                let before = snapshot(&state);
                assert!(state.apply(a).is_err(), "unlisted {a} applied");
                assert_eq!(snapshot(&state), before, "refused {a} changed the state");
                continue;
            }
        }
        check_state(&state, &all);
    }
});
