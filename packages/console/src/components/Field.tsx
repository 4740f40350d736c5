import { useId } from "react";

/** A labelled input with the API's message for it (from a 422's `loc`) shown beside it. */
export function Field(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  type?: string;
  placeholder?: string;
  hint?: string;
  required?: boolean;
  multiline?: boolean;
  autoComplete?: string;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const common = {
    id,
    value: props.value,
    placeholder: props.placeholder,
    required: props.required,
    "aria-invalid": props.error ? true : undefined,
    "aria-describedby": props.error ? errorId : undefined,
  };
  return (
    <div className={`field${props.error ? " invalid" : ""}`}>
      <label htmlFor={id}>{props.label}</label>
      {props.multiline ? (
        <textarea {...common} rows={4} onChange={(event) => props.onChange(event.target.value)} />
      ) : (
        <input
          {...common}
          type={props.type ?? "text"}
          autoComplete={props.autoComplete ?? "off"}
          onChange={(event) => props.onChange(event.target.value)}
        />
      )}
      {props.hint && !props.error ? <small className="hint">{props.hint}</small> : null}
      {props.error ? (
        <small className="field-error" id={errorId}>
          {props.error}
        </small>
      ) : null}
    </div>
  );
}
