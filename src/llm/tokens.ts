// Moved to text/tokens.ts (the one token estimate every stage shares); kept so older imports still work.
export * from '../text/tokens.js';
