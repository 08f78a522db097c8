-- fiveup server schema, version 10: when each correspondence move began (written with the
-- change that began it, so that a restart resumes that move's clock instead of starting it
-- again), and the players each person muted (their chat lines are hidden from that person).
CREATE TABLE corr_turns (
    table_id TEXT NOT NULL,
    version BIGINT NOT NULL,
    started_at BIGINT NOT NULL,
    PRIMARY KEY (table_id, version)
);
CREATE TABLE mutes (
    user_id BIGINT NOT NULL,
    muted_id BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, muted_id)
);
