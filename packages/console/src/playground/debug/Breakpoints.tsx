import type { Breakpoints as Chosen } from "./useDebugRun";

/**
 * A checkbox before and after each node of the graph (its own nodes: `interrupt_before` and
 * `interrupt_after` name those, not a subgraph's), sent with the runs the debugger starts.
 */
export function Breakpoints({
  nodes,
  value,
  onChange,
}: {
  nodes: string[];
  value: Chosen;
  onChange: (value: Chosen) => void;
}) {
  const toggle = (side: keyof Chosen, node: string, on: boolean) => {
    const others = value[side].filter((name) => name !== node);
    onChange({ ...value, [side]: on ? [...others, node] : others });
  };
  return (
    <fieldset className="breakpoints card">
      <legend>Breakpoints</legend>
      {nodes.length ? (
        <table>
          <thead>
            <tr>
              <th scope="col">Node</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
            </tr>
          </thead>
          <tbody>
            {nodes.map((node) => (
              <tr key={node}>
                <th scope="row">
                  <code>{node}</code>
                </th>
                {(["before", "after"] as const).map((side) => (
                  <td key={side}>
                    <input
                      type="checkbox"
                      aria-label={`Interrupt ${side} ${node}`}
                      checked={value[side].includes(node)}
                      onChange={(event) => toggle(side, node, event.target.checked)}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="hint">This graph has no nodes to break at.</p>
      )}
    </fieldset>
  );
}
