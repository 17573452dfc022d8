// The schema library in a real browser: builds the playground (esbuild, platform browser, no Node polyfills), serves
// it on loopback, opens it in Debian's Chromium through playwright-core, pastes good and bad Clusters and reads the
// page back. What the page shows is judged by what the same library functions return in Node for the same text, so
// the test holds the browser to the library's own answers, not to strings written here. Any uncaught error or console
// error in the page fails it. Needs /usr/bin/chromium: `node scripts/ensure-chromium.mjs` installs Debian's.
import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { buildPlayground, servePlayground, type PlaygroundBuild } from '../../playground/build.mjs';
import {
  defaultCluster,
  errorBody,
  formatInvalid,
  KIND,
  LEGACY_ANNOTATION,
  migrateCluster,
  PROBE_ANNOTATION,
  validateCluster,
  type FieldError,
  type MigrationResult,
  type ProbeLocation,
  type ValidationResult,
} from '../../packages/schema/src/schema/index.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** Deadlines that only catch a hang: each step takes well under a second here. */
const STEP_MS = 15_000;
/** The page's budget: the schema library with its validators and `yaml`, minified (about 240 KB raw today). */
const BUNDLE_BUDGET = { bytes: 512 * 1024, gzipBytes: 160 * 1024 };

type Obj = Record<string, unknown>;
type Format = 'JSON' | 'YAML';

const fixture = (path: string): string => readFileSync(join('test', 'fixtures', path), 'utf8');
/** The Cluster of a webhook fixture (its AdmissionReview's request.object). */
const reviewObject = (name: string): Obj =>
  (parseYaml(fixture(`webhook/${name}.yaml`)) as { review: { request: { object: Obj } } }).review.request.object;
const clone = (o: Obj): Obj => structuredClone(o);
const json = (o: unknown): string => JSON.stringify(o, null, 2);

// --- what Node says ------------------------------------------------------------------------------------------------

type NodeAnswer =
  | { format: Format; parseError: string }
  | { format: Format; value: unknown; validation: ValidationResult; migration: MigrationResult; output: unknown };

/** The page's steps, with the library in Node: parse, validateCluster, migrateCluster, defaultCluster. */
function nodeSays(text: string, location: ProbeLocation): NodeAnswer {
  const first = text.trimStart()[0];
  const format: Format = first === '{' || first === '[' ? 'JSON' : 'YAML';
  let value: unknown;
  try {
    value = format === 'JSON' ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 100 });
  } catch (err) {
    return { format, parseError: err instanceof Error ? err.message : String(err) };
  }
  const validation = validateCluster(value, { probeLocation: location });
  const migration = migrateCluster(value, { probeLocation: location });
  return { format, value, validation, migration, output: defaultCluster(migration.object) };
}

// --- what the page shows -------------------------------------------------------------------------------------------

interface Row {
  field: string;
  type: string;
  dataType: string | null;
  detail: string;
  message: string;
}

interface PageAnswer {
  state: string | null;
  internalError: string;
  parseError: string;
  format: string;
  summary: string;
  validationErrors: Row[];
  validationWarnings: string[];
  migrationErrors: Row[];
  migrationWarnings: string[];
  patch: string;
  output: string;
}

async function rows(page: Page, table: string): Promise<Row[]> {
  const out: Row[] = [];
  for (const tr of await page.locator(`#${table} tbody tr`).all()) {
    const [field, type, detail, message, ...rest] = await tr.locator('td').allTextContents();
    expect(rest, `#${table}: a row of four cells`).to.deep.equal([]);
    out.push({
      field: field ?? '',
      type: type ?? '',
      dataType: await tr.locator('td.type').getAttribute('data-type'),
      detail: detail ?? '',
      message: message ?? '',
    });
  }
  return out;
}

async function pageSays(page: Page): Promise<PageAnswer> {
  const text = async (selector: string): Promise<string> => (await page.locator(selector).textContent()) ?? '';
  return {
    state: await page.locator('#result').getAttribute('data-state'),
    internalError: await text('#internal-error'),
    parseError: await text('#parse-error'),
    format: await text('#input-format'),
    summary: await text('#summary'),
    validationErrors: await rows(page, 'validation-errors'),
    validationWarnings: await page.locator('#validation-warnings li').allTextContents(),
    migrationErrors: await rows(page, 'migration-errors'),
    migrationWarnings: await page.locator('#migration-warnings li').allTextContents(),
    patch: await text('#patch'),
    output: await text('#output'),
  };
}

/** How the page lays out one field error: the apiserver's type words come from the library's own errorBody. */
const expectedRow = (e: FieldError): Row => ({
  field: e.field,
  type: errorBody({ type: e.type, detail: '' }, false),
  dataType: e.type,
  detail: e.detail,
  message: e.message,
});

function nameOf(value: unknown): string {
  const name = (value as { metadata?: { name?: unknown } } | null)?.metadata?.name;
  return typeof name === 'string' ? name : '';
}

/** The page agrees with Node on every part it shows. */
function expectAgreement(shown: PageAnswer, node: NodeAnswer): void {
  expect(shown.internalError, 'the page reports an internal error').to.equal('');
  if ('parseError' in node) {
    expect(shown.state).to.equal('parse-error');
    // The wording of a JSON syntax error is the JS engine's (V8 in Node and in Chromium differ by version); YAML's is
    // the yaml package's, the same in both.
    if (node.format === 'YAML') expect(shown.parseError).to.equal(`cannot parse the input: ${node.parseError}`);
    else expect(shown.parseError).to.match(/^cannot parse the input: \S/);
    return;
  }
  expect(shown.state).to.equal('done');
  expect(shown.format).to.equal(node.format);
  const name = nameOf(node.value);
  expect(shown.summary).to.equal(
    node.validation.valid
      ? `${KIND} ${JSON.stringify(name)} is valid`
      : `The ${formatInvalid(KIND, name, node.validation.errors)}`,
  );
  expect(shown.validationErrors).to.deep.equal(node.validation.errors.map(expectedRow));
  expect(shown.validationWarnings).to.deep.equal(node.validation.warnings);
  expect(shown.migrationErrors).to.deep.equal(node.migration.errors.map(expectedRow));
  expect(shown.migrationWarnings).to.deep.equal(node.migration.warnings);
  expect(JSON.parse(shown.patch)).to.deep.equal(node.migration.patch);
  const output = node.format === 'JSON' ? (JSON.parse(shown.output) as unknown) : parseYaml(shown.output);
  expect(output).to.deep.equal(node.output);
}

// --- the Clusters pasted -------------------------------------------------------------------------------------------

const CA_BUNDLE = fixture('schema/ca.b64').trim();
const base64 = (s: string): string => btoa(s);
const CA_PEM = atob(CA_BUNDLE);
/** A PEM CERTIFICATE block whose DER is not a certificate. */
const NOT_A_CERTIFICATE_PEM = '-----BEGIN CERTIFICATE-----\nMIIBAAAAAAAAAAAA\n-----END CERTIFICATE-----\n';
/** The fixture's certificate with the second half of its DER gone (the PEM still well formed). */
function truncatedCertificate(pem: string): string {
  const body = pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
  const half = body.slice(0, Math.floor(body.length / 8) * 4);
  return `-----BEGIN CERTIFICATE-----\n${half.replace(/.{1,64}/g, '$&\n')}-----END CERTIFICATE-----\n`;
}

const httpCluster = parseYaml(fixture('clusters/member-http.yaml')) as Obj;
function withName(name: string): Obj {
  const o = clone(httpCluster);
  (o.metadata as Obj).name = name;
  return o;
}
function withCaBundle(caBundle: string): Obj {
  const o = clone(httpCluster);
  const httpGet = ((o.spec as Obj).livenessProbe as Obj).httpGet as Obj;
  httpGet.port = 443;
  httpGet.caBundle = caBundle;
  return o;
}
function withProbeHost(host: string): Obj {
  const o = clone(httpCluster);
  (((o.spec as Obj).livenessProbe as Obj).httpGet as Obj).host = host;
  return o;
}

interface Case {
  name: string;
  text: string;
  location?: ProbeLocation;
  /** What the case is there for, asked of Node's answer, so that a case cannot drift into testing nothing. */
  covers: (node: NodeAnswer) => void;
}

const parsed = (node: NodeAnswer): Extract<NodeAnswer, { validation: unknown }> => {
  if ('parseError' in node) throw new Error(`Node could not parse the case: ${node.parseError}`);
  return node;
};
const fields = (errors: readonly FieldError[]): string[] => errors.map((e) => e.field);
const CA_FIELD = 'spec.livenessProbe.httpGet.caBundle';

const CASES: Case[] = [
  {
    name: 'a valid Cluster in YAML (test/fixtures/clusters/member-http.yaml)',
    text: fixture('clusters/member-http.yaml'),
    covers: (n) => expect(parsed(n).validation.valid).to.equal(true),
  },
  {
    name: 'an invalid probe in YAML: port 70000 and two handlers (invalid-probe.yaml)',
    text: fixture('clusters/invalid-probe.yaml'),
    covers: (n) => expect(parsed(n).validation.errors.length).to.be.greaterThan(1),
  },
  {
    name: 'every error at once, in JSON (validate-reports-every-error-at-once)',
    text: json(reviewObject('validate-reports-every-error-at-once')),
    covers: (n) => expect(parsed(n).validation.errors.length).to.be.greaterThan(2),
  },
  {
    name: 'a non-ASCII name, münchen, in JSON: invalid, not a thrown error',
    text: json(withName('münchen')),
    covers: (n) => expect(fields(parsed(n).validation.errors)).to.include('metadata.name'),
  },
  {
    name: 'a non-ASCII name, münchen, in YAML',
    text: stringifyYaml(withName('münchen')),
    covers: (n) => expect(fields(parsed(n).validation.errors)).to.include('metadata.name'),
  },
  {
    name: 'a non-ASCII name of 30 characters and 60 UTF-8 bytes (Go counts bytes)',
    text: json(withName('ü'.repeat(30))),
    covers: (n) => expect(fields(parsed(n).validation.errors)).to.include('metadata.name'),
  },
  {
    name: 'a non-ASCII probe host (IDNA)',
    text: stringifyYaml(withProbeHost('gesundheit.münchen.example')),
    covers: (n) => expect(parsed(n).validation.errors.length).to.be.greaterThan(0),
  },
  {
    name: 'a valid base64 PEM caBundle (validate-allows-a-valid-httpget-probe)',
    text: json(reviewObject('validate-allows-a-valid-httpget-probe')),
    covers: (n) => {
      expect(parsed(n).validation.valid).to.equal(true);
      expect(json(parsed(n).value)).to.include('"caBundle"');
    },
  },
  {
    name: 'a valid caBundle in YAML (test/fixtures/schema/ca.b64)',
    text: stringifyYaml(withCaBundle(CA_BUNDLE)),
    covers: (n) => expect(parsed(n).validation.valid).to.equal(true),
  },
  {
    name: 'a caBundle that is not base64',
    text: json(withCaBundle('not base64 at all!')),
    covers: (n) => expect(fields(parsed(n).validation.errors)).to.include(CA_FIELD),
  },
  {
    name: 'a caBundle that is base64 but no PEM',
    text: json(withCaBundle(base64('hello, world\n'))),
    covers: (n) => expect(fields(parsed(n).validation.errors)).to.include(CA_FIELD),
  },
  {
    name: 'a caBundle whose CERTIFICATE block is no X.509 certificate',
    text: stringifyYaml(withCaBundle(base64(NOT_A_CERTIFICATE_PEM))),
    covers: (n) => expect(fields(parsed(n).validation.errors)).to.include(CA_FIELD),
  },
  {
    name: 'a caBundle whose certificate is cut in half',
    text: json(withCaBundle(base64(truncatedCertificate(CA_PEM)))),
    covers: (n) => expect(fields(parsed(n).validation.errors)).to.include(CA_FIELD),
  },
  {
    name: 'a caBundle of a good certificate and a bad one',
    text: json(withCaBundle(base64(CA_PEM + NOT_A_CERTIFICATE_PEM))),
    covers: (n) => expect(fields(parsed(n).validation.errors)).to.include(CA_FIELD),
  },
  {
    name: 'a caBundle with insecureSkipTLSVerify (validate-denies-cabundle-with-insecure-skip)',
    text: json(reviewObject('validate-denies-cabundle-with-insecure-skip')),
    covers: (n) => expect(parsed(n).validation.valid).to.equal(false),
  },
  {
    name: `the legacy ${LEGACY_ANNOTATION} annotation migrated into spec.livenessProbe (member-legacy.yaml)`,
    text: fixture('clusters/member-legacy.yaml'),
    covers: (n) => {
      const { migration } = parsed(n);
      expect(migration.errors).to.deep.equal([]);
      const out = migration.object as { metadata: { annotations?: Obj }; spec: Obj };
      expect(out.spec.livenessProbe).to.be.an('object');
      expect(out.metadata.annotations ?? {}).not.to.have.property(LEGACY_ANNOTATION);
    },
  },
  {
    name: `the legacy annotation migrated into the ${PROBE_ANNOTATION} annotation`,
    text: fixture('clusters/member-legacy.yaml'),
    location: 'annotation',
    covers: (n) => {
      const out = parsed(n).migration.object as { metadata: { annotations: Obj } };
      expect(out.metadata.annotations).to.have.property(PROBE_ANNOTATION);
    },
  },
  {
    name: 'a legacy url with a caBundle, in JSON (mutate-migrates-legacy-url-keeping-cabundle)',
    text: json(reviewObject('mutate-migrates-legacy-url-keeping-cabundle')),
    covers: (n) => expect(json(parsed(n).migration.object)).to.include('caBundle'),
  },
  {
    name: 'a malformed legacy annotation (validate-denies-malformed-legacy-annotation)',
    text: json(reviewObject('validate-denies-malformed-legacy-annotation')),
    covers: (n) => {
      expect(parsed(n).validation.valid).to.equal(false);
      expect(parsed(n).migration.errors.length).to.be.greaterThan(0);
    },
  },
  {
    name: 'a document that is not an object',
    text: '42\n',
    covers: (n) => expect(parsed(n).validation.valid).to.equal(false),
  },
  {
    name: 'YAML that does not parse',
    text: 'metadata:\n  name: [unclosed\n',
    covers: (n) => expect(n).to.have.property('parseError'),
  },
  {
    name: 'JSON that does not parse',
    text: '{"metadata": }',
    covers: (n) => expect(n).to.have.property('parseError'),
  },
];

// --- the run -------------------------------------------------------------------------------------------------------

describe('the playground in a real browser (Debian chromium, headless)', function () {
  let outDir = '';
  let built: PlaygroundBuild | undefined;
  let server: Server | undefined;
  let url = '';
  let browser: Browser | undefined;
  let page: Page | undefined;
  /** Uncaught errors and console errors of the page, since the last check. */
  const problems: string[] = [];

  before(async function () {
    if (!existsSync(CHROMIUM))
      throw new Error(`${CHROMIUM} is missing: run \`node scripts/ensure-chromium.mjs\` (npm run test:browser does)`);
    outDir = mkdtempSync(join(tmpdir(), 'cluster-probe-playground-'));
    try {
      built = await buildPlayground(outDir);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new Error(`the playground does not bundle for a browser (esbuild, platform browser, no polyfills): ${why}`);
    }
    ({ server, url } = await servePlayground(outDir, { host: '127.0.0.1', port: 0 }));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 60_000 });
    const context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url.replace(/\/$/, '') });
    page = await context.newPage();
    page.setDefaultTimeout(STEP_MS);
    page.on('pageerror', (err) => problems.push(`pageerror: ${err.name}: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console.error: ${msg.text()}`);
    });
    page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} ${req.failure()?.errorText ?? ''}`));
    await page.goto(url, { waitUntil: 'load' });
    await page.locator('html[data-ready="true"]').waitFor();
    expectQuiet();
  });

  after(async function () {
    const closing: Promise<unknown>[] = [];
    if (browser) closing.push(browser.close());
    if (server) {
      const s = server;
      closing.push(new Promise((resolve) => s.close(resolve)));
      s.closeAllConnections();
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(closing),
      new Promise((resolve) => (timer = setTimeout(resolve, STEP_MS))),
    ]).finally(() => clearTimeout(timer));
    if (outDir !== '') rmSync(outDir, { recursive: true, force: true });
  });

  /** The page has thrown nothing and logged no error since the last call. */
  function expectQuiet(): void {
    expect(problems.splice(0), 'uncaught errors and console errors in the page').to.deep.equal([]);
  }

  /** Puts `text` in the textarea and checks it, waiting for the page's run counter to move on. */
  async function check(text: string, location: ProbeLocation): Promise<PageAnswer> {
    if (!page) throw new Error('no page');
    if ((await page.locator('#location').inputValue()) !== location) await page.selectOption('#location', location);
    const before = Number(await page.locator('#result').getAttribute('data-run'));
    await page.fill('#cluster', text);
    await page.click('#check');
    await page.locator(`#result[data-run="${before + 1}"]`).waitFor({ state: 'attached' });
    return pageSays(page);
  }

  it('bundles the schema library for a browser with no Node built-in, within its budget', function () {
    if (!built) throw new Error('no build');
    expect(built.inputs.filter((i) => i.startsWith('node:'))).to.deep.equal([]);
    expect(built.inputs).to.include('packages/schema/src/schema/index.ts');
    console.log(
      `      playground bundle (minified main.js): ${built.bytes} bytes, ${built.gzipBytes} bytes gzip; ` +
        `${built.inputs.length} modules`,
    );
    expect(built.bytes).to.be.below(BUNDLE_BUDGET.bytes);
    expect(built.gzipBytes).to.be.below(BUNDLE_BUDGET.gzipBytes);
  });

  for (const c of CASES) {
    it(`shows what Node's library says for ${c.name}`, async function () {
      const location = c.location ?? 'field';
      const node = nodeSays(c.text, location);
      c.covers(node);
      const shown = await check(c.text, location);
      expectQuiet();
      expectAgreement(shown, node);
    });
  }

  it('checks a Cluster pasted from the clipboard (a real paste event)', async function () {
    if (!page) throw new Error('no page');
    const text = stringifyYaml(withName('münchen'));
    if ((await page.locator('#location').inputValue()) !== 'field') await page.selectOption('#location', 'field');
    await page.fill('#cluster', '');
    // The page's globals are not in this file's types (no DOM lib in a Node test): name the one used.
    type WithClipboard = { navigator: { clipboard: { writeText(text: string): Promise<void> } } };
    await page.evaluate((t) => (globalThis as unknown as WithClipboard).navigator.clipboard.writeText(t), text);
    const before = Number(await page.locator('#result').getAttribute('data-run'));
    await page.focus('#cluster');
    await page.keyboard.press('ControlOrMeta+V');
    await page.locator(`#result[data-run="${before + 1}"]`).waitFor({ state: 'attached' });
    expect(await page.locator('#cluster').inputValue()).to.equal(text);
    const shown = await pageSays(page);
    expectQuiet();
    expectAgreement(shown, nodeSays(text, 'field'));
  });

  it('hears an uncaught error in the page (what every case above is checked for)', async function () {
    if (!page) throw new Error('no page');
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('thrown on purpose by the test');
      }, 0);
    });
    await page.waitForTimeout(200);
    expect(problems.splice(0)).to.deep.equal(['pageerror: Error: thrown on purpose by the test']);
  });
});
