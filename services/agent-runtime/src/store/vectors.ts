// Vectors as the semantic index keeps them for its lists: float32, big-endian (what PostgreSQL's
// float4send writes, so SQL can convert a real[] itself), unit length; and the arithmetic on them.

/** A vector's float32 bytes, big-endian. */
export function toF32Bytes(vector: ArrayLike<number>): Buffer {
  const bytes = Buffer.allocUnsafe(vector.length * 4);
  for (let i = 0; i < vector.length; i++) bytes.writeFloatBE(vector[i]!, i * 4);
  return bytes;
}

/** A vector back from its bytes (into `into` when given, which must hold `bytes.length / 4`). */
export function fromF32Bytes(bytes: Uint8Array, into?: Float32Array): Float32Array {
  const out = into ?? new Float32Array(bytes.length / 4);
  const swapped = new Uint8Array(out.buffer, out.byteOffset, bytes.length);
  swapped.set(bytes);
  // In place: big-endian to this machine's order (little-endian everywhere Node runs here).
  if (LITTLE_ENDIAN) Buffer.from(out.buffer, out.byteOffset, bytes.length).swap32();
  return out;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/**
 * dot() of two float32 vectors (of the same length): one shape for the search's hot loop, four
 * sums at a time (independent additions: nearly twice as fast as one running sum).
 */
export function dotF32(a: Float32Array, b: Float32Array): number {
  const n = a.length;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    s0 += a[i]! * b[i]!;
    s1 += a[i + 1]! * b[i + 1]!;
    s2 += a[i + 2]! * b[i + 2]!;
    s3 += a[i + 3]! * b[i + 3]!;
  }
  for (; i < n; i++) s0 += a[i]! * b[i]!;
  return s0 + s1 + s2 + s3;
}

/**
 * The dot product as the exact scan computes it in SQL over real[]s (sum(a * b) of the pairs of
 * their elements): each product and the running sum rounded to float32, in order, over the shorter
 * of the two; bit for bit its answer, so a search scanned here and one scanned there agree.
 */
export function dotAsSql(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let sum = 0;
  for (let i = 0; i < n; i++) sum = Math.fround(sum + Math.fround(a[i]! * b[i]!));
  return sum;
}

/** The `count` rows of `centroids` with the largest dot product with `vector`, best first. */
export function nearest(vector: ArrayLike<number>, centroids: Float32Array[], count: number): number[] {
  const scores = centroids.map((centroid, index) => ({ index, score: dot(vector, centroid) }));
  scores.sort((a, b) => b.score - a.score);
  return scores.slice(0, count).map((entry) => entry.index);
}

/** The index of the centroid nearest `vector` (largest dot product). */
export function nearestOne(vector: ArrayLike<number>, centroids: Float32Array[]): number {
  let best = 0;
  let bestScore = -Infinity;
  for (let c = 0; c < centroids.length; c++) {
    const score = dot(vector, centroids[c]!);
    if (score > bestScore) {
      bestScore = score;
      best = c;
    }
  }
  return best;
}

function normalize(vector: Float32Array): Float32Array {
  const norm = Math.sqrt(dot(vector, vector));
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}

/**
 * Spherical k-means (cosine): `k` unit centroids of `sample`, seeded by distinct sample vectors,
 * `iterations` rounds of assign-and-average; a list left empty takes a random sample vector.
 * Seconds of CPU at 100k vectors: the server runs it in a worker thread (centroid-worker.ts).
 */
export function kmeans(sample: Float32Array[], k: number, iterations: number): Float32Array[] {
  const dims = sample[0]!.length;
  const order = shuffled(sample.length);
  // Seeds and re-seeds are unit vectors, as every centroid must be: a sample vector of another
  // length (the growth bench writes its vectors by SQL, unnormalized) took its list's neighbours'
  // vectors by its norm alone, emptying their lists and scattering a topic over others.
  const centroids: Float32Array[] = order.slice(0, k).map((index) => normalize(Float32Array.from(sample[index]!)));
  const assigned = new Int32Array(sample.length);
  for (let round = 0; round < iterations; round++) {
    for (let i = 0; i < sample.length; i++) assigned[i] = nearestOne(sample[i]!, centroids);
    const sums = centroids.map(() => new Float32Array(dims));
    const counts = new Int32Array(k);
    sample.forEach((vector, i) => {
      const sum = sums[assigned[i]!]!;
      counts[assigned[i]!]! += 1;
      for (let d = 0; d < dims; d++) sum[d]! += vector[d]!;
    });
    sums.forEach((sum, c) => {
      centroids[c] = normalize(counts[c] ? sum : Float32Array.from(sample[Math.floor(Math.random() * sample.length)]!));
    });
  }
  return centroids;
}

/** `count` vectors of `dims` laid end to end, as views (no copy). */
export function rowsOf(flat: Float32Array, dims: number): Float32Array[] {
  return Array.from({ length: flat.length / dims }, (_, i) => flat.subarray(i * dims, (i + 1) * dims));
}

function shuffled(length: number): number[] {
  const order = Array.from({ length }, (_, index) => index);
  for (let i = length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/**
 * A vector's int8 copy, what a search scores its candidates by: its scale (float32, big-endian:
 * the largest magnitude over 127) and then one signed byte per dimension, the element over the
 * scale, rounded. A quarter of the float32 bytes, small enough to stay in the row at 1536 dims.
 */
export function toI8Bytes(vector: ArrayLike<number>): Buffer {
  let largest = 0;
  for (let i = 0; i < vector.length; i++) largest = Math.max(largest, Math.abs(vector[i]!));
  // At least 1e-37, as the SQL copy's (quantized.ts): a tiny vector's scale would underflow to 0.
  const scale = Math.fround(largest > 0 ? Math.max(largest / 127, 1e-37) : 1);
  const bytes = Buffer.allocUnsafe(4 + vector.length);
  bytes.writeFloatBE(scale, 0);
  for (let i = 0; i < vector.length; i++)
    bytes.writeInt8(Math.max(-127, Math.min(127, Math.round(vector[i]! / scale))), 4 + i);
  return bytes;
}

const SCALE = new DataView(new ArrayBuffer(4));

/**
 * The dot product of the int8 copy (toI8Bytes) at `at` in `codes` with a float32 vector of its
 * dims: within a few thousandths. No view is made of the copy (thousands per search); four sums at
 * a time, as dotF32.
 */
export function dotI8At(codes: Int8Array, at: number, target: Float32Array): number {
  const n = target.length;
  const base = at + 4;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    s0 += codes[base + i]! * target[i]!;
    s1 += codes[base + i + 1]! * target[i + 1]!;
    s2 += codes[base + i + 2]! * target[i + 2]!;
    s3 += codes[base + i + 3]! * target[i + 3]!;
  }
  for (; i < n; i++) s0 += codes[base + i]! * target[i]!;
  for (let b = 0; b < 4; b++) SCALE.setInt8(b, codes[at + b]!);
  return (s0 + s1 + s2 + s3) * SCALE.getFloat32(0, false);
}
