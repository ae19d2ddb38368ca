// The top-level help: the list of commands comes from their own tables (commandSpecs.ts), as each command's
// help does. Loaded only for --help and an unknown command.
import { COMMANDS } from './commandSpecs.ts';
import { synopses } from './commandLine.ts';
import { didYouMean } from '../krm/didYouMean.ts';

export function usage(): string {
  const rows: Array<[string, string]> = [
    ['osm-krm < resourcelist.yaml', 'render OperatingSystemConfigs and Secrets (KRM function)'],
    ...COMMANDS.flatMap((c) => synopses(c).map((s, i): [string, string] => [s, i === 0 ? c.summary : ''])),
    ['osm-krm COMMAND --help', 'the options of COMMAND'],
    ['osm-krm --version', 'the release'],
  ];
  const width = 39;
  const lines = rows.flatMap(([left, help]) => {
    const [head = '', ...tail] = help.split('\n');
    const pad = (t: string) => `  ${' '.repeat(width)}${t}`;
    const first =
      help === '' ? [`  ${left}`] : left.length < width ? [`  ${left.padEnd(width)}${head}`] : [`  ${left}`, pad(head)];
    return [...first, ...tail.map(pad)];
  });
  return `osm-krm: Operating System Manager as a KRM function.\n\nUsage:\n${lines.join('\n')}\n`;
}

/** `; did you mean "render"?` for a command name close to one of ours, else nothing. */
export function didYouMeanCommand(command: string): string {
  return didYouMean(
    command,
    COMMANDS.map((c) => c.name),
  );
}
