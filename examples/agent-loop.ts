// A small agent loop over mnemo: before each step it asks memory about the task, after it records what
// happened. The "model" is a stand-in that answers from what memory returned; put your model call there.
//   npx tsx examples/agent-loop.ts [--socket PATH | --url URL] [--owner OWNER]
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { connect, type MemoryClient, type MethodResult } from 'mnemo-memory/client';

export interface Step {
  /** What the agent is asked, as the user said it. */
  user: string;
  /** What to look up in memory before answering. */
  query: string;
}

type Recalled = Extract<MethodResult<'memory.recall'>, { status: 'ready' }>['items'];

/** The stand-in model: a real agent sends the user's words and the recalled items to its model. */
const act = (step: Step, memory: Recalled): string =>
  memory[0] ? `From memory (${memory[0].id}): ${memory[0].text.slice(0, 120)}` : `Noted: ${step.user}`;

export async function runAgentLoop(
  client: MemoryClient,
  options: { owner: string; session: string; steps: readonly Step[]; log?: (line: string) => void },
): Promise<void> {
  const { owner, session, log = (line) => console.log(line) } = options;
  for (const [i, step] of options.steps.entries()) {
    // HOOK(packet): once mnemo serves packets and snapshots (a later issue), ask for the session's packet
    // here instead of a plain recall, and claim what the inbox holds for this session.
    const answer = await client.call('memory.recall', {
      owner,
      query: step.query,
      limit: 3,
      kinds: ['event'],
      // Not ready within the wait budget (75 ms): `pending`, and the answer lands in this session's inbox.
      caller_session_id: session,
    });
    const memory = { items: answer.status === 'ready' ? answer.items : [] };
    const reply = act(step, memory.items);
    const at = Date.now();
    const turn = { session_id: session, at };
    await client.call('memory.events.ingest', {
      owner,
      events: [
        {
          ...turn,
          event_id: `${session}-${i + 1}-user`,
          kind: 'user_message',
          role: 'user',
          text: step.user,
        },
        { ...turn, event_id: `${session}-${i + 1}-agent`, kind: 'agent_reply', role: 'agent', text: reply },
      ],
    });
    log(JSON.stringify({ step: i + 1, recalled: memory.items.map((item) => item.id), reply }));
  }
}

export const DEMO_STEPS: readonly Step[] = [
  { user: 'Book me a flight to Shanghai next Tuesday, window seat please.', query: 'flight Shanghai' },
  { user: '帮我订上海的酒店，离外滩近一点。', query: '上海 酒店' },
  { user: 'Which seat did I ask for on the Shanghai flight?', query: 'Shanghai flight seat' },
];

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: { socket: { type: 'string' }, url: { type: 'string' }, owner: { type: 'string' } },
  });
  const client = values.url
    ? connect({ url: values.url })
    : connect(values.socket ? { socket: values.socket } : {});
  await runAgentLoop(client, { owner: values.owner ?? 'user:demo', session: 'demo', steps: DEMO_STEPS });
  await client.close();
}
