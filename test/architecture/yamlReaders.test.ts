// "Bounded" by construction, read from the code: a YAML text from the inputs becomes values only through the
// one function that applies every input bound (parseInputDocuments in src/krm/inputYaml.ts, which parses for
// the ResourceList, the files of a directory and the YAML inside values). Any other module that calls the `yaml` package's parser is listed here with why
// its text is not input: our own output read back, or a text one of the readers accepted, parsed again for its
// lines. A new module that parses YAML fails here until it reads through inputYaml.ts or says why it need not.
// A reader of its own was the door: the cluster-info kubeconfig was parsed with the package's defaults, and a
// 12 MB ResourceList whose kubeconfig held a flow list of 6 million numbers took 4.4 GB and crashed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { REPO_ROOT } from '../support/paths.ts';
import { PARSE_OPTIONS } from '../../src/krm/yamlSchema.ts';

const READERS: Readonly<Record<string, string>> = {
  'src/krm/inputYaml.ts':
    "the reader of a YAML text from the inputs (the ResourceList's full parse too), within every bound",
  'src/codec/nodeLimit.ts':
    "every reader's node count before the parser runs, from the lexer's tokens (composes nothing)",
};

const NOT_INPUT: Readonly<Record<string, string>> = {
  'src/emit/userdata/formats/cloudConfigView.ts': 'user-data we rendered, decoded for review',
  'src/emit/userdata/ignition/clcParse.ts': 'the Container Linux Config we rendered, transpiled',
  'src/sops/encryptManifests.ts': 'the manifests we wrote, parsed to encrypt them (the previous file: inputYaml.ts)',
  'src/machineDeployment/validateValues.ts': 'one line `k: VALUE` built to ask how PyYAML-like readers type VALUE',
  'src/lint/profileSourceMap.ts': 'an OSP file the files reader accepted, parsed again for its lines',
  'src/cli/kustomizeBuild.ts': 'a kustomization the files reader accepted, parsed again to drop one entry',
};

const PARSERS = /\b(parse|parseDocument|parseAllDocuments|Parser|Composer|Lexer)\b/;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(REPO_ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.ts$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => posix.relative(REPO_ROOT, join(e.parentPath, e.name)).split('\\').join('/'))
    .sort();
}

/** The names a module imports from the `yaml` package (values, not types). */
function yamlImports(file: string): string[] {
  const text = readFileSync(join(REPO_ROOT, file), 'utf8');
  const names: string[] = [];
  for (const m of text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+'yaml'/g)) {
    if (m[1]) continue;
    for (const part of m[2]!.split(',')) {
      const name = part.trim();
      if (name !== '' && !name.startsWith('type ')) names.push(name.split(/\s+as\s+/)[0]!);
    }
  }
  if (
    /import\s+\*\s+as\s+\w+\s+from\s+'yaml'|import\s+\w+\s+from\s+'yaml'|require\('yaml'\)|import\('yaml'\)/.test(text)
  )
    names.push('* (the whole package)');
  return names;
}

test("only the listed modules call the yaml package's parser; every other reads input YAML through inputYaml.ts", () => {
  const parsing = [...sourceFiles('src'), ...sourceFiles('functions')].filter((f) =>
    yamlImports(f).some((n) => PARSERS.test(n) || n.startsWith('*')),
  );
  const unlisted = parsing.filter((f) => READERS[f] === undefined && NOT_INPUT[f] === undefined);
  assert.deepEqual(unlisted, [], 'read input YAML through src/krm/inputYaml.ts, or list the module with why');
  // Nothing stale: every listed module still parses.
  const stale = [...Object.keys(READERS), ...Object.keys(NOT_INPUT)].filter((f) => !parsing.includes(f));
  assert.deepEqual(stale, []);
});

test('the cluster-info kubeconfig and the ResourceList are read through inputYaml.ts', () => {
  const kubeconfig = readFileSync(join(REPO_ROOT, 'src/cluster/kubeconfig.ts'), 'utf8');
  assert.match(kubeconfig, /readYamlInsideValue\(/);
  assert.deepEqual(yamlImports('src/cluster/kubeconfig.ts'), []);
  const resourceList = readFileSync(join(REPO_ROOT, 'src/krm/resourceList.ts'), 'utf8');
  assert.match(resourceList, /parseInputDocument\(/);
  assert.ok(!yamlImports('src/krm/resourceList.ts').some((n) => PARSERS.test(n)));
});

/** Each call of the package's parse functions in `text`: the call's text, up to its closing parenthesis. */
function parseCalls(text: string): string[] {
  const calls: string[] = [];
  // Not a method of another object (`JSON.parse(`); a spread (`...parseAllDocuments(`) is a call.
  for (const m of text.matchAll(/(?<![\w$]\.|[\w$])(?:parse|parseDocument|parseAllDocuments)\(/g)) {
    let depth = 0;
    let i = m.index;
    for (; i < text.length; i++) {
      if (text[i] === '(') depth++;
      else if (text[i] === ')' && --depth === 0) break;
    }
    calls.push(text.slice(m.index, i + 1));
  }
  return calls;
}

test("no parse runs the package's quadratic check of repeated keys; the readers check keys in one pass", () => {
  // The package compares each key with every key before it: 100,000 keys of one map took `render` 266 s.
  assert.equal(PARSE_OPTIONS.uniqueKeys, false);
  const calls = [...Object.keys(READERS), ...Object.keys(NOT_INPUT)].flatMap((file) =>
    parseCalls(readFileSync(join(REPO_ROOT, file), 'utf8')).map((call) => ({ file, call })),
  );
  // The readers, the kustomization, the lines of an OSP file, the user-data views, SOPS, a value's typing.
  assert.ok(calls.length >= 8, `${calls.length} calls found`);
  for (const { file, call } of calls)
    assert.match(call, /PARSE_OPTIONS|uniqueKeys: false/, `${file}: ${call.slice(0, 120)}`);
  assert.match(readFileSync(join(REPO_ROOT, 'src/krm/inputYaml.ts'), 'utf8'), /checkMapKeys\(/);
  // The files' reader parses through the same function as the ResourceList's (it imports no parser itself).
  assert.match(readFileSync(join(REPO_ROOT, 'src/cli/manifestDirectory.ts'), 'utf8'), /parseInputDocuments\(/);
  assert.deepEqual(
    yamlImports('src/cli/manifestDirectory.ts').filter((n) => PARSERS.test(n)),
    [],
  );
});
