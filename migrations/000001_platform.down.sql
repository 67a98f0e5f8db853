DROP TABLE IF EXISTS server_secrets;
DROP TABLE IF EXISTS idempotency_keys;
