// Issue 13, the shadow replay on a tiny committed log (Chinese and English, a poisoned tool result): gate
// decisions recorded, packets built in shadow and never deliverable, and audit records matching the packets
// one to one.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { replayShadow, type LogEvent } from '../bench/shadow.js';

const fixture = JSON.parse(readFileSync(new URL('./fixtures/shadow/log.json', import.meta.url), 'utf8')) as {
  events: Array<Omit<LogEvent, 'at'> & { at: string }>;
};
const log: LogEvent[] = fixture.events.map((e) => ({ ...e, at: Date.parse(e.at) }));

describe('the shadow replay', () => {
  it('builds shadow packets on retrieve, injects nothing, and its audit records match the packets one to one', async () => {
    const report = await replayShadow('shadow-mini', log);
    expect(report).toMatchObject({ events: 14, sessions: 3, turns: 11, deliveryRefused: true });
    expect(report.packets).toBeGreaterThan(0);
    expect(report.actions.retrieve ?? 0).toBeGreaterThanOrEqual(report.packets);
    expect(Object.values(report.triggers).reduce((a, b) => a + b, 0)).toBe(
      (report.actions.retrieve ?? 0) + (report.actions.prefetch ?? 0),
    );
    expect(report.audit).toMatchObject({
      oneToOne: true,
      matched: report.packets,
      packetRecords: report.packets,
      mismatches: [],
    });
    expect(report.perPacket.bytes.max).toBeLessThanOrEqual(2_048);
    expect(report.perPacket.tokens.max).toBeLessThanOrEqual(600);
    expect(report.perTurn.bytes.max).toBe(report.perPacket.bytes.max);
    // The English attack is suppressed wherever it was a candidate; nothing in the report holds text.
    expect(report.dropped.injection ?? 0).toBeGreaterThan(0);
    expect(JSON.stringify(report)).not.toMatch(/evil|护照|passport/u);
  });
});
