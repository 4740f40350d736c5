// What an X-Api-Key resolves to, kept for a short while: every request needs it, so without a
// cache each request costs a lookup, and during a connection fault one more query to fail.
// Keyed by the key's SHA-256 (the plain key is never kept). Found keys and unknown ones are kept
// apart, each bounded (least recently used first out), so a flood of made-up keys cannot push the
// real ones out. Forgotten when the key changes (key-changes.ts hears it from PostgreSQL).
import { hashApiKey, type ResolvedKey } from "./api-keys";

export interface ApiKeyResolver {
  resolve(key: string): Promise<ResolvedKey | null>;
}

export interface ApiKeyCacheOptions {
  /** Entries kept of each kind (found keys, unknown keys). */
  maxEntries: number;
  /** How long a found key is answered from memory; 0: never. */
  ttlMs: number;
  /** How long an unknown key is refused from memory; 0: never. */
  negativeTtlMs: number;
  now?: () => number;
}

/** A Map in use order (a read moves an entry to the end) that drops its oldest past `max`. */
class Lru<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(private readonly max: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= now) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, expiresAt: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

export class ApiKeyCache implements ApiKeyResolver {
  private readonly found: Lru<ResolvedKey>;
  private readonly unknown: Lru<true>;
  /** Lookups under way, shared by the requests that carry the same key meanwhile. */
  private readonly loading = new Map<string, Promise<ResolvedKey | null>>();
  /** Moves on every forget: a lookup begun before it must not store what it read. */
  private version = 0;
  private readonly now: () => number;

  constructor(
    private readonly load: (keyHash: string) => Promise<ResolvedKey | null>,
    private readonly options: ApiKeyCacheOptions,
  ) {
    this.found = new Lru(options.maxEntries);
    this.unknown = new Lru(options.maxEntries);
    this.now = options.now ?? Date.now;
  }

  /** Entries held now, found and unknown (for tests and metrics). */
  get size(): { found: number; unknown: number } {
    return { found: this.found.size, unknown: this.unknown.size };
  }

  resolve(key: string): Promise<ResolvedKey | null> {
    const keyHash = hashApiKey(key);
    const now = this.now();
    const hit = this.found.get(keyHash, now);
    if (hit) return Promise.resolve(hit);
    if (this.unknown.get(keyHash, now)) return Promise.resolve(null);
    const pending = this.loading.get(keyHash);
    if (pending) return pending;
    const version = this.version;
    const lookup = this.load(keyHash)
      .then((resolved) => {
        // Kept from when the lookup began: what it read is no newer than that.
        if (version === this.version) {
          if (resolved && this.options.ttlMs > 0) this.found.set(keyHash, resolved, now + this.options.ttlMs);
          if (!resolved && this.options.negativeTtlMs > 0)
            this.unknown.set(keyHash, true, now + this.options.negativeTtlMs);
        }
        return resolved;
      })
      .finally(() => {
        if (this.loading.get(keyHash) === lookup) this.loading.delete(keyHash);
      });
    this.loading.set(keyHash, lookup);
    return lookup;
  }

  /** The key with this hash changed (created, deleted, moved): asked of the database next time. */
  forget(keyHash: string): void {
    this.version++;
    this.found.delete(keyHash);
    this.unknown.delete(keyHash);
    this.loading.delete(keyHash);
  }

  /** Everything is asked again (changes may have been missed). */
  clear(): void {
    this.version++;
    this.found.clear();
    this.unknown.clear();
    this.loading.clear();
  }
}
