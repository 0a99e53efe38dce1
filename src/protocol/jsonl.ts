// Newline framing for JSON-lines streams: bytes in, bounded UTF-8 lines out.

export interface LineReaderOptions {
  /** Longest line accepted, in bytes, not counting the line ending. */
  maxLineBytes: number;
  onLine: (line: string) => void;
  /** Called once per line that grew past maxLineBytes; its bytes are dropped up to the next newline. */
  onOverflow: () => void;
}

export interface LineReader {
  push(chunk: Uint8Array): void;
  /** Delivers a last line left without a newline. */
  end(): void;
  /** Whether a line has begun and not yet ended. */
  partial(): boolean;
  /** Delivers nothing more, not even the rest of the chunk being pushed; drops what is buffered. */
  stop(): void;
}

const NEWLINE = 0x0a;
const CR = 0x0d;

export function createLineReader(options: LineReaderOptions): LineReader {
  const { maxLineBytes, onLine, onOverflow } = options;
  // Splitting at 0x0a never cuts a UTF-8 sequence, so lines are decoded whole.
  const decoder = new TextDecoder('utf-8');
  let parts: Uint8Array[] = [];
  let size = 0;
  let discarding = false;
  let stopped = false;

  const emit = (bytes: Uint8Array): void => {
    const end = bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.length - 1 : bytes.length;
    if (end > maxLineBytes) {
      onOverflow();
      return;
    }
    const line = decoder.decode(bytes.subarray(0, end));
    if (line.trim().length > 0) onLine(line);
  };

  const take = (tail: Uint8Array): Uint8Array => {
    const whole = parts.length === 0 ? tail : Buffer.concat([...parts, tail]);
    parts = [];
    size = 0;
    return whole;
  };

  return {
    push(chunk) {
      let start = 0;
      // invariant: after stop(), even from inside a callback, no line is delivered (jsonl.test.ts
      // "regression for issue 8: delivers nothing after stop()").
      while (start < chunk.length && !stopped) {
        const at = chunk.indexOf(NEWLINE, start);
        const stop = at === -1 ? chunk.length : at;
        if (discarding) {
          if (at !== -1) discarding = false;
        } else if (at !== -1) {
          emit(take(chunk.subarray(start, stop)));
        } else {
          // Copied: the caller may reuse its chunk buffer.
          parts.push(new Uint8Array(chunk.subarray(start, stop)));
          size += stop - start;
          // invariant: a line never buffers more than maxLineBytes + 1 bytes (the +1 may be a CR).
          if (size > maxLineBytes + 1) {
            parts = [];
            size = 0;
            discarding = true;
            onOverflow();
          }
        }
        start = stop + 1;
      }
    },
    end() {
      if (!stopped && !discarding && size > 0) emit(take(new Uint8Array(0)));
      parts = [];
      size = 0;
      discarding = false;
    },
    partial: () => !stopped && (discarding || size > 0),
    stop() {
      stopped = true;
      parts = [];
      size = 0;
    },
  };
}

/** One message as one line. JSON.stringify never emits a raw newline, so the frame is safe. */
export const encodeLine = (message: unknown): string => `${JSON.stringify(message)}\n`;

export type JsonParse = { ok: true; value: unknown } | { ok: false; message: string };

export function parseJson(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
