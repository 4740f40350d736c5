import { useState } from "react";

/** "Delete…", then a confirmation that says what goes, then the deletion itself. */
export function ConfirmDelete(props: { what: string; consequence: React.ReactNode; onDelete: () => void }) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <button type="button" className="danger" onClick={() => setAsking(true)}>
        Delete…
      </button>
    );
  return (
    <div className="notice danger" role="alertdialog" aria-label="Confirm deletion">
      <p>{props.consequence}</p>
      <button type="button" className="danger" onClick={props.onDelete}>
        Delete {props.what}
      </button>{" "}
      <button type="button" className="secondary" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </div>
  );
}
