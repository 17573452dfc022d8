// How a manifest file is written (JSON or YAML, indentation, sequence indentation, flow-collection padding, line
// endings, byte-order mark, final line break), read from its text, so that lines an edit adds look like their
// neighbours. Pure: no file system, no YAML parsing.

export interface SourceStyle {
  /** The file's line break: '\r\n' when most of its lines end so. */
  eol: '\n' | '\r\n';
  bom: boolean;
  finalNewline: boolean;
  /** Set when the whole text is one JSON value: the indentation unit, '' for JSON on one line. */
  json?: { indent: string };
  yaml: { indent: number; indentSeq: boolean; flowCollectionPadding: boolean };
}

/** `key:` alone on its line (optionally with a comment): a mapping key whose value is a block below it. */
const BLOCK_KEY = /^( *)[^\s#-][^#]*:[ \t]*(?:#.*)?$/;

function detectYaml(lines: readonly string[]): SourceStyle['yaml'] {
  let indent: number | undefined;
  let indentSeq: boolean | undefined;
  let flowCollectionPadding: boolean | undefined;
  const content = lines.filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
  for (let i = 0; i < content.length - 1; i++) {
    const line = content[i] as string;
    const key = BLOCK_KEY.exec(line);
    if (key === null) continue;
    const next = content[i + 1] as string;
    const keyIndent = (key[1] ?? '').length;
    const nextIndent = next.length - next.trimStart().length;
    if (/^-(?:\s|$)/.test(next.trimStart())) indentSeq ??= nextIndent > keyIndent;
    else if (nextIndent > keyIndent) indent ??= nextIndent - keyIndent;
    if (indent !== undefined && indentSeq !== undefined) break;
  }
  for (const line of content) {
    const m = /(?::|^\s*-)\s+[{[](.)/.exec(line);
    if (m === null || m[1] === '}' || m[1] === ']') continue;
    flowCollectionPadding = m[1] === ' ';
    break;
  }
  // yaml's own defaults where the file does not tell.
  return {
    indent: indent !== undefined && indent >= 1 && indent <= 8 ? indent : 2,
    indentSeq: indentSeq ?? true,
    flowCollectionPadding: flowCollectionPadding ?? true,
  };
}

function detectJson(text: string): SourceStyle['json'] {
  const trimmed = text.trim();
  if (!/^[{[]/.test(trimmed)) return undefined;
  try {
    JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  // The first indented line is one level deep in any pretty-printed JSON.
  const m = /\n([ \t]+)\S/.exec(trimmed);
  return { indent: m?.[1] ?? '' };
}

/** The style of `text` (as read, possibly starting with a byte-order mark). */
export function detectStyle(text: string): SourceStyle {
  const bom = text.startsWith('\uFEFF');
  const body = bom ? text.slice(1) : text;
  const crlf = body.match(/\r\n/g)?.length ?? 0;
  const lf = body.match(/\n/g)?.length ?? 0;
  const json = detectJson(body);
  return {
    eol: crlf > 0 && crlf * 2 >= lf ? '\r\n' : '\n',
    bom,
    finalNewline: body.endsWith('\n'),
    ...(json === undefined ? {} : { json }),
    yaml: detectYaml(body.replace(/\r\n/g, '\n').split('\n')),
  };
}

/** A '\n'-terminated rendering in the file's line breaks, with its byte-order mark and final line break or not. */
export function inStyle(rendering: string, style: SourceStyle): string {
  let text = rendering.endsWith('\n') && !style.finalNewline ? rendering.slice(0, -1) : rendering;
  if (style.finalNewline && !text.endsWith('\n')) text += '\n';
  if (style.eol === '\r\n') text = text.replace(/\r?\n/g, '\r\n');
  return style.bom ? `\uFEFF${text}` : text;
}
