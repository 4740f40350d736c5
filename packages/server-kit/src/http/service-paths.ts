/**
 * What every service serves outside its contract and never refuses for a caller's budget: the
 * probes, /metrics, the contract's document and its reference page.
 */
export const SERVICE_PATHS = /^\/(ok|ready|metrics|openapi\.json|docs)(\/|$)/;
