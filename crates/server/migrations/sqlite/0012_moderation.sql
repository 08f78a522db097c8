-- fiveup server schema, version 12: fair play and moderation.
-- Moderators (granted on the server's machine only), and the marks moderators put on accounts
-- (each reversible, with what it changed kept in mod_actions).
ALTER TABLE users ADD COLUMN moderator BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN mod_assisted BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN mod_farm BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN mod_muted BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN mod_banned BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN must_rename BIGINT NOT NULL DEFAULT 0;
-- What each rated game did to each person's rating, and against whom: what a refund replays.
CREATE TABLE rating_changes (
    game_id TEXT NOT NULL,
    user_id BIGINT NOT NULL,
    pool TEXT NOT NULL,
    at BIGINT NOT NULL,
    before_rating DOUBLE PRECISION NOT NULL,
    before_deviation DOUBLE PRECISION NOT NULL,
    before_volatility DOUBLE PRECISION NOT NULL,
    after_rating DOUBLE PRECISION NOT NULL,
    after_deviation DOUBLE PRECISION NOT NULL,
    after_volatility DOUBLE PRECISION NOT NULL,
    results TEXT NOT NULL,
    refunded BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX rating_changes_user ON rating_changes(user_id, at);
-- Reports by people, automatic flags (reporter 0) and appeals, in one queue.
CREATE TABLE reports (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    reporter_id BIGINT NOT NULL,
    target_id BIGINT NOT NULL,
    reason TEXT NOT NULL,
    game_id TEXT,
    chat TEXT,
    body TEXT NOT NULL DEFAULT '',
    action_id BIGINT,
    strength DOUBLE PRECISION NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    closed_by BIGINT,
    closed_at BIGINT
);
CREATE UNIQUE INDEX reports_one_open ON reports(kind, reporter_id, target_id)
    WHERE closed_at IS NULL AND kind <> 'appeal';
CREATE UNIQUE INDEX reports_one_appeal ON reports(action_id) WHERE kind = 'appeal';
CREATE INDEX reports_reporter ON reports(reporter_id, created_at);
-- The moderation log: every action, who took it, when and why (an undone action keeps its row).
CREATE TABLE mod_actions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    moderator_id BIGINT NOT NULL,
    target_id BIGINT NOT NULL,
    action TEXT NOT NULL,
    reason TEXT NOT NULL,
    report_id BIGINT,
    detail TEXT NOT NULL DEFAULT '{}',
    created_at BIGINT NOT NULL,
    undoes BIGINT,
    undone_at BIGINT,
    seen_at BIGINT
);
CREATE INDEX mod_actions_target ON mod_actions(target_id, created_at);
-- The addresses each account was seen from (at login, registration and a guest's start).
CREATE TABLE user_addresses (
    user_id BIGINT NOT NULL,
    address TEXT NOT NULL,
    first_seen BIGINT NOT NULL,
    last_seen BIGINT NOT NULL,
    PRIMARY KEY (user_id, address)
);
CREATE INDEX user_addresses_address ON user_addresses(address);
-- Computer-assistance analysis: rated games waiting for it, and each person's figures per game.
CREATE TABLE fairplay_queue (
    game_id TEXT PRIMARY KEY,
    queued_at BIGINT NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE fairplay_games (
    game_id TEXT NOT NULL,
    user_id BIGINT NOT NULL,
    at BIGINT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    decisions BIGINT NOT NULL,
    agreed BIGINT NOT NULL,
    loss DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX fairplay_games_user ON fairplay_games(user_id, at);
