-- fiveup server schema, version 9: tournament no-shows. A person who did not come to a
-- tournament table in time loses the game and is withdrawn. Each such game is counted here,
-- and a second within a week of the one before bars the person from joining events for a day.
CREATE TABLE tournament_no_shows (
    tournament_id TEXT NOT NULL,
    table_id TEXT NOT NULL,
    user_id BIGINT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (table_id, user_id)
);
CREATE INDEX tournament_no_shows_user ON tournament_no_shows(user_id, at_ms);
