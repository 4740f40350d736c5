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
