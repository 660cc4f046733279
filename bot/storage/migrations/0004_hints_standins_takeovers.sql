-- hints per table, stand-in moves marked in the action log, substitutes' takeovers (bot/ratings/standins.py)

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
