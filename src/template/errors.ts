// The one error type the template module lets out.
export class TemplateError extends Error {
  constructor(
    message: string,
    readonly phase: 'parse' | 'exec',
    readonly templateName: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
    this.name = 'TemplateError';
  }
}
