// A small agent loop over mnemo: before each step it claims what the session's inbox holds and asks for a
// memory packet about the task (delivered once it went into the request), after it records what happened.
// The "model" is a stand-in that answers from the packet; put your model call there.
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

type Packet = NonNullable<MethodResult<'memory.packet.build'>['packet']>;

/** The stand-in model: a real agent appends `packet.text` (reference material) to its next request. */
const act = (step: Step, items: Packet['items']): string =>
  items[0] ? `From memory (${items[0].id}): ${items[0].text.slice(0, 120)}` : `Noted: ${step.user}`;

export async function runAgentLoop(
  client: MemoryClient,
  options: { owner: string; session: string; steps: readonly Step[]; log?: (line: string) => void },
): Promise<void> {
  const { owner, session, log = (line) => console.log(line) } = options;
  for (const [i, step] of options.steps.entries()) {
    // What arrived for this step (late recall answers, notices, the user's steer), exactly once, in order.
    const inbox = await client.call('memory.inbox.claim', { owner, session_id: session });
    // A packet within the default budgets, or null with the reason (`pending`: the search outlived its
    // 75 ms wait; ask again next step). Items are ranked, deduplicated and safety-gated: quoted data keeps
    // its marker, a risky procedure is a question for the user.
    const built = await client.call('memory.packet.build', { owner, session_id: session, query: step.query });
    const items = built.packet?.items ?? [];
    const reply = act(step, items);
    // The packet went into the request: the session will not be given its items again.
    if (built.packet) {
      await client.call('memory.packet.delivered', { owner, packet_id: built.packet.packet_id });
    }
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
    log(
      JSON.stringify({
        step: i + 1,
        claimed: inbox.items.length,
        recalled: items.map((item) => item.id),
        packet: built.packet ? { bytes: built.packet.bytes, strength: built.packet.strength } : built.reason,
        reply,
      }),
    );
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
