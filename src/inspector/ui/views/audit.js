// Packets and audit: why each gate decision and packet was made (memory.audit.query: trigger, action,
// reason, score and signals, the ids it drew on, bytes, tokens, expiry; ids and digests only, no text),
// and what waits unclaimed in the owner's inboxes (memory.attention.list: a read; the page never claims).
import { h, when } from '../dom.js';
import { badge, empty, facts, fill, notYet, record, recordsOf } from '../parts.js';
import { call, firstRead } from '../rpc.js';

/** @param {Record<string, number | boolean>} signals */
const signalChips = (signals) =>
  h(
    'span',
    { class: 'signals' },
    Object.entries(signals).map(([k, v]) => [h('span', { class: 'chip' }, `${k} ${String(v)}`), ' ']),
  );

/** @param {any} r */
const auditCard = (r) =>
  h(
    'article',
    { class: 'audit record', 'data-id': r.audit_id },
    h(
      'header',
      {},
      badge(r.kind, 'kind'),
      ' ',
      badge(r.action, 'action'),
      ' ',
      badge(r.trigger, 'trigger'),
      ' ',
      h('code', {}, r.audit_id),
      ' ',
      when(r.at),
    ),
    facts([
      ['reason', r.reason],
      ['score', r.score === null ? null : String(r.score)],
      ['signals', Object.keys(r.signals ?? {}).length ? signalChips(r.signals) : null],
      ['session', r.session_id],
      ['packet', r.packet_id],
      ['request', r.request_id],
      ['size', r.bytes === undefined ? null : `${r.bytes} bytes · ${r.tokens ?? '?'} tokens`],
      ['outcome', r.outcome],
      ['expires', r.expires_at ? when(r.expires_at) : null],
      ['drew on', r.sources?.length ? h('code', {}, r.sources.join(' ')) : null],
      ['digest', r.digest ? h('code', { title: r.digest }, r.digest.slice(0, 12)) : null],
    ]),
  );

/** @param {import('../app.js').ViewContext} ctx */
export async function auditView({ owner }) {
  const audit = firstRead(['memory.audit.query']);
  const inbox = firstRead(['memory.attention.list']);
  const packets = h('div', { class: 'records' });
  const waiting = h('div', { class: 'records' });
  void fill(packets, async () => {
    if (!audit) return notYet('Packet audit', ['memory.audit.query'], 'Every gate decision will show here.');
    const { items } = await call(audit, { owner, limit: 200 });
    return items.length
      ? items.map(auditCard)
      : empty(
          'No packets yet',
          'Each gate decision and packet shows here once an agent sends its steps to memory.gate.',
        );
  });
  void fill(waiting, async () => {
    if (!inbox)
      return notYet('The inbox', ['memory.attention.list'], 'What waits for a session will show here.');
    const list = recordsOf(await call(inbox, { owner }));
    return list.length
      ? list.map((r) => record(r))
      : empty('The inbox is empty', 'Nothing waits for a session.');
  });
  return [h('h2', {}, 'Audit'), packets, h('h2', {}, 'Inbox'), waiting];
}
