// Trains the semantic store's lists now (a new generation, every vector moved to it), instead of
// waiting for the runtime's background upkeep: `npm run store:train [-- <lists>]`, with the
// runtime's DATABASE_URL and LANGGRAPH_JSON (its store.index.dims). See README, Semantic search.
import { loadProcessConfig } from "../services/agent-runtime/src/config";
import { createDb } from "../services/agent-runtime/src/db";
import { readGraphProject } from "../services/agent-runtime/src/graphs/config";
import { VectorLists } from "../services/agent-runtime/src/store/vector-lists";

async function main(): Promise<void> {
  const config = loadProcessConfig();
  const dims = (readGraphProject(config.LANGGRAPH_JSON).json as { store?: { index?: { dims?: number } } }).store?.index
    ?.dims;
  if (!dims) throw new Error(`${config.LANGGRAPH_JSON} has no store.index.dims: nothing to train`);
  const lists = process.argv[2] ? Number(process.argv[2]) : undefined;
  if (lists !== undefined && !(Number.isInteger(lists) && lists > 0))
    throw new Error("lists must be a positive integer");
  const db = createDb(config.DATABASE_URL, 2);
  try {
    const started = Date.now();
    const trained = await new VectorLists(dims).train(db, lists);
    console.log(
      `store.index: generation ${trained.generation}, ${trained.lists} lists, ${trained.assigned} vectors put in them (${Date.now() - started} ms)`,
    );
  } finally {
    await db.$disconnect();
  }
}

void main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
