// Random ids of knowledge records (conflict sets).
import { randomBytes } from 'node:crypto';

export const newKnowledgeId = (prefix: string): string => `${prefix}_${randomBytes(9).toString('base64url')}`;
