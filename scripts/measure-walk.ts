// The walk of one ResourceList through the code: which files a run passes through, in order, and how often it
// climbs back up the layers of docs/architecture.md (test/architecture/layerTable.ts). Measured the same way
// every time:
//
//   node --import tsx scripts/measure-walk.ts [resourcelist.yaml] [--list]
//
// 1. Every function of src/ is compiled with an enter/exit call (scripts/walkTraceHooks.mjs), and
//    processResourceList runs once on the input (default examples/basic/resourcelist.yaml), traced from its
//    call to its return.
// 2. Only the run's own layers are stops: krm, model, render, gitops, function. The Go library, the template
//    engine, sprig, the byte codecs and the emitters turn typed values into bytes and know nothing of a run; a
//    call into them is not followed (what they call back into is, as called from the file that called them).
// 3. The trace becomes a tree of files: a call into another file is a child; a file is followed the first
//    time the walk reaches it only (a loop over items or template files, or a second caller, adds nothing).
// 4. The walk is that tree depth-first: a stop at each file called and a stop back in the caller after each
//    call. `climbs` counts steps from a file of a lower layer to a file of a higher one (by the layer climbed
//    into); `revisits` counts stops at a file the walk had already left.
// Two walks: the whole run, and one MachineDeployment (the orchestrator's first renderMachineDeploymentAt call:
// rendering it and turning its objects into output entries).
// --list prints the walks, a ^ marking each climb.
import { register } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LAYERS, layerOf } from '../test/architecture/layerTable.ts';

const ROOT = join(import.meta.dirname, '..');
const args = process.argv.slice(2);
const listStops = args.includes('--list');
const inputPath = args.find((a) => !a.startsWith('--')) ?? join(ROOT, 'examples/basic/resourcelist.yaml');
// The values scripts/compare-bundle-outputs.ts runs the examples with.
const ENV: Record<string, string> = {
  OSM_CLOUD_INIT_GETTER_TOKEN: 'example-cloud-init-getter-token',
  OSM_BOOTSTRAP_TOKEN: 'abcdef.0123456789abcdef',
};
const NOT_FOLLOWED = new Set(['go', 'template', 'sprig', 'codec', 'emit']);
// One MachineDeployment's walk: the orchestrator's call that renders it and turns its objects into output.
const ENTRY_FILE = 'src/function/processResourceList.ts';
const ONE_MACHINE_DEPLOYMENT = 'renderMachineDeploymentAt';

interface Node {
  file: string;
  children: Map<string, Node>;
}

function layerName(file: string): string {
  const i = layerOf(file);
  return i < 0 ? '?' : LAYERS[i]![0];
}

/** The tree of files from enter/exit events: a frame in its caller's file, or in a file not followed, adds no node. */
class FileTree {
  readonly root: Node = { file: '', children: new Map() };
  private readonly nodes: Node[] = [this.root];
  private readonly opened: boolean[] = [];

  enter(file: string): void {
    const top = this.nodes[this.nodes.length - 1]!;
    const opens = file !== top.file && !NOT_FOLLOWED.has(layerName(file));
    this.opened.push(opens);
    if (!opens) return;
    let child = top.children.get(file);
    if (child === undefined) top.children.set(file, (child = { file, children: new Map() }));
    this.nodes.push(child);
  }

  exit(): void {
    if (this.opened.pop()) this.nodes.pop();
  }
}

/** The run's tree while `on`, and the tree of the first call to ONE_MACHINE_DEPLOYMENT (one MachineDeployment's walk). */
class WalkRecorder {
  on = false;
  readonly run = new FileTree();
  readonly oneMachineDeployment = new FileTree();
  private depth = 0;
  private inOne = 0;
  private oneDone = false;

  enter(file: string, name: string): void {
    if (!this.on) return;
    this.run.enter(file);
    this.depth++;
    if (this.inOne === 0 && !this.oneDone && name === ONE_MACHINE_DEPLOYMENT && file === ENTRY_FILE)
      this.inOne = this.depth;
    if (this.inOne > 0) this.oneMachineDeployment.enter(file);
  }

  exit(): void {
    if (!this.on) return;
    if (this.inOne > 0) {
      this.oneMachineDeployment.exit();
      if (this.depth === this.inOne) [this.inOne, this.oneDone] = [0, true];
    }
    this.run.exit();
    this.depth--;
  }
}

/** Depth-first, each file followed where the walk first reaches it; a repeated stop in a row is one. */
function walkStops(root: Node): string[] {
  const stops: string[] = [];
  const followed = new Set<string>();
  const stop = (f: string) => {
    if (stops[stops.length - 1] !== f) stops.push(f);
  };
  const visit = (n: Node): void => {
    followed.add(n.file);
    stop(n.file);
    for (const c of n.children.values()) {
      if (followed.has(c.file)) continue;
      visit(c);
      stop(n.file);
    }
  };
  for (const top of root.children.values()) visit(top);
  return stops;
}

const recorder = new WalkRecorder();
(globalThis as { __walk?: WalkRecorder }).__walk = recorder;
register('./walkTraceHooks.mjs', { parentURL: import.meta.url, data: { root: ROOT } });

const { parseResourceList } = await import('../src/krm/resourceList.ts');
const { processResourceList } = await import('../src/function/processResourceList.ts');
const list = parseResourceList(readFileSync(inputPath, 'utf8'));
const env = { env: (name: string) => ENV[name], readFile: (path: string) => readFileSync(path, 'utf8') };
recorder.on = true;
const out = processResourceList(list, env);
recorder.on = false;
const errors = out.results.filter((r) => r.severity === 'error');
if (errors.length > 0) throw new Error(`the run failed: ${errors.map((r) => r.message).join('; ')}`);

function report(label: string, tree: FileTree): void {
  const stops = walkStops(tree.root);
  if (stops.length === 0)
    throw new Error(
      `${label}: no walk recorded (is ${ONE_MACHINE_DEPLOYMENT} still the name of the orchestrator's per-MachineDeployment step?)`,
    );
  const seen = new Set<string>();
  let climbs = 0;
  let revisits = 0;
  const into = new Map<string, number>();
  if (listStops) console.log(`${label}:`);
  stops.forEach((f, i) => {
    const climb = i > 0 && layerOf(f) > layerOf(stops[i - 1]!);
    if (climb) {
      climbs++;
      into.set(layerName(f), (into.get(layerName(f)) ?? 0) + 1);
    }
    if (seen.has(f)) revisits++;
    seen.add(f);
    if (listStops) console.log(`${String(i + 1).padStart(3)} ${climb ? '^' : ' '} ${layerName(f).padEnd(8)} ${f}`);
  });
  const byLayer = [...into]
    .sort(([a], [b]) => LAYERS.findIndex(([n]) => n === b) - LAYERS.findIndex(([n]) => n === a))
    .map(([l, n]) => `${l} ${n}`)
    .join(', ');
  console.log(
    `${label}: ${stops.length} stops in ${seen.size} files, ${climbs} climbs back to a higher layer (into ${byLayer}), ${revisits} returns to a file already left`,
  );
}

report('the run', recorder.run);
report('one MachineDeployment', recorder.oneMachineDeployment);
