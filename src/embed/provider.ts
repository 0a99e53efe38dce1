// The one small interface every embedding provider implements.

export interface EmbedUsage {
  /** HTTP calls made, failed attempts included. */
  calls: number;
  prompt_tokens?: number;
}

export interface EmbedResult {
  /** One vector per input text, in input order, all of one dimension. */
  vectors: Float32Array[];
  usage: EmbedUsage;
}

export interface EmbeddingProvider {
  /** The model name: vectors of two ids are never mixed. */
  readonly id: string;
  /** The dimension asked for (`dimensions` in the request); undefined: the model's own. */
  readonly dimensions: number | undefined;
  /** Throws MemoryError EMBEDDING_FAILED or EMBEDDING_TIMEOUT; the caller's abort reason when aborted. */
  embed(texts: readonly string[], options?: { signal?: AbortSignal }): Promise<EmbedResult>;
}
