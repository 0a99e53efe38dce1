// Health: version and counts, growth of the store per day, recall latency as measured by this server, and
// snapshot render stats (`health` answers `snapshots` once this mnemo renders them).
import { lineChart } from '../charts.js';
import { count, h } from '../dom.js';
import { empty, facts, fill, notYet } from '../parts.js';
import { call } from '../rpc.js';

const DAYS = 30;

/** Running totals per day from what each day added and the total now. @param {number[]} added @param {number} total */
function cumulative(added, total) {
  let running = total - added.reduce((a, b) => a + b, 0);
  return added.map((n) => (running += n));
}

/** @param {any} history */
function growth(history) {
  const labels = history.days.map((/** @type {any} */ d) => d.day.slice(5));
  /** @param {'events' | 'memories' | 'objects'} key */
  const added = (key) => history.days.map((/** @type {any} */ d) => d[key]);
  return [
    lineChart({
      title: `Stored in all, last ${DAYS} days (UTC)`,
      labels,
      series: [
        { name: 'events', values: cumulative(added('events'), history.totals.events) },
        { name: 'memories', values: cumulative(added('memories'), history.totals.memories) },
        { name: 'objects', values: cumulative(added('objects'), history.totals.objects) },
      ],
    }),
    lineChart({
      title: 'Stored per day',
      labels,
      series: [
        { name: 'events', values: added('events') },
        { name: 'memories', values: added('memories') },
        { name: 'objects', values: added('objects') },
      ],
    }),
  ];
}

/** @param {any} recall */
function latency(recall) {
  if (recall.count === 0) {
    return empty(
      'No recall measured yet',
      'This server measures every memory.recall it answers (since it started): search something and come back.',
    );
  }
  return [
    lineChart({
      title: `Recall latency, last ${recall.samples.length} of ${recall.count} recalls`,
      labels: recall.samples.map((/** @type {any} */ s) => s.at.slice(11, 19)),
      series: [{ name: 'took (ms)', values: recall.samples.map((/** @type {any} */ s) => s.took_ms) }],
      unit: ' ms',
      marks: [
        { name: 'p50', value: recall.p50_ms },
        { name: 'p95', value: recall.p95_ms },
      ],
    }),
    facts([
      ['p50', `${recall.p50_ms} ms`],
      ['p95', `${recall.p95_ms} ms`],
      ['slowest', `${recall.max_ms} ms`],
    ]),
  ];
}

/** Per owner: the last, median and largest of the recent renders, and each section's median and max. */
/** @param {any[]} list */
const snapshotTable = (list) =>
  h(
    'table',
    { class: 'snapshots' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['owner', 'renders', 'last', 'median', 'max', 'sections (median / max bytes)'].map((t) =>
          h('th', {}, t),
        ),
      ),
    ),
    h(
      'tbody',
      {},
      list.map((s) =>
        h(
          'tr',
          { 'data-owner': s.owner },
          h('td', {}, h('code', {}, s.owner)),
          h('td', {}, count(s.samples)),
          h('td', {}, `${count(s.last_total_bytes)} B`),
          h('td', {}, `${count(s.median_total_bytes)} B`),
          h('td', {}, `${count(s.max_total_bytes)} B`),
          h(
            'td',
            {},
            Object.entries(s.sections ?? {}).map(([name, v]) => [
              h('span', { class: 'chip' }, `${name} ${count(v.median_bytes)} / ${count(v.max_bytes)}`),
              ' ',
            ]),
          ),
        ),
      ),
    ),
  );

/** @param {import('../app.js').ViewContext} ctx */
export async function healthView({ owner, scoped }) {
  const [health, history] = await Promise.all([
    call('health'),
    call('health.history', { days: DAYS, ...(scoped ? { owner } : {}) }),
  ]);
  const snapshot = h('div', { class: 'snapshot' });
  void fill(snapshot, async () => {
    if (!Array.isArray(health.snapshots)) {
      return notYet(
        'Snapshot render stats',
        ['memory.snapshot'],
        'The bytes of each rendered snapshot and of its sections will show here.',
      );
    }
    const shown = health.snapshots.filter((/** @type {any} */ s) => !scoped || s.owner === owner);
    return shown.length
      ? snapshotTable(shown)
      : empty(
          'No snapshots rendered yet',
          'They show here once an agent asks memory.snapshot for one (since this server started).',
        );
  });
  return [
    facts([
      ['version', health.version],
      ['schema', String(health.schema_version)],
      ['events', count(history.totals.events)],
      ['memories', count(history.totals.memories)],
      ['objects', count(history.totals.objects)],
      ['owners', count(history.owners.length)],
      ['data', health.data_dir],
      ['ingest workers', health.ingest_workers === undefined ? null : String(health.ingest_workers)],
      [
        'embeddings',
        health.embedding
          ? `${health.embedding.model}: ${count(health.embedding.embedded)} embedded, ${count(health.embedding.pending)} pending`
          : null,
      ],
    ]),
    h('h2', {}, 'Growth'),
    history.totals.events
      ? growth(history)
      : empty(
          'Nothing stored yet',
          'Ingest events (npx mnemo ingest events.jsonl --owner user:alice) to see the store grow.',
        ),
    h('h2', {}, 'Recall latency'),
    latency(history.recall),
    h('h2', {}, 'Owners'),
    history.owners.length
      ? h(
          'table',
          { class: 'owners' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ['owner', 'events', 'memories', 'objects'].map((t) => h('th', {}, t)),
            ),
          ),
          h(
            'tbody',
            {},
            history.owners.map((/** @type {any} */ o) =>
              h(
                'tr',
                { 'data-owner': o.owner },
                h('td', {}, h('code', {}, o.owner)),
                h('td', {}, count(o.events)),
                h('td', {}, count(o.memories)),
                h('td', {}, count(o.objects)),
              ),
            ),
          ),
        )
      : empty('No owners yet', 'An owner appears with its first event.'),
    h('h2', {}, 'Snapshots'),
    snapshot,
  ];
}
