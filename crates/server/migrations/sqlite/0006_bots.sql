-- fiveup server schema, version 6: bot accounts. A bot is a users row with its owner's id in
-- bot_owner (it has no password and never a session), and signs in with bot tokens, of which
-- only the SHA-256 is stored. bot_rated: a person's choice to have games against bots rated.
ALTER TABLE users ADD COLUMN bot_owner BIGINT REFERENCES users(id);
ALTER TABLE users ADD COLUMN bot_rated BIGINT NOT NULL DEFAULT 0;
CREATE INDEX users_bot_owner ON users(bot_owner);
CREATE TABLE bot_tokens (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    bot_id BIGINT NOT NULL REFERENCES users(id),
    token_hash TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    last_used BIGINT,
    revoked_at BIGINT
);
CREATE INDEX bot_tokens_bot ON bot_tokens(bot_id);
