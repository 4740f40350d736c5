// The embedding function of the store's semantic index (langgraph.json `store.index.embed`). A
// stand-in that needs no network: words hashed into 64 buckets, so texts that share words are
// close. A deployment would name a model instead: `"embed": "openai:text-embedding-3-small"`.
const DIMS = 64;

function bucket(word: string): number {
  let hash = 2166136261;
  for (const char of word) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return (hash >>> 0) % DIMS;
}

export async function embed(texts: string[]): Promise<number[][]> {
  return texts.map((text) => {
    const vector = new Array<number>(DIMS).fill(0);
    for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) vector[bucket(word)] += 1;
    return vector;
  });
}
