-- fiveup server schema, version 4: a second confusables key of each registered name (the
-- skeleton taken before case is folded, so that a capital I reads as a lowercase l), and the
-- first recomputed (combining marks no longer count): both are filled in at start.
ALTER TABLE users ADD COLUMN name_skel2 TEXT;
CREATE INDEX users_name_skel2 ON users(name_skel2);
UPDATE users SET name_skel = NULL;
