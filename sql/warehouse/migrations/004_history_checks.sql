-- 004_history_checks: the data checks across snapshots (sql/checks/history/). Additive: rows
-- published before this migration read these columns as NULL (the views say 'rule' then).

-- 'rule': a check within one snapshot (sql/checks/); 'history': a comparison of the staged
-- snapshot with the previous snapshots of the same segment (sql/checks/history/).
alter table check_results add column kind varchar;

-- History checks: the previous snapshot compared with (NULL: none, the check skipped). It is
-- not the day before when nights were missed; the checks compare with it anyway.
alter table check_results add column compared_with date;
