// What hosts, people and observers write into objects passes redaction before it is stored; a
// credential_ref holding a credential value (rather than where the credential lives) is refused instead.
import type { RedactionType, Redactor } from '../text/redact.js';
import type { ObjectType } from './objects.js';

/** Findings that are credential values; personal identifiers (e-mail, phone, ID) are only redacted. */
const CREDENTIAL_TYPES: ReadonlySet<RedactionType> = new Set<RedactionType>([
  'api_key',
  'private_key',
  'password',
  'jwt',
  'token',
  'secret',
  'card_number',
]);

export interface RedactableObject {
  type: ObjectType;
  name: string;
  aliases: readonly string[];
  body?: string | undefined;
}

export interface CredentialIssue {
  path: string;
  message: string;
}

/**
 * The objects with name, aliases and body redacted, and where a credential_ref holds a credential value.
 * invariant: no credential_ref stores a credential value, and every other object's texts are stored redacted
 * (test: src/knowledge/chain.test.ts "refuses a credential value…", "redacts a secret in a body").
 */
export async function redactObjects<T extends RedactableObject>(
  redactor: Redactor,
  objects: readonly T[],
  path = 'objects',
): Promise<{ objects: T[]; refused: CredentialIssue[] }> {
  const fields = objects.map((o) => [
    { at: 'name', text: o.name },
    ...o.aliases.map((text, j) => ({ at: `aliases.${j}`, text })),
    ...(o.body === undefined ? [] : [{ at: 'body', text: o.body }]),
  ]);
  const results = await redactor.redactMany(fields.flat().map((f) => f.text));
  const refused: CredentialIssue[] = [];
  let k = 0;
  const redacted = objects.map((o, i) => {
    const own = (fields[i] ?? []).map((f) => ({ ...f, result: results[k++] }));
    const text = (at: string): string => own.find((f) => f.at === at)?.result?.text ?? '';
    if (o.type === 'credential_ref') {
      for (const f of own) {
        const kinds = (f.result?.findings ?? []).map((x) => x.type).filter((t) => CREDENTIAL_TYPES.has(t));
        if (kinds.length > 0) {
          refused.push({
            path: `${path}.${i}.${f.at}`,
            message: `a credential_ref names where a credential lives, never its value (found: ${[...new Set(kinds)].join(', ')})`,
          });
        }
      }
    }
    return {
      ...o,
      name: text('name'),
      aliases: o.aliases.map((_, j) => text(`aliases.${j}`)),
      ...(o.body === undefined ? {} : { body: text('body') }),
    };
  });
  return { objects: redacted, refused };
}
