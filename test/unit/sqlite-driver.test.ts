import { describe, expect, it } from 'vitest';
import { Database, SQLITE_DRIVER, sqliteDriverFor } from '../../src/state/sqlite-database.js';

describe('sqliteDriverFor: the better-sqlite3 major a Node can run', () => {
  it.each([
    // Node 20.x and 22.0-22.13 report Node-API 9: 13's binary would crash them, 12 runs there.
    { node: '20.20.2', napi: '9', driver: 'better-sqlite3' },
    { node: '22.13.1', napi: '9', driver: 'better-sqlite3' },
    // Node 22.14+ and every Node 24 report Node-API 10: 13, where 12 aborts on a collected Statement.
    { node: '22.23.3', napi: '10', driver: 'better-sqlite3-13' },
    { node: '24.21.0', napi: '10', driver: 'better-sqlite3-13' },
    { node: 'a later one', napi: '11', driver: 'better-sqlite3-13' },
  ])('Node $node (Node-API $napi) loads $driver', ({ napi, driver }) => {
    expect(sqliteDriverFor({ napi })).toBe(driver);
  });

  it('picks 12 when the Node-API version is unknown', () => {
    expect(sqliteDriverFor({})).toBe('better-sqlite3');
  });

  it(`loads, on this Node ${process.versions.node}, the major its Node-API ${process.versions.napi} calls for`, () => {
    expect(SQLITE_DRIVER).toBe(sqliteDriverFor(process.versions));
    const db = new Database(':memory:');
    try {
      expect(db.prepare('select 40 + 2 as n').get()).toEqual({ n: 42 });
    } finally {
      db.close();
    }
  });
});
