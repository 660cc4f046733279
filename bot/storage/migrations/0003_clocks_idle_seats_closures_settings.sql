-- turn clocks and deadlines, idle seats, closures of abandoned tables, server settings (bot/clocks/service.py)

-- One row per table with a clock: its preset and turn time, and the deadline running now (if any).
CREATE TABLE table_clocks (
    table_id      INTEGER PRIMARY KEY REFERENCES tables (id),
    preset        TEXT NOT NULL,
    turn_seconds  INTEGER NOT NULL,
    seat          INTEGER,
    turn          INTEGER,
    deadline      REAL,
    reminded      INTEGER NOT NULL DEFAULT 0,
    nudged_by     TEXT NOT NULL DEFAULT '[]',
    last_activity REAL NOT NULL
);

-- Seats whose player let the clock run out: a computer stands in while ``away``; ``idle_turns`` in a row.
CREATE TABLE idle_seats (
    table_id   INTEGER NOT NULL REFERENCES tables (id),
    seat       INTEGER NOT NULL,
    away       INTEGER NOT NULL DEFAULT 0,
    idle_turns INTEGER NOT NULL DEFAULT 0,
    open       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat)
);

-- Why a table was closed other than by finishing (abandoned, closed by its host or an admin).
CREATE TABLE table_closures (
    table_id  INTEGER PRIMARY KEY REFERENCES tables (id),
    reason    TEXT NOT NULL,
    closed_by INTEGER,
    closed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Per server settings, as JSON (bot/tables/guild_settings.py validates them).
CREATE TABLE guild_settings (
    guild_id   INTEGER PRIMARY KEY,
    settings   TEXT NOT NULL,
    updated_by INTEGER,
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
