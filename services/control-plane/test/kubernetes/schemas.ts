import fs from "node:fs";
import path from "node:path";
import NodeModule from "node:module";

/**
 * Validates Kubernetes objects against the API's OpenAPI schemas, with the `kubernetes-models`
 * package (`new Deployment(obj).validate()`). The package ships only ES modules with an `import`
 * export condition; jest's registry cannot load those, so each model file is loaded by absolute path
 * through Node's own loader (require of ES modules, Node >= 20.19).
 */
const ModuleClass = NodeModule as unknown as {
  new (id: string): { filename: string; paths: string[]; require(id: string): unknown };
  _nodeModulePaths(dir: string): string[];
};

function packageDir(name: string): string {
  for (const dir of ModuleClass._nodeModulePaths(__dirname)) {
    const candidate = path.join(dir, name);
    if (fs.existsSync(path.join(candidate, "package.json"))) return candidate;
  }
  throw new Error(`${name} is not installed`);
}

const loader = new ModuleClass(__filename);
loader.filename = __filename;
loader.paths = ModuleClass._nodeModulePaths(__dirname);

interface Model {
  validate(): void;
}
type ModelClass = new (data: unknown) => Model;

const modelsDir = packageDir("kubernetes-models");

export function modelClass(apiVersion: string, kind: string): ModelClass {
  const file = path.join(modelsDir, apiVersion, `${kind}.js`);
  if (!fs.existsSync(file)) throw new Error(`no Kubernetes schema for ${apiVersion} ${kind}`);
  const exported = (loader.require(file) as Record<string, ModelClass>)[kind];
  if (!exported) throw new Error(`kubernetes-models has no ${kind} in ${apiVersion}`);
  return exported;
}

/** Throws with the schema's messages when `manifest` is not a valid object of its apiVersion/kind. */
export function validateManifest(manifest: { apiVersion?: string; kind?: string }): void {
  if (!manifest.apiVersion || !manifest.kind)
    throw new Error(`manifest without apiVersion/kind: ${JSON.stringify(manifest)}`);
  const Model = modelClass(manifest.apiVersion, manifest.kind);
  new Model(manifest).validate();
}

/** Loads an ES-module-only package through Node's loader (see above). */
export function nodeImport<T>(name: string, file = ""): T {
  return loader.require(file ? path.join(packageDir(name), file) : name) as T;
}
