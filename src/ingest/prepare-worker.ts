// A prepare worker: validates, redacts, hashes and tokenizes the events the pool sends it.
import { parentPort, workerData } from 'node:worker_threads';
import { createRedactor } from '../text/redact.js';
import { prepareEvents } from './prepare.js';
import type { PrepareRequest, PrepareResponse, PrepareWorkerData } from './prepare-pool.js';

const { salt, fingerprintKey, redactEmails } = workerData as PrepareWorkerData;
const ctx = { salt, redactor: createRedactor({ emails: redactEmails, salt: fingerprintKey }) };
const port = parentPort;
if (port === null) throw new Error('prepare-worker runs only as a worker thread');

port.on('message', (request: PrepareRequest) => {
  prepareEvents(ctx, request.owner, request.raw, request.offset).then(
    (outcome) => port.postMessage({ id: request.id, outcome } satisfies PrepareResponse),
    (error: unknown) =>
      port.postMessage({
        id: request.id,
        error: error instanceof Error ? error.message : String(error),
      } satisfies PrepareResponse),
  );
});
