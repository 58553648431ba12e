/** Reading back the report's HTML in tests: its tables, and anything it would fetch. */

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

function unescapeHtml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ENTITIES[name]!);
}

/**
 * The body rows of the table with this id, each cell as its exact value: a <data> element's
 * value attribute where there is one, else the cell's text.
 */
export function tableRows(html: string, id: string): string[][] {
  const table = new RegExp(`<table id="${id}">([\\s\\S]*?)</table>`).exec(html);
  if (!table) throw new Error(`no table #${id} in the report`);
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(table[1]!)?.[1] ?? '';
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map(([, row]) =>
    [...row!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map(([, cell]) => {
      const data = /^<data value="([^"]*)">/.exec(cell!);
      return unescapeHtml(data ? data[1]! : cell!);
    }),
  );
}

/** Elements that load or run something. */
const LOADING_TAGS = new Set([
  'script',
  'link',
  'iframe',
  'frame',
  'object',
  'embed',
  'img',
  'image',
  'use',
  'video',
  'audio',
  'source',
  'track',
  'base',
  'meta',
]);
/** Attributes that name something to load or run. */
const LOADING_ATTRIBUTE =
  /^(?:src|href|xlink:href|srcset|action|formaction|poster|data|background|on[a-z]+)$/i;

/**
 * What in the page could make a browser fetch or run something: a loading element
 * (script, link, img, ...), a src/href/on* attribute, and @import or url() in a stylesheet
 * or style attribute. Tags and attributes are read properly (quoted values skipped), so
 * escaped text that merely looks like markup is not counted. SVG's xmlns namespace names
 * are identifiers, never fetched. The page's own <meta charset> and viewport are allowed.
 */
export function externalReferences(html: string): string[] {
  const found: string[] = [];
  const tag = /<([a-zA-Z][\w:-]*)((?:\s+[\w:-]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?)*)\s*\/?>/g;
  const attribute = /\s([\w:-]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+))?/g;
  for (const [whole, name, attributes] of html.matchAll(tag)) {
    const lower = name!.toLowerCase();
    if (
      LOADING_TAGS.has(lower) &&
      !(lower === 'meta' && /^<meta (?:charset="utf-8"|name="viewport")/.test(whole))
    )
      found.push(whole);
    for (const [, attr, value] of attributes!.matchAll(attribute)) {
      if (LOADING_ATTRIBUTE.test(attr!)) found.push(whole);
      else if (attr!.toLowerCase() === 'style' && /url\(|@import/i.test(value ?? '')) found.push(whole);
    }
  }
  for (const [, css] of html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/gi))
    found.push(...(css!.match(/@import[^;]*|url\([^)]*\)/gi) ?? []));
  return found;
}
