/**
 * Five projects: `unit` (pure sidecar logic, fast, parallel), `sidecar` (the real
 * sidecar with SQLite and loopback HTTP receivers, no WordPress), `php-db` (the plugin's stores
 * on WordPress's wpdb and MariaDB), `release` (the release
 * artifacts, installed and upgraded) and `e2e` (a real WordPress through @wordpress/env plus
 * a real sidecar, run in band).
 */
const tsJest = [ 'ts-jest', { tsconfig: 'tsconfig.json' } ];

/** @type {import('jest').Config} */
module.exports = {
	reporters: [ 'default', '<rootDir>/tests/support/summary-reporter.js' ],
	// A project-level testTimeout is ignored by jest. One REST call in Playground takes ~0.5 s on
	// an idle machine and several times that on a busy one; the longest e2e tests make ~60 calls.
	// This bounds a hung test, not speed: CI's own limit bounds the run.
	testTimeout: 300000,
	projects: [
		{
			displayName: 'unit',
			testMatch: [ '<rootDir>/tests/unit/**/*.test.ts' ],
			transform: { '^.+\\.tsx?$': tsJest },
			testEnvironment: 'node',
		},
		{
			displayName: 'sidecar',
			testMatch: [ '<rootDir>/tests/sidecar/**/*.test.ts' ],
			transform: { '^.+\\.tsx?$': tsJest },
			testEnvironment: 'node',
		},
		{
			// The plugin's stores in PHP on WordPress's real wpdb and a real MariaDB (PHPUnit, tests/php/db).
			displayName: 'php-db',
			testMatch: [ '<rootDir>/tests/php/db/**/*.test.ts' ],
			transform: { '^.+\\.tsx?$': tsJest },
			testEnvironment: 'node',
		},
		{
			// The release (npm run release, built once by its global setup): artifacts, the sidecar
			// installed from its tarball, and the upgrade from an earlier commit's artifacts on the
			// production runtime (scripts/production). Slow: npm compiles better-sqlite3 per install.
			displayName: 'release',
			testMatch: [ '<rootDir>/tests/release/**/*.test.ts' ],
			transform: { '^.+\\.tsx?$': tsJest },
			testEnvironment: 'node',
			globalSetup: '<rootDir>/tests/release/support/global-setup.ts',
		},
		{
			displayName: 'e2e',
			testMatch: [ '<rootDir>/tests/e2e/**/*.test.ts' ],
			transform: { '^.+\\.tsx?$': tsJest },
			testEnvironment: 'node',
			globalSetup: '<rootDir>/tests/e2e/support/global-setup.ts',
			globalTeardown: '<rootDir>/tests/e2e/support/global-teardown.ts',
			setupFilesAfterEnv: [ '<rootDir>/tests/e2e/support/settle-idle-connections.ts' ],
		},
	],
};
