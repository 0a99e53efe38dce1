// Jobs: the observation queue per owner, leases, failing batches with their last failures; organize jobs
// and their notices once this mnemo has them.
import { content, count, h, when } from '../dom.js';
import { empty, facts, fill, notYet, record, recordsOf } from '../parts.js';
import { call, has } from '../rpc.js';

/** @param {any} status */
function observation(status) {
  const cells = (/** @type {any} */ o) => [
    h('td', {}, h('code', {}, o.owner)),
    h('td', {}, count(o.pending_events)),
    h('td', {}, count(o.batches.queued)),
    h('td', {}, count(o.batches.leased)),
    h('td', { class: o.batches.failed ? 'bad' : '' }, count(o.batches.failed)),
    h('td', {}, count(o.batches.published)),
    h('td', {}, count(o.memories)),
  ];
  return [
    status.owners.length
      ? h(
          'table',
          { class: 'queues' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ['owner', 'events waiting', 'queued', 'leased', 'failing', 'published', 'memories'].map((t) =>
                h('th', {}, t),
              ),
            ),
          ),
          h(
            'tbody',
            {},
            status.owners.map((/** @type {any} */ o) => h('tr', { 'data-owner': o.owner }, cells(o))),
          ),
        )
      : empty('Nothing to observe yet', 'Observation starts once events are ingested.'),
    status.deferring_to_clients
      ? h('p', { class: 'muted' }, 'The worker waits for client writes to pause.')
      : null,
    facts([
      ['model calls', count(status.usage.model_calls)],
      ['prompt tokens', count(status.usage.prompt_tokens)],
      ['completion tokens', count(status.usage.completion_tokens)],
    ]),
    status.leased.length
      ? [
          h('h3', {}, 'Leased now'),
          h(
            'ul',
            {},
            status.leased.map((/** @type {any} */ b) =>
              h(
                'li',
                {},
                h('code', {}, b.batch_id),
                ` (${b.owner}) until ${when(b.expires_at)}, claim ${b.claims}`,
              ),
            ),
          ),
        ]
      : null,
    h('h3', {}, 'Failures'),
    status.failed.length
      ? h(
          'ul',
          { class: 'failures' },
          status.failed.map((/** @type {any} */ b) =>
            h(
              'li',
              { 'data-batch': b.batch_id },
              h('code', {}, b.batch_id),
              ` (${b.owner}): ${b.failures} failures, next try ${when(b.next_retry_at)}`,
              h(
                'ul',
                {},
                b.last_failures.map((/** @type {any} */ f) =>
                  h('li', {}, when(f.at), ' ', h('code', {}, f.code), ' ', content(f.reason, 'span')),
                ),
              ),
            ),
          ),
        )
      : h('p', { class: 'muted', 'data-empty': '' }, 'No batch is failing.'),
  ];
}

/** @param {import('../app.js').ViewContext} ctx */
export async function jobsView({ owner, scoped }) {
  const scope = scoped ? { owner } : {};
  const status = await call('memory.observation.status', scope);
  const organize = h('div', { class: 'organize' });
  const notices = h('div', { class: 'notices' });
  void fill(organize, async () =>
    has('memory.chain.status')
      ? record(await call('memory.chain.status', scope))
      : notYet('Organize jobs', ['memory.chain.status'], 'Its queue, retries and failures will show here.'),
  );
  void fill(notices, async () => {
    if (!has('memory.organize.notices')) {
      return notYet(
        'Notices',
        ['memory.organize.notices'],
        'Failure notices of automatic jobs will show here.',
      );
    }
    if (!owner) return empty('Choose an owner', 'Notices are kept per owner.');
    const list = recordsOf(await call('memory.organize.notices', { owner }));
    return list.length ? list.map((n) => record(n)) : empty('No notices', 'Automatic jobs have not failed.');
  });
  return [
    h('h2', {}, 'Observation'),
    observation(status),
    h('h2', {}, 'Organize'),
    organize,
    h('h2', {}, 'Notices'),
    notices,
  ];
}
