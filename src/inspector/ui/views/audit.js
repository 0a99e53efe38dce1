// Packets and audit: why each memory packet was built (trigger, scores, sources, bytes, action) and what
// waits unclaimed in the owner's inboxes (memory.attention.list: a read; the page never claims).
import { h } from '../dom.js';
import { empty, fill, notYet, record, recordsOf } from '../parts.js';
import { call, firstRead } from '../rpc.js';

/**
 * @param {string} owner @param {string | null} method @param {string[]} names
 * @param {[string, string]} what the title while missing, and what will show
 * @param {[string, string]} none the empty state's title and what to do
 */
function panel(owner, method, names, what, none) {
  const body = h('div', { class: 'records' });
  void fill(body, async () => {
    if (!method) return notYet(what[0], names, what[1]);
    const list = recordsOf(await call(method, { owner }));
    return list.length ? list.map((r) => record(r)) : empty(none[0], none[1]);
  });
  return body;
}

/** @param {import('../app.js').ViewContext} ctx */
export async function auditView({ owner }) {
  const audit = firstRead(['memory.audit.query']);
  const inbox = firstRead(['memory.attention.list']);
  return [
    h('h2', {}, 'Audit'),
    panel(
      owner,
      audit,
      ['memory.audit.query'],
      [
        'Packet audit',
        'Every packet built for an agent, with its trigger, scores, sources and bytes, will show here.',
      ],
      [
        'No packets yet',
        'Each gate decision and packet shows here once an agent sends its steps to memory.gate.',
      ],
    ),
    h('h2', {}, 'Inbox'),
    panel(
      owner,
      inbox,
      ['memory.attention.list'],
      [
        'The inbox',
        'Packets and notices waiting for the next step of a session will show here (never claimed by this page).',
      ],
      ['The inbox is empty', 'Nothing waits for a session.'],
    ),
  ];
}
