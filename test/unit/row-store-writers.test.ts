import { describe, expect, it } from "vitest";
import path from "node:path";
import ts from "typescript";

// The grid's row store has one writer, its loader (ARCHITECTURE.md): actions, live events and
// review mode ask the loader, so that a removal of a row whose position is unknown reloads, and
// a stale read's answer is never written. Found by the type checker, not by names: a RowStore
// under any name, a method passed on or destructured, counts as much as a call.

const ROOT = path.resolve(import.meta.dirname, "../..");
const STORE = "components/grid/data/row-store.ts";
const WRITER = "components/grid/data/row-loader.ts";

/** RowStore's members that change it; every other public member only reads. */
const MUTATORS = ["reset", "fill", "setTotal", "append", "upsertExisting", "patchCell", "remove", "setLoadState"];
const READERS = [
  "get",
  "has",
  "size",
  "total",
  "idAt",
  "positionOf",
  "gaps",
  "processingIds",
  "getHandles",
  "getListVersion",
  "getDropVersion",
  "getVersion",
  "getLoadState",
  "subscribeList",
  "subscribeAny",
  "subscribeLoad",
  "subscribeRow",
];

const HIDDEN = ts.ModifierFlags.Private | ts.ModifierFlags.Protected;

function componentsProgram(): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(ROOT, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  )!;
  const files = config.fileNames.filter((f) => path.relative(ROOT, f).startsWith(`components${path.sep}`));
  return ts.createProgram(files, { ...config.options, noEmit: true, incremental: false });
}

const isRowStore = (checker: ts.TypeChecker, node: ts.Node) => {
  const type = checker.getTypeAtLocation(node);
  return (type.getSymbol() ?? type.aliasSymbol)?.getName() === "RowStore";
};

/** Every reference to a mutating member of a RowStore value, as "file:line member". */
function mutatorUses(program: ts.Program): string[] {
  const checker = program.getTypeChecker();
  const uses: string[] = [];
  for (const sf of program.getSourceFiles()) {
    const file = path.relative(ROOT, sf.fileName).split(path.sep).join("/");
    if (!file.startsWith("components/") || file === STORE) continue;
    const record = (node: ts.Node, member: string) =>
      uses.push(`${file}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1} ${member}`);
    const visit = (node: ts.Node) => {
      if (ts.isPropertyAccessExpression(node) && MUTATORS.includes(node.name.text)) {
        if (isRowStore(checker, node.expression)) record(node, node.name.text);
      } else if (
        ts.isElementAccessExpression(node) &&
        ts.isStringLiteralLike(node.argumentExpression) &&
        MUTATORS.includes(node.argumentExpression.text)
      ) {
        if (isRowStore(checker, node.expression)) record(node, node.argumentExpression.text);
      } else if (ts.isObjectBindingPattern(node) && isRowStore(checker, node)) {
        for (const el of node.elements) {
          const member = (el.propertyName ?? el.name).getText(sf);
          if (MUTATORS.includes(member)) record(el, member);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return uses;
}

describe("the grid's row store", () => {
  let program: ts.Program | undefined;
  const parsed = () => (program ??= componentsProgram());

  it("names each of its public members a reader or a mutator", () => {
    const sf = parsed().getSourceFile(path.join(ROOT, STORE))!;
    const store = sf.statements.find(
      (s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === "RowStore",
    );
    const members = store!.members
      .filter((m) => m.name && !ts.isPrivateIdentifier(m.name))
      .filter((m) => !(ts.getCombinedModifierFlags(m as ts.Declaration) & HIDDEN))
      .map((m) => m.name!.getText(sf));
    expect(members.sort()).toEqual([...MUTATORS, ...READERS].sort());
  }, 60_000);

  it("is written by its loader only", () => {
    const uses = mutatorUses(parsed());
    // The check sees the loader's own writes, so it would see anyone else's.
    for (const m of ["reset", "fill", "setLoadState"])
      expect(uses.some((u) => u.startsWith(`${WRITER}:`) && u.endsWith(` ${m}`))).toBe(true);
    expect(uses.filter((u) => !u.startsWith(`${WRITER}:`))).toEqual([]);
  }, 60_000);
});
