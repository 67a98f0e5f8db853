-- Where the clock cap cut a round's seating search short, counted in the
-- search's deterministic iterations (seating.Result.Steps), so that
-- `revisor seat --draw` replays exactly that much search and the draw
-- verifies; 0: the search was not cut (it ran to its work bound).
ALTER TABLE rounds ADD COLUMN search_steps integer NOT NULL DEFAULT 0 CHECK (search_steps >= 0);
