-- The phones' reports of their queues (issue 26, docs/table-protocol.md):
-- the latest report of each phone at a table, so that the room view behind
-- several Revisor processes sees every phone's report. Bounded by the
-- store (tournament.QueueReportBounds): 16 phones a table, 20 000 reports
-- in all, three hours each. No audit: a report is a hint to the organizer,
-- not a result. A report is announced (kind "queue_reports"), so that the
-- room view and the console mark the table at once; no snapshot holds it,
-- and the table pages do not read themselves again for it.
CREATE TABLE queue_reports (
    tournament_id text        NOT NULL,
    round         int         NOT NULL,
    table_no      int         NOT NULL,
    phone         text        NOT NULL,
    conflicts     int         NOT NULL CHECK (conflicts >= 0),
    refused       int         NOT NULL CHECK (refused >= 0),
    at            timestamptz NOT NULL,
    PRIMARY KEY (tournament_id, round, table_no, phone),
    FOREIGN KEY (tournament_id, round, table_no) REFERENCES round_tables (tournament_id, round, number) ON DELETE CASCADE
);
CREATE INDEX queue_reports_by_age ON queue_reports (at);
CREATE TRIGGER revisor_live_queue_reports AFTER INSERT OR UPDATE ON queue_reports
    FOR EACH ROW EXECUTE FUNCTION revisor_notify_change();
