-- A tournament's default language for its pages: shown to a visitor whose
-- browser asks for none of the pages' languages and who has not chosen one
-- with the language switch. '' (tournaments from before the setting): none,
-- the pages fall back to English as they did.
ALTER TABLE tournaments ADD COLUMN language text NOT NULL DEFAULT ''
    CHECK (language IN ('', 'sv', 'nb', 'da', 'en'));
