// Suggestions: proposals awaiting a person's approval, approved or rejected here: the inspector's only
// writes, sent with the token like every call.
import { h } from '../dom.js';
import { empty, failure, idOf, notYet, record, recordsOf } from '../parts.js';
import { call, firstRead, has } from '../rpc.js';

const DECIDE = 'memory.suggestions.decide';
/** Who decides: recorded as the published entry's approver. */
const decider = h('input', { id: 'decider', name: 'by', value: 'inspector', maxlength: 200, size: 16 });
const byWhom = () => /** @type {HTMLInputElement} */ (decider).value.trim() || 'inspector';

/** @param {string} owner @param {any} s @param {() => void} done */
function decisions(owner, s, done) {
  const id = idOf(s);
  if (!has(DECIDE) || id === null || (s.status && s.status !== 'pending')) return null;
  const out = h('span', { class: 'outcome' });
  /** @param {'approve' | 'reject'} decision */
  const decide = (decision) =>
    h(
      'button',
      {
        type: 'button',
        class: decision,
        'data-action': decision,
        on: {
          click: async (event) => {
            const buttons = /** @type {HTMLElement} */ (event.currentTarget).parentElement?.querySelectorAll(
              'button',
            );
            buttons?.forEach((b) => b.setAttribute('disabled', ''));
            try {
              await call(DECIDE, { owner, id, decision, by: byWhom() });
              done();
            } catch (error) {
              out.replaceChildren(failure(error));
              buttons?.forEach((b) => b.removeAttribute('disabled'));
            }
          },
        },
      },
      decision === 'approve' ? 'Approve' : 'Reject',
    );
  return h('div', { class: 'decide' }, decide('approve'), ' ', decide('reject'), out);
}

/** @param {import('../app.js').ViewContext} ctx */
export async function suggestionsView({ owner, go }) {
  const method = firstRead(['memory.suggestions.list']);
  if (!method) {
    return notYet(
      'Suggestions',
      ['memory.suggestions.list'],
      'Proposals agents make with memory.suggest will wait here for you to approve or reject them.',
    );
  }
  const list = recordsOf(await call(method, { owner }));
  if (list.length === 0) {
    return empty(
      'No suggestions waiting',
      'Agents propose changes with the suggest tool (memory.suggest); each waits here until you approve or reject it.',
    );
  }
  return h(
    'div',
    { class: 'suggestions' },
    has(DECIDE) ? h('label', { class: 'decider' }, 'decided by ', decider) : null,
    list.map((s) =>
      record(
        s,
        decisions(owner, s, () => go('suggestions')),
      ),
    ),
  );
}
