// The packed tarball installs and runs in an empty directory: serve, ingest, recall, mcp, eval --help, the
// typed client, and every module it ships imports with only `dependencies` installed. It reuses the build
// (npm pack --ignore-scripts) and the compiled better-sqlite3 (an install from scratch compiles it).
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS } from './helpers/fixtures.js';
import { spawnServer, type ServerProcess } from './helpers/process.js';
import { createTempDirs } from './helpers/temp.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  dependencies: Record<string, string>;
};
/** npm's own variables (from `npm test`) would point the inner npm at this repository. */
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));

const temp = createTempDirs();
let app: string;
let installed: string;
let bin: string;

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist/src/connect.js'))) throw new Error('build first: npm run build');
  const out = temp.make('mnemo-pack-');
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', out], {
    cwd: ROOT,
    env,
  });
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
  app = temp.make('mnemo-app-');
  writeFileSync(join(app, 'package.json'), '{"private": true, "type": "module"}\n');
  const flags = ['--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'];
  await run('npm', ['install', join(out, filename), ...flags], { cwd: app, env });
  const addon = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
  mkdirSync(join(app, addon, '..'), { recursive: true });
  copyFileSync(join(ROOT, addon), join(app, addon));
  installed = join(app, 'node_modules', pkg.name);
  bin = join(app, 'node_modules/.bin/mnemo');
}, 120_000);
afterAll(() => temp.cleanup());

const mnemo = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
  run(bin, args, { cwd: app, env: { ...env, MNEMO_LOG_LEVEL: 'warn', ...extra } });

/** Static imports and exports at the start of a line, and dynamic imports outside template strings. */
const IMPORTS =
  /^\s*(?:import|export)\b[^;]*?\bfrom\s*'([^']+)'|^\s*import\s*'([^']+)'|(?<!`)\bimport\(\s*'([^']+)'\s*\)/gm;

const shipped = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? shipped(path) : [path];
  });

describe(`the packed ${pkg.name}`, () => {
  it('ships the mnemo bin and no tests, sources or maps', async () => {
    expect((await mnemo(['--version'])).stdout.trim()).toBe(pkg.version);
    const files = shipped(installed);
    expect(files.some((f) => f.endsWith('dist/src/cli/main.js'))).toBe(true);
    expect(files.filter((f) => /\.test\.|\.map$|(?<!\.d)\.ts$/.test(f))).toEqual([]);
    expect(files.some((f) => f.endsWith('dist/src/connect.d.ts'))).toBe(true);
  });

  it('imports only node built-ins and its own dependencies, and every module loads', async () => {
    const builtins = new Set(builtinModules);
    const files = shipped(join(installed, 'dist')).filter((f) => f.endsWith('.js'));
    for (const file of files) {
      const code = readFileSync(file, 'utf8');
      for (const match of code.matchAll(IMPORTS)) {
        const spec = match[1] ?? match[2] ?? match[3] ?? '';
        if (spec.startsWith('.')) continue;
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
        if (spec.startsWith('node:') || builtins.has(name ?? '') || name === pkg.name) continue;
        expect(pkg.dependencies, `${file} imports ${spec}`).toHaveProperty([name ?? '']);
      }
    }
    // The worker entry runs only on a worker thread (it reads workerData); the inspector's page in a browser.
    const modules = files.filter((f) => !f.endsWith('prepare-worker.js') && !f.includes('/inspector/ui/'));
    expect(files.some((f) => f.endsWith('/inspector/ui/app.js'))).toBe(true);
    const script = `for (const f of ${JSON.stringify(modules)}) await import(f);`;
    await run(process.execPath, ['--input-type=module', '-e', script], { cwd: app, env });
    expect((await mnemo(['eval', '--help'])).stdout).toContain('locomo');
  });

  it("gives TypeScript the client's types through the exports map", async () => {
    const check = `import { connect, type MethodResult } from '${pkg.name}/client';
      const c = connect({ socket: 'x' });
      export const r: Promise<MethodResult<'memory.recall'>> = c.call('memory.recall', { owner: 'o', query: 'q' });
      // @ts-expect-error the params are checked (an unused expectation fails when the types are missing)
      export const bad = c.call('memory.recall', { owner: 'o' });\n`;
    writeFileSync(join(app, 'check.ts'), check);
    const options = { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true };
    const tsconfig = { compilerOptions: { ...options, skipLibCheck: true, types: [] }, files: ['check.ts'] };
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(tsconfig));
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    await expect(
      run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: app, env }),
    ).resolves.toBeDefined();
  });

  describe('serving from the install', () => {
    let server: ServerProcess;
    let home: string;
    beforeAll(async () => {
      home = temp.make();
      server = await spawnServer(['--no-http', '--observer', 'external'], { MNEMO_HOME: home }, bin);
    });
    afterAll(async () => {
      server.child.kill('SIGTERM');
      await server.exited;
    });

    it('ingests and recalls through the CLI', async () => {
      const file = join(home, 'events.jsonl');
      writeFileSync(file, EVENTS.map((e) => JSON.stringify(e)).join('\n'));
      const owner = { MNEMO_HOME: home, MNEMO_OWNER: 'user:pack' };
      expect((await mnemo(['ingest', file], owner)).stdout).toContain('8 accepted');
      expect((await mnemo(['recall', 'RB-2026-0917', '--json'], owner)).stdout).toContain('"id":"e1"');
    });

    it('answers tools/list over MCP stdio and serves the typed client', async () => {
      const client = new Client({ name: 'pack', version: '1' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [join(installed, 'bin/mnemo.js'), 'mcp', '--owner', 'user:pack'],
          env: { ...env, MNEMO_HOME: home },
          stderr: 'ignore',
        }),
      );
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(
        expect.arrayContaining(['recall', 'get', 'timeline', 'status']),
      );
      await client.close();
      const script = `import { connect } from '${pkg.name}/client';
        const c = connect({ socket: ${JSON.stringify(server.socketPath)} });
        const r = await c.call('memory.recall', { owner: 'user:pack', query: 'RB-2026-0917' });
        console.log(r.items[0].id); await c.close();`;
      writeFileSync(join(app, 'use-client.mjs'), script);
      expect((await run(process.execPath, ['use-client.mjs'], { cwd: app, env })).stdout.trim()).toBe('e1');
    });

    it("runs the README's MCP configuration as written (npx -y, from a directory that installed it)", async () => {
      const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
      const entry = [...readme.matchAll(/```json\n([\s\S]*?)```/g)]
        .map((m) => (JSON.parse(m[1] ?? '{}') as { mcpServers?: Record<string, unknown> }).mcpServers?.mnemo)
        .find(
          (e): e is { command: string; args: string[] } => (e as { command?: string })?.command === 'npx',
        );
      expect(entry?.args.slice(0, 2)).toEqual(['-y', pkg.name]);
      const client = new Client({ name: 'readme', version: '1' });
      await client.connect(
        new StdioClientTransport({
          command: entry?.command ?? 'npx',
          args: entry?.args ?? [],
          cwd: app,
          // npx finds the installed package and runs its bin; it fetches nothing.
          env: { ...env, MNEMO_HOME: home, npm_config_offline: 'true' },
          stderr: 'ignore',
        }),
      );
      const status = await client.callTool({ name: 'status', arguments: {} });
      expect(status.structuredContent).toMatchObject({ status: 'ok', owner: 'user:me', via: 'server' });
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toContain('mnemo://core/SOUL');
      await client.close();
    });
  });
});
