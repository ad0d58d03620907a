import { money, svg } from './dom.ts';

export interface Column {
  /** The short label under the column (a day of the month). */
  label: string;
  /** What the description says for the column (the full date). */
  name: string;
  /** The amount, a decimal in the chart's currency. */
  value: number;
  note: string;
}

/**
 * A column chart of amounts the API answered (one column per day, oldest on the left), drawn as SVG by the page: the
 * columns scale to the largest, with the largest amount on the axis. It has a title and a description naming every
 * column's figure; the same numbers are in the page's table as well.
 */
export function columnChart(title: string, columns: readonly Column[], currency: string | null): SVGElement {
  // a small drawing space, so its text stays legible when a phone scales the chart down to its width
  const width = 400;
  const height = 190;
  const top = 20;
  const bottom = 24;
  const left = 4;
  const plotH = height - top - bottom;
  const step = (width - left) / Math.max(1, columns.length);
  const barW = Math.max(3, Math.min(36, step * 0.7));
  const max = Math.max(0, ...columns.map((c) => c.value));
  const scale = max > 0 ? max : 1;
  const id = `chart-${title.replace(/\W+/g, '-').toLowerCase()}`;
  const desc = columns.map((c) => `${c.name}: ${money(c.value, currency)} (${c.note})`).join('; ');
  // every label on a week; on a month, one in five (and the last) so they do not overlap on a phone
  const every = columns.length > 10 ? 5 : 1;
  return svg(
    'svg',
    { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-labelledby': `${id}-t ${id}-d`, class: 'column-chart', width: '100%' },
    svg('title', { id: `${id}-t` }, title),
    svg('desc', { id: `${id}-d` }, desc),
    svg(
      'g',
      { 'aria-hidden': 'true' },
      svg('text', { x: left, y: 13, class: 'chart-axis' }, `max ${money(max, currency)}`),
      svg('line', { x1: left, x2: width, y1: top, y2: top, class: 'chart-grid' }),
      svg('line', { x1: left, x2: width, y1: top + plotH, y2: top + plotH, class: 'chart-base' }),
      ...columns.map((c, i) => {
        const h = c.value > 0 ? Math.max(2, Math.round((plotH * c.value) / scale)) : 0;
        const x = left + i * step + (step - barW) / 2;
        const showLabel = i % every === 0 || i === columns.length - 1;
        return svg(
          'g',
          {},
          svg('rect', { x: x.toFixed(1), y: top + plotH - h, width: barW.toFixed(1), height: h, rx: 2, class: 'chart-bar' }),
          showLabel ? svg('text', { x: (x + barW / 2).toFixed(1), y: height - 7, class: 'chart-label', 'text-anchor': 'middle' }, c.label) : null,
        );
      }),
    ),
  );
}
