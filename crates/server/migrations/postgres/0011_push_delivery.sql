-- fiveup server schema, version 11: push delivery. A subscription's failures in a row, since
-- when it has failed and when it may be tried again (it backs off, and is deleted once it has
-- failed for a day), and the subscriptions a queued message was sent to (a retry skips them).
ALTER TABLE push_subscriptions ADD COLUMN failures BIGINT NOT NULL DEFAULT 0;
ALTER TABLE push_subscriptions ADD COLUMN failing_since BIGINT;
ALTER TABLE push_subscriptions ADD COLUMN retry_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE push_outbox ADD COLUMN done TEXT NOT NULL DEFAULT '';
