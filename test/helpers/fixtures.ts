// A small bilingual event set used across contract and CLI tests.

export const T0 = Date.parse('2026-09-01T09:00:00Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

export const EVENTS = [
  {
    event_id: 'e1',
    session_id: 's1',
    kind: 'user_message',
    role: 'user',
    at: at(0),
    text: '帮我整理一下九月份的发票报销，单号 RB-2026-0917',
  },
  {
    event_id: 'e2',
    session_id: 's1',
    kind: 'agent_reply',
    role: 'agent',
    at: at(1),
    text: '好的，我找到了 invoice_2026-09.pdf，共三张发票。',
  },
  {
    event_id: 'e3',
    session_id: 's1',
    task_id: 't042',
    kind: 'task_started',
    role: 'system',
    at: at(2),
    text: 'Task t042 started: submit the September expense report',
  },
  {
    event_id: 'e4',
    session_id: 's1',
    task_id: 't042',
    kind: 'task_result',
    role: 'system',
    at: at(30),
    text: 'Expense report submitted to finance; reimbursement expected within 5 days',
  },
  {
    event_id: 'e5',
    session_id: 's2',
    kind: 'user_message',
    role: 'user',
    at: at(600),
    text: 'I prefer window seats when you book my flights to Shanghai',
  },
  {
    event_id: 'e6',
    session_id: 's2',
    kind: 'agent_reply',
    role: 'agent',
    at: at(601),
    text: 'Noted: window seat for flights. 已记住你喜欢靠窗的座位。',
  },
  {
    event_id: 'e7',
    session_id: 's3',
    kind: 'user_message',
    role: 'user',
    at: at(1440),
    text: '上周三我们开会讨论了新版官网的设计方案',
  },
  {
    event_id: 'e8',
    session_id: 's3',
    kind: 'tool_result',
    role: 'tool',
    at: at(1441),
    text: 'Calendar: design review meeting with the web team, Wednesday 15:00',
  },
] as const;
