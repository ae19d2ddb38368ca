// github.com/Masterminds/goutils v1.1.1 (sprig 3.3.0's), wordutils.go: WrapCustom (on bytes), Uncapitalize,
// SwapCase and Initials (which reads each byte as a character of its own), with Go's one-rune-to-one-rune
// case mappings.
import { isLower, isSpace, isTitle, isUpper, mapRunes, toLower, toTitle, toUpper } from '../unicode/unicode.ts';
import { goBytes, goString } from '../reflect/byteString.ts';

/** goutils.WrapCustom, on bytes: breaks at the last space that fits; newlines in the input are not special. */
export function wrapCustom(s: string, width: number, newLine: string, wrapLongWords: boolean): string {
  if (s === '') return '';
  if (newLine === '') newLine = '\n';
  const w = width < 1 ? 1 : width;
  const b = goBytes(s);
  const nl = goBytes(newLine);
  const out: Uint8Array[] = [];
  let offset = 0;
  const lastSpace = (from: number, to: number) => {
    for (let i = to - 1; i >= from; i--) if (b[i] === 0x20) return i;
    return -1;
  };
  while (b.length - offset > w) {
    if (b[offset] === 0x20) {
      offset++;
      continue;
    }
    const at = lastSpace(offset, w + offset + 1);
    if (at >= offset) {
      out.push(b.subarray(offset, at), nl);
      offset = at + 1;
    } else if (wrapLongWords) {
      out.push(b.subarray(offset, w + offset), nl);
      offset += w;
    } else {
      const next = b.indexOf(0x20, w + offset);
      if (next < 0) {
        out.push(b.subarray(offset));
        offset = b.length;
      } else {
        out.push(b.subarray(offset, next), nl);
        offset = next + 1;
      }
    }
  }
  out.push(b.subarray(offset));
  return goString(Buffer.concat(out));
}

/** goutils.Uncapitalize: lower-cases the first rune of each whitespace-separated word. */
export function uncapitalize(s: string): string {
  let next = true;
  return mapRunes(s, (r) => {
    if (isSpace(r)) {
      next = true;
      return r;
    }
    if (next) {
      next = false;
      return toLower(r);
    }
    return r;
  });
}

/** goutils.SwapCase: upper and title to lower; lower to title at a word start, else to upper. */
export function swapCase(s: string): string {
  let whitespace = true;
  return mapRunes(s, (r) => {
    if (isUpper(r) || isTitle(r)) {
      whitespace = false;
      return toLower(r);
    }
    if (isLower(r)) {
      const out = whitespace ? toTitle(r) : toUpper(r);
      whitespace = false;
      return out;
    }
    whitespace = isSpace(r);
    return r;
  });
}

/** goutils.Initials: reads bytes as runes; words are separated by whitespace. */
export function initials(s: string): string {
  let out = '';
  let gap = true;
  for (const b of goBytes(s)) {
    if (isSpace(b)) gap = true;
    else if (gap) {
      out += String.fromCharCode(b);
      gap = false;
    }
  }
  return out;
}
