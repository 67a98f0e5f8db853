-- Undoing a call of time (issue 30): while a round's time is called, the
-- clock keeps how it stood before (prior_*), so that the organizer can take
-- a call made by mistake back (action 'undo_call_time', with a reason in
-- the audit log). Clocks called before this migration have no prior state
-- and cannot be undone.
ALTER TABLE round_clocks
    ADD COLUMN prior_state        text CHECK (prior_state IN ('idle', 'running', 'paused')),
    ADD COLUMN prior_ends_at      timestamptz,
    ADD COLUMN prior_remaining_ms bigint CHECK (prior_remaining_ms IS NULL OR prior_remaining_ms >= 0),
    ADD CONSTRAINT round_clocks_prior_only_called CHECK (prior_state IS NULL OR state = 'time_called'),
    ADD CONSTRAINT round_clocks_prior_running CHECK ((prior_state IS NOT DISTINCT FROM 'running') = (prior_ends_at IS NOT NULL)),
    ADD CONSTRAINT round_clocks_prior_paused CHECK ((prior_state IS NOT DISTINCT FROM 'paused') = (prior_remaining_ms IS NOT NULL));
