UPDATE tournaments SET language = '' WHERE language = 'fi';
ALTER TABLE tournaments DROP CONSTRAINT tournaments_language_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_language_check
    CHECK (language IN ('', 'sv', 'nb', 'da', 'en'));
