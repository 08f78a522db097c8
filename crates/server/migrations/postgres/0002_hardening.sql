-- fiveup server schema, version 2: the confusables skeleton of each name (registered names
-- must not be confusable with one another, and guests may not take a registered name's), and
-- indexes for purging sessions and guests.
ALTER TABLE users ADD COLUMN name_skel TEXT;
CREATE INDEX users_name_skel ON users(name_skel);
CREATE INDEX sessions_user ON sessions(user_id);
CREATE INDEX sessions_expires ON sessions(expires_at);
