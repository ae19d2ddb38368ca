// gopkg.in/yaml.v3's parser (its port of libyaml's): tokens from scan.ts in, events out, with the
// same states and parser errors. Comments are not carried into events (nothing OSM's functions decode
// looks at them); the scanner still scans them, as they move the marks of block ends.
// Follows gopkg.in/yaml.v3 v3.0.1 (its latest release, and the differential oracle's).
import type { Meter } from '../internal/meter.ts';
import { lookupKey } from '../internal/hashableKey.ts';
import { ErrorKind, ScalarStyle, Scanner, Tok, type Mark, type Token, type YamlErrorState } from './scan.ts';

export const enum Ev {
  None,
  StreamStart,
  StreamEnd,
  DocumentStart,
  DocumentEnd,
  Alias,
  Scalar,
  SequenceStart,
  SequenceEnd,
  MappingStart,
  MappingEnd,
}

export const EVENT_NAMES: Readonly<Record<Ev, string>> = {
  [Ev.None]: 'none',
  [Ev.StreamStart]: 'stream start',
  [Ev.StreamEnd]: 'stream end',
  [Ev.DocumentStart]: 'document start',
  [Ev.DocumentEnd]: 'document end',
  [Ev.Alias]: 'alias',
  [Ev.Scalar]: 'scalar',
  [Ev.SequenceStart]: 'sequence start',
  [Ev.SequenceEnd]: 'sequence end',
  [Ev.MappingStart]: 'mapping start',
  [Ev.MappingEnd]: 'mapping end',
};

export interface YamlEvent {
  typ: Ev;
  start: Mark;
  anchor?: number[];
  tag?: number[];
  value?: number[];
  style?: ScalarStyle;
  flow?: boolean;
}

const enum St {
  StreamStart,
  ImplicitDocumentStart,
  DocumentStart,
  DocumentContent,
  DocumentEnd,
  BlockNode,
  BlockNodeOrIndentlessSequence,
  FlowNode,
  BlockSequenceFirstEntry,
  BlockSequenceEntry,
  IndentlessSequenceEntry,
  BlockMappingFirstKey,
  BlockMappingKey,
  BlockMappingValue,
  FlowSequenceFirstEntry,
  FlowSequenceEntry,
  FlowSequenceEntryMappingKey,
  FlowSequenceEntryMappingValue,
  FlowSequenceEntryMappingEnd,
  FlowMappingFirstKey,
  FlowMappingKey,
  FlowMappingValue,
  FlowMappingEmptyValue,
  End,
}

interface TagDirective {
  handle: number[];
  prefix: number[];
}

const DEFAULT_TAG_DIRECTIVES: TagDirective[] = [
  { handle: [0x21], prefix: [0x21] },
  { handle: [0x21, 0x21], prefix: [...Buffer.from('tag:yaml.org,2002:')] },
];

/** A tag handle as a map key (the directives of a document are looked up by handle, not scanned). */
const handleKey = (handle: readonly number[]) => Buffer.from(handle).toString('latin1');

/**
 * Work and memory per byte of a tag expanded from its directive's prefix (each tagged node copies the prefix:
 * a long prefix and many short tags make far more than the input; the bytes are then made a string the node
 * keeps).
 */
const TAG_UNITS = 64;
const TAG_BYTES = 4;

export class Parser {
  private readonly s: Scanner;
  private state = St.StreamStart;
  private readonly states: St[] = [];
  private readonly marks: Mark[] = [];
  private tagDirectives = new Map<string, TagDirective>();

  /** `meter` is charged for the scanner's and parser's work that grows faster than their input. */
  constructor(
    input: Uint8Array,
    private readonly meter: Meter,
  ) {
    this.s = new Scanner(input, meter);
  }

  get err(): YamlErrorState {
    return this.s.err;
  }

  private peekToken(): Token | undefined {
    if (this.s.tokenAvailable || this.s.fetchMoreTokens()) return this.s.tokens[this.s.tokensHead];
    return undefined;
  }

  private skipToken(): void {
    this.s.tokenAvailable = false;
    this.s.tokensParsed++;
    this.s.streamEndProduced = this.s.tokens[this.s.tokensHead]!.typ === Tok.StreamEnd;
    this.s.tokensHead++;
  }

  private parserError(problem: string, problemMark: Mark): undefined {
    this.err.kind = ErrorKind.Parser;
    this.err.problem = problem;
    this.err.problemMark = problemMark;
    return undefined;
  }

  private parserErrorContext(context: string, contextMark: Mark, problem: string, problemMark: Mark): undefined {
    this.err.kind = ErrorKind.Parser;
    this.err.context = context;
    this.err.contextMark = contextMark;
    this.err.problem = problem;
    this.err.problemMark = problemMark;
    return undefined;
  }

  private popState(): void {
    this.state = this.states.pop()!;
  }

  /** yaml_parser_parse: the next event ({typ: None} at the end), or undefined on an error. */
  parse(): YamlEvent | undefined {
    if (this.s.streamEndProduced || this.err.kind !== ErrorKind.None || this.state === St.End)
      return { typ: Ev.None, start: { index: 0, line: 0, column: 0 } };
    switch (this.state) {
      case St.StreamStart:
        return this.streamStart();
      case St.ImplicitDocumentStart:
        return this.documentStart(true);
      case St.DocumentStart:
        return this.documentStart(false);
      case St.DocumentContent:
        return this.documentContent();
      case St.DocumentEnd:
        return this.documentEnd();
      case St.BlockNode:
        return this.node(true, false);
      case St.BlockNodeOrIndentlessSequence:
        return this.node(true, true);
      case St.FlowNode:
        return this.node(false, false);
      case St.BlockSequenceFirstEntry:
        return this.blockSequenceEntry(true);
      case St.BlockSequenceEntry:
        return this.blockSequenceEntry(false);
      case St.IndentlessSequenceEntry:
        return this.indentlessSequenceEntry();
      case St.BlockMappingFirstKey:
        return this.blockMappingKey(true);
      case St.BlockMappingKey:
        return this.blockMappingKey(false);
      case St.BlockMappingValue:
        return this.blockMappingValue();
      case St.FlowSequenceFirstEntry:
        return this.flowSequenceEntry(true);
      case St.FlowSequenceEntry:
        return this.flowSequenceEntry(false);
      case St.FlowSequenceEntryMappingKey:
        return this.flowSequenceEntryMappingKey();
      case St.FlowSequenceEntryMappingValue:
        return this.flowSequenceEntryMappingValue();
      case St.FlowSequenceEntryMappingEnd:
        return this.flowSequenceEntryMappingEnd();
      case St.FlowMappingFirstKey:
        return this.flowMappingKey(true);
      case St.FlowMappingKey:
        return this.flowMappingKey(false);
      case St.FlowMappingValue:
        return this.flowMappingValue(false);
      case St.FlowMappingEmptyValue:
        return this.flowMappingValue(true);
    }
    throw new Error('invalid parser state');
  }

  private streamStart(): YamlEvent | undefined {
    const token = this.peekToken();
    if (token === undefined) return undefined;
    if (token.typ !== Tok.StreamStart) return this.parserError('did not find expected <stream-start>', token.start);
    this.state = St.ImplicitDocumentStart;
    this.skipToken();
    return { typ: Ev.StreamStart, start: token.start };
  }

  private documentStart(implicit: boolean): YamlEvent | undefined {
    let token = this.peekToken();
    if (token === undefined) return undefined;
    if (!implicit) {
      while (token.typ === Tok.DocumentEnd) {
        this.skipToken();
        token = this.peekToken();
        if (token === undefined) return undefined;
      }
    }
    const directive = token.typ === Tok.VersionDirective || token.typ === Tok.TagDirective;
    if (implicit && !directive && token.typ !== Tok.DocumentStart && token.typ !== Tok.StreamEnd) {
      if (!this.processDirectives()) return undefined;
      this.states.push(St.DocumentEnd);
      this.state = St.BlockNode;
      return { typ: Ev.DocumentStart, start: token.start };
    }
    if (token.typ !== Tok.StreamEnd) {
      const start = token.start;
      if (!this.processDirectives()) return undefined;
      token = this.peekToken();
      if (token === undefined) return undefined;
      if (token.typ !== Tok.DocumentStart)
        return this.parserError('did not find expected <document start>', token.start);
      this.states.push(St.DocumentEnd);
      this.state = St.DocumentContent;
      this.skipToken();
      return { typ: Ev.DocumentStart, start };
    }
    this.state = St.End;
    this.skipToken();
    return { typ: Ev.StreamEnd, start: token.start };
  }

  private documentContent(): YamlEvent | undefined {
    const token = this.peekToken();
    if (token === undefined) return undefined;
    if (
      [Tok.VersionDirective, Tok.TagDirective, Tok.DocumentStart, Tok.DocumentEnd, Tok.StreamEnd].includes(token.typ)
    ) {
      this.popState();
      return emptyScalar(token.start);
    }
    return this.node(true, false);
  }

  private documentEnd(): YamlEvent | undefined {
    const token = this.peekToken();
    if (token === undefined) return undefined;
    const start = token.start;
    if (token.typ === Tok.DocumentEnd) this.skipToken();
    this.tagDirectives = new Map();
    this.state = St.DocumentStart;
    return { typ: Ev.DocumentEnd, start };
  }

  private node(block: boolean, indentlessSequence: boolean): YamlEvent | undefined {
    let token = this.peekToken();
    if (token === undefined) return undefined;
    if (token.typ === Tok.Alias) {
      this.popState();
      this.skipToken();
      return { typ: Ev.Alias, start: token.start, anchor: token.value! };
    }
    let start = token.start;
    let tagToken = false;
    let tagHandle: number[] = [];
    let tagSuffix: number[] = [];
    let anchor: number[] | undefined;
    let tagMark = token.start;
    const next = (): Token | undefined => {
      this.skipToken();
      return this.peekToken();
    };
    if (token.typ === Tok.Anchor) {
      anchor = token.value!;
      start = token.start;
      token = next();
      if (token === undefined) return undefined;
      if (token.typ === Tok.Tag) {
        tagToken = true;
        tagHandle = token.value!;
        tagSuffix = token.suffix!;
        tagMark = token.start;
        token = next();
        if (token === undefined) return undefined;
      }
    } else if (token.typ === Tok.Tag) {
      tagToken = true;
      tagHandle = token.value!;
      tagSuffix = token.suffix!;
      start = token.start;
      tagMark = token.start;
      token = next();
      if (token === undefined) return undefined;
      if (token.typ === Tok.Anchor) {
        anchor = token.value!;
        token = next();
        if (token === undefined) return undefined;
      }
    }
    let tag: number[] = [];
    if (tagToken) {
      if (tagHandle.length === 0) tag = tagSuffix;
      else {
        const d = this.tagDirectives.get(lookupKey(handleKey(tagHandle)));
        if (d !== undefined) {
          const n = d.prefix.length + tagSuffix.length;
          this.meter.spend(TAG_UNITS * n);
          this.meter.build(TAG_BYTES * n);
          tag = d.prefix.concat(tagSuffix);
        }
        if (tag.length === 0)
          return this.parserErrorContext('while parsing a node', start, 'found undefined tag handle', tagMark);
      }
    }
    const ev = (typ: Ev, extra: Partial<YamlEvent> = {}): YamlEvent => {
      const e: YamlEvent = { typ, start, ...extra };
      if (anchor !== undefined) e.anchor = anchor;
      if (tag.length > 0) e.tag = tag;
      return e;
    };
    if (indentlessSequence && token.typ === Tok.BlockEntry) {
      this.state = St.IndentlessSequenceEntry;
      return ev(Ev.SequenceStart, { flow: false });
    }
    if (token.typ === Tok.Scalar) {
      this.popState();
      this.skipToken();
      return ev(Ev.Scalar, { value: token.value!, style: token.style! });
    }
    if (token.typ === Tok.FlowSequenceStart) {
      this.state = St.FlowSequenceFirstEntry;
      return ev(Ev.SequenceStart, { flow: true });
    }
    if (token.typ === Tok.FlowMappingStart) {
      this.state = St.FlowMappingFirstKey;
      return ev(Ev.MappingStart, { flow: true });
    }
    if (block && token.typ === Tok.BlockSequenceStart) {
      this.state = St.BlockSequenceFirstEntry;
      return ev(Ev.SequenceStart, { flow: false });
    }
    if (block && token.typ === Tok.BlockMappingStart) {
      this.state = St.BlockMappingFirstKey;
      return ev(Ev.MappingStart, { flow: false });
    }
    if (anchor !== undefined || tag.length > 0) {
      this.popState();
      return ev(Ev.Scalar, { value: [], style: ScalarStyle.Plain });
    }
    return this.parserErrorContext(
      block ? 'while parsing a block node' : 'while parsing a flow node',
      start,
      'did not find expected node content',
      token.start,
    );
  }

  private blockSequenceEntry(first: boolean): YamlEvent | undefined {
    if (first) {
      const t = this.peekToken();
      if (t === undefined) return undefined;
      this.marks.push(t.start);
      this.skipToken();
    }
    let token = this.peekToken();
    if (token === undefined) return undefined;
    if (token.typ === Tok.BlockEntry) {
      const mark = token.end;
      this.skipToken();
      token = this.peekToken();
      if (token === undefined) return undefined;
      if (token.typ !== Tok.BlockEntry && token.typ !== Tok.BlockEnd) {
        this.states.push(St.BlockSequenceEntry);
        return this.node(true, false);
      }
      this.state = St.BlockSequenceEntry;
      return emptyScalar(mark);
    }
    if (token.typ === Tok.BlockEnd) {
      this.popState();
      this.marks.pop();
      this.skipToken();
      return { typ: Ev.SequenceEnd, start: token.start };
    }
    const contextMark = this.marks.pop()!;
    return this.parserErrorContext(
      'while parsing a block collection',
      contextMark,
      "did not find expected '-' indicator",
      token.start,
    );
  }

  private indentlessSequenceEntry(): YamlEvent | undefined {
    let token = this.peekToken();
    if (token === undefined) return undefined;
    if (token.typ === Tok.BlockEntry) {
      const mark = token.end;
      this.skipToken();
      token = this.peekToken();
      if (token === undefined) return undefined;
      if (![Tok.BlockEntry, Tok.Key, Tok.Value, Tok.BlockEnd].includes(token.typ)) {
        this.states.push(St.IndentlessSequenceEntry);
        return this.node(true, false);
      }
      this.state = St.IndentlessSequenceEntry;
      return emptyScalar(mark);
    }
    this.popState();
    return { typ: Ev.SequenceEnd, start: token.start };
  }

  private blockMappingKey(first: boolean): YamlEvent | undefined {
    if (first) {
      const t = this.peekToken();
      if (t === undefined) return undefined;
      this.marks.push(t.start);
      this.skipToken();
    }
    let token = this.peekToken();
    if (token === undefined) return undefined;
    if (token.typ === Tok.Key) {
      const mark = token.end;
      this.skipToken();
      token = this.peekToken();
      if (token === undefined) return undefined;
      if (token.typ !== Tok.Key && token.typ !== Tok.Value && token.typ !== Tok.BlockEnd) {
        this.states.push(St.BlockMappingValue);
        return this.node(true, true);
      }
      this.state = St.BlockMappingValue;
      return emptyScalar(mark);
    }
    if (token.typ === Tok.BlockEnd) {
      this.popState();
      this.marks.pop();
      this.skipToken();
      return { typ: Ev.MappingEnd, start: token.start };
    }
    const contextMark = this.marks.pop()!;
    return this.parserErrorContext(
      'while parsing a block mapping',
      contextMark,
      'did not find expected key',
      token.start,
    );
  }

  private blockMappingValue(): YamlEvent | undefined {
    let token = this.peekToken();
    if (token === undefined) return undefined;
    if (token.typ === Tok.Value) {
      const mark = token.end;
      this.skipToken();
      token = this.peekToken();
      if (token === undefined) return undefined;
      if (token.typ !== Tok.Key && token.typ !== Tok.Value && token.typ !== Tok.BlockEnd) {
        this.states.push(St.BlockMappingKey);
        return this.node(true, true);
      }
      this.state = St.BlockMappingKey;
      return emptyScalar(mark);
    }
    this.state = St.BlockMappingKey;
    return emptyScalar(token.start);
  }

  private flowSequenceEntry(first: boolean): YamlEvent | undefined {
    if (first) {
      const t = this.peekToken();
      if (t === undefined) return undefined;
      this.marks.push(t.start);
      this.skipToken();
    }
    let token = this.peekToken();
    if (token === undefined) return undefined;
    if (token.typ !== Tok.FlowSequenceEnd) {
      if (!first) {
        if (token.typ !== Tok.FlowEntry) {
          const contextMark = this.marks.pop()!;
          return this.parserErrorContext(
            'while parsing a flow sequence',
            contextMark,
            "did not find expected ',' or ']'",
            token.start,
          );
        }
        this.skipToken();
        token = this.peekToken();
        if (token === undefined) return undefined;
      }
      if (token.typ === Tok.Key) {
        this.state = St.FlowSequenceEntryMappingKey;
        this.skipToken();
        return { typ: Ev.MappingStart, start: token.start, flow: true };
      }
      if (token.typ !== Tok.FlowSequenceEnd) {
        this.states.push(St.FlowSequenceEntry);
        return this.node(false, false);
      }
    }
    this.popState();
    this.marks.pop();
    this.skipToken();
    return { typ: Ev.SequenceEnd, start: token.start };
  }

  private flowSequenceEntryMappingKey(): YamlEvent | undefined {
    const token = this.peekToken();
    if (token === undefined) return undefined;
    if (token.typ !== Tok.Value && token.typ !== Tok.FlowEntry && token.typ !== Tok.FlowSequenceEnd) {
      this.states.push(St.FlowSequenceEntryMappingValue);
      return this.node(false, false);
    }
    const mark = token.end;
    this.skipToken();
    this.state = St.FlowSequenceEntryMappingValue;
    return emptyScalar(mark);
  }

  private flowSequenceEntryMappingValue(): YamlEvent | undefined {
    let token = this.peekToken();
    if (token === undefined) return undefined;
    if (token.typ === Tok.Value) {
      this.skipToken();
      const t = this.peekToken();
      if (t === undefined) return undefined;
      if (t.typ !== Tok.FlowEntry && t.typ !== Tok.FlowSequenceEnd) {
        this.states.push(St.FlowSequenceEntryMappingEnd);
        return this.node(false, false);
      }
    }
    this.state = St.FlowSequenceEntryMappingEnd;
    // As in yaml.v3, the mark is the token seen before skipping the value indicator.
    return emptyScalar(token.start);
  }

  private flowSequenceEntryMappingEnd(): YamlEvent | undefined {
    const token = this.peekToken();
    if (token === undefined) return undefined;
    this.state = St.FlowSequenceEntry;
    return { typ: Ev.MappingEnd, start: token.start };
  }

  private flowMappingKey(first: boolean): YamlEvent | undefined {
    if (first) {
      const t = this.peekToken()!;
      this.marks.push(t.start);
      this.skipToken();
    }
    let token = this.peekToken();
    if (token === undefined) return undefined;
    if (token.typ !== Tok.FlowMappingEnd) {
      if (!first) {
        if (token.typ !== Tok.FlowEntry) {
          const contextMark = this.marks.pop()!;
          return this.parserErrorContext(
            'while parsing a flow mapping',
            contextMark,
            "did not find expected ',' or '}'",
            token.start,
          );
        }
        this.skipToken();
        token = this.peekToken();
        if (token === undefined) return undefined;
      }
      if (token.typ === Tok.Key) {
        this.skipToken();
        token = this.peekToken();
        if (token === undefined) return undefined;
        if (token.typ !== Tok.Value && token.typ !== Tok.FlowEntry && token.typ !== Tok.FlowMappingEnd) {
          this.states.push(St.FlowMappingValue);
          return this.node(false, false);
        }
        this.state = St.FlowMappingValue;
        return emptyScalar(token.start);
      }
      if (token.typ !== Tok.FlowMappingEnd) {
        this.states.push(St.FlowMappingEmptyValue);
        return this.node(false, false);
      }
    }
    this.popState();
    this.marks.pop();
    this.skipToken();
    return { typ: Ev.MappingEnd, start: token.start };
  }

  private flowMappingValue(empty: boolean): YamlEvent | undefined {
    let token = this.peekToken();
    if (token === undefined) return undefined;
    if (empty) {
      this.state = St.FlowMappingKey;
      return emptyScalar(token.start);
    }
    if (token.typ === Tok.Value) {
      this.skipToken();
      token = this.peekToken();
      if (token === undefined) return undefined;
      if (token.typ !== Tok.FlowEntry && token.typ !== Tok.FlowMappingEnd) {
        this.states.push(St.FlowMappingKey);
        return this.node(false, false);
      }
    }
    this.state = St.FlowMappingKey;
    return emptyScalar(token.start);
  }

  private processDirectives(): boolean {
    let versionSeen = false;
    let token = this.peekToken();
    if (token === undefined) return false;
    while (token.typ === Tok.VersionDirective || token.typ === Tok.TagDirective) {
      if (token.typ === Tok.VersionDirective) {
        if (versionSeen) return this.parserError('found duplicate %YAML directive', token.start) ?? false;
        if (token.major !== 1 || token.minor !== 1)
          return this.parserError('found incompatible YAML document', token.start) ?? false;
        versionSeen = true;
      } else if (!this.appendTagDirective({ handle: token.value!, prefix: token.prefix! }, false, token.start))
        return false;
      this.skipToken();
      token = this.peekToken();
      if (token === undefined) return false;
    }
    for (const d of DEFAULT_TAG_DIRECTIVES) if (!this.appendTagDirective(d, true, token.start)) return false;
    return true;
  }

  private appendTagDirective(value: TagDirective, allowDuplicates: boolean, mark: Mark): boolean {
    const key = lookupKey(handleKey(value.handle));
    if (this.tagDirectives.has(key)) {
      if (allowDuplicates) return true;
      return this.parserError('found duplicate %TAG directive', mark) ?? false;
    }
    this.tagDirectives.set(key, { handle: [...value.handle], prefix: [...value.prefix] });
    return true;
  }
}

function emptyScalar(mark: Mark): YamlEvent {
  return { typ: Ev.Scalar, start: mark, value: [], style: ScalarStyle.Plain };
}
