/** A config file's mistake is one line that says what would have been right. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../src/config/sync-config.js';
import { tempDir } from '../helpers/temp-dir.js';

const dir = tempDir('cw-explain-issue-');

function problemOf(config: unknown): string {
  const file = join(dir, 'cw.json');
  writeFileSync(file, JSON.stringify(config));
  try {
    loadConfigFile(file);
  } catch (error) {
    return (error as Error).message.replace(`config file ${file}: `, '');
  }
  throw new Error('the file was accepted');
}

describe('config file errors', () => {
  it('list the allowed values of a choice, at any depth of a union', () => {
    expect(problemOf({ checks: 'strcit' })).toBe('checks: "strcit" is not one of warn, strict');
    expect(problemOf({ checks: { mode: 'strcit' } })).toBe(
      'checks.mode: "strcit" is not one of warn, strict',
    );
  });

  it('suggest the nearest key of a misspelt one, else list the keys', () => {
    expect(problemOf({ concurency: 3 })).toBe('unknown key "concurency" (did you mean "concurrency"?)');
    expect(problemOf({ segments: [{ name: 'a', tagz: ['1'] }] })).toBe(
      'segments[0]: unknown key "tagz" (did you mean "tags"?)',
    );
    expect(problemOf({ zzz: 1 })).toMatch(/^unknown key "zzz" \(the keys here: baseUrl, dataDir, .*notify/);
  });

  it('keep the schema’s own message for other problems', () => {
    expect(problemOf({ concurrency: 0 })).toMatch(/^concurrency: Too small/);
  });
});
