// Generated from packages/contracts/openapi/agent-runtime/*.yaml by `npm run generate`. Do not edit.
export type paths = Record<string, never>;
export type webhooks = Record<string, never>;
export type components = {
  schemas: {
    ErrorDetail: {
      detail: string;
    };
  };
  responses: {
    /** @description The request does not match the contract. */
    ValidationError: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["ErrorDetail"];
      };
    };
    /** @description The resource does not exist. */
    NotFound: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["ErrorDetail"];
      };
    };
    /** @description The request conflicts with the current state. */
    Conflict: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["ErrorDetail"];
      };
    };
  };
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
};
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
