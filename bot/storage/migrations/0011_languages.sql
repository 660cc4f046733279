-- Languages: the one a player chose for what the bot tells them privately, and each table's for its public messages
-- (NULL: the player's Discord client's locale; for a table, English, as before).
ALTER TABLE player_settings ADD COLUMN language TEXT;
ALTER TABLE tables ADD COLUMN language TEXT;
