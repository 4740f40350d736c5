import fs from "node:fs";
import path from "node:path";
import { parseAllDocuments } from "yaml";

/* eslint-disable @typescript-eslint/no-explicit-any -- manifests are plain JSON */

/**
 * The subset of kustomize the platform's docker/k8s folder uses, for tests on machines without
 * kubectl: `resources` (files and nested kustomizations), `patches` (strategic-merge patch files;
 * lists of named items merge by name), `namespace`, `labels` (pairs; metadata only unless
 * includeSelectors/includeTemplates) and `images` (newName/newTag). Anything else is an error, so a
 * kustomization using a feature this does not implement cannot pass unnoticed.
 */
const SUPPORTED = new Set(["apiVersion", "kind", "resources", "patches", "namespace", "labels", "images"]);
const CLUSTER_SCOPED = new Set([
  "Namespace",
  "ClusterRole",
  "ClusterRoleBinding",
  "CustomResourceDefinition",
  "PersistentVolume",
  "StorageClass",
]);

export function readYamlDocuments(file: string): any[] {
  return parseAllDocuments(fs.readFileSync(file, "utf8"))
    .map((doc) => {
      if (doc.errors.length) throw new Error(`${file}: ${doc.errors[0].message}`);
      return doc.toJS();
    })
    .filter((doc) => doc !== null && doc !== undefined);
}

export function kustomize(dir: string): any[] {
  const file = path.join(dir, "kustomization.yaml");
  const [kustomization] = readYamlDocuments(file);
  for (const key of Object.keys(kustomization)) {
    if (!SUPPORTED.has(key)) throw new Error(`${file}: kustomize field "${key}" is not supported by the test renderer`);
  }
  let objects: any[] = [];
  for (const entry of kustomization.resources ?? []) {
    const target = path.resolve(dir, entry);
    if (!fs.existsSync(target)) throw new Error(`${file}: resource ${entry} does not exist`);
    objects.push(...(fs.statSync(target).isDirectory() ? kustomize(target) : readYamlDocuments(target)));
  }
  objects = structuredClone(objects);
  for (const patch of kustomization.patches ?? []) {
    if (!patch.path || patch.target || patch.patch)
      throw new Error(`${file}: only file patches without target are supported`);
    for (const doc of readYamlDocuments(path.resolve(dir, patch.path))) {
      const target = objects.find((o) => o.kind === doc.kind && o.metadata?.name === doc.metadata?.name);
      if (!target) throw new Error(`${file}: patch ${patch.path} matches no ${doc.kind} ${doc.metadata?.name}`);
      strategicMerge(target, doc);
    }
  }
  if (kustomization.namespace) {
    for (const object of objects) {
      if (CLUSTER_SCOPED.has(object.kind)) continue;
      object.metadata.namespace = kustomization.namespace;
      if (object.kind === "RoleBinding" || object.kind === "ClusterRoleBinding") {
        for (const subject of object.subjects ?? [])
          if (subject.kind === "ServiceAccount") subject.namespace = kustomization.namespace;
      }
    }
  }
  for (const entry of kustomization.labels ?? []) {
    for (const object of objects) {
      object.metadata.labels = { ...(object.metadata.labels ?? {}), ...entry.pairs };
      const template = object.spec?.template;
      if ((entry.includeTemplates || entry.includeSelectors) && template) {
        template.metadata = {
          ...(template.metadata ?? {}),
          labels: { ...(template.metadata?.labels ?? {}), ...entry.pairs },
        };
      }
      if (entry.includeSelectors)
        throw new Error(`${file}: labels.includeSelectors is not supported by the test renderer`);
    }
  }
  for (const image of kustomization.images ?? []) {
    for (const container of podContainers(objects)) {
      const { name } = splitImage(container.image);
      if (name !== image.name) continue;
      const current = splitImage(container.image);
      container.image = `${image.newName ?? current.name}${image.digest ? `@${image.digest}` : `:${image.newTag ?? current.tag ?? "latest"}`}`;
    }
  }
  return objects;
}

export function splitImage(image: string): { name: string; tag?: string } {
  const at = image.indexOf("@");
  if (at >= 0) return { name: image.slice(0, at) };
  const colon = image.lastIndexOf(":");
  return colon > image.lastIndexOf("/")
    ? { name: image.slice(0, colon), tag: image.slice(colon + 1) }
    : { name: image };
}

/** Pod specs of workloads (Deployment, Job, ...) and their containers, init containers included. */
export function podSpecs(objects: any[]): { owner: any; spec: any }[] {
  return objects.filter((o) => o.spec?.template?.spec).map((owner) => ({ owner, spec: owner.spec.template.spec }));
}

export function podContainers(objects: any[]): any[] {
  return podSpecs(objects).flatMap(({ spec }) => [...(spec.initContainers ?? []), ...(spec.containers ?? [])]);
}

function strategicMerge(target: any, patch: any): void {
  for (const [key, value] of Object.entries(patch)) {
    const current = target[key];
    if (
      Array.isArray(value) &&
      Array.isArray(current) &&
      value.every((item: any) => item && typeof item === "object" && "name" in item)
    ) {
      for (const item of value as any[]) {
        const existing = current.find((c: any) => c?.name === item.name);
        if (existing) strategicMerge(existing, item);
        else current.push(structuredClone(item));
      }
    } else if (
      value &&
      typeof value === "object" &&
      !Array.isArray(value) &&
      current &&
      typeof current === "object" &&
      !Array.isArray(current)
    ) {
      strategicMerge(current, value);
    } else {
      target[key] = structuredClone(value);
    }
  }
}
