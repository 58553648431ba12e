import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../helpers/source-files.js';

/** The specifiers of the run-time `import(...)` calls in a file (type positions such as `import('x').T` are not calls). */
function lazyImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [specifier] = node.arguments;
      found.push(specifier && ts.isStringLiteralLike(specifier) ? specifier.text : '(computed)');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('lazy imports', () => {
  it('name a module of ours, never a package: the bundled CLI would see a CommonJS package as a default export only', () => {
    const root = process.cwd();
    const files = [...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'pipelines'))];
    const offending = files.flatMap((file) =>
      lazyImports(file)
        .filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:'))
        .map((specifier) => `${relative(root, file)}: import('${specifier}')`),
    );
    expect(files.length).toBeGreaterThan(100);
    // The files that do import lazily are seen (the commands load their heavy parts so).
    expect(files.some((file) => lazyImports(file).some((specifier) => specifier.startsWith('.')))).toBe(true);
    expect(offending).toEqual([]);
  });
});
