// Function maps for templates: sprig v3's hermetic functions, and what OSP templates get (sprig + OSM's
// Helm-style extras).
//
// Left out on purpose, so that calling them is a parse error naming the function (a KRM function is
// hermetic and deterministic): now, date*, dateModify, ago, duration*, htmlDate*, unixEpoch, env, expandenv,
// randAlpha*, randAscii, randNumeric, randBytes, randInt, uuidv4, shuffle, genCA*, genPrivateKey,
// genSelfSignedCert*, genSignedCert*, derivePassword, buildCustomCert, encryptAES/decryptAES, bcrypt,
// htpasswd, getHostByName; and fromToml (not implemented yet).
import type { FuncMap } from '../functions.ts';
import { stringFuncs } from './strings.ts';
import { defaultFuncs } from './defaults.ts';
import { collectionFuncs } from './collections.ts';
import { mathFuncs } from './math.ts';
import { encodingFuncs, strictJsonFuncs } from './encoding.ts';
import { semverFuncs } from './semver.ts';
import { regexFuncsTable } from './regex.ts';
import { osmExtraFuncs } from './osmExtras.ts';

const base: FuncMap = {
  ...stringFuncs,
  ...defaultFuncs,
  ...collectionFuncs,
  ...mathFuncs,
  ...encodingFuncs,
  ...semverFuncs,
  ...regexFuncsTable,
};

export const sprigFuncs: FuncMap = Object.freeze({ ...base, ...strictJsonFuncs });

export const osmTemplateFuncs: FuncMap = Object.freeze({ ...sprigFuncs, ...osmExtraFuncs });
