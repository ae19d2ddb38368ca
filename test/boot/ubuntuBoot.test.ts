// Boot test A: osp-ubuntu, IPv4, the function's defaults (test/boot/ubuntuScenario.ts), plus the impostor API
// server, a download with the wrong checksum, and setup's failures a user must understand (test/boot/setupFailures.ts);
// the MachineDeployment names the worked overlay on osp-ubuntu (test/boot/companyOverlay.ts).
import { bootScenario } from './ubuntuScenario.ts';
import { setupFailureTests } from './setupFailures.ts';
import { companyOverlayScenario } from './companyOverlay.ts';

bootScenario({ name: 'boot-a', ipFamily: 'IPv4', negativeChecks: true, tests: setupFailureTests, ...companyOverlayScenario() });
