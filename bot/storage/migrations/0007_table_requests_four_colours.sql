-- manners at a running table (issue 15): what players asked of each other, and a four-colour pack per player

-- One row per request: a vote to stop the game, a claim of the remaining tricks, an undo of one's last card, a
-- rematch.  ``outcome``: NULL while pending, then 'accepted', 'refused', 'lapsed' (the game moved on) or 'proven'
-- (a claim the engine proved, accepted without asking).  ``yes``/``no``: the user ids who answered, as JSON lists.
-- Times are ISO text set by the bot.
CREATE TABLE table_requests (
    id         INTEGER PRIMARY KEY,
    table_id   INTEGER NOT NULL REFERENCES tables (id),
    kind       TEXT NOT NULL,
    seat       INTEGER,
    user_id    BIGINT NOT NULL,
    deal_index INTEGER,
    outcome    TEXT,
    yes        TEXT NOT NULL DEFAULT '[]',
    no         TEXT NOT NULL DEFAULT '[]',
    created_at TEXT NOT NULL,
    settled_at TEXT
);
CREATE INDEX table_requests_by_table ON table_requests (table_id, id);

-- The rematch a finished table led to, so that every player's tap finds the same new table (also after a restart).
ALTER TABLE tables ADD COLUMN rematch_id INTEGER;

-- Player settings: the four-colour pack (spades black, hearts red, diamonds blue, clubs green) in their own views.
ALTER TABLE player_settings ADD COLUMN four_colour INTEGER;
