// The HTTP part shared by the scripted model and embedding servers: a real server on 127.0.0.1 (port 0)
// that records each request, answers one scripted step per request, and can hang or fail on purpose.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What every scripted step may ask for besides its own answer. */
export interface BaseStep {
  status?: number;
  headers?: Record<string, string>;
  /** A raw response body instead of the endpoint's answer. */
  raw?: string;
  /** Never answer (until the server closes). */
  hang?: boolean;
}

export interface ScriptedServerOptions<Body, Step extends BaseStep> {
  /** The one path answered (others get 404), e.g. /v1/embeddings. */
  path: string;
  /** Sees every request (any path) with its parsed body. */
  record(req: IncomingMessage, body: Body, res: ServerResponse): void;
  /** The step for this request; undefined: the script is exhausted (HTTP 500). */
  next(body: Body): Step | undefined;
  /** Writes the endpoint's answer for a step that neither hangs nor fails. */
  answer(body: Body, step: Step, res: ServerResponse, headers: Record<string, string>): void;
}

export interface ScriptedServer {
  /** Base URL as a MNEMO_*_BASE_URL setting would hold it (…/v1). */
  url: string;
  close(): Promise<void>;
}

export async function startScriptedServer<Body, Step extends BaseStep>(
  options: ScriptedServerOptions<Body, Step>,
): Promise<ScriptedServer> {
  const sockets = new Set<Socket>();
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Body;
      options.record(req, body, res);
      if (req.method !== 'POST' || req.url !== options.path) {
        res.writeHead(404).end();
        return;
      }
      const step = options.next(body);
      if (!step) {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"script exhausted"}');
        return;
      }
      if (step.hang) {
        hanging.add(res);
        return;
      }
      const headers = { 'content-type': 'application/json', ...step.headers };
      if (step.raw !== undefined || (step.status !== undefined && step.status !== 200)) {
        res.writeHead(step.status ?? 200, headers).end(step.raw ?? '{"error":"scripted"}');
        return;
      }
      options.answer(body, step, res, headers);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: async () => {
      for (const res of hanging) res.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
