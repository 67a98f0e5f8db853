DROP INDEX IF EXISTS audit_log_by_place;
DROP INDEX IF EXISTS audit_log_by_kind;
