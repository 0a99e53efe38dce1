// A host's or person's direct write cites a source too: first it is stored as a `note` event through the
// normal ingest path (validation, redaction, index), then what it writes cites that event.
import { randomUUID } from 'node:crypto';
import { MemoryError } from '../errors.js';
import { ingestEvents, type IngestDeps } from '../ingest/ingest.js';
import { MAX_EVENT_TEXT } from '../ingest/schema.js';

const WRITE_PREFIX = 'write:';

/** Whether an event is the note of a direct write: what the write stored is in memory already. */
export const isWriteNote = (e: { event_id: string; kind: string }): boolean =>
  e.kind === 'note' && e.event_id.startsWith(WRITE_PREFIX);

export interface NoteDeps extends IngestDeps {
  now: () => number;
}

/** Stores the note (role `user` when a person wrote it, `system` for a host); answers its event id. */
export async function writeNote(
  deps: NoteDeps,
  owner: string,
  text: string,
  role: 'user' | 'system' = 'system',
): Promise<string> {
  const eventId = `${WRITE_PREFIX}${randomUUID()}`;
  const out = await ingestEvents(deps, owner, [
    { event_id: eventId, kind: 'note', role, at: deps.now(), text: text.slice(0, MAX_EVENT_TEXT) },
  ]);
  const rejected = out.rejected[0];
  if (rejected) throw new MemoryError('INVALID_PARAMS', `the write's note was refused: ${rejected.message}`);
  return eventId;
}
