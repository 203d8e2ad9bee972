import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * Comments and test titles cite the project's own documents (a heading of docs/decisions.md, a rule
 * of the specification), never a tracker's issue numbers, which a reader of the code cannot open
 * (docs/decisions.md, Structure: small truths; CONTRIBUTING.md).
 */
const root = path.resolve(import.meta.dirname, "../..");
const FOLDERS = ["src", "scripts", "bench", "e2e"];
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const STYLE = /\.css$/;
const TEST_CALLS = new Set(["describe", "it", "test"]);

/** A tracker's number: "issue", "issues", "PR" or "pull request", then a number, perhaps after "#". */
const CITES_A_TRACKER = /\b(?:issues?|PR|pull requests?)\s+#?\d+/i;

function filesUnder(folder: string): string[] {
  if (!fs.existsSync(folder)) return [];
  return fs.readdirSync(folder, { recursive: true, withFileTypes: true }).flatMap((entry) => {
    const file = path.join(entry.parentPath, entry.name);
    if (!entry.isFile() || file.includes(`${path.sep}node_modules${path.sep}`)) return [];
    return SOURCE.test(entry.name) || STYLE.test(entry.name) ? [file] : [];
  });
}

function sourceFiles(): string[] {
  const rootFiles = fs.readdirSync(root).filter((name) => SOURCE.test(name) && !name.endsWith(".d.ts"));
  return [...rootFiles.map((name) => path.join(root, name)), ...FOLDERS.flatMap((folder) => filesUnder(path.join(root, folder)))];
}

/** Every comment of a file (TypeScript's own scanner, so `//` inside a string or a regex is no comment) and every test title. */
function proseOf(fileName: string, text: string): string[] {
  if (STYLE.test(fileName)) return [...text.matchAll(/\/\*[\s\S]*?\*\//g)].map((match) => match[0]);
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, fileName.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const seen = new Set<number>();
  const prose: string[] = [];
  const addComments = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      prose.push(text.slice(range.pos, range.end));
    }
  };
  const visit = (node: ts.Node) => {
    addComments(ts.getLeadingCommentRanges(text, node.pos));
    addComments(ts.getTrailingCommentRanges(text, node.end));
    if (ts.isCallExpression(node)) {
      let callee: ts.Expression = node.expression; // `it`, `it.skip`, `it.each([…])`
      while (ts.isPropertyAccessExpression(callee) || ts.isCallExpression(callee)) callee = callee.expression;
      const title = node.arguments[0];
      if (ts.isIdentifier(callee) && TEST_CALLS.has(callee.text) && title && ts.isStringLiteralLike(title)) prose.push(title.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  addComments(ts.getLeadingCommentRanges(text, file.endOfFileToken.pos));
  return prose;
}

describe("comments cite documents, not issue numbers", () => {
  it("finds comments, test titles and CSS comments, and nothing inside strings or regular expressions", () => {
    const code = [
      "// line comment",
      "/** block comment */",
      'const url = "https://example.com/a//b"; // trailing',
      "const pattern = /^\\/\\/x/;",
      'describe("a title", () => { it.each([1])("a case", () => {}); });',
    ].join("\n");
    expect(proseOf("x.ts", code)).toEqual(["// line comment", "/** block comment */", "// trailing", "a title", "a case"]);
    expect(proseOf("x.css", "a { color: red } /* a rule */")).toEqual(["/* a rule */"]);
  });

  it("tells a tracker citation from a number sign in an address", () => {
    expect(CITES_A_TRACKER.test("(issue 9 item 6)")).toBe(true);
    expect(CITES_A_TRACKER.test("Issue 11 item 5: the console")).toBe(true);
    expect(CITES_A_TRACKER.test("see issue #12")).toBe(true);
    expect(CITES_A_TRACKER.test('"123 Main Street #2" and PKCS#8')).toBe(false);
    expect(CITES_A_TRACKER.test("zod's issues are read")).toBe(false);
  });

  it("no comment or test title in the code cites an issue number", () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(300);
    const citing = files.flatMap((file) => {
      const text = fs.readFileSync(file, "utf8");
      if (!CITES_A_TRACKER.test(text)) return []; // parse only the files that could hold one
      return proseOf(file, text)
        .filter((prose) => CITES_A_TRACKER.test(prose))
        .map((prose) => `${path.relative(root, file)}: ${prose.match(CITES_A_TRACKER)?.[0]}`);
    });
    expect(citing).toEqual([]);
  });
});
