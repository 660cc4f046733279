-- The language a player chose for what the bot tells them privately (NULL: their Discord client's locale).
ALTER TABLE player_settings ADD COLUMN language TEXT;
