-- fiveup server schema, version 1 (PostgreSQL).
CREATE TABLE users (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT UNIQUE,
    password_hash TEXT,
    registered BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    rating DOUBLE PRECISION NOT NULL DEFAULT 1500,
    deviation DOUBLE PRECISION NOT NULL DEFAULT 350,
    volatility DOUBLE PRECISION NOT NULL DEFAULT 0.06,
    games BIGINT NOT NULL DEFAULT 0,
    wins BIGINT NOT NULL DEFAULT 0,
    hands BIGINT NOT NULL DEFAULT 0,
    points BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users(id),
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE TABLE game_tables (
    id TEXT PRIMARY KEY,
    created_at BIGINT NOT NULL,
    config TEXT NOT NULL,
    status TEXT NOT NULL
);
CREATE INDEX game_tables_status ON game_tables(status);
CREATE TABLE table_events (
    table_id TEXT NOT NULL,
    seq BIGINT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    finished_at BIGINT NOT NULL,
    options TEXT NOT NULL,
    record TEXT NOT NULL,
    seats TEXT NOT NULL,
    names TEXT NOT NULL,
    scores TEXT NOT NULL,
    winner BIGINT NOT NULL
);
CREATE TABLE game_players (
    game_id TEXT NOT NULL,
    seat BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    won BIGINT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_players_user ON game_players(user_id);
CREATE TABLE reviews (
    game_id TEXT PRIMARY KEY,
    body TEXT NOT NULL
)
