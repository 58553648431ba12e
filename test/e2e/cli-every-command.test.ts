/**
 * The README's promise for every command, checked against the built CLI's own --help: each
 * takes --data-dir and --config (but `simulate`, which keeps no files), and each takes
 * --log-level, -v/--verbose and -q/--quiet; every default is written "(default: …)".
 */
import { describe, expect, it } from 'vitest';
import { run } from '../helpers/run-cli.js';

/** The commands `--help` lists, subcommands expanded (`hooks create`, `catalog rebuild`, ...). */
async function commands(prefix: string[] = []): Promise<string[][]> {
  const help = (await run([...prefix, '--help'])).stdout;
  const listed = help.split('\n\nCommands:\n')[1];
  if (listed === undefined) return [prefix];
  const names = [...listed.matchAll(/^ {2}([a-z-]+)/gm)]
    .map((m) => m[1] as string)
    .filter((n) => n !== 'help');
  const nested = await Promise.all(names.map((name) => commands([...prefix, name])));
  return nested.flat();
}

describe('every command', () => {
  it('takes --data-dir and --config (simulate keeps no files), --log-level, -v and -q', async () => {
    const all = await commands();
    expect(all.map((c) => c.join(' '))).toEqual(
      expect.arrayContaining(['sync', 'notify test', 'hooks create']),
    );
    for (const command of all) {
      const help = (await run([...command, '--help'])).stdout;
      const options = [...help.matchAll(/^ {2}(?:-\w, )?(--[a-z-]+)/gm)].map((m) => m[1]);
      const expected = ['--log-level', '--verbose', '--quiet'];
      if (command[0] !== 'simulate') expected.push('--data-dir', '--config');
      // One way of saying a default everywhere, commander's own: "(default: …)".
      expect({ command: command.join(' '), loose: help.match(/\(default [^:]/g) ?? [] }).toEqual({
        command: command.join(' '),
        loose: [],
      });
      expect({ command: command.join(' '), options }).toEqual({
        command: command.join(' '),
        options: expect.arrayContaining(expected),
      });
    }
  }, 180_000);

  it('checks the log level a flag gives, and takes one of the three only', async () => {
    const loud = await run(['status', '--log-level', 'loud']);
    expect(loud.code).toBe(2);
    expect(loud.stderr).toMatch(/^campaign-warehouse: --log-level: "loud" is not a log level/);
    const both = await run(['status', '-v', '-q']);
    expect(both.code).toBe(2);
    expect(both.stderr.trim()).toBe(
      'campaign-warehouse: --log-level, --verbose and --quiet: give one of them',
    );
  });

  it('notify test takes --data-dir, checked as every command checks it', async () => {
    const result = await run(['notify', 'test', '--data-dir', '/proc/version']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--data-dir: "\/proc\/version" is not a directory/);
  });
});
