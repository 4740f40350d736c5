import { spawnSync } from "node:child_process";
import path from "node:path";
import { z } from "zod";
import { ConfigError, env, loadConfig } from "../src";
import { REPO_ROOT } from "../src/testing";

describe("environment validation", () => {
  const schema = z.object({ PORT: env.port(8100), DATABASE_URL: env.postgresUrl(), FLAG: env.boolean(false) });

  it("applies defaults and coerces values", () => {
    expect(loadConfig(schema, { DATABASE_URL: "postgresql://u@h/db", FLAG: "true" })).toEqual({
      PORT: 8100,
      DATABASE_URL: "postgresql://u@h/db",
      FLAG: true,
    });
  });

  it("names the bad variable and what it got", () => {
    expect(() => loadConfig(schema, { DATABASE_URL: "postgresql://u@h/db", PORT: "99999" })).toThrow(ConfigError);
    expect(() => loadConfig(schema, { DATABASE_URL: "postgresql://u@h/db", PORT: "99999" })).toThrow(
      /^invalid PORT: .*\(got "99999"\)$/,
    );
    expect(() => loadConfig(schema, { DATABASE_URL: "mysql://x" })).toThrow(
      /^invalid DATABASE_URL: must be a postgres:\/\/ URL/,
    );
    expect(() => loadConfig(schema, {})).toThrow(/^invalid DATABASE_URL/);
  });

  it.each([
    [
      "control-plane",
      {
        CONTROL_PLANE_DATABASE_URL: "postgresql://postgres@127.0.0.1/x",
        SECRETS_ENCRYPTION_KEY: "A".repeat(44),
        PORT: "not-a-port",
      },
      "PORT",
    ],
    [
      "control-plane",
      { CONTROL_PLANE_DATABASE_URL: "postgresql://postgres@127.0.0.1/x", SECRETS_ENCRYPTION_KEY: "short" },
      "SECRETS_ENCRYPTION_KEY",
    ],
    ["agent-runtime", { DATABASE_URL: "not a url" }, "DATABASE_URL"],
  ])("the %s process exits 1 with one line naming %j's bad variable", (service, variables, name) => {
    const result = spawnSync(
      process.execPath,
      ["--import", "tsx", path.join(REPO_ROOT, "services", service, "src/main.ts")],
      {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...variables },
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^invalid ${name}: `));
  });
});
