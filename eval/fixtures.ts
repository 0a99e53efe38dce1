// Hand-made dataset fixtures in the published shapes, for the harness tests (not real data).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { QueryRecord } from './run-conversation.js';

/** Writes a fixture file into `dir` and returns its path. */
export const writeData = (dir: string, name: string, text: string): string => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

/** The per-question lines a run wrote (questions.jsonl). */
export const readRecords = (file: string): QueryRecord[] =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as QueryRecord);

export const locomoFixture = [
  {
    sample_id: 'conv-a',
    conversation: {
      speaker_a: 'Alice',
      speaker_b: 'Bob',
      session_1_date_time: '1:56 pm on 8 May, 2023',
      session_1: [
        {
          speaker: 'Alice',
          dia_id: 'D1:1',
          text: 'I started learning the cello last week, it is hard but fun.',
        },
        {
          speaker: 'Bob',
          dia_id: 'D1:2',
          text: 'Look at my new canoe!',
          blip_caption: 'a red canoe on a lake',
        },
      ],
      session_2_date_time: '9:05 am on 25 May, 2023',
      session_2: [
        { speaker: 'Alice', dia_id: 'D2:1', text: 'My sister Maria moved to Lisbon for a new job.' },
        { speaker: 'Bob', dia_id: 'D2:2', text: 'I painted a sunrise over the harbour yesterday.' },
      ],
      session_3_date_time: '4:00 pm on 30 May, 2023',
    },
    qa: [
      { question: "Where did Alice's sister move to?", answer: 'Lisbon', evidence: ['D2:1'], category: 4 },
      {
        question: 'What did Alice learn and what did Bob paint?',
        answer: 'cello; sunrise',
        evidence: ['D1:1; D2:2'],
        category: 1,
      },
      { question: "What colour is Bob's canoe?", adversarial_answer: 'red', evidence: ['D1:2'], category: 5 },
      { question: 'When did Alice call Bob?', answer: 'never', evidence: [], category: 2 },
    ],
  },
  {
    sample_id: 'conv-b',
    conversation: {
      speaker_a: 'Chen',
      speaker_b: 'Dana',
      session_1_date_time: '4:10 pm on 2 June, 2023',
      session_1: [
        { speaker: 'Chen', dia_id: 'D1:1', text: 'Our team shipped the billing service on Friday.' },
        { speaker: 'Dana', dia_id: 'D1:2', text: 'Congrats! I am training for a marathon in Berlin.' },
      ],
    },
    qa: [
      { question: "Which city is Dana's marathon in?", answer: 'Berlin', evidence: ['D1:2'], category: 4 },
      {
        question: "What did Chen's team ship?",
        answer: 'the billing service',
        evidence: ['D1:1'],
        category: 4,
      },
    ],
  },
];

const haystack = {
  haystack_dates: ['2023/05/20 (Sat) 02:21', '2023/05/21 (Sun) 08:00'],
  haystack_session_ids: ['s-a', 'answer_x'],
  haystack_sessions: [
    [
      { role: 'user', content: 'Can you suggest a recipe for lentil soup?' },
      {
        role: 'assistant',
        content: 'Sure: simmer red lentils with onion, cumin and stock for twenty minutes.',
      },
    ],
    [
      {
        role: 'user',
        content: 'I just got back from Kyoto, I stayed at a ryokan for three nights.',
        has_answer: true,
      },
      { role: 'assistant', content: 'That sounds wonderful, ryokan stays are a treat.', has_answer: false },
    ],
  ],
};

export const longMemEvalFixture = [
  {
    question_id: 'q1',
    question_type: 'single-session-user',
    question: 'How many nights did I stay at the ryokan in Kyoto?',
    question_date: '2023/06/01 (Thu) 12:00',
    answer: 'three',
    answer_session_ids: ['answer_x'],
    ...haystack,
  },
  {
    question_id: 'q2_abs',
    question_type: 'single-session-user',
    question: 'How many nights did I stay in Osaka?',
    question_date: '2023/06/01 (Thu) 12:00',
    answer: 'not mentioned',
    answer_session_ids: [],
    ...haystack,
  },
];

export const dulemonFixture = [
  {
    bot_persona: ['B1: 我 喜欢 喜剧', 'B2: 我 出生 在 东北'],
    user_said_persona: ['U1: 我 养 猫 ， 会 在 网上 发 它 的 照片', 'U2: 我 父母 最近 搬到 北京'],
    user_no_said_persona: [],
    conversation: [
      'Usr: 在 么 ？ 出来 聊聊',
      'Bot: 我 在 网上 看到 了 你 的 猫 的 照片\tU1',
      'Usr: 你 喜欢 看 什么 喜剧 ？',
      'Bot: 我 特别 喜欢 喜剧 电影\tB1',
    ],
  },
];
