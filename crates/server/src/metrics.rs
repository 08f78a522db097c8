//! What an operator watches, in Prometheus's text format (`GET /metrics`): tables owned,
//! websocket connections, moves stored (a counter: its rate is moves per second), the
//! group-commit latency, table leases taken over from another instance, and the computer
//! players' thinking time per decision, by level.
//!
//! Each server has a registry of its own (not the process-wide default), so that several
//! servers in one process (the tests) count separately.

use prometheus::{
    Encoder, Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, Opts,
    Registry, TextEncoder,
};

/// The levels the computer-decision histogram names; any other player a seat names is counted
/// as `other` (so a seat's spec cannot add label values).
pub const TIMED_LEVELS: [&str; 10] = [
    "beginner", "casual", "club", "strong", "master", "random", "greedy", "pimc", "expert",
    "neural",
];

/// The server's metrics.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    /// Tables whose task runs here (set when scraped).
    pub tables_owned: IntGauge,
    /// Open websocket connections.
    pub connections: IntGauge,
    /// Websocket connections handed on to the instance that owns their table.
    pub relayed: IntGauge,
    /// Moves stored (people's and computer players').
    pub moves: IntCounter,
    /// Seconds per group commit (one transaction of every waiting write).
    pub commit_seconds: Histogram,
    /// Table leases acquired, by how: `new` (a table created here), `free` (nobody held it),
    /// `takeover` (the holder's lease had expired: it died or lost the database).
    pub leases: IntCounterVec,
    /// Tables given up because their lease was lost.
    pub leases_lost: IntCounter,
    /// Seconds a computer player thought per decision (on its thread, forced moves included),
    /// by level (`TIMED_LEVELS`, else `other`).
    pub computer_decision_seconds: HistogramVec,
}

impl Metrics {
    /// Every metric, registered, with the instance name as a constant label.
    ///
    /// # Panics
    /// Never: the names are fixed and distinct.
    #[must_use]
    pub fn new(instance: &str) -> Metrics {
        let mut labels = std::collections::HashMap::new();
        labels.insert("instance".to_string(), instance.to_string());
        let registry =
            Registry::new_custom(Some("fiveup".to_string()), Some(labels)).expect("registry");
        let tables_owned = IntGauge::new("tables_owned", "Tables whose task runs here").unwrap();
        let connections = IntGauge::new("connections", "Open websocket connections").unwrap();
        let relayed = IntGauge::new(
            "relayed_connections",
            "Websocket connections handed on to the instance owning their table",
        )
        .unwrap();
        let moves = IntCounter::new("moves_total", "Moves stored (seats acting)").unwrap();
        let commit_seconds = Histogram::with_opts(
            HistogramOpts::new(
                "commit_seconds",
                "Seconds per group commit (one transaction of every waiting write)",
            )
            .buckets(vec![
                0.000_5, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0,
            ]),
        )
        .unwrap();
        let leases = IntCounterVec::new(
            Opts::new(
                "lease_acquisitions_total",
                "Table leases acquired: new (created here), free (nobody held it), takeover \
                 (the holder's lease had expired)",
            ),
            &["how"],
        )
        .unwrap();
        let leases_lost = IntCounter::new(
            "leases_lost_total",
            "Tables given up here because another instance holds their lease",
        )
        .unwrap();
        let computer_decision_seconds = HistogramVec::new(
            HistogramOpts::new(
                "computer_decision_seconds",
                "Seconds a computer player thought per decision, by level",
            )
            .buckets(vec![
                0.000_01, 0.000_1, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0,
            ]),
            &["level"],
        )
        .unwrap();
        for c in [
            Box::new(tables_owned.clone()) as Box<dyn prometheus::core::Collector>,
            Box::new(computer_decision_seconds.clone()),
            Box::new(connections.clone()),
            Box::new(relayed.clone()),
            Box::new(moves.clone()),
            Box::new(commit_seconds.clone()),
            Box::new(leases.clone()),
            Box::new(leases_lost.clone()),
        ] {
            registry.register(c).expect("distinct metric names");
        }
        for how in ["new", "free", "takeover"] {
            let _ = leases.with_label_values(&[how]);
        }
        Metrics {
            registry,
            tables_owned,
            connections,
            relayed,
            moves,
            commit_seconds,
            leases,
            leases_lost,
            computer_decision_seconds,
        }
    }

    /// Count a computer player's decision of `seconds` under its level.
    pub fn computer_decision(&self, level: &str, seconds: f64) {
        let label = if TIMED_LEVELS.contains(&level) {
            level
        } else {
            "other"
        };
        self.computer_decision_seconds
            .with_label_values(&[label])
            .observe(seconds);
    }

    /// Everything, in Prometheus's text format.
    #[must_use]
    pub fn render(&self) -> String {
        let mut buf = Vec::new();
        let _ = TextEncoder::new().encode(&self.registry.gather(), &mut buf);
        String::from_utf8(buf).unwrap_or_default()
    }
}
