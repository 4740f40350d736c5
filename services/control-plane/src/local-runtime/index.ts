export { LOCAL_DEPLOYMENT_NAME, registerLocalRuntime, type LocalRuntime, type LocalRuntimeEntry } from "./registration";
export { localRuntimeRouter } from "./routes";
