// Bundles each service's OpenAPI fragments (openapi/<service>/*.yaml, one per capability) into
// one document, and generates TypeScript types from it with openapi-typescript.
// `--check` regenerates in memory and fails when a checked-in file is stale.
import { readdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { parse } from "yaml";
import { format, resolveConfig } from "prettier";

const root = path.resolve(__dirname, "..");
const services = ["control-plane", "agent-runtime"] as const;
const check = process.argv.includes("--check");

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Deep-merges a fragment into the document. A path operation (`paths.<path>.<method>`) or a
 * component (`components.<kind>.<name>`) defined by two fragments is an error, not an override.
 */
function mergeInto(target: Json, source: Json, at: string[] = []): void {
  for (const [key, value] of Object.entries(source)) {
    const here = [...at, key];
    const owned = (here[0] === "paths" && here.length === 3) || (here[0] === "components" && here.length === 3);
    if (!(key in target)) {
      target[key] = value;
    } else if (!owned && isObject(target[key]) && isObject(value)) {
      mergeInto(target[key] as Json, value, here);
    } else if (JSON.stringify(target[key]) !== JSON.stringify(value)) {
      throw new Error(`${here.join(".")} is defined twice`);
    }
  }
}

export function bundle(service: string): Json {
  const dir = path.join(root, "openapi", service);
  const files = readdirSync(dir)
    .filter((file) => file.endsWith(".yaml"))
    .sort();
  const document: Json = {};
  // base.yaml first: it carries openapi, info, servers and security.
  for (const file of ["base.yaml", ...files.filter((file) => file !== "base.yaml")]) {
    const fragment = parse(readFileSync(path.join(dir, file), "utf8")) as Json;
    try {
      mergeInto(document, fragment);
    } catch (error) {
      throw new Error(`${service}/${file}: ${(error as Error).message}`, { cause: error });
    }
  }
  const paths = (document.paths ?? {}) as Json;
  // Responses every operation may give (base.yaml's `x-every-operation-responses`), unless it says otherwise.
  const common = document["x-every-operation-responses"];
  delete document["x-every-operation-responses"];
  if (isObject(common)) {
    for (const item of Object.values(paths).filter(isObject)) {
      for (const operation of Object.values(item).filter(isObject)) {
        if (isObject(operation.responses)) operation.responses = { ...common, ...operation.responses };
      }
    }
  }
  document.paths = Object.fromEntries(
    Object.keys(paths)
      .sort()
      .map((key) => [key, paths[key]]),
  );
  return document;
}

async function main(): Promise<void> {
  const prettierConfig = (await resolveConfig(path.join(root, "src/generated/x.ts"))) ?? {};
  let stale = false;
  for (const service of services) {
    const document = bundle(service);
    const json = await format(JSON.stringify(document), { ...prettierConfig, parser: "json" });
    const types = await format(
      `// Generated from packages/contracts/openapi/${service}/*.yaml by \`npm run generate\`. Do not edit.\n${astToString(
        await openapiTS(document as never, { alphabetize: false, exportType: true }),
      )}`,
      { ...prettierConfig, parser: "typescript" },
    );
    for (const [file, content] of [
      [`${service}.openapi.json`, json],
      [`${service}.ts`, types],
    ] as const) {
      const target = path.join(root, "src/generated", file);
      if (check) {
        if (!existsSync(target) || readFileSync(target, "utf8") !== content) {
          console.error(`stale: packages/contracts/src/generated/${file} (run npm run generate)`);
          stale = true;
        }
      } else {
        writeFileSync(target, content);
      }
    }
  }
  if (stale) process.exit(1);
  console.log(check ? "contracts are up to date" : "contracts generated");
}

if (require.main === module) {
  main().catch((error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
}
