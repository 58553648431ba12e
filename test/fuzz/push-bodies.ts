/** Push bodies as a sender might send them: documents with bad values, bodies that are no push. */
import fc from 'fast-check';
import { MAX_JSON_DEPTH } from '../../src/util/json-depth.js';
import { anyString, deepText, jsonText, nestedText } from './bad-values.js';

/** A document as a sender might push it: the profile's fields with bad values, or anything. */
export const documentText = fc.oneof(
  fc
    .tuple(jsonText, jsonText, jsonText, jsonText)
    .map(
      ([id, source, content, date]) =>
        `{"id":${id},"source":${source},"content":${content},"published_date":${date}}`,
    ),
  jsonText,
  deepText(1, MAX_JSON_DEPTH + 4),
);
/** A push body: mostly a documents array, sometimes not, sometimes not JSON. */
export const pushBody = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(jsonText, fc.array(documentText, { maxLength: 4 }))
      .map(([request, docs]) => `{"request":${request},"documents":[${docs.join(',')}]}`),
  },
  { weight: 1, arbitrary: jsonText },
  { weight: 1, arbitrary: anyString },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1, max: 50_000 }).map((d) => `{"documents":[${nestedText(d, 'array')}]}`),
  },
);
