/** Reported by /health and /v1/status; kept in step with package.json by hand on release. */
export const SIDECAR_VERSION = '0.1.0';
