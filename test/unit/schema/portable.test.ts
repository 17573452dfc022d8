// The schema library's runtime graph (everything packages/schema/src/schema/index.ts imports, followed through src/api and
// src/address) is free of Node: no node:* or bare builtin import, no Buffer, process, global, setImmediate or require;
// so it bundles for a browser (esbuild --platform=browser) and runs where only the web's globals exist.
import { expect } from 'chai';
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import vm from 'node:vm';
import ts from 'typescript';
import { validateCluster } from '../../../packages/schema/src/schema/index.js';

const ENTRY = resolve('packages/schema/src/schema/index.ts');
const NODE_GLOBALS = new Set([
  'Buffer',
  'process',
  'global',
  'setImmediate',
  'clearImmediate',
  'require',
  '__dirname',
  '__filename',
]);
const BUILTINS = new Set(builtinModules);
const isBuiltin = (spec: string): boolean => spec.startsWith('node:') || BUILTINS.has(spec.split('/')[0] as string);

interface Finding {
  file: string;
  what: string;
}

/** The specifiers a file imports at run time (type-only imports and exports are erased, so they are not followed). */
function runtimeImports(source: ts.SourceFile): string[] {
  const specs: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly && ts.isStringLiteral(node.moduleSpecifier))
      specs.push(node.moduleSpecifier.text);
    else if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier !== undefined)
      specs.push((node.moduleSpecifier as ts.StringLiteral).text);
    else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteral(node.arguments[0])
    )
      specs.push(node.arguments[0].text);
    else if (ts.isExternalModuleReference(node) && ts.isStringLiteral(node.expression))
      specs.push(node.expression.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specs;
}

/** Identifiers that name a Node global: not a property (`x.process`), a key (`{ global: 1 }`) or a declaration. */
function nodeGlobals(source: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && NODE_GLOBALS.has(node.text)) {
      const parent = node.parent;
      const isName =
        (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
        (ts.isPropertyAssignment(parent) && parent.name === node) ||
        (ts.isPropertySignature(parent) && parent.name === node) ||
        (ts.isPropertyDeclaration(parent) && parent.name === node) ||
        (ts.isMethodDeclaration(parent) && parent.name === node);
      if (!isName) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        found.push(`${node.text} (line ${line + 1})`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Walks the static import graph from `entry`, following relative imports of .ts files. */
function walk(entry: string): { files: string[]; findings: Finding[] } {
  const seen = new Set<string>();
  const findings: Finding[] = [];
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const name = relative(process.cwd(), file);
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    for (const g of nodeGlobals(source)) findings.push({ file: name, what: `uses ${g}` });
    for (const spec of runtimeImports(source)) {
      if (isBuiltin(spec)) findings.push({ file: name, what: `imports ${spec}` });
      else if (spec.startsWith('.')) {
        const target = resolve(dirname(file), spec);
        if (target.endsWith('.js')) queue.push(target.replace(/\.js$/, '.ts'));
        else if (target.endsWith('.ts')) queue.push(target);
        // .json: data, no code
      }
    }
  }
  return { files: [...seen].map((f) => relative(process.cwd(), f)).sort(), findings };
}

describe('the schema library is portable', () => {
  it('imports nothing of Node and uses no Node global anywhere in its runtime graph', () => {
    const { files, findings } = walk(ENTRY);
    // The walk reaches the three layers the library is made of, so an empty finding list means something.
    expect(files).to.include.members([
      'packages/schema/src/schema/index.ts',
      'packages/schema/src/schema/probe-rules.ts',
      'packages/schema/src/schema/x509.ts',
      'packages/schema/src/api/index.ts',
      'packages/schema/src/address/spelling.ts',
    ]);
    expect(
      files.every((f) => /^packages\/schema\/src\/(schema|api|address)\//.test(f)),
      files.join(', '),
    ).to.equal(true);
    expect(findings).to.deep.equal([]);
  });

  it('finds a node: import and a Buffer in a file that has them (the walk can fail)', () => {
    const source = ts.createSourceFile(
      'x.ts',
      "// Buffer in a comment\nimport { a } from 'node:util';\nimport type { B } from 'node:net';\nconst s = 'process';\nconst n = Buffer.byteLength(s);\nconst o = { global: 1 }.global;\n",
      ts.ScriptTarget.ES2022,
      true,
    );
    expect(runtimeImports(source).filter(isBuiltin)).to.deep.equal(['node:util']);
    expect(nodeGlobals(source)).to.deep.equal(['Buffer (line 5)']);
  });

  it('bundles for a browser with esbuild, no builtin resolved', async () => {
    const result = await build({
      entryPoints: [ENTRY],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    expect(result.errors).to.deep.equal([]);
    expect(result.warnings).to.deep.equal([]);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((i) => i.startsWith('node:') || isBuiltin(i))).to.deep.equal([]);
    expect(inputs).to.include('packages/schema/src/schema/x509.ts');
    expect(result.outputFiles[0]?.contents.length).to.be.greaterThan(0);
  });

  it('validates in a realm with only the web globals, as in Node (a non-ASCII name, a caBundle, full-width digits)', async () => {
    const result = await build({
      entryPoints: [ENTRY],
      bundle: true,
      platform: 'browser',
      format: 'iife',
      globalName: 'schema',
      write: false,
      logLevel: 'silent',
    });
    const code = new TextDecoder().decode(result.outputFiles[0]?.contents);
    // What a browser (or a worker) offers beyond the language itself, and nothing of Node's.
    const realm = vm.createContext({ URL, TextEncoder, TextDecoder, atob, btoa, structuredClone });
    vm.runInContext(code, realm);
    const ca = readFileSync('test/fixtures/schema/ca.b64', 'utf8').trim();
    const garbage = btoa('-----BEGIN CERTIFICATE-----\nMIIBdzCCAR2gAwIBAgIUJd2\n-----END CERTIFICATE-----\n');
    const clusters = [
      { probe: { httpGet: { port: 443, scheme: 'HTTPS', caBundle: ca } }, name: 'mémber' },
      { probe: { httpGet: { port: 443, scheme: 'HTTPS', caBundle: garbage } }, name: 'member' },
      {
        probe: { tcpSocket: { port: 80, host: '１６９.２５４.１６９.２５４' } },
        name: 'm'.repeat(20) + 'é'.repeat(15),
      },
      { probe: { grpc: { port: 9000, host: 'fe80::1%eth0' } }, name: 'member' },
    ].map(({ probe, name }) => ({
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name, annotations: { 'cluster.karmada.io/health-checker': '{"url":"https://probe.example.com/h"}' } },
      spec: { syncMode: 'Pull', apiEndpoint: 'https://10.0.0.1:6443', livenessProbe: probe },
    }));
    vm.runInContext(`globalThis.run = (c) => JSON.stringify(schema.validateCluster(c))`, realm);
    for (const c of clusters) {
      const there = JSON.parse((realm.run as (c: unknown) => string)(c)) as unknown;
      const here = JSON.parse(JSON.stringify(validateCluster(c))) as unknown;
      expect(there).to.deep.equal(here);
    }
    // The rows above exercise what used Node: each is refused for the reason it should be.
    const messages = clusters.map((c) => validateCluster(c).errors.map((e) => e.message));
    expect(messages[0]?.join('\n')).to.match(/metadata\.name: Invalid value: "mémber"/);
    expect(messages[1]).to.include(
      'spec.livenessProbe.httpGet.caBundle: Invalid value: certificate 1 of the bundle is not a valid X.509 certificate',
    );
    expect(messages[2]?.join('\n')).to.match(/host: .*169\.254\.169\.254/);
    expect(messages[2]?.join('\n')).to.match(/metadata\.name: Invalid value: .*must be no more than 48 characters/);
  });
});
