// The IO floor of the function: the same process reads and parses the same ResourceList and writes the
// same output, without rendering anything. `node dist/bench-io-floor.mjs OUTPUT.yaml < INPUT.yaml`
import { readFileSync } from 'node:fs';
import { generatedEntry, parseResourceList, writeResourceList } from '../src/io/resourceList.ts';
import { writeAllSync } from '../src/cli/writeAllSync.ts';

const list = parseResourceList(readFileSync(0, 'utf8'));
// The generated objects a real run produced, as plain objects (parsing them is bench setup, done as JSON).
const generated = (JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as object[]).map((o) => generatedEntry(list, o));
writeResourceList(list, { kept: list.items, generated, results: [] }, (text) => writeAllSync(1, text));
