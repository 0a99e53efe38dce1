// The tools that write the user's long-term knowledge: remember (a track entry), suggest (an entry that waits
// for the user's approval), todo (add, update, list, view in one tool), link (people, projects and their
// names and relations) and forget (deletion for real, marked destructive). Each acts for the session's owner; none lets a model claim to be the user.
import { z } from 'zod';
import {
  ChainUpsertResultSchema,
  UpsertObjectSchema,
  UpsertRelationSchema,
} from '../knowledge/chain-schema.js';
import { ForgetResultSchema, MAX_FORGET_IDS } from '../knowledge/forget-schema.js';
import { TODO_STATUSES, TODO_TRACKS, TodoSchema } from '../knowledge/todos-schema.js';
import type { MethodResult } from '../protocol/catalog.js';
import { MemoryError } from '../errors.js';
import type { ToolAdapter } from './tools.js';

const Text = z.string().trim().min(1).max(4_000);

const remember: ToolAdapter = {
  title: 'Remember',
  description:
    "Save something worth keeping across conversations into the user's memory: a fact (track `memory`), " +
    'something about the user (`user`), a fact about a project (`project`, with `project`: its name or id), ' +
    'or what happened today (`daily`). Call it when the user states a lasting fact, preference or decision, ' +
    'or when you finish work worth a line in the daily log. Keep it to one self-contained sentence; add a ' +
    '`summary` for a long one. The same text again adds nothing (added: false). Key entries need the ' +
    "user's approval: use `suggest` for them.",
  input: z.object({
    track: z.enum(['memory', 'user', 'project', 'daily']),
    text: Text,
    project: z.string().trim().min(1).max(200).optional(),
    summary: z.string().trim().min(1).max(500).optional(),
  }),
  output: z.object({ id: z.string(), added: z.boolean(), status: z.string() }),
  async run(args, ctx) {
    const out = (await ctx.call('memory.track.add', {
      ...args,
      owner: ctx.owner,
    })) as MethodResult<'memory.track.add'>;
    const text = out.added
      ? `saved to ${String(args.track)} (${out.id})`
      : `already remembered (${out.id}): nothing new`;
    return { structured: out, text };
  },
};

const suggest: ToolAdapter = {
  title: 'Suggest a memory for approval',
  description:
    'Propose an entry the user must approve before it is kept: always for the `key` track (rules and facts ' +
    'that must never be wrong: accounts, limits, standing instructions), and for anything you are unsure the ' +
    'user wants remembered. Call it instead of `remember` in those cases; give a short `reason` and the ids ' +
    'of the events it rests on (`source_refs`). It stays pending until the user decides.',
  input: z.object({
    track: z.enum(['memory', 'user', 'project', 'key', 'daily']),
    text: Text,
    reason: z.string().trim().min(1).max(1_000).optional(),
    project: z.string().trim().min(1).max(200).optional(),
    source_refs: z.array(z.string().trim().min(1).max(200)).max(100).optional(),
  }),
  output: z.object({ id: z.string(), status: z.literal('pending') }),
  async run(args, ctx) {
    const out = (await ctx.call('memory.suggest', {
      ...args,
      owner: ctx.owner,
    })) as MethodResult<'memory.suggest'>;
    return { structured: out, text: `suggested (${out.id}): pending the user's approval` };
  },
};

type Todo = z.infer<typeof TodoSchema>;
const todoLine = (t: Todo) =>
  `${t.status === 'open' ? '☐' : t.status === 'done' ? '☑' : '☒'} ${t.title}` +
  `${t.due ? ` (due ${t.due}${t.overdue ? ', overdue' : ''})` : ''}  [${t.track}] ${t.id}`;

const need = (args: Record<string, unknown>, field: string, action: string) => {
  if (args[field] !== undefined) return;
  const message = `${action} needs ${field}`;
  throw new MemoryError('INVALID_PARAMS', message, { issues: [{ path: field, message }] });
};

const todo: ToolAdapter = {
  title: 'Todos',
  description:
    "The user's todo list across conversations, in four tracks (life, work, project, daily). Call it with " +
    '`action`: `view` for the few that matter now (at most 8: overdue, then due soonest), `list` for all ' +
    '(filter by track or status), `add` when the user asks to be reminded or takes on a task (track, title, ' +
    'due as 2026-11-20 or an ISO time; an open todo of the same title is not added twice), `update` with ' +
    'its id to mark it done or dropped or change title or due. Distinct from your in-session task list.',
  input: z.object({
    action: z.enum(['add', 'update', 'list', 'view']),
    id: z.string().trim().min(1).max(200).optional(),
    track: z.enum(TODO_TRACKS).optional(),
    title: z.string().trim().min(1).max(200).optional(),
    due: z.string().trim().min(1).max(40).nullable().optional(),
    project: z.string().trim().min(1).max(200).optional(),
    status: z.enum(TODO_STATUSES).optional(),
  }),
  output: z.object({
    action: z.string(),
    id: z.string().optional(),
    added: z.boolean().optional(),
    todo: TodoSchema.optional(),
    items: z.array(TodoSchema).optional(),
    open: z.number().int().optional(),
    overdue: z.number().int().optional(),
  }),
  async run(args, ctx) {
    const { action, ...rest } = args as { action: string } & Record<string, unknown>;
    const owner = ctx.owner;
    if (action === 'add') {
      need(rest, 'track', 'add');
      need(rest, 'title', 'add');
      const out = (await ctx.call('memory.todo.add', { ...rest, owner })) as MethodResult<'memory.todo.add'>;
      return {
        structured: { action, ...out },
        text: out.added ? `added ${out.id}` : `already open: ${out.id}`,
      };
    }
    if (action === 'update') {
      need(rest, 'id', 'update');
      const out = (await ctx.call('memory.todo.update', { ...rest, owner })) as Todo;
      return { structured: { action, id: out.id, todo: out }, text: todoLine(out) };
    }
    if (action === 'list') {
      const out = (await ctx.call('memory.todo.list', { ...rest, owner })) as { items: Todo[] };
      return {
        structured: { action, items: out.items },
        text: out.items.map(todoLine).join('\n') || 'No todos.',
      };
    }
    const out = (await ctx.call('memory.todo.view', { owner })) as MethodResult<'memory.todo.view'>;
    const header = `${out.open} open, ${out.overdue} overdue${out.open > out.items.length ? `; showing ${out.items.length}` : ''}`;
    return { structured: { action, ...out }, text: [header, ...out.items.map(todoLine)].join('\n') };
  },
};

const link: ToolAdapter = {
  title: 'Link people, projects and names',
  description:
    'Record the people, projects, places and other things the user talks about, their other names and how ' +
    'they relate, so that any of their names finds them later ("老李" is 李卫东; Tony (唐志远) works with ' +
    'Sarah; the invoice tool belongs to project Apollo). Call it when the user introduces someone or ' +
    'something, gives a nickname, or corrects a name or a relation. An object that restates a known one ' +
    '(same name or alias) is merged into it; relations name objects by id or by the `ref` of an object of ' +
    'this call.',
  input: z.object({
    objects: z.array(UpsertObjectSchema).max(50).default([]),
    relations: z.array(UpsertRelationSchema).max(100).default([]),
    source_refs: z.array(z.string().trim().min(1).max(200)).min(1).max(100).optional(),
  }),
  output: ChainUpsertResultSchema,
  async run(args, ctx) {
    const out = (await ctx.call('memory.chain.upsert', {
      ...args,
      owner: ctx.owner,
    })) as MethodResult<'memory.chain.upsert'>;
    const lines = [
      ...out.objects.map(
        (o) => `${o.id} ${o.created ? 'created' : o.merged ? 'merged' : 'updated'} (revision ${o.revision})`,
      ),
      ...out.relations.map((r) => `${r.id} ${r.created ? 'linked' : 'known'}`),
    ];
    return { structured: out, text: lines.join('\n') };
  },
};

/** By MCP tool name (the catalog's `mcp`). */
const forget: ToolAdapter = {
  title: 'Forget for good',
  description:
    'Delete memories (`mem_…`) or objects (`obj_…`) for real: their rows, index entries, vectors and cached ' +
    'answers; with `with_events: true` also the conversation events they came from and whatever else rested ' +
    'only on those. Call it only when the user explicitly asks to forget or delete something, with the ids ' +
    '`recall` or `get` gave; it cannot be undone (to withdraw without deleting, the user revokes instead).',
  input: z.object({
    ids: z.array(z.string().trim().min(1).max(200)).min(1).max(MAX_FORGET_IDS),
    with_events: z.boolean().optional(),
  }),
  output: ForgetResultSchema,
  async run(args, ctx) {
    const out = (await ctx.call('memory.forget', {
      ...args,
      owner: ctx.owner,
    })) as MethodResult<'memory.forget'>;
    const c = out.counts;
    const text =
      `forgot ${c.memories} memories, ${c.objects} objects, ${c.events} events ` +
      `(${c.index_entries} index entries, ${c.vectors} vectors)`;
    return { structured: out, text };
  },
};

export const KNOWLEDGE_ADAPTERS: Readonly<Record<string, ToolAdapter>> = {
  remember,
  suggest,
  todo,
  link,
  forget,
};
