"""The database schema as numbered migrations, applied in order at start-up (see ``bot/storage/store.py``).

Never edit a migration that has shipped: add the next number.  Later issues (clocks and per-table settings,
ratings) append theirs here.
"""

from __future__ import annotations

MIGRATIONS: list[tuple[int, str, str]] = [
    (
        1,
        "tables, seats, deals and the append-only action log",
        """
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
        """,
    ),
    (
        2,
        "game results, ratings and their history, seasons, removed games, the global opt-in (bot/storage/results.py)",
        """
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
        """,
    ),
    (
        3,
        "turn clocks and deadlines, idle seats, closures of abandoned tables, server settings (bot/clocks/service.py)",
        """
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
        """,
    ),
    (
        4,
        "hints per table, stand-in moves marked in the action log, substitutes' takeovers (bot/ratings/standins.py)",
        """
        -- 1 when the host allowed /hint at /table new (such games are unrated).
        ALTER TABLE tables ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;

        -- 1 when a computer stood in for an away player (bot/clocks/service.py): not the seat's player's move.
        -- Written in the action's own INSERT, so the count of a seat's stand-in moves is never off by a crash.
        ALTER TABLE actions ADD COLUMN standin INTEGER NOT NULL DEFAULT 0;

        -- A substitute took an idle player's seat; ``at_action``: how many actions the game had before.
        CREATE TABLE seat_takeovers (
            table_id         INTEGER NOT NULL REFERENCES tables (id),
            seat             INTEGER NOT NULL,
            user_id          INTEGER NOT NULL,
            previous_user_id INTEGER,
            at_action        INTEGER NOT NULL,
            taken_at         TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
            PRIMARY KEY (table_id, seat, at_action)
        );

        -- Per seat of an ended game: its moves (draws from a stock not counted), those a computer made standing in,
        -- and those its player at the end made (the substitute's, when one took over).
        ALTER TABLE result_players ADD COLUMN moves INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE result_players ADD COLUMN standin_moves INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE result_players ADD COLUMN player_moves INTEGER NOT NULL DEFAULT 0;
        """,
    ),
]
