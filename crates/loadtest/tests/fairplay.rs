//! The fair-play mode end to end against an in-process server: two honest accounts and one
//! account that copies the master level on every decision register, play rated games through
//! the websockets, and the server's own worker analyses every game; the run reads the stored
//! figures back through the moderators' API.

use fiveup_loadtest::fairplay::{run, FairplayOptions};

#[test]
fn a_small_run_plays_rated_games_and_the_server_analyses_a_copier() {
    let opts = FairplayOptions {
        honest: [2, 0, 0],
        honest_games: 1,
        assisted: 1,
        copy: vec![1.0],
        assisted_games: 2,
        tables: 4,
        server_threads: 1,
        client_threads: 1,
        ..FairplayOptions::default()
    };
    let r = run(&opts).expect("the run completes");
    assert!(r.clean(), "errors: {:?}", r.error_kinds);
    // One honest game, and the copier's two (it cannot be flagged before the band's minimum
    // of decisions, more than two games hold).
    assert_eq!(r.games_played, 3);
    let names: Vec<&str> = r.rows.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "honest casual",
            "honest, all",
            "club copying master on 100%"
        ]
    );
    for a in r
        .accounts
        .iter()
        .filter(|a| a.population == "honest casual")
    {
        assert_eq!(a.played, 1);
        assert_eq!(a.games.len(), 1, "{a:?}");
        assert!(!a.flagged);
    }
    let copier = r
        .accounts
        .iter()
        .find(|a| a.population == "club copying master on 100%")
        .expect("the copier's result");
    // The server's worker analysed both of its games and stored their figures.
    assert_eq!(copier.played, 2);
    assert_eq!(copier.games.len(), 2, "{copier:?}");
    let decisions: u32 = copier.games.iter().map(|g| g.decisions).sum();
    let agreed: u32 = copier.games.iter().map(|g| g.agreed).sum();
    assert!(decisions >= 5, "{copier:?}");
    assert!(
        f64::from(agreed) >= 0.8 * f64::from(decisions),
        "a copier agrees with the master's analysis: {copier:?}"
    );
    assert!(copier.band.is_some() && copier.z.is_some(), "{copier:?}");
    assert!(copier.rating.is_finite());
    let row = &r.rows[2];
    assert_eq!((row.accounts, row.games), (1, 2));
    assert!(row.games_to_flag.is_some() && row.false_positives.is_none());
    assert!(r.rows[1].false_positives.is_some());
    // Each game keeps the rating and deviation it was played at: a new account's first game
    // at 1500 with the starting deviation, its second at a moved rating, more surely known.
    assert_eq!(copier.games[0].rating, 1500.0);
    assert_eq!(copier.games[0].deviation, 350.0);
    assert_ne!(copier.games[1].rating, 1500.0);
    assert!(copier.games[1].deviation < 350.0);
    // The replay of the server's own judging finds exactly the server's flags, and every
    // judging of the grid is replayed.
    assert!(r.judging.mismatches.is_empty(), "{}", r.judging);
    assert_eq!(
        r.judging.lines.len(),
        fiveup_loadtest::judging::BAND_DEVIATIONS.len() * fiveup_loadtest::judging::FLAG_ZS.len()
    );
}
