import { readFileSync } from 'node:fs';

/** A .sql file's statement, ready to run or to embed: trimmed, without its final semicolon. */
export function sqlBody(path: string): string {
  return withoutSemicolon(readFileSync(path, 'utf8'));
}

/** `sql` trimmed, without its final semicolon. */
export function withoutSemicolon(sql: string): string {
  return sql.trim().replace(/;\s*$/, '');
}
