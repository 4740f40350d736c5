import type { ValidationIssue } from "./errors";

interface OpenApiValidatorError {
  path?: string;
  message?: string;
  errorCode?: string;
}

/** Maps an express-openapi-validator error item to the contract's `{loc, msg, type}`. */
export function toValidationIssue(item: OpenApiValidatorError): ValidationIssue {
  const segments = (item.path ?? "").split("/").filter(Boolean);
  // The validator says "params" for path parameters; the contract says "path".
  if (segments[0] === "params") segments[0] = "path";
  if (segments[0] === "headers") segments[0] = "header";
  const loc = segments.map((segment) => (/^\d+$/.test(segment) ? Number(segment) : decodeURIComponent(segment)));
  return {
    loc: loc.length ? loc : ["body"],
    msg: item.message ?? "invalid value",
    type: (item.errorCode ?? "value_error").replace(/\.openapi\.(validation|requestValidation)$/, ""),
  };
}
