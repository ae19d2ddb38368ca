// OSM's profiles fetch their Secrets from the API server with `curl -k`, so whoever can answer for the API
// server's address can hand a node its configuration. With pinning on, every curl command towards the API
// server (`.ServerURL`) verifies it against the cluster CA instead: the insecure flag becomes
// `--cacert <file>`, and the config that runs the command also writes the CA to that file.
// Everything else in the rendered text is left byte for byte as the profile rendered it.
import type { File, OperatingSystemConfigSpec, OSCConfig } from '../model/operatingSystemProfile.ts';

export const CLUSTER_CA_PATH = '/etc/osm-krm/cluster-ca.crt';

export function pinClusterCA(
  spec: OperatingSystemConfigSpec,
  serverURL: string,
  caCert: string,
): OperatingSystemConfigSpec {
  return {
    ...spec,
    bootstrapConfig: pinConfig(spec.bootstrapConfig, serverURL, caCert),
    provisioningConfig: pinConfig(spec.provisioningConfig, serverURL, caCert),
  };
}

function pinConfig(cfg: OSCConfig, serverURL: string, caCert: string): OSCConfig {
  if (!cfg.files) return cfg;
  let pinned = 0;
  const files = cfg.files.map((file): File => {
    const inline = file.content.inline;
    // The OSC holds plain text when encoding is "" or "b64" (the emitter encodes b64); anything else is the
    // author's own encoding, passed through untouched, so not shell text we could edit.
    const encoding = inline?.encoding ?? '';
    if (inline === undefined || (encoding !== '' && encoding !== 'b64')) return file;
    const result = pinCurlCommands(inline.data, serverURL);
    if (result.pinned === 0) return file;
    pinned += result.pinned;
    return { ...file, content: { ...file.content, inline: { ...inline, data: result.text } } };
  });
  if (pinned === 0) return cfg;
  if (!files.some((f) => f.path === CLUSTER_CA_PATH)) {
    files.push({ path: CLUSTER_CA_PATH, permissions: 644, content: { inline: { data: caCert } } });
  }
  return { ...cfg, files };
}

interface Word {
  start: number;
  end: number;
  /** The word after shell quote removal. */
  value: string;
  quoted: boolean;
}

// Short options of curl that take an argument: in a bundle such as `-sko FILE`, letters after one of these
// belong to its argument.
const SHORT_WITH_ARGUMENT = new Set('AbcCdDeEFhHKmoPQrtTuUwxXyYz');

/** Rewrites the insecure flag of each curl command whose URL starts at `serverURL`. */
export function pinCurlCommands(text: string, serverURL: string): { text: string; pinned: number } {
  if (serverURL === '' || !text.includes(serverURL) || !text.includes('curl')) return { text, pinned: 0 };
  const edits: Array<{ start: number; end: number; replacement: string }> = [];
  let pinned = 0;
  // Only the lines naming the server can hold such a command (with their `\` continuation lines).
  for (const [from, to] of linesNaming(text, serverURL)) {
    const lines = text.slice(from, to);
    if (!lines.includes('curl')) continue; // a kubeconfig's `server:` line, say
    const segment = pinSegment(lines, serverURL);
    pinned += segment.pinned;
    for (const e of segment.edits) edits.push({ start: from + e.start, end: from + e.end, replacement: e.replacement });
  }
  let out = text;
  for (const e of edits.sort((a, b) => b.start - a.start))
    out = out.slice(0, e.start) + e.replacement + out.slice(e.end);
  return { text: out, pinned };
}

/** [start, end) of each logical line (joined by trailing backslashes) that contains `needle`, in order. */
function linesNaming(text: string, needle: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
    let start = text.lastIndexOf('\n', at - 1) + 1;
    while (start >= 2 && text[start - 2] === '\\') start = text.lastIndexOf('\n', start - 2) + 1;
    let end = text.indexOf('\n', at);
    while (end > 0 && text[end - 1] === '\\') end = text.indexOf('\n', end + 1);
    if (end < 0) end = text.length;
    const last = ranges[ranges.length - 1];
    if (last !== undefined && last[1] >= start) last[1] = Math.max(last[1], end);
    else ranges.push([start, end]);
    at = Math.max(at, end - needle.length);
  }
  return ranges;
}

function pinSegment(
  text: string,
  serverURL: string,
): { edits: Array<{ start: number; end: number; replacement: string }>; pinned: number } {
  const edits: Array<{ start: number; end: number; replacement: string }> = [];
  let pinned = 0;
  for (const words of curlCommands(text)) {
    if (!words.some((w) => w.value === serverURL || w.value.startsWith(`${serverURL}/`))) continue;
    let changed = false;
    for (const w of words.slice(1)) {
      if (w.quoted) continue;
      if (w.value === '--') break;
      if (w.value === '-k' || w.value === '--insecure') {
        edits.push({ start: w.start, end: w.end, replacement: `--cacert ${CLUSTER_CA_PATH}` });
        changed = true;
      } else if (/^-[A-Za-z0-9#:]+$/.test(w.value)) {
        // Before the bundle: its last letter may take the next word as its argument (`-sko FILE`).
        const bundle = withoutInsecure(w.value);
        if (bundle !== w.value) {
          edits.push({ start: w.start, end: w.end, replacement: `--cacert ${CLUSTER_CA_PATH} ${bundle}` });
          changed = true;
        }
      }
    }
    if (changed) pinned++;
  }
  return { edits, pinned };
}

function withoutInsecure(bundle: string): string {
  let out = '-';
  for (let i = 1; i < bundle.length; i++) {
    const c = bundle[i]!;
    if (SHORT_WITH_ARGUMENT.has(c)) return out + bundle.slice(i);
    if (c !== 'k') out += c;
  }
  return out;
}

const COMMAND_PREFIXES = new Set([
  'if',
  'then',
  'elif',
  'else',
  'do',
  'while',
  'until',
  '!',
  '{',
  'time',
  'exec',
  'command',
]);

/** The words of every simple command that starts with `curl`, found with enough of the shell's quoting rules. */
function* curlCommands(text: string): Generator<Word[]> {
  let i = 0;
  let atCommandStart = true;
  let words: Word[] = [];
  const flush = function* (): Generator<Word[]> {
    // Reserved words and variable assignments may precede the command name: `if curl ...`, `X=1 curl ...`.
    let k = 0;
    while (
      k < words.length &&
      !words[k]!.quoted &&
      (COMMAND_PREFIXES.has(words[k]!.value) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[k]!.value))
    )
      k++;
    if (k < words.length && words[k]!.value === 'curl' && !words[k]!.quoted) yield words.slice(k);
    words = [];
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\\' && text[i + 1] === '\n') {
      i += 2;
      continue;
    }
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (c === '\n' || c === ';' || c === '|' || c === '&' || c === '(' || c === ')' || c === '`') {
      yield* flush();
      atCommandStart = true;
      i++;
      continue;
    }
    if (c === '#' && words.length === 0 && atCommandStart) {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    const start = i;
    let value = '';
    let quoted = false;
    while (i < text.length) {
      const d = text[i]!;
      if (
        d === ' ' ||
        d === '\t' ||
        d === '\n' ||
        d === ';' ||
        d === '|' ||
        d === '&' ||
        d === '(' ||
        d === ')' ||
        d === '`'
      )
        break;
      if (d === '\\') {
        if (text[i + 1] === '\n') {
          i += 2;
          continue;
        }
        value += text[i + 1] ?? '';
        quoted = true;
        i += 2;
      } else if (d === "'") {
        const close = text.indexOf("'", i + 1);
        const end = close < 0 ? text.length : close;
        value += text.slice(i + 1, end);
        quoted = true;
        i = end + 1;
      } else if (d === '"') {
        i++;
        while (i < text.length && text[i] !== '"') {
          if (text[i] === '\\' && i + 1 < text.length) i++;
          value += text[i];
          i++;
        }
        quoted = true;
        i++;
      } else if (d === '$' && text[i + 1] === '(') {
        break; // a command substitution starts a new command
      } else {
        value += d;
        i++;
      }
    }
    if (i === start) {
      i++;
      continue;
    }
    words.push({ start, end: Math.min(i, text.length), value, quoted });
    atCommandStart = false;
  }
  yield* flush();
}
