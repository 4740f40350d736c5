import { defineConfig } from "vite";

// The control plane serves the build under /console (services/control-plane/src/console).
export default defineConfig({
  base: "/console/",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      // The SDK's React entry points say "use client" (for server components); a browser bundle has no use for it.
      onLog(level, log, handler) {
        if (log.code === "MODULE_LEVEL_DIRECTIVE") return;
        handler(level, log);
      },
    },
  },
});
