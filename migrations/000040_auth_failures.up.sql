-- Wrong tokens per client address, shared by every process behind one
-- address (internal/ratelimit, postgres.FailureCounts): a token bucket of
-- tries that refills with time. Only failures write here; rows of
-- addresses whose bucket is full again are deleted.
CREATE TABLE auth_failures (
    addr text PRIMARY KEY,
    tokens double precision NOT NULL,
    at timestamptz NOT NULL
);
