// Function maps for templates: sprig v3's hermetic functions (sprigFuncs), and what OSP templates get
// (osmTemplateFuncs: sprig plus OSM's Helm-style extras, pkg/util/funcmap in OSM).
//
// Left out on purpose, so that calling one is a parse error naming the function (a KRM function must be
// hermetic and deterministic):
//   - clock: now, ago, date, dateInZone/date_in_zone, dateModify/date_modify, mustDateModify/
//     must_date_modify, htmlDate, htmlDateInZone, unixEpoch; toDate and mustToDate (they read the local
//     time zone);
//   - environment and network: env, expandenv, getHostByName;
//   - randomness: randAlpha, randAlphaNum, randAscii, randNumeric, randBytes, randInt, uuidv4, shuffle,
//     genPrivateKey, genCA, genCAWithKey, genSelfSignedCert, genSelfSignedCertWithKey, genSignedCert,
//     genSignedCertWithKey, buildCustomCert, encryptAES, bcrypt, htpasswd (random IVs, keys and salts);
//   - derivePassword (a password manager's derivation; the task leaves it out with the random ones).
// duration, durationRound and decryptAES are pure functions of their arguments and stay.
//
// Versions: OSM builds sprig 3.3.0 with semver 3.4.0, xstrings 1.5.0, mergo 1.0.1, cast 1.7.0 and
// decimal 1.4.0, and that is what we follow. Debian's sprig 3.2.3 (our Go test oracle) differs in:
// sha512sum (3.3.0 only); camelcase (3.2.3 called xstrings' ToCamelCase, 3.3.0 ToPascalCase);
// snakecase/kebabcase word splitting (xstrings 1.3.3); merge/mergeOverwrite of a map over a non-map
// value (mergo 0.3.x kept the old value); semver error texts (capitalised before 3.4.0), hyphen-range
// rewriting and the pre-release rule within AND groups (see semver.ts).
//
// Results carry sprig's Go types (src/go/reflect/value.ts): int64 from the integer arithmetic, []string, []int,
// map[string]string, nil slices and maps where sprig returns nil (null in toJson).
import type { FuncMap } from '../go/reflect/func.ts';
import { stringFuncs } from './strings.ts';
import { defaultFuncs } from './defaults.ts';
import { collectionFuncs } from './collections.ts';
import { mathFuncs } from './math.ts';
import { encodingFuncs, strictJsonFuncs } from './encoding.ts';
import { semverFuncs } from './semver.ts';
import { regexFuncsTable } from './regex.ts';
import { cryptoFuncs } from './crypto.ts';
import { osmExtraFuncs } from './osmExtras.ts';

export const sprigFuncs: FuncMap = Object.freeze({
  ...stringFuncs,
  ...defaultFuncs,
  ...collectionFuncs,
  ...mathFuncs,
  ...encodingFuncs,
  ...strictJsonFuncs,
  ...semverFuncs,
  ...regexFuncsTable,
  ...cryptoFuncs,
});

export const osmTemplateFuncs: FuncMap = Object.freeze({ ...sprigFuncs, ...osmExtraFuncs });
