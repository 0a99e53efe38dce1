// The core documents SOUL, USER, AGENTS: a first import, updates against an expected revision, every
// version kept, credentials refused, and the editable files kept in step with the database.
import { createHash } from 'node:crypto';
import { MemoryError } from '../errors.js';
import type { Driver } from '../storage/driver.js';
import type { Redactor, RedactionType } from '../text/redact.js';
import { normalizeText, type CoreFiles } from './core-files.js';
import { CORE_DOC_CHARS, CORE_DOCS, type CoreDoc } from './schema-chain.js';
import {
  coreConflicts,
  coreDoc,
  coreDocs,
  coreVersions,
  insertConflict,
  writeRevision,
  type ConflictRow,
  type DocRow,
} from './store-core.js';
import type { CoreDocView } from './schema-chain.js';

export interface CoreDeps {
  driver: Driver;
  redactor: Redactor;
  files: CoreFiles;
  now(): number;
}

/** Findings that are credentials: refused. Personal identifiers (phones, e-mail, IDs) are stored redacted. */
const CREDENTIALS: ReadonlySet<RedactionType> = new Set([
  'api_key',
  'private_key',
  'password',
  'jwt',
  'token',
  'secret',
  'card_number',
]);

type Checked = { ok: true; text: string; redacted: boolean } | { ok: false; reason: string; text: string };

/** invariant: no credential is stored in a core document, in any version or conflict (test: test/organize/core.test.ts). */
async function checkText(redactor: Redactor, raw: string): Promise<Checked> {
  const text = normalizeText(raw);
  const found = await redactor.redact(text);
  const credentials = [...new Set(found.findings.filter((f) => CREDENTIALS.has(f.type)).map((f) => f.type))];
  if (credentials.length > 0)
    return { ok: false, reason: `a credential value (${credentials.join(', ')})`, text: found.text };
  if ([...found.text].length > CORE_DOC_CHARS)
    return { ok: false, reason: `longer than ${CORE_DOC_CHARS} characters`, text: found.text };
  return { ok: true, text: found.text, redacted: found.redacted };
}

const refused = (doc: CoreDoc, reason: string) =>
  new MemoryError(
    'CREDENTIAL_VALUE_REFUSED',
    `${doc} holds ${reason}; store a reference to where it is kept instead`,
    {
      doc,
    },
  );

const coreLock = (owner: string) => `core:${owner}`;

export async function bootstrapCore(deps: CoreDeps, owner: string, docs: Partial<Record<CoreDoc, string>>) {
  await syncCoreFiles(deps, owner);
  const given = CORE_DOCS.filter((d) => docs[d] !== undefined);
  const texts = new Map<CoreDoc, string>();
  for (const doc of given) {
    const checked = await checkText(deps.redactor, docs[doc] ?? '');
    if (!checked.ok) throw refused(doc, checked.reason);
    texts.set(doc, checked.text);
  }
  return deps.files.exclusive(owner, async () => {
    const now = deps.now();
    const result = await deps.driver.transaction(async (tx) => {
      await tx.lockOwner(coreLock(owner));
      const existing = await coreDocs(tx, owner, true);
      if (existing.length > 0) return { imported: false, docs: existing };
      for (const [doc, text] of texts)
        await writeRevision(tx, { owner, doc, revision: 1, text, source: 'bootstrap', now });
      return {
        imported: true,
        docs: [...texts].map(([doc, text]) => ({ doc, revision: 1, text, updated_at: now })),
      };
    });
    if (result.imported) for (const d of result.docs) deps.files.write(owner, d.doc, d.revision, d.text);
    return {
      imported: result.imported,
      docs: result.docs.map((d) => ({ doc: d.doc, revision: d.revision })),
      message: result.imported
        ? `imported ${result.docs.length} core document(s)`
        : 'the core documents were imported before; bootstrap changed nothing (use memory.chain.core.update)',
    };
  });
}

export async function updateCore(
  deps: CoreDeps,
  p: { owner: string; doc: CoreDoc; text: string; expected_revision: number },
): Promise<{ doc: CoreDoc; revision: number; redacted: boolean }> {
  await syncCoreFiles(deps, p.owner);
  const checked = await checkText(deps.redactor, p.text);
  if (!checked.ok) throw refused(p.doc, checked.reason);
  return deps.files.exclusive(p.owner, async () => {
    const now = deps.now();
    const revision = await deps.driver.transaction(async (tx) => {
      await tx.lockOwner(coreLock(p.owner));
      const current = (await coreDoc(tx, p.owner, p.doc, true))?.revision ?? 0;
      // invariant: a stale expected_revision changes nothing (test: test/organize/core.test.ts "REVISION_CONFLICT…").
      if (current !== p.expected_revision) {
        throw new MemoryError(
          'REVISION_CONFLICT',
          `${p.doc} is at revision ${current}, not ${p.expected_revision}`,
          {
            doc: p.doc,
            expected_revision: p.expected_revision,
            current_revision: current,
          },
        );
      }
      await writeRevision(tx, {
        owner: p.owner,
        doc: p.doc,
        revision: current + 1,
        text: checked.text,
        source: 'update',
        now,
      });
      return current + 1;
    });
    deps.files.write(p.owner, p.doc, revision, checked.text);
    return { doc: p.doc, revision, redacted: checked.redacted };
  });
}

const digestOf = (doc: CoreDoc, base: number | null, text: string) =>
  createHash('sha256')
    .update(`${doc}\n${base ?? ''}\n${text}`)
    .digest('hex');

/**
 * Picks up edits of the owner's core files: an edit of the current revision becomes the next revision; one
 * made against an older revision (or refused) is kept as a conflict and the file shows the database's
 * version again. invariant: a file edit never replaces a newer revision silently (test:
 * test/organize/core.test.ts "an edit against an old revision becomes a conflict…").
 */
export async function syncCoreFiles(deps: CoreDeps, owner: string): Promise<void> {
  await deps.files.exclusive(owner, async () => {
    const current = new Map((await coreDocs(deps.driver, owner)).map((d) => [d.doc, d]));
    for (const doc of CORE_DOCS) await syncOne(deps, owner, doc, current.get(doc));
  });
}

async function syncOne(
  deps: CoreDeps,
  owner: string,
  doc: CoreDoc,
  current: DocRow | undefined,
): Promise<void> {
  const file = deps.files.read(owner, doc);
  if (!file) {
    if (current) deps.files.write(owner, doc, current.revision, current.text);
    return;
  }
  if (current && file.text === normalizeText(current.text)) {
    if (file.revision !== current.revision) deps.files.write(owner, doc, current.revision, current.text);
    return;
  }
  if (!current && file.text === '') return;
  const base = file.revision ?? 0;
  const revision = current?.revision ?? 0;
  const checked = await checkText(deps.redactor, file.text);
  const now = deps.now();
  const applied =
    checked.ok && base === revision
      ? await deps.driver.transaction(async (tx) => {
          await tx.lockOwner(coreLock(owner));
          if (((await coreDoc(tx, owner, doc, true))?.revision ?? 0) !== revision) return false;
          await writeRevision(tx, {
            owner,
            doc,
            revision: revision + 1,
            text: checked.text,
            source: 'file',
            now,
          });
          return true;
        })
      : false;
  if (applied && checked.ok) {
    deps.files.write(owner, doc, revision + 1, checked.text);
    return;
  }
  const reason = !checked.ok
    ? `refused: ${checked.reason}`
    : `edited against revision ${file.revision ?? 'none'}, the current one is ${revision}`;
  const conflict = {
    owner,
    doc,
    baseRevision: file.revision,
    currentRevision: revision,
    reason,
    text: checked.text,
  };
  await deps.driver.transaction((tx) =>
    insertConflict(tx, { ...conflict, digest: digestOf(doc, file.revision, checked.text), now }),
  );
  const latest = await coreDoc(deps.driver, owner, doc);
  if (latest) deps.files.write(owner, doc, latest.revision, latest.text);
  else deps.files.remove(owner, doc);
}

const iso = (ms: number) => new Date(ms).toISOString();

export const conflictView = (c: ConflictRow) => ({
  conflict_id: c.conflict_id,
  owner: c.owner,
  doc: c.doc,
  base_revision: c.base_revision,
  current_revision: c.current_revision,
  reason: c.reason,
  text: c.text,
  at: iso(c.created_at),
});

export async function getCore(
  deps: CoreDeps,
  p: { owner: string; doc?: CoreDoc | undefined; history: boolean },
) {
  await syncCoreFiles(deps, p.owner);
  const docs = (await coreDocs(deps.driver, p.owner)).filter((d) => p.doc === undefined || d.doc === p.doc);
  const views: CoreDocView[] = [];
  for (const doc of CORE_DOCS) {
    const d = docs.find((x) => x.doc === doc);
    if (!d) continue;
    const versions = p.history ? await coreVersions(deps.driver, p.owner, doc) : undefined;
    views.push({
      doc,
      revision: d.revision,
      text: d.text,
      updated_at: iso(d.updated_at),
      ...(versions
        ? {
            versions: versions.map((v) => ({
              revision: v.revision,
              text: v.text,
              source: v.source,
              at: iso(v.created_at),
            })),
          }
        : {}),
    });
  }
  const conflicts = (await coreConflicts(deps.driver, p.owner)).filter(
    (c) => p.doc === undefined || c.doc === p.doc,
  );
  return { docs: views, conflicts: conflicts.map(conflictView) };
}
