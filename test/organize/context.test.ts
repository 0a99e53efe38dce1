// memory.chain.context: never over either budget (tokens, bytes), for Chinese and English, with the exact
// tokenizer too; what is left out is counted; the newest event is kept (cut if it must be); ready only
// once the first sync is done.
import { afterEach, describe, expect, it } from 'vitest';
import type { ContextResult } from '../../src/organize/organize.js';
import { estimateTokens, loadTokenCounter } from '../../src/text/tokens.js';
import { ENGINES } from '../helpers/engines.js';
import { conversation, openOrganizeFixture, T0, type OrganizeFixture } from './fixture.js';

const TOKENS = [1, 7, 30, 120, 500, 2_000, 9_000, 1_000_000];
const BYTES = [1, 40, 300, 2_000, 32_000, 4_000_000];
const LONG_ZH = '长'.repeat(20_000) + '——结尾';
const LONG_EN = 'long '.repeat(6_000) + 'the end';

describe.each(ENGINES)('chain context on %s', (engine) => {
  let f: OrganizeFixture;
  afterEach(() => f.close());

  const context = (params: Record<string, unknown>) =>
    f.client.call<ContextResult>('memory.chain.context', { owner: 'alice', ...params });

  /** An owner with core documents, nodes on two levels and raw recent events. */
  async function compacted() {
    await f.ingest('alice', conversation(200));
    await f.client.call('memory.chain.core.bootstrap', {
      owner: 'alice',
      docs: {
        SOUL: '你是林若溪的桌面助手，说话简短。',
        USER: 'The user is 林若溪, a product manager in Hangzhou.',
      },
    });
    await f.client.call('memory.organize.request', { owner: 'alice', kind: 'compact' });
    await f.drain();
  }

  async function checkGrid(count: (text: string) => number) {
    const full = await context({ max_tokens: 1_000_000, max_bytes: 4_000_000 });
    const newest = full.events.at(-1)?.event_id;
    for (const max_tokens of TOKENS) {
      for (const max_bytes of BYTES) {
        const r = await context({ max_tokens, max_bytes });
        const where = `${max_tokens} tokens, ${max_bytes} bytes`;
        expect(r.tokens, where).toBeLessThanOrEqual(max_tokens);
        expect(r.bytes, where).toBeLessThanOrEqual(max_bytes);
        expect(r.tokens, where).toBe(count(r.text));
        expect(r.bytes, where).toBe(Buffer.byteLength(r.text, 'utf8'));
        expect(r.nodes.length + r.omitted_nodes, where).toBe(full.nodes.length);
        expect(r.events.length + r.omitted_events, where).toBe(full.events.length);
        expect(r.truncated, where).toBe(
          r.omitted_nodes + r.omitted_events + r.omitted_core > 0 || r.events.some((e) => e.truncated),
        );
        if (r.events.length > 0)
          expect(r.events.at(-1)?.event_id, `${where}: the newest event is kept`).toBe(newest);
      }
    }
  }

  it('never exceeds either budget, Chinese or English, and counts what it leaves out', async () => {
    f = await openOrganizeFixture(engine);
    await compacted();
    const full = await context({ max_tokens: 1_000_000, max_bytes: 4_000_000 });
    expect(full).toMatchObject({
      ready: true,
      truncated: false,
      omitted_nodes: 0,
      omitted_events: 0,
      tokenizer: 'portable-v1',
    });
    expect(full.core.map((c) => c.doc)).toEqual(['SOUL', 'USER']);
    expect(full.nodes.length).toBeGreaterThan(1);
    expect(full.text).toContain('## Timeline');
    await checkGrid(estimateTokens);
    const small = await context({ max_tokens: 300, max_bytes: 32_000 });
    expect(small.truncated).toBe(true);
    expect(small.text).toMatch(/…\[\d+ earlier node\(s\) and \d+ earlier event\(s\) omitted\]/);
  });

  it('holds with the exact tokenizer as well', async () => {
    f = await openOrganizeFixture(engine, { config: { tokenizer: 'exact' } });
    await compacted();
    const exact = await loadTokenCounter('exact');
    expect((await context({ max_tokens: 100, max_bytes: 1_000 })).tokenizer).toBe('o200k_base');
    await checkGrid((text) => exact.count(text));
  });

  it('cuts the newest event to fit rather than leave it out, in Chinese and in English', async () => {
    f = await openOrganizeFixture(engine);
    for (const [owner, text] of [
      ['zh', LONG_ZH],
      ['en', LONG_EN],
    ] as const) {
      await f.ingest(owner, [{ event_id: 'big', kind: 'tool_result', role: 'tool', at: T0, text }]);
      for (const [max_tokens, max_bytes] of [
        [100, 32_000],
        [5_000, 300],
        [2_000, 2_000],
      ] as const) {
        const r = await f.client.call<ContextResult>('memory.chain.context', {
          owner,
          max_tokens,
          max_bytes,
        });
        expect(r.tokens).toBeLessThanOrEqual(max_tokens);
        expect(r.bytes).toBeLessThanOrEqual(max_bytes);
        expect(r.events).toHaveLength(1);
        expect(r.events[0]).toMatchObject({ event_id: 'big', truncated: true });
        expect(r.events[0]?.text.endsWith('…[truncated]')).toBe(true);
        expect(text.startsWith(r.events[0]?.text.slice(0, -'…[truncated]'.length) ?? 'x')).toBe(true);
        expect(r.truncated).toBe(true);
      }
    }
  });

  it('narrows to one session: its events and the nodes covering some of them', async () => {
    f = await openOrganizeFixture(engine);
    await compacted();
    const r = await context({ session_id: 's4', max_tokens: 1_000_000, max_bytes: 4_000_000 });
    expect(r.events.length).toBeGreaterThan(0);
    expect(new Set(r.events.map((e) => e.session_id))).toEqual(new Set(['s4']));
    const all = await context({ max_tokens: 1_000_000, max_bytes: 4_000_000 });
    expect(r.nodes.length).toBeLessThan(all.nodes.length);
  });

  it('is not ready while a backlog above the threshold waits for its first compaction', async () => {
    f = await openOrganizeFixture(engine);
    await f.ingest('alice', conversation(400));
    const before = await context({ max_tokens: 2_000 });
    expect(before).toMatchObject({ ready: false, truncated: true });
    expect(before.events.length).toBeGreaterThan(0);
    await f.organize.tick();
    await f.drain();
    expect((await context({ max_tokens: 2_000 })).ready).toBe(true);
    // Once synced, a later burst above the threshold does not make it unready again.
    await f.ingest('alice', conversation(400, { prefix: 'y' }));
    expect((await context({ max_tokens: 2_000 })).ready).toBe(true);
    expect(
      (await f.client.call<ContextResult>('memory.chain.context', { owner: 'nobody', max_tokens: 10 })).ready,
    ).toBe(true);
  });
});
