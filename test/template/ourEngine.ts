// Our engine behind the harness's Engine interface, with the production function maps.

import * as api from '../../src/template/index.ts';
import { osmTemplateFuncs, sprigFuncs } from '../../src/sprig/index.ts';
import { makeEngine } from './engine.ts';

export const ourEngine = makeEngine(api, { sprig: sprigFuncs, osm: osmTemplateFuncs });
