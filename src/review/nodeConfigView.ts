// User-data as a node sees it: the files it writes (path, mode, owner, content), the systemd units and
// drop-ins it installs, and its other settings, decoded by the output format's own module
// (src/emit/userdata/formats/). What `render` prints and `diff` compares; it reads the Secret's bytes, not the
// OSC, because the user-data is what machine-controller hands to the cloud.
import { sniffUserData, type UserDataFormatId } from '../emit/userdata/formats/index.ts';
import type { DecodedUserData, UserDataFormat } from '../emit/userdata/formats/userDataFormat.ts';

export type { NodeFile, NodeUnit } from '../emit/userdata/formats/userDataFormat.ts';

export interface NodeConfigView extends DecodedUserData {
  /** The syntax, as `render` prints it. */
  format: UserDataFormat['syntax'] | 'unknown';
  /** The output format the bytes were read as; unset when they could not be read. */
  formatId?: UserDataFormatId;
  bytes: number;
  /** Set when the user-data could not be read: the view then holds the raw text as one pseudo-file. */
  unreadable?: string;
}

/** The view of `text`, read as `expected` (the format its render chose) when it looks like it, else as what it looks like. */
export function viewUserData(text: string, expected?: UserDataFormat): NodeConfigView {
  const bytes = Buffer.byteLength(text, 'utf8');
  const format = sniffUserData(text, expected);
  if (format === undefined) return rawView(text, bytes, 'neither #cloud-config nor Ignition JSON');
  try {
    return { format: format.syntax, formatId: format.id as UserDataFormatId, bytes, ...format.decode(text) };
  } catch (e) {
    return rawView(
      text,
      bytes,
      (e as Error).name === 'SyntaxError' || (e as Error).name === 'YAMLParseError'
        ? 'not valid JSON or YAML'
        : (e as Error).message,
    );
  }
}

function rawView(text: string, bytes: number, why: string): NodeConfigView {
  return {
    format: 'unknown',
    bytes,
    files: [{ path: '(user-data)', mode: '', owner: '', content: text }],
    units: [],
    settings: [],
    unreadable: why,
  };
}
