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

/**
 * What in the page could make a browser fetch or run something: scripts, stylesheets,
 * @import, url(), and any src/href attribute (the report needs none). SVG's xmlns
 * namespace names are identifiers, never fetched, so they are not counted.
 */
export function externalReferences(html: string): string[] {
  const patterns = [
    /<script\b[^>]*>/gi,
    /<link\b[^>]*>/gi,
    /<(?:iframe|object|embed|img|image|use|video|audio|source)\b[^>]*>/gi,
    /@import[^;]*/gi,
    /url\([^)]*\)/gi,
    /\s(?:src|href|xlink:href|srcset|action|poster)\s*=\s*["']?[^"'\s>]*/gi,
    /\bon[a-z]+\s*=\s*["']/gi,
  ];
  return patterns.flatMap((p) => html.match(p) ?? []);
}
