import { spawnSync } from 'child_process';
import fs from 'fs';

/**
 * Installs missing Debian packages the run needs (Chromium for the browser tests, PHP for
 * the native benchmark runtime) when it may: as root on a machine with apt-get. Anywhere
 * else the caller's error says what to install by hand.
 */
export interface DebianPackages {
	/** What needs them, for messages: "The admin page's browser tests need Chromium at /usr/bin/chromium". */
	need: string;
	packages: string[];
	/** Says whether what is needed is there (checked before and after installing). */
	present: () => boolean;
	/** The manual instructions, appended to every error. */
	howToInstall: string;
	/** False when installing could not help (e.g. the user pointed at another binary). */
	installable?: boolean;
}

export function isRoot(): boolean {
	return typeof process.getuid === 'function' && process.getuid() === 0;
}

export function hasAptGet(): boolean {
	return [ '/usr/bin/apt-get', '/bin/apt-get' ].some( ( candidate ) => fs.existsSync( candidate ) );
}

function run( command: string, args: string[], howToInstall: string ): void {
	process.stdout.write( `\n▸ ${ command } ${ args.join( ' ' ) }\n` );
	const result = spawnSync( command, args, {
		stdio: [ 'ignore', 'inherit', 'inherit' ],
		env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
	} );
	if ( result.status !== 0 ) {
		throw new Error(
			`\`${ command } ${ args.join( ' ' ) }\` failed (exit ${ result.status ?? result.signal }). ${ howToInstall }`
		);
	}
}

/** Returns when `present()` holds, installing the packages first when that is possible. */
export function ensureDebianPackages( wanted: DebianPackages ): void {
	if ( wanted.present() ) {
		return;
	}
	const root = isRoot();
	if ( wanted.installable === false || ! root || ! hasAptGet() ) {
		throw new Error(
			`${ wanted.need } (missing` +
				( root || wanted.installable === false ? '' : ', and this run is not root, so it cannot install it' ) +
				`). ${ wanted.howToInstall }`
		);
	}
	process.stdout.write(
		`\n${ wanted.need } (missing): installing Debian's ${ wanted.packages.join( ' ' ) } (one time, a few minutes).\n`
	);
	run( 'apt-get', [ 'update' ], wanted.howToInstall );
	run( 'apt-get', [ 'install', '-y', '--no-install-recommends', ...wanted.packages ], wanted.howToInstall );
	if ( ! wanted.present() ) {
		throw new Error(
			`apt-get installed ${ wanted.packages.join( ' ' ) } but it is still missing. ${ wanted.howToInstall }`
		);
	}
	process.stdout.write( `  ✓ ${ wanted.packages.join( ' ' ) } installed\n` );
}
