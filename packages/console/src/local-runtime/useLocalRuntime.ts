import { useEffect, useState } from "react";
import { controlPlane, type LocalRuntime } from "../api/control-plane";
import { ApiError } from "../api/errors";
import { session } from "../api/session";

// Asked once per signed-in key: the answer does not change while the control plane runs.
let asked: { apiKey: string | null; answer: Promise<LocalRuntime | null> } | null = null;

/**
 * The agent runtime `npm start` runs beside the control plane (deployment "local"), or null where
 * there is none for this tenant. Its key goes where the playground keeps runtime keys: this tab.
 */
export function localRuntime(): Promise<LocalRuntime | null> {
  const apiKey = session.apiKey();
  if (!asked || asked.apiKey !== apiKey) {
    const answer = controlPlane.localRuntime().then(
      (local) => {
        session.setRuntimeKey(local.deployment_id, local.api_key);
        return local;
      },
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 404) return null;
        asked = null; // a failure is asked again next time
        throw error;
      },
    );
    asked = { apiKey, answer };
  }
  return asked.answer;
}

/** `localRuntime()` as state: undefined while asking (or when asking failed), then the answer. */
export function useLocalRuntime(): LocalRuntime | null | undefined {
  const [local, setLocal] = useState<LocalRuntime | null | undefined>(undefined);
  useEffect(() => {
    let cancelled = false;
    localRuntime().then(
      (answer) => !cancelled && setLocal(answer),
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, []);
  return local;
}
