CREATE OR REPLACE FUNCTION revisor_audit_row(tbl text, r jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN tbl = 'game_results' THEN r - 'record' - 'result' ELSE r END
        - 'organizer_token_hash' - 'code_key' - 'token_hash'
$$;

ALTER TABLE game_deals DROP COLUMN state;
