// Several embedding workers on one store (as several processes on one PostgreSQL database): each owner's
// batch is leased to one of them, an owner that keeps writing does not starve the others, and a worker
// that lost its lease writes nothing. On SQLite and on PGlite + pgvector; concurrent claims from two
// connections are in src/embed/store.test.ts (the real server).
import { describe, expect, it } from 'vitest';
import type { EmbeddingProvider } from '../../src/embed/embed.js';
import {
  ALICE,
  BOB,
  drain,
  embeddings,
  health,
  ingest,
  open,
  storedVectors,
  T0,
  useVectorEngine,
  VECTOR_ENGINES,
  workerOf,
} from './harness.js';

/** Waits until `check` holds; the deadline only bounds a hang, it does not time the work. */
async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The provider, held at the start of each call until `release()`. */
function gated(provider: EmbeddingProvider) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let entered!: () => void;
  const inCall = new Promise<void>((resolve) => (entered = resolve));
  const slow: EmbeddingProvider = {
    id: provider.id,
    dimensions: provider.dimensions,
    async embed(texts, options) {
      entered();
      await gate;
      return provider.embed(texts, options);
    },
  };
  return { provider: slow, inCall, release };
}

describe.each(VECTOR_ENGINES)('on %s', (engine) => {
  useVectorEngine(engine);

  it("leases an owner's batch to one worker at a time; another worker takes another owner", async () => {
    const svc = await open();
    await ingest('alice', ALICE);
    await ingest('bob', BOB);
    const a = workerOf(svc, { batchSize: ALICE.length });
    const b = workerOf(svc);
    expect(await a.runOnce()).toMatchObject({ outcome: 'reset' });
    embeddings.push({ hang: true });
    // Alice's six documents fill a's batch; bob, leased with her, is given back before the call.
    const first = a.runOnce();
    await until(() => embeddings.requests.length === 1);
    expect(embeddings.requests[0]?.body.input).toHaveLength(ALICE.length);
    expect(await b.runOnce()).toEqual({ outcome: 'embedded', docs: 1, vectors: 1 });
    expect(embeddings.requests[1]?.body.input).toEqual([BOB[0]?.text]);
    // Alice is a's until its call ends: b does not embed her documents again.
    expect(await b.runOnce()).toEqual({ outcome: 'idle' });
    expect(embeddings.requests).toHaveLength(2);
    // a stops in its call: it writes nothing and gives alice back at once.
    await a.stop();
    expect(await first).toEqual({ outcome: 'stopped' });
    expect(await drain(b)).toEqual([
      { outcome: 'embedded', docs: ALICE.length, vectors: ALICE.length },
      { outcome: 'idle' },
    ]);
    expect((await health()).embedding).toMatchObject({ embedded: ALICE.length + 1, pending: 0 });
  });

  it('a worker whose lease ran out during its call writes nothing; the one that took over does', async () => {
    const svc = await open();
    await ingest('alice', ALICE);
    let clock = T0;
    const now = () => clock;
    const slow = gated(svc.embedding?.provider as EmbeddingProvider);
    const a = workerOf(svc, { provider: slow.provider, now, leaseMs: 1_000 });
    const b = workerOf(svc, { now, leaseMs: 1_000 });
    expect(await b.runOnce()).toMatchObject({ outcome: 'reset' });
    const first = a.runOnce();
    await slow.inCall;
    expect(await b.runOnce()).toEqual({ outcome: 'idle' });
    clock += 1_000; // a looks dead: its lease has run out
    expect(await b.runOnce()).toEqual({ outcome: 'embedded', docs: ALICE.length, vectors: ALICE.length });
    slow.release();
    // a's answer comes back after b committed: its lease is gone, so nothing is written twice.
    expect(await first).toEqual({ outcome: 'embedded', docs: 0, vectors: 0 });
    expect(await storedVectors()).toBe(ALICE.length);
    expect((await health()).embedding).toMatchObject({ embedded: ALICE.length, pending: 0 });
  });

  it('takes the owner furthest behind first, so an owner that keeps writing starves no one', async () => {
    const svc = await open();
    await ingest('alice', ALICE);
    await ingest('bob', BOB);
    const worker = workerOf(svc, { batchSize: 2 });
    expect(await worker.runOnce()).toMatchObject({ outcome: 'reset' });
    expect(await worker.runOnce()).toEqual({ outcome: 'embedded', docs: 2, vectors: 2 });
    expect((await health()).embedding).toMatchObject({ embedded: 2, pending: ALICE.length - 2 + 1 });
    // Bob's cursor is behind alice's now: his document comes first, then alice's next one.
    expect(await worker.runOnce()).toEqual({ outcome: 'embedded', docs: 2, vectors: 2 });
    expect(embeddings.requests[1]?.body.input).toEqual([BOB[0]?.text, ALICE[2]?.text]);
    await drain(worker);
    expect((await health()).embedding).toMatchObject({ embedded: ALICE.length + 1, pending: 0 });
  });
});
