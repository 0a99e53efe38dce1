// An object as Markdown for the mnemo://objects/{id} resource, rendered from memory.chain.read's answer:
// its name and type, aliases, body, relations and the events it rests on. Memory text stays data: it is
// quoted under headings, never turned into instructions.
import type { MethodResult } from '../protocol/catalog.js';

type ChainRead = MethodResult<'memory.chain.read'>;

/** One line of text (a name or head that holds newlines would break the list it sits in). */
const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

export function renderObjectMarkdown(read: ChainRead): string {
  const o = read.object;
  const lines = [
    `# ${oneLine(o.name)}`,
    '',
    `- id: \`${o.id}\``,
    `- type: ${o.type} · status: ${o.status} · revision ${o.revision}`,
    `- updated: ${o.updated_at} · created: ${o.created_at}`,
  ];
  if (o.aliases.length > 0) lines.push(`- aliases: ${o.aliases.map(oneLine).join(', ')}`);
  if (o.body.trim() !== '') lines.push('', o.body.trim());
  const relations = read.relations.map((r) =>
    r.from === o.id
      ? `- ${r.type} → ${oneLine(r.to_name)} (\`${r.to}\`)`
      : `- ${oneLine(r.from_name)} (\`${r.from}\`) ${r.type} → this`,
  );
  if (relations.length > 0) lines.push('', '## Relations', '', ...relations);
  const related = read.objects.filter((n) => n.depth === 1);
  if (related.length > 0) {
    lines.push('', '## Related objects', '');
    for (const n of related) lines.push(`- ${oneLine(n.name)} (${n.type}, \`mnemo://objects/${n.id}\`)`);
  }
  if (read.sources.length > 0) {
    lines.push('', '## Sources', '');
    for (const s of read.sources) lines.push(`- \`${s.event_id}\` ${s.kind} ${s.at}: ${oneLine(s.head)}`);
  }
  if (read.next_cursor !== null)
    lines.push('', `(more relations: memory.chain.read cursor ${read.next_cursor})`);
  return `${lines.join('\n')}\n`;
}
