// Redaction of an event's meta: every string and number leaf and every key, each read with its key as context.
import { redactionMarker, type Redactor } from './redact.js';
import { isDescriptor, isSecretValue, secretKey, type SecretKey } from './redact-keys.js';

export interface MetaRedaction {
  meta: Record<string, unknown>;
  redacted: boolean;
}

type Node =
  | { kind: 'leaf'; value: unknown }
  | { kind: 'array'; items: Node[] }
  | { kind: 'object'; entries: { name: string; node: Node }[] };

/** A text for the redactor, and what its result replaces. */
interface Job {
  text: string;
  lead: string;
  apply(text: string): void;
}

const PAIR_NAMES = ['name', 'key', 'Name', 'Key'];
const PAIR_VALUES = ['value', 'Value'];

/**
 * A secret is found by its key (`dbPassword: "x"`, `[{name: "API_TOKEN", value: "x"}]`, a child of
 * `secrets: {…}`) or by its value (`phone: 13812345678`, read with `phone` as context); a key that is
 * itself a secret is replaced. Expects meta within the schema's depth limit.
 */
export async function redactMeta(redactor: Redactor, meta: Record<string, unknown>): Promise<MetaRedaction> {
  const jobs: Job[] = [];
  let redacted = false;

  const visit = (value: unknown, key: SecretKey | null, lead: string): Node => {
    if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) {
      const text = String(value);
      // A number under a token key is a count (`token: 12345`); under a password key it is the password.
      if (key && (typeof value === 'string' || key.strength === 'password') && isSecretValue(key, text)) {
        redacted = true;
        return { kind: 'leaf', value: redactionMarker(key.type) };
      }
      const leaf: Node = { kind: 'leaf', value };
      jobs.push({ text, lead, apply: (out) => void (leaf.value = out) });
      return leaf;
    }
    if (Array.isArray(value)) return { kind: 'array', items: value.map((item) => visit(item, key, lead)) };
    if (value === null || typeof value !== 'object') return { kind: 'leaf', value };
    const object = value as Record<string, unknown>;
    const pairName = pairNameOf(object);
    const parent = lead.split(' ').at(-1) ?? '';
    const entries = Object.entries(object).map(([name, child]) => {
      const named = pairName !== undefined && PAIR_VALUES.includes(name) ? pairName : name;
      const childKey = secretKey(named) ?? (isDescriptor(named) ? null : key);
      const entry = { name, node: visit(child, childKey, `${parent} ${named}`.trim()) };
      jobs.push({ text: name, lead: '', apply: (out) => void (entry.name = out) });
      return entry;
    });
    return { kind: 'object', entries };
  };

  const root = visit(meta, null, '');
  const results = await redactor.redactMany(
    jobs.map((job) => job.text),
    jobs.map((job) => job.lead),
  );
  jobs.forEach((job, i) => {
    const result = results[i];
    if (!result?.redacted) return;
    redacted = true;
    job.apply(result.text);
  });
  return { meta: build(root) as Record<string, unknown>, redacted };
}

/** The name of a `{name, value}` / `{key, value}` pair, as env lists and header lists write them. */
function pairNameOf(object: Record<string, unknown>): string | undefined {
  if (!PAIR_VALUES.some((k) => Object.hasOwn(object, k))) return undefined;
  const name = PAIR_NAMES.map((k) => object[k]).find((v) => typeof v === 'string');
  return typeof name === 'string' ? name : undefined;
}

// Keys that redact alike stay apart (`[redacted:phone]`, `[redacted:phone]~2`); fromEntries keeps `__proto__`
// an own key.
function build(node: Node): unknown {
  if (node.kind === 'leaf') return node.value;
  if (node.kind === 'array') return node.items.map(build);
  const seen = new Set<string>();
  return Object.fromEntries(
    node.entries.map(({ name, node: child }) => {
      let unique = name;
      for (let n = 2; seen.has(unique); n++) unique = `${name}~${n}`;
      seen.add(unique);
      return [unique, build(child)];
    }),
  );
}
