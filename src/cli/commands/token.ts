// `mnemo token create|list|revoke`: tenant tokens, through the running server's socket or on the store
// directly. A created token is printed once; nothing else ever shows it again.
import type { Config } from '../../config.js';
import type { TokenInfo } from '../../tokens/schema.js';
import { connect } from '../client.js';

type Out = NodeJS.WritableStream;

const describePattern = (p: string): string =>
  p.endsWith('/*') ? `${p} (every owner starting with "${p.slice(0, -1)}")` : `${p} (exactly)`;

/** `a, b,c` → ['a', 'b', 'c']; the server validates each pattern. */
export const splitPatterns = (value: string): string[] =>
  value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);

async function withConnection<T>(
  config: Config,
  fn: (call: <R>(m: string, p: unknown) => Promise<R>) => Promise<T>,
) {
  const conn = await connect(config);
  try {
    return await fn((method, params) => conn.call(method, params));
  } finally {
    await conn.close();
  }
}

export async function tokenCreateCommand(
  config: Config,
  options: { owners: string; name?: string; json: boolean },
  out: Out,
): Promise<number> {
  const created = await withConnection(config, (call) =>
    call<TokenInfo & { token: string }>('tokens.create', {
      owners: splitPatterns(options.owners),
      ...(options.name === undefined ? {} : { name: options.name }),
    }),
  );
  if (options.json) {
    out.write(`${JSON.stringify(created)}\n`);
    return 0;
  }
  out.write(
    [
      `created token ${created.id}${created.name === null ? '' : ` (${created.name})`} for:`,
      ...created.owners.map((p) => `  ${describePattern(p)}`),
      '',
      `  ${created.token}`,
      '',
      'This is the only time the token is shown: mnemo keeps only its hash.',
      'Send it as "Authorization: Bearer <token>" to the HTTP face of any mnemo server on this store;',
      'it acts for the owners above only (any other owner is FORBIDDEN) and cannot manage tokens.',
      `Revoke it with: mnemo token revoke ${created.id}`,
      '',
    ].join('\n'),
  );
  return 0;
}

const cell = (value: string | null): string => value ?? '-';

export async function tokenListCommand(config: Config, json: boolean, out: Out): Promise<number> {
  const { tokens } = await withConnection(config, (call) => call<{ tokens: TokenInfo[] }>('tokens.list', {}));
  if (json) {
    out.write(`${JSON.stringify(tokens)}\n`);
    return 0;
  }
  if (tokens.length === 0) {
    out.write('no tokens (create one with: mnemo token create --owners <pattern>)\n');
    return 0;
  }
  const rows = [
    ['ID', 'NAME', 'OWNERS', 'CREATED', 'REVOKED', 'LAST USED'],
    ...tokens.map((t) => [
      t.id,
      cell(t.name),
      t.owners.join(','),
      t.created_at,
      cell(t.revoked_at),
      cell(t.last_used_at),
    ]),
  ];
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  for (const r of rows)
    out.write(
      `${r
        .map((v, i) => v.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd()}\n`,
    );
  return 0;
}

export async function tokenRevokeCommand(config: Config, id: string, out: Out): Promise<number> {
  const revoked = await withConnection(config, (call) => call<TokenInfo>('tokens.revoke', { id }));
  out.write(`revoked token ${revoked.id} (since ${revoked.revoked_at ?? '?'})\n`);
  return 0;
}
