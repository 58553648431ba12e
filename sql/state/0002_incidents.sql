CREATE TABLE `incidents` (
	`kind` text PRIMARY KEY NOT NULL,
	`opened_at` text NOT NULL,
	`notified_at` text NOT NULL,
	`resolved_at` text,
	`summary` text NOT NULL,
	`details` text DEFAULT '{}' NOT NULL
);
