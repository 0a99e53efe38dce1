// An object's Markdown file: YAML front matter (id, type, name, revision, status, aliases, sources) and a
// readable body with its facts and its relations as [[slug]] links. Pure: the same view, the same bytes.
import { renderSchedule } from './schedule.js';
import { attrsOf, type ObjectView } from './view.js';

/** A file of the projection, its path relative to the owner's folder. */
export interface ProjectedFile {
  path: string;
  content: string;
}

/** JSON strings and arrays are YAML too: no quoting rule of YAML's own is needed. */
const yaml = (value: unknown): string => JSON.stringify(value);

export function frontMatter(v: ObjectView): string {
  const o = v.object;
  return [
    '---',
    `id: ${yaml(o.object_id)}`,
    `type: ${o.type}`,
    `name: ${yaml(o.name)}`,
    `revision: ${o.revision}`,
    `status: ${o.status}`,
    `aliases: ${yaml(v.aliases)}`,
    `sources: ${yaml(v.sources)}`,
    '---',
  ].join('\n');
}

/** A link Obsidian resolves by file name: slugs are unique per owner. */
export const link = (slug: string): string => `[[${slug}]]`;

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ').trim();

export function factLines(v: ObjectView, kinds: readonly string[]): string[] {
  return v.facts
    .filter((f) => kinds.includes(f.kind))
    .map((f) => `- ${oneLine(f.text)}${f.state === 'active' ? '' : ` _(${f.state})_`} <!-- ${f.id} -->`);
}

function section(title: string, lines: readonly string[]): string[] {
  return lines.length === 0 ? [] : ['', `## ${title}`, '', ...lines];
}

export function renderObject(v: ObjectView): string {
  const o = v.object;
  const attrs = attrsOf(o);
  const relations = v.relations.map((r) =>
    r.direction === 'out' ? `- ${r.type} → ${link(r.slug)}` : `- ${link(r.slug)} ${r.type} → this`,
  );
  const lines = [
    frontMatter(v),
    `# ${oneLine(o.name)}`,
    ...(v.aliases.length > 0 ? ['', `Also known as: ${v.aliases.map(oneLine).join(', ')}`] : []),
    ...(o.body.trim() === '' ? [] : ['', o.body.replace(/\r\n?/g, '\n').trimEnd()]),
    ...section('Facts', factLines(v, ['fact', 'preference'])),
    ...section('Relations', relations),
    ...section(
      'Attributes',
      Object.keys(attrs)
        .sort()
        .map((k) => `- ${k}: ${yaml(attrs[k])}`),
    ),
    ...(o.type === 'schedule' ? ['', `Folder: [[${v.slug}/INDEX]]`] : []),
  ];
  return `${lines.join('\n')}\n`;
}

/** Every file of one object: its Markdown file, and a schedule's folder beside it. */
export function objectFiles(v: ObjectView): ProjectedFile[] {
  const dir = v.object.type;
  return [
    { path: `${dir}/${v.slug}.md`, content: renderObject(v) },
    ...(v.object.type === 'schedule'
      ? renderSchedule(v).map((f) => ({ path: `${dir}/${v.slug}/${f.path}`, content: f.content }))
      : []),
  ];
}
