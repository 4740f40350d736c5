import { useEffect, useRef, useState } from "react";

/**
 * An action that asks first: the button, then a question saying what will happen, with the
 * action and Cancel (focus moves to the question, and back to the button on Cancel). `busy`
 * disables it while the action runs, so a double click cannot do it twice.
 */
export function Confirm(props: {
  label: string;
  confirmLabel: string;
  question: React.ReactNode;
  onConfirm: () => void;
  busy?: boolean;
  tone?: "danger" | "secondary" | "link";
}) {
  const [asking, setAsking] = useState(false);
  const dialog = useRef<HTMLDivElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) dialog.current?.focus();
  }, [asking]);
  const tone = props.tone ?? "danger";
  if (!asking)
    return (
      <button type="button" ref={opener} className={tone} disabled={props.busy} onClick={() => setAsking(true)}>
        {props.label}
      </button>
    );
  return (
    <div
      ref={dialog}
      tabIndex={-1}
      className={`notice${tone === "danger" ? " danger" : ""}`}
      role="alertdialog"
      aria-label={props.label.replace(/…$/, "")}
    >
      <p>{props.question}</p>
      <button
        type="button"
        className={tone === "danger" ? "danger" : undefined}
        disabled={props.busy}
        onClick={() => {
          setAsking(false);
          props.onConfirm();
        }}
      >
        {props.confirmLabel}
      </button>{" "}
      <button
        type="button"
        className="secondary"
        onClick={() => {
          setAsking(false);
          setTimeout(() => opener.current?.focus());
        }}
      >
        Cancel
      </button>
    </div>
  );
}
