// Boot test A: osp-ubuntu, IPv4, the function's defaults (test/boot/ubuntuScenario.ts), plus the impostor API
// server and a download with the wrong checksum.
import { bootScenario } from './ubuntuScenario.ts';

bootScenario({ name: 'boot-a', ipFamily: 'IPv4', negativeChecks: true });
