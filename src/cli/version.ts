// The release this build is (`osm-krm --version`); test/cli/commandLine.test.ts keeps it equal to package.json's.
export const VERSION = '0.1.0';
