-- fiveup server schema, version 7: correspondence play. Timers (move deadlines, reminders,
-- "your turn" notices) as rows claimed once, Web Push keys, subscriptions and the messages
-- waiting to go out, vacation days used per person and year.
CREATE TABLE corr_timers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id TEXT NOT NULL,
    version BIGINT NOT NULL,
    kind TEXT NOT NULL,
    seat BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    due_at BIGINT NOT NULL,
    fired_at BIGINT,
    UNIQUE (table_id, version, kind)
);
CREATE INDEX corr_timers_due ON corr_timers(fired_at, due_at);
CREATE TABLE corr_players (
    table_id TEXT NOT NULL,
    seat BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    finished BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX corr_players_user ON corr_players(user_id);
CREATE TABLE corr_vacation (
    user_id BIGINT NOT NULL,
    year BIGINT NOT NULL,
    days BIGINT NOT NULL,
    PRIMARY KEY (user_id, year)
);
CREATE TABLE corr_timeouts (
    table_id TEXT NOT NULL,
    user_id BIGINT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (table_id, user_id)
);
CREATE TABLE push_keys (
    id BIGINT PRIMARY KEY,
    private_key TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE TABLE push_subscriptions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NOT NULL,
    endpoint TEXT NOT NULL UNIQUE,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    kinds TEXT NOT NULL,
    renewed_at BIGINT NOT NULL
);
CREATE INDEX push_subscriptions_user ON push_subscriptions(user_id);
CREATE TABLE push_outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NOT NULL,
    kind TEXT NOT NULL,
    topic TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    claimed_at BIGINT
);
ALTER TABLE users ADD COLUMN corr_rating DOUBLE PRECISION NOT NULL DEFAULT 1500;
ALTER TABLE users ADD COLUMN corr_deviation DOUBLE PRECISION NOT NULL DEFAULT 350;
ALTER TABLE users ADD COLUMN corr_volatility DOUBLE PRECISION NOT NULL DEFAULT 0.06;
