-- fiveup server schema, version 6: bot accounts. A bot is a users row with its owner's id in
-- bot_owner (it has no password and never a session), and signs in with bot tokens, of which
-- only the SHA-256 is stored. bot_rated: a person's choice to have games against bots rated.
ALTER TABLE users ADD COLUMN bot_owner BIGINT REFERENCES users(id);
ALTER TABLE users ADD COLUMN bot_rated BIGINT NOT NULL DEFAULT 0;
CREATE INDEX users_bot_owner ON users(bot_owner);
CREATE TABLE bot_tokens (
    id BIGSERIAL PRIMARY KEY,
    bot_id BIGINT NOT NULL REFERENCES users(id),
    token_hash TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    last_used BIGINT,
    revoked_at BIGINT
);
CREATE INDEX bot_tokens_bot ON bot_tokens(bot_id);
-- Challenges: a person offers a bot an invitation seat of a table they created (kept until the
-- bot joins or the seat is no longer free).
CREATE TABLE bot_challenges (
    bot_id BIGINT NOT NULL REFERENCES users(id),
    invite TEXT NOT NULL,
    table_id TEXT NOT NULL,
    seat BIGINT NOT NULL,
    options TEXT NOT NULL,
    from_id BIGINT NOT NULL REFERENCES users(id),
    created_at BIGINT NOT NULL,
    PRIMARY KEY (bot_id, invite)
);
