-- A table re-seated before its first result (docs/tournaments.md, "Re-seating
-- a table"): the table as the draw made it is kept beside the seating it now
-- has, so that the draw can still be verified from its seed. NULL: never
-- re-seated. Every re-seating is an UPDATE of round_tables, in the audit log
-- as kind 'seating' with the rows before and after and the reason.
ALTER TABLE round_tables
    ADD COLUMN drawn_players      text[],
    ADD COLUMN drawn_seats        int[],
    ADD COLUMN drawn_first_dealer text;
