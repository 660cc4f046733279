-- table options for what may be looked back at and shown to spectators, and each table's spectators

-- 1 when the host opened the full trick review and running points (a learning table: such games are unrated).
ALTER TABLE tables ADD COLUMN open_review INTEGER NOT NULL DEFAULT 0;
-- 1 when each deal's hands are shown to the table's spectators once the deal is over.
ALTER TABLE tables ADD COLUMN spectator_hands INTEGER NOT NULL DEFAULT 0;

-- Who watches a table (/table watch, the Watch button): they hear of each finished deal by DM.
CREATE TABLE table_watchers (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    user_id  BIGINT NOT NULL,
    since    TEXT NOT NULL,
    PRIMARY KEY (table_id, user_id)
);
