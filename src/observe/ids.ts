// Random ids for batches, memories and lease tokens.
import { randomBytes } from 'node:crypto';

export const newId = (prefix: string): string => `${prefix}_${randomBytes(9).toString('base64url')}`;

export const newToken = (): string => randomBytes(16).toString('hex');
