-- clock firings claimed as leases: a claim not done in time may be taken over by another process

-- A claim: who took it (a token of that one attempt) and when, by the clocks' time; done once its output is made.
-- Rows from before this migration were acted on when they were claimed.
ALTER TABLE clock_firings ADD COLUMN claimed_by TEXT;
ALTER TABLE clock_firings ADD COLUMN claimed_at REAL;
ALTER TABLE clock_firings ADD COLUMN done_at TEXT;
UPDATE clock_firings SET done_at = fired_at;

