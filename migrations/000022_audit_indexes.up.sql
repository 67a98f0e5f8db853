-- Indexes for the audit log's filters (GET …/audit?kind=…, ?round=…&table=…):
-- each filter walks its own index in id order instead of the whole log.
CREATE INDEX audit_log_by_kind ON audit_log (tournament_id, kind, id);
CREATE INDEX audit_log_by_place ON audit_log (tournament_id, round, table_no, id);
