ALTER TABLE `deliveries` ADD `quarantined_at` text;--> statement-breakpoint
ALTER TABLE `deliveries` ADD `quarantine_reason` text;--> statement-breakpoint
CREATE INDEX `deliveries_quarantined_idx` ON `deliveries` (`delivery_id`) WHERE quarantined_at is not null;