CREATE TABLE `loader_progress` (
	`id` integer PRIMARY KEY NOT NULL,
	`loaded_through` integer NOT NULL,
	`loaded_at` text
);
--> statement-breakpoint
-- The loader published deliveries in delivery_id order, so the loaded ones are a prefix:
-- the watermark is the last delivery before the first unloaded one (or the last of all).
INSERT INTO `loader_progress` (`id`, `loaded_through`, `loaded_at`)
SELECT 1,
	coalesce(
		(SELECT min(`delivery_id`) - 1 FROM `deliveries` WHERE `loaded_at` IS NULL),
		(SELECT max(`delivery_id`) FROM `deliveries`),
		0),
	(SELECT max(`loaded_at`) FROM `deliveries`);
--> statement-breakpoint
DROP INDEX `deliveries_pending_idx`;
