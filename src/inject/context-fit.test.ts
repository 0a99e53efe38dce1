// Issue 13, the host context budget: the fixed prompt first, the request and live state whole (or
// REQUEST_TOO_LONG, never cut), logs, history and memory cut apart with markers that count what went.
import { describe, expect, it } from 'vitest';
import { MemoryError } from '../errors.js';
import { estimateTokens } from '../text/tokens.js';
import { fitContext, MARKERS } from './context-fit.js';
import { ContextFitParamsSchema, type ContextFitParams } from './snapshot-schema.js';
import { byteLength } from './snapshot-render.js';

const params = (p: Record<string, unknown>): ContextFitParams => ContextFitParamsSchema.parse(p);
const turns = (n: number, text: (i: number) => string) => Array.from({ length: n }, (_, i) => text(i));

describe('fitContext', () => {
  it('keeps everything that fits, with no marker, and counts bytes and tokens apart', () => {
    const out = fitContext(
      params({ current_request: '把周报发给王伟', history: ['hi', '你好'], memory: ['m'], logs: ['ok'] }),
    );
    expect(out.budget_bytes).toBe(32_000);
    expect(out.current_request).toEqual({ bytes: byteLength('把周报发给王伟'), tokens: 7 });
    expect([out.history.omitted, out.memory.omitted, out.logs.omitted]).toEqual([0, 0, 0]);
    expect(out.history.marker).toBeNull();
    expect(out.used.bytes).toBe(21 + 2 + 6 + 1 + 2);
    expect(out.tokenizer).toBe('portable-v1');
  });

  it('subtracts the fixed prompt first, measured or given', () => {
    const measured = fitContext(
      params({ budget_bytes: 1_000, fixed_prompt: '系统'.repeat(100), current_request: 'q' }),
    );
    expect(measured.fixed_prompt_bytes).toBe(600);
    expect(measured.available_bytes).toBe(400);
    const given = fitContext(params({ budget_bytes: 1_000, fixed_prompt_bytes: 900, current_request: 'q' }));
    expect(given.available_bytes).toBe(100);
  });

  it('drops the oldest history and logs and the lowest-ranked memory, each with its marker', () => {
    const out = fitContext(
      params({
        budget_bytes: 1_000,
        fixed_prompt_bytes: 200,
        current_request: 'Summarise the incident / 总结事故',
        live_state: 'open: incident.md',
        history: turns(20, (i) => `turn ${i}: ${'对话内容 '.repeat(3)}`),
        logs: turns(30, (i) => `log line ${i} ok`),
        memory: turns(10, (i) => `memory rank ${i} ${'x'.repeat(40)}`),
      }),
    );
    const { history, logs, memory } = out;
    expect(history.items.at(-1)).toBe('turn 19: 对话内容 对话内容 对话内容 ');
    expect(history.items[0]).toBe(`turn ${history.omitted}: 对话内容 对话内容 对话内容 `);
    expect(history.marker).toBe(MARKERS.history(history.omitted));
    expect(logs.items.at(-1)).toBe('log line 29 ok');
    expect(memory.items[0]).toMatch(/^memory rank 0 /);
    expect(memory.items.length + memory.omitted).toBe(10);
    expect(memory.marker).toMatchInlineSnapshot(`"[… 6 lower-ranked memory items omitted]"`);
    expect(history.marker).toMatchInlineSnapshot(`"[… 14 older history entries omitted]"`);
    expect(logs.marker).toMatchInlineSnapshot(`"[… 22 older log entries omitted]"`);
    for (const part of [history, logs, memory]) expect(part.bytes).toBeLessThanOrEqual(part.allowance);
    expect(out.used.bytes).toBeLessThanOrEqual(out.available_bytes);
    expect(out.live_state.bytes).toBe(byteLength('open: incident.md'));
  });

  it('gives what one part does not need to the others', () => {
    const out = fitContext(
      params({
        budget_bytes: 1_100,
        current_request: 'q',
        history: [],
        logs: [],
        memory: turns(30, () => 'm'.repeat(49)),
      }),
    );
    // Memory's own share is 35 % of 1,099 bytes; it gets all of them, its marker included.
    expect(out.memory.allowance).toBe(1_099);
    expect([out.memory.items.length, out.memory.omitted]).toEqual([21, 9]);
    expect(out.memory.bytes).toBe(21 * 49 + byteLength(MARKERS.memory(9)));
  });

  it('counts tokens honestly for Chinese', () => {
    const out = fitContext(params({ current_request: '请把会议纪要发到群里', history: ['好的，马上发。'] }));
    expect(out.history.tokens).toBe(estimateTokens('好的，马上发。'));
    expect(out.history.tokens).toBe(7);
  });

  it('refuses an over-long request with REQUEST_TOO_LONG and cuts nothing', () => {
    const call = () =>
      fitContext(
        params({
          budget_bytes: 100,
          fixed_prompt_bytes: 40,
          current_request: '长'.repeat(25),
          live_state: 'state',
        }),
      );
    expect(call).toThrowError(MemoryError);
    try {
      call();
    } catch (error) {
      expect((error as MemoryError).code).toBe('REQUEST_TOO_LONG');
      expect((error as MemoryError).data).toMatchInlineSnapshot(`
        {
          "available_bytes": 60,
          "budget_bytes": 100,
          "current_request_bytes": 75,
          "fixed_prompt_bytes": 40,
          "live_state_bytes": 5,
        }
      `);
    }
  });

  it('refuses fixed_prompt and fixed_prompt_bytes together', () => {
    const parsed = ContextFitParamsSchema.safeParse({
      current_request: 'q',
      fixed_prompt: 'p',
      fixed_prompt_bytes: 1,
    });
    expect(parsed.success).toBe(false);
  });
});
