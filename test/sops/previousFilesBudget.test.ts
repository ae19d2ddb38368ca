// hydrate reads OUT's previous files to keep a file whose content did not change byte for byte. OUT is in Git,
// so they are input: all of them are read within one budget of nodes, not one budget each (with one each, 3,000
// files could each hold a run's whole allowance). A file read past the budget is not reused, and hydrate says so.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encryptManifests } from '../../src/sops/encryptManifests.ts';
import { NodeBudget } from '../../src/krm/inputBounds.ts';
import { SecretRegistry } from '../../src/krm/redactSecrets.ts';

const SETTINGS = {
  ageRecipients: ['age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p'],
  dataKeySeed: 'a seed of at least thirty-two characters, for the test',
};

const secretFile = (name: string) =>
  `apiVersion: v1\nkind: Secret\nmetadata:\n  name: ${name}\n  namespace: cloud-init-settings\ndata:\n  cloud-config: ${Buffer.from(`secret of ${name}`).toString('base64')}\n`;

test('the previous files share one budget: past it, a file is written anew instead of reused', () => {
  const files = new Map([
    ['a.yaml', secretFile('a')],
    ['b.yaml', secretFile('b')],
  ]);
  const secrets = new SecretRegistry();
  const first = encryptManifests(files, () => undefined, SETTINGS, secrets);
  const previous = (path: string) => first.get(path);

  // A budget for every file: each is reused byte for byte (a fresh encryption wraps its data key anew).
  const again = encryptManifests(files, previous, SETTINGS, secrets);
  assert.equal(again.get('a.yaml'), first.get('a.yaml'));
  assert.equal(again.get('b.yaml'), first.get('b.yaml'));
  const fresh = encryptManifests(files, () => undefined, SETTINGS, secrets);
  assert.notEqual(fresh.get('b.yaml'), first.get('b.yaml'), 'a file written anew differs');

  // A budget that holds one previous file: the first is reused, the second is past it and written anew.
  const fitsOne = new NodeBudget(nodesOf(first.get('a.yaml')!), Infinity);
  const told: string[] = [];
  const limited = encryptManifests(files, previous, SETTINGS, secrets, fitsOne, (path, reason) =>
    told.push(`${path}: ${reason}`),
  );
  assert.equal(limited.get('a.yaml'), first.get('a.yaml'));
  assert.notEqual(limited.get('b.yaml'), first.get('b.yaml'));
  assert.ok(fitsOne.reached, 'the budget was reached by the second file');
  // Not silently: the caller is told which file was not reused, and why.
  assert.equal(told.length, 1, told.join('\n'));
  assert.match(told[0]!, /^b\.yaml: the previous output file holds more YAML nodes than osm-krm reads in one run/);
});

test('a previous file that is not YAML is written anew, and the caller is told so without its text', () => {
  const files = new Map([['a.yaml', secretFile('a')]]);
  const told: string[] = [];
  const out = encryptManifests(
    files,
    () => 'sops: [unclosed, secret-looking-text\n',
    SETTINGS,
    new SecretRegistry(),
    undefined,
    (path, reason) => told.push(`${path}: ${reason}`),
  );
  assert.match(out.get('a.yaml')!, /^sops:|\nsops:/m);
  assert.equal(told.length, 1);
  assert.match(told[0]!, /^a\.yaml: malformed YAML at line \d+, column \d+/);
  assert.doesNotMatch(told[0]!, /secret-looking-text/);
});

/** The nodes one reader counts in `text` (what a budget must hold to read it). */
function nodesOf(text: string): number {
  const budget = new NodeBudget();
  budget.countText(text, 'x');
  return budget.spent;
}
