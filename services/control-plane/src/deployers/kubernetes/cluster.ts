import type { K8s } from "./client";
import { loadKubernetesClient } from "./client";

/** Identifies one object in the cluster. */
export interface ObjectRef {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
}

/**
 * The few cluster operations the deployer uses, over `KubernetesObjectApi`: server-side apply
 * (`application/apply-patch+yaml` with a field manager), read, list by label and delete.
 */
export class Cluster {
  private readonly objects: K8s.KubernetesObjectApi;
  private readonly k8s = loadKubernetesClient();

  constructor(
    kubeConfig: K8s.KubeConfig,
    private readonly fieldManager: string,
  ) {
    this.objects = this.k8s.KubernetesObjectApi.makeApiClient(kubeConfig);
  }

  /** Server-side apply; `force` takes over fields another manager set (the platform owns these objects). */
  async apply<T extends K8s.KubernetesObject>(manifest: T): Promise<T> {
    // The client fills in defaults on the object it is given: apply a copy.
    const body = structuredClone(manifest);
    return this.objects.patch(
      body,
      undefined,
      undefined,
      this.fieldManager,
      true,
      this.k8s.PatchStrategy.ServerSideApply,
    );
  }

  /** The object, or null when it does not exist. */
  async read<T extends K8s.KubernetesObject>(ref: ObjectRef): Promise<T | null> {
    try {
      return (await this.objects.read({
        apiVersion: ref.apiVersion,
        kind: ref.kind,
        metadata: { name: ref.name, namespace: ref.namespace },
      })) as T;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async list<T extends K8s.KubernetesObject>(
    apiVersion: string,
    kind: string,
    namespace: string,
    labelSelector: string,
  ): Promise<T[]> {
    const list = await this.objects.list<T>(
      apiVersion,
      kind,
      namespace,
      undefined,
      undefined,
      undefined,
      undefined,
      labelSelector,
    );
    return list.items;
  }

  /** Deletes the object (its pods and replica sets go with it); false when it was already gone. */
  async delete(ref: ObjectRef): Promise<boolean> {
    try {
      await this.objects.delete(
        { apiVersion: ref.apiVersion, kind: ref.kind, metadata: { name: ref.name, namespace: ref.namespace } },
        undefined,
        undefined,
        undefined,
        undefined,
        "Background",
      );
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }
}

/** The client's ApiException comes from another module realm under jest, so match on its shape. */
export function isNotFound(error: unknown): boolean {
  return (error as { code?: unknown })?.code === 404;
}

/** A one-line description of a client error for the revision log (the Status message when the API sent one). */
export function describeClusterError(error: unknown): string {
  const apiError = error as { code?: number; body?: unknown; message?: string };
  if (typeof apiError?.code === "number") {
    let body = apiError.body;
    if (typeof body === "string") {
      try {
        body = JSON.parse(body);
      } catch {
        // plain text body
      }
    }
    const message = (body as { message?: unknown })?.message;
    return `Kubernetes API answered ${apiError.code}${typeof message === "string" ? `: ${message}` : ""}`;
  }
  return apiError?.message ?? String(error);
}
