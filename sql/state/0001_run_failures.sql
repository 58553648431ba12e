ALTER TABLE `runs` ADD `failures` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Runs that failed before the column existed: at least one failed attempt each.
UPDATE `runs` SET `failures` = 1 WHERE `status` = 'failed';
