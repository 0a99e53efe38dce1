// A prepare worker that dies on its first request, as a worker would on a fatal error.
import { parentPort } from 'node:worker_threads';

parentPort.on('message', () => {
  throw new Error('worker crashed');
});
