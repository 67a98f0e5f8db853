DROP TABLE IF EXISTS queue_reports;
