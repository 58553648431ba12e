import { Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { msRange, registerSimulate } from '../../src/cli/simulate-command.js';
import { UserError } from '../../src/util/user-error.js';

function program(): Command {
  const p = new Command('campaign-warehouse')
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut: () => {} });
  registerSimulate(p);
  return p;
}

async function failure(args: string[]): Promise<unknown> {
  try {
    await program().parseAsync(['node', 'cw', 'simulate', ...args]);
  } catch (error) {
    return error;
  }
  throw new Error('expected the command to fail');
}

describe('simulate flags', () => {
  it('names the flag of an out-of-range rate', async () => {
    const error = await failure(['--fault-500', '2']);
    expect(error).toBeInstanceOf(CommanderError);
    expect((error as Error).message).toContain('--fault-500');
  });
  it('names the flag of a bad port and an unknown Retry-After format', async () => {
    expect(((await failure(['--port', '70000'])) as Error).message).toContain('--port');
    expect(((await failure(['--retry-after-format', 'unix'])) as Error).message).toContain(
      '--retry-after-format',
    );
  });
  it('rejects a bad start time and a burst without rps with a UserError', async () => {
    const badTime = await failure(['--start-time', 'yesterday']);
    expect(badTime).toBeInstanceOf(UserError);
    expect((badTime as Error).message).toContain('--start-time');
    const burst = await failure(['--burst', '5']);
    expect(burst).toBeInstanceOf(UserError);
    expect((burst as Error).message).toContain('--burst');
  });
  it('reads --overload-retry-after as ms or a range, and refuses --quiet-limit without --rps', async () => {
    expect(msRange('1500')).toEqual([1500, 1500]);
    expect(msRange('1000-2000')).toEqual([1000, 2000]);
    for (const bad of ['2000-1000', '1.5s', '-1']) expect(() => msRange(bad)).toThrow(/range like 1000-2000/);
    expect(((await failure(['--overload-retry-after', 'soon'])) as Error).message).toContain(
      '--overload-retry-after',
    );
    const quiet = await failure(['--quiet-limit']);
    expect(quiet).toBeInstanceOf(UserError);
    expect((quiet as Error).message).toContain('--quiet-limit needs --rps');
  });
});
