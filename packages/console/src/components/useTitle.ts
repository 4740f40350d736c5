import { useEffect } from "react";

/** The tab's title names the screen (and what is on it), as screen readers announce it on navigation. */
export function useTitle(title: string | null | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · LangGraph Platform` : "LangGraph Platform";
  }, [title]);
}
