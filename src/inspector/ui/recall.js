// Recall as the page needs it: a wait long enough for most answers, and an answer that went pending
// (memory.recall answers {status: 'pending', request_id} past its wait) polled with memory.requests.get.
import { call, RpcError } from './rpc.js';

const WAIT_MS = 3000;
const POLL_MS = 200;
const POLLS = 150;

/** @param {number} ms */
const pause = (ms) => new Promise((resolve) => window.setTimeout(resolve, ms));

/** @param {Record<string, unknown> & {owner: string}} params @returns {Promise<any>} */
export async function recall(params) {
  const answer = await call('memory.recall', { ...params, wait_ms: WAIT_MS });
  if (answer.status !== 'pending') return answer;
  for (let i = 0; i < POLLS; i++) {
    await pause(POLL_MS);
    const request = await call('memory.requests.get', { owner: params.owner, request_id: answer.request_id });
    if (request.result) return request.result;
    if (request.status === 'failed') {
      throw new RpcError(
        request.error?.code ?? 'RECALL_FAILED',
        request.error?.message ?? 'the recall failed',
      );
    }
    if (request.status !== 'pending') break;
  }
  throw new RpcError('RECALL_PENDING', `the recall ${answer.request_id} did not finish in time; try again`);
}
