import { describe, expect, it } from 'vitest';
import { createLineReader, encodeLine, parseJson } from './jsonl.js';

function collect(maxLineBytes: number) {
  const lines: string[] = [];
  let overflows = 0;
  const reader = createLineReader({
    maxLineBytes,
    onLine: (line) => lines.push(line),
    onOverflow: () => overflows++,
  });
  return { reader, lines, overflows: () => overflows };
}

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('createLineReader', () => {
  it('splits lines across and within chunks', () => {
    const { reader, lines } = collect(100);
    reader.push(bytes('{"a":1}\n{"b"'));
    reader.push(bytes(':2}\n{"c":3}\n'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it('decodes multi-byte characters split between chunks', () => {
    const { reader, lines } = collect(100);
    const all = bytes('记忆 ✓ 🧠\n');
    for (let i = 0; i < all.length; i++) reader.push(all.subarray(i, i + 1));
    expect(lines).toEqual(['记忆 ✓ 🧠']);
  });

  it('tolerates CRLF and skips empty lines', () => {
    const { reader, lines } = collect(100);
    reader.push(bytes('one\r\n\r\n\n  \ntwo\r'));
    reader.push(bytes('\n'));
    expect(lines).toEqual(['one', 'two']);
  });

  it('does not keep a reference to the caller buffer', () => {
    const { reader, lines } = collect(100);
    const chunk = new Uint8Array(bytes('abc'));
    reader.push(chunk);
    chunk.fill(0x7a);
    reader.push(bytes('\n'));
    expect(lines).toEqual(['abc']);
  });

  it('accepts a line of exactly maxLineBytes, CR not counted', () => {
    const { reader, lines, overflows } = collect(4);
    reader.push(bytes('abcd\r'));
    reader.push(bytes('\nabcd\n'));
    expect(lines).toEqual(['abcd', 'abcd']);
    expect(overflows()).toBe(0);
  });

  it('reports an overlong line once, drops it and resumes after its newline', () => {
    const { reader, lines, overflows } = collect(4);
    reader.push(bytes('ok\nabcdef'));
    reader.push(bytes('ghijkl'));
    reader.push(bytes('mnop\nnext\n'));
    reader.push(bytes('toolong\n'));
    expect(lines).toEqual(['ok', 'next']);
    expect(overflows()).toBe(2);
  });

  it('regression for issue 8: delivers nothing after stop(), not even the rest of the chunk', () => {
    const lines: string[] = [];
    const reader = createLineReader({
      maxLineBytes: 4,
      onLine: (line) => lines.push(line),
      onOverflow: () => reader.stop(),
    });
    reader.push(bytes('ok\ntoolong\nnext\npart'));
    expect(reader.partial()).toBe(false);
    reader.push(bytes('ial\nmore\n'));
    reader.end();
    expect(lines).toEqual(['ok']);
  });

  it('tells whether a line has begun', () => {
    const { reader } = collect(4);
    expect(reader.partial()).toBe(false);
    reader.push(bytes('ab'));
    expect(reader.partial()).toBe(true);
    reader.push(bytes('\n'));
    expect(reader.partial()).toBe(false);
    reader.push(bytes('abcdefg'));
    expect(reader.partial()).toBe(true);
  });

  it('delivers an unterminated last line on end()', () => {
    const { reader, lines } = collect(100);
    reader.push(bytes('a\nb'));
    reader.end();
    reader.end();
    expect(lines).toEqual(['a', 'b']);
  });
});

describe('encodeLine / parseJson', () => {
  it('round-trips values containing newlines as one line', () => {
    const line = encodeLine({ text: 'a\nb\u2028c' });
    expect(line.indexOf('\n')).toBe(line.length - 1);
    expect(parseJson(line)).toEqual({ ok: true, value: { text: 'a\nb\u2028c' } });
  });

  it('returns malformed JSON as a value', () => {
    expect(parseJson('{nope').ok).toBe(false);
  });
});
