-- Platform tables: idempotent request replay and server secrets.

-- idempotency_keys remembers the first response to a request that carried an
-- Idempotency-Key header, so that a retry with the same key and body gets the
-- same answer instead of doing the work twice. scope separates clients and
-- endpoints (method, path and a hash of the credentials); fingerprint is a
-- hash of the request body; response is NULL while the first request is still
-- being handled.
CREATE TABLE idempotency_keys (
    scope       text        NOT NULL,
    key         text        NOT NULL,
    fingerprint bytea       NOT NULL,
    response    bytea,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (scope, key)
);

CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);

-- server_secrets holds hashes of server-wide secrets, such as the admin token
-- generated on first start. The secret itself is never stored.
CREATE TABLE server_secrets (
    name       text        PRIMARY KEY,
    hash       bytea       NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
