import { useState } from "react";
import { Items } from "./Items";
import { Namespaces } from "./Namespaces";
import { PutItem } from "./PutItem";
import "../../styles/store.css";

/**
 * The deployment's store (the long-term memory its graphs read and write through `store`), with
 * the official client's store API: its namespaces, the items under one, searched by meaning (where
 * langgraph.json declares a semantic index) and by field values, an item put or deleted.
 */
export function StoreBrowser() {
  // The namespace whose items are shown: [] is every item.
  const [namespace, setNamespace] = useState<string[]>([]);
  // Bumped on every put or delete, so the namespaces and the items are read again.
  const [version, setVersion] = useState(0);
  return (
    <div className="store">
      <Namespaces selected={namespace} onSelect={setNamespace} version={version} />
      <div className="store-main">
        <Items namespace={namespace} version={version} onChanged={() => setVersion(version + 1)} />
        <PutItem
          namespace={namespace}
          onPut={(where) => {
            setNamespace(where);
            setVersion(version + 1);
          }}
        />
      </div>
    </div>
  );
}
