// The IO floor of the function: the same process reads and parses the same ResourceList and writes the
// same output, without rendering anything. `node bench-io-floor.mjs GENERATED.jsonl < INPUT.yaml`
import { readFileSync } from 'node:fs';
import { generatedEntry, parseResourceList, writeResourceList } from '../src/krm/resourceList.ts';
import { writeAllSync } from '../src/cli/writeAllSync.ts';

const list = parseResourceList(readFileSync(0, 'utf8'));
// The generated objects a real run produced, as plain objects (parsing them is bench setup, done as JSON).
// One JSON object per line (the whole set can exceed the longest string V8 allows).
const lines = readFileSync(process.argv[2]!);
const generated: string[] = [];
for (let at = 0; at < lines.length;) {
  const nl = lines.indexOf(10, at);
  const end = nl < 0 ? lines.length : nl;
  if (end > at) generated.push(generatedEntry(list, JSON.parse(lines.subarray(at, end).toString('utf8')) as object));
  at = end + 1;
}
writeResourceList(list, { kept: list.items, generated, results: [] }, (text) => writeAllSync(1, text));
