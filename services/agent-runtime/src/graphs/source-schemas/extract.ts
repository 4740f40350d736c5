// JSON Schemas of a graph's TypeScript types (state, input, output, context), for the graph and its
// subgraphs, read with the TypeScript compiler and typescript-json-schema. A copy of the graph's
// module, with type aliases appended, is compiled beside it (in memory) so it resolves its imports
// as the graph does. CPU heavy (seconds): it runs in a worker thread (see reader.ts).
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { buildGenerator } from "typescript-json-schema";
import { SubgraphFinder } from "./subgraphs";
import { PARTS, SELF, aliasName, appendix, type Part } from "./template";

type JsonSchema = Record<string, unknown>;
export type SourceGraphSchema = Partial<Record<Part, JsonSchema>>;
/** Schemas by namespace: "" for the graph itself, `node` and `node|child` for its subgraphs. */
export type SourceSchemas = Record<string, SourceGraphSchema>;

export interface SourceGraphSpec {
  /** Absolute path of the graph's module. */
  file: string;
  exportName: string;
}

const DEFAULT_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  esModuleInterop: true,
  allowJs: true,
};

/** The project's tsconfig (the nearest one), with what the extraction needs forced. */
function compilerOptions(directory: string): ts.CompilerOptions {
  let options = DEFAULT_OPTIONS;
  const configPath = ts.findConfigFile(directory, ts.sys.fileExists, "tsconfig.json");
  if (configPath) {
    const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
    if (config) options = ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(configPath)).options;
  }
  // strict: `string | null` stays a union; the rest only saves time or silences what does not matter here.
  return {
    ...options,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    noUnusedLocals: false,
    noUnusedParameters: false,
    types: [],
    allowJs: true,
  };
}

/**
 * A compiler host that also serves the in-memory copy, and resolves a package the graph's folder
 * does not have from the runtime's own node_modules (as NODE_PATH lets the graph load it).
 */
function createHost(options: ts.CompilerOptions, virtual: Map<string, string>): ts.CompilerHost {
  const host = ts.createCompilerHost(options, true);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (file) => virtual.has(file) || fileExists.call(host, file);
  host.readFile = (file) => virtual.get(file) ?? readFile.call(host, file);
  host.getSourceFile = (file, languageVersion, onError, shouldCreate) => {
    const text = virtual.get(file);
    if (text !== undefined) return ts.createSourceFile(file, text, languageVersion, true);
    return getSourceFile.call(host, file, languageVersion, onError, shouldCreate);
  };
  const cache = ts.createModuleResolutionCache(host.getCurrentDirectory(), (name) => name, options);
  const fallbackFrom = path.join(__dirname, "__resolve__.ts");
  host.resolveModuleNameLiterals = (literals, containingFile, redirected, compilerOptions, sourceFile) =>
    literals.map((literal) => {
      const mode = ts.getModeForUsageLocation(sourceFile, literal, compilerOptions);
      const resolved = ts.resolveModuleName(
        literal.text,
        containingFile,
        compilerOptions,
        host,
        cache,
        redirected,
        mode,
      );
      if (resolved.resolvedModule || literal.text.startsWith(".")) return resolved;
      return ts.resolveModuleName(literal.text, fallbackFrom, compilerOptions, host, cache, redirected, mode);
    });
  return host;
}

/** The module part of a type's name: `import("/abs/node_modules/...",{with:{...}}).` */
const IMPORT_QUALIFIER = /import\("(?:[^"\\]|\\.)*"(?:,\{[^()]*\})?\)\./g;

/** A reference as the generator writes it (the name URI-encoded), decoded as the official server answers it. */
function decodeRef(ref: string): string {
  const prefix = "#/definitions/";
  if (!ref.startsWith(prefix)) return ref;
  try {
    return prefix + decodeURIComponent(ref.slice(prefix.length));
  } catch {
    return ref;
  }
}

/**
 * Definitions named with their module's path get the type's own name where it is free
 * (`BaseMessage<...>`), and references are written with plain names.
 */
function normalizeDefinitions(schema: JsonSchema): JsonSchema {
  const definitions = (schema.definitions ?? {}) as Record<string, unknown>;
  const renames = new Map<string, string>();
  const taken = new Set(Object.keys(definitions));
  for (const key of Object.keys(definitions)) {
    const short = key.replace(IMPORT_QUALIFIER, "");
    if (short === key || taken.has(short)) continue;
    taken.add(short);
    renames.set(key, short);
  }
  const text = JSON.stringify(schema, (key, value: unknown) => {
    if (key === "definitions" && value === definitions)
      return Object.fromEntries(Object.entries(definitions).map(([name, body]) => [renames.get(name) ?? name, body]));
    if (key === "$ref" && typeof value === "string") {
      const ref = decodeRef(value);
      const name = ref.slice("#/definitions/".length);
      return renames.has(name) ? `#/definitions/${renames.get(name)}` : ref;
    }
    return value;
  });
  return JSON.parse(text) as JsonSchema;
}

/** A list of messages is marked as the official server marks messages channels (chat UIs look for it). */
function markMessages(schema: JsonSchema): JsonSchema {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  for (const field of Object.values(properties ?? {})) {
    const ref = (field?.items as JsonSchema | undefined)?.$ref;
    if (field?.type === "array" && typeof ref === "string" && /^#\/definitions\/BaseMessage(<|$)/.test(ref))
      field.langgraph_type = "messages";
  }
  return schema;
}

/** A schema worth answering: `never` (a part the graph does not have) yields none. */
function isUseful(schema: JsonSchema | undefined): schema is JsonSchema {
  if (!schema || typeof schema !== "object") return false;
  return !("not" in schema && Object.keys(schema).filter((key) => !["not", "$schema"].includes(key)).length === 0);
}

export function extractSourceSchemas(spec: SourceGraphSpec): SourceSchemas {
  const file = path.resolve(spec.file);
  const options = compilerOptions(path.dirname(file));
  const virtual = new Map<string, string>();
  const host = createHost(options, virtual);

  // 1. Where the subgraphs are, from the graph's own module.
  const first = ts.createProgram({ rootNames: [file], options, host });
  const source = first.getSourceFile(file);
  if (!source) throw new Error(`cannot read ${file}`);
  const subgraphs = new SubgraphFinder(first, source).find(spec.exportName);

  // 2. A copy beside it, with one alias per part of each graph; the copy imports itself for the export.
  const extension = path.extname(file);
  const copyBase = `__lgs_${path.basename(file, extension)}`;
  const copy = path.join(path.dirname(file), `${copyBase}${extension}`);
  const runtimeExtension = { ".ts": ".js", ".mts": ".mjs", ".cts": ".cjs", ".tsx": ".js" }[extension] ?? extension;
  const targets = [`${SELF}[${JSON.stringify(spec.exportName)}]`, ...subgraphs.map((item) => item.name)];
  const namespaces = ["", ...subgraphs.map((item) => item.namespace)];
  virtual.set(copy, `${fs.readFileSync(file, "utf8")}\n\n${appendix(`./${copyBase}${runtimeExtension}`, targets)}\n`);
  const program = ts.createProgram({ rootNames: [copy], options, host, oldProgram: first });

  const generator = buildGenerator(program, { ignoreErrors: true }, [copy]);
  if (!generator) throw new Error("the JSON Schema generator could not start");
  const result: SourceSchemas = {};
  namespaces.forEach((namespace, index) => {
    const schemas: SourceGraphSchema = {};
    for (const part of PARTS) {
      let schema: JsonSchema | undefined;
      try {
        schema = generator.getSchemaForSymbol(aliasName(index, part)) as JsonSchema;
      } catch {
        schema = undefined; // a type the generator cannot express: the runtime's schema stays
      }
      if (isUseful(schema)) schemas[part] = markMessages(normalizeDefinitions(schema));
    }
    result[namespace] = schemas;
  });
  return result;
}
