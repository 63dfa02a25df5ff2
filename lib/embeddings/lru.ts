// Small least-recently-used map (insertion-ordered Map) for per-text embedding caches.

export class LruCache<K, V> {
  private readonly map = new Map<K, V>();

  constructor(readonly capacity: number) {}

  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value === undefined) return undefined;
    // why: re-inserting moves the key to the most-recent end
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    if (this.capacity <= 0) return;
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K);
  }

  get size(): number {
    return this.map.size;
  }
}

/** Embeds only the texts not cached yet (deduplicated), then answers from the cache in input order. */
export async function embedWithCache(
  texts: string[],
  cache: LruCache<string, number[]>,
  embedMisses: (misses: string[]) => Promise<number[][]>,
): Promise<number[][]> {
  const found = new Map<string, number[]>();
  const misses: string[] = [];
  for (const t of texts) {
    if (found.has(t)) continue;
    const hit = cache.get(t);
    if (hit) found.set(t, hit);
    else if (!misses.includes(t)) misses.push(t);
  }
  if (misses.length > 0) {
    const vectors = await embedMisses(misses);
    if (vectors.length !== misses.length) throw new Error(`expected ${misses.length} embeddings, got ${vectors.length}`);
    misses.forEach((t, i) => {
      cache.set(t, vectors[i]);
      found.set(t, vectors[i]);
    });
  }
  return texts.map((t) => found.get(t) as number[]);
}
