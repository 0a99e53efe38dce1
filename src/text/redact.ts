// Redaction: secrets and personal identifiers become typed markers before anything is stored or indexed.
import { createHmac } from 'node:crypto';
import { scanCommands } from './redact-commands.js';
import { scanCredentials } from './redact-credentials.js';
import { scanIdentifiers } from './redact-identifiers.js';
import { scanPemBodies } from './redact-pem.js';
import { needsSecretlint, scanWithSecretlint } from './redact-secretlint.js';

export type RedactionType =
  | 'api_key'
  | 'private_key'
  | 'password'
  | 'jwt'
  | 'card_number'
  | 'phone'
  | 'email'
  | 'id_number'
  | 'token'
  | 'secret';

export interface RedactOptions {
  /** Redact e-mail addresses. Default true. */
  emails?: boolean;
  /** Key of the HMAC that fingerprints each finding. Default '' (unsalted). */
  salt?: string;
}

/** One replaced span. `start`/`end` are UTF-16 offsets into the original text; `hash` never reveals the value. */
export interface RedactionFinding {
  type: RedactionType;
  rule: string;
  start: number;
  end: number;
  hash: string;
}

export interface RedactResult {
  text: string;
  redacted: boolean;
  findings: RedactionFinding[];
}

/**
 * `lead`: words standing before the text (a meta key such as `phone`), read as context by the rules that need
 * some (phone, card and old ID numbers) and never redacted or returned.
 */
export interface Redactor {
  redact(text: string, lead?: string): Promise<RedactResult>;
  redactMany(texts: readonly string[], leads?: readonly (string | undefined)[]): Promise<RedactResult[]>;
}

/** A rule's match before overlaps are merged; on equal spans the lower `priority` names the finding. */
export interface RedactionSpan {
  type: RedactionType;
  rule: string;
  start: number;
  end: number;
  priority: number;
}

export function createRedactor(options: RedactOptions = {}): Redactor {
  const emails = options.emails ?? true;
  const salt = options.salt ?? '';

  // invariant: every secret of the corpus in test/fixtures/redaction/secrets.ts is found, as text or as meta, so
  // none reaches disk (test: test/redaction.test.ts "no secret reaches disk while the server runs…").
  const scanLocal = (text: string, lead = ''): RedactionSpan[] => {
    const spans: RedactionSpan[] = [];
    scanCredentials(text, spans);
    scanCommands(text, spans);
    scanPemBodies(text, spans);
    scanIdentifiers(text, { emails, lead }, spans);
    return spans;
  };

  const redactSlow = async (text: string, lead?: string): Promise<RedactResult> => {
    const spans = scanLocal(text, lead);
    for (const span of await scanWithSecretlint(text)) spans.push(span);
    return applySpans(text, spans, salt);
  };

  const redact = (text: string, lead?: string): Promise<RedactResult> =>
    needsSecretlint(text)
      ? redactSlow(text, lead)
      : Promise.resolve(applySpans(text, scanLocal(text, lead), salt));

  return {
    redact,
    async redactMany(texts, leads) {
      // Most texts never reach secretlint; only those are awaited.
      const results = new Array<RedactResult>(texts.length);
      const pending: Promise<void>[] = [];
      texts.forEach((text, i) => {
        const lead = leads?.[i];
        if (needsSecretlint(text)) {
          pending.push(redactSlow(text, lead).then((result) => void (results[i] = result)));
        } else {
          results[i] = applySpans(text, scanLocal(text, lead), salt);
        }
      });
      await Promise.all(pending);
      return results;
    },
  };
}

export function redactionMarker(type: RedactionType): string {
  return `[redacted:${type}]`;
}

const MARKER = /\[redacted:[a-z_]+\]/g;

function applySpans(text: string, found: RedactionSpan[], salt: string): RedactResult {
  const spans = found.length > 0 && text.includes('[redacted:') ? outsideMarkers(text, found) : found;
  if (spans.length === 0) return { text, redacted: false, findings: [] };
  const merged = mergeSpans(spans);
  const findings = merged.map((span): RedactionFinding => ({
    type: span.type,
    rule: span.rule,
    start: span.start,
    end: span.end,
    hash: fingerprint(salt, text.slice(span.start, span.end)),
  }));
  const only = merged.length === 1 ? merged[0] : undefined;
  if (only && text.slice(0, only.start).trim() === '' && text.slice(only.end).trim() === '') {
    return { text: redactionMarker(only.type), redacted: true, findings };
  }
  let out = '';
  let at = 0;
  for (const span of merged) {
    out += text.slice(at, span.start) + redactionMarker(span.type);
    at = span.end;
  }
  return { text: out + text.slice(at), redacted: true, findings };
}

// invariant: merged spans are disjoint and cover every character any rule matched, so no part of a secret
// survives (test: "never cuts a secret when a short span starts first").
export function mergeSpans(spans: RedactionSpan[]): RedactionSpan[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end || a.priority - b.priority);
  const merged: RedactionSpan[] = [];
  let group: RedactionSpan | undefined;
  let best: RedactionSpan | undefined;
  for (const span of sorted) {
    if (group && best && span.start < group.end) {
      group.end = Math.max(group.end, span.end);
      if (span.end - span.start > best.end - best.start) best = span;
      continue;
    }
    if (group && best) merged.push({ ...best, start: group.start, end: group.end });
    group = { ...span };
    best = span;
  }
  if (group && best) merged.push({ ...best, start: group.start, end: group.end });
  return merged;
}

// invariant: a marker already in the text is never redacted again (`password=[redacted:password]`)
// (test: "is idempotent").
function outsideMarkers(text: string, spans: RedactionSpan[]): RedactionSpan[] {
  const markers = [...text.matchAll(MARKER)].map((m) => [m.index, m.index + m[0].length] as const);
  return spans.filter((span) => !markers.some(([start, end]) => span.start >= start && span.end <= end));
}

function fingerprint(salt: string, value: string): string {
  return createHmac('sha256', salt).update(value).digest('hex').slice(0, 16);
}
