-- Bridge tournaments already stored stay (NOT VALID), new ones are refused.
ALTER TABLE tournaments DROP CONSTRAINT tournaments_format_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_format_check CHECK (format IN ('sm', 'swiss')) NOT VALID;
