-- Tournament schema: tournaments, players, rounds with their tables, game
-- results (append-only), deals of games in progress, round outcomes and the
-- organizer's tie resolutions. Standings are never stored: they are computed
-- from the results.

-- organizer_token_hash is the SHA-256 of the organizer token (the token is
-- never stored); code_key is the HMAC key table codes are derived from.
CREATE TABLE tournaments (
    id                   text        PRIMARY KEY,
    name                 text        NOT NULL,
    format               text        NOT NULL CHECK (format IN ('sm', 'swiss')),
    rules                jsonb,
    games_per_round      int         NOT NULL CHECK (games_per_round BETWEEN 1 AND 20),
    placement_points     int[]       NOT NULL,
    advance_per_table    int         NOT NULL,
    rounds               int         NOT NULL,
    final_size           int         NOT NULL,
    tiebreaks            text[]      NOT NULL,
    seating              text        NOT NULL CHECK (seating IN ('mixed', 'by_standings')),
    status               text        NOT NULL CHECK (status IN ('registration', 'running', 'finished')),
    champion             text,
    organizer_token_hash bytea       NOT NULL UNIQUE,
    code_key             bytea       NOT NULL,
    created_at           timestamptz NOT NULL
);

-- players.id is "p<seq>": short, unique within the tournament, and what game
-- records name the player by.
CREATE TABLE players (
    tournament_id text        NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    id            text        NOT NULL,
    seq           int         NOT NULL,
    name          text        NOT NULL,
    club          text        NOT NULL DEFAULT '',
    status        text        NOT NULL CHECK (status IN ('active', 'withdrawn', 'eliminated', 'disqualified')),
    created_at    timestamptz NOT NULL,
    PRIMARY KEY (tournament_id, id),
    UNIQUE (tournament_id, seq)
);

CREATE TABLE rounds (
    tournament_id text        NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number        int         NOT NULL CHECK (number >= 1),
    seed          bigint      NOT NULL,
    final         boolean     NOT NULL DEFAULT false,
    status        text        NOT NULL CHECK (status IN ('open', 'closed')),
    created_at    timestamptz NOT NULL,
    closed_at     timestamptz,
    PRIMARY KEY (tournament_id, number)
);

-- players holds player ids in seat order (clockwise); seats holds the seat
-- (1 to 4) of each, in the same order, so that a table of 3 keeps which seat
-- was empty (NULL: seats 1, 2, ... in order).
CREATE TABLE round_tables (
    tournament_id text   NOT NULL,
    round         int    NOT NULL,
    number        int    NOT NULL CHECK (number >= 1),
    players       text[] NOT NULL CHECK (cardinality(players) BETWEEN 2 AND 4),
    seats         int[]  CHECK (seats IS NULL OR (cardinality(seats) = cardinality(players) AND seats <@ ARRAY[1, 2, 3, 4])),
    first_dealer  text   NOT NULL,
    PRIMARY KEY (tournament_id, round, number),
    FOREIGN KEY (tournament_id, round) REFERENCES rounds (tournament_id, number) ON DELETE CASCADE
);

-- game_results is append-only: a submission is stored once per game (the
-- partial unique index makes two concurrent submissions leave exactly one);
-- a referee's correction is a new row with kind 'correction' that names the
-- row it supersedes. The effective result of a game is its latest row.
-- places holds what the standings need: [{player, place, score, points,
-- forfeit}], so that they are computed without reading the records.
CREATE TABLE game_results (
    id            bigserial   PRIMARY KEY,
    tournament_id text        NOT NULL,
    round         int         NOT NULL,
    table_no      int         NOT NULL,
    game          int         NOT NULL CHECK (game >= 1),
    kind          text        NOT NULL CHECK (kind IN ('submission', 'correction')),
    supersedes    bigint      REFERENCES game_results (id),
    record        jsonb       NOT NULL,
    record_hash   bytea       NOT NULL,
    result        jsonb       NOT NULL,
    places        jsonb       NOT NULL,
    submitted_by  text        NOT NULL,
    created_at    timestamptz NOT NULL,
    FOREIGN KEY (tournament_id, round, table_no) REFERENCES round_tables (tournament_id, round, number) ON DELETE CASCADE,
    CHECK ((kind = 'correction') = (supersedes IS NOT NULL))
);

CREATE UNIQUE INDEX game_results_one_submission
    ON game_results (tournament_id, round, table_no, game) WHERE kind = 'submission';
CREATE INDEX game_results_by_game ON game_results (tournament_id, round, table_no, game, id);

-- game_deals holds the deals of a game entered deal by deal, in order.
CREATE TABLE game_deals (
    tournament_id text        NOT NULL,
    round         int         NOT NULL,
    table_no      int         NOT NULL,
    game          int         NOT NULL,
    seq           int         NOT NULL CHECK (seq >= 0),
    deal          jsonb       NOT NULL,
    created_at    timestamptz NOT NULL,
    PRIMARY KEY (tournament_id, round, table_no, game, seq),
    FOREIGN KEY (tournament_id, round, table_no) REFERENCES round_tables (tournament_id, round, number) ON DELETE CASCADE
);

-- round_outcomes records, when a round closes, each player's rank at the
-- table and whether they advanced (sm).
CREATE TABLE round_outcomes (
    tournament_id text    NOT NULL,
    round         int     NOT NULL,
    player_id     text    NOT NULL,
    table_no      int     NOT NULL,
    rank          int     NOT NULL,
    advanced      boolean NOT NULL,
    PRIMARY KEY (tournament_id, round, player_id),
    FOREIGN KEY (tournament_id, round) REFERENCES rounds (tournament_id, number) ON DELETE CASCADE
);

-- tie_resolutions records the organizer's decisions of ties the tiebreaks
-- left open: the tied players in the decided order, best first.
CREATE TABLE tie_resolutions (
    id            bigserial   PRIMARY KEY,
    tournament_id text        NOT NULL,
    round         int         NOT NULL,
    players       text[]      NOT NULL,
    method        text        NOT NULL CHECK (method IN ('lot', 'choice')),
    note          text        NOT NULL DEFAULT '',
    decided_by    text        NOT NULL,
    created_at    timestamptz NOT NULL,
    FOREIGN KEY (tournament_id, round) REFERENCES rounds (tournament_id, number) ON DELETE CASCADE
);
