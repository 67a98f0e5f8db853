ALTER TABLE round_clocks
    DROP COLUMN prior_state,
    DROP COLUMN prior_ends_at,
    DROP COLUMN prior_remaining_ms;
