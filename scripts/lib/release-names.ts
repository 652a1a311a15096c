/** The release's names, apart from release-build.ts so that `npm run release -- --help` loads nothing heavy. */
export const PLUGIN_SLUG = 'service-integration';
export const SIDECAR_PACKAGE = 'service-integration-sidecar';
