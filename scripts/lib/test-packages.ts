import { PRODUCTION_PACKAGES } from '../production/services';

/**
 * The Debian packages the tests use, in one place: `npm test` installs each group when it needs it
 * (as root; otherwise it names the apt-get command), and `.ci/run` installs them all up front from
 * `npm test -- --debian-packages`.
 */

/** Debian's Chromium, for the admin page's browser tests (tests/e2e/support/browser.ts). */
export const BROWSER_PACKAGE = 'chromium';

/** The commands npm test's own steps run, and the Debian packages that bring them. */
export const TEST_COMMANDS: Readonly< Record< string, string > > = {
	phpunit: 'phpunit',
	'systemd-analyze': 'systemd',
	// Unpacks the WordPress, WooCommerce and Plugin Check builds of ../shared/builds (scripts/lib/builds.ts).
	xz: 'xz-utils',
	// Runs WP-CLI's i18n commands for the translations test (tests/release/translations.test.ts).
	php: 'php8.2-cli',
};

/** Commands of the project's other scripts: `npm run i18n` merges the .po files with gettext's msgmerge. */
export const TOOL_COMMANDS: Readonly< Record< string, string > > = {
	msgmerge: 'gettext',
};

/** Every package above and the production runtime's stack (nginx, PHP-FPM, MariaDB, PHP's CLI). */
export const TEST_PACKAGES: readonly string[] = [
	...new Set( [
		BROWSER_PACKAGE,
		...Object.values( TEST_COMMANDS ),
		...Object.values( TOOL_COMMANDS ),
		...PRODUCTION_PACKAGES,
	] ),
];
