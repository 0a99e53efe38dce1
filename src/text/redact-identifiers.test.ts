import { describe, expect, it } from 'vitest';
import { fake, withLuhn, withResidentIdCheck } from '../../test/fixtures/redaction/corpus.js';
import { isCardNumber, isResidentId } from './redact-identifiers.js';

describe('isResidentId / 身份证校验码', () => {
  it('accepts the GB 11643 check character, X included / 校验码正确（含 X）', () => {
    const id = withResidentIdCheck('11010519491231002');
    expect(isResidentId(id)).toBe(true);
    expect(isResidentId(id.toLowerCase())).toBe(true);
    expect(fake.residentIdX).toMatch(/X$/);
    expect(isResidentId(fake.residentIdX)).toBe(true);
  });

  it('rejects a wrong check character or length / 校验码或长度错误', () => {
    const id = withResidentIdCheck('11010519491231002');
    const wrong = id.slice(0, -1) + (id.endsWith('0') ? '1' : '0');
    expect(isResidentId(wrong)).toBe(false);
    expect(isResidentId(id.slice(1))).toBe(false);
  });
});

describe('isCardNumber / 卡号 Luhn 校验', () => {
  it('accepts Luhn-valid numbers with spaces or dashes / 允许空格和连字符', () => {
    const card = withLuhn('4' + '12345678901234');
    expect(isCardNumber(card)).toBe(true);
    expect(isCardNumber(card.replace(/(\d{4})(?=\d)/g, '$1 '))).toBe(true);
    expect(isCardNumber(card.replace(/(\d{4})(?=\d)/g, '$1-'))).toBe(true);
  });

  it('rejects a broken checksum and lengths outside 13–19 / 校验失败或长度不符', () => {
    const card = withLuhn('4' + '12345678901234');
    expect(isCardNumber(card.slice(0, -1) + String((Number(card.at(-1)) + 1) % 10))).toBe(false);
    expect(isCardNumber(withLuhn('4' + '1234567890'))).toBe(false);
    expect(isCardNumber(withLuhn('4' + '1234567890123456789'))).toBe(false);
  });
});
