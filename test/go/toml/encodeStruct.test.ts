// Structs through the TOML encoder as BurntSushi/toml v1.6.0 encodes them. Expected texts were printed by
// v1.6.0's Encoder (GOPATH build of the tagged source) on the Go values that the comments show.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeToml, marshalToml } from '../../../src/go/toml/encode.ts';
import { UNMETERED } from '../../../src/go/internal/meter.ts';
import { GoInt, GoPointer, GoStruct, goMap, goNilMap, goNilSlice, goSlice } from '../../../src/go/reflect/value.ts';
import { structTagGet } from '../../../src/go/reflect/structTag.ts';

// type Inner struct { B string `toml:"b"`; A int `toml:"a,omitzero"` }
const INNER_TAGS = { B: 'toml:"b"', A: 'toml:"a,omitzero"' };
const inner = (b: string, a: bigint) => new GoStruct('main.Inner', { B: b, A: a }, undefined, undefined, INNER_TAGS);
const innerPtr = (v: GoStruct | null) => new GoPointer('*main.Inner', v);

// type inl struct { x int; B int; C int `toml:"-"`; D int `toml:"d"` }
const inl = new GoStruct('main.inl', { x: 1n, B: 2n, C: 3n, D: 4n }, undefined, undefined, {
  C: 'toml:"-"',
  D: 'toml:"d"',
});

const T_TAGS = {
  Z: 'toml:"z"',
  Sub: 'toml:"sub"',
  Skip: 'toml:"-"',
  Empty: 'toml:"empty,omitempty"',
  NoName: 'toml:",omitempty"',
  Zero: 'toml:"zero,omitzero"',
  ZeroOE: 'toml:"zero_oe,omitempty"',
  F: 'toml:"f,omitzero"',
  Nil: 'toml:"nil"',
  EmptyPtr: 'toml:"empty_ptr,omitempty"',
  M: 'toml:"m,omitempty"',
  List: 'toml:"list"',
  Key: 'toml:"a key"',
  Arr: 'toml:"arr"',
  ZS: 'toml:"zs,omitempty"',
  NS: 'toml:"ns,omitempty"',
  Mixed: 'toml:"mixed"',
};
const t = new GoStruct(
  'main.T',
  {
    Z: 'z',
    Sub: innerPtr(inner('x', 0n)),
    Skip: 's',
    Empty: '',
    NoName: true,
    Zero: 0n,
    ZeroOE: 0n,
    F: 1.5,
    Nil: innerPtr(null),
    EmptyPtr: innerPtr(inner('', 0n)),
    M: goMap('main.Inner', { 'b.c': inner('1', 0n), a: inner('', 2n) }),
    List: goSlice('main.Inner', [inner('l1', 0n), inner('l2', 3n)]),
    Key: 'k',
    Arr: goSlice('string', ['p', 'q']),
    ZS: inner('', 0n),
    NS: new GoStruct('struct { S []string }', { S: goNilSlice('string') }),
    Mixed: [new GoInt('int64', 1n), inl],
    lower: 'l',
  },
  undefined,
  undefined,
  T_TAGS,
);

test('fields in declaration order, named by their toml tag, plain keys before tables; omitempty, omitzero and "-" as v1.6.0', () => {
  assert.equal(
    encodeToml(t, UNMETERED, ''),
    'z = "z"\nNoName = true\nzero_oe = 0\nf = 1.5\n"a key" = "k"\narr = ["p", "q"]\nmixed = [1, {B = 2d = 4, }]\n\n[sub]\nb = "x"\n\n' +
      '[empty_ptr]\nb = ""\n\n[m]\n[m.a]\nb = ""\na = 2\n[m."b.c"]\nb = "1"\n\n[[list]]\nb = "l1"\n\n[[list]]\nb = "l2"\na = 3\n',
  );
});

test('Indent is written once per level below the top (default two spaces)', () => {
  assert.equal(
    marshalToml(t, UNMETERED),
    'z = "z"\nNoName = true\nzero_oe = 0\nf = 1.5\n"a key" = "k"\narr = ["p", "q"]\nmixed = [1, {B = 2d = 4, }]\n\n[sub]\n  b = "x"\n\n' +
      '[empty_ptr]\n  b = ""\n\n[m]\n  [m.a]\n    b = ""\n    a = 2\n  [m."b.c"]\n    b = "1"\n\n[[list]]\n  b = "l1"\n\n[[list]]\n  b = "l2"\n  a = 3\n',
  );
  const z = new GoStruct('struct { Z int }', { Z: 1n });
  const y = new GoStruct('struct { Y *struct { Z int } }', { Y: new GoPointer('*struct { Z int }', z) });
  assert.equal(
    encodeToml(
      new GoStruct('struct { X *struct { Y *struct { Z int } } }', {
        X: new GoPointer('*struct { Y *struct { Z int } }', y),
      }),
      UNMETERED,
      '\t',
    ),
    '[X]\n\t[X.Y]\n\t\tZ = 1\n',
  );
});

test('an empty or nil map under omitempty is left out; without it a non-nil empty map is an empty table', () => {
  const tags = { M: 'toml:"m,omitempty"', N: 'toml:"n"' };
  assert.equal(
    encodeToml(
      new GoStruct('s', { M: goMap('string', {}), N: goMap('string', {}) }, undefined, undefined, tags),
      UNMETERED,
      '',
    ),
    '[n]\n',
  );
  assert.equal(
    encodeToml(
      new GoStruct('s', { M: goNilMap('string'), N: goNilMap('string') }, undefined, undefined, tags),
      UNMETERED,
      '',
    ),
    '',
  );
});

test('struct tags are read as reflect.StructTag.Get reads them', () => {
  assert.equal(structTagGet('json:"j" toml:"a,omitempty"', 'toml'), 'a,omitempty');
  assert.equal(structTagGet('toml:"a\\tb"', 'toml'), 'a\tb');
  assert.equal(structTagGet('toml:"a"', 'json'), '');
  assert.equal(structTagGet('toml:a', 'toml'), '');
  assert.equal(structTagGet('bad json:"x"', 'json'), '');
  assert.equal(structTagGet('  json:"x"   toml:"y"', 'toml'), 'y');
  assert.equal(structTagGet('toml:"a\nb"', 'toml'), '');
  assert.equal(structTagGet('tomlx:"a" toml:"b"', 'toml'), 'b');
});
