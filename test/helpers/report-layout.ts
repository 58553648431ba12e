/**
 * What a person sees of the report in a browser window, measured in the page: each chart as
 * shown (the one of its two drawings the window's width selects), how many of its marks are
 * drawn, how much it was scaled to fit, and anything wider than its card or the window.
 */
import type { Page } from 'playwright-core';

/** The little of the DOM the measuring function uses (it runs in the page; the project's lib has no DOM). */
interface Box {
  readonly width: number;
  readonly height: number;
  readonly right: number;
}
interface Element {
  readonly id: string;
  readonly tagName: string;
  readonly className: unknown;
  readonly textContent: string | null;
  readonly scrollWidth: number;
  readonly clientWidth: number;
  getBoundingClientRect(): Box;
  getAttribute(name: string): string | null;
  querySelector(selector: string): Element | null;
  querySelectorAll(selector: string): Iterable<Element>;
  closest(selector: string): Element | null;
}
declare const document: {
  querySelectorAll(selector: string): Iterable<Element>;
  readonly body: Element;
  readonly documentElement: Element;
};
declare function getComputedStyle(element: Element): { readonly display: string };

export interface ShownChart {
  readonly section: string;
  /** Drawings shown in the figure: exactly one, wide or narrow. */
  readonly shown: number;
  readonly layout: string;
  /** The SVG's box on screen, px. */
  readonly width: number;
  readonly height: number;
  /** On-screen width over the SVG's own width: below 1 it was shrunk to fit. */
  readonly scale: number;
  /** Marks (bars, lines, points, text) with a visible box. */
  readonly drawn: number;
  /** The chart's bars: what each says (its aria-label: "field: value; ...") and its width on screen, px. */
  readonly bars: { readonly label: string; readonly width: number }[];
  /** The labels of its axes, in order. */
  readonly axisLabels: string[];
}

export interface ReportLayout {
  readonly charts: ShownChart[];
  /** "section#id: 980 > 958" for every card, figure or table frame whose content is wider than it. */
  readonly overflowing: string[];
  /** Elements reaching past the window's right edge (outside a frame that scrolls them). */
  readonly pastWindow: string[];
  readonly pageWidth: number;
  readonly windowWidth: number;
}

/**
 * The measuring function runs in the page: it names no inner function (a bundler's keepNames
 * would wrap a named one in a helper that does not exist in the page).
 */
export function measureReport(page: Page): Promise<ReportLayout> {
  return page.evaluate(() => {
    const charts = [...document.querySelectorAll('figure.chart')].map((figure) => {
      const shown = [...figure.querySelectorAll(':scope > div')].filter(
        (d) => getComputedStyle(d).display !== 'none',
      );
      const svg = shown[0]?.querySelector('svg');
      const box = svg?.getBoundingClientRect();
      const own = Number(svg?.getAttribute('width') ?? 0);
      const marks = svg ? [...svg.querySelectorAll('.role-mark > *')] : [];
      return {
        section: figure.closest('section')?.id ?? '',
        shown: shown.length,
        layout: String(shown[0]?.className ?? ''),
        width: box?.width ?? 0,
        height: box?.height ?? 0,
        scale: own > 0 && box ? box.width / own : 0,
        drawn: marks.filter((m) => m.getBoundingClientRect().width * m.getBoundingClientRect().height > 0)
          .length,
        bars: svg
          ? [...svg.querySelectorAll('.mark-rect.role-mark > path')].map((p) => ({
              label: p.getAttribute('aria-label') ?? '',
              width: p.getBoundingClientRect().width,
            }))
          : [],
        axisLabels: svg
          ? [...svg.querySelectorAll('.role-axis-label text')].map((t) => t.textContent ?? '')
          : [],
      };
    });
    // A table frame scrolls its table on purpose; anything else wider than its box overflows.
    const overflowing = [...document.querySelectorAll('section, figure, figure > div, dl, dd, p, h2, h3')]
      .filter((el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).display !== 'none')
      .map(
        (el) =>
          `${el.closest('section')?.id} ${el.tagName}.${el.className}: ${el.scrollWidth} > ${el.clientWidth}`,
      );
    const windowWidth = document.documentElement.clientWidth;
    const pastWindow = [...document.body.querySelectorAll('*')]
      .filter((el) => !el.closest('.table-wrap') && el.getBoundingClientRect().right > windowWidth + 1)
      .filter((el) => el.getBoundingClientRect().width * el.getBoundingClientRect().height > 0)
      .map((el) => `${el.closest('section')?.id} ${el.tagName}.${el.className}`);
    return {
      charts,
      overflowing,
      pastWindow,
      pageWidth: document.documentElement.scrollWidth,
      windowWidth,
    };
  });
}
