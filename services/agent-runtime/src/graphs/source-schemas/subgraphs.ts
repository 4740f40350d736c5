// Finds, in a graph's source, the graphs added as nodes (`.addNode("name", child)`), with the
// namespace the running graph gives them (`node`, `node|child`), so their types can be named.
import ts from "typescript";

/** A subgraph found in the source: its namespace and the module-level name its type is read from. */
export interface SourceSubgraph {
  namespace: string;
  /** A variable or import at the top of the graph's file (`typeof name` reaches it there). */
  name: string;
}

/** A compiled graph or a graph builder (`StateGraph`), by the members the type has. */
function isGraphType(checker: ts.TypeChecker, type: ts.Type): boolean {
  const has = (name: string) => checker.getPropertyOfType(type, name) !== undefined;
  return has("lg_is_pregel") || (has("compile") && has("addNode"));
}

/** The leftmost expression of `a.b(...).c(...)`: the value a call chain starts from. */
function chainRoot(expression: ts.Expression): ts.Expression {
  let current = expression;
  for (;;) {
    if (ts.isCallExpression(current) || ts.isPropertyAccessExpression(current) || ts.isNonNullExpression(current))
      current = current.expression;
    else if (ts.isParenthesizedExpression(current) || ts.isAsExpression(current) || ts.isAwaitExpression(current))
      current = current.expression;
    else return current;
  }
}

function isTopLevel(declaration: ts.Declaration): boolean {
  if (ts.isImportSpecifier(declaration) || ts.isImportClause(declaration)) return true;
  return ts.isVariableDeclaration(declaration) && ts.isSourceFile(declaration.parent?.parent?.parent);
}

export class SubgraphFinder {
  private readonly checker: ts.TypeChecker;

  constructor(
    program: ts.Program,
    private readonly source: ts.SourceFile,
  ) {
    this.checker = program.getTypeChecker();
  }

  /** The subgraphs of the graph a module export builds, recursively. */
  find(exportName: string): SourceSubgraph[] {
    const module = this.checker.getSymbolAtLocation(this.source);
    if (!module) return [];
    let symbol = this.checker.getExportsOfModule(module).find((item) => item.name === exportName);
    if (!symbol) return [];
    if (symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    const found: SourceSubgraph[] = [];
    this.collectFromSymbol(symbol, [], found, new Set());
    return found;
  }

  /** What builds a variable: its initializer, and `.addNode` calls made on it elsewhere in the file. */
  private collectFromSymbol(symbol: ts.Symbol, namespace: string[], found: SourceSubgraph[], seen: Set<ts.Symbol>) {
    if (seen.has(symbol)) return;
    seen.add(symbol);
    for (const declaration of symbol.declarations ?? []) {
      if (ts.isVariableDeclaration(declaration) && declaration.initializer)
        this.collect(declaration.initializer, namespace, found, seen);
      else if (ts.isExportAssignment(declaration)) this.collect(declaration.expression, namespace, found, seen);
      else if (ts.isFunctionDeclaration(declaration) && declaration.body)
        this.collect(declaration.body, namespace, found, seen);
    }
    // Statement form: `builder.addNode("child", child);` after `const builder = new StateGraph(...)`.
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
        const root = chainRoot(node.expression);
        if (ts.isIdentifier(root) && this.symbolOf(root) === symbol) this.collectAddNode(node, namespace, found, seen);
      }
      ts.forEachChild(node, visit);
    };
    visit(this.source);
  }

  /** An import keeps its own symbol: its declaration is the import, which the copy can name. */
  private symbolOf(identifier: ts.Identifier): ts.Symbol | undefined {
    return this.checker.getSymbolAtLocation(identifier);
  }

  /** Walks an expression building a graph: its `.addNode` calls, and the graph variables it uses. */
  private collect(node: ts.Node, namespace: string[], found: SourceSubgraph[], seen: Set<ts.Symbol>) {
    const visit = (current: ts.Node) => {
      if (ts.isCallExpression(current) && this.addNodeCall(current)) {
        this.collectAddNode(current, namespace, found, seen);
        ts.forEachChild(current.expression, visit);
        return;
      }
      if (ts.isIdentifier(current)) {
        const symbol = this.symbolOf(current);
        const declaration = symbol?.valueDeclaration;
        if (symbol && declaration && ts.isVariableDeclaration(declaration) && this.isGraph(declaration))
          this.collectFromSymbol(symbol, namespace, found, seen);
      }
      ts.forEachChild(current, visit);
    };
    visit(node);
  }

  private addNodeCall(call: ts.CallExpression): boolean {
    return ts.isPropertyAccessExpression(call.expression) && call.expression.name.text === "addNode";
  }

  /** `.addNode("name", action)` or `.addNode({ name: action })`: graphs among the actions. */
  private collectAddNode(call: ts.CallExpression, namespace: string[], found: SourceSubgraph[], seen: Set<ts.Symbol>) {
    if (!this.addNodeCall(call)) return;
    const [first, action] = call.arguments;
    const nodes: [string, ts.Node][] = [];
    if (first && ts.isStringLiteralLike(first) && action) nodes.push([first.text, action]);
    else if (first && ts.isObjectLiteralExpression(first))
      for (const property of first.properties)
        if (ts.isPropertyAssignment(property) && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)))
          nodes.push([property.name.text, property.initializer]);
    for (const [node, expression] of nodes) {
      const graph = this.graphIdentifier(expression);
      if (!graph) continue;
      const childNamespace = [...namespace, node];
      const key = childNamespace.join("|");
      if (found.some((item) => item.namespace === key)) continue;
      const symbol = this.symbolOf(graph)!;
      const declaration = (symbol.declarations ?? [])[0];
      if (declaration && isTopLevel(declaration)) found.push({ namespace: key, name: graph.text });
      // The child is walked again under its own namespace, even if the parent's walk passed it already.
      this.collectFromSymbol(symbol, childNamespace, found, new Set([...seen].filter((item) => item !== symbol)));
    }
  }

  /** The one graph variable a node action uses (`child`, `child.compile()`, `(s) => child.invoke(s)`). */
  private graphIdentifier(action: ts.Node): ts.Identifier | undefined {
    let result: ts.Identifier | undefined;
    const visit = (node: ts.Node) => {
      if (result) return;
      if (ts.isIdentifier(node)) {
        const symbol = this.symbolOf(node);
        const declaration = symbol?.declarations?.[0];
        if (declaration && this.isGraph(declaration)) {
          result = node;
          return;
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(action);
    return result;
  }

  private isGraph(declaration: ts.Declaration): boolean {
    if (!ts.isVariableDeclaration(declaration) && !ts.isImportSpecifier(declaration) && !ts.isImportClause(declaration))
      return false;
    return isGraphType(this.checker, this.checker.getTypeAtLocation(declaration));
  }
}
