-- what each message edited by several processes last showed: a table message's or a live hand's table version

-- message_id: Discord's id of the message (unique across channels); shown_version: the table version (its count of
-- deals and actions) the message was last edited to show; shown_by: a token of the claim that wrote it (who won);
-- shown_at: ISO UTC text, for pruning.
CREATE TABLE shown_versions (
    message_id BIGINT PRIMARY KEY,
    table_id BIGINT NOT NULL,
    shown_version BIGINT NOT NULL,
    shown_by TEXT NOT NULL,
    shown_at TEXT NOT NULL
);
