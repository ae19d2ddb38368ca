// Errors of the template engine, and the one place their texts are put together the way Go's are:
//   parse: template: NAME:LINE: message
//   exec:  template: NAME:LINE:COL: executing "NAME" at <node>: message
import { goQuote } from '../go/fmt/format.ts';
import { goByteLength } from '../go/reflect/byteString.ts';

/** The one error type the template module lets out. `message` is exactly Go's error text. */
export class TemplateError extends Error {
  constructor(
    message: string,
    readonly phase: 'parse' | 'exec',
    readonly templateName: string,
    readonly line?: number,
    readonly column?: number,
    /** One of our execution limits (not Go's) stopped it. */
    readonly limit = false,
  ) {
    super(message);
    this.name = 'TemplateError';
  }
}

/** An execution error inside the executor (Go's ExecError), already formatted. */
export class ExecError extends Error {
  constructor(
    message: string,
    readonly templateName: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
    this.name = 'ExecError';
  }
}

/** One of our own execution limits was hit; reported like an execution error at the current node. */
export class LimitError extends Error {
  override name = 'LimitError';
}

/** Go's ErrorContext: line of `pos` (a UTF-16 index into `text`) and its column in bytes. */
export function errorLocation(text: string, pos: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < pos; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  const prefix = text.slice(lineStart, pos);
  const column = /^[\x00-\x7f]*$/.test(prefix) ? prefix.length : goByteLength(prefix);
  return { line, column };
}

export function parseErrorMessage(parseName: string, line: number, message: string): string {
  return `template: ${parseName}:${line}: ${message}`;
}

export function execErrorMessage(location: string, templateName: string, context: string, message: string): string {
  return `template: ${location}: executing ${goQuote(templateName)} at <${context}>: ${message}`;
}
