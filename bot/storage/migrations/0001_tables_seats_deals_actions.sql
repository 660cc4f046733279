-- tables, seats, deals and the append-only action log

CREATE TABLE tables (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER,
    guild_name   TEXT NOT NULL DEFAULT '',
    channel_id   INTEGER NOT NULL,
    channel_name TEXT NOT NULL DEFAULT '',
    message_id   INTEGER,
    game         TEXT NOT NULL,
    preset       TEXT,
    options      TEXT NOT NULL DEFAULT '{}',
    host_id      INTEGER NOT NULL,
    status       TEXT NOT NULL DEFAULT 'lobby'
                 CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
    first_dealer INTEGER,
    created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX tables_by_channel ON tables (channel_id, status);
CREATE INDEX tables_by_status ON tables (status);

-- One row per taken seat: a user, or a computer player of some level.
CREATE TABLE seats (
    table_id  INTEGER NOT NULL REFERENCES tables (id),
    seat      INTEGER NOT NULL,
    user_id   INTEGER,
    computer  TEXT,
    name      TEXT NOT NULL,
    dm_closed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat),
    CHECK ((user_id IS NULL) != (computer IS NULL))
);
CREATE INDEX seats_by_user ON seats (user_id);

-- The cards of each deal, as the record writes them (hands and kitty, or a stock).
CREATE TABLE deals (
    table_id   INTEGER NOT NULL REFERENCES tables (id),
    deal_index INTEGER NOT NULL,
    cards      TEXT NOT NULL,
    hands_sent INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, deal_index)
);

-- Append-only: one INSERT per action, written before the player is answered.
CREATE TABLE actions (
    table_id   INTEGER NOT NULL REFERENCES tables (id),
    deal_index INTEGER NOT NULL,
    seq        INTEGER NOT NULL,
    action     TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (table_id, deal_index, seq)
);
