// The bounded snapshot's renderer: sections of entries → Markdown within each section's byte and entry caps.
// Pure and deterministic: the same entries give the same bytes (no time, no randomness).
import { quoteAsData } from './safety-quote.js';

/** Where a section's entries come from, and its caps (the seed's): bytes of its body and entries. */
export const SNAPSHOT_SECTIONS = [
  { key: 'user', title: 'USER', bytes: 4_096, entries: 8 },
  { key: 'memory', title: 'MEMORY', bytes: 2_048, entries: 8 },
  { key: 'key', title: 'KEY', bytes: 6_144, entries: 12 },
  { key: 'project_context', title: 'Project Context', bytes: 1_024, entries: 4, chars: 600 },
  { key: 'recent_daily', title: 'Recent Daily', bytes: 512, entries: 2 },
] as const;
export type SectionKey = (typeof SNAPSHOT_SECTIONS)[number]['key'];
export interface SectionCaps {
  bytes: number;
  entries: number;
  /** Characters an entry keeps at most (Project Context). */
  chars?: number;
}

export type Exclusion = 'unsafe' | 'entries' | 'budget';

export interface SnapshotEntry {
  id: string;
  text: string;
  /** A short form the entry was tagged with: what it shrinks to when it does not fit whole. */
  summary: string | null;
  /** Excluded before rendering (the safety gate suppressed it). */
  excluded?: Exclusion;
  /** Passed as quoted data (the safety gate's marker). */
  quoted?: boolean;
}

export interface SectionStats {
  key: SectionKey;
  title: string;
  bytes: number;
  entries: number;
  excluded: number;
  quoted: number;
  cap_bytes: number;
  cap_entries: number;
  exclusions: Array<{ id: string; reason: Exclusion }>;
}

export const TRUNCATED = '…[truncated]';
const HEAD_CHARS = 80;
const enc = new TextEncoder();
export const byteLength = (s: string): number => enc.encode(s).length;

/** Runs of two or more braces become one: no entry reaches a host's prompt template as `{{name}}`. */
export const collapseBraces = (s: string): string => s.replace(/\{{2,}/g, '{').replace(/\}{2,}/g, '}');

/**
 * The longest prefix of `text` (whole code points) whose form, cut with the marker, fits `max` bytes:
 * a quoted entry is cut inside its quote, so its closing marker is never lost.
 */
export function cutToFit(text: string, max: number, form: (t: string) => string): string {
  const chars = [...text];
  const at = (k: number) => form(chars.slice(0, k).join('') + TRUNCATED);
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (byteLength(at(mid)) <= max) lo = mid;
    else hi = mid - 1;
  }
  return at(lo);
}

const cutToChars = (s: string, max: number): string => {
  const chars = [...s];
  return chars.length <= max ? s : chars.slice(0, max - [...TRUNCATED].length).join('') + TRUNCATED;
};

/** A list item; continuation lines are indented so the item stays one. */
const lineOf = (text: string): string => `- ${text.replace(/\r\n?/g, '\n').replace(/\n/g, '\n  ')}`;

function summaryForm(text: string, summary: string): string {
  const first = text.split(/\r?\n/)[0] ?? '';
  const chars = [...first];
  const head = chars.length > HEAD_CHARS ? `${chars.slice(0, HEAD_CHARS).join('')}…` : first;
  return `${head} [summary:${summary}]`;
}

/**
 * invariant: a section's body never exceeds its byte cap nor its entry cap, and its first entry (the
 * newest, or the best ranked) is always kept — cut with …[truncated] when nothing shorter fits (test:
 * src/inject/snapshot-render.test.ts "renderSection caps").
 */
export function renderSection(
  entries: readonly SnapshotEntry[],
  caps: SectionCaps,
): { lines: string[]; exclusions: SectionStats['exclusions']; quoted: number } {
  const lines: string[] = [];
  const exclusions: SectionStats['exclusions'] = [];
  let used = 0;
  let quoted = 0;
  for (const e of entries) {
    if (e.excluded) {
      exclusions.push({ id: e.id, reason: e.excluded });
      continue;
    }
    if (lines.length >= caps.entries) {
      exclusions.push({ id: e.id, reason: 'entries' });
      continue;
    }
    const room = caps.bytes - used - (lines.length > 0 ? 1 : 0);
    const form = (t: string) => lineOf(e.quoted ? quoteAsData(t) : t);
    let text = collapseBraces(e.text);
    if (caps.chars !== undefined) text = cutToChars(text, caps.chars);
    const summary = e.summary === null || e.quoted ? null : collapseBraces(e.summary);
    let line = form(text);
    // An untagged entry over twice the cap is never kept whole, wherever it stands.
    if (summary === null && byteLength(line) > 2 * caps.bytes) line = cutToFit(text, caps.bytes, form);
    if (byteLength(line) > room && summary !== null) line = form(summaryForm(text, summary));
    if (byteLength(line) > room) {
      if (lines.length > 0) {
        exclusions.push({ id: e.id, reason: 'budget' });
        continue;
      }
      line = summary === null ? cutToFit(text, room, form) : cutToFit(summaryForm(text, summary), room, form);
    }
    lines.push(line);
    used += byteLength(line) + (lines.length > 1 ? 1 : 0);
    if (e.quoted) quoted++;
  }
  return { lines, exclusions, quoted };
}

export interface RenderedSnapshot {
  text: string;
  bytes: number;
  sections: SectionStats[];
}

export const SNAPSHOT_TITLE = '# Memory snapshot';
export const SNAPSHOT_EMPTY = '(no memory yet)';

/**
 * The whole snapshot: the title, each section that kept an entry, then the backlog notice if any.
 * invariant: the same entries give the same bytes — nothing here reads a clock (test:
 * src/inject/snapshot.test.ts "gives the same bytes for the same state…").
 */
export function renderSnapshot(
  input: Readonly<Record<SectionKey, readonly SnapshotEntry[]>>,
  notice: string | null,
): RenderedSnapshot {
  const parts: string[] = [SNAPSHOT_TITLE];
  const sections = SNAPSHOT_SECTIONS.map((s): SectionStats => {
    const out = renderSection(input[s.key], s);
    const body = out.lines.join('\n');
    if (out.lines.length > 0) parts.push(`## ${s.title}\n${body}`);
    return {
      key: s.key,
      title: s.title,
      bytes: byteLength(body),
      entries: out.lines.length,
      excluded: out.exclusions.length,
      quoted: out.quoted,
      cap_bytes: s.bytes,
      cap_entries: s.entries,
      exclusions: out.exclusions,
    };
  });
  if (parts.length === 1) parts.push(SNAPSHOT_EMPTY);
  if (notice !== null) parts.push(notice);
  const text = `${parts.join('\n\n')}\n`;
  return { text, bytes: byteLength(text), sections };
}
