// The web inspector in headless Chromium against a seeded store over real HTTP: every view loads with its
// key elements and logs no error, search explains itself and opens evidence, the timeline expands,
// memories show what is current and what was superseded, objects draw their relations, a suggestion is
// approved (the one write a page sends), markup in memory text never runs, and empty states say what to
// do. Screenshots of each view go to test-artifacts/inspector/ (looked at, not compared by pixels).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METHODS } from '../src/protocol/catalog.js';
import {
  CHROMIUM,
  chromiumFound,
  launchBrowser,
  ready,
  rerender,
  screenshot,
  show,
  watchedPage,
  type Browser,
  type RpcCall,
} from './helpers/browser.js';
import { INJECTED, OWNER, startSeededInspector, TOKEN, type SeededInspector } from './helpers/inspector.js';

describe('Chromium for the inspector', () => {
  it('is installed where CI runs (.ci/run installs Debian chromium)', () => {
    if (process.env.CI === 'true') {
      expect(chromiumFound, `no Chromium at ${CHROMIUM}: install it (apt-get install chromium)`).toBe(true);
    } else if (!chromiumFound) {
      console.warn(
        `skipping the inspector's browser tests: no Chromium at ${CHROMIUM} ` +
          '(apt-get install chromium, or set MNEMO_TEST_CHROMIUM)',
      );
    }
  });
});

describe.skipIf(!chromiumFound)('the inspector in Chromium', () => {
  let browser: Browser;
  let seeded: SeededInspector;
  let bare: SeededInspector;
  /** Every call any page of the seeded server sent to /rpc. */
  const calls: RpcCall[] = [];
  const open = async (server = seeded, hash = '#/search') => {
    const watched = await watchedPage(browser.context, server === seeded ? calls : []);
    await watched.page.goto(`${server.url}/#token=${TOKEN}`);
    await ready(watched.page, 'search');
    if (hash !== '#/search')
      await show(
        watched.page,
        hash.slice(2).split('?')[0] ?? '',
        hash.includes('?') ? `?${hash.split('?')[1]}` : '',
      );
    return watched;
  };
  const objectId = async (name: string): Promise<string> => {
    const found = await seeded.fixture.client.call<{ items: Array<{ id: string }> }>('memory.chain.find', {
      owner: OWNER,
      query: name,
    });
    return found.items[0]?.id ?? 'none';
  };

  beforeAll(async () => {
    [browser, seeded, bare] = await Promise.all([
      launchBrowser(),
      startSeededInspector(),
      startSeededInspector({ seeded: false, pending: false }),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await seeded?.close();
    await bare?.close();
  });

  it('asks for the token, and takes one given in the address out of it at once', async () => {
    const { page, problems, calls: sent } = await watchedPage(browser.context);
    await page.goto(`${seeded.url}/`);
    await page.waitForSelector('form.token-form');
    expect(sent).toEqual([]);
    await page.fill('#token', TOKEN);
    await rerender(page, 'search', () => page.press('#token', 'Enter'));
    expect(await page.inputValue('#owner')).toBe(OWNER);

    const second = await watchedPage(browser.context);
    await second.page.goto(`${seeded.url}/#token=${TOKEN}`);
    await ready(second.page, 'search');
    expect(second.page.url()).toBe(`${seeded.url}/#/search`);
    expect(await second.page.evaluate(() => sessionStorage.getItem('mnemo.inspector.token'))).toBe(TOKEN);
    expect([...problems, ...second.problems]).toEqual([]);
    await Promise.all([page.close(), second.page.close()]);
  });

  it('loads every view against the seeded store with its key elements, logs no error, and saves screenshots', async () => {
    const { page, problems } = await open();
    const apollo = await objectId('Apollo');
    const views: Array<[string, string, () => Promise<void>]> = [
      [
        'search',
        `?q=${encodeURIComponent('发票报销')}`,
        async () => {
          expect(await page.locator('.result').count()).toBeGreaterThan(1);
          expect(await page.locator('.result').first().locator('[data-channel="bm25"]').count()).toBe(1);
          expect(await page.locator('.chip.used').count()).toBeGreaterThan(0);
        },
      ],
      [
        'timeline',
        '',
        async () => {
          // The six said events, and the note the todo write left.
          expect(await page.locator('.head').count()).toBe(7);
          expect(await page.locator('.head').first().innerText()).toContain('memory.todo.add');
        },
      ],
      [
        'memories',
        '',
        async () => {
          expect(await page.locator('article.memory').count()).toBe(6);
          expect(await page.locator('article.memory.not-current').innerText()).toContain('Word');
        },
      ],
      [
        'objects',
        `?id=${apollo}`,
        async () => {
          expect(await page.locator('svg.graph g.node').count()).toBe(4);
          expect(await page.locator('svg.graph g.edge').count()).toBe(4);
          // The four upserted, and the todo memory.todo.add made.
          expect(await page.locator('ul.objects li').count()).toBe(5);
        },
      ],
      [
        'jobs',
        '',
        async () => {
          expect(await page.locator(`table.queues tr[data-owner="${OWNER}"]`).count()).toBe(1);
          expect(await page.locator('.notices [data-id="job_7"]').innerText()).toContain('整理失败');
        },
      ],
      [
        'todos',
        '',
        async () => {
          const todo = page.locator(`.todos [data-id="${seeded.ids.todo}"]`);
          expect(await todo.innerText()).toContain('提交九月报销');
          expect(await todo.locator('.badge.status-open').count()).toBe(1);
          expect(await todo.innerText()).toContain('2026-11-30');
          // The todo object the seed upserted is a todo too (track life), listed once.
          expect(await page.locator('.todos article.todo').count()).toBe(2);
          expect(await page.locator('.todos .badge.track-life').count()).toBe(1);
        },
      ],
      [
        'skills',
        '',
        async () => {
          const procedure = page.locator('article.procedure');
          expect(await procedure.innerText()).toContain('填写报销单');
          expect(await procedure.locator('.badge.status-observed').count()).toBe(1);
          expect(await procedure.innerText()).toContain('sessions vouching');
        },
      ],
      [
        'suggestions',
        '',
        async () => expect(await page.locator('button[data-action="approve"]').count()).toBe(2),
      ],
      [
        'audit',
        '',
        async () => {
          const audit = page.locator(`article.audit[data-id="${seeded.ids.audit}"]`);
          expect(await audit.locator('.badge.kind-gate').count()).toBe(1);
          expect(await audit.innerText()).toMatch(/reason[\s\S]*score[\s\S]*signals[\s\S]*session\s+s9/);
          const waiting = page.locator('.records').nth(1).locator('article.record');
          expect(await waiting.innerText()).toContain('财务说报销单要在周五前提交');
          expect(await waiting.innerText()).toContain('s9');
        },
      ],
      [
        'health',
        '',
        async () => {
          expect(await page.locator('figure.chart').count()).toBe(3);
          expect(await page.locator(`table.owners tr[data-owner="${OWNER}"]`).innerText()).toContain('6');
          const snapshots = page.locator(`.snapshot table.snapshots tr[data-owner="${OWNER}"]`);
          expect(await snapshots.innerText()).toMatch(/3\s+1,?804 B\s+1,?750 B\s+2,?011 B/);
          expect(await snapshots.innerText()).toContain('USER 412 / 430');
        },
      ],
    ];
    for (const [view, query, check] of views) {
      await show(page, view, query);
      expect(await page.locator('main h1').innerText()).not.toBe('');
      expect(await page.locator('main .error').count(), view).toBe(0);
      await check();
      await screenshot(page, view);
    }
    expect(problems).toEqual([]);
    await page.close();
  });

  it('searches, says why each item was recalled, and opens its evidence', async () => {
    const { page, problems } = await open();
    await page.fill('input[name="q"]', 'RB-2026-0917');
    await rerender(page, 'search', () => page.press('input[name="q"]', 'Enter'));
    const first = page.locator('.result').first();
    await expect.poll(() => page.locator('[data-channel="id"]').count()).toBeGreaterThan(0);
    expect(await first.locator('details.why').getAttribute('open')).toBe('');
    expect(await page.locator('.terms').innerText()).toContain('terms used');
    const event = page.locator('.result[data-id="k1"]');
    await event.locator('[data-action="evidence"]').click();
    const card = event.locator('.event[data-event="k1"]');
    await card.waitFor();
    expect(await card.innerText()).toContain('帮我整理一下九月份的发票报销，单号 RB-2026-0917');
    expect(await card.innerText()).toContain('s1');
    await screenshot(page, 'search-evidence');
    await rerender(page, 'timeline', () => card.locator('a.more').click());
    expect(await page.locator('.head.anchor').getAttribute('data-id')).toBe('k1');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('polls memory.requests.get when a recall answers pending, and shows the answer', async () => {
    const { page, problems } = await open();
    // wait_ms 0 answers pending (nothing cached for this query), as a slow store would past the page's wait.
    await page.route('**/rpc', async (route) => {
      const body = JSON.parse(route.request().postData() ?? '{}') as {
        method?: string;
        params?: Record<string, unknown>;
      };
      if (body.method !== 'memory.recall') return route.continue();
      await route.continue({ postData: JSON.stringify({ ...body, params: { ...body.params, wait_ms: 0 } }) });
    });
    await page.fill('input[name="q"]', '九月份 window seats');
    await rerender(page, 'search', () => page.press('input[name="q"]', 'Enter'));
    expect(await page.locator('.result').count()).toBeGreaterThan(0);
    const polled = calls.filter((c) => c.method === 'memory.requests.get');
    expect(polled.length).toBeGreaterThan(0);
    expect(polled[0]?.params).toMatchObject({ owner: OWNER, request_id: expect.stringMatching(/^rq_/) });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows Chinese and English as stored, marking Chinese text as such', async () => {
    const { page, problems } = await open(seeded, '#/timeline');
    expect(await page.evaluate(() => document.characterSet)).toBe('UTF-8');
    const chinese = page.locator('.head[data-id="k1"] .text');
    expect(await chinese.innerText()).toBe('帮我整理一下九月份的发票报销，单号 RB-2026-0917');
    expect(await chinese.getAttribute('lang')).toBe('zh-CN');
    const english = page.locator('.head[data-id="k3"] .text');
    expect(await english.innerText()).toBe('I prefer window seats when you book my flights to Shanghai');
    expect(await english.getAttribute('lang')).toBeNull();
    expect(problems).toEqual([]);
    await page.close();
  });

  it('expands a timeline event to the stored event and the objects that cite it', async () => {
    const { page, problems } = await open(seeded, '#/timeline');
    const head = page.locator('.head[data-id="k1"]');
    await head.locator('[data-action="expand"]').click();
    await head.locator('.detail[data-ready]').waitFor();
    expect(await head.locator('.event').innerText()).toContain('user_message');
    expect(await head.locator('.cited a').count()).toBeGreaterThan(0);
    await screenshot(page, 'timeline-evidence');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows which memories are current and which were superseded, with a fact’s history', async () => {
    const { page, problems } = await open(seeded, '#/memories');
    const word = page.locator('article.memory.not-current');
    expect(await word.locator('.badge.status-superseded').count()).toBe(1);
    expect(await word.innerText()).toMatch(/valid .+ – .+/);
    await word.locator('details.history summary').click();
    await word.locator('.history-body[data-ready]').waitFor();
    const rows = word.locator('table.versions tbody tr');
    expect(await rows.count()).toBe(2);
    expect(await word.locator('table.versions tr.current').innerText()).toContain('Markdown');
    await word.locator('[data-action="evidence"]').click();
    expect(await word.locator('.event').innerText()).toContain('以后会议纪要都用 Word');
    await screenshot(page, 'memories-history');
    await rerender(page, 'memories', () => page.selectOption('select[name="status"]', 'superseded'));
    expect(await page.locator('article.memory').count()).toBe(1);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('draws an object’s relations and moves along them', async () => {
    const { page, problems } = await open(seeded, '#/objects');
    await rerender(page, 'objects', () =>
      page.locator('ul.objects li', { hasText: 'Apollo' }).locator('a').click(),
    );
    expect(await page.locator('section.object h2').innerText()).toContain('Apollo');
    const li = await objectId('李卫东');
    await rerender(page, 'objects', () => page.locator(`svg.graph g.node[data-object="${li}"]`).click());
    expect(await page.locator('section.object h2').innerText()).toContain('李卫东');
    expect(await page.locator('section.object').innerText()).toContain('老李');
    await screenshot(page, 'objects-person');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('approves a suggestion with the token', async () => {
    const { page, problems } = await open(seeded, '#/suggestions');
    const id = seeded.ids.suggestions[0] ?? '';
    const suggestion = page.locator(`article.record[data-id="${id}"]`);
    expect(await suggestion.innerText()).toContain('以后报销单都抄送财务');
    await page.fill('#decider', '王芳');
    await rerender(page, 'suggestions', () => suggestion.locator('button[data-action="approve"]').click());
    expect(await suggestion.locator('.badge.status-approved').count()).toBe(1);
    expect(await suggestion.locator('button').count()).toBe(0);
    expect(await suggestion.innerText()).toContain('王芳');
    const decide = calls.flatMap((c) => (c.method === 'memory.suggestions.decide' ? [c.params] : []));
    expect(decide).toEqual([{ owner: OWNER, id, decision: 'approve', by: '王芳' }]);
    const stored = await seeded.fixture.client.call<{ items: Array<{ id: string; status: string }> }>(
      'memory.suggestions.list',
      { owner: OWNER, status: 'approved' },
    );
    expect(stored.items.map((s) => s.id)).toEqual([id]);
    await screenshot(page, 'suggestions-approved');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows markup held in memory text as text, and runs none of it', async () => {
    const { page, problems } = await open();
    const places: Array<[string, string]> = [
      ['search', `?q=${encodeURIComponent('a web page said')}`],
      ['timeline', ''],
      ['memories', ''],
      ['objects', `?id=${await objectId('Injected name')}`],
      ['suggestions', ''],
    ];
    for (const [view, query] of places) {
      await show(page, view, query);
      expect(await page.locator('main').innerText(), view).toContain(INJECTED);
      expect(await page.locator('main img, main script, main b').count(), view).toBe(0);
    }
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.evaluate(() => document.scripts.length)).toBe(1);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('says what to do in an empty store and while other parts’ methods are missing', async () => {
    const { page, problems } = await open(bare);
    expect(await page.locator('[data-empty]').innerText()).toContain('npx mnemo ingest');
    await rerender(page, 'search', async () => {
      await page.fill('#owner', 'user:new');
      await page.press('#owner', 'Enter');
    });
    expect(await page.locator('main [data-empty]').innerText()).toContain('Search what user:new remembers');
    await screenshot(page, 'empty-search');
    const expectations: Array<[string, string]> = [
      ['timeline', 'No events for user:new yet'],
      ['memories', 'user:new has no memories yet'],
      ['objects', 'user:new has no objects yet'],
      ['todos', 'memory.todo.add'],
      ['skills', 'memory.skill.list'],
      ['suggestions', 'memory.suggest'],
      ['audit', 'memory.gate'],
      ['jobs', 'Automatic jobs have not failed'],
      ['health', 'memory.snapshot'],
    ];
    for (const [view, text] of expectations) {
      await show(page, view);
      expect(await page.locator('main [data-empty]').allInnerTexts(), view).toEqual(
        expect.arrayContaining([expect.stringContaining(text)]),
      );
      await screenshot(page, `empty-${view}`);
    }
    expect(problems).toEqual([]);
    await page.close();
  });

  it('sent only reads and the suggestion decision', () => {
    expect(calls.length).toBeGreaterThan(20);
    const reads = new Set(
      Object.entries(METHODS).flatMap(([name, spec]) => (spec.access === 'read' ? [name] : [])),
    );
    for (const { method, params } of calls) {
      const allowed =
        reads.has(method) ||
        method === 'memory.suggestions.decide' ||
        (method === 'memory.organize.notices' && params.ack === undefined);
      expect(allowed, `${method} ${JSON.stringify(params)}`).toBe(true);
    }
  });
});
