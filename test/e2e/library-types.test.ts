/**
 * The package as a TypeScript user gets it: the declarations `npm run build` emits, under
 * node_modules/citedocs, read by `tsc --strict`. Every type a public function or method takes or
 * returns is importable from the package root, and a consumer file importing every exported type
 * and embedding the HTTP and MCP servers compiles.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
let work: string;
let packageDir: string;
let exported: { types: string[]; values: string[] };

/** The package's root module in the emitted declarations, with a checker over them. */
function openDeclarations(): { checker: ts.TypeChecker; root: ts.Symbol; inPackage: (file: ts.SourceFile) => boolean } {
  const index = join(packageDir, 'dist', 'index.d.ts');
  const program = ts.createProgram([index], { strict: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(index);
  const root = source === undefined ? undefined : checker.getSymbolAtLocation(source);
  if (root === undefined) throw new Error(`cannot read ${index}`);
  const dist = resolve(packageDir, 'dist');
  return { checker, root, inPackage: (file) => resolve(file.fileName).startsWith(dist) };
}

const resolveAlias = (checker: ts.TypeChecker, symbol: ts.Symbol) => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);

/**
 * The named types of this package that the exported declarations mention, directly or through
 * other such types (the members of a returned interface, the options of a parameter), which the
 * root does not export: a user can receive them but not name them.
 */
function unexportedPublicTypes(): string[] {
  const { checker, root, inPackage } = openDeclarations();
  const exports = checker.getExportsOfModule(root).map((symbol) => resolveAlias(checker, symbol));
  const exportedSymbols = new Set(exports);
  const missing = new Map<string, string>();
  const visited = new Set<ts.Node>();
  const visitDeclaration = (declaration: ts.Declaration, via: string) => {
    if (visited.has(declaration)) return;
    visited.add(declaration);
    const visit = (node: ts.Node): void => {
      // What is private to a class is not part of its contract.
      if ((ts.isPropertyDeclaration(node) || ts.isMethodDeclaration(node)) && ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Private) return;
      if (ts.isTypeReferenceNode(node) || ts.isImportTypeNode(node) || ts.isExpressionWithTypeArguments(node) || ts.isTypeQueryNode(node)) {
        const type = checker.getTypeAtLocation(node);
        const found = type.aliasSymbol ?? type.getSymbol();
        const symbol = found === undefined ? undefined : resolveAlias(checker, found);
        for (const target of symbol?.declarations ?? []) {
          if (!inPackage(target.getSourceFile()) || ts.isTypeParameterDeclaration(target)) continue;
          const named = ts.isInterfaceDeclaration(target) || ts.isTypeAliasDeclaration(target) || ts.isClassDeclaration(target) || ts.isEnumDeclaration(target);
          if (!named || symbol === undefined) continue;
          if (!exportedSymbols.has(symbol)) missing.set(symbol.getName(), `${via} → ${symbol.getName()}`);
          visitDeclaration(target, `${via} → ${symbol.getName()}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(declaration);
  };
  for (const symbol of exports) for (const declaration of symbol.declarations ?? []) visitDeclaration(declaration, symbol.getName());
  return [...missing.values()].sort();
}

function listExports(): { types: string[]; values: string[] } {
  const { checker, root } = openDeclarations();
  const types: string[] = [];
  const values: string[] = [];
  for (const symbol of checker.getExportsOfModule(root)) {
    const target = resolveAlias(checker, symbol);
    if (target.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Class | ts.SymbolFlags.Enum)) types.push(symbol.getName());
    if (target.flags & ts.SymbolFlags.Value) values.push(symbol.getName());
  }
  return { types: types.sort(), values: values.sort() };
}

beforeAll(() => {
  // Inside the repository (test-output/ is ignored by git), so the package's own dependencies resolve from its node_modules.
  mkdirSync(join(ROOT, 'test-output'), { recursive: true });
  work = mkdtempSync(join(ROOT, 'test-output', 'consumer-'));
  packageDir = join(work, 'node_modules', 'citedocs');
  mkdirSync(packageDir, { recursive: true });
  copyFileSync(join(ROOT, 'package.json'), join(packageDir, 'package.json'));
  // A package of its own: inside the repository, 'citedocs' would otherwise resolve to the repository itself (a package's self-reference).
  writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'citedocs-consumer', private: true, type: 'module' }));
  // The build's declarations, as `npm pack` ships them (into a folder of its own: dist/ may be in use).
  execFileSync(process.execPath, [TSC, '-p', join(ROOT, 'tsconfig.build.json'), '--emitDeclarationOnly', '--outDir', join(packageDir, 'dist')], { cwd: ROOT, stdio: 'pipe' });
  exported = listExports();
}, 240_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the package root, for TypeScript users', () => {
  it('exports every type a public function or method takes or returns', () => {
    expect(unexportedPublicTypes()).toEqual([]);
  });

  it('exports the HTTP and MCP server factories, and the types of what the engine returns', () => {
    expect(exported.values).toEqual(expect.arrayContaining(['createEngine', 'createHttpServer', 'createMcpServer', 'handleMcpHttpRequest', 'runMcpOverStdio']));
    expect(exported.types).toEqual(expect.arrayContaining(['AskEvent', 'PageInspection', 'SourceSummary', 'IndexStats', 'HttpServerOptions', 'DirectDocument']));
  });

  it('compiles a consumer that imports every exported type and embeds the servers, with tsc --strict', () => {
    const consumer = `import type { ${exported.types.join(', ')} } from 'citedocs';
import { createEngine, createHttpServer, createMcpServer } from 'citedocs';

// Every exported type, named once, so a missing or broken export fails to compile.
export type Everything = [${exported.types.join(', ')}];

export async function embed(dbPath: string): Promise<void> {
  const engine: Engine = createEngine({ dbPath });
  const stats: IndexStats = await engine.stats();
  const sources: SourceSummary[] = await engine.listSources();
  const page: PageInspection | undefined = await engine.inspect('https://docs.example/page.html');
  for await (const event of engine.askStream('how?')) {
    const step: AskEvent = event;
    if (step.type === 'done') console.log(step.response.citations.length);
  }
  const options: HttpServerOptions = { apiKeys: ['key'] };
  const app = await createHttpServer(engine, options);
  const mcp = createMcpServer(engine);
  console.log(stats.pages, sources.length, page?.title, app.server.listening, typeof mcp.connect);
  await app.close();
  await engine.close();
}
`;
    writeFileSync(join(work, 'consumer.ts'), consumer);
    const result = spawnSync(
      process.execPath,
      [TSC, '--strict', '--noEmit', '--exactOptionalPropertyTypes', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--types', 'node', join(work, 'consumer.ts')],
      { cwd: work, encoding: 'utf8' },
    );
    expect(`${result.stdout}${result.stderr}`).toBe('');
    expect(result.status).toBe(0);
  }, 120_000);
});
