// TypeScript appended to a copy of the graph's module: type aliases naming the state, input,
// output and context types of each graph (root and subgraphs), for the JSON Schema generator.

/** Prefix of every name the copy adds (kept apart from the graph's own names). */
export const PREFIX = "__lgs_";

/**
 * Helper types. A graph export may be a compiled graph, a StateGraph, a factory or a Promise of any;
 * LangGraph's compiled graph carries the update type of its state (`~RunInput`), the update type of
 * its input (`~InputType`), its output state (`~OutputType`) and the context definition on its builder.
 * Message classes become `BaseMessage` (as the official server names them), an `Overwrite` wrapper
 * is dropped (it is not what a client sends), and nesting is cut at three levels.
 */
const HELPERS = `
import type { BaseMessage as ${PREFIX}Message } from "@langchain/core/messages";
type ${PREFIX}IsAny<T> = 0 extends 1 & T ? true : false;
type ${PREFIX}Graph<T> = (T extends (...args: any[]) => infer R ? Awaited<R> : Awaited<T>) extends infer G
  ? G extends { compile(...args: any[]): infer C } ? C : G
  : never;
type ${PREFIX}MessageItem<E> = ${PREFIX}IsAny<E> extends true ? never : E extends ${PREFIX}Message ? ${PREFIX}Message : never;
type ${PREFIX}Messages<V> = V extends readonly (infer E)[] ? ${PREFIX}MessageItem<E> : never;
type ${PREFIX}Field<V, D extends 0[]> = ${PREFIX}IsAny<V> extends true
  ? V
  : ${PREFIX}IsAny<${PREFIX}Message> extends true
    ? ${PREFIX}Shape<V, D>
    : [${PREFIX}Messages<V>] extends [never]
      ? [${PREFIX}MessageItem<V>] extends [never]
        ? ${PREFIX}Shape<V, D>
        : ${PREFIX}Message
      : ${PREFIX}Message[];
type ${PREFIX}Shape<V, D extends 0[]> = D["length"] extends 3
  ? any
  : V extends object
    ? { [K in keyof V]: ${PREFIX}Field<Exclude<V[K], { __overwrite__: unknown }>, [0, ...D]> }
    : V;
type ${PREFIX}Inspect<T> = [T] extends [never] ? never : ${PREFIX}IsAny<T> extends true ? never : ${PREFIX}Shape<T, []>;
type ${PREFIX}ChannelUpdate<C> = C extends () => infer R ? ${PREFIX}ChannelUpdate<R> : C extends { UpdateType: infer U } ? U : never;
type ${PREFIX}State<T> = ${PREFIX}Graph<T> extends { "~RunInput": infer U } ? U : never;
type ${PREFIX}Input<T> = ${PREFIX}Graph<T> extends { "~InputType": infer I } ? I : never;
type ${PREFIX}Output<T> = ${PREFIX}Graph<T> extends { "~OutputType": infer O } ? O : never;
type ${PREFIX}Context<T> = ${PREFIX}Graph<T> extends { builder: { _configSchema?: infer C } }
  ? Exclude<C, undefined> extends infer D
    ? string extends keyof D ? never : { [K in keyof D]?: ${PREFIX}ChannelUpdate<D[K]> }
    : never
  : never;
`;

export const PARTS = ["state", "input", "output", "config"] as const;
export type Part = (typeof PARTS)[number];
const HELPER_OF: Record<Part, string> = { state: "State", input: "Input", output: "Output", config: "Context" };

/** The name of the alias holding one part of one graph (`index` numbers the graphs of the file). */
export function aliasName(index: number, part: Part): string {
  return `${PREFIX}g${index}_${part}`;
}

/**
 * The text appended to the copy. `self` is the copy's own module specifier (a module may import
 * itself: `typeof self["export"]` names any export, default and re-exports included); each target
 * is the expression whose type is a graph (`self["graph"]` or a top-level variable's name).
 */
export function appendix(self: string, targets: string[]): string {
  const aliases = targets.flatMap((target, index) =>
    PARTS.map(
      (part) =>
        `export type ${aliasName(index, part)} = ${PREFIX}Inspect<${PREFIX}${HELPER_OF[part]}<typeof ${target}>>;`,
    ),
  );
  return [`import type * as ${PREFIX}self from ${JSON.stringify(self)};`, HELPERS, ...aliases].join("\n");
}

export const SELF = `${PREFIX}self`;
