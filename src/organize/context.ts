// memory.chain.context: the core documents, then the most recent timeline (raw events, then active nodes,
// newest first) that fits both budgets; what is left out is counted and marked, never silently dropped.
import type { Driver } from '../storage/driver.js';
import type { TokenCounter } from '../text/tokens.js';
import { addCost, costOf, cutToFit, fitsIn, roomLeft, type Cost } from './budget.js';
import { syncCoreFiles, type CoreDeps } from './core.js';
import type { OrganizeOptions } from './options.js';
import { CORE_DOCS, type ContextParams, type ContextResult } from './schema-chain.js';
import { coreDocs } from './store-core.js';
import { countEventsAfter, newestEvents, type TimelineEvent } from './store-events.js';
import { countActiveNodes, newestActiveNodes, type NodeRow } from './store-nodes.js';
import { ownerState } from './store-owners.js';
import { scanPending } from './triggers.js';

export interface ContextDeps {
  driver: Driver;
  core: CoreDeps;
  counter(): Promise<TokenCounter>;
  options: OrganizeOptions;
  now(): number;
}

interface Entry {
  type: 'event' | 'node';
  /** The rendered line(s), ending in a newline. */
  text: string;
  cost: Cost;
  body: string;
  render(body: string): string;
  event?: TimelineEvent;
  node?: NodeRow;
  cut: boolean;
}

const PAGE = 50;
const HEADER = '## Timeline\n';
const marker = (nodes: number, events: number) =>
  `…[${nodes} earlier node(s) and ${events} earlier event(s) omitted]\n`;

function timeFormat(timeZone: string): (ms: number) => string {
  const f = new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });
  return (ms) => f.format(ms);
}

/** Ready unless the owner's first sync (its backlog scanned and compacted under the threshold) is incomplete. */
async function readiness(deps: ContextDeps, owner: string): Promise<boolean> {
  await scanPending(deps.driver, deps.now(), deps.options, owner);
  const state = await ownerState(deps.driver, owner);
  return state === undefined || state.synced_at !== null;
}

async function* timeline(deps: ContextDeps, p: ContextParams, covered: number, counter: TokenCounter) {
  const at = timeFormat(deps.options.timeZone);
  const entry = (e: Omit<Entry, 'text' | 'cost' | 'cut'>): Entry => {
    const text = e.render(e.body);
    return { ...e, text, cost: costOf(counter, text), cut: false };
  };
  for (let before: number | undefined; ;) {
    const page = await newestEvents(deps.driver, p.owner, {
      after: covered,
      before,
      sessionId: p.session_id,
      limit: PAGE,
    });
    for (const e of page) {
      const label = e.kind === 'user_message' || e.kind === 'agent_reply' ? e.role : `${e.role} ${e.kind}`;
      yield entry({ type: 'event', event: e, body: e.text, render: (t) => `[${at(e.at)} ${label}] ${t}\n` });
    }
    if (page.length < PAGE) break;
    before = page.at(-1)?.seq;
  }
  for (let beforeSeq: number | undefined; ;) {
    const page = await newestActiveNodes(deps.driver, p.owner, {
      sessionId: p.session_id,
      limit: PAGE,
      ...(beforeSeq === undefined ? {} : { beforeSeq }),
    });
    for (const n of page) {
      const head = `[${at(n.first_at)} – ${at(n.last_at)} · ${n.events} event(s) · ${n.node_id}]`;
      yield entry({ type: 'node', node: n, body: n.text, render: (t) => `${head}\n${t}\n` });
    }
    if (page.length < PAGE) break;
    beforeSeq = page.at(-1)?.first_seq;
  }
}

export async function chainContext(deps: ContextDeps, p: ContextParams): Promise<ContextResult> {
  await syncCoreFiles(deps.core, p.owner);
  const ready = await readiness(deps, p.owner);
  const counter = await deps.counter();
  const budget = { tokens: p.max_tokens, bytes: p.max_bytes };
  const covered = (await ownerState(deps.driver, p.owner))?.covered_seq ?? 0;

  const docs = await coreDocs(deps.driver, p.owner);
  const core: Array<{ doc: (typeof CORE_DOCS)[number]; revision: number; text: string; block: string }> = [];
  let used: Cost = { tokens: 0, bytes: 0 };
  for (const doc of CORE_DOCS) {
    const d = docs.find((x) => x.doc === doc);
    if (!d) continue;
    const block = `## ${doc} (revision ${d.revision})\n${d.text}\n`;
    const cost = costOf(counter, block);
    if (!fitsIn(addCost(used, cost), budget)) continue;
    core.push({ doc, revision: d.revision, text: d.text, block });
    used = addCost(used, cost);
  }

  const totals = {
    events: await countEventsAfter(deps.driver, p.owner, covered, p.session_id),
    nodes: await countActiveNodes(deps.driver, p.owner, p.session_id),
  };
  // invariant: the answer never exceeds either budget: every entry is costed before it is taken, the omission
  // marker is reserved at its longest, and the whole text is measured again (test: test/organize/context.test.ts).
  let room = roomLeft(budget, addCost(used, costOf(counter, HEADER + marker(totals.nodes, totals.events))));
  const taken: Entry[] = [];
  if (totals.events + totals.nodes > 0 && room.tokens >= 0 && room.bytes >= 0) {
    for await (const candidate of timeline(deps, p, covered, counter)) {
      if (fitsIn(candidate.cost, room)) {
        taken.push(candidate);
        room = roomLeft(room, candidate.cost);
        continue;
      }
      const body = taken.length === 0 ? cutToFit(counter, candidate.body, candidate.render, room) : null;
      if (body !== null) {
        const text = candidate.render(body);
        taken.push({ ...candidate, body, text, cost: costOf(counter, text), cut: true });
      }
      break;
    }
  }
  for (let bare = false; ;) {
    const result = assemble({ owner: p.owner, ready, core, taken, totals, coreTotal: docs.length, bare });
    const cost = costOf(counter, result.text);
    if (fitsIn(cost, budget))
      return { ...result, tokens: cost.tokens, bytes: cost.bytes, tokenizer: counter.name };
    if (taken.length > 0) taken.pop();
    else if (core.length > 0) core.pop();
    else bare = true;
  }
}

/** The answer for what was taken; `bare`: without the timeline's header and marker (a budget too small for them). */
function assemble(a: {
  owner: string;
  ready: boolean;
  core: ReadonlyArray<{ doc: (typeof CORE_DOCS)[number]; revision: number; text: string; block: string }>;
  taken: readonly Entry[];
  totals: { events: number; nodes: number };
  coreTotal: number;
  bare: boolean;
}) {
  const { owner, ready, core, taken, totals, coreTotal } = a;
  const oldestFirst = [...taken].reverse();
  const events = oldestFirst.filter((e) => e.type === 'event');
  const nodes = oldestFirst.filter((e) => e.type === 'node');
  const omitted = { nodes: totals.nodes - nodes.length, events: totals.events - events.length };
  const anyOmitted = omitted.nodes + omitted.events > 0;
  const timelineText =
    !a.bare && (taken.length > 0 || anyOmitted)
      ? HEADER +
        (anyOmitted ? marker(omitted.nodes, omitted.events) : '') +
        oldestFirst.map((e) => e.text).join('')
      : '';
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    owner,
    ready,
    truncated: anyOmitted || core.length < coreTotal || taken.some((e) => e.cut),
    core: core.map(({ doc, revision, text }) => ({ doc, revision, text })),
    nodes: nodes.flatMap((e) =>
      e.node
        ? [
            {
              node_id: e.node.node_id,
              level: e.node.level,
              first_at: iso(e.node.first_at),
              last_at: iso(e.node.last_at),
              events: e.node.events,
              text: e.body,
              truncated: e.cut,
            },
          ]
        : [],
    ),
    events: events.flatMap((e) =>
      e.event
        ? [
            {
              event_id: e.event.event_id,
              seq: e.event.seq,
              kind: e.event.kind,
              role: e.event.role,
              at: iso(e.event.at),
              session_id: e.event.session_id,
              text: e.body,
              truncated: e.cut,
            },
          ]
        : [],
    ),
    omitted_core: coreTotal - core.length,
    omitted_nodes: omitted.nodes,
    omitted_events: omitted.events,
    text: core.map((c) => c.block).join('') + timelineText,
  };
}
