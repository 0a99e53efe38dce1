// Small SVG charts drawn by the page itself: lines over days or samples, with a legend and a scale.
import { count, h, svg } from './dom.js';

const WIDTH = 640;
const HEIGHT = 200;
const PAD = { left: 64, right: 12, top: 12, bottom: 28 };

/** A readable maximum for the scale. @param {number} max */
function niceMax(max) {
  if (max <= 0) return 1;
  const step = 10 ** Math.floor(Math.log10(max));
  return Math.ceil(max / step) * step;
}

/**
 * @typedef {{name: string, values: number[]}} Series
 * @param {{title: string, labels: string[], series: Series[], unit?: string, marks?: Array<{name: string, value: number}>}} chart
 */
export function lineChart({ title, labels, series, unit = '', marks = [] }) {
  const all = [...series.flatMap((s) => s.values), ...marks.map((m) => m.value)];
  const top = niceMax(Math.max(0, ...all));
  const n = Math.max(1, labels.length - 1);
  const x = (/** @type {number} */ i) => PAD.left + ((WIDTH - PAD.left - PAD.right) * i) / n;
  const y = (/** @type {number} */ v) => HEIGHT - PAD.bottom - ((HEIGHT - PAD.top - PAD.bottom) * v) / top;
  const ticks = [0, top / 2, top];
  const shown = labels.length <= 1 ? [0] : [0, Math.floor((labels.length - 1) / 2), labels.length - 1];
  return h(
    'figure',
    { class: 'chart', 'data-chart': title },
    h('figcaption', {}, title),
    svg(
      'svg',
      { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-label': title },
      ticks.map((t) => [
        svg('line', { class: 'grid', x1: PAD.left, x2: WIDTH - PAD.right, y1: y(t), y2: y(t) }),
        svg(
          'text',
          { class: 'tick', x: PAD.left - 6, y: y(t) + 4, 'text-anchor': 'end' },
          `${count(t)}${unit}`,
        ),
      ]),
      shown.map((i, k) =>
        svg(
          'text',
          { class: 'tick', x: x(i), y: HEIGHT - 8, 'text-anchor': ['start', 'middle', 'end'][k] ?? 'middle' },
          labels[i] ?? '',
        ),
      ),
      marks.map((m, i) =>
        svg(
          'line',
          { class: `mark mark-${i}`, x1: PAD.left, x2: WIDTH - PAD.right, y1: y(m.value), y2: y(m.value) },
          svg('title', {}, `${m.name}: ${m.value}${unit}`),
        ),
      ),
      series.map((s, k) =>
        s.values.length === 1
          ? svg('circle', { class: `series series-${k}`, cx: x(0), cy: y(s.values[0] ?? 0), r: 3 })
          : svg(
              'polyline',
              { class: `series series-${k}`, points: s.values.map((v, i) => `${x(i)},${y(v)}`).join(' ') },
              svg('title', {}, s.name),
            ),
      ),
    ),
    h(
      'ul',
      { class: 'legend' },
      series.map((s, k) => h('li', { class: `series-${k}` }, s.name)),
      marks.map((m, i) => h('li', { class: `mark-${i}` }, `${m.name} ${m.value}${unit}`)),
    ),
  );
}
