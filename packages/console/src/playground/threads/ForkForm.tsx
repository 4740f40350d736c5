import { useId, useState } from "react";
import type { ThreadState } from "@langchain/langgraph-sdk";
import { SelectField } from "../../components/SelectField";
import { pretty } from "../runtime";
import { changedValues } from "./history";

export interface Fork {
  /** The top-level fields the person changed (only those are written). */
  values: Record<string, unknown>;
  /** The node the update is written as; undefined: the one that wrote last, as the library infers. */
  asNode?: string;
  /** Run forward from the new checkpoint at once. */
  run: boolean;
}

/**
 * The state at a checkpoint as JSON to edit, and the node to write it as. Only the fields that
 * changed are sent: the update goes through the graph's reducers like that node's return would
 * (a list that appends gets the sent items appended, a counter that adds gets the sent number added).
 */
export function ForkForm(props: {
  state: ThreadState;
  nodes: string[];
  busy: boolean;
  onFork: (fork: Fork) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [text, setText] = useState(pretty(props.state.values));
  const [asNode, setAsNode] = useState("");
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (run: boolean) => {
    let edited: unknown;
    try {
      edited = JSON.parse(text);
    } catch {
      edited = null;
    }
    if (!edited || typeof edited !== "object" || Array.isArray(edited)) {
      setProblem("The state must be a JSON object, as shown before the edit.");
      return;
    }
    const values = changedValues(props.state.values as Record<string, unknown>, edited as Record<string, unknown>);
    if (!Object.keys(values).length) {
      setProblem("Nothing changed: edit a value first, or replay from this checkpoint to run it again unchanged.");
      return;
    }
    setProblem(null);
    props.onFork({ values, asNode: asNode || undefined, run });
  };

  return (
    <form
      className="fork-form"
      aria-label="Edit state and fork"
      onSubmit={(event) => {
        event.preventDefault();
        submit(true);
      }}
    >
      <div className={`field${problem ? " invalid" : ""}`}>
        <label htmlFor={id}>State (JSON)</label>
        <textarea
          id={id}
          value={text}
          rows={Math.min(18, text.split("\n").length + 1)}
          spellCheck={false}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : `${id}-hint`}
          onChange={(event) => setText(event.target.value)}
        />
        {problem ? (
          <small className="field-error" id={`${id}-problem`} role="alert">
            {problem}
          </small>
        ) : (
          <small className="hint" id={`${id}-hint`}>
            Only the fields you change are written, through the graph's reducers, as the node below would return them: a
            list that appends gets what you send appended.
          </small>
        )}
      </div>
      <SelectField
        label="As node"
        value={asNode}
        options={props.nodes}
        anyLabel="the node that wrote last (default)"
        onChange={setAsNode}
      />
      <div className="actions">
        <button type="submit" disabled={props.busy}>
          Fork and run
        </button>
        <button type="button" className="secondary" disabled={props.busy} onClick={() => submit(false)}>
          Fork without running
        </button>
        <button type="button" className="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
