// Procedures, tracks, todos and suggestions as the catalog declares them (spread into protocol/catalog.ts).
import { spec } from '../protocol/method.js';
import {
  SkillFollowParamsSchema,
  SkillFollowResultSchema,
  SkillGetParamsSchema,
  SkillGetResultSchema,
  SkillListParamsSchema,
  SkillListResultSchema,
  SkillSetStatusParamsSchema,
  SkillSetStatusResultSchema,
} from './skills-schema.js';
import {
  SuggestionsDecideParamsSchema,
  SuggestionsDecideResultSchema,
  SuggestionsListParamsSchema,
  SuggestionsListResultSchema,
  SuggestParamsSchema,
  SuggestResultSchema,
} from './suggestions-schema.js';
import {
  TodoAddParamsSchema,
  TodoAddResultSchema,
  TodoListParamsSchema,
  TodoListResultSchema,
  TodoUpdateParamsSchema,
  TodoUpdateResultSchema,
  TodoViewParamsSchema,
  TodoViewResultSchema,
} from './todos-schema.js';
import {
  TrackAddParamsSchema,
  TrackAddResultSchema,
  TrackArchiveParamsSchema,
  TrackArchiveResultSchema,
  TrackExpandParamsSchema,
  TrackExpandResultSchema,
  TrackListParamsSchema,
  TrackListResultSchema,
} from './tracks-schema.js';

export const TRACK_METHODS = {
  'memory.skill.list': spec({
    summary: 'Procedures with their stage, risk, confidence and how many sessions vouch for them.',
    params: SkillListParamsSchema,
    result: SkillListResultSchema,
    access: 'read',
    owner: 'param',
  }),
  'memory.skill.get': spec({
    summary:
      'A procedure as a checklist to compare with the situation (never instructions), with its evidence.',
    params: SkillGetParamsSchema,
    result: SkillGetResultSchema,
    access: 'read',
    owner: 'param',
  }),
  'memory.skill.set_status': spec({
    summary:
      'Activate or deprecate a procedure; a high-risk, draft or unvalidated one needs a user event approving it.',
    params: SkillSetStatusParamsSchema,
    result: SkillSetStatusResultSchema,
    access: 'write',
    owner: 'param',
  }),
  'memory.skill.follow': spec({
    summary: "A session follows a procedure: that session's later tool and task results raise or lower it.",
    params: SkillFollowParamsSchema,
    result: SkillFollowResultSchema,
    access: 'write',
    owner: 'param',
  }),
  'memory.track.add': spec({
    summary: 'Write an entry into a track (memory, user, project, daily); the same text again adds nothing.',
    params: TrackAddParamsSchema,
    result: TrackAddResultSchema,
    access: 'write',
    owner: 'param',
    mcp: 'remember',
  }),
  'memory.track.list': spec({
    summary: "A track's entries, newest first, a page at a time; archived ones with include_archived.",
    params: TrackListParamsSchema,
    result: TrackListResultSchema,
    access: 'read',
    owner: 'param',
  }),
  'memory.track.expand': spec({
    summary: 'One track entry in full, with the events it cites.',
    params: TrackExpandParamsSchema,
    result: TrackExpandResultSchema,
    access: 'read',
    owner: 'param',
  }),
  'memory.track.archive': spec({
    summary:
      "Move a track's oldest entries beyond its budget out of it (never dropped); a dry run by default.",
    params: TrackArchiveParamsSchema,
    result: TrackArchiveResultSchema,
    access: 'write',
    owner: 'param',
  }),
  'memory.todo.add': spec({
    summary: 'Add a todo to a track (life, work, project, daily); an open one of the same title is answered.',
    params: TodoAddParamsSchema,
    result: TodoAddResultSchema,
    access: 'write',
    owner: 'param',
    mcp: 'todo',
  }),
  'memory.todo.update': spec({
    summary: "Change a todo's status (open, done, dropped), title or due: a new revision.",
    params: TodoUpdateParamsSchema,
    result: TodoUpdateResultSchema,
    access: 'write',
    owner: 'param',
  }),
  'memory.todo.list': spec({
    summary: 'Todos by track and status, overdue first, then due soonest, then most recently touched.',
    params: TodoListParamsSchema,
    result: TodoListResultSchema,
    access: 'read',
    owner: 'param',
  }),
  'memory.todo.view': spec({
    summary:
      'The smart view: at most 8 open todos, overdue first, then due soonest, then most recently touched.',
    params: TodoViewParamsSchema,
    result: TodoViewResultSchema,
    access: 'read',
    owner: 'param',
  }),
  'memory.suggest': spec({
    summary: 'Propose a track entry for a person to approve (the only way into the key track).',
    params: SuggestParamsSchema,
    result: SuggestResultSchema,
    access: 'write',
    owner: 'param',
    mcp: 'suggest',
  }),
  'memory.suggestions.list': spec({
    summary: 'Suggestions, newest first, by status (pending, approved, rejected) and track.',
    params: SuggestionsListParamsSchema,
    result: SuggestionsListResultSchema,
    access: 'read',
    owner: 'param',
  }),
  'memory.suggestions.decide': spec({
    summary: 'Approve (publish into its track, the approver recorded) or reject a suggestion, once.',
    params: SuggestionsDecideParamsSchema,
    result: SuggestionsDecideResultSchema,
    access: 'write',
    owner: 'param',
  }),
} as const;
