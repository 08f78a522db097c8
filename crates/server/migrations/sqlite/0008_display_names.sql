-- fiveup server schema, version 5: a registered player's display name (the name shown at
-- tables, `users.name`) may differ from the login name (`name_key`), and its two confusables keys
-- are kept beside the login name's, so that nobody else takes a name that looks like it.
ALTER TABLE users ADD COLUMN shown_skel TEXT;
ALTER TABLE users ADD COLUMN shown_skel2 TEXT;
CREATE INDEX users_shown_skel ON users(shown_skel);
CREATE INDEX users_shown_skel2 ON users(shown_skel2);
