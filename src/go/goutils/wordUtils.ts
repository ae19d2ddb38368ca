// github.com/Masterminds/goutils v1.1.1 (sprig 3.3.0's), wordutils.go: WrapCustom (on bytes), Uncapitalize,
// SwapCase and Initials (which reads each byte as a character of its own), with Go's one-rune-to-one-rune
// case mappings.
import {
  isLower,
  isSpace,
  isSpaceByte,
  isTitle,
  isUpper,
  mapRunes,
  toLower,
  toTitle,
  toUpper,
} from '../unicode/unicode.ts';
import { TextBuilder } from '../internal/textBuilder.ts';
import { goBytes, goString } from '../reflect/byteString.ts';

/** goutils.WrapCustom, on bytes: breaks at the last space that fits; newlines in the input are not special. */
export function wrapCustom(s: string, width: number, newLine: string, wrapLongWords: boolean): string {
  if (s === '') return '';
  if (newLine === '') newLine = '\n';
  const w = width < 1 ? 1 : width;
  const b = goBytes(s);
  const nl = goBytes(newLine);
  // The lines as [start, end) pairs of b, joined by nl at the end (a Buffer per line would cost far more).
  const cuts: number[] = [];
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
      cuts.push(offset, at);
      offset = at + 1;
    } else if (wrapLongWords) {
      cuts.push(offset, w + offset);
      offset += w;
    } else {
      const next = b.indexOf(0x20, w + offset);
      if (next < 0) break;
      cuts.push(offset, next);
      offset = next + 1;
    }
  }
  cuts.push(offset, b.length);
  let size = (cuts.length / 2 - 1) * nl.length;
  for (let i = 0; i < cuts.length; i += 2) size += cuts[i + 1]! - cuts[i]!;
  const out = Buffer.allocUnsafe(size);
  let n = 0;
  for (let i = 0; i < cuts.length; i += 2) {
    if (i > 0) n += nl.copy(out, n);
    n += b.copy(out, n, cuts[i]!, cuts[i + 1]!);
  }
  return goString(out);
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
  const bytes = goBytes(s);
  const out = new TextBuilder();
  let gap = true;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (isSpaceByte(b)) gap = true;
    else if (gap) {
      out.unit(b);
      gap = false;
    }
  }
  return out.toString();
}
