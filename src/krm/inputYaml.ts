// A YAML text from the inputs becomes values here, by the rules the ResourceList is read with: the block-YAML
// fast path, else the `yaml` package within every bound of inputBounds.ts (size, stack, nesting, what aliases
// expand to), repeated keys refused, errors that name a place and never quote the text. Besides the ResourceList
// (resourceList.ts) and the files commands read (src/cli/manifestDirectory.ts), inputs hold YAML of their own:
// the cluster-info ConfigMap's kubeconfig, hydrate's previous output file. A reader of its own for those was a
// door around the bounds: a 12 MB ResourceList whose kubeconfig held a flow list of 6 million numbers took
// 162 s and 4.4 GB and crashed (test/architecture/yamlReaders.test.ts keeps the parser's entry points here).
import { parseAllDocuments, parseDocument, type Document } from 'yaml';
import { PARSE_OPTIONS } from './yamlSchema.ts';
import { checkMapKeys } from './mapKeys.ts';
import { yamlErrorText } from './parseErrorMessage.ts';
import {
  boundedToJS,
  checkFullParserSize,
  isStackOverflow,
  nestingError,
  NodeBudget,
  parseWithinStack,
  writtenSize,
} from './inputBounds.ts';
import { createBlockYamlFastPath, type FastParse } from '../codec/blockYamlFastPath.ts';
import { NodeLimitReached } from '../codec/nodeLimit.ts';

/** A YAML text that is not well-formed: the message gives line, column and the kind of problem, never text. */
export class MalformedYamlError extends Error {
  /** `where`: " at line L, column C: the kind of problem", or ": " and the parser's own limit. */
  constructor(readonly where: string) {
    super(`malformed YAML${where}`);
    this.name = 'MalformedYamlError';
  }
}

/**
 * Every parse of a YAML text from the inputs by the `yaml` package runs here, the ResourceList's and the files'
 * alike: the size check, the node budget (counted by the lexer before the parser runs), the stack guard, and the
 * map keys checked in one pass. `stream`: every document of a YAML stream (a file), else the one document.
 * The documents' own errors are the caller's to report.
 */
export function parseInputDocuments(
  text: string,
  where: string,
  budget: NodeBudget,
  stream: boolean,
): Document.Parsed[] {
  checkFullParserSize(text, where);
  budget.countText(text, where);
  return parseWithinStack(() => {
    const docs = stream ? [...parseAllDocuments(text, PARSE_OPTIONS)] : [parseDocument(text, PARSE_OPTIONS)];
    for (const doc of docs) checkMapKeys(doc);
    return docs;
  }, where);
}

/** The `yaml` package's document of `text` (`where` names it in errors), within the bounds (its nodes: `budget`). */
export function parseInputDocument(text: string, where: string, budget: NodeBudget): Document.Parsed {
  let doc: Document.Parsed;
  try {
    doc = parseInputDocuments(text, where, budget, false)[0]!;
  } catch (e) {
    if (!(e instanceof Error) || e.name === 'InputLimitError') throw e;
    // Only limits the parser itself enforces get here; their messages hold no source text.
    throw new MalformedYamlError(`: ${e.message}`);
  }
  if (doc.errors.length > 0) {
    if (isStackOverflow(doc.errors[0]!.message)) throw nestingError(where);
    throw new MalformedYamlError(` at ${yamlErrorText(doc.errors[0]!, text)}`);
  }
  return doc;
}

// The block-YAML parser, made on first use: it keeps nothing between calls.
let fastPath: ReturnType<typeof createBlockYamlFastPath> | undefined;

/**
 * `text` read by the block-YAML fast path, its nodes and what its values take written charged to `budget`;
 * undefined when the text is not plain block YAML (the full parser's, parseInputDocument). The one place both
 * readers of input YAML (readInputYaml, the ResourceList) charge what the fast path reads.
 */
export function readBlockYaml(text: string, where: string, budget: NodeBudget): FastParse | undefined {
  fastPath ??= createBlockYamlFastPath(PARSE_OPTIONS);
  let fast: FastParse | undefined;
  try {
    fast = fastPath(text, budget.left);
  } catch (e) {
    if (e instanceof NodeLimitReached) throw budget.exceeded(text, e.offset, where);
    throw e;
  }
  if (fast === undefined) return undefined;
  budget.spent += fast.nodes;
  budget.credit(text);
  // A text the run made from values it counted already (countedAlready) has no allowance to check.
  if (budget.writtenLeft !== Infinity) budget.spendWritten(writtenSize(fast.root).written, where);
  return fast;
}

/**
 * The value of a one-document YAML text from the inputs; InputLimitError or MalformedYamlError otherwise. Its
 * nodes count against `budget`: the run's, or one that bounds every text of its kind in the run together
 * (a budget per text would let many texts each read the run's whole allowance).
 */
export function readInputYaml(text: string, where: string, budget: NodeBudget): unknown {
  const fast = readBlockYaml(text, where, budget);
  if (fast !== undefined) return fast.root;
  return boundedToJS(parseInputDocument(text, where, budget), text, where, budget);
}

/**
 * A YAML text inside one value of the inputs (the cluster-info kubeconfig), read once a run within bounds of
 * its own: small ones, so that it adds little to the run's (a bound of a run's size for each such text would
 * let them each read as much as the run).
 */
export function readYamlInsideValue(
  text: string,
  where: string,
  bounds: { nodes: number; layout: number; scope: string },
): unknown {
  return readInputYaml(text, where, new NodeBudget(bounds.nodes, bounds.layout, bounds.scope));
}
