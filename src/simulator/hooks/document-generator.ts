/**
 * Generates the documents pushed to one hook: deterministic from (seed, hook ordinal,
 * sequence number) and the clock, realistic enough for a warehouse (several sources,
 * languages and countries, ~1-2 KB each).
 */

import { createRng, type Rng, stableHex } from '../prng.js';
import {
  BRANDS,
  FIRST_NAMES,
  LAST_NAMES,
  type Language,
  NEWS_OUTLETS,
  type Outlet,
  PUBLISHERS,
  SENTENCES,
  SOCIAL_LOCALES,
  SOCIAL_NETWORKS,
  STATIONS,
  TITLES,
} from './document-vocabulary.js';
import type { SearchType } from './searches.js';
import type { BaseDocument, StreamDocument } from './stream-document.js';

/** How far back a document's publication may lie: the API pushes recent results. */
const MAX_AGE_SECONDS = 6 * 3600;
/** Sentences in `opening_text`: with titles and metadata this gives 1-2 KB documents. */
const MIN_SENTENCES = 6;
const MAX_SENTENCES = 12;

export class DocumentGenerator {
  private sequence = 0;
  private readonly idPrefix: string;

  /**
   * @param hookOrdinal the hook's creation order in this run: documents of different hooks
   *   never share an id, yet a run repeats exactly from the same seed and calls.
   */
  constructor(
    private readonly seed: number,
    private readonly hookOrdinal: number,
    private readonly searchType: SearchType,
    private readonly now: () => Date,
  ) {
    this.idPrefix = stableHex(16, seed, 'document-ids', hookOrdinal);
  }

  next(): StreamDocument {
    this.sequence += 1;
    const rng = createRng(this.seed, 'document', this.hookOrdinal, this.sequence);
    const id = `${this.idPrefix}${this.sequence.toString(16).padStart(8, '0')}`;
    switch (this.searchType) {
      case 'social':
        return social(rng, id, this.now());
      case 'editorial':
        return editorial(rng, id, this.now());
      case 'broadcast':
        return broadcast(rng, id, this.now());
    }
  }
}

interface Timing {
  readonly published: Date;
  readonly indexed: Date;
}

function timing(rng: Rng, now: Date): Timing {
  const published = new Date(now.getTime() - rng.int(60, MAX_AGE_SECONDS) * 1000);
  const indexed = new Date(Math.min(now.getTime(), published.getTime() + rng.int(5, 900) * 1000));
  return { published, indexed };
}

function text(rng: Rng, language: Language, brand: string): BaseDocument['content'] {
  const bank = SENTENCES[language];
  const count = rng.int(MIN_SENTENCES, MAX_SENTENCES);
  const sentences: string[] = [];
  // Draw from reshuffled passes over the bank so no sentence repeats back to back.
  let pass: string[] = [];
  while (sentences.length < count) {
    if (pass.length === 0) pass = shuffled(rng, bank);
    const sentence = pass.pop()!.replaceAll('{brand}', brand);
    if (sentence !== sentences.at(-1)) sentences.push(sentence);
  }
  return {
    title: rng.pick(TITLES[language]).replaceAll('{brand}', brand),
    opening_text: sentences.join(' '),
  };
}

function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = rng.int(0, i);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

function slug(title: string): string {
  return title
    .normalize('NFD')
    .replace(/[^A-Za-z0-9 ]/g, '')
    .trim()
    .toLowerCase()
    .replace(/ +/g, '-');
}

function social(rng: Rng, id: string, now: Date): StreamDocument {
  const network = rng.pick(SOCIAL_NETWORKS);
  const locale = rng.pick(SOCIAL_LOCALES);
  const brand = rng.pick(BRANDS);
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  const handle = `${slug(first)}_${slug(last)}${rng.int(1, 999)}`;
  const externalId = `${rng.int(1, 9)}${String(rng.int(0, 999_999_999)).padStart(9, '0')}${String(rng.int(0, 999_999_999)).padStart(9, '0')}`;
  const { published, indexed } = timing(rng, now);
  return {
    id,
    published_date: published.toISOString(),
    indexed_date: indexed.toISOString(),
    url: `https://${network.domain}/${handle}/status/${externalId}`,
    external_id: externalId,
    source: { id: network.id, name: network.name, information_type: 'social' },
    content: text(rng, locale.language, brand),
    language: locale.language,
    country: locale.country,
    author: { handle: `@${handle}`, name: `${first} ${last}` },
    metrics: { likes: rng.int(0, 50_000), comments: rng.int(0, 2_000), shares: rng.int(0, 5_000) },
  };
}

function outletBase(
  rng: Rng,
  id: string,
  now: Date,
  outlet: Outlet,
  kind: SearchType,
): { readonly base: BaseDocument; readonly published: Date } {
  const brand = rng.pick(BRANDS);
  const content = text(rng, outlet.language, brand);
  const externalId = rng.hex(20);
  const { published, indexed } = timing(rng, now);
  const day = published.toISOString().slice(0, 10).replaceAll('-', '/');
  const base: BaseDocument = {
    id,
    published_date: published.toISOString(),
    indexed_date: indexed.toISOString(),
    url: `https://${outlet.domain}/${day}/${slug(content.title)}-${externalId.slice(0, 8)}`,
    external_id: externalId,
    source: { id: outlet.id, name: outlet.name, information_type: kind },
    content,
    language: outlet.language,
    country: outlet.country,
  };
  return { base, published };
}

function editorial(rng: Rng, id: string, now: Date): StreamDocument {
  const outlet = rng.pick(NEWS_OUTLETS);
  const { base } = outletBase(rng, id, now, outlet, 'editorial');
  return { ...base, publisher: PUBLISHERS[outlet.id] ?? outlet.name };
}

function broadcast(rng: Rng, id: string, now: Date): StreamDocument {
  const outlet = rng.pick(STATIONS);
  const { base, published } = outletBase(rng, id, now, outlet, 'broadcast');
  // A segment airs before its transcript is published.
  const airTime = new Date(published.getTime() - rng.int(60, 3600) * 1000);
  return { ...base, station: outlet.name, air_time: airTime.toISOString() };
}
