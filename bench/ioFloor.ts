// The IO floor of the function: the same process reads and parses the same ResourceList and writes the
// same output, without rendering anything. `node dist/bench-io-floor.mjs OUTPUT.yaml < INPUT.yaml`
import { readFileSync } from 'node:fs';
import { parseResourceList, serializeResourceList } from '../src/io/resourceList.ts';

const list = parseResourceList(readFileSync(0, 'utf8'));
// The generated objects a real run produced, as plain objects (parsing them is bench setup, done as JSON).
const generated = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as object[];
process.stdout.write(serializeResourceList(list, { kept: list.items, generated, results: [] }));
