// A schedule's folder (the seed's bundle): INDEX.md, requirements.md, preferences.md, lessons.md,
// state.json and runs/<run_id>/summary.md, filled from the object, its facts and its schedule_run events.
import { factLines, frontMatter, link, type ProjectedFile } from './render.js';
import { attrsOf, type ObjectView } from './view.js';

/** A run id as a folder name: unreserved characters kept, every other byte %-encoded. */
export const runFolder = (id: string): string =>
  [...Buffer.from(id, 'utf8')]
    .map((b) => {
      const c = String.fromCharCode(b);
      return /[A-Za-z0-9_-]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');

/** An attribute as list items: a string is one item, an array one per element, anything else as JSON. */
function items(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((x) => `- ${typeof x === 'string' ? x.replace(/\s*\n\s*/g, ' ') : JSON.stringify(x)}`);
}

const iso = (t: number): string => new Date(t).toISOString();

function page(title: string, lines: readonly string[], empty: string): string {
  return `# ${title}\n\n${(lines.length > 0 ? lines : [empty]).join('\n')}\n`;
}

export function renderSchedule(v: ObjectView): ProjectedFile[] {
  const o = v.object;
  const attrs = attrsOf(o);
  const name = o.name.replace(/\s*\n\s*/g, ' ');
  const runs = v.runs.map((r) => ({ ...r, folder: runFolder(r.id) }));
  const index = [
    frontMatter(v),
    `# ${name}`,
    '',
    `Schedule ${link(v.slug)}: ${o.status}, revision ${o.revision}.`,
    '',
    '- [Requirements](requirements.md)',
    '- [Preferences](preferences.md)',
    '- [Lessons](lessons.md)',
    '- [State](state.json)',
    ...(runs.length > 0
      ? ['', '## Runs', '', ...runs.map((r) => `- [${iso(r.at)}](runs/${r.folder}/summary.md)`)]
      : []),
  ];
  const requirements = [
    ...(o.body.trim() === '' ? [] : [o.body.replace(/\r\n?/g, '\n').trimEnd(), '']),
    ...items(attrs.requirements),
  ];
  const state = {
    id: o.object_id,
    name: o.name,
    status: o.status,
    revision: o.revision,
    updated_at: iso(o.updated_at),
    state: attrs.state ?? null,
    runs: runs.map((r) => r.id),
    last_run_at: runs.length > 0 ? iso(runs[runs.length - 1]?.at ?? 0) : null,
  };
  return [
    { path: 'INDEX.md', content: `${index.join('\n')}\n` },
    {
      path: 'requirements.md',
      content: page(
        `Requirements: ${name}`,
        requirements.at(-1) === '' ? requirements.slice(0, -1) : requirements,
        '_None recorded._',
      ),
    },
    {
      path: 'preferences.md',
      content: page(
        `Preferences: ${name}`,
        [...items(attrs.preferences), ...factLines(v, ['preference', 'fact'])],
        '_None recorded._',
      ),
    },
    { path: 'lessons.md', content: page(`Lessons: ${name}`, items(attrs.lessons), '_None recorded._') },
    { path: 'state.json', content: `${JSON.stringify(state, null, 2)}\n` },
    ...runs.map((r) => ({
      path: `runs/${r.folder}/summary.md`,
      content: `# Run ${r.id}\n\nAt ${iso(r.at)}, schedule ${link(v.slug)}.\n\n${r.text.replace(/\r\n?/g, '\n').trimEnd()}\n`,
    })),
  ];
}
