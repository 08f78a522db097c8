-- fiveup server schema, version 5: tournaments. An event is its settings, its entrants and
-- the log of its operations (every pairing, every table opened, every result), each stored
-- before it is announced. The director that runs an event holds its lease (director, until).
CREATE TABLE tournaments (
    id TEXT PRIMARY KEY,
    created_at BIGINT NOT NULL,
    creator BIGINT NOT NULL,
    name TEXT NOT NULL,
    settings TEXT NOT NULL,
    status TEXT NOT NULL,
    director TEXT NOT NULL DEFAULT '',
    director_until BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX tournaments_status ON tournaments(status);
CREATE TABLE tournament_entrants (
    tournament_id TEXT NOT NULL,
    entrant BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    body TEXT NOT NULL,
    withdrawn BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, entrant)
);
CREATE INDEX tournament_entrants_user ON tournament_entrants(user_id);
CREATE TABLE tournament_ops (
    tournament_id TEXT NOT NULL,
    seq BIGINT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (tournament_id, seq)
);
