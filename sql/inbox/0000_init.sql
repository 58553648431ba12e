CREATE TABLE `deliveries` (
	`delivery_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`hook_id` text NOT NULL,
	`received_at` text NOT NULL,
	`body` blob NOT NULL,
	`bytes` integer NOT NULL,
	`documents` integer NOT NULL,
	`loaded_at` text
);
--> statement-breakpoint
CREATE INDEX `deliveries_pending_idx` ON `deliveries` (`loaded_at`,`delivery_id`);