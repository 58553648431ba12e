import { type Command, InvalidArgumentError } from 'commander';
import { stringifyExact } from '../util/parse-json-exact.js';
import { type ApiFlags, addApiOptions, withApi } from './api-context.js';
import { numberIn } from './number-in.js';

type JsonFlag = ApiFlags & { json?: boolean };
type SourceFlag = { forceSource?: boolean };
type CreateFlags = JsonFlag & SourceFlag & { searchId: number; targetUrl: string; companyId?: string };

/** --force-source's help (hook-source.ts says why hooks create and delete check the account). */
const FORCE_SOURCE_HELP =
  "even though the data directory holds another API account's figures (another base URL, no " +
  'workspace in common)';

export function registerHooks(program: Command): void {
  const hooks = program
    .command('hooks')
    .description('manage the API hooks that push search results to the sink (secrets stay in the state DB)');
  registerSearches(hooks);
  registerCreate(hooks);
  registerList(hooks);
  registerGet(hooks);
  registerDelete(hooks);
}

/** `hooks searches`: the predefined searches, whose ids `hooks create --search-id` takes. */
function registerSearches(hooks: Command): void {
  addApiOptions(
    hooks
      .command('searches')
      .description("the API account's predefined searches: the ids `hooks create --search-id` takes")
      .option('--json', 'print as JSON'),
  ).action(async (flags: JsonFlag) => {
    const reply = await withApi(flags, ({ client }) => client.searches());
    const listed = Array.isArray(reply) ? reply : (reply as { searches?: unknown } | undefined)?.searches;
    const searches = (Array.isArray(listed) ? listed : []) as Record<string, unknown>[];
    if (flags.json) {
      process.stdout.write(`${stringifyExact(searches, 'hooks searches', 2)}\n`);
      return;
    }
    if (!searches.length) process.stdout.write('no searches\n');
    for (const s of searches)
      process.stdout.write(
        `${String(s.id ?? '?').padEnd(8)} ${String(s.search_type ?? '').padEnd(10)} ${s.name ?? ''}\n`,
      );
  });
}

/** `hooks create`: a hook for a predefined search, pushing to the sink; its secret never printed. */
function registerCreate(hooks: Command): void {
  addApiOptions(
    hooks
      .command('create')
      .description(
        'create a hook: its target URL is the sink URL plus /hooks/<token>, unique per hook.\n' +
          'The secret is generated (or read from CW_HOOK_SECRET, 16-64 characters) and never printed.',
      )
      .requiredOption(
        '--search-id <n>',
        'the predefined search whose results are pushed',
        numberIn(1, 2 ** 31 - 1, true),
      )
      .requiredOption(
        '--target-url <url>',
        'public HTTPS base URL at which the API reaches the sink (http:// only for loopback)',
      )
      .option('--company-id <id>', "company owning the search (default: the key's default company)")
      .option(
        '--force-source',
        `create the hook ${FORCE_SOURCE_HELP}: its account becomes the directory's source, and ` +
          'its documents join the warehouse (a hook is otherwise refused, exit 2, as such a sync is)',
      )
      .option('--json', 'print as JSON'),
  ).action(async (flags: CreateFlags) => {
    const { HookManager, validateSecret } = await import('../service/hook-manager.js');
    const { validateHttpsUrl } = await import('../api/validate-base-url.js');
    // As for --base-url: the API pushes documents and their signatures to HTTPS only.
    validateHttpsUrl(flags.targetUrl, '--target-url');
    const secret = process.env.CW_HOOK_SECRET
      ? validateSecret(process.env.CW_HOOK_SECRET, 'CW_HOOK_SECRET')
      : undefined;
    const { hookAccount, recordHookAccount } = await import('./hook-source.js');
    const view = await withApi(
      flags,
      async ({ client, state, first: contact }) => {
        const created = await new HookManager(client, state).create({
          searchId: flags.searchId,
          sinkUrl: flags.targetUrl,
          ...(flags.companyId ? { companyId: flags.companyId } : {}),
          ...(secret ? { secret } : {}),
        });
        const changed = recordHookAccount(state, contact, new Date());
        if (changed) process.stderr.write(`campaign-warehouse: ${changed}\n`);
        return created;
      },
      hookAccount('create', flags.forceSource === true),
    );
    print([view], flags.json, true);
  });
}

/** `hooks list`: the API's hooks merged with the local registry. */
function registerList(hooks: Command): void {
  addApiOptions(
    hooks
      .command('list')
      .description("the API's hooks merged with the local registry (deleted ones only with --all)")
      .option('--all', 'list the hooks deleted with `hooks delete` too')
      .option('--json', 'print as JSON'),
  ).action(async (flags: JsonFlag & { all?: boolean }) => {
    const { HookManager } = await import('../service/hook-manager.js');
    const views = await withApi(flags, (ctx) => new HookManager(ctx.client, () => ctx.state).list());
    // A deleted hook stays in the registry as history; it is not a hook any more.
    const shown = flags.all ? views : views.filter((v) => v.status !== 'DELETED');
    print(shown, flags.json, false);
    if (!flags.json && shown.length < views.length)
      process.stdout.write(`(${views.length - shown.length} deleted hook(s) not shown: --all lists them)\n`);
  });
}

/** `hooks get <hook-id>`: one hook. */
function registerGet(hooks: Command): void {
  addApiOptions(
    hooks
      .command('get')
      .argument('<hook-id>', 'the hook id', hookId)
      .description('one hook')
      .option('--json', 'print as JSON'),
  ).action(async (hookId: string, flags: JsonFlag) => {
    const { HookManager } = await import('../service/hook-manager.js');
    print(
      [await withApi(flags, (ctx) => new HookManager(ctx.client, () => ctx.state).get(hookId))],
      flags.json,
      true,
    );
  });
}

/** `hooks delete <hook-id>`: on the API and in the registry. */
function registerDelete(hooks: Command): void {
  addApiOptions(
    hooks
      .command('delete')
      .argument('<hook-id>', 'the hook id', hookId)
      .description('delete the hook on the API and in the registry')
      .option(
        '--force-source',
        `delete the hook ${FORCE_SOURCE_HELP} (the directory's source stays as it is)`,
      )
      .option('--json', 'print as JSON'),
  ).action(async (hookId: string, flags: JsonFlag & SourceFlag) => {
    const { HookManager } = await import('../service/hook-manager.js');
    const { hookAccount } = await import('./hook-source.js');
    const result = await withApi(
      flags,
      ({ client, state }) => new HookManager(client, state).delete(hookId),
      hookAccount('delete', flags.forceSource === true),
    );
    process.stdout.write(
      flags.json
        ? `${JSON.stringify({ hook_id: hookId, ...result })}\n`
        : `hook ${hookId} deleted${result.remote === 'already gone' ? ' locally (the API no longer had it)' : ''}\n`,
    );
  });
}

/** A hook id argument: not empty (it becomes a path segment of the API's URL). */
function hookId(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('a hook id cannot be empty');
  return value;
}

function print(views: readonly object[], json: boolean | undefined, single: boolean): void {
  if (json) {
    // A big integer the API sent (a search id past 2^53) is a bigint: written digit for digit.
    process.stdout.write(`${stringifyExact(single ? views[0] : views, 'hooks', 2)}\n`);
    return;
  }
  if (!views.length) process.stdout.write('no hooks\n');
  for (const v of views) {
    process.stdout.write(
      `${Object.entries(v)
        .map(([k, value]) => `${k.padEnd(12)} ${value ?? ''}`)
        .join('\n')}\n\n`,
    );
  }
}
