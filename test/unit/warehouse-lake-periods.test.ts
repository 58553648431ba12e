import { describe, expect, it } from 'vitest';
import {
  closedPeriodOf,
  comparePeriods,
  factFileName,
  factFilePlace,
  nextTenDays,
  parseFactFile,
  periodEnd,
  periodLastDate,
  periodStart,
  periodsOf,
  publishPeriodsOf,
} from '../../src/warehouse/lake/testing.js';

describe("fact files' periods", () => {
  it("places each file in the folder of its period's last date, the anchor before every date", () => {
    expect(periodLastDate('2026-11-20')).toBe('2026-11-20');
    expect(periodLastDate('2026-11-D1')).toBe('2026-11-10');
    expect(periodLastDate('2026-11-D2')).toBe('2026-11-20');
    expect(periodLastDate('2026-11-D3')).toBe('2026-11-30');
    expect(periodLastDate('2028-02-D3')).toBe('2028-02-29');
    expect(periodLastDate('2027-02')).toBe('2027-02-28');
    expect(periodLastDate('2026-12')).toBe('2026-12-31');
    expect(periodLastDate('2025')).toBe('2025-12-31');
    expect(factFileName('2026-11-D2', 'vip', '0abc')).toBe(
      'last_date=2026-11-20/2026-11-D2~vip.0abc.parquet',
    );
    expect(factFilePlace('2025~all.0abc.parquet')).toBe('last_date=2025-12-31/2025~all.0abc.parquet');
    expect(factFilePlace('_schema.0abc.parquet')).toBe('last_date=0001-01-01/_schema.0abc.parquet');
    expect(() => factFilePlace('p.0abc.parquet')).toThrow(
      'p.0abc.parquet is not a fact file of this release',
    );
    expect(parseFactFile('last_date=2026-11-20/2026-11-D2~vip.0abc.parquet')).toEqual({
      period: '2026-11-D2',
      segment: 'vip',
    });
  });

  it('names a day, a ten-day, a month and a year file, and nothing else', () => {
    expect(parseFactFile('2026-11-20~vip.0abc.parquet')).toEqual({ period: '2026-11-20', segment: 'vip' });
    expect(parseFactFile('2026-11-D2~vip.0abc.parquet')).toEqual({ period: '2026-11-D2', segment: 'vip' });
    expect(parseFactFile('2026-11-D4~vip.0abc.parquet')).toBeUndefined();
    expect(parseFactFile('2026-10~all.0abc.parquet')).toEqual({ period: '2026-10', segment: 'all' });
    expect(parseFactFile('2025~all.0abc.parquet')).toEqual({ period: '2025', segment: 'all' });
    expect(parseFactFile('_schema.0abc.parquet')).toBeUndefined();
    expect(parseFactFile('20251~all.0abc.parquet')).toBeUndefined();
  });

  it('closes a year before the newest snapshot year, else a month before its month, else ten days before its ten days', () => {
    const newest = '2026-03-24';
    expect(closedPeriodOf('2025-12-31', newest)).toBe('2025');
    expect(closedPeriodOf('2025-07', newest)).toBe('2025');
    expect(closedPeriodOf('2025', newest)).toBe('2025');
    expect(closedPeriodOf('2026-02-28', newest)).toBe('2026-02');
    expect(closedPeriodOf('2026-01', newest)).toBe('2026-01');
    expect(closedPeriodOf('2026-02-D3', newest)).toBe('2026-02');
    expect(closedPeriodOf('2026-03-01', newest)).toBe('2026-03-D1');
    expect(closedPeriodOf('2026-03-20', newest)).toBe('2026-03-D2');
    expect(closedPeriodOf('2026-03-D2', newest)).toBe('2026-03-D2');
    expect(closedPeriodOf('2026-03-21', newest)).toBeUndefined();
    expect(closedPeriodOf('2026', newest)).toBeUndefined();
    expect(closedPeriodOf('2026-02-28', '2026-03-04')).toBe('2026-02');
    expect(closedPeriodOf('2026-03-01', '2026-03-04')).toBeUndefined();
  });

  it('orders periods by their last date, each after its own days and before later dates', () => {
    const periods = [
      '2026-01-02',
      '2025',
      '2026-01',
      '2025-12-31',
      '2025-11',
      '2026-02-01',
      '2026-01-D1',
      '2026-01-10',
      '2026-01-11',
      '2026-01-D3',
      '2026-01-31',
    ];
    expect(periods.sort((a, b) => (periodEnd(a) < periodEnd(b) ? -1 : 1))).toEqual([
      '2025-11',
      '2025-12-31',
      '2025',
      '2026-01-02',
      '2026-01-10',
      '2026-01-D1',
      '2026-01-11',
      '2026-01-31',
      '2026-01-D3',
      '2026-01',
      '2026-02-01',
    ]);
    expect(periodStart('2026-01-D2') > periodEnd('2026-01-D1')).toBe(true);
    expect(periodStart('2026-01-D2') > periodEnd('2026-01-10')).toBe(true);
    expect(periodStart('2026-01-D2') > periodEnd('2026-01-11')).toBe(false);
    expect(periodStart('2026-02') > periodEnd('2026-01-D3')).toBe(true);
    expect(periodsOf('2025-06-15')).toEqual(['2025-06-15', '2025-06-D2', '2025-06', '2025']);
    expect(periodsOf('2025-06-30')[1]).toBe('2025-06-D3');
  });

  it('a compactFiles table: closes every file before the open ten days into its year, the open year included', () => {
    // Its newest file is the open ten days' (no day files), or a day file before an upgrade's first upkeep.
    for (const newest of ['2026-03-D3', '2026-03-24']) {
      expect(closedPeriodOf('2025-12-D3', newest, true)).toBe('2025');
      expect(closedPeriodOf('2025', newest, true)).toBe('2025');
      expect(closedPeriodOf('2026-02', newest, true)).toBe('2026');
      expect(closedPeriodOf('2026-03-D2', newest, true)).toBe('2026');
      expect(closedPeriodOf('2026-03-20', newest, true)).toBe('2026');
      expect(closedPeriodOf('2026-03-D3', newest, true)).toBeUndefined();
      expect(closedPeriodOf('2026-03-21', newest, true)).toBeUndefined();
      // The open year's own file joins the ten days closing into it (a group of it alone is not rewritten).
      expect(closedPeriodOf('2026', newest, true)).toBe('2026');
    }
    expect(nextTenDays('2026-03-D1')).toBe('2026-03-D2');
    expect(nextTenDays('2026-03-D3')).toBe('2026-04-D1');
    expect(nextTenDays('2026-12-D3')).toBe('2027-01-D1');
    // The open ten days of a newest ten-day file, for the calendar tiers too.
    expect(closedPeriodOf('2026-03-D1', '2026-03-D2')).toBe('2026-03-D1');
    expect(closedPeriodOf('2026-03-D2', '2026-03-D2')).toBeUndefined();
  });

  it("a compactFiles table's publish rewrites its open ten days' file, a closed date's year file, never the year for an open date", () => {
    expect(publishPeriodsOf('2026-03-25', '2026-03-D3', true)).toEqual(['2026-03-25', '2026-03-D3']);
    expect(publishPeriodsOf('2026-04-01', '2026-03-D3', true)).toEqual(['2026-04-01', '2026-04-D1']);
    expect(publishPeriodsOf('2026-03-15', '2026-03-D3', true)).toEqual(periodsOf('2026-03-15'));
    expect(publishPeriodsOf('2026-03-25', undefined, true)).toEqual(['2026-03-25', '2026-03-D3']);
    expect(publishPeriodsOf('2026-03-25', '2026-03-D3', false)).toEqual(periodsOf('2026-03-25'));
    // The newest is the open ten days' file, never the open year's file that sorts after it by periodEnd.
    const files = ['2025', '2026-03-D3', '2026'];
    expect(files.sort(comparePeriods)).toEqual(['2025', '2026', '2026-03-D3']);
  });
});
