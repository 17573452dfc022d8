// The playground page: parses a pasted Cluster (YAML or JSON), then shows what the schema library says of it —
// validateCluster's field errors and warnings, migrateCluster's errors, warnings and patch, and the migrated object
// defaulted by defaultCluster. Runs in a browser: imports the library's public entry and `yaml`, nothing of Node.
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import {
  defaultCluster,
  errorBody,
  formatInvalid,
  KIND,
  migrateCluster,
  PROBE_LOCATIONS,
  validateCluster,
  type FieldError,
  type ProbeLocation,
} from '../packages/schema/src/schema/index.js';

/** Aliases a pasted YAML may expand (yaml's own default is 100); a bound on what a paste can make us build. */
const MAX_YAML_ALIASES = 100;

function element<T extends HTMLElement>(id: string, type: new () => T): T {
  const el = document.getElementById(id);
  if (!(el instanceof type)) throw new Error(`playground: #${id} is missing from index.html`);
  return el;
}

const input = element('cluster', HTMLTextAreaElement);
const location = element('location', HTMLSelectElement);
const result = element('result', HTMLElement);
const internalError = element('internal-error', HTMLElement);
const parseError = element('parse-error', HTMLElement);
const inputFormat = element('input-format', HTMLElement);
const summary = element('summary', HTMLElement);
const validationErrors = element('validation-errors', HTMLTableElement);
const validationWarnings = element('validation-warnings', HTMLUListElement);
const migrationErrors = element('migration-errors', HTMLTableElement);
const migrationWarnings = element('migration-warnings', HTMLUListElement);
const patch = element('patch', HTMLElement);
const output = element('output', HTMLElement);

type Format = 'JSON' | 'YAML';

/** JSON when the text starts as a JSON object or array does, else YAML (a JSON document is YAML too). */
function parseInput(text: string): { format: Format; value: unknown } {
  const first = text.trimStart()[0];
  if (first === '{' || first === '[') return { format: 'JSON', value: JSON.parse(text) as unknown };
  return { format: 'YAML', value: parseYaml(text, { maxAliasCount: MAX_YAML_ALIASES }) as unknown };
}

function render(value: unknown, format: Format): string {
  return format === 'JSON' ? `${JSON.stringify(value, null, 2)}\n` : stringifyYaml(value);
}

function fillErrors(table: HTMLTableElement, errors: readonly FieldError[]): void {
  const body = table.tBodies[0];
  if (body === undefined) throw new Error('playground: a table without tbody');
  body.replaceChildren(
    ...errors.map((e) => {
      const row = document.createElement('tr');
      const cell = (className: string, text: string): HTMLTableCellElement => {
        const td = document.createElement('td');
        td.className = className;
        td.textContent = text;
        return td;
      };
      const type = cell('type', errorBody({ type: e.type, detail: '' }, false));
      type.dataset.type = e.type;
      row.append(cell('field', e.field), type, cell('detail', e.detail), cell('message', e.message));
      return row;
    }),
  );
}

function fillList(list: HTMLUListElement, lines: readonly string[]): void {
  list.replaceChildren(
    ...lines.map((line) => {
      const li = document.createElement('li');
      li.textContent = line;
      return li;
    }),
  );
}

function probeLocation(): ProbeLocation {
  const value = location.value;
  return (PROBE_LOCATIONS as readonly string[]).includes(value) ? (value as ProbeLocation) : 'field';
}

function nameOf(obj: unknown): string {
  const meta = typeof obj === 'object' && obj !== null ? (obj as { metadata?: unknown }).metadata : undefined;
  const name = typeof meta === 'object' && meta !== null ? (meta as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : '';
}

function clear(): void {
  internalError.hidden = true;
  internalError.textContent = '';
  parseError.hidden = true;
  parseError.textContent = '';
  inputFormat.textContent = '';
  summary.textContent = '';
  summary.className = '';
  fillErrors(validationErrors, []);
  fillErrors(migrationErrors, []);
  fillList(validationWarnings, []);
  fillList(migrationWarnings, []);
  patch.textContent = '';
  output.textContent = '';
}

function check(): void {
  clear();
  let parsed: { format: Format; value: unknown };
  try {
    parsed = parseInput(input.value);
  } catch (err) {
    parseError.textContent = `cannot parse the input: ${err instanceof Error ? err.message : String(err)}`;
    parseError.hidden = false;
    result.dataset.state = 'parse-error';
    return;
  }
  const probe = probeLocation();
  inputFormat.textContent = parsed.format;

  const validation = validateCluster(parsed.value, { probeLocation: probe });
  summary.textContent = validation.valid
    ? `${KIND} ${JSON.stringify(nameOf(parsed.value))} is valid`
    : `The ${formatInvalid(KIND, nameOf(parsed.value), validation.errors)}`;
  summary.className = validation.valid ? 'valid' : 'invalid';
  fillErrors(validationErrors, validation.errors);
  fillList(validationWarnings, validation.warnings);

  const migration = migrateCluster(parsed.value, { probeLocation: probe });
  fillErrors(migrationErrors, migration.errors);
  fillList(migrationWarnings, migration.warnings);
  patch.textContent = `${JSON.stringify(migration.patch, null, 2)}\n`;
  output.textContent = render(defaultCluster(migration.object), parsed.format);
  result.dataset.state = 'done';
}

/** Runs a check; a library error (which must never happen) shows on the page and is thrown on, as an uncaught error. */
function run(): void {
  result.dataset.run = String(Number(result.dataset.run ?? '0') + 1);
  try {
    check();
  } catch (err) {
    internalError.textContent = `internal error: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`;
    internalError.hidden = false;
    result.dataset.state = 'internal-error';
    throw err;
  }
}

element('check', HTMLButtonElement).addEventListener('click', run);
location.addEventListener('change', run);
input.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) run();
});
// A paste checks at once; the textarea holds the pasted text only after the event.
input.addEventListener('paste', () => setTimeout(run, 0));
document.documentElement.dataset.ready = 'true';
