import { spawnSync } from 'child_process';
import { ensureDebianPackages } from '../../scripts/lib/debian-packages';

/**
 * Native PHP for the benchmarks' native runtime: Debian's php8.2-cli (its built-in web
 * server) with the extensions WordPress on SQLite needs. PHP_BINARY picks another binary.
 */
export const PHP_BINARY = process.env.PHP_BINARY || 'php';
export const PHP_PACKAGES = [ 'php8.2-cli', 'php8.2-sqlite3', 'php8.2-mbstring', 'php8.2-xml', 'php8.2-curl' ];
/**
 * pdo_sqlite for the SQLite integration, mbstring and dom/xml for WordPress itself, curl for
 * its HTTP API as on production servers (without it, calls to the sidecar take Requests'
 * slower socket transport and the inbound route would be measured on a path sites do not run).
 */
const REQUIRED_EXTENSIONS = [ 'pdo_sqlite', 'mbstring', 'dom', 'xml', 'curl' ];

const HOW_TO_INSTALL = `Install it with \`sudo apt-get install -y ${ PHP_PACKAGES.join( ' ' ) }\` (Debian/Ubuntu), or point PHP_BINARY at a PHP 8.2 CLI with ${ REQUIRED_EXTENSIONS.join( ', ' ) }.`;

interface PhpInfo {
	version: string;
	extensions: string[];
}

function probe(): PhpInfo | undefined {
	const result = spawnSync(
		PHP_BINARY,
		[ '-r', 'echo PHP_VERSION, "\\n", implode( ",", get_loaded_extensions() );' ],
		{ encoding: 'utf8' }
	);
	if ( result.status !== 0 ) {
		return undefined;
	}
	const [ version = '', extensions = '' ] = result.stdout.trim().split( '\n' );
	return { version, extensions: extensions.toLowerCase().split( ',' ) };
}

function missing( info: PhpInfo | undefined ): string[] {
	return info ? REQUIRED_EXTENSIONS.filter( ( name ) => ! info.extensions.includes( name ) ) : [ 'php' ];
}

/** Returns the PHP binary and its version, installing Debian's packages first when that is possible. */
export function ensurePhp(): { binary: string; version: string } {
	const before = missing( probe() );
	ensureDebianPackages( {
		need: before.includes( 'php' )
			? `The native WordPress runtime needs PHP 8.2 (${ PHP_BINARY })`
			: `The native WordPress runtime needs PHP's ${ before.join( ', ' ) } (${ PHP_BINARY })`,
		packages: PHP_PACKAGES,
		present: () => missing( probe() ).length === 0,
		howToInstall: HOW_TO_INSTALL,
		installable: PHP_BINARY === 'php',
	} );
	return { binary: PHP_BINARY, version: ( probe() as PhpInfo ).version };
}
