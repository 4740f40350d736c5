import { useId } from "react";

/** A labelled select; `anyLabel` adds a first, empty option (a filter that is off). */
export function SelectField(props: {
  label: string;
  value: string;
  options: readonly string[];
  onChange: (value: string) => void;
  anyLabel?: string;
  error?: string;
  optionLabel?: (value: string) => string;
}) {
  const id = useId();
  return (
    <div className={`field${props.error ? " invalid" : ""}`}>
      <label htmlFor={id}>{props.label}</label>
      <select id={id} value={props.value} onChange={(event) => props.onChange(event.target.value)}>
        {props.anyLabel !== undefined ? <option value="">{props.anyLabel}</option> : null}
        {props.options.map((value) => (
          <option key={value} value={value}>
            {props.optionLabel ? props.optionLabel(value) : value}
          </option>
        ))}
      </select>
      {props.error ? <small className="field-error">{props.error}</small> : null}
    </div>
  );
}
