// Boot test A: osp-ubuntu, IPv4, the function's defaults (test/boot/ubuntuScenario.ts), plus the impostor API
// server, a download with the wrong checksum, setup's failures a user must understand (test/boot/setupFailures.ts),
// a package whose unpacking was cut off (test/boot/packageRecovery.ts), and the bootstrap's retries against an API
// server that is down or refuses (test/boot/bootstrapRetries.ts).
import { bootScenario } from './ubuntuScenario.ts';
import { setupFailureTests } from './setupFailures.ts';
import { bootstrapRetryTests } from './bootstrapRetries.ts';
import { packageRecoveryTests } from './packageRecovery.ts';

bootScenario({
  name: 'boot-a',
  ipFamily: 'IPv4',
  negativeChecks: true,
  tests: (dir) => [...setupFailureTests(dir), ...packageRecoveryTests(), ...bootstrapRetryTests(dir)],
});
