// Params and results of the memory.skill.* methods: procedures as checklists, their stages and evidence.
import { z } from 'zod';
import { OwnerSchema } from '../ingest/schema.js';
import { RISK_REASONS, RISKS } from './risk.js';

export const SKILL_STATUSES = [
  'draft',
  'observed',
  'candidate',
  'validated',
  'active',
  'deprecated',
  'revoked',
] as const;
const SkillStatusSchema = z.enum(SKILL_STATUSES);
const IdSchema = z.string().trim().min(1).max(200);

export const SkillSummarySchema = z.object({
  id: z.string(),
  text: z.string(),
  status: SkillStatusSchema,
  risk: z.enum(RISKS),
  confidence: z.number(),
  /** Separate sessions whose evidence vouches for it (two validate it). */
  sessions: z.number().int(),
  at: z.string(),
  approved_by: z.string().nullable(),
});

export const SkillListParamsSchema = z.object({
  owner: OwnerSchema,
  status: SkillStatusSchema.optional(),
  limit: z.number().int().min(1).max(200).default(50),
});
export type SkillListParams = z.output<typeof SkillListParamsSchema>;

export const SkillListResultSchema = z.object({ items: z.array(SkillSummarySchema) });

export const SkillGetParamsSchema = z.object({ owner: OwnerSchema, id: IdSchema });

export const SkillGetResultSchema = SkillSummarySchema.extend({
  /** Says what the checklist is: data to compare with the situation, not an instruction. */
  note: z.string(),
  checklist: z.array(z.string()),
  preconditions: z.array(z.string()),
  checks: z.array(z.string()),
  risk_reasons: z.array(z.enum(RISK_REASONS)),
  approved_event: z.string().nullable(),
  sources: z.array(
    z.object({ event_id: z.string(), role: z.string(), session_id: z.string().nullable(), at: z.string() }),
  ),
  evidence: z.array(
    z.object({
      event_id: z.string(),
      session_id: z.string().nullable(),
      outcome: z.enum(['success', 'failure']),
      via: z.enum(['followed', 'steps']),
      at: z.string(),
    }),
  ),
});

export const SkillSetStatusParamsSchema = z.object({
  owner: OwnerSchema,
  id: IdSchema,
  status: z.enum(['active', 'deprecated']),
  /** Who decides: recorded on the procedure. */
  approved_by: z.string().trim().min(1).max(200),
  /** A user event of this owner that approves it: needed to activate a high-risk, draft or unvalidated one. */
  event_id: IdSchema.optional(),
});
export type SkillSetStatusParams = z.output<typeof SkillSetStatusParamsSchema>;

export const SkillSetStatusResultSchema = z.object({
  id: z.string(),
  status: SkillStatusSchema,
  risk: z.enum(RISKS),
  approved_by: z.string().nullable(),
  approved_event: z.string().nullable(),
});

export const SkillFollowParamsSchema = z.object({
  owner: OwnerSchema,
  id: IdSchema,
  /** The session that follows the procedure: its later tool and task results are evidence for it. */
  session_id: IdSchema,
});
export type SkillFollowParams = z.output<typeof SkillFollowParamsSchema>;

export const SkillFollowResultSchema = z.object({
  id: z.string(),
  session_id: z.string(),
  since: z.string(),
});
