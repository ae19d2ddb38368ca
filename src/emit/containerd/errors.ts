// The one error type of the containerd emitters. Messages name the entry at fault but never carry a
// credential or a mirror URL (which may hold userinfo).
import { ResourceError } from '../../krm/results.ts';

export class ContainerRuntimeConfigError extends ResourceError {
  constructor(message: string, fieldPath?: string) {
    super(message, fieldPath);
    this.name = 'ContainerRuntimeConfigError';
  }
}
