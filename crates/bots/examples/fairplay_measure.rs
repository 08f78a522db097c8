//! Measure the detector of computer-assisted play (`fiveup_bots::fairplay`) on simulated
//! accounts, and print the honest bands and the threshold it should use.
//!
//! ```text
//! cargo run --release -p fiveup-bots --example fairplay_measure -- --threads 1
//! ```
//!
//! Every game is a two-player game of Five Up to 150. An account is a simulated person: a level's
//! computer player (`casual`, `club`, `strong`) that plays a uniformly random legal action on a
//! share of its decisions with a choice (its slip rate, drawn per account uniformly between 0
//! and twice `--slip`). Honest accounts come in pairs of one level, the two of a pair playing
//! `--games` games against each other (seats alternating, every deal new), and both seats of
//! every game are analysed with `game_figures` and `analysis_config`: every honest game
//! analysed belongs to one account only. The honest accounts give each level's band (its
//! agreement and loss per decision, their spreads), then the threshold: the lowest z (in steps
//! of 0.05) at which fewer than `--fp` of the honest accounts are flagged at any check (after
//! each of their games, once they have the minimum of decisions).
//!
//! Assisted accounts are club players (with their own slip rate) who play the `master` level's
//! move on a share of their decisions with a choice (30%, 60%, 100%), against honest club
//! accounts; each plays until flagged, at most `--max-games` games, judged in the club band.
//!
//! Arguments (all optional): `--seed S` (1), `--threads T` (1), `--games G` (20, per honest
//! account), `--casual N`, `--club N`, `--strong N` (honest accounts per level, even: 480, 480,
//! 40), `--assisted N` (accounts per assisted population, 50), `--max-games C` (30),
//! `--slip X` (0.05), `--fp F` (0.005), `--dump FILE` (write every account's figures, game by
//! game, as JSON lines: `{"population", "account", "flagged_at", "games"}`), `--samples N` (the
//! analysis's worlds, to study other settings: by default `analysis_config`'s). The results
//! depend only on the arguments (not on `--threads`); the times printed are the machine's
//! (processor time read from `/proc/thread-self/schedstat`, zero where there is none).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use fiveup_bots::duel::{deal_seed, wilson95};
use fiveup_bots::fairplay::{
    analysis_config, game_figures, seed_path, suspicion_against, z_scores, Band, GameFigures,
    SimulatedPerson, WINDOW,
};
use fiveup_bots::{measured_rating, ExpertConfig};
use fiveup_engine::notation::{Record, Recorder};
use fiveup_engine::{FastRng, Phase, Rules, Seat, Seed, State};

/// Games are played to this many points.
const TARGET: u16 = 150;
/// A game longer than this many hands is a bug.
const MAX_HANDS: usize = 200;
/// The honest levels, weakest first.
const HONEST: [&str; 3] = ["casual", "club", "strong"];
/// The shares of decisions an assisted account copies from the master level.
const COPY: [f64; 3] = [0.3, 0.6, 1.0];
/// The least expected number of disagreements a band's minimum of decisions gives: the usual
/// condition for the normal approximation of a binomial count.
const MIN_DISAGREEMENTS: f64 = 5.0;

struct Args {
    seed: u64,
    threads: usize,
    games: usize,
    accounts: [usize; 3],
    assisted: usize,
    max_games: usize,
    slip: f64,
    fp: f64,
    dump: Option<String>,
    analysis: ExpertConfig,
}

fn args() -> Args {
    let mut a = Args {
        seed: 1,
        threads: 1,
        games: WINDOW,
        accounts: [480, 480, 40],
        assisted: 50,
        max_games: 30,
        slip: 0.05,
        fp: 0.005,
        dump: None,
        analysis: analysis_config(),
    };
    let argv: Vec<String> = std::env::args().skip(1).collect();
    for kv in argv.chunks(2) {
        let [k, v] = kv else {
            panic!("every option takes a value: {kv:?}");
        };
        let n = || -> usize {
            v.parse()
                .unwrap_or_else(|_| panic!("{k}: not a number: {v}"))
        };
        let x = || -> f64 {
            v.parse()
                .unwrap_or_else(|_| panic!("{k}: not a number: {v}"))
        };
        match k.as_str() {
            "--seed" => a.seed = n() as u64,
            "--threads" => a.threads = n().max(1),
            "--games" => a.games = n().max(1),
            "--casual" => a.accounts[0] = n(),
            "--club" => a.accounts[1] = n(),
            "--strong" => a.accounts[2] = n(),
            "--assisted" => a.assisted = n(),
            "--max-games" => a.max_games = n().max(1),
            "--slip" => a.slip = x(),
            "--fp" => a.fp = x(),
            "--dump" => a.dump = Some(v.clone()),
            "--samples" => a.analysis.samples = n().max(1) as u32,
            _ => panic!("unknown option {k}"),
        }
    }
    for (l, n) in HONEST.iter().zip(a.accounts) {
        assert!(
            n % 2 == 0,
            "--{l} must be even: honest accounts play in pairs"
        );
    }
    a
}

/// Play one game; returns the record and each seat's decisions with a choice.
fn play(people: &mut [SimulatedPerson; 2], seed: &Seed) -> (Record, [u64; 2]) {
    let rules = Rules {
        target: TARGET,
        ..Rules::default()
    };
    let mut state = State::from_seed(rules, seed).expect("a deal");
    let mut rec = Recorder::new(&state, None, Some(*seed)).expect("a recorder");
    let mut choices = [0u64; 2];
    let mut hands = 1;
    loop {
        while matches!(state.phase(), Phase::Play | Phase::Claim) {
            let seat = state.to_move();
            choices[seat.idx()] += u64::from(state.legal_actions().len() > 1);
            let a = people[seat.idx()].choose(&state.view(seat));
            rec.apply(&mut state, a).expect("a legal action");
        }
        if state.phase() != Phase::HandOver {
            break;
        }
        hands += 1;
        assert!(hands <= MAX_HANDS, "a game of more than {MAX_HANDS} hands");
        state.next_hand_from_seed(seed).expect("a deal");
        rec.start_hand(&state);
    }
    (rec.finish(&state), choices)
}

/// The processor time the calling thread has used (Linux: `/proc/thread-self/schedstat`), or
/// zero where it cannot be read.
fn thread_cpu() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .map_or(Duration::ZERO, Duration::from_nanos)
}

/// A stopwatch of wall-clock and processor time (the thread's).
struct Watch(Instant, Duration);

impl Watch {
    fn start() -> Watch {
        Watch(Instant::now(), thread_cpu())
    }

    /// Wall-clock and processor time since the start.
    fn read(&self) -> (Duration, Duration) {
        (self.0.elapsed(), thread_cpu().saturating_sub(self.1))
    }
}

/// Time spent and decisions analysed, and time spent playing (wall clock and processor).
#[derive(Default, Clone, Copy)]
struct Cost {
    analysis: (Duration, Duration),
    analysed: u64,
    play: (Duration, Duration),
    games: u64,
}

fn add2(a: &mut (Duration, Duration), b: (Duration, Duration)) {
    a.0 += b.0;
    a.1 += b.1;
}

impl Cost {
    fn add(&mut self, o: &Cost) {
        add2(&mut self.analysis, o.analysis);
        self.analysed += o.analysed;
        add2(&mut self.play, o.play);
        self.games += o.games;
    }
}

/// One game between two people; `analyse` says which seats to analyse.
fn game(
    cfg: &ExpertConfig,
    people: &mut [SimulatedPerson; 2],
    seed: u64,
    analyse: [bool; 2],
    cost: &mut Cost,
) -> [Option<GameFigures>; 2] {
    let w = Watch::start();
    let (record, choices) = play(people, &deal_seed(seed, 0));
    add2(&mut cost.play, w.read());
    cost.games += 1;
    let mut out = [None, None];
    for s in 0..2 {
        if analyse[s] {
            let w = Watch::start();
            let f = game_figures(
                &record,
                Seat(s as u8),
                cfg,
                fiveup_bots::duel::mix(seed ^ 0xa5),
            )
            .expect("the record replays");
            add2(&mut cost.analysis, w.read());
            cost.analysed += choices[s];
            out[s] = Some(f);
        }
    }
    out
}

/// A slip rate drawn for an account.
fn draw_slip(rng: &mut FastRng, mean: f64) -> f64 {
    2.0 * mean * rng.unit()
}

/// An honest pair of `level`: both accounts' figures, game by game.
fn honest_pair(a: &Args, li: usize, pair: usize) -> ([Vec<GameFigures>; 2], Cost) {
    let base = seed_path(&[a.seed, 1, li as u64, pair as u64]);
    let mut rng = FastRng::new(base);
    let slips = [draw_slip(&mut rng, a.slip), draw_slip(&mut rng, a.slip)];
    let mut figs = [Vec::new(), Vec::new()];
    let mut cost = Cost::default();
    for g in 0..a.games {
        let seed = seed_path(&[base, g as u64]);
        // Account 0 holds seat g % 2.
        let seat_of = [g % 2, 1 - g % 2];
        let mut people = [0, 1].map(|s| {
            let acc = seat_of.iter().position(|&x| x == s).expect("a seat");
            SimulatedPerson::new(HONEST[li], slips[acc], 0.0, seed_path(&[seed, s as u64]))
                .expect("a level")
        });
        let f = game(&a.analysis, &mut people, seed, [true, true], &mut cost);
        for acc in 0..2 {
            figs[acc].push(f[seat_of[acc]].clone().expect("analysed"));
        }
    }
    (figs, cost)
}

/// An assisted account copying `copy` of its decisions: its figures game by game, until
/// flagged or `max_games`.
fn assisted(
    a: &Args,
    ci: usize,
    account: usize,
    band: &Band,
    flag_z: f64,
) -> (Vec<GameFigures>, Option<usize>, Cost) {
    let base = seed_path(&[a.seed, 2, ci as u64, account as u64]);
    let mut rng = FastRng::new(base);
    let slip = draw_slip(&mut rng, a.slip);
    let opponent_slip = draw_slip(&mut rng, a.slip);
    let mut figs = Vec::new();
    let mut cost = Cost::default();
    for g in 0..a.max_games {
        let seed = seed_path(&[base, g as u64]);
        let mine = g % 2;
        let mut people = [0, 1].map(|s| {
            let ps = seed_path(&[seed, s as u64]);
            if s == mine {
                SimulatedPerson::new("club", slip, COPY[ci], ps).expect("a level")
            } else {
                SimulatedPerson::new("club", opponent_slip, 0.0, ps).expect("a level")
            }
        });
        let mut analyse = [false; 2];
        analyse[mine] = true;
        let f = game(&a.analysis, &mut people, seed, analyse, &mut cost);
        figs.push(f[mine].clone().expect("analysed"));
        if suspicion_against(&figs, band, flag_z).flagged {
            return (figs, Some(g + 1), cost);
        }
    }
    (figs, None, cost)
}

/// Run `jobs` jobs on `threads` threads; results in job order.
fn parallel<T: Send>(threads: usize, jobs: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<T>>> = Mutex::new((0..jobs).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..threads.min(jobs.max(1)) {
            s.spawn(|| loop {
                let j = next.fetch_add(1, Ordering::Relaxed);
                if j >= jobs {
                    break;
                }
                let r = f(j);
                out.lock().expect("no panic")[j] = Some(r);
            });
        }
    });
    out.into_inner()
        .expect("no panic")
        .into_iter()
        .map(|r| r.expect("every job ran"))
        .collect()
}

/// Sums of an account's games.
fn totals(games: &[GameFigures]) -> (f64, f64, f64) {
    let d: u32 = games.iter().map(|g| g.decisions).sum();
    let a: u32 = games.iter().map(|g| g.agreed).sum();
    let l: f64 = games.iter().map(|g| g.loss).sum();
    (f64::from(d), f64::from(a), l)
}

/// A level's band from its honest accounts.
fn fit(level: &'static str, low: f64, high: f64, accounts: &[Vec<GameFigures>]) -> Band {
    let rating = f64::from(measured_rating(level).expect("a measured level"));
    let (mut d, mut ag, mut l) = (0.0, 0.0, 0.0);
    for acc in accounts {
        let (ad, aa, al) = totals(acc);
        d += ad;
        ag += aa;
        l += al;
    }
    let p = ag / d;
    let m = l / d;
    // Within an account: each game's residual against the account's own rates; the sum of
    // squares over decisions, with the games' degrees of freedom (one rate fitted per account).
    let (mut ssa, mut ssl, mut dof) = (0.0, 0.0, 0.0);
    for acc in accounts {
        let (ad, aa, al) = totals(acc);
        if ad == 0.0 || acc.len() < 2 {
            continue;
        }
        let (pk, mk) = (aa / ad, al / ad);
        for g in acc {
            let gd = f64::from(g.decisions);
            ssa += (f64::from(g.agreed) - pk * gd).powi(2);
            ssl += (g.loss - mk * gd).powi(2);
        }
        dof += ad * (acc.len() as f64 - 1.0) / acc.len() as f64;
    }
    let (va, vl) = (ssa / dof, ssl / dof);
    // Between accounts: the spread of the accounts' rates beyond what their decisions explain.
    let (mut ba, mut bl, mut ea, mut el, mut k) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for acc in accounts {
        let (ad, aa, al) = totals(acc);
        if ad == 0.0 {
            continue;
        }
        ba += (aa / ad - p).powi(2);
        bl += (al / ad - m).powi(2);
        ea += va / ad;
        el += vl / ad;
        k += 1.0;
    }
    let mut band = Band {
        name: level,
        low,
        high,
        rating,
        agreement: p,
        agreement_sd: va.sqrt(),
        agreement_spread: ((ba - ea) / k).max(0.0).sqrt(),
        loss: m,
        loss_sd: vl.sqrt(),
        loss_spread: ((bl - el) / k).max(0.0).sqrt(),
        correlation: 0.0,
        min_decisions: (MIN_DISAGREEMENTS / (1.0 - p)).ceil() as u32,
        accounts: accounts.len() as u32,
        games: accounts.iter().map(|a| a.len() as u32).sum(),
    };
    let zs: Vec<(f64, f64)> = accounts
        .iter()
        .filter_map(|acc| {
            let (ad, aa, al) = totals(acc);
            (ad > 0.0).then(|| z_scores(&band, aa / ad, al / ad, ad))
        })
        .collect();
    band.correlation = correlation(&zs);
    band
}

fn correlation(xy: &[(f64, f64)]) -> f64 {
    let n = xy.len() as f64;
    let mx = xy.iter().map(|p| p.0).sum::<f64>() / n;
    let my = xy.iter().map(|p| p.1).sum::<f64>() / n;
    let sxy: f64 = xy.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let sxx: f64 = xy.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let syy: f64 = xy.iter().map(|p| (p.1 - my).powi(2)).sum();
    if sxx == 0.0 || syy == 0.0 {
        0.0
    } else {
        sxy / (sxx * syy).sqrt()
    }
}

/// The highest z an account reaches over its checks (after each game, once it has the band's
/// minimum of decisions); minus infinity if it never has them.
fn max_z(games: &[GameFigures], band: &Band) -> f64 {
    (1..=games.len())
        .map(|g| suspicion_against(&games[..g], band, f64::INFINITY))
        .filter(|s| s.decisions >= band.min_decisions)
        .map(|s| s.z)
        .fold(f64::NEG_INFINITY, f64::max)
}

/// The nearest-rank quantile of games to be flagged, `None` (never within the cap) last.
fn quantile(sorted: &[Option<usize>], q: f64) -> String {
    if sorted.is_empty() {
        return "-".into();
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    match sorted[rank - 1] {
        Some(g) => g.to_string(),
        None => "never".into(),
    }
}

fn pooled(accounts: &[Vec<GameFigures>]) -> (f64, f64, usize, f64) {
    let (mut d, mut a, mut l, mut g) = (0.0, 0.0, 0.0, 0);
    for acc in accounts {
        let (ad, aa, al) = totals(acc);
        d += ad;
        a += aa;
        l += al;
        g += acc.len();
    }
    (a / d, l / d, g, d / g as f64)
}

fn fmt_f(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 {
            "f64::INFINITY"
        } else {
            "f64::NEG_INFINITY"
        }
        .to_string()
    } else {
        format!("{x:?}")
    }
}

#[allow(clippy::too_many_lines)]
fn main() {
    let a = args();
    let start = Instant::now();
    println!(
        "# fairplay_measure: seed {}, {} threads, games to {TARGET}, {} games per honest \
         account, honest accounts {:?} ({}), {} assisted accounts per population (at most {} \
         games), slip rate uniform in 0 .. {}, analysis {:?}",
        a.seed,
        a.threads,
        a.games,
        a.accounts,
        HONEST.join(", "),
        a.assisted,
        a.max_games,
        2.0 * a.slip,
        a.analysis
    );

    // Honest accounts, in pairs.
    let pairs: Vec<(usize, usize)> = (0..3)
        .flat_map(|li| (0..a.accounts[li] / 2).map(move |p| (li, p)))
        .collect();
    let done = parallel(a.threads, pairs.len(), |j| {
        honest_pair(&a, pairs[j].0, pairs[j].1)
    });
    let mut honest: [Vec<Vec<GameFigures>>; 3] = Default::default();
    let mut honest_cost = [Cost::default(); 3];
    for ((li, _), (figs, cost)) in pairs.iter().zip(done) {
        let [x, y] = figs;
        honest[*li].push(x);
        honest[*li].push(y);
        honest_cost[*li].add(&cost);
    }
    let honest_time = start.elapsed();
    eprintln!("honest accounts done in {:.0} s", honest_time.as_secs_f64());

    // The bands: each level's range reaches halfway to the next level's rating.
    let ratings: Vec<f64> = HONEST
        .iter()
        .map(|l| f64::from(measured_rating(l).expect("a measured level")))
        .collect();
    let bands: Vec<Band> = (0..3)
        .map(|li| {
            let low = if li == 0 {
                f64::NEG_INFINITY
            } else {
                (ratings[li - 1] + ratings[li]) / 2.0
            };
            let high = if li == 2 {
                f64::INFINITY
            } else {
                (ratings[li] + ratings[li + 1]) / 2.0
            };
            fit(HONEST[li], low, high, &honest[li])
        })
        .collect();

    // The threshold: the lowest z (a multiple of 0.05) at which fewer than `fp` of the honest
    // accounts are ever flagged.
    let maxes: Vec<Vec<f64>> = (0..3)
        .map(|li| {
            honest[li]
                .iter()
                .map(|acc| max_z(acc, &bands[li]))
                .collect()
        })
        .collect();
    let all: Vec<f64> = maxes.iter().flatten().copied().collect();
    let fp_at = |t: f64, xs: &[f64]| xs.iter().filter(|&&z| z >= t).count();
    let mut flag_z = 0.0;
    while fp_at(flag_z, &all) as f64 >= a.fp * all.len() as f64 {
        flag_z = ((flag_z + 0.05) * 100.0).round() / 100.0;
    }
    println!(
        "\n## False-positive rate by threshold (honest accounts over {} games)\n",
        a.games
    );
    println!("| threshold | casual | club | strong | all |");
    println!("| --- | --- | --- | --- | --- |");
    for i in -4..=4 {
        let t = ((flag_z + 0.25 * f64::from(i)) * 100.0).round() / 100.0;
        let cell = |xs: &[f64]| {
            let k = fp_at(t, xs);
            format!(
                "{k}/{} ({:.2}%)",
                xs.len(),
                100.0 * k as f64 / xs.len() as f64
            )
        };
        println!(
            "| {t:.2} | {} | {} | {} | {} |",
            cell(&maxes[0]),
            cell(&maxes[1]),
            cell(&maxes[2]),
            cell(&all)
        );
    }

    // Assisted accounts, judged in the club band.
    let t_assisted = Instant::now();
    let club = bands[1];
    let jobs: Vec<(usize, usize)> = (0..3)
        .flat_map(|ci| (0..a.assisted).map(move |k| (ci, k)))
        .collect();
    let done = parallel(a.threads, jobs.len(), |j| {
        assisted(&a, jobs[j].0, jobs[j].1, &club, flag_z)
    });
    let mut cheat: [Vec<(Vec<GameFigures>, Option<usize>)>; 3] = Default::default();
    let mut cheat_cost = [Cost::default(); 3];
    for ((ci, _), (figs, when, cost)) in jobs.iter().zip(done) {
        cheat[*ci].push((figs, when));
        cheat_cost[*ci].add(&cost);
    }
    let assisted_time = t_assisted.elapsed();

    println!("\n## Bands (from the honest accounts)\n");
    println!(
        "| band | ratings | agreement (sd, spread) | loss/decision (sd, spread) | correlation | \
         minimum decisions |"
    );
    println!("| --- | --- | --- | --- | --- | --- |");
    for b in &bands {
        println!(
            "| {} ({}) | {} .. {} | {:.3} ({:.3}, {:.3}) | {:.2} ({:.2}, {:.2}) | {:.2} | {} |",
            b.name,
            b.rating,
            b.low,
            b.high,
            b.agreement,
            b.agreement_sd,
            b.agreement_spread,
            b.loss,
            b.loss_sd,
            b.loss_spread,
            b.correlation,
            b.min_decisions
        );
    }
    println!("\nThreshold: z >= {flag_z:.2}");

    println!("\n## Populations\n");
    println!(
        "| population | games | accounts | decisions a game | agreement | loss/decision | \
         games to be flagged (median / p90) | flagged | false positives (95% CI) |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    let mut fp_total = 0;
    for li in 0..3 {
        let (ag, loss, games, dpg) = pooled(&honest[li]);
        let k = fp_at(flag_z, &maxes[li]);
        fp_total += k;
        let n = honest[li].len();
        let (lo, hi) = wilson95(k as u64, n as u64);
        println!(
            "| honest {} ({}) | {games} | {n} | {dpg:.1} | {ag:.3} | {loss:.2} | - | {k} within {} \
             games | {:.2}% ({:.2} .. {:.2}%) |",
            HONEST[li],
            ratings[li],
            a.games,
            100.0 * k as f64 / n as f64,
            100.0 * lo,
            100.0 * hi
        );
    }
    let n_all = all.len();
    let (lo, hi) = wilson95(fp_total as u64, n_all as u64);
    println!(
        "| honest, all | {} | {n_all} | | | | - | {fp_total} within {} games | {:.2}% ({:.2} .. \
         {:.2}%) |",
        honest.iter().flatten().map(Vec::len).sum::<usize>(),
        a.games,
        100.0 * fp_total as f64 / n_all as f64,
        100.0 * lo,
        100.0 * hi
    );
    for ci in 0..3 {
        let accs: Vec<Vec<GameFigures>> = cheat[ci].iter().map(|c| c.0.clone()).collect();
        let (ag, loss, games, dpg) = pooled(&accs);
        let mut when: Vec<Option<usize>> = cheat[ci].iter().map(|c| c.1).collect();
        when.sort_by_key(|w| w.unwrap_or(usize::MAX));
        let flagged = when.iter().filter(|w| w.is_some()).count();
        let within = when
            .iter()
            .filter(|w| w.is_some_and(|g| g <= a.games))
            .count();
        println!(
            "| club copying master on {:.0}% | {games} | {} | {dpg:.1} | {ag:.3} | {loss:.2} | {} \
             / {} | {flagged} within {} games ({within} within {}) | - |",
            100.0 * COPY[ci],
            accs.len(),
            quantile(&when, 0.5),
            quantile(&when, 0.9),
            a.max_games,
            a.games
        );
    }

    if let Some(path) = &a.dump {
        let mut out = String::new();
        let mut line =
            |population: String, account: usize, when: Option<usize>, games: &[GameFigures]| {
                out += &serde_json::json!({
                    "population": population,
                    "account": account,
                    "flagged_at": when,
                    "games": games,
                })
                .to_string();
                out.push('\n');
            };
        for li in 0..3 {
            for (k, acc) in honest[li].iter().enumerate() {
                line(format!("honest {}", HONEST[li]), k, None, acc);
            }
        }
        for ci in 0..3 {
            for (k, (acc, when)) in cheat[ci].iter().enumerate() {
                line(format!("copying {:.0}%", 100.0 * COPY[ci]), k, *when, acc);
            }
        }
        std::fs::write(path, out).expect("the dump file is written");
    }

    println!("\n## Cost\n");
    let mut total = Cost::default();
    for (name, c) in HONEST
        .iter()
        .map(|l| format!("honest {l}"))
        .zip(honest_cost)
        .chain(
            COPY.iter()
                .map(|c| format!("copying {:.0}%", 100.0 * c))
                .zip(cheat_cost),
        )
    {
        total.add(&c);
        println!(
            "{name}: {} games, play {:.1} s ({:.1} s of processor), analysis {:.1} s ({:.1} s of \
             processor) for {} decisions with a choice ({:.2} ms of processor each)",
            c.games,
            c.play.0.as_secs_f64(),
            c.play.1.as_secs_f64(),
            c.analysis.0.as_secs_f64(),
            c.analysis.1.as_secs_f64(),
            c.analysed,
            c.analysis.1.as_secs_f64() * 1e3 / c.analysed.max(1) as f64
        );
    }
    println!(
        "all: {} games, play {:.0} s of processor, analysis {:.0} s of processor ({:.2} ms a \
         decision), {:.0} s of processor in all; wall clock: honest phase {:.0} s, assisted \
         phase {:.0} s, whole run {:.0} s ({} threads)",
        total.games,
        total.play.1.as_secs_f64(),
        total.analysis.1.as_secs_f64(),
        total.analysis.1.as_secs_f64() * 1e3 / total.analysed.max(1) as f64,
        (total.play.1 + total.analysis.1).as_secs_f64(),
        honest_time.as_secs_f64(),
        assisted_time.as_secs_f64(),
        start.elapsed().as_secs_f64(),
        a.threads
    );

    println!("\n## Constants for crates/bots/src/fairplay.rs\n");
    println!("pub const BANDS: &[Band] = &[");
    for b in &bands {
        println!("    Band {{");
        println!("        name: {:?},", b.name);
        println!("        low: {},", fmt_f(b.low));
        println!("        high: {},", fmt_f(b.high));
        println!("        rating: {},", fmt_f(b.rating));
        println!("        agreement: {},", fmt_f(b.agreement));
        println!("        agreement_sd: {},", fmt_f(b.agreement_sd));
        println!("        agreement_spread: {},", fmt_f(b.agreement_spread));
        println!("        loss: {},", fmt_f(b.loss));
        println!("        loss_sd: {},", fmt_f(b.loss_sd));
        println!("        loss_spread: {},", fmt_f(b.loss_spread));
        println!("        correlation: {},", fmt_f(b.correlation));
        println!("        min_decisions: {},", b.min_decisions);
        println!("        accounts: {},", b.accounts);
        println!("        games: {},", b.games);
        println!("    }},");
    }
    println!("];");
    println!("pub const FLAG_Z: f64 = {flag_z:?};");
}
