import { describe, expect, it } from 'vitest';
import {
  bearerToken,
  boundAuthorities,
  createHostCheck,
  isJsonMediaType,
  originAuthority,
  tokenAuthenticator,
} from './http-guard.js';

describe('http guards', () => {
  it('names a bound address with its port, localhost, and for a wildcard the loopback addresses', () => {
    expect(boundAuthorities('127.0.0.1', 7420)).toEqual(['127.0.0.1:7420', 'localhost:7420']);
    expect(boundAuthorities('::1', 7420)).toEqual(['[::1]:7420', 'localhost:7420']);
    expect(boundAuthorities('0.0.0.0', 80)).toEqual([
      '0.0.0.0:80',
      '127.0.0.1:80',
      '[::1]:80',
      'localhost:80',
    ]);
    expect(boundAuthorities('::', 80)).toEqual(['[::]:80', '127.0.0.1:80', '[::1]:80', 'localhost:80']);
  });

  it('matches allowed names on any port and name:port on that port only', () => {
    const check = createHostCheck(() => ['127.0.0.1:7420'], ['mnemo.lan', 'box:8080']);
    expect(['127.0.0.1:7420', 'MNEMO.LAN', 'mnemo.lan:443', 'box:8080'].map(check)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['127.0.0.1', 'box', 'box:8081', 'mnemo.lan.evil.example', 'evil.example'].map(check)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('reads Origin, Content-Type and Authorization strictly', () => {
    expect(originAuthority('https://a.example:8443')).toBe('a.example:8443');
    expect(originAuthority('http://localhost:80')).toBe('localhost');
    expect([originAuthority('null'), originAuthority('file:///x'), originAuthority('')]).toEqual([
      null,
      null,
      null,
    ]);
    expect(isJsonMediaType('application/json;charset=UTF-8')).toBe(true);
    expect(isJsonMediaType('application/json-seq')).toBe(false);
    expect(isJsonMediaType(undefined)).toBe(false);
    expect(bearerToken('bearer abc ')).toBe('abc');
    expect(bearerToken('Bearer a b')).toBeNull();
  });

  it('gives the all-owners principal to its own token only', async () => {
    const authenticate = tokenAuthenticator('0123456789abcdef');
    expect(await authenticate('0123456789abcdef')).toEqual({ kind: 'all', name: 'http-token' });
    expect(await authenticate('0123456789abcde')).toBeNull();
  });
});
