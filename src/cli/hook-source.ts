/**
 * `hooks create` and `hooks delete` keep to the data directory's API account (README, "One data
 * directory, one API account"). The sink loads a hook's pushed documents into the data directory
 * whose registry holds the hook's secret: a hook made with another account's key would mix that
 * account's documents into this warehouse, as a sync of it would mix its figures; and the
 * registry's hooks are the recorded account's, so deleting one with another account's key acts
 * on an account this directory does not hold. So both are refused (exit 2) as such a sync is,
 * unless --force-source. The key's account is learnt as a sync learns it, from the API's
 * workspace list (firstContact), before the state database is opened: a refused key creates
 * nothing. A hook created in a data directory with no source yet records its account as the
 * source, so that a later sync of another account is refused too.
 */
import type { ApiClient } from '../api/types.js';
import { type FirstContact, firstContact } from '../extract/first-contact.js';
import { describeSource, saveSourceRecord } from '../state/source-record.js';
import type { StateDb } from '../state/state-db.js';
import { UserError } from '../util/user-error.js';

/**
 * withApi's first step for hooks create and delete: the key's account, compared with the data
 * directory's; refused (exit 2) when another, unless `force`.
 */
export function hookAccount(
  doing: 'create' | 'delete',
  force: boolean,
): (client: ApiClient, settings: { baseUrl: string; dataDir: string }) => Promise<FirstContact> {
  return async (client, { baseUrl, dataDir }) => {
    const contact = await firstContact(client, { baseUrl, dataDir });
    refuseOtherAccount(contact, { dataDir, force, doing });
    return contact;
  };
}

function refuseOtherAccount(
  contact: FirstContact,
  input: { dataDir: string; force: boolean; doing: 'create' | 'delete' },
): void {
  if (contact.verdict !== 'other' || !contact.recorded || input.force) return;
  const done = input.doing === 'create' ? 'created' : 'deleted';
  const why =
    input.doing === 'create'
      ? 'the sink would load its documents into this warehouse'
      : "this data directory's hooks are that account's";
  throw new UserError(
    `--data-dir ${input.dataDir} holds the figures of ${describeSource(contact.recorded)}, not of this key's ` +
      `account ${describeSource(contact.source)}: no hook was ${done} (${why}); use that account's key ` +
      `(CW_API_KEY) or another --data-dir, or --force-source to ${input.doing} it anyway`,
  );
}

/**
 * After a hook was created: its account becomes the data directory's source when none was
 * recorded, or when another was and --force-source said so. Returns the line to print then.
 */
export function recordHookAccount(state: StateDb, contact: FirstContact, now: Date): string | undefined {
  if (contact.verdict === 'same') return undefined;
  saveSourceRecord(state, { ...contact.source, recordedAt: now.toISOString() }, now);
  return contact.verdict === 'other' && contact.recorded
    ? `--force-source: this data directory's source is now ${describeSource(contact.source)} (was ${describeSource(contact.recorded)})`
    : undefined;
}
