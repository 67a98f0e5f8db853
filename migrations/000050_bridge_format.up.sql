-- Chicago bridge tournaments (docs/bridge.md): the format bridge_chicago.
ALTER TABLE tournaments DROP CONSTRAINT tournaments_format_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_format_check CHECK (format IN ('sm', 'swiss', 'bridge_chicago'));
