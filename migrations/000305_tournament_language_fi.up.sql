-- Finnish (fi) becomes a fifth language of the pages (issue 30), so a
-- tournament may name it as its default.
ALTER TABLE tournaments DROP CONSTRAINT tournaments_language_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_language_check
    CHECK (language IN ('', 'sv', 'nb', 'da', 'fi', 'en'));
