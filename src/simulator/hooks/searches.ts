/**
 * The caller's predefined searches (GET /v3/searches), deterministic from the seed. A hook
 * is created for one of them and its documents have the search's `search_type`.
 */
import { createRng } from '../prng.js';

export type SearchType = 'social' | 'editorial' | 'broadcast';

export const SEARCH_TYPES: readonly SearchType[] = ['social', 'editorial', 'broadcast'];

export interface PredefinedSearch {
  readonly id: number;
  readonly name: string;
  readonly search_type: SearchType;
}

/** Ids start here, like the small integer ids of the real service's saved searches. */
export const FIRST_SEARCH_ID = 101;

/** Two searches of each type always exist, so tests can rely on every type being present. */
const GUARANTEED_PER_TYPE = 2;

/** Up to this many more searches, of seed-chosen types, make the list vary with the seed. */
const MAX_EXTRA_SEARCHES = 3;

const BRANDS = ['Acme', 'Northwind', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark', 'Wayne', 'Vandelay'];
const TOPICS: Readonly<Record<SearchType, readonly string[]>> = {
  social: ['social mentions', 'influencer chatter', 'hashtag tracking', 'product buzz'],
  editorial: ['press coverage', 'trade press', 'news mentions', 'executive quotes'],
  broadcast: ['TV and radio mentions', 'broadcast coverage', 'ad airings', 'podcast mentions'],
};

/**
 * Ids 101, 102, ...: `GUARANTEED_PER_TYPE` of each type in the order social (101, 102),
 * editorial (103, 104), broadcast (105, 106), then 0..MAX_EXTRA_SEARCHES extra ones.
 */
export function buildSearches(seed: number): readonly PredefinedSearch[] {
  const rng = createRng(seed, 'searches');
  const types: SearchType[] = [];
  for (const type of SEARCH_TYPES) for (let i = 0; i < GUARANTEED_PER_TYPE; i += 1) types.push(type);
  const extra = rng.int(0, MAX_EXTRA_SEARCHES);
  for (let i = 0; i < extra; i += 1) types.push(rng.pick(SEARCH_TYPES));
  return types.map((search_type, index) => ({
    id: FIRST_SEARCH_ID + index,
    name: `${rng.pick(BRANDS)} ${rng.pick(TOPICS[search_type])}`,
    search_type,
  }));
}
