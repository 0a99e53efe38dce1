// What HTTP checks before any route runs: the Host and Origin a browser sends (DNS rebinding, cross-site
// pages), the bearer token and its principal, and JSON bodies. Pure functions; http.ts applies them.
import { createHash, timingSafeEqual } from 'node:crypto';
import { allOwners, type Principal } from './principal.js';

/** Turns a presented bearer token into the principal it acts for, or null when it is not valid. */
export type Authenticate = (token: string) => Promise<Principal | null>;

/** The principal of the server's own token (MNEMO_HTTP_TOKEN or `<data-dir>/http-token`). */
export const HTTP_TOKEN_PRINCIPAL = allOwners('http-token');

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** One token for every owner; comparing digests says nothing about the token, not even its length. */
export function tokenAuthenticator(token: string): Authenticate {
  const expected = digest(token);
  return async (presented) => (timingSafeEqual(digest(presented), expected) ? HTTP_TOKEN_PRINCIPAL : null);
}

/** The token of an `Authorization: Bearer <token>` header, or null for any other header. */
export const bearerToken = (header: string): string | null =>
  /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)?.[1] ?? null;

/** `application/json`, with or without parameters such as `charset=utf-8`. */
export const isJsonMediaType = (contentType: string | undefined): boolean =>
  contentType?.split(';', 1)[0]?.trim().toLowerCase() === 'application/json';

const WILDCARDS = new Set(['0.0.0.0', '::']);

/**
 * The `host:port` names of a bound address: the address itself (a wildcard adds the loopback addresses:
 * an IP literal is never a rebound name) and localhost.
 */
export function boundAuthorities(host: string, port: number): string[] {
  const own = host.includes(':') ? `[${host}]` : host;
  const literals = WILDCARDS.has(host) ? [own, '127.0.0.1', '[::1]'] : [own];
  return [...literals, 'localhost'].map((name) => `${name.toLowerCase()}:${port}`);
}

/**
 * Whether a `Host` value (`name[:port]`) names this server: one of its own authorities, or an allowed
 * name (`name` allows every port, `name:port` that port only).
 */
export function createHostCheck(
  own: () => readonly string[],
  allowed: readonly string[],
): (authority: string) => boolean {
  return (authority) => {
    const value = authority.trim().toLowerCase();
    const name = value.replace(/:\d+$/, '');
    return own().includes(value) || allowed.some((entry) => entry === value || entry === name);
  };
}

/** The authority of an http(s) `Origin`, or null for `null`, other schemes and anything unparsable. */
export function originAuthority(origin: string): string | null {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.host : null;
  } catch {
    return null;
  }
}
