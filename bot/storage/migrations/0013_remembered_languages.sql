-- Each player's Discord language as last heard, so that their hand keeps it after a restart (NULL: not heard yet)
ALTER TABLE player_settings ADD COLUMN heard_language TEXT;
