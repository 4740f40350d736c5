import { useEffect, useRef } from "react";

/** Calls `tick` now and every `ms` while `active`; a slow tick is never overlapped by the next. */
export function usePolling(tick: () => Promise<void> | void, ms: number, active: boolean): void {
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
  }, [ms, active]);
}
