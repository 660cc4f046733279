-- a tournament's timers (check-in reminder and close, a round's reminder and deadline), each acted on once

-- Every process that knows the tournament arms the same timer, so that it survives a restart or the death of the
-- process that armed it first; the INSERT decides which one acts.  ``due_ms``: the moment the timer was for, so an
-- extended deadline is a new firing.
CREATE TABLE tournament_firings (
    tournament_id INTEGER NOT NULL,
    kind          TEXT NOT NULL,
    round_no      INTEGER NOT NULL,
    due_ms        BIGINT NOT NULL,
    fired_at      TEXT NOT NULL,
    PRIMARY KEY (tournament_id, kind, round_no, due_ms)
);
