// An object and its neighbourhood as an SVG drawing: the object in the middle, its neighbours on a ring,
// theirs on an outer ring; relations as arrows labelled with their type. Deterministic: sorted by id.
import { svg } from './dom.js';

const RINGS = [0, 150, 250];
/** Room beyond the outer ring for a node and its label. */
const MARGIN = 80;
const LABEL_CHARS = 14;

/** @param {string} name */
const short = (name) => (name.length > LABEL_CHARS ? `${name.slice(0, LABEL_CHARS - 1)}…` : name);

/**
 * @typedef {{id: string, name: string, type: string, depth?: number}} GraphNode
 * @typedef {{id: string, from: string, to: string, type: string}} GraphEdge
 * @param {GraphNode} center @param {GraphNode[]} others @param {GraphEdge[]} edges
 * @param {(id: string) => void} open
 */
export function objectGraph(center, others, edges, open) {
  const deepest = Math.max(0, ...others.map((o) => o.depth ?? 1));
  const size = 2 * ((RINGS[Math.min(deepest, 2)] ?? 0) + MARGIN);
  const mid = size / 2;
  /** @type {Map<string, {x: number, y: number, node: GraphNode}>} */
  const at = new Map([[center.id, { x: mid, y: mid, node: center }]]);
  for (const depth of [1, 2]) {
    const ring = others.filter((o) => (o.depth ?? 1) === depth && o.id !== center.id);
    ring.sort((a, b) => (a.id < b.id ? -1 : 1));
    ring.forEach((node, i) => {
      const angle = (2 * Math.PI * i) / ring.length - Math.PI / 2 + (depth === 2 ? Math.PI / ring.length : 0);
      const radius = RINGS[depth] ?? 0;
      at.set(node.id, {
        x: mid + radius * Math.cos(angle),
        y: mid + radius * Math.sin(angle),
        node,
      });
    });
  }
  const drawn = edges.filter((e) => at.has(e.from) && at.has(e.to) && e.from !== e.to);
  return svg(
    'svg',
    {
      class: 'graph',
      viewBox: `0 0 ${size} ${size}`,
      role: 'img',
      'aria-label': `relations of ${center.name}`,
    },
    svg(
      'defs',
      {},
      svg(
        'marker',
        {
          id: 'arrow',
          viewBox: '0 0 10 10',
          refX: 22,
          refY: 5,
          markerWidth: 8,
          markerHeight: 8,
          orient: 'auto',
        },
        svg('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrow' }),
      ),
    ),
    drawn.map((e) => {
      const a = at.get(e.from);
      const b = at.get(e.to);
      if (!a || !b) return null;
      return svg(
        'g',
        { class: 'edge', 'data-relation': e.id },
        svg('line', { x1: a.x, y1: a.y, x2: b.x, y2: b.y, 'marker-end': 'url(#arrow)' }),
        svg('text', { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 - 4, 'text-anchor': 'middle' }, e.type),
      );
    }),
    [...at.values()].map(({ x, y, node }) =>
      svg(
        'g',
        {
          class: `node type-${node.type}${node.id === center.id ? ' center' : ''}`,
          'data-object': node.id,
          tabindex: 0,
          role: 'link',
          on: {
            click: () => open(node.id),
            keydown: (event) => {
              if (/** @type {KeyboardEvent} */ (event).key === 'Enter') open(node.id);
            },
          },
        },
        svg('circle', { cx: x, cy: y, r: node.id === center.id ? 18 : 13 }),
        svg('text', { x, y: y + 30, 'text-anchor': 'middle' }, short(node.name)),
        svg('title', {}, `${node.name} (${node.type})`),
      ),
    ),
  );
}
