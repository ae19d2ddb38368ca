// What a command run on the node fetches, read from its expanded words: curl and wget (URLs, where the file
// goes), the package managers (apt-get/apt, yum/dnf: packages installed, repositories added), rpm --import,
// image pulls (ctr, crictl, docker, podman), and package sources written to apt's sources.list.d or yum's
// yum.repos.d (by echo, printf, cat or tee, or as a file of the user-data).
import type { ExecutedCommand, Field } from './scriptEvaluation.ts';

export type Fetch =
  | { kind: 'url'; url: Field; tool: string; output?: Field; authenticated: boolean }
  /** `reinstall`: packages installed again (what an interrupted operation left), not new ones. */
  | { kind: 'packages'; manager: string; packages: Field[]; reinstall: boolean }
  | { kind: 'repository'; manager: string; url: Field; detail: string }
  | { kind: 'image'; reference: Field; tool: string };

/** curl's options that take a value (the next word, or glued to a short option). */
const CURL_VALUE_OPTIONS = new Set([
  '-o',
  '--output',
  '-H',
  '--header',
  '-m',
  '--max-time',
  '--connect-timeout',
  '--retry',
  '--retry-delay',
  '--retry-max-time',
  '--cacert',
  '--capath',
  '--cert',
  '-E',
  '--key',
  '-u',
  '--user',
  '-X',
  '--request',
  '-d',
  '--data',
  '--data-binary',
  '--data-raw',
  '--data-urlencode',
  '-A',
  '--user-agent',
  '-e',
  '--referer',
  '-w',
  '--write-out',
  '--noproxy',
  '-x',
  '--proxy',
  '-T',
  '--upload-file',
  '-F',
  '--form',
  '--resolve',
  '-K',
  '--config',
  '-b',
  '--cookie',
  '-c',
  '--cookie-jar',
  '-r',
  '--range',
  '-z',
  '--time-cond',
  '--limit-rate',
  '-Y',
  '--speed-limit',
  '-y',
  '--speed-time',
  '--max-filesize',
  '--interface',
  '--dns-servers',
  '--unix-socket',
  '--output-dir',
  '--proto',
  '--proto-redir',
  '--ciphers',
  '--tls-max',
  '--expect100-timeout',
  '--keepalive-time',
  '--max-redirs',
  '-C',
  '--continue-at',
  '--create-file-mode',
]);
const CURL_SHORT_WITH_VALUE = new Set('oHmEuXdAewxTFKbcrzYyC'.split(''));

const WGET_VALUE_OPTIONS = new Set([
  '-O',
  '--output-document',
  '-o',
  '--output-file',
  '-P',
  '--directory-prefix',
  '-t',
  '--tries',
  '-T',
  '--timeout',
  '--header',
  '--user',
  '--password',
  '-U',
  '--user-agent',
  '--ca-certificate',
  '-w',
  '--wait',
]);

export function fetchesOf(c: ExecutedCommand): Fetch[] {
  const words = c.argv;
  const { name, args } = commandOf(words);
  if (name === undefined) return [];
  switch (name) {
    case 'curl':
      return curlFetches(args, c);
    case 'wget':
      return wgetFetches(args);
    case 'apt-get':
    case 'apt':
      return aptFetches(args);
    case 'yum':
    case 'dnf':
    case 'microdnf':
      return yumFetches(name, args);
    case 'yum-config-manager':
      return repoAdd('yum', args, '--add-repo');
    case 'rpm':
      return args.some((a) => a.text === '--import' || /^-[a-zA-Z]*[iU][a-zA-Z]*$/.test(a.text))
        ? args.filter((a) => isUrlLike(a)).map((url) => ({ kind: 'url', url, tool: 'rpm', authenticated: false }))
        : [];
    case 'ctr':
    case 'crictl':
    case 'docker':
    case 'podman':
    case 'nerdctl': {
      const pull = args.findIndex((a) => a.text === 'pull');
      if (pull < 0) return [];
      const ref = args.slice(pull + 1).find((a) => !a.text.startsWith('-'));
      return ref === undefined ? [] : [{ kind: 'image', reference: ref, tool: name }];
    }
  }
  // Package sources it writes into apt's or yum's configuration.
  const written = writtenFile(c);
  return written === undefined ? [] : [...sourcesInFile(written.path, written.text)];
}

/** The command's name and arguments, past assignments and wrappers (sudo, env, timeout...). */
export function commandOf(words: readonly Field[]): { name?: string; args: Field[] } {
  let k = 0;
  for (;;) {
    while (k < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[k]!.text)) k++;
    const w = words[k];
    if (w === undefined || w.unknown.length > 0) return { args: [] };
    const base = w.text.slice(w.text.lastIndexOf('/') + 1);
    if (
      base === 'sudo' ||
      base === 'exec' ||
      base === 'nohup' ||
      base === 'time' ||
      base === 'env' ||
      base === 'command' ||
      base === '!'
    ) {
      k++;
      while (k < words.length && words[k]!.text.startsWith('-')) k++;
      continue;
    }
    if (base === 'timeout') {
      k++;
      while (k < words.length && words[k]!.text.startsWith('-')) k++;
      k++;
      continue;
    }
    return { name: base, args: words.slice(k + 1) };
  }
}

const isUrlLike = (f: Field) =>
  /^(?:https?|ftp|file):\/\//.test(f.text) ||
  (f.unknown.length > 0 && /^\$|^\S*\$\{?\w/.test(f.text) && /\//.test(f.text));

function curlFetches(args: readonly Field[], c: ExecutedCommand): Fetch[] {
  const urls: Field[] = [];
  let output: Field | undefined;
  let authenticated = false;
  let help = false;
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    const t = a.text;
    if (t === '--help' || t === '-h' || t === '--version' || t === '-V') help = true;
    if (t.startsWith('--')) {
      const [opt, glued] = t.includes('=') ? [t.slice(0, t.indexOf('=')), t.slice(t.indexOf('=') + 1)] : [t, undefined];
      if (!CURL_VALUE_OPTIONS.has(opt)) {
        if (opt === '--url' && args[k + 1]) urls.push(args[++k]!);
        continue;
      }
      const value = glued !== undefined ? { text: glued, unknown: a.unknown } : args[++k];
      if (opt === '--output') output = value;
      if ((opt === '--header' && /authorization|Bearer|@/i.test(value?.text ?? '')) || opt === '--user')
        authenticated = true;
      continue;
    }
    if (t.startsWith('-') && t.length > 1 && a.unknown.length === 0) {
      // A group of short options; the first that takes a value takes the rest of the word or the next word.
      for (let j = 1; j < t.length; j++) {
        if (!CURL_SHORT_WITH_VALUE.has(t[j]!)) continue;
        const rest = t.slice(j + 1);
        const value = rest !== '' ? known(rest) : args[++k];
        if (t[j] === 'o') output = value;
        if ((t[j] === 'H' && /authorization|Bearer|@/i.test(value?.text ?? '')) || t[j] === 'u') authenticated = true;
        break;
      }
      continue;
    }
    urls.push(a);
  }
  if (help) return [];
  const redirect = c.redirects.find((r) => r.op === '>' || r.op === '>>' || r.op === '>|');
  return urls.map((url) => ({
    kind: 'url',
    url,
    tool: 'curl',
    authenticated,
    ...((output ?? redirect?.target) ? { output: (output ?? redirect?.target)! } : {}),
  }));
}

const known = (text: string): Field => ({ text, unknown: [] });

function wgetFetches(args: readonly Field[]): Fetch[] {
  const urls: Field[] = [];
  let output: Field | undefined;
  for (let k = 0; k < args.length; k++) {
    const t = args[k]!.text;
    if (t.startsWith('-')) {
      const opt = t.includes('=') ? t.slice(0, t.indexOf('=')) : t;
      if (WGET_VALUE_OPTIONS.has(opt) && !t.includes('=')) {
        const v = args[++k];
        if (opt === '-O' || opt === '--output-document') output = v;
      } else if (t.startsWith('--output-document=')) output = known(t.slice('--output-document='.length));
      continue;
    }
    urls.push(args[k]!);
  }
  return urls
    .filter(isUrlLike)
    .map((url) => ({ kind: 'url', url, tool: 'wget', authenticated: false, ...(output ? { output } : {}) }));
}

const APT_VALUE_OPTIONS = new Set(['-o', '--option', '-c', '--config-file', '-t', '--target-release']);

/** A command's operands: its words that are neither options nor the value of an option in `valueOptions`. */
function operandsOf(args: readonly Field[], valueOptions: ReadonlySet<string>): Field[] {
  const operands: Field[] = [];
  for (let k = 0; k < args.length; k++) {
    const t = args[k]!.text;
    if (valueOptions.has(t)) k++;
    else if (!t.startsWith('-')) operands.push(args[k]!);
  }
  return operands;
}

function aptFetches(args: readonly Field[]): Fetch[] {
  const [sub, ...rest] = operandsOf(args, APT_VALUE_OPTIONS);
  const reinstall = sub?.text === 'reinstall' || args.some((a) => a.text === '--reinstall');
  if (sub?.text === 'install' || sub?.text === 'reinstall')
    return rest.length === 0 ? [] : [{ kind: 'packages', manager: 'apt', packages: rest, reinstall }];
  return [];
}

const YUM_VALUE_OPTIONS = new Set([
  '--enablerepo',
  '--disablerepo',
  '--setopt',
  '-c',
  '--config',
  '--releasever',
  '--installroot',
  '-d',
  '-e',
  '--exclude',
  '-x',
]);

function yumFetches(manager: string, args: readonly Field[]): Fetch[] {
  const [sub, ...rest] = operandsOf(args, YUM_VALUE_OPTIONS);
  if (sub?.text === 'config-manager') return repoAdd(manager, args, '--add-repo');
  if (sub?.text === 'install' || sub?.text === 'reinstall' || sub?.text === 'update' || sub?.text === 'upgrade') {
    if (rest.length === 0) return [];
    const urls = rest.filter(isUrlLike);
    return [
      ...(rest.length > urls.length
        ? [
            {
              kind: 'packages' as const,
              manager,
              packages: rest.filter((r) => !isUrlLike(r)),
              reinstall: sub.text === 'reinstall',
            },
          ]
        : []),
      ...urls.map((url): Fetch => ({ kind: 'url', url, tool: manager, authenticated: false })),
    ];
  }
  return [];
}

function repoAdd(manager: string, args: readonly Field[], flag: string): Fetch[] {
  const k = args.findIndex((a) => a.text === flag || a.text.startsWith(`${flag}=`));
  if (k < 0) return [];
  const value = args[k]!.text.includes('=') ? known(args[k]!.text.slice(flag.length + 1)) : args[k + 1];
  return value === undefined
    ? []
    : [
        { kind: 'url', url: value, tool: manager, authenticated: false },
        { kind: 'repository', manager, url: value, detail: `.repo file added with ${flag}` },
      ];
}

const APT_SOURCES = /^\/etc\/apt\/sources\.list(?:\.d\/[^/]+\.(?:list|sources))?$/;
const YUM_REPOS = /^\/etc\/(?:yum\.repos\.d|distro\.repos\.d)\/[^/]+\.repo$/;

/** The file a command writes and its text (echo, printf, cat or tee with a here-document or a pipe), if any. */
export function writtenFile(c: ExecutedCommand): { path: string; text: Field } | undefined {
  const { name, args } = commandOf(c.argv);
  if (name === undefined) return undefined;
  let target = c.redirects.find((r) => r.op === '>' || r.op === '>>' || r.op === '>|')?.target;
  let text: Field | undefined;
  if (name === 'echo') text = joinText(args.filter((a, k) => !(k === 0 && /^-[neE]+$/.test(a.text))));
  else if (name === 'printf')
    text =
      args[0] === undefined
        ? undefined
        : {
            text: printf(
              args[0].text,
              args.slice(1).map((a) => a.text),
            ),
            unknown: args.flatMap((a) => a.unknown),
          };
  else if (name === 'cat' || name === 'tee') {
    text = c.redirects.find((r) => r.heredoc !== undefined)?.heredoc ?? c.stdin;
    if (name === 'tee') target = args.find((a) => !a.text.startsWith('-')) ?? target;
  }
  if (target === undefined || text === undefined || target.unknown.length > 0) return undefined;
  return { path: target.text, text };
}

/** `mv`/`cp`/`install` of one file to another (a file written under a temporary name, then put in place). */
export function movedFile(c: ExecutedCommand): { from: string; to: string } | undefined {
  const { name, args } = commandOf(c.argv);
  if (name !== 'mv' && name !== 'cp' && name !== 'install') return undefined;
  const operands = args.filter(
    (a, k) => !a.text.startsWith('-') && !(name === 'install' && /^-[mog]$/.test(args[k - 1]?.text ?? '')),
  );
  if (operands.length !== 2 || operands.some((o) => o.unknown.length > 0)) return undefined;
  return { from: operands[0]!.text, to: operands[1]!.text };
}

/** The package sources in a file of apt's or yum's configuration, written with `text`. */
export function* sourcesInFile(path: string, text: Field): Generator<Fetch> {
  if (APT_SOURCES.test(path)) {
    // apt reads a `.sources` file as deb822 stanzas only, any other as one-line entries only.
    if (path.endsWith('.sources')) yield* deb822Sources(path, text);
    else yield* oneLineSources(path, text);
  } else if (YUM_REPOS.test(path)) {
    for (const [key, value] of repoOptions(text.text)) {
      // baseurl and gpgkey are lists (spaces, commas, continuation lines); mirrorlist and metalink one URL.
      const urls = key === 'baseurl' || key === 'gpgkey' ? words(value, /[\s,]+/) : words(value, /\s+/).slice(0, 1);
      for (const u of urls) {
        const url = { text: u, unknown: unknownIn(u, text) };
        yield key === 'gpgkey'
          ? { kind: 'url', url, tool: 'yum', authenticated: false }
          : { kind: 'repository', manager: 'yum', url, detail: `${key} (${path})` };
      }
    }
  }
}

/** `deb` and `deb-src` lines (apt fetches both indexes), each line on its own. */
function* oneLineSources(path: string, text: Field): Generator<Fetch> {
  for (const line of text.text.split('\n')) {
    const m = /^\s*deb(?:-src)?\s+(?:\[[^\]]*\]\s+)?(\S+)\s+(\S+)\s*(.*)$/.exec(line);
    if (m !== null)
      yield {
        kind: 'repository',
        manager: 'apt',
        url: { text: m[1]!, unknown: unknownIn(m[1]!, text) },
        detail: `suite ${m[2]}${m[3] ? `, components ${m[3].trim()}` : ''} (${path})`,
      };
  }
}

/** Every URI of every stanza apt has enabled (deb822: fields any case, values continued on indented lines). */
function* deb822Sources(path: string, text: Field): Generator<Fetch> {
  for (const fields of deb822Stanzas(text.text)) {
    if (/^(?:no|false|without|off|disable)$/i.test(fields.get('enabled') ?? '')) continue;
    for (const uri of words(fields.get('uris') ?? '', /\s+/))
      yield { kind: 'repository', manager: 'apt', url: { text: uri, unknown: unknownIn(uri, text) }, detail: path };
  }
}

/** deb822 stanzas (separated by blank lines) as field name (lower case) -> value, continuation lines joined. */
function deb822Stanzas(text: string): Array<Map<string, string>> {
  const stanzas: Array<Map<string, string>> = [];
  let fields = new Map<string, string>();
  let last: string | undefined;
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      if (fields.size > 0) stanzas.push(fields);
      fields = new Map();
      last = undefined;
    } else if (line.startsWith('#')) continue;
    else if (/^[ \t]/.test(line)) {
      if (last !== undefined) fields.set(last, `${fields.get(last)} ${line.trim()}`);
    } else {
      const colon = line.indexOf(':');
      last = colon > 0 ? line.slice(0, colon).trim().toLowerCase() : undefined;
      if (last !== undefined) fields.set(last, line.slice(colon + 1).trim());
    }
  }
  if (fields.size > 0) stanzas.push(fields);
  return stanzas;
}

/**
 * The URL options of a yum `.repo` file, in order, a value continued on the indented lines after it. Blanks at a
 * line start are spaces and tabs: `^\s*` under the `m` flag ran over every line break after each line start
 * (quadratic: 100 KB of empty lines took 20 s), and `=\s*` took the next line for an empty value.
 */
function repoOptions(text: string): Array<[string, string]> {
  const options: Array<[string, string]> = [];
  let last: [string, string] | undefined;
  for (const line of text.split('\n')) {
    const m = /^[ \t]*([A-Za-z0-9_-]+)[ \t]*=(.*)$/.exec(line);
    if (m !== null) {
      last = /^(?:baseurl|mirrorlist|metalink|gpgkey)$/.test(m[1]!) ? [m[1]!, m[2]!] : undefined;
      if (last !== undefined) options.push(last);
    } else if (last !== undefined && /^[ \t]+\S/.test(line)) last[1] += ` ${line.trim()}`;
    else last = undefined;
  }
  return options;
}

const words = (value: string, separator: RegExp) => value.split(separator).filter((w) => w !== '');

/** The reasons of `text` that concern the part `part` (placeholders it holds). */
function unknownIn(part: string, whole: Field): string[] {
  return whole.unknown.filter((why) => {
    const placeholder = /^(\$\{[^}]*\}|\$\([^)]*\)|\$[A-Za-z_0-9@]+)/.exec(why)?.[0];
    return placeholder === undefined ? /\$/.test(part) : part.includes(placeholder);
  });
}

function joinText(args: readonly Field[]): Field {
  return { text: args.map((a) => a.text).join(' '), unknown: args.flatMap((a) => a.unknown) };
}

function printf(format: string, args: readonly string[]): string {
  let k = 0;
  return format
    .replace(/\\n/g, '\n')
    .replace(/\\t/g, '\t')
    .replace(/%[-0-9.]*[sdq]/g, () => args[k++] ?? '');
}
