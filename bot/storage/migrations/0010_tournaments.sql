-- tournaments: entrants, rounds and their boards, matches and seats, results, adjustments and the audit log

-- Ids are given by Python (one more than the largest), so the same SQL runs on databases without AUTOINCREMENT.
-- ``status``: 'registration', 'check_in', 'running', 'paused', 'finished' or 'cancelled'.  ``settings``: JSON (the format's
-- details: entry, deals per round, clock, cap); ``seed``: the tournament's own (whist placement, round robin order).
CREATE TABLE tournaments (
    id                   INTEGER PRIMARY KEY,
    guild_id             BIGINT,
    channel_id           BIGINT NOT NULL,
    message_id           BIGINT,
    standings_message_id BIGINT,
    organiser_id         BIGINT NOT NULL,
    name                 TEXT NOT NULL,
    game                 TEXT NOT NULL,
    preset               TEXT,
    options              TEXT NOT NULL,
    format               TEXT NOT NULL,
    rounds               INTEGER NOT NULL,
    settings             TEXT NOT NULL,
    seed                 BIGINT NOT NULL,
    status               TEXT NOT NULL,
    created_at           TEXT NOT NULL,
    updated_at           TEXT NOT NULL
);
CREATE INDEX tournaments_by_status ON tournaments (status);

-- An entrant is a team or a player; ``status``: 'registered', 'waitlist', 'checked_in', 'withdrawn', 'dropped'.
CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    entrant_id    INTEGER NOT NULL,
    name          TEXT NOT NULL,
    status        TEXT NOT NULL,
    registered_at TEXT NOT NULL,
    PRIMARY KEY (tournament_id, entrant_id)
);

CREATE TABLE tournament_members (
    tournament_id INTEGER NOT NULL,
    entrant_id    INTEGER NOT NULL,
    user_id       BIGINT NOT NULL,
    name          TEXT NOT NULL,
    PRIMARY KEY (tournament_id, entrant_id, user_id)
);
CREATE INDEX tournament_members_by_user ON tournament_members (user_id);

-- A round's seed is committed (its hash, ``commitment``) when the round is paired and revealed when it ends.
-- ``plan``: JSON, the tables' sides and the byes.  ``status``: 'playing' or 'finished'.
CREATE TABLE tournament_rounds (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round_no      INTEGER NOT NULL,
    seed          BIGINT NOT NULL,
    commitment    TEXT NOT NULL,
    plan          TEXT NOT NULL,
    status        TEXT NOT NULL,
    deadline      TEXT,
    revealed      INTEGER NOT NULL,
    started_at    TEXT NOT NULL,
    finished_at   TEXT,
    PRIMARY KEY (tournament_id, round_no)
);

CREATE TABLE tournament_boards (
    tournament_id INTEGER NOT NULL,
    round_no      INTEGER NOT NULL,
    board_no      INTEGER NOT NULL,
    dealer        INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, board_no)
);

-- One row per table of a round; ``table_id`` once the bot has opened it, ``thread_id`` its private thread.
CREATE TABLE tournament_matches (
    tournament_id INTEGER NOT NULL,
    round_no      INTEGER NOT NULL,
    match_no      INTEGER NOT NULL,
    table_id      INTEGER,
    thread_id     BIGINT,
    status        TEXT NOT NULL,
    PRIMARY KEY (tournament_id, round_no, match_no)
);
CREATE INDEX tournament_matches_by_table ON tournament_matches (table_id);

CREATE TABLE tournament_seats (
    tournament_id INTEGER NOT NULL,
    round_no      INTEGER NOT NULL,
    match_no      INTEGER NOT NULL,
    seat          INTEGER NOT NULL,
    entrant_id    INTEGER NOT NULL,
    user_id       BIGINT,
    PRIMARY KEY (tournament_id, round_no, match_no, seat)
);

-- Each side's score at a finished match (``board_no`` -1) or on one board; ``won``: 1, 0, or NULL when level.
CREATE TABLE tournament_results (
    tournament_id INTEGER NOT NULL,
    round_no      INTEGER NOT NULL,
    match_no      INTEGER NOT NULL,
    board_no      INTEGER NOT NULL,
    side          INTEGER NOT NULL,
    score         INTEGER NOT NULL,
    won           INTEGER,
    PRIMARY KEY (tournament_id, round_no, match_no, board_no, side)
);

CREATE TABLE tournament_adjustments (
    tournament_id INTEGER NOT NULL,
    seq           INTEGER NOT NULL,
    entrant_id    INTEGER NOT NULL,
    delta         REAL NOT NULL,
    reason        TEXT NOT NULL,
    actor_id      BIGINT NOT NULL,
    at            TEXT NOT NULL,
    PRIMARY KEY (tournament_id, seq)
);

-- Every organiser's act and every step the bot took, readable by the players.
CREATE TABLE tournament_audit (
    tournament_id INTEGER NOT NULL,
    seq           INTEGER NOT NULL,
    at            TEXT NOT NULL,
    actor_id      BIGINT,
    action        TEXT NOT NULL,
    detail        TEXT NOT NULL,
    PRIMARY KEY (tournament_id, seq)
);
