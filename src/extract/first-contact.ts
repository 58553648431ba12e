/**
 * What a sync learns from the API before it writes anything: that the key is accepted (the
 * workspace list is its first request; a refused key fails here and the data directory is left
 * as it was), which account the key reaches (its workspaces), whether that is the account the
 * data directory belongs to; and, when campaigns were named, whether the API lists them.
 */
import type { ApiClient, RawRecord } from '../api/types.js';
import { toId } from '../normalize/coerce.js';
import {
  describeSource,
  readSourceRecord,
  type SourceRecord,
  type SyncSource,
  sourceBaseUrl,
} from '../state/source-record.js';
import { UserError } from '../util/user-error.js';

/** adopt: nothing recorded yet (a new data directory, or one from before sources were recorded). */
export type SourceVerdict = 'adopt' | 'same' | 'other';

export interface FirstContact {
  readonly source: SyncSource;
  /** The workspace list's pages, staged as the run's workspaces (not fetched twice). */
  readonly workspacePages: readonly RawRecord[][];
  readonly recorded: SourceRecord | undefined;
  readonly verdict: SourceVerdict;
}

export interface FirstContactInput {
  readonly baseUrl: string;
  readonly dataDir: string;
  /** The demo's run: its simulator moves to a new port at each start. */
  readonly demo?: boolean;
}

export async function firstContact(api: ApiClient, input: FirstContactInput): Promise<FirstContact> {
  const workspacePages: RawRecord[][] = [];
  for await (const page of api.workspaces()) workspacePages.push(page);
  const source: SyncSource = {
    baseUrl: sourceBaseUrl(input.baseUrl),
    workspaces: [...new Set(workspacePages.flatMap(recordIds))].sort(),
    ...(input.demo ? { demo: true } : {}),
  };
  const recorded = readSourceRecord(input.dataDir);
  return { source, workspacePages, recorded, verdict: compareSource(recorded, source) };
}

/**
 * The same account: the same base URL (a loopback one whatever its port) and, when both list
 * workspaces, at least one workspace in common (an account gains and loses workspaces; two accounts share none). The demo's
 * recorded simulator is the same as the demo's next one, whatever its port.
 */
export function compareSource(recorded: SyncSource | undefined, current: SyncSource): SourceVerdict {
  if (!recorded) return 'adopt';
  if (Boolean(recorded.demo) !== Boolean(current.demo)) return 'other';
  if (!recorded.demo && comparable(recorded.baseUrl) !== comparable(current.baseUrl)) return 'other';
  if (!recorded.workspaces.length || !current.workspaces.length) return 'same';
  const mine = new Set(recorded.workspaces);
  return current.workspaces.some((id) => mine.has(id)) ? 'same' : 'other';
}

/**
 * A base URL as sources compare it: a loopback server (the simulator, a local proxy or tunnel)
 * takes a new port at each start, so its port does not tell one source from another; its
 * workspaces do.
 */
function comparable(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    if (/^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i.test(url.hostname))
      return `${url.protocol}//loopback${url.pathname}`;
    return url.href;
  } catch {
    return baseUrl;
  }
}

/** Refuses a sync of another account into the data directory (exit 2), unless forced. */
export function refuseOtherSource(contact: FirstContact, dataDir: string, force: boolean): void {
  if (contact.verdict !== 'other' || force || !contact.recorded) return;
  throw new UserError(
    `--data-dir ${dataDir} holds the figures of ${describeSource(contact.recorded)}, not of this sync's ` +
      `source ${describeSource(contact.source)}: nothing was written; use another --data-dir for it, ` +
      "or --force-source to make it this data directory's source",
  );
}

/** Named campaigns the API does not list are refused before anything is fetched for them (exit 2). */
export function refuseUnknownCampaigns(
  named: readonly string[],
  listed: ReadonlyMap<string, RawRecord>,
): void {
  const unknown = named.filter((id) => !listed.has(id));
  if (!unknown.length) return;
  throw new UserError(
    `--campaign ${unknown.join(', ')}: not among the ${listed.size} campaign(s) the API lists for this account ` +
      '(GET /v3/influencers/campaigns); nothing was written',
  );
}

/** The API's campaign list, every page, by id. */
export async function listCampaigns(api: ApiClient): Promise<Map<string, RawRecord>> {
  const listed = new Map<string, RawRecord>();
  for await (const page of api.campaigns())
    for (const record of page) for (const id of recordIds([record])) listed.set(id, record);
  return listed;
}

/** The ids of a page's records, as text: a record whose id is no string or number has none. */
export function recordIds(page: readonly RawRecord[]): string[] {
  return page.flatMap((record) => {
    const id = toId(record.id);
    return id === null ? [] : [id];
  });
}
