// Skills and procedures: the procedures observation distilled (steps, checks, risk), each with its skill
// stage from memory.skill.list (observed → candidate → validated → active; confidence, vouching sessions).
import { content, h } from '../dom.js';
import { badge, empty, evidence, facts, record, recordsOf } from '../parts.js';
import { call, firstRead } from '../rpc.js';

/** @param {string} title @param {string[] | undefined} lines */
const steps = (title, lines) =>
  lines?.length
    ? [
        h('h4', {}, title),
        h(
          'ol',
          {},
          lines.map((line) => h('li', {}, content(line, 'span'))),
        ),
      ]
    : null;

/** @param {string} owner @param {any} m @param {any} [skill] the procedure's skill summary */
const procedureCard = (owner, m, skill) =>
  h(
    'article',
    { class: 'procedure', 'data-id': m.id },
    h(
      'header',
      {},
      badge(skill?.status ?? m.status, 'status'),
      ' ',
      badge(skill?.risk ?? m.procedure?.risk, 'risk'),
      ' ',
      h('code', {}, m.id),
    ),
    content(m.text),
    skill
      ? facts([
          ['confidence', String(skill.confidence)],
          ['sessions vouching', String(skill.sessions)],
          ['approved by', skill.approved_by],
        ])
      : null,
    steps('when', m.procedure?.preconditions),
    steps('steps', m.procedure?.steps),
    steps('checks', m.procedure?.checks),
    evidence(owner, m.sources, 'sources'),
  );

/** @param {import('../app.js').ViewContext} ctx */
export async function skillsView({ owner }) {
  const method = firstRead(['memory.skill.list']);
  const [procedures, skills] = await Promise.all([
    call('memory.browse', { owner, kinds: ['procedure'], limit: 100 }),
    method ? call(method, { owner, limit: 200 }) : null,
  ]);
  const byId = new Map(recordsOf(skills).map((/** @type {any} */ s) => [s.id, s]));
  const shown = new Set(procedures.items.map((/** @type {any} */ m) => m.id));
  const unmatched = recordsOf(skills).filter((/** @type {any} */ s) => !shown.has(s.id));
  if (procedures.items.length === 0 && unmatched.length === 0) {
    return empty(
      'No procedures yet',
      'Observation distills procedures (preconditions, steps, checks, risk) from tasks that succeeded; ',
      'each starts as observed and becomes a validated skill once two sessions vouch for it ',
      '(memory.skill.list, memory.skill.set_status).',
    );
  }
  return [
    h('h2', {}, 'Procedures'),
    procedures.items.map((/** @type {any} */ m) => procedureCard(owner, m, byId.get(m.id))),
    unmatched.length ? [h('h2', {}, 'Other skills'), unmatched.map((s) => record(s))] : null,
  ];
}
