// Skills and procedures: the procedures observation distilled (steps, checks, risk, status), and the
// skills a person taught once this mnemo has memory.skill.*.
import { content, h } from '../dom.js';
import { badge, empty, evidence, fill, notYet, record, recordsOf } from '../parts.js';
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

/** @param {string} owner @param {any} m */
const procedureCard = (owner, m) =>
  h(
    'article',
    { class: 'procedure', 'data-id': m.id },
    h(
      'header',
      {},
      badge(m.status, 'status'),
      ' ',
      badge(m.procedure?.risk, 'risk'),
      ' ',
      h('code', {}, m.id),
    ),
    content(m.text),
    steps('when', m.procedure?.preconditions),
    steps('steps', m.procedure?.steps),
    steps('checks', m.procedure?.checks),
    evidence(owner, m.sources, 'sources'),
  );

/** @param {import('../app.js').ViewContext} ctx */
export async function skillsView({ owner }) {
  const method = firstRead(['memory.skill.list', 'memory.skills.list']);
  const skills = h('div', { class: 'skills' });
  const procedures = await call('memory.browse', { owner, kinds: ['procedure'], limit: 100 });
  void fill(skills, async () => {
    if (!method) {
      return notYet(
        'Skills',
        ['memory.skill.list'],
        'Skills people teach (draft until enabled) will show here.',
      );
    }
    const list = recordsOf(await call(method, { owner }));
    return list.length
      ? list.map((s) => record(s))
      : empty('No skills', 'A skill is taught by a person, then enabled.');
  });
  return [
    h('h2', {}, 'Skills'),
    skills,
    h('h2', {}, 'Procedures'),
    procedures.items.length
      ? procedures.items.map((/** @type {any} */ m) => procedureCard(owner, m))
      : empty(
          'No procedures yet',
          'Observation distills procedures (preconditions, steps, checks, risk) from tasks that succeeded; ',
          'they start as candidates until confirmed.',
        ),
  ];
}
