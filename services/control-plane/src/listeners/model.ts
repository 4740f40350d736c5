import type { ControlPlane } from "@lgp/contracts";

type Schemas = ControlPlane.components["schemas"];

export type Listener = Schemas["Listener"];
export type ListenerCreate = Schemas["ListenerCreate"];
export type ListenerPatch = Schemas["ListenerPatch"];
export type ListenerList = Schemas["ListenerList"];
export type ListListenersQuery = NonNullable<ControlPlane.operations["listListeners"]["parameters"]["query"]>;
