-- taps forwarded to their table's owner, and which process holds (does the table work of) which shard

-- A DM tap received by a process that does not own its table (shard 0's): the interaction as Discord sent it (JSON
-- text: the owner answers through its token), when it was forwarded (ISO UTC text), and the claim of the process
-- that handles it: a token of that attempt and when (seconds since the epoch), so that a claim not finished in time
-- is taken over.  The row is deleted once the tap is answered.
CREATE TABLE forwarded_taps (
    interaction_id BIGINT PRIMARY KEY,
    table_id BIGINT NOT NULL,
    payload TEXT NOT NULL,
    forwarded_at TEXT NOT NULL,
    claimed_by TEXT,
    claimed_at REAL
);

-- Each shard's table work is done by the process holding its lease: a token of that process (NULL: released), the
-- last renewal (seconds since the epoch; a lease not renewed for a while is stale and may be taken), and the token
-- of the shard's own process asking for it back from a process that took it while it was gone.
CREATE TABLE shard_leases (
    shard_id BIGINT PRIMARY KEY,
    holder TEXT,
    renewed_at REAL NOT NULL,
    wanted_by TEXT
);
