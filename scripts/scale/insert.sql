-- One single-row insert of a deal-sized JSON document: the database's own
-- limit that scripts/scale/run.sh sets Revisor's submission rate against.
INSERT INTO bench_deals (tournament_id, round, table_no, game, seq, deal)
VALUES ('bench', 1, :client_id + 1, 1, nextval('bench_seq'),
        '{"sheet":{"p1":{"hand1":2,"hand2":5},"p2":{"last_trick":5}}}');
