// The choke point for values placed into the Container Linux Config that OSM renders before transpiling it.
// yaml.v3 (ct's parser) breaks lines at CR, NEL, LS and PS too, and sprig's indent only indents after "\n":
// a content with a lone CR or a NEL would end its literal block and go on as configuration. OSM writes the
// values unescaped, so there is no encoding that keeps its output: such values are refused, naming the file
// or unit, and after parsing the config must hold exactly the users, files and units that were put in.
import { UserDataError } from '../errors.ts';
import type { EnvelopeUnit } from '../input.ts';
import type { ClcConfig } from './clcSchema.ts';

// CR LF is one line break to yaml.v3, and the LF gets the indentation: only a CR alone and NEL escape.
const BREAK_OUTSIDE_INDENT = /\r(?!\n)|\u0085/;
const ANY_BREAK = /[\n\r\u0085\u2028\u2029]/;

export function checkClcContent(content: string, what: string): void {
  if (BREAK_OUTSIDE_INDENT.test(content)) {
    throw new UserDataError(
      `${what}: its content has a line break other than "\\n" (a lone CR or NEL), which would end its block in the Container Linux Config`,
    );
  }
}

export function checkClcName(value: string, what: string): void {
  if (ANY_BREAK.test(value)) throw new UserDataError(`${what} contains a line break`);
}

export interface ClcExpectation {
  keys: string[];
  /** The machine-name file first when the template writes one. */
  filePaths: string[];
  units: EnvelopeUnit[];
}

/** The parsed config holds what was put in, no more and no less: otherwise a value broke the YAML structure. */
export function checkClcStructure(parsed: ClcConfig, expected: ClcExpectation): void {
  const broken = (what: string) =>
    new UserDataError(`a value broke the structure of the Container Linux Config: ${what}`);
  const keys = parsed.users.flatMap((u) => u.sshAuthorizedKeys);
  if (parsed.users.length > (expected.keys.length > 0 ? 1 : 0)) throw broken('an extra user');
  expected.keys.forEach((k, i) => {
    if (keys[i] !== k) throw broken(`SSH key ${i + 1} does not read back as written`);
  });
  if (keys.length !== expected.keys.length) throw broken('an extra SSH key');
  if (parsed.files.length !== expected.filePaths.length)
    throw broken(`${parsed.files.length} files instead of ${expected.filePaths.length}`);
  expected.filePaths.forEach((p, i) => {
    if (parsed.files[i]!.path !== p)
      throw broken(`file ${JSON.stringify(p)} reads back as ${JSON.stringify(parsed.files[i]!.path)}`);
  });
  if (parsed.units.length !== expected.units.length)
    throw broken(`${parsed.units.length} units instead of ${expected.units.length}`);
  expected.units.forEach((u, i) => {
    const got = parsed.units[i]!;
    if (got.name !== u.name) throw broken(`unit ${JSON.stringify(u.name)} reads back as ${JSON.stringify(got.name)}`);
    if (got.dropins.length !== u.dropIns.length || u.dropIns.some((d, j) => got.dropins[j]!.name !== d.name))
      throw broken(`the drop-ins of unit ${JSON.stringify(u.name)}`);
  });
}
