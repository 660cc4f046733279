-- each action's interaction (one interaction, one action), and each clock firing claimed once (several processes)

-- NULL for actions no interaction made (computer players, stand-ins, a forced card, older rows). Several bot
-- processes may receive the same interaction (a redelivery, a double click's copy): the unique index lets only one
-- of them store it.
ALTER TABLE actions ADD COLUMN interaction_id TEXT;
CREATE UNIQUE INDEX actions_by_interaction ON actions (interaction_id);

-- A reminder or a deadline that fired, claimed by the one process that acts on it: every process that knows the
-- table arms the same timer (so it survives the death of the one that armed it first), the INSERT decides.
-- ``deadline_ms``: the deadline the timer was for (a player back on the same turn gets a new deadline).
CREATE TABLE clock_firings (
    table_id    INTEGER NOT NULL REFERENCES tables (id),
    kind        TEXT NOT NULL,
    turn        INTEGER NOT NULL,
    deadline_ms INTEGER NOT NULL,
    fired_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (table_id, kind, turn, deadline_ms)
);
