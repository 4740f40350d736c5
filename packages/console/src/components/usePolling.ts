import { useEffect, useRef } from "react";

/**
 * Calls `tick` now and every `ms` while `active`, and again at once when `restartOn` changes (a
 * new filter); a slow tick is never overlapped by the next, and a stopped loop starts no other.
 */
export function usePolling(
  tick: () => Promise<void> | void,
  ms: number,
  active: boolean,
  restartOn: readonly unknown[] = [],
): void {
  const latest = useRef(tick);
  latest.current = tick;
  useEffect(() => {
    if (!active) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const run = async () => {
      try {
        await latest.current();
      } finally {
        if (!stopped) timer = setTimeout(run, ms);
      }
    };
    void run();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- restartOn is the caller's dependency list
  }, [ms, active, ...restartOn]);
}
