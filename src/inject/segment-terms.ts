// The index terms a working-memory segment keeps of its (redacted) text: shared by the gate, which stores
// them, and memory.forget, which takes a forgotten item's terms out of every ring.
import { isStopWord, queryTerms } from '../text/tokenize.js';

/** A redaction marker says what was there, not what the text is about: no term. */
const MARKER = /\[redacted:[a-z_]+\]/g;

/** Distinct-in-order non-stop index terms of a text. */
export const segmentTerms = (text: string): string[] =>
  queryTerms(text.replace(MARKER, ' ')).filter((t) => !isStopWord(t));
