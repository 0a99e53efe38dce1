// Structured logs on stderr (stdout stays free for protocols such as MCP stdio and CLI output).
import { pino, type Logger } from 'pino';

export type { Logger };

export const createLogger = (level: string = 'info'): Logger =>
  pino({ level, base: { service: 'mnemo' } }, pino.destination({ dest: 2, sync: true }));

export const silentLogger = (): Logger => pino({ level: 'silent' });
