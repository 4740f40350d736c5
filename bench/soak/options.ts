// What a soak does, from flags (`npm run soak -- --minutes 15`) or the environment (SOAK_MINUTES=15),
// flags first. Every value is checked at start: a typo stops the soak before it starts anything.

/**
 * Runs per second the soak creates: half the 119 runs/s the streamed-run bench measured for an API
 * process with a worker process on Redis (README, Benchmarks; the same topology as here).
 */
export const DEFAULT_RATE = 60;

export const FAULT_KINDS = ["worker-kill", "redis-restart", "postgres-terminate"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface SoakOptions {
  /** How long runs are created, in seconds. */
  durationS: number;
  /** Runs created per second (open loop: at this pace whatever the answers take). */
  rate: number;
  /** Seconds between faults (the first comes after one interval); kinds in FAULT_KINDS' order. */
  faultEveryS: number;
  /** How long Redis stays down at a restart. */
  redisDownMs: number;
  /** The longest wait, after the last create, for every run to end. */
  drainS: number;
  /** Worker processes (the last one is the one killed and started again); WORKERS of each. */
  workerProcesses: number;
  workersPerProcess: number;
  /** The `steps` graph's pause per step (three steps), so faults meet runs mid-way. */
  stepMs: number;
  /** Share of runs made by a streamed create (the rest are background creates). */
  streamShare: number;
  /** RSS samples are taken this often; the first `warmupS` seconds are not judged. */
  sampleEveryS: number;
  warmupS: number;
  /** RSS is flat when its least-squares slope is at most this (MB/hour) ... */
  rssSlopeMbPerHour: number;
  /** ... and the last quarter's median is at most this share above the second quarter's. */
  rssGrowth: number;
  /** A progress line this often. */
  progressEveryS: number;
  /** Runtime variables added to every process (RUN_LOCK_MS...). */
  runtimeEnv: Record<string, string>;
}

const NAMES: Record<string, { env: string; key: keyof SoakOptions; scale?: number }> = {
  minutes: { env: "SOAK_MINUTES", key: "durationS", scale: 60 },
  rate: { env: "SOAK_RATE", key: "rate" },
  "fault-every": { env: "SOAK_FAULT_EVERY_S", key: "faultEveryS" },
  "redis-down-ms": { env: "SOAK_REDIS_DOWN_MS", key: "redisDownMs" },
  drain: { env: "SOAK_DRAIN_S", key: "drainS" },
  "worker-processes": { env: "SOAK_WORKER_PROCESSES", key: "workerProcesses" },
  workers: { env: "SOAK_WORKERS", key: "workersPerProcess" },
  "step-ms": { env: "SOAK_STEP_MS", key: "stepMs" },
  "stream-share": { env: "SOAK_STREAM_SHARE", key: "streamShare" },
  "sample-every": { env: "SOAK_SAMPLE_EVERY_S", key: "sampleEveryS" },
  warmup: { env: "SOAK_WARMUP_S", key: "warmupS" },
  "rss-slope": { env: "SOAK_RSS_SLOPE_MB_PER_HOUR", key: "rssSlopeMbPerHour" },
  "rss-growth": { env: "SOAK_RSS_GROWTH", key: "rssGrowth" },
  progress: { env: "SOAK_PROGRESS_S", key: "progressEveryS" },
};

export function defaultOptions(): SoakOptions {
  return {
    durationS: 30 * 60,
    rate: DEFAULT_RATE,
    faultEveryS: 60,
    redisDownMs: 3_000,
    // Runs a killed worker held come back after RUN_LOCK_MS (30 s by default).
    drainS: 120,
    workerProcesses: 2,
    workersPerProcess: 20,
    stepMs: 50,
    streamShare: 0.1,
    sampleEveryS: 5,
    warmupS: 5 * 60,
    rssSlopeMbPerHour: 50,
    rssGrowth: 0.1,
    progressEveryS: 60,
    runtimeEnv: {},
  };
}

/** Options from `--name value` flags, then SOAK_* variables, then the defaults. */
export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): SoakOptions {
  const options = defaultOptions();
  const given = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 1) {
    const flag = /^--([\w-]+)(?:=(.*))?$/.exec(argv[i]);
    if (!flag || !NAMES[flag[1]])
      throw new Error(`unknown argument ${argv[i]} (flags: --${Object.keys(NAMES).join(", --")})`);
    given.set(flag[1], flag[2] ?? argv[++i] ?? "");
  }
  for (const [name, { env: variable, key, scale }] of Object.entries(NAMES)) {
    const raw = given.get(name) ?? env[variable];
    if (raw === undefined || raw === "") continue;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0)
      throw new Error(`--${name} / ${variable} must be a number >= 0, not "${raw}"`);
    (options[key] as number) = value * (scale ?? 1);
  }
  // Without a warm-up given, a fifth of a short soak (at most the default 5 minutes).
  if (!given.has("warmup") && !env.SOAK_WARMUP_S) options.warmupS = Math.min(options.warmupS, options.durationS / 5);
  if (options.rate <= 0 || options.durationS <= 0) throw new Error("the rate and the duration must be above 0");
  if (options.workerProcesses < 2) throw new Error("--worker-processes must be at least 2 (one is killed)");
  if (options.streamShare > 1) throw new Error("--stream-share is a share: 0 to 1");
  return options;
}
