// The retrieval gate's decision, a pure function: weighted signals → retrieve | prefetch | suppress, with
// cooldowns and "the user ignored this" suppression. No chain of thought needed: every signal is observable.
import type { InjectConfig } from './config.js';
import type { GATE_REASONS, GateSignals, GateTrigger } from './schema.js';

export interface FeedbackRate {
  /** Feedback on packets of this trigger in the session. */
  total: number;
  /** Of it, ignored or harmful. */
  unwanted: number;
}

export interface GateInput {
  signals: GateSignals;
  gate: InjectConfig['gate'];
  /** Trigger → until when it cools down. */
  cooldowns: Readonly<Record<string, number>>;
  /** The session's feedback per trigger. */
  feedback: ReadonlyMap<string, FeedbackRate>;
  now: number;
}

export interface GateDecision {
  action: 'retrieve' | 'prefetch' | 'suppress';
  reason: (typeof GATE_REASONS)[number];
  trigger: GateTrigger | null;
  score: number;
  /** The session's cooldowns after this decision. */
  cooldowns: Record<string, number>;
}

/** Each signal's share of its weight, 0–1. */
export function contributions(s: GateSignals, gate: InjectConfig['gate']): Record<GateTrigger, number> {
  const w = gate.weights;
  return {
    novelty: w.novelty * s.novelty,
    unresolved: w.unresolved * Math.min(1, s.unresolved / gate.unresolvedSaturation),
    phase_change: s.phase_change ? w.phase_change : 0,
    tool_failure: s.tool_failure ? w.tool_failure : 0,
    conflict: s.conflicts > 0 ? w.conflict : 0,
    history: w.history * Math.min(1, s.history / gate.historySaturation),
  };
}

export function decideGate(input: GateInput): GateDecision {
  const { gate, now } = input;
  const parts = contributions(input.signals, gate);
  const ranked = (Object.entries(parts) as Array<[GateTrigger, number]>)
    .filter(([, v]) => v > 0)
    .sort((a, b) => b[1] - a[1]);
  const trigger = ranked[0]?.[0] ?? null;
  const score = Number(ranked.reduce((sum, [, v]) => sum + v, 0).toFixed(4));
  // Cooldowns that ran out are forgotten, so the session's row stays small.
  const cooldowns = Object.fromEntries(Object.entries(input.cooldowns).filter(([, until]) => until > now));
  const suppress = (reason: GateDecision['reason']): GateDecision => ({
    action: 'suppress',
    reason,
    trigger,
    score,
    cooldowns,
  });
  if (trigger === null || score < gate.prefetchAt) return suppress('below_threshold');
  if ((cooldowns[trigger] ?? 0) > now) return suppress('cooldown');
  const rate = input.feedback.get(trigger);
  if (rate && rate.total >= gate.minFeedback && rate.unwanted / rate.total >= gate.ignoredRate) {
    return suppress('user_ignored');
  }
  const retrieve = score >= gate.retrieveAt;
  return {
    action: retrieve ? 'retrieve' : 'prefetch',
    reason: retrieve ? 'above_threshold' : 'warm',
    trigger,
    score,
    cooldowns: { ...cooldowns, [trigger]: now + gate.cooldownMs },
  };
}
