-- live hands: each seated player's one hand message per deal (a DM the bot keeps editing), found again after a restart

CREATE TABLE hand_messages (
    table_id   INTEGER NOT NULL REFERENCES tables (id),
    deal_index INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (table_id, deal_index, seat)
);
