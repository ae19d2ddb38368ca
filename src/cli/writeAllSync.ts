// Whole-buffer synchronous writes to stdout/stderr. process.stdout on a pipe loads Node's net and stream
// modules (~12 ms of start-up, measured); a KRM function writes its output once, so fs.writeSync is enough.
import { writeSync } from 'node:fs';

export function writeAllSync(fd: number, text: string | Uint8Array): void {
  const buffer = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  let offset = 0;
  while (offset < buffer.length) {
    try {
      offset += writeSync(fd, buffer, offset);
    } catch (e) {
      // A non-blocking pipe that is full: wait for the reader, briefly, and go on.
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }
}
