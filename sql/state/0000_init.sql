CREATE TABLE `checkpoints` (
	`snapshot_date` text NOT NULL,
	`segment` text NOT NULL,
	`unit` text NOT NULL,
	`rows` integer DEFAULT 0 NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	`done_at` text NOT NULL,
	PRIMARY KEY(`snapshot_date`, `segment`, `unit`)
);
--> statement-breakpoint
CREATE TABLE `hooks` (
	`hook_id` text PRIMARY KEY NOT NULL,
	`search_id` integer NOT NULL,
	`search_type` text,
	`target_url` text NOT NULL,
	`path_token` text NOT NULL,
	`secret` text NOT NULL,
	`company_id` text,
	`status` text,
	`updated` text,
	`version` text,
	`created_at` text NOT NULL,
	`deleted_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `hooks_path_token_unique` ON `hooks` (`path_token`);--> statement-breakpoint
CREATE TABLE `meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `runs` (
	`run_id` text PRIMARY KEY NOT NULL,
	`snapshot_date` text NOT NULL,
	`status` text NOT NULL,
	`trigger` text DEFAULT 'manual' NOT NULL,
	`started_at` text NOT NULL,
	`finished_at` text,
	`requests` integer DEFAULT 0 NOT NULL,
	`retries` integer DEFAULT 0 NOT NULL,
	`throttled` integer DEFAULT 0 NOT NULL,
	`rows_written` integer DEFAULT 0 NOT NULL,
	`error` text,
	`segments` text DEFAULT '["all"]' NOT NULL,
	`pid` integer,
	`heartbeat_at` text
);
--> statement-breakpoint
CREATE INDEX `runs_snapshot_idx` ON `runs` (`snapshot_date`,`status`);