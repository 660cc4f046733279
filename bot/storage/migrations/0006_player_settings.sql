-- per-player settings: how turn pings reach them, and whether a forced card is played for them

-- One row per user who changed a setting; a missing row (or NULL) means the documented default.
-- ``turn_ping``: 'channel', 'dm', 'off', or NULL for the default of the table's clock.
CREATE TABLE player_settings (
    user_id    INTEGER PRIMARY KEY,
    turn_ping  TEXT,
    auto_play  INTEGER,
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
