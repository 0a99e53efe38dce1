// Params and results of the token methods, and what an owner pattern may be.
import { z } from 'zod';

/** At most this many patterns per token. */
export const MAX_PATTERNS = 100;

/**
 * An exact owner (`user:alice`) or a prefix (`team:acme/*`: every owner starting with `team:acme/`).
 * invariant: a token never acts for every owner: `*` and an empty prefix (`/*`) are refused, and `*`
 * appears nowhere but in a final `/*` (test: src/tokens/tokens.test.ts "refuses patterns…").
 */
export const OwnerPatternSchema = z
  .string()
  .trim()
  .min(1, 'an owner pattern must not be empty')
  .max(202, 'an owner pattern is at most 202 characters')
  .refine((p) => !p.slice(0, p.endsWith('/*') ? -2 : undefined).includes('*'), {
    error:
      'an owner pattern is an exact owner or a prefix ending in /* (e.g. team:acme/*); * alone is refused',
  })
  .refine((p) => p !== '/*', { error: 'a prefix pattern needs a prefix before /* (e.g. team:acme/*)' });

export const TokenCreateParamsSchema = z.object({
  owners: z
    .array(OwnerPatternSchema)
    .min(1, 'a token needs at least one owner pattern')
    .max(MAX_PATTERNS, `a token has at most ${MAX_PATTERNS} owner patterns`),
  name: z.string().trim().min(1).max(100).optional(),
});
export type TokenCreateParams = z.output<typeof TokenCreateParamsSchema>;

export const TokenInfoSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  owners: z.array(z.string()),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
});
export type TokenInfo = z.infer<typeof TokenInfoSchema>;

/** The only answer that carries the token itself. */
export const TokenCreateResultSchema = TokenInfoSchema.extend({ token: z.string() });

export const TokenListParamsSchema = z.object({});
export const TokenListResultSchema = z.object({ tokens: z.array(TokenInfoSchema) });

export const TokenRevokeParamsSchema = z.object({ id: z.string().trim().min(1).max(100) });
export const TokenRevokeResultSchema = TokenInfoSchema;
