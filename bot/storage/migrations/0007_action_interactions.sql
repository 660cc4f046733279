-- the interaction (Discord's id of the click or command) that made each action: one interaction, one action

-- NULL for actions no interaction made (computer players, stand-ins, a forced card, older rows). Several bot
-- processes may receive the same interaction (a redelivery, a double click's copy): the unique index lets only one
-- of them store it.
ALTER TABLE actions ADD COLUMN interaction_id TEXT;
CREATE UNIQUE INDEX actions_by_interaction ON actions (interaction_id);
