-- A daylong against computers (bot/tournaments/daylong.py): the tournament itself is a row of ``tournaments``
-- (format 'daylong'); here each player who started, with the instance of the board set they play and the private
-- thread their tables open in, and each board they started.
-- ``status`` of a player: 'playing', 'withdrawn'.  Of a board: 'playing', 'finished', 'unfinished' (its table was
-- closed without a result, or the window closed first: the board is never played again).
CREATE TABLE daylong_players (
    tournament_id INTEGER NOT NULL,
    user_id       BIGINT NOT NULL,
    name          TEXT NOT NULL,
    instance      INTEGER NOT NULL,
    thread_id     BIGINT,
    status        TEXT NOT NULL,
    started_at    TEXT NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);

CREATE TABLE daylong_boards (
    tournament_id INTEGER NOT NULL,
    user_id       BIGINT NOT NULL,
    board_no      INTEGER NOT NULL,
    table_id      INTEGER,
    status        TEXT NOT NULL,
    net           INTEGER,
    finished_at   TEXT,
    PRIMARY KEY (tournament_id, user_id, board_no)
);
CREATE INDEX daylong_boards_by_table ON daylong_boards (table_id);
