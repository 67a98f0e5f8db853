-- A dispute is seen when a referee (or the organizer) first opens it on
-- the referees' page (issue 26): the table that sent it is told "seen by a
-- referee". The disputes trigger announces the update on revisor_events
-- (000021) and audits it (000020), so the table's phones hear it at once.
ALTER TABLE disputes ADD COLUMN seen_at timestamptz, ADD COLUMN seen_by text NOT NULL DEFAULT '';
