/**
 * The layout of pushed documents (api-profile.md, "Pushed documents"); the streaming JSON
 * Schemas in streaming-schemas.ts describe exactly these types.
 */
import type { SearchType } from './searches.js';

export interface BaseDocument {
  /** Unique across the whole simulator run. */
  readonly id: string;
  /** ISO-8601 UTC. */
  readonly published_date: string;
  /** ISO-8601 UTC, at or after published_date. */
  readonly indexed_date: string;
  readonly url: string;
  /** The source's own identifier of the item. */
  readonly external_id: string;
  readonly source: { readonly id: string; readonly name: string; readonly information_type: SearchType };
  readonly content: { readonly title: string; readonly opening_text: string };
  /** ISO 639-1, lowercase. */
  readonly language: string;
  /** ISO 3166-1 alpha-2, uppercase. */
  readonly country: string;
}

export interface SocialDocument extends BaseDocument {
  readonly author: { readonly handle: string; readonly name: string };
  readonly metrics: { readonly likes: number; readonly comments: number; readonly shares: number };
}

export interface EditorialDocument extends BaseDocument {
  readonly publisher: string;
}

export interface BroadcastDocument extends BaseDocument {
  readonly station: string;
  /** ISO-8601 UTC time the segment aired. */
  readonly air_time: string;
}

export type StreamDocument = SocialDocument | EditorialDocument | BroadcastDocument;
