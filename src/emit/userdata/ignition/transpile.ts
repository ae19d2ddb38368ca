// ct's config.Convert (platform "") from our parsed Container Linux Config to Ignition 2.3.0, followed by
// Ignition's validation report. OSM refuses the result when that report has any entry at all, warnings
// included (an enabled unit without an [Install] section is the one warning our input can draw), so this
// throws on the first report, with every entry in ct's order and format.
import { goQuote } from '../../../go/strconv/format.ts';
import { UserDataError } from '../errors.ts';
import type { ClcConfig, Position } from './clcParse.ts';
import { dataUrl } from './dataUrl.ts';
import { parseUnitContent } from './systemdUnit.ts';
import type { Ignition23Config, Ignition23File, Ignition23Unit } from './types23.ts';

const DEFAULT_FILE_MODE = 0o644;
const UNIT_EXTENSIONS = new Set([
  '.service',
  '.socket',
  '.device',
  '.mount',
  '.automount',
  '.swap',
  '.target',
  '.path',
  '.timer',
  '.snapshot',
  '.slice',
  '.scope',
]);

interface Entry {
  kind: 'error' | 'warning';
  message: string;
  at: Position;
}

/** Go's path.Ext: from the last dot of the last slash-separated element. */
function pathExt(p: string): string {
  for (let i = p.length - 1; i >= 0 && p[i] !== '/'; i--) if (p[i] === '.') return p.slice(i);
  return '';
}

function formatEntry(e: Entry): string {
  return e.at.line !== 0
    ? `${e.kind} at line ${e.at.line}, column ${e.at.column}\n${e.message}`
    : `${e.kind}: ${e.message}`;
}

interface UnitContentCheck {
  readonly error?: string;
  readonly sections: readonly string[] | null;
}

/**
 * Ignition's check of unit (and drop-in) contents, remembered by text: every MachineDeployment of a profile has
 * the same units, so a run (which owns one of these) parses each text once. Bounded.
 */
export class UnitContentChecks {
  private readonly checks = new Map<string, UnitContentCheck>();

  /** "invalid unit content: ..." or nothing, and the sections the contents have. */
  check(contents: string): UnitContentCheck {
    let check = this.checks.get(contents);
    if (check === undefined) {
      const parsed = parseUnitContent(contents);
      check = !parsed.ok
        ? { error: `invalid unit content: ${parsed.error}`, sections: null }
        : { sections: parsed.options.length > 0 ? parsed.options.map((o) => o.section) : null };
      if (this.checks.size >= 256) this.checks.clear();
      this.checks.set(contents, check);
    }
    return check;
  }
}

export function transpileToIgnition23(
  clc: ClcConfig,
  unitChecks: UnitContentChecks = new UnitContentChecks(),
): Ignition23Config {
  const report: Entry[] = [];

  const users = clc.users.map((u) => ({ name: u.name, sshAuthorizedKeys: u.sshAuthorizedKeys }));

  const files: Ignition23File[] = clc.files.map((f) => {
    const mode = f.mode === null ? DEFAULT_FILE_MODE : f.mode;
    if (!f.path.startsWith('/')) report.push({ kind: 'error', message: 'path not absolute', at: f.pathAt ?? f.at });
    if (mode < 0 || mode > 0o7777) report.push({ kind: 'error', message: 'illegal file mode', at: f.modeAt ?? f.at });
    return {
      filesystem: f.filesystem === '' ? 'root' : f.filesystem,
      path: f.path,
      source: dataUrl(f.inline),
      mode: Number(mode),
    };
  });

  const units: Ignition23Unit[] = clc.units.map((u) => {
    const content = unitChecks.check(u.contents);
    if (content.error !== undefined) report.push({ kind: 'error', message: content.error, at: u.contentsAt ?? u.at });
    // Install sections matter only for enabled units that have contents Ignition could parse.
    if (u.enabled === true && u.contents !== '' && content.sections !== null && !content.sections.includes('Install')) {
      report.push({
        kind: 'warning',
        message: `unit ${goQuote(u.name)} is enabled, but has no install section so enable does nothing`,
        at: u.contentsAt ?? u.at,
      });
    }
    for (const d of u.dropins) {
      const dropinContent = unitChecks.check(d.contents);
      if (dropinContent.error !== undefined) report.push({ kind: 'error', message: dropinContent.error, at: d.at });
      if (pathExt(d.name) !== '.conf')
        report.push({ kind: 'error', message: 'invalid systemd drop-in extension', at: d.at });
    }
    if (!UNIT_EXTENSIONS.has(pathExt(u.name)))
      report.push({ kind: 'error', message: 'invalid systemd unit extension', at: u.nameAt ?? u.at });
    return {
      name: u.name,
      enabled: u.enabled,
      mask: u.mask,
      contents: u.contents,
      dropins: u.dropins.map((d) => ({ name: d.name, contents: d.contents })),
    };
  });

  // Collected in Ignition's validation order: files (path, then mode), then units (contents, drop-ins, name).
  if (report.length > 0)
    throw new UserDataError(
      `failed to convert container linux config to ignition: ${report.map(formatEntry).join('\n')}`,
    );
  return { passwd: { users }, storage: { files }, systemd: { units } };
}
