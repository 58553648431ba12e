import { type Command, InvalidArgumentError } from 'commander';
import type { DataDirFlags } from '../config/command-data-dir.js';
import { UserError } from '../util/user-error.js';
import { CONFIG_OPTION, dataDirOption } from './data-dir-options.js';

type QuarantineFlags = DataDirFlags & { json?: boolean };

/**
 * `sink quarantine list|show|retry|drop`: the deliveries the sink's loader set aside (their rows
 * could not be built, or they alone failed a publish), kept in the inbox until an operator
 * re-queues or drops them. Safe beside a running sink: each change is one short transaction.
 */
export function registerSinkQuarantine(sink: Command): void {
  const quarantine = sink
    .command('quarantine')
    .description('the deliveries the loader set aside: list, show one body, re-queue or drop them');
  withDataDir(quarantine.command('list').description('list the quarantined deliveries and why'))
    .option('--json', 'print as JSON')
    .action(async (_: QuarantineFlags, command: Command) => {
      const flags = command.optsWithGlobals<QuarantineFlags>();
      const list = await withQuarantine(flags, (q) => q.list());
      if (flags.json) process.stdout.write(`${JSON.stringify(list)}\n`);
      else if (!list.length) process.stdout.write('no quarantined deliveries\n');
      for (const d of flags.json ? [] : list)
        process.stdout.write(
          `delivery ${d.deliveryId}  hook ${d.hookId}  received ${d.receivedAt}  ${d.documents} documents, ` +
            `${d.bytes} bytes  quarantined ${d.quarantinedAt}: ${d.reason}\n`,
        );
    });
  withDataDir(
    quarantine
      .command('show')
      .description('write the exact body of a quarantined delivery to stdout')
      .argument('<delivery-id>', 'as `list` shows it', deliveryId),
  ).action(async (id: number, _: QuarantineFlags, command: Command) => {
    const flags = command.optsWithGlobals<QuarantineFlags>();
    const body = await withQuarantine(flags, (q) => q.body(id));
    if (!body) throw notQuarantined(id);
    process.stdout.write(body);
  });
  withDataDir(
    quarantine
      .command('retry')
      .description(
        'put quarantined deliveries back in the queue: the sink publishes them with its next publish',
      )
      .argument('<delivery-id...>', 'as `list` shows them', deliveryIds),
  ).action(async (ids: number[], _: QuarantineFlags, command: Command) => {
    await withQuarantine(command.optsWithGlobals<QuarantineFlags>(), (q) => {
      for (const id of ids) {
        const requeued = q.requeue(id);
        if (requeued === undefined) throw notQuarantined(id);
        process.stdout.write(`delivery ${id} re-queued as delivery ${requeued}\n`);
      }
    });
  });
  withDataDir(
    quarantine
      .command('drop')
      .description('delete quarantined deliveries for good (their documents are never published)')
      .argument('<delivery-id...>', 'as `list` shows them', deliveryIds),
  ).action(async (ids: number[], _: QuarantineFlags, command: Command) => {
    await withQuarantine(command.optsWithGlobals<QuarantineFlags>(), (q) => {
      for (const id of ids) {
        if (!q.drop(id)) throw notQuarantined(id);
        process.stdout.write(`delivery ${id} dropped\n`);
      }
    });
  });
}

/**
 * --data-dir and --config on each subcommand, for its --help; `sink` has them too and takes
 * them wherever they stand, so the actions read optsWithGlobals().
 */
function withDataDir(command: Command): Command {
  return command.option(...dataDirOption('folder of inbox.sqlite')).option(...CONFIG_OPTION);
}

/** Runs `work` on the inbox of the flags' data directory (opened, and upgraded if older, as the sink does). */
async function withQuarantine<T>(
  flags: DataDirFlags,
  work: (quarantine: import('../sink/inbox-quarantine.js').InboxQuarantine) => T,
): Promise<T> {
  const [{ readerDataDir }, { openInboxDb, INBOX_DB_FILE }, { InboxQuarantine }, { existsSync }, { join }] =
    await Promise.all([
      import('../config/command-data-dir.js'),
      import('../state/inbox-db.js'),
      import('../sink/inbox-quarantine.js'),
      import('node:fs'),
      import('node:path'),
    ]);
  const dataDir = readerDataDir(flags);
  if (!existsSync(join(dataDir, INBOX_DB_FILE)))
    throw new UserError(
      `${join(dataDir, INBOX_DB_FILE)}: no inbox here (the sink has not run in this data directory)`,
    );
  const inbox = openInboxDb(dataDir);
  try {
    return work(new InboxQuarantine(inbox));
  } finally {
    inbox.close();
  }
}

function notQuarantined(id: number): UserError {
  return new UserError(`delivery ${id} is not quarantined (see \`campaign-warehouse sink quarantine list\`)`);
}

function deliveryId(value: string): number {
  const id = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(id) || id < 1)
    throw new InvalidArgumentError('a delivery id is a positive integer');
  return id;
}

function deliveryIds(value: string, previous: number[] | undefined): number[] {
  return [...(previous ?? []), deliveryId(value)];
}
