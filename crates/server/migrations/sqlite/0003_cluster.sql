-- fiveup server schema, version 3: several instances on one database. Each table's lease (the
-- instance running it, a fencing token raised at every change of hands, and when the lease
-- runs out, in milliseconds since the epoch by the database's clock), the instances and where
-- they are reached, the lobby as listed (so that an instance starting sees what the others
-- run), and each table's chat.
CREATE TABLE table_leases (
    table_id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    token BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX table_leases_owner ON table_leases(owner);
CREATE TABLE instances (
    name TEXT PRIMARY KEY,
    addr TEXT NOT NULL,
    seen_at BIGINT NOT NULL
);
CREATE TABLE lobby_tables (
    id TEXT PRIMARY KEY,
    version BIGINT NOT NULL,
    info TEXT NOT NULL
);
CREATE TABLE table_chat (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id TEXT NOT NULL,
    line TEXT NOT NULL
);
CREATE INDEX table_chat_table ON table_chat(table_id, id);
