// Follows one script, /opt/bin/hostile, as the bill of materials does (an Ubuntu amd64 node), under a budget: what
// stopped it, the units spent, the CPU it took and the commands it reached. Shared by the attacks on the evaluator.
import { EvaluationBudgetError, ScriptEvaluator, type ScriptFile } from '../../src/bom/scriptEvaluation.ts';
import { nodeFacts } from '../../src/bom/nodeFacts.ts';

export interface HostileScriptRun {
  /** 'followed', or the message of the stop (budget, nesting). */
  outcome: string;
  work: number;
  cpuNs: number;
  /** Each command the evaluator reported, as JSON (when recorded). */
  fetched: string[];
}

/** `record`: keep each command reached (costs CPU per command, so off where CPU per unit is measured). */
export function evaluateHostileScript(content: string, maxWork: number, record = false): HostileScriptRun {
  const script: ScriptFile = { stage: 'provisioning', path: '/opt/bin/hostile', content };
  const fetched: string[] = [];
  const evaluator = new ScriptEvaluator(
    {
      facts: nodeFacts('amd64', 'ubuntu', '24.04'),
      scriptAt: (p) => (p === script.path ? script : undefined),
      fileAt: () => undefined,
      onCommand: (c) => {
        if (record) fetched.push(JSON.stringify(c));
      },
    },
    maxWork,
  );
  const start = process.cpuUsage();
  let outcome = 'followed';
  try {
    evaluator.runScript(script, []);
  } catch (e) {
    if (!(e instanceof EvaluationBudgetError)) throw e;
    outcome = e.message;
  }
  const used = process.cpuUsage(start);
  return { outcome, work: evaluator.workSpent, cpuNs: (used.user + used.system) * 1000, fetched };
}
