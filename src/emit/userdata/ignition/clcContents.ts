// File and unit contents are most of a Container Linux Config's text, and parsing them is most of the cost
// of Ignition user-data. For a content of ordinary lines, what the parser reads from its literal block is
// known: the same lines, with one final newline (clip chomping). So the CLC is parsed with a one-line
// stand-in for each such content, the real values are put back, and line numbers are mapped to the full
// text. Any content that is not ordinary, and any parse error, goes through the full parse of the full
// text, so errors and quirks are exactly the full parse's (test/emit/userdata/clcContents.test.ts
// compares both on every Flatcar profile output and on random contents).
import { sprigIndent, type UserDataInput } from '../input.ts';
import { renderContainerLinuxConfig } from './clc.ts';
import { parseContainerLinuxConfig, type ClcConfig, type Position } from './clcParse.ts';
import { isPlainYamlText } from './yamlV3.ts';

const STAND_IN = '\uE000osm-krm-content-';

/** The value yaml.v3 reads from `content` written as a literal block, when that is certain. */
export function ordinaryLiteralValue(content: string): string | undefined {
  if (content === '' || !isPlainYamlText(content)) return undefined;
  // The first line fixes the block's indentation; blank-looking lines with spaces have rules of their own.
  if (content[0] === ' ' || content[0] === '\t' || content[0] === '\n' || /^[ \t]+$/m.test(content)) return undefined;
  let end = content.length;
  while (end > 0 && content[end - 1] === '\n') end--;
  return content.slice(0, end) + '\n';
}

export function parseRenderedClc(input: UserDataInput): ClcConfig {
  const values: string[] = [];
  const lineCounts: number[] = [];
  const text = renderContainerLinuxConfig(input, (content, indent) => {
    const value = ordinaryLiteralValue(content);
    if (value === undefined) return sprigIndent(indent, content);
    values.push(value);
    lineCounts.push(content.split('\n').length);
    return ' '.repeat(indent) + STAND_IN + (values.length - 1);
  });
  if (values.length === 0) return parseContainerLinuxConfig(text);
  const full = () => parseContainerLinuxConfig(renderContainerLinuxConfig(input));
  // Stand-ins are found by their text: if a content, path or name holds one too, no shortcut.
  if (text.split(STAND_IN).length - 1 !== values.length) return full();
  let config: ClcConfig;
  try {
    config = parseContainerLinuxConfig(text);
  } catch {
    return full();
  }
  const restored = restore(config, text, values, lineCounts);
  return restored ?? full();
}

function restore(config: ClcConfig, text: string, values: readonly string[], lineCounts: readonly number[]): ClcConfig | undefined {
  // 1-based line of each stand-in in the shortened text.
  const standInLines: number[] = [];
  let line = 1;
  let from = 0;
  for (let k = 0; k < values.length; k++) {
    const at = text.indexOf(STAND_IN + k + '\n', from);
    if (at < 0) return undefined;
    for (let p = text.indexOf('\n', from); p >= 0 && p < at; p = text.indexOf('\n', p + 1)) line++;
    standInLines.push(line);
    from = at;
  }
  const used = new Array<boolean>(values.length).fill(false);
  let ok = true;
  const value = (v: string): string => {
    if (!v.startsWith(STAND_IN)) return v;
    const k = Number(v.slice(STAND_IN.length, -1));
    if (!Number.isInteger(k) || v !== STAND_IN + k + '\n' || k >= values.length || used[k]) {
      ok = false;
      return v;
    }
    used[k] = true;
    return values[k]!;
  };
  const at = (p: Position): Position => {
    let shift = 0;
    for (let k = 0; k < standInLines.length && standInLines[k]! < p.line; k++) shift += lineCounts[k]! - 1;
    return { line: p.line + shift, column: p.column };
  };
  const out: ClcConfig = {
    users: config.users,
    files: config.files.map((f) => ({
      ...f,
      at: at(f.at),
      ...(f.pathAt ? { pathAt: at(f.pathAt) } : {}),
      ...(f.modeAt ? { modeAt: at(f.modeAt) } : {}),
      inline: value(f.inline),
    })),
    units: config.units.map((u) => ({
      ...u,
      at: at(u.at),
      ...(u.nameAt ? { nameAt: at(u.nameAt) } : {}),
      ...(u.contentsAt ? { contentsAt: at(u.contentsAt) } : {}),
      contents: value(u.contents),
      dropins: u.dropins.map((d) => ({ ...d, at: at(d.at), contents: value(d.contents) })),
    })),
  };
  return ok && used.every(Boolean) ? out : undefined;
}
