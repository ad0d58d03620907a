import { money, svg } from './dom.ts';

export interface Bar {
  label: string;
  value: number;
  note: string;
}

/**
 * A bar chart of amounts the API answered, drawn as SVG by the page (no chart library): one bar per bucket, scaled to
 * the largest. The numbers are also in the page's text; the chart has a title and a description for screen readers.
 */
export function barChart(title: string, bars: readonly Bar[], currency: string | null): SVGElement {
  const width = 320;
  const rowH = 34;
  const labelW = 96;
  const height = bars.length * rowH + 8;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const id = `chart-${title.replace(/\W+/g, '-').toLowerCase()}`;
  const desc = bars.map((b) => `${b.label}: ${money(b.value, currency)} (${b.note})`).join('; ');
  return svg(
    'svg',
    { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-labelledby': `${id}-t ${id}-d`, class: 'chart', width: '100%' },
    svg('title', { id: `${id}-t` }, title),
    svg('desc', { id: `${id}-d` }, desc),
    ...bars.map((b, i) => {
      const y = 4 + i * rowH;
      const w = Math.max(2, Math.round(((width - labelW - 8) * b.value) / max));
      // the amount inside a bar wide enough to hold it (white on the bar), else just after it
      const inside = w > 90;
      return svg(
        'g',
        { 'aria-hidden': 'true' },
        svg('text', { x: 0, y: y + 19, class: 'chart-label' }, b.label),
        svg('rect', { x: labelW, y: y + 4, width: w, height: 22, rx: 3, class: 'chart-bar' }),
        svg(
          'text',
          { x: inside ? labelW + w - 6 : labelW + w + 4, y: y + 19, class: inside ? 'chart-value in' : 'chart-value', 'text-anchor': inside ? 'end' : 'start' },
          money(b.value, currency),
        ),
      );
    }),
  );
}
