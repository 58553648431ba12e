/**
 * Read-only catalog endpoints of the streaming area: GET /v3/searches (area 'searches')
 * and the three streaming JSON Schemas (area 'streaming').
 */

import { isPaging, pageBody, parsePaging } from '../paging.js';
import type { SimRoute } from '../route.js';
import type { PredefinedSearch, SearchType } from './searches.js';
import { streamingSchema } from './streaming-schemas.js';

export function createCatalogRoutes(searches: readonly PredefinedSearch[]): readonly SimRoute[] {
  return [
    {
      area: 'searches',
      method: 'GET',
      pattern: /^\/v3\/searches\/?$/,
      handle: (req) => {
        const paging = parsePaging(req.query);
        return isPaging(paging) ? { status: 200, body: pageBody('searches', searches, paging) } : paging;
      },
    },
    {
      area: 'streaming',
      method: 'GET',
      pattern: /^\/v3\/schemas\/(social|editorial|broadcast)_streaming\.json$/,
      handle: (_req, params) => ({ status: 200, body: streamingSchema(params[0] as SearchType) }),
    },
  ];
}
