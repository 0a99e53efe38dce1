// Reading down the timeline: a node with its children (events or nodes), and what a job needs to read —
// whole events, nodes and the owner's older memories.
import { MemoryError } from '../errors.js';
import type { Queryable } from '../storage/driver.js';
import { HEAD_CHARS } from './plan.js';
import type { InspectParams } from './schema-jobs.js';
import type { NodeView } from './schema-chain.js';
import { eventIdsAt, eventsBetween, eventsByIds, olderMemories } from './store-events.js';
import { childNodes, getNode, getNodes, type NodeRow } from './store-nodes.js';

const iso = (ms: number) => new Date(ms).toISOString();
const head = (text: string) => ({
  head: text.slice(0, HEAD_CHARS),
  length: text.length,
  truncated: text.length > HEAD_CHARS,
});

async function viewsOf(db: Queryable, owner: string, nodes: readonly NodeRow[]): Promise<NodeView[]> {
  const ids = await eventIdsAt(
    db,
    owner,
    nodes.flatMap((n) => [n.first_seq, n.last_seq]),
  );
  return nodes.map((n) => ({
    node_id: n.node_id,
    level: n.level,
    first_at: iso(n.first_at),
    last_at: iso(n.last_at),
    first_event_id: ids.get(n.first_seq) ?? '',
    last_event_id: ids.get(n.last_seq) ?? '',
    events: n.events,
    text: n.text,
    summarizer: n.summarizer,
    job_id: n.job_id,
    parent_id: n.parent_id,
  }));
}

/** A node and what it covers: its events (level 1) or the nodes below it, oldest first. */
export async function expandNode(db: Queryable, owner: string, nodeId: string) {
  const node = await getNode(db, owner, nodeId);
  if (!node) throw new MemoryError('NOT_FOUND', `no node ${nodeId}`, { node_id: nodeId });
  const [view] = await viewsOf(db, owner, [node]);
  if (!view) throw new MemoryError('NOT_FOUND', `no node ${nodeId}`, { node_id: nodeId });
  if (node.level === 1) {
    const events = await eventsBetween(db, owner, node.first_seq, node.last_seq);
    const children = events.map((e) => ({
      type: 'event' as const,
      id: e.event_id,
      at: iso(e.at),
      events: 1,
      kind: e.kind,
      role: e.role,
      ...head(e.text),
    }));
    return { node: view, children };
  }
  const children = (await childNodes(db, owner, nodeId)).map((c) => ({
    type: 'node' as const,
    id: c.node_id,
    at: iso(c.first_at),
    level: c.level,
    events: c.events,
    ...head(c.text),
  }));
  return { node: view, children };
}

export async function inspectForJob(db: Queryable, p: InspectParams) {
  const eventIds = p.refs.filter((r) => r.startsWith('event:')).map((r) => r.slice(6));
  const nodeIds = p.refs.filter((r) => r.startsWith('node:')).map((r) => r.slice(5));
  const events = await eventsByIds(db, p.owner, [...new Set(eventIds)]);
  const nodes = await getNodes(db, p.owner, [...new Set(nodeIds)]);
  const views = await viewsOf(db, p.owner, nodes);
  const withChildren = [];
  for (const v of views) {
    const expanded = await expandNode(db, p.owner, v.node_id);
    withChildren.push({ ...v, children: expanded.children.map((c) => `${c.type}:${c.id}`) });
  }
  const found = new Set([
    ...events.map((e) => `event:${e.event_id}`),
    ...nodes.map((n) => `node:${n.node_id}`),
  ]);
  const memories = p.memories
    ? await olderMemories(db, p.owner, {
        kinds: p.memories.kinds,
        before: p.memories.before,
        limit: p.memories.limit,
      })
    : [];
  return {
    events: events.map((e) => ({
      event_id: e.event_id,
      seq: e.seq,
      kind: e.kind,
      role: e.role,
      at: iso(e.at),
      session_id: e.session_id,
      task_id: e.task_id,
      text: e.text,
    })),
    nodes: withChildren,
    memories: memories.map((m) => ({ ...m, at: iso(m.at) })),
    missing: [...new Set(p.refs)].filter((r) => !found.has(r)),
  };
}
