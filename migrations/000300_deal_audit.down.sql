DROP TRIGGER revisor_audit_insert ON game_deals;
DROP TRIGGER revisor_audit ON game_deals;
CREATE TRIGGER revisor_audit AFTER INSERT OR UPDATE OR DELETE ON game_deals FOR EACH ROW EXECUTE FUNCTION revisor_audit();
DROP FUNCTION revisor_audit_deal();
