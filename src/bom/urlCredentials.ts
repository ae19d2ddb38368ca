// A URL as the bill of materials prints it: a password in it (`user:password@`) or a query parameter that
// carries a credential (token, signature, key...) is replaced by <masked>, whatever the mask knows; the rest
// stays, so the item can still be mirrored.
import { MASKED } from '../krm/redactSecrets.ts';

const CREDENTIAL_PARAMETER =
  /^(?:.*token|.*secret|.*password|passwd|sig|signature|x-amz-signature|x-amz-credential|x-goog-signature|key|apikey|api_key|access_key|auth)$/i;

export function withoutUrlCredentials(url: string): string {
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/[^/@:\s]*):[^/@\s]*@/i, `$1:${MASKED}@`)
    .replace(/([?&])([^=&#\s]+)=([^&#\s]*)/g, (m, sep: string, name: string, value: string) =>
      CREDENTIAL_PARAMETER.test(name) && value !== '' ? `${sep}${name}=${MASKED}` : m,
    );
}
