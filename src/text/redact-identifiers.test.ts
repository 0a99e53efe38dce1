import { describe, expect, it } from 'vitest';
import { fake, withLuhn, withResidentIdCheck } from '../../test/fixtures/redaction/corpus.js';
import { createRedactor } from './redact.js';
import { hasIssuerPrefix, isCardNumber, isResidentId } from './redact-identifiers.js';

const redactor = createRedactor();
const textOf = async (text: string, lead?: string) => (await redactor.redact(text, lead)).text;

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

describe('regression for issue 8: numbers need context / 数字需要上下文', () => {
  it('a bare 11-digit number needs phone context / 11 位数字须有电话语境', async () => {
    expect(await textOf('订单 13812345678 已发货')).toBe('订单 13812345678 已发货');
    expect(await textOf('13812345678')).toBe('13812345678');
    expect(await textOf('我的手机 13812345678')).toBe('我的手机 [redacted:phone]');
    expect(await textOf('13812345678 是我的电话')).toBe('[redacted:phone] 是我的电话');
    expect(await textOf('call 13812345678')).toBe('call [redacted:phone]');
    // Separators or a country code are context enough.
    expect(await textOf('138-1234-5678')).toBe('[redacted:phone]');
    expect(await textOf('+8613812345678')).toBe('[redacted:phone]');
    // A meta key is context too.
    expect(await textOf('13812345678', 'mobile')).toBe('[redacted:phone]');
  });

  it('folds full-width digits and odd spaces / 全角数字与特殊空格', async () => {
    expect(await textOf('电话：１３８－１２３４－５６７８')).toBe('电话：[redacted:phone]');
    expect(
      await textOf(
        `身份证 ${fake.residentId.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)))}`,
      ),
    ).toBe('身份证 [redacted:id_number]');
  });

  it('a Luhn-valid number is a card with card context or an issuer prefix / 卡号须有语境或发卡行前缀', async () => {
    const plain = withLuhn('7' + '12345678901234');
    expect(await textOf(`ref ${plain}`)).toBe(`ref ${plain}`);
    expect(await textOf(`卡号 ${plain}`)).toBe('卡号 [redacted:card_number]');
    expect(await textOf(`card ending ${plain}`)).toBe('card ending [redacted:card_number]');
    expect(await textOf(`ref ${fake.visa}`)).toBe('ref [redacted:card_number]');
  });

  it('hasIssuerPrefix knows each network and its lengths / 发卡行前缀与长度', () => {
    const digits = (head: string, n: number) => head + '0'.repeat(n - head.length);
    for (const [head, n] of [
      ['4', 16],
      ['4', 13],
      ['51', 16],
      ['2221', 16],
      ['2720', 16],
      ['34', 15],
      ['37', 15],
      ['62', 19],
      ['3528', 16],
      ['6011', 16],
      ['65', 16],
    ] as const) {
      expect(hasIssuerPrefix(digits(head, n)), `${head}/${n}`).toBe(true);
    }
    for (const [head, n] of [
      ['4', 15],
      ['56', 16],
      ['2721', 16],
      ['34', 16],
      ['3527', 16],
      ['1', 16],
      ['9', 19],
    ] as const) {
      expect(hasIssuerPrefix(digits(head, n)), `${head}/${n}`).toBe(false);
    }
  });

  it('a 15-digit resident ID needs ID context / 15 位身份证须有语境', async () => {
    expect(await textOf('身份证 110105491231002')).toBe('身份证 [redacted:id_number]');
    expect(await textOf('waybill 110105491231002')).toBe('waybill 110105491231002');
  });
});
