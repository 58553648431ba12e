/**
 * JSON text of the API's records (api-v3.md), each field the normalizers read present or not,
 * holding a good value or a bad one (bad-values.ts), with extra fields the spec does not name.
 * A shape names the fields; the text is what a (misbehaving) API would send.
 */
import fc from 'fast-check';
import {
  anyString,
  dateLike,
  deepText,
  jsonText,
  numericString,
  scalarText,
  stringText,
} from './bad-values.js';

type Shape =
  | 'any'
  | 'id'
  | 'date'
  | 'figure'
  | { readonly [field: string]: Shape }
  | ['map', Shape]
  | ['list', Shape];

const figure = fc.oneof(
  scalarText,
  numericString.map((s) => JSON.stringify(s)),
);
const id = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('"1"', '"2"', '3', '"c1"', '9007199254740993') },
  { weight: 2, arbitrary: stringText },
  { weight: 1, arbitrary: scalarText },
);
const anyValue = fc.oneof(
  { weight: 4, arbitrary: scalarText },
  { weight: 2, arbitrary: jsonText },
  // Nesting a reply may hold (the client refuses a reply past MAX_JSON_DEPTH, 128).
  { weight: 1, arbitrary: deepText(20, 110) },
);

function textOf(shape: Shape): fc.Arbitrary<string> {
  if (shape === 'any') return anyValue;
  if (shape === 'id') return id;
  if (shape === 'date') return fc.oneof(dateLike, scalarText);
  if (shape === 'figure') return figure;
  if (Array.isArray(shape)) {
    const [kind, inner] = shape;
    return kind === 'list'
      ? fc.array(textOf(inner), { maxLength: 4 }).map((items) => `[${items.join(',')}]`)
      : fc
          .array(fc.tuple(anyString, textOf(inner)), { maxLength: 4 })
          .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`);
  }
  const fields = Object.entries(shape).map(([name, inner]) =>
    // Mostly the shape's value, sometimes any value at all, sometimes absent.
    fc
      .oneof(
        { weight: 6, arbitrary: textOf(inner) },
        { weight: 1, arbitrary: anyValue },
        { weight: 1, arbitrary: fc.constant(undefined) },
      )
      .map((text) => (text === undefined ? undefined : `${JSON.stringify(name)}:${text}`)),
  );
  const extra = fc
    .array(fc.tuple(anyString, anyValue), { maxLength: 2 })
    .map((entries) => entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`));
  return fc
    .tuple(fc.tuple(...fields), extra)
    .map(([named, more]) => `{${[...named.filter((f) => f !== undefined), ...more].join(',')}}`);
}

const STATS: Shape = ['map', 'figure'];
const METRICS: Shape = {
  num_posts: 'figure',
  num_influencers: 'figure',
  total_engagement: 'figure',
  engagement_rate: 'figure',
  total_reach: 'figure',
  total_emv: 'figure',
};
const NETWORK: Shape = {
  num_posts: 'figure',
  num_influencers: 'figure',
  engagement: 'figure',
  engagement_rate: 'figure',
  reach: 'figure',
  emv: 'figure',
  stats: STATS,
};

export const SHAPES = {
  workspaces: { id: 'id', name: 'any', description: 'any', created_at: 'date' },
  tags: { id: 'id', name: 'any', workspace_id: 'id' },
  campaigns: {
    id: 'id',
    name: 'any',
    workspace_id: 'id',
    status: 'any',
    start_date: 'date',
    end_date: 'date',
  },
  campaignDetail: {
    campaign: {
      id: 'id',
      name: 'any',
      status: 'any',
      start_date: 'date',
      end_date: 'date',
      metrics: METRICS,
      sources: ['map', NETWORK],
    },
  },
  posts: {
    id: 'id',
    influencer_id: 'id',
    network: 'any',
    engagement: 'figure',
    reach: 'figure',
    emv: 'figure',
    url: 'any',
    published_at: 'date',
    stats: STATS,
  },
  influencers: {
    id: 'id',
    name: 'any',
    budget: 'figure',
    campaign_metrics: {
      num_posts: 'figure',
      engagement: 'figure',
      engagement_rate: 'figure',
      reach: 'figure',
      emv: 'figure',
      sales: ['map', 'figure'],
      stats: STATS,
    },
    influencer_metrics: {
      influence: 'figure',
      brand_score: 'figure',
      true_reach: 'figure',
      followers: 'figure',
      sources: [
        'map',
        {
          id: 'id',
          username: 'any',
          followers: 'figure',
          engagement_per_post: 'figure',
          true_reach: 'figure',
        },
      ],
    },
    tags: ['list', { id: 'id' }],
  },
} as const satisfies Record<string, Shape>;

/** One record of `kind` as JSON text. */
export function recordText(kind: keyof typeof SHAPES): fc.Arbitrary<string> {
  return textOf(SHAPES[kind] as Shape);
}

/** A page of `kind` as the list endpoints send it (`{"<key>": [...]}`), now and then an item that is no record. */
export function pageText(kind: keyof typeof SHAPES, key: string, maxRecords = 4): fc.Arbitrary<string> {
  const item = fc.oneof({ weight: 8, arbitrary: recordText(kind) }, { weight: 1, arbitrary: scalarText });
  return fc.array(item, { maxLength: maxRecords }).map((items) => `{"${key}":[${items.join(',')}]}`);
}
