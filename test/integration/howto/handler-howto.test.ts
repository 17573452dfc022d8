// docs/architecture.md's "Add a probe handler", followed once (issue 40) so that it cannot go stale. The numbered
// steps are read from the doc and carried out, for a toy handler `foo` (a host and a port, probed as tcpSocket probes),
// in a copy of the sources they touch under os.tmpdir(); then the copy's schema library, its generated CRD and JSON
// Schemas, and its probe engine are asked about `foo`. An instruction the doc drops fails here twice: as an instruction
// this test carries out that the doc no longer gives, and as what breaks without it. About 30 s on two cores, most of
// it `tsc` over the copy.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type Schema } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { expect } from 'chai';
import { parse } from 'yaml';
import { HANDLERS } from '../../../packages/schema/src/api/index.js';
import type { SchemaNode } from '../../../packages/schema/src/schema/index.js';
import { JSON_SCHEMA_FILES } from '../../../scripts/generate/json-schemas.js';

// ajv-formats is CommonJS with `export default`: under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const DOC = 'docs/architecture.md';
const CRD = 'manifests/crd/cluster.karmada.io_clusters.yaml';
const SCHEMA = 'schemas/liveness-probe.schema.json';

/**
 * What the copy holds: what the steps edit, and what the generators and the steps' commands read (the generators fill
 * the defaults marked in docs/ and test/fixtures/webhook/). `schemas` is a link to packages/schema/schemas, copied as
 * the link; node_modules is linked, not copied.
 */
const COPIED = [
  'package.json',
  'tsconfig.json',
  '.mocharc.json',
  'schemas',
  'packages/schema/package.json',
  'packages/schema/schemas',
  'packages/schema/src',
  'packages/probe/package.json',
  'packages/probe/src',
  'scripts/generate.ts',
  'scripts/generate',
  'docs',
  'test/fixtures/webhook',
  'test/unit/api/agreement.test.ts',
];

// --- The how-to, as the doc writes it.

interface Step {
  number: number;
  text: string;
  /** The repository paths the step names (in backticks). */
  files: string[];
  /** The files this test's actions touched while carrying out the step. */
  touched: Set<string>;
}

function howToSteps(doc: string): Step[] {
  const start = doc.indexOf('**Add a probe handler**');
  if (start < 0) throw new Error(`${DOC} has no "**Add a probe handler**"`);
  const end = doc.indexOf('\n**', start + 2);
  const block = doc.slice(start, end < 0 ? undefined : end);
  const steps: Step[] = [];
  for (const line of block.split('\n')) {
    const item = /^(\d+)\. (.*)$/.exec(line);
    const last = steps[steps.length - 1];
    if (item !== null) steps.push({ number: Number(item[1]), text: item[2] ?? '', files: [], touched: new Set() });
    else if (last !== undefined && /^\s+\S/.test(line)) last.text += ` ${line.trim()}`;
  }
  for (const s of steps)
    s.files = [...s.text.matchAll(/`([^`]+)`/g)]
      .map((m) => m[1] ?? '')
      .filter((t) => /^[\w.-]+(\/[\w.-]+)+\.\w+$/.test(t));
  return steps;
}

// --- The actions: each one instruction of the how-to, done by the step that names its file and says its cue.

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

interface Action {
  /** The instruction, as a failure names it. */
  what: string;
  /** What the step's text says when it gives the instruction. */
  cue: RegExp;
  /** The file it edits or creates; none for a command, which any step may give. */
  file?: string;
  run(copy: string): void;
}

function run(cwd: string, command: string, args: string[], env: Record<string, string> = {}): Ran {
  const r = spawnSync(command, args, {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 150_000,
    maxBuffer: 64 * 2 ** 20,
  });
  return { status: r.status, stdout: r.stdout ?? '', stderr: `${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
}

/** `file` in the copy, refused when a link would take a write out of it (into the repository). */
function pathInCopy(copy: string, file: string): string {
  const path = join(copy, file);
  const real = realpathSync(dirname(path));
  if (real !== realpathSync(copy) && !real.startsWith(`${realpathSync(copy)}/`))
    throw new Error(`${file} of the copy is at ${real}, outside it: the copy must not write the repository`);
  return path;
}

function edit(copy: string, file: string, change: (text: string) => string): void {
  const path = pathInCopy(copy, file);
  const before = readFileSync(path, 'utf8');
  const after = change(before);
  if (after === before) throw new Error(`${file}: this test's action changed nothing`);
  writeFileSync(path, after);
}

function editSchema(copy: string, change: (schema: SchemaNode) => void): void {
  edit(copy, SCHEMA, (text) => {
    const schema = JSON.parse(text) as SchemaNode;
    change(schema);
    return `${JSON.stringify(schema, null, 2)}\n`;
  });
}

/** `text` with `insert` after the first match of `anchor`; a file that lost the anchor fails with its name. */
function insertAfter(text: string, anchor: RegExp, insert: string, file: string): string {
  const m = anchor.exec(text);
  if (m === null)
    throw new Error(`${file} no longer matches ${String(anchor)}: this test's action for it needs a look`);
  const at = m.index + m[0].length;
  return `${text.slice(0, at)}${insert}${text.slice(at)}`;
}

const PROBE_RULES = 'packages/schema/src/schema/probe-rules.ts';
const FOO_PROBE = 'packages/probe/src/foo-probe.ts';
const PROBER = 'packages/probe/src/prober.ts';
const AGREEMENT = 'test/unit/api/agreement.test.ts';
const JSON_SCHEMAS = 'scripts/generate/json-schemas.ts';

const FOO_PROBE_TS = `// The foo handler, a toy of test/integration/howto/handler-howto.test.ts: it connects as tcpSocket does, through the
// address guard. Depends only on the tcpSocket handler.
import type { HandlerEnv, HandlerResult } from './handler.js';
import { tcpProbe } from './tcp-probe.js';

export function fooProbe(action: { host: string; port: number }, env: HandlerEnv): Promise<HandlerResult> {
  return tcpProbe(action, env);
}
`;

const FOO_CASE = `    case 'foo': {
      const a = probe.foo!;
      const host = hostFor(a.host, ctx, 'livenessProbe.foo');
      if (typeof host !== 'string') return host;
      const port = resolvePort(a.port, 'livenessProbe.foo.port');
      if (!port.ok) return configError(port.message);
      return fooProbe({ host, port: port.port }, env);
    }
`;

/** What the commands of the steps answered, by action. */
const ran = new Map<string, Ran>();

const ACTIONS: Action[] = [
  {
    what: 'add foo to the properties of the probe schema',
    cue: /`properties`/,
    file: SCHEMA,
    run: (copy) =>
      editSchema(copy, (s) => {
        const props = Object.entries(s.properties ?? {});
        const grpcPort = s.properties?.grpc?.properties?.port;
        const foo: SchemaNode = {
          title: 'FooAction',
          description: 'A toy handler: a TCP connection that is opened and closed.',
          type: 'object',
          additionalProperties: false,
          required: ['port'],
          properties: {
            host: {
              description: 'Host name or IP address to connect to. Defaults to the host of spec.apiEndpoint.',
              type: 'string',
              maxLength: 253,
            },
            port: {
              description: 'Port number, from 1 to 65535.',
              type: 'integer',
              format: 'int32',
              // "a port's range as the x-kubernetes-validations rule of grpc.port"
              'x-kubernetes-validations': grpcPort?.['x-kubernetes-validations'] ?? [],
            },
          },
        };
        // After the last handler, before the timing fields.
        let at = 0;
        props.forEach(([, v], i) => {
          if (v.type === 'object') at = i + 1;
        });
        props.splice(at, 0, ['foo', foo]);
        s.properties = Object.fromEntries(props);
      }),
  },
  {
    what: 'add has(self.foo) to both CEL rules',
    cue: /has\(self\.foo\)/,
    file: SCHEMA,
    run: (copy) =>
      editSchema(copy, (s) => {
        let changed = 0;
        s['x-kubernetes-validations'] = (s['x-kubernetes-validations'] ?? []).map((r) => {
          if (!r.rule.includes('has(self.')) return r;
          changed++;
          if (/^has\(self\.\w+\)( \|\| has\(self\.\w+\))*$/.test(r.rule))
            return { ...r, rule: `${r.rule} || has(self.foo)` };
          if (/^\[has\(self\.\w+\)(, has\(self\.\w+\))*\]/.test(r.rule))
            return { ...r, rule: r.rule.replace(')]', '), has(self.foo)]') };
          throw new Error(`${SCHEMA}: a CEL rule of a shape this test cannot extend: ${r.rule}`);
        });
        if (changed !== 2) throw new Error(`${SCHEMA}: ${changed} CEL rules name the handlers, not 2`);
      }),
  },
  {
    what: "name foo in the description's list of handlers",
    cue: /`description`/,
    file: SCHEMA,
    run: (copy) =>
      editSchema(copy, (s) => {
        s.description = (s.description ?? '').replace(/\(((?:\w+, )*\w+) or (\w+)\)/, '($1, $2 or foo)');
      }),
  },
  {
    what: "give foo.host the keywords tcpSocket.host has in the JSON Schemas ('foo.host': HOST)",
    cue: /'foo\.host': HOST/,
    file: JSON_SCHEMAS,
    run: (copy) =>
      edit(copy, JSON_SCHEMAS, (t) =>
        insertAfter(
          t,
          /const ADDED\b[^]*?'liveness-probe\.schema\.json': \{\n/,
          "    'foo.host': HOST,\n",
          JSON_SCHEMAS,
        ),
      ),
  },
  {
    what: 'add foo to CHECKED in probe-rules.ts',
    cue: /`CHECKED`/,
    file: PROBE_RULES,
    run: (copy) =>
      edit(copy, PROBE_RULES, (t) =>
        insertAfter(t, /const CHECKED: Record<HandlerName, true> = \{/, ' foo: true,', PROBE_RULES),
      ),
  },
  {
    what: 'add foo to the named count in probeRules',
    cue: /`named`/,
    file: PROBE_RULES,
    run: (copy) =>
      edit(copy, PROBE_RULES, (t) =>
        insertAfter(
          t,
          /\n {2}const named =\n/,
          '    (probe.foo !== undefined && probe.foo !== null ? 1 : 0) +\n',
          PROBE_RULES,
        ),
      ),
  },
  {
    what: "check foo's port and host in probeRules (checkPort, checkHost)",
    cue: /`checkPort`/,
    file: PROBE_RULES,
    run: (copy) =>
      edit(copy, PROBE_RULES, (t) =>
        insertAfter(
          t,
          /export function probeRules\([^]*?\n(?= {2}return out;\n)/,
          `  if (isRecord(probe.foo)) {
    checkPort(probe.foo.port, path.child('foo', 'port'), false, out.errors);
    checkHost(probe.foo, path.child('foo'), ctx, out.errors);
  }
`,
          PROBE_RULES,
        ),
      ),
  },
  {
    what: 'npm run generate',
    cue: /`npm run generate`/,
    run: (copy) => ran.set('generate', run(copy, 'npm', ['run', '-s', 'generate'])),
  },
  {
    what: 'write packages/probe/src/foo-probe.ts',
    cue: /foo-probe\.ts/,
    file: FOO_PROBE,
    run: (copy) => writeFileSync(pathInCopy(copy, FOO_PROBE), FOO_PROBE_TS),
  },
  {
    what: "add case 'foo' to the engine's dispatch",
    cue: /`case 'foo'`/,
    file: PROBER,
    run: (copy) =>
      edit(copy, PROBER, (t) => {
        const imported = insertAfter(t, /\n(?=import )/, "import { fooProbe } from './foo-probe.js';\n", PROBER);
        return insertAfter(imported, /\n {2}switch \(which\.name\) \{\n/, FOO_CASE, PROBER);
      }),
  },
  {
    what: 'a probe of foo alone in the agreement test, which then passes',
    cue: /`bare`/,
    file: AGREEMENT,
    run: (copy) => {
      edit(copy, AGREEMENT, (t) =>
        insertAfter(
          t,
          /const bare: Record<string, LivenessProbe> = \{\n/,
          "  foo: { foo: { host: 'h.example.com', port: 80 } },\n",
          AGREEMENT,
        ),
      );
      ran.set('agreement', run(copy, 'npx', ['--no', '--', 'mocha', AGREEMENT]));
    },
  },
  {
    what: 'npx tsc --noEmit -p .',
    cue: /`npx tsc --noEmit -p \.`/,
    run: (copy) => ran.set('tsc', run(copy, 'npx', ['--no', '--', 'tsc', '--noEmit', '-p', '.'])),
  },
];

// --- What is asked of the copy once the steps are done.

const CLUSTER = `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: member1
spec:
  syncMode: Push
  apiEndpoint: https://member1.example.com:6443
  secretRef:
    namespace: karmada-cluster
    name: member1
  livenessProbe:
    foo:
      port: 8443
`;

/** Probes of foo, each beside the same probe of an existing handler that it must be judged as. */
const PROBES = {
  foo: { foo: { port: 8443 } },
  fooWithHost: { foo: { host: 'health.member1.example.com', port: 8443 } },
  fooBesideTcpSocket: { tcpSocket: { port: 8443 }, foo: { port: 8443 } },
  grpcBesideTcpSocket: { tcpSocket: { port: 8443 }, grpc: { port: 8443 } },
  fooPort0: { foo: { port: 0 } },
  grpcPort0: { grpc: { port: 0 } },
  fooBadHost: { foo: { host: '-member1-', port: 8443 } },
  tcpSocketBadHost: { tcpSocket: { host: '-member1-', port: 8443 } },
  fooMetadataHost: { foo: { host: '169.254.169.254', port: 80 } },
  tcpSocketMetadataHost: { tcpSocket: { host: '169.254.169.254', port: 80 } },
  none: {},
};
type ProbeName = keyof typeof PROBES;

function clusterWith(probe: object): Record<string, unknown> {
  const c = parse(CLUSTER) as { spec: Record<string, unknown> };
  return { ...c, spec: { ...c.spec, livenessProbe: probe } };
}

/**
 * Run in the copy (its own tsconfig, so `@karmada-cluster-probe/*` resolves to the copy's sources): the copy's schema
 * library judges each Cluster, and its engine names each probe's handler and runs foo against a listener on
 * 127.0.0.1, a closed port and the metadata address.
 */
const IN_COPY = `import net from 'node:net';
const { validateCluster, HANDLERS } = await import('./packages/schema/src/schema/index.ts');
const { handlerOf, runProbe } = await import('./packages/probe/src/index.ts');
const input = JSON.parse(process.env.HOWTO_INPUT);
const validated = {};
for (const [name, cluster] of Object.entries(input.clusters))
  validated[name] = validateCluster(cluster).errors.map(({ field, type, detail, message }) => ({ field, type, detail, message }));
const handlerOfs = {};
for (const [name, probe] of Object.entries(input.probes)) handlerOfs[name] = handlerOf(probe);
const outcome = ({ result, message }) => ({ result, message });
const server = net.createServer((socket) => socket.end());
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = server.address().port;
const runs = { listening: outcome(await runProbe({ foo: { host: '127.0.0.1', port } }, { denyList: [] })) };
await new Promise((resolve) => server.close(resolve));
runs.closed = outcome(await runProbe({ foo: { host: '127.0.0.1', port } }, { denyList: [] }));
runs.denied = outcome(await runProbe(input.probes.fooMetadataHost));
runs.deniedTcpSocket = outcome(await runProbe(input.probes.tcpSocketMetadataHost));
console.log(JSON.stringify({ handlers: [...HANDLERS], validated, handlerOfs, runs }));
`;

interface Judged {
  field: string;
  type: string;
  detail: string;
  message: string;
}

interface InCopy {
  handlers: string[];
  validated: Record<ProbeName, Judged[]>;
  handlerOfs: Record<ProbeName, { ok: true; name: string } | { ok: false; message: string }>;
  runs: Record<'listening' | 'closed' | 'denied' | 'deniedTcpSocket', { result: string; message: string }>;
}

/** Errors of an existing handler's probe, worded for foo: what foo's must be. */
function asFoo(errors: Judged[], handler: string): Judged[] {
  const rename = (s: string): string => s.split(`spec.livenessProbe.${handler}`).join('spec.livenessProbe.foo');
  return errors.map((e) => ({ ...e, field: rename(e.field), message: rename(e.message) }));
}

/** Non-comment lines of the copied sources that name every existing handler; each must name foo too. */
function handlerLists(copy: string): { at: string; line: string }[] {
  const out: { at: string; line: string }[] = [];
  const walk = (p: string): string[] =>
    statSync(join(copy, p)).isDirectory()
      ? readdirSync(join(copy, p))
          .filter((n) => n !== 'generated')
          .flatMap((n) => walk(`${p}/${n}`))
      : [p];
  const files = ['packages/schema/src', 'packages/probe/src', 'scripts/generate', 'scripts/generate.ts'].flatMap(walk);
  for (const n of readdirSync(join(copy, 'packages/schema/schemas')))
    if (n.endsWith('.json')) files.push(`packages/schema/schemas/${n}`);
  for (const file of files)
    readFileSync(join(copy, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/^\s*(\/\/|\/?\*)/.test(line)) return;
        if (HANDLERS.every((h) => new RegExp(`\\b${h}\\b`).test(line))) out.push({ at: `${file}:${i + 1}`, line });
      });
  return out;
}

describe('the handler how-to of docs/architecture.md, followed in a copy with a toy handler foo', function () {
  let copy = '';
  let steps: Step[] = [];
  const done = new Set<Action>();
  let inCopy: InCopy;

  before(function () {
    this.timeout(240_000); // a bound for hangs only; the steps take ~30 s
    steps = howToSteps(readFileSync(join(REPO, DOC), 'utf8'));
    copy = mkdtempSync(join(tmpdir(), 'handler-howto-'));
    for (const p of COPIED) {
      mkdirSync(dirname(join(copy, p)), { recursive: true });
      cpSync(join(REPO, p), join(copy, p), { recursive: true, verbatimSymlinks: true });
    }
    symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'), 'dir');
    for (const step of steps)
      for (const a of ACTIONS) {
        if (done.has(a) || !a.cue.test(step.text) || (a.file !== undefined && !step.files.includes(a.file))) continue;
        a.run(copy);
        done.add(a);
        if (a.file !== undefined) step.touched.add(a.file);
      }
    const input = {
      clusters: Object.fromEntries(Object.entries(PROBES).map(([k, p]) => [k, clusterWith(p)])),
      probes: PROBES,
    };
    const r = run(copy, process.execPath, ['--import', 'tsx', '--input-type=module', '-e', IN_COPY], {
      HOWTO_INPUT: JSON.stringify(input),
    });
    if (r.status !== 0) throw new Error(`the copy's library and engine could not be asked: ${r.stderr}`);
    inCopy = JSON.parse(r.stdout) as InCopy;
  });

  after(() => {
    // The node_modules link is removed, not followed.
    if (copy !== '') rmSync(copy, { recursive: true, force: true });
  });

  describe('the doc and this test name the same steps', () => {
    it('reads steps numbered 1 to n', () => {
      expect(steps.length).to.be.greaterThan(2);
      expect(steps.map((s) => s.number)).to.deep.equal(steps.map((_, i) => i + 1));
    });

    it('finds each instruction it carries out in the step that names its file', () => {
      expect(
        ACTIONS.filter((a) => !done.has(a)).map((a) => a.what),
        'instructions the how-to no longer gives (in the step naming their file)',
      ).to.deep.equal([]);
    });

    it('touches every file a step names, each in the repository or created by that step', () => {
      for (const step of steps)
        for (const file of step.files) {
          const where = `step ${step.number}: ${file}`;
          expect(step.touched.has(file), `${where} is named but this test does nothing to it`).to.equal(true);
          if (file.includes('foo')) {
            expect(existsSync(join(REPO, file)), `${where} is the new handler's`).to.equal(false);
            expect(existsSync(join(copy, file)), `${where} was created`).to.equal(true);
          } else expect(existsSync(join(REPO, file)), `${where} exists`).to.equal(true);
        }
    });
  });

  describe('the generators', () => {
    it('run in the copy (npm run generate) and list foo among the handlers', () => {
      const g = ran.get('generate');
      expect(g?.status, g?.stderr).to.equal(0);
      expect(g?.stdout).to.contain(`wrote ${CRD}`);
      expect(inCopy.handlers).to.deep.equal([...HANDLERS, 'foo']);
    });
  });

  describe("the copy's schema library (validators generated from the schema, and probe-rules.ts)", () => {
    it('accepts a Cluster probed by foo, with and without a host', () => {
      expect(inCopy.validated.foo).to.deep.equal([]);
      expect(inCopy.validated.fooWithHost).to.deep.equal([]);
    });

    it('refuses foo beside another handler with the wording it refuses two existing handlers with', () => {
      expect(inCopy.validated.grpcBesideTcpSocket, 'grpc beside tcpSocket').to.have.length(1);
      expect(inCopy.validated.fooBesideTcpSocket).to.deep.equal(asFoo(inCopy.validated.grpcBesideTcpSocket, 'grpc'));
    });

    it('refuses a port of 0, a bad host and a denied host as it refuses them for grpc and tcpSocket', () => {
      expect(inCopy.validated.grpcPort0, 'grpc.port 0').to.have.length(1);
      expect(inCopy.validated.fooPort0).to.deep.equal(asFoo(inCopy.validated.grpcPort0, 'grpc'));
      expect(inCopy.validated.tcpSocketBadHost, 'tcpSocket.host -member1-').not.to.deep.equal([]);
      expect(inCopy.validated.fooBadHost).to.deep.equal(asFoo(inCopy.validated.tcpSocketBadHost, 'tcpSocket'));
      expect(inCopy.validated.tcpSocketMetadataHost, 'tcpSocket.host 169.254.169.254').not.to.deep.equal([]);
      expect(inCopy.validated.fooMetadataHost).to.deep.equal(
        asFoo(inCopy.validated.tcpSocketMetadataHost, 'tcpSocket'),
      );
    });
  });

  describe("the copy's generated CRD and JSON Schemas", () => {
    // No CEL evaluator is installed (none in node_modules): the CRD's rules are held to the handler list by their
    // text, and the JSON Schemas, which json-schemas.ts translates from those same rules, are run by ajv.
    it('declare foo, and name it in both one-handler CEL rules with their messages unchanged', () => {
      const read = (root: string): SchemaNode[] =>
        (
          parse(readFileSync(join(root, CRD), 'utf8')) as {
            spec: { versions: { schema: { openAPIV3Schema: SchemaNode } }[] };
          }
        ).spec.versions.map((v) => v.schema.openAPIV3Schema.properties?.spec?.properties?.livenessProbe ?? {});
      const ours = read(REPO);
      const theirs = read(copy);
      expect(theirs).to.have.length(ours.length);
      for (const [i, probe] of theirs.entries()) {
        expect(Object.keys(probe.properties?.foo?.properties ?? {}), `version ${i}: foo`).to.deep.equal([
          'host',
          'port',
        ]);
        const rules = probe['x-kubernetes-validations'] ?? [];
        const named = rules.map((r) => [...r.rule.matchAll(/has\(self\.(\w+)\)/g)].map((m) => m[1]));
        expect(named, `version ${i}: the handlers each rule names`).to.deep.equal(
          rules.map(() => [...HANDLERS, 'foo']),
        );
        const messages = (ours[i]?.['x-kubernetes-validations'] ?? []).map((r) => r.message);
        expect(rules.map((r) => r.message)).to.deep.equal(messages);
      }
    });

    it('accept a Cluster probed by foo and refuse foo beside another handler or with a bad host, as kubeconform would', () => {
      const ajv = new Ajv({ allErrors: true, strict: true });
      addFormats(ajv);
      const validate = ajv.compile(JSON.parse(readFileSync(join(copy, JSON_SCHEMA_FILES.catalog), 'utf8')) as Schema);
      const verdict = (name: ProbeName): boolean => validate(clusterWith(PROBES[name]));
      expect(verdict('foo'), 'foo').to.equal(true);
      expect(verdict('fooWithHost'), 'foo with a host').to.equal(true);
      expect([verdict('grpcBesideTcpSocket'), verdict('fooBesideTcpSocket')], 'beside tcpSocket').to.deep.equal([
        false,
        false,
      ]);
      expect([verdict('tcpSocketBadHost'), verdict('fooBadHost')], 'host -member1-').to.deep.equal([false, false]);
    });
  });

  describe("the copy's engine", () => {
    it('names foo as the handler of a probe of foo, and refuses it beside another as it refuses two', () => {
      expect(inCopy.handlerOfs.foo).to.deep.equal({ ok: true, name: 'foo' });
      const two = inCopy.handlerOfs.grpcBesideTcpSocket;
      expect(two.ok).to.equal(false);
      if (!two.ok)
        expect(inCopy.handlerOfs.fooBesideTcpSocket).to.deep.equal({
          ok: false,
          message: two.message.replace('grpc', 'foo'),
        });
      const none = inCopy.handlerOfs.none;
      expect(none.ok ? '' : none.message).to.contain(`(${[...HANDLERS, 'foo'].join(', ')})`);
    });

    it('runs foo: success on a listener, failure on a closed port, the deny list before it dials', () => {
      expect(inCopy.runs.listening.result, inCopy.runs.listening.message).to.equal('success');
      expect(inCopy.runs.closed.result, inCopy.runs.closed.message).to.equal('failure');
      expect(inCopy.runs.deniedTcpSocket.result).to.equal('error');
      expect(inCopy.runs.denied).to.deep.equal(inCopy.runs.deniedTcpSocket);
    });
  });

  describe('the rest of the repository', () => {
    it('type-checks in the copy (npx tsc --noEmit -p .)', () => {
      const t = ran.get('tsc');
      expect(t?.status, `${t?.stdout ?? 'not run'}${t?.stderr ?? ''}`).to.equal(0);
    });

    it("passes the copy's agreement test: schema, engine and CRD say the same", () => {
      const a = ran.get('agreement');
      expect(a?.status, `${a?.stdout ?? 'not run'}${a?.stderr ?? ''}`).to.equal(0);
    });

    it('names foo on every line of the copied sources that lists the existing handlers', () => {
      const stale = handlerLists(copy).filter((l) => !/\bfoo\b/.test(l.line));
      expect(
        stale.map((l) => `${l.at}: ${l.line.trim()}`),
        'lists of the handlers the how-to does not reach',
      ).to.deep.equal([]);
    });
  });
});
