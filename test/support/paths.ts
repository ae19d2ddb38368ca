// Locations of shared upstream data (../shared beside the repo) and of our own testdata.
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const SHARED = join(REPO_ROOT, '..', 'shared');
export const UPSTREAM_OSM = join(SHARED, 'upstream', 'osm');
export const TESTDATA = join(REPO_ROOT, 'testdata');
