// The renderer's first chunk must not carry zod: evaluating it and the contract's schemas cost
// ~200 ms before the task list could paint (bench/README.md, renderer notes). A value imported from
// the contract's barrel in one sidebar file brought both back once; this walks the static imports
// from the entry as the bundler does (lazy `import()` and type-only imports don't count) and fails
// on the first path that reaches zod.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '..');
const ENTRY = join(ROOT, 'src/renderer/main.tsx');
// Replaced by a literal table in the renderer build (scripts/vite-method-table.ts).
const BUILD_TIME_LITERALS = new Set([join(ROOT, 'src/shared/contract/method-table.ts')]);

function isRuntimeImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return true; // `import './x'`: evaluated for its effects
  if (clause.isTypeOnly) return false;
  if (clause.name) return true;
  const bindings = clause.namedBindings;
  if (!bindings || ts.isNamespaceImport(bindings)) return true;
  // The transpiler drops an import whose specifiers are all `type` (no verbatimModuleSyntax).
  return bindings.elements.some((e) => !e.isTypeOnly);
}

function staticImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const specifiers: string[] = [];
  for (const node of source.statements) {
    if (ts.isImportDeclaration(node) && isRuntimeImport(node)) specifiers.push((node.moduleSpecifier as ts.StringLiteral).text);
    if (ts.isExportDeclaration(node) && node.moduleSpecifier && !node.isTypeOnly) specifiers.push((node.moduleSpecifier as ts.StringLiteral).text);
  }
  return specifiers;
}

function resolveRelative(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier);
  const found = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((f) => existsSync(f) && statSync(f).isFile());
  if (!found) throw new Error(`${relative(ROOT, from)}: cannot resolve ${specifier}`);
  return found;
}

/** The first import chain from the entry that reaches `pkg`, or null. */
function chainTo(pkg: string): string[] | null {
  const parent = new Map<string, string | null>([[ENTRY, null]]);
  const queue = [ENTRY];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (BUILD_TIME_LITERALS.has(file) || !/\.tsx?$/.test(file)) continue;
    for (const specifier of staticImports(file)) {
      if (!specifier.startsWith('.')) {
        if (specifier === pkg || specifier.startsWith(`${pkg}/`)) {
          const chain = [specifier];
          for (let at: string | null = file; at; at = parent.get(at) ?? null) chain.unshift(relative(ROOT, at));
          return chain;
        }
        continue;
      }
      const target = resolveRelative(file, specifier);
      if (parent.has(target)) continue;
      parent.set(target, file);
      queue.push(target);
    }
  }
  return null;
}

describe("the renderer's first chunk", () => {
  it('reaches the code it needs to paint the task list', () => {
    expect(chainTo('react-dom')).not.toBeNull();
  });

  it('does not import zod (the contract schemas load with the views that need them)', () => {
    expect(chainTo('zod')).toBeNull();
  });
});
