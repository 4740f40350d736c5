import type { DeploymentTarget } from "./deployer";

/**
 * The variables that enable LangSmith tracing, in both spellings the official clients read
 * (`langsmith` JS and Python: `LANGSMITH_<name>`, then the legacy `LANGCHAIN_<name>`).
 */
const TRACING_FLAGS = ["LANGSMITH_TRACING", "LANGSMITH_TRACING_V2", "LANGCHAIN_TRACING_V2", "LANGCHAIN_TRACING"];
/** The variables that name the tracing project (`*_SESSION` is its oldest name, still read). */
const PROJECT_VARIABLES = ["LANGSMITH_PROJECT", "LANGCHAIN_PROJECT", "LANGSMITH_SESSION", "LANGCHAIN_SESSION"];

/**
 * The environment a deployment gives its runtime: its secrets, and, as on the hosted platform, a
 * LangSmith tracing project named after the deployment when those secrets turn tracing on
 * (`LANGSMITH_TRACING=true`, or a legacy `LANGCHAIN_TRACING_V2=true`) without naming a project.
 * Both deployers start from it (the local one as a process's environment, the Kubernetes one as
 * the revision's Secret); the variables each platform sets itself are added after it.
 */
export function deploymentEnv(deployment: Pick<DeploymentTarget, "name" | "secrets">): Record<string, string> {
  const env: Record<string, string> = {};
  for (const secret of deployment.secrets) env[secret.name] = secret.value;
  if (langsmithTracingOn(env) && !PROJECT_VARIABLES.some((name) => env[name])) env.LANGSMITH_PROJECT = deployment.name;
  return env;
}

/** Whether these variables turn LangSmith tracing on (the JS client wants `true`; Python also takes `True`). */
export function langsmithTracingOn(env: Record<string, string | undefined>): boolean {
  return TRACING_FLAGS.some((name) => env[name]?.trim().toLowerCase() === "true");
}
