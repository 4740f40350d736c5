export interface SecretRow {
  name: string;
  value: string;
}

/**
 * Secrets by name; values are write-only: a stored secret comes back masked, and sending the mask
 * back keeps its value, so an unchanged row is sent as it came.
 */
export function SecretsEditor(props: {
  rows: SecretRow[];
  onChange: (rows: SecretRow[]) => void;
  fields: Record<string, string>;
  stored?: Set<string>;
}) {
  const update = (index: number, change: Partial<SecretRow>) =>
    props.onChange(props.rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  return (
    <fieldset>
      <legend>Secrets</legend>
      {props.rows.length === 0 ? <p className="hint">No secrets.</p> : null}
      {props.rows.map((row, index) => {
        const nameError = props.fields[`secrets.${index}.name`];
        const valueError = props.fields[`secrets.${index}.value`];
        const kept = props.stored?.has(row.name);
        return (
          <div className="secret" key={index}>
            <label>
              Name
              <input
                value={row.name}
                aria-invalid={nameError ? true : undefined}
                onChange={(event) => update(index, { name: event.target.value })}
              />
              {nameError ? <small className="field-error">{nameError}</small> : null}
            </label>
            <label>
              Value
              <input
                type="password"
                autoComplete="new-password"
                value={kept && row.value === "" ? "" : row.value}
                placeholder={kept ? "unchanged (stored value kept)" : ""}
                aria-invalid={valueError ? true : undefined}
                onChange={(event) => update(index, { value: event.target.value })}
              />
              {valueError ? <small className="field-error">{valueError}</small> : null}
            </label>
            <button
              type="button"
              className="link"
              onClick={() => props.onChange(props.rows.filter((_, i) => i !== index))}
            >
              Remove <span className="sr-only">{row.name || "secret"}</span>
            </button>
          </div>
        );
      })}
      <button
        type="button"
        className="secondary"
        onClick={() => props.onChange([...props.rows, { name: "", value: "" }])}
      >
        Add secret
      </button>
    </fieldset>
  );
}

/**
 * The secrets to send, from the editor's rows: empty rows left out, a stored secret left empty
 * sent back with its mask (the stored value is kept). `indexes[i]` is the editor row of the i-th
 * secret sent, to put the API's `secrets.i.*` messages beside the right row; `problems` are rows
 * that cannot be sent (a new name without a value), keyed like the API's.
 */
export function secretsPayload(
  rows: SecretRow[],
  masked: Map<string, string> = new Map(),
): { secrets: SecretRow[]; indexes: number[]; problems: Record<string, string> } {
  const secrets: SecretRow[] = [];
  const indexes: number[] = [];
  const problems: Record<string, string> = {};
  rows.forEach((row, index) => {
    if (!row.name && !row.value) return;
    if (!row.value && masked.has(row.name)) {
      secrets.push({ name: row.name, value: masked.get(row.name)! });
    } else {
      if (!row.value) problems[`secrets.${index}.value`] = "a value is required";
      secrets.push(row);
    }
    indexes.push(index);
  });
  return { secrets, indexes, problems };
}

/** The API's messages about `secrets.<sent index>` moved to `secrets.<editor row>`. */
export function rowErrors(fields: Record<string, string>, indexes: number[]): Record<string, string> {
  const moved: Record<string, string> = {};
  for (const [path, message] of Object.entries(fields)) {
    const match = /^secrets\.(\d+)(\..*)?$/.exec(path);
    moved[match ? `secrets.${indexes[Number(match[1])] ?? match[1]}${match[2] ?? ""}` : path] = message;
  }
  return moved;
}
