import { describe } from "../api/errors";

/** An error as a sentence a person can act on (never raw JSON). */
export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {describe(error)}
    </p>
  );
}
