DROP TRIGGER IF EXISTS revisor_live_round_reopenings ON round_reopenings;
DROP TRIGGER IF EXISTS revisor_live_disputes ON disputes;
DROP TRIGGER IF EXISTS revisor_live_adjustments ON adjustments;
