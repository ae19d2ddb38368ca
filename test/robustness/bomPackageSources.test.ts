// Attacks how the bill of materials reads the package sources a profile writes (src/bom/fetchCommands.ts,
// sourcesInFile): apt's deb822 `.sources` files were read for their first `URIs:` value only, and `\s*` ran over
// line breaks. Ubuntu 24.04's own ubuntu.sources (an archive stanza, then a security stanza) listed the archive
// and missed the security host, so `bom --mirror-check` said nothing leaves the site while the node fetched from
// security.ubuntu.com; an empty `URIs:` made the next line (`Suites:`) a repository; a yum baseurl listing two
// mirrors gave the first; `baseurl=` with nothing after it made `enabled=1` one; `deb-src` lines were not read.
// Generated from a model of the file (stanzas and sections, each with its URLs, in the syntaxes apt and dnf
// accept), the bill lists exactly the enabled URLs, none invented, none missed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sourcesInFile } from '../../src/bom/fetchCommands.ts';

const SEED = 20261128;

const urlArb = fc.integer({ min: 0, max: 99 }).map((k) => `http://h${k}.example/repo/`);
const blankArb = fc.constantFrom('', ' ', '\t', '  \t');

/** What bom reads from a file, as [kind, url] in order. */
function read(path: string, text: string): string[] {
  return [...sourcesInFile(path, { text, unknown: [] })].map((f) =>
    f.kind === 'repository' || f.kind === 'url' ? `${f.kind} ${f.url.text}` : f.kind,
  );
}

test('a deb822 .sources file: every URI of every enabled stanza, nothing else', () => {
  const stanzaArb = fc.record({
    uris: fc.array(urlArb, { maxLength: 3 }),
    continued: fc.boolean(),
    fieldCase: fc.constantFrom('URIs', 'uris', 'Uris'),
    enabled: fc.constantFrom(undefined, 'yes', 'no', 'No', 'false'),
    comment: fc.boolean(),
    suites: fc.constantFrom('noble', 'noble noble-updates', ''),
  });
  fc.assert(
    fc.property(
      fc.array(stanzaArb, { minLength: 1, maxLength: 4 }),
      fc.array(blankArb, { minLength: 4 }),
      (stanzas, blanks) => {
        const text = stanzas
          .map((s, i) => {
            const [first, ...rest] = s.uris;
            const uris = s.continued
              ? [`${s.fieldCase}:${first ? ` ${first}` : ''}`, ...rest.map((u) => ` ${u}`)]
              : [`${s.fieldCase}: ${s.uris.join(' ')}`.trimEnd()];
            return (
              [
                ...(s.comment ? ['# URIs: http://commented.example/'] : []),
                'Types: deb',
                ...uris,
                `Suites:${s.suites ? ` ${s.suites}` : ''}`,
                'Components: main',
                ...(s.enabled !== undefined ? [`Enabled: ${s.enabled}`] : []),
              ].join('\n') + `\n${blanks[i % blanks.length]}\n`
            );
          })
          .join('');
        const expected = stanzas
          .filter((s) => !/^(no|false)$/i.test(s.enabled ?? ''))
          .flatMap((s) => s.uris.map((u) => `repository ${u}`));
        assert.deepEqual(read('/etc/apt/sources.list.d/x.sources', text), expected, text);
      },
    ),
    { seed: SEED, numRuns: 300 },
  );
});

test('a one-line .list file: every deb and deb-src line, options or not', () => {
  const lineArb = fc.record({
    type: fc.constantFrom('deb', 'deb-src', '# deb'),
    options: fc.constantFrom('', '[arch=amd64] ', '[signed-by=/etc/apt/keyrings/k.gpg arch=amd64] '),
    url: urlArb,
    indent: fc.constantFrom('', ' ', '\t'),
  });
  fc.assert(
    fc.property(fc.array(lineArb, { maxLength: 6 }), (lines) => {
      const text = lines.map((l) => `${l.indent}${l.type} ${l.options}${l.url} noble main\n`).join('');
      const expected = lines.filter((l) => !l.type.startsWith('#')).map((l) => `repository ${l.url}`);
      assert.deepEqual(read('/etc/apt/sources.list.d/x.list', text), expected, text);
    }),
    { seed: SEED, numRuns: 200 },
  );
});

test('a yum .repo file: every baseurl and gpgkey of a list, one mirrorlist URL, no value taken from the next line', () => {
  const sectionArb = fc.record({
    key: fc.constantFrom('baseurl', 'gpgkey', 'mirrorlist', 'metalink'),
    urls: fc.array(urlArb, { maxLength: 3 }),
    separator: fc.constantFrom(' ', ',', ', ', '\n  ', '\n\t'),
    around: fc.constantFrom('=', ' = ', '= ', ' ='),
  });
  fc.assert(
    fc.property(
      fc.array(sectionArb, { minLength: 1, maxLength: 4 }),
      fc.array(blankArb, { minLength: 4 }),
      (sections, blanks) => {
        // mirrorlist and metalink name one URL each.
        const urlsOf = (s: (typeof sections)[number]) =>
          s.key === 'baseurl' || s.key === 'gpgkey' ? s.urls : s.urls.slice(0, 1);
        const text = sections
          .map(
            (s, i) =>
              `[r${i}]\nname=r${i}\n${s.key}${s.around}${urlsOf(s).join(s.separator)}\nenabled=1\n${blanks[i % blanks.length]}\n`,
          )
          .join('');
        const expected = sections.flatMap((s) =>
          urlsOf(s).map((u) => `${s.key === 'gpgkey' ? 'url' : 'repository'} ${u}`),
        );
        assert.deepEqual(read('/etc/yum.repos.d/x.repo', text), expected, text);
      },
    ),
    { seed: SEED, numRuns: 300 },
  );
});
