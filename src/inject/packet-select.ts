// Rank, dedupe, budget and the safety gate over packet candidates (seed C-05, G-03): pure. Every candidate
// left out has a reason; what is kept fits every budget layer (candidates, items, bytes, tokens).
import { isStopWord, queryTerms } from '../text/tokenize.js';
import { estimateTokens } from '../text/tokens.js';
import type { Candidate } from './packet-candidates.js';
import { distance, exactDigest, semanticDigest } from './packet-digest.js';
import { askUserText, renderPacket } from './packet-render.js';
import type { Dropped, PacketItem, Strength } from './packet-schema.js';
import { scoreSafety } from './safety.js';

export interface Budget {
  /** Candidates looked at, in rank order; the rest are dropped (`budget`). */
  candidates: number;
  items: number;
  bytes: number;
  tokens: number;
}

export interface SeenDigests {
  exact: ReadonlySet<string>;
  semantic: readonly string[];
}

export interface Selection {
  items: PacketItem[];
  dropped: Dropped[];
  /** The rendered packet (header and closing line only when nothing was kept). */
  text: string;
  bytes: number;
  tokens: number;
  strength: Strength;
}

const EMPTY_SIMHASH = '0000000000000000';
/** A packet whose best item holds this share of the query is direct context, else a soft hint. */
const CONTEXT_MATCH = 0.5;

/** Inside one packet: a candidate whose terms a kept item mostly holds adds little (the reverse adds). */
const CONTAINED = 0.8;
const MIN_TERMS = 3;

const near = (digest: string, seen: readonly string[], bits: number): boolean =>
  digest !== EMPTY_SIMHASH && seen.some((s) => s !== EMPTY_SIMHASH && distance(digest, s) <= bits);

const termsOf = (text: string): Set<string> => new Set(queryTerms(text).filter((t) => !isStopWord(t)));

function contained(terms: ReadonlySet<string>, kept: ReadonlyArray<ReadonlySet<string>>): boolean {
  if (terms.size < MIN_TERMS) return false;
  return kept.some((k) => {
    let shared = 0;
    for (const t of terms) if (k.has(t)) shared++;
    return shared / terms.size >= CONTAINED;
  });
}

const sizeOf = (text: string) => ({ bytes: Buffer.byteLength(text), tokens: estimateTokens(text) });

/**
 * invariant: a packet never exceeds its byte or token budget, and every candidate not in it is in `dropped`
 * with one reason (test: src/inject/packet-select.test.ts "keeps every budget…").
 * invariant: memory text that would act as an instruction never reaches a packet as one: suppressed
 * (`injection`) or quoted as data with its marker; a high-risk procedure only as a question for the user
 * (test: src/inject/packet.test.ts "poisoned memory never…").
 */
export function selectItems(
  candidates: readonly Candidate[],
  options: { budget: Budget; seen: SeenDigests; nearBits: number },
): Selection {
  const { budget, nearBits } = options;
  const ranked = [...candidates].sort((a, b) => b.score - a.score);
  const items: PacketItem[] = [];
  const dropped: Dropped[] = [];
  const exact = new Set(options.seen.exact);
  const semantic = [...options.seen.semantic];
  const keptTerms: Array<Set<string>> = [];
  let text = renderPacket([]);
  for (const [rank, c] of ranked.entries()) {
    const drop = (reason: Dropped['reason']) => void dropped.push({ id: c.id, reason });
    if (rank >= budget.candidates) {
      drop('budget');
      continue;
    }
    if (c.state === 'missing') drop('scope');
    else if (c.state !== 'live') drop(c.state);
    if (c.state !== 'live') continue;
    const verdict = scoreSafety({ text: c.text, kind: c.safetyKind, role: c.role });
    if (verdict.action === 'suppress') {
      drop('injection');
      continue;
    }
    const digests = { exact_digest: exactDigest(c.text), semantic_digest: semanticDigest(c.text) };
    const terms = termsOf(c.text);
    if (
      exact.has(digests.exact_digest) ||
      near(digests.semantic_digest, semantic, nearBits) ||
      contained(terms, keptTerms)
    ) {
      drop('duplicate');
      continue;
    }
    if (items.length >= budget.items) {
      drop('budget');
      continue;
    }
    const quoted = c.highRisk || verdict.action === 'quote';
    const item: PacketItem = {
      id: c.id,
      kind: c.kind,
      text: c.highRisk ? askUserText(c.text) : (verdict.quoted ?? c.text),
      quoted,
      ask_user: c.highRisk,
      score: c.score,
      at: c.at,
      sources: c.sources,
      source_seqs: c.sourceSeqs,
      ...digests,
    };
    const next = renderPacket([...items, item]);
    const size = sizeOf(next);
    if (size.bytes > budget.bytes || size.tokens > budget.tokens) {
      drop('budget');
      continue;
    }
    items.push(item);
    exact.add(digests.exact_digest);
    semantic.push(digests.semantic_digest);
    keptTerms.push(terms);
    text = next;
  }
  const top = ranked.find((c) => items[0]?.id === c.id);
  const strength: Strength = items.some((i) => i.ask_user)
    ? 'checklist'
    : (top?.match ?? 0) >= CONTEXT_MATCH
      ? 'context'
      : 'hint';
  return { items, dropped, text, ...sizeOf(text), strength };
}
