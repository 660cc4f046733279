-- game results, ratings and their history, seasons, removed games, the global opt-in (bot/storage/results.py)

-- One row per ended game (finished, cancelled or abandoned), written in the transaction that ends it.
-- ``id`` is the order in which ratings were applied; recomputation replays that order.
CREATE TABLE game_results (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id       INTEGER NOT NULL UNIQUE REFERENCES tables (id),
    guild_id       INTEGER,
    game           TEXT NOT NULL,
    players        INTEGER NOT NULL,
    status         TEXT NOT NULL,
    rated          INTEGER NOT NULL,
    unrated_reason TEXT,
    season         INTEGER NOT NULL,
    month          TEXT NOT NULL,
    finished_at    TEXT NOT NULL,
    deals          INTEGER NOT NULL,
    units          TEXT NOT NULL,
    scores         TEXT NOT NULL,
    winner         INTEGER
);
CREATE INDEX game_results_by_guild ON game_results (guild_id, finished_at);
CREATE INDEX game_results_by_game ON game_results (game, rated, id);

-- One row per seat of an ended game: who sat there, the seat's place and what it did.
CREATE TABLE result_players (
    result_id      INTEGER NOT NULL REFERENCES game_results (id),
    seat           INTEGER NOT NULL,
    user_id        INTEGER,
    computer       TEXT,
    name           TEXT NOT NULL,
    unit           INTEGER NOT NULL,
    place          INTEGER NOT NULL,
    won            INTEGER NOT NULL,
    points         INTEGER NOT NULL,
    contracts      INTEGER NOT NULL DEFAULT 0,
    contracts_made INTEGER NOT NULL DEFAULT 0,
    sweeps         INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (result_id, seat)
);
CREATE INDEX result_players_by_user ON result_players (user_id, result_id);

-- Current ratings.  guild_id 0 holds the global rating; scope is 'all', 'season:N' or 'month:YYYY-MM'.
CREATE TABLE ratings (
    guild_id    INTEGER NOT NULL,
    scope       TEXT NOT NULL,
    game        TEXT NOT NULL,
    user_id     INTEGER NOT NULL,
    name        TEXT NOT NULL,
    mu          REAL NOT NULL,
    sigma       REAL NOT NULL,
    ordinal     REAL NOT NULL,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    last_result INTEGER NOT NULL,
    PRIMARY KEY (guild_id, scope, game, user_id)
) WITHOUT ROWID;
CREATE INDEX ratings_board ON ratings (guild_id, scope, game, ordinal DESC, user_id);

CREATE TABLE rating_history (
    result_id    INTEGER NOT NULL REFERENCES game_results (id),
    guild_id     INTEGER NOT NULL,
    scope        TEXT NOT NULL,
    user_id      INTEGER NOT NULL,
    mu_before    REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu_after     REAL NOT NULL,
    sigma_after  REAL NOT NULL,
    PRIMARY KEY (result_id, guild_id, scope, user_id)
) WITHOUT ROWID;
CREATE INDEX rating_history_by_user ON rating_history (user_id, result_id);

CREATE TABLE seasons (
    guild_id   INTEGER NOT NULL,
    number     INTEGER NOT NULL,
    started_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    started_by INTEGER,
    PRIMARY KEY (guild_id, number)
);

CREATE TABLE removed_games (
    result_id  INTEGER PRIMARY KEY REFERENCES game_results (id),
    removed_by INTEGER NOT NULL,
    reason     TEXT NOT NULL,
    removed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- What administrators did to the ratings (new seasons, removals, recomputations), never deleted.
CREATE TABLE rating_log (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id INTEGER,
    user_id  INTEGER,
    event    TEXT NOT NULL,
    detail   TEXT NOT NULL,
    at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE global_optin (
    user_id INTEGER PRIMARY KEY,
    since   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
