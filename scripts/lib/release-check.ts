import { execFileSync } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import AdmZip from 'adm-zip';
import { jsonFileName, LOCALES, TEXT_DOMAIN } from './i18n';
import { PLUGIN_SLUG, SIDECAR_PACKAGE, sha256 } from './release-build';
import { headerField, pluginVersionProblems } from './release-version';

/**
 * Checks on built artifacts (the release runs them on what it just made; tests/release and
 * tests/unit/release-version.test.ts on dist/): what must and must not be inside, and that
 * every version they carry is the one expected. Each returns its problems; empty is good.
 */

/** An address left from a template: the documentation domains of RFC 2606 (Plugin Check flags example.com too). */
const PLACEHOLDER = /(^|[/.@])example\.(com|org|net)([/:]|$)/i;

const NEVER_SHIPPED = [
	/(^|\/)node_modules\//,
	/(^|\/)tests?\//,
	/\.tsx?$/,
	/\.map$/,
	/(^|\/)admin\/src\//,
	/(^|\/)\.[^/]+$/,
];

export function zipEntries( zipFile: string ): string[] {
	return new AdmZip( zipFile ).getEntries().map( ( entry ) => entry.entryName );
}

/** Unzips into a temporary folder (the caller removes it). */
export function unzipToTemp( zipFile: string ): string {
	const dir = fs.mkdtempSync( path.join( os.tmpdir(), 'si-release-zip-' ) );
	new AdmZip( zipFile ).extractAllTo( dir, true );
	return dir;
}

export function checkPluginZip( zipFile: string, version: string ): string[] {
	const problems: string[] = [];
	const entries = zipEntries( zipFile );
	for ( const entry of entries ) {
		if ( ! entry.startsWith( `${ PLUGIN_SLUG }/` ) ) {
			problems.push( `${ entry }: outside the ${ PLUGIN_SLUG }/ folder` );
		}
		if ( NEVER_SHIPPED.some( ( pattern ) => pattern.test( entry ) ) ) {
			problems.push( `${ entry }: must not ship` );
		}
	}
	for ( const required of [
		'service-integration.php',
		'uninstall.php',
		'readme.txt',
		'build/index.js',
		'build/index.asset.php',
		'languages/',
		// The translations WordPress loads: the PHP strings' .mo and the admin page's JSON, per locale.
		`languages/${ TEXT_DOMAIN }.pot`,
		...LOCALES.flatMap( ( locale ) => [
			`languages/${ TEXT_DOMAIN }-${ locale }.po`,
			`languages/${ TEXT_DOMAIN }-${ locale }.mo`,
			`languages/${ jsonFileName( locale ) }`,
		] ),
		'includes/autoload.php',
	] ) {
		if ( ! entries.includes( `${ PLUGIN_SLUG }/${ required }` ) ) {
			problems.push( `${ PLUGIN_SLUG }/${ required } is missing` );
		}
	}
	const dir = unzipToTemp( zipFile );
	try {
		const pluginDir = path.join( dir, PLUGIN_SLUG );
		problems.push( ...pluginVersionProblems( pluginDir, version, path.basename( zipFile ) ) );
		const main = fs.existsSync( path.join( pluginDir, 'service-integration.php' ) )
			? fs.readFileSync( path.join( pluginDir, 'service-integration.php' ), 'utf8' )
			: '';
		for ( const field of [ 'WC requires at least', 'WC tested up to' ] ) {
			if ( ! headerField( main, field ) ) {
				problems.push( `service-integration.php has no "${ field }" header` );
			}
		}
		// A placeholder is worse than no field: the plugin has no public page or author page, so
		// those fields are left out rather than filled in (nor has it a WordPress.org account:
		// readme.txt has no Contributors).
		for ( const field of [ 'Plugin URI', 'Author URI', 'Update URI' ] ) {
			const value = headerField( main, field );
			if ( value !== null && PLACEHOLDER.test( value ) ) {
				problems.push( `service-integration.php's "${ field }" is a placeholder (${ value }): leave it out` );
			}
		}
		const readme = fs.existsSync( path.join( pluginDir, 'readme.txt' ) )
			? fs.readFileSync( path.join( pluginDir, 'readme.txt' ), 'utf8' )
			: '';
		for ( const field of [
			'Tags',
			'Requires at least',
			'Tested up to',
			'Requires PHP',
			'Stable tag',
			'License',
		] ) {
			if ( ! headerField( readme, field ) ) {
				problems.push( `readme.txt has no "${ field }:" field` );
			}
		}
		for ( const field of [ 'Donate link' ] ) {
			const value = headerField( readme, field );
			if ( value !== null && PLACEHOLDER.test( value ) ) {
				problems.push( `readme.txt's "${ field }" is a placeholder (${ value }): leave it out` );
			}
		}
		for ( const section of [ 'Description', 'Installation', 'Frequently Asked Questions', 'Changelog' ] ) {
			if ( ! readme.includes( `== ${ section } ==` ) ) {
				problems.push( `readme.txt has no "== ${ section } ==" section` );
			}
		}
		if ( ! /^= External service/m.test( readme ) ) {
			problems.push(
				'readme.txt does not disclose the sidecar as an external service ("= External service... =")'
			);
		}
		if ( ! readme.includes( 'plugin/admin/src/' ) ) {
			problems.push( "readme.txt does not say where the admin page's source lives (plugin/admin/src/)" );
		}
	} finally {
		fs.rmSync( dir, { recursive: true, force: true } );
	}
	return problems;
}

export function tarEntries( tgz: string ): string[] {
	return execFileSync( 'tar', [ '-tzf', tgz ], { encoding: 'utf8' } ).split( '\n' ).filter( Boolean );
}

export function tarFile( tgz: string, entry: string ): string {
	return execFileSync( 'tar', [ '-xzOf', tgz, entry ], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 } );
}

export function checkSidecarTarball(
	tgz: string,
	version: string,
	rootDependencies: Record< string, string >
): string[] {
	const problems: string[] = [];
	const entries = tarEntries( tgz );
	for ( const entry of entries ) {
		const allowed =
			/^package\/(package\.json|README\.md|npm-shrinkwrap\.json|dist\/.+\.js|packaging\/[^/]+\.service)$/.test(
				entry
			);
		if ( ! allowed ) {
			problems.push( `${ entry }: not compiled JavaScript, the unit or package metadata` );
		}
	}
	for ( const required of [
		'package/dist/cli.js',
		'package/dist/main.js',
		`package/packaging/${ SIDECAR_PACKAGE }.service`,
		'package/npm-shrinkwrap.json',
		'package/README.md',
	] ) {
		if ( ! entries.includes( required ) ) {
			problems.push( `${ required } is missing` );
		}
	}
	const pkg = JSON.parse( tarFile( tgz, 'package/package.json' ) ) as {
		name?: string;
		version?: string;
		bin?: Record< string, string >;
		engines?: Record< string, string >;
		dependencies?: Record< string, string >;
		devDependencies?: unknown;
		scripts?: unknown;
	};
	if ( pkg.name !== SIDECAR_PACKAGE ) {
		problems.push( `package.json name is ${ pkg.name }` );
	}
	if ( pkg.version !== version ) {
		problems.push( `package.json version is ${ pkg.version }, expected ${ version }` );
	}
	if ( pkg.bin?.[ SIDECAR_PACKAGE ] !== 'dist/cli.js' ) {
		problems.push(
			`package.json bin is ${ JSON.stringify( pkg.bin ) }, expected { "${ SIDECAR_PACKAGE }": "dist/cli.js" }`
		);
	}
	if ( ! pkg.engines?.node ) {
		problems.push( 'package.json has no engines.node' );
	}
	if ( pkg.devDependencies || pkg.scripts ) {
		problems.push( 'package.json has devDependencies or scripts' );
	}
	for ( const [ name, range ] of Object.entries( pkg.dependencies ?? {} ) ) {
		if ( rootDependencies[ name ] !== range ) {
			problems.push(
				`dependency ${ name }@${ range } is not a runtime dependency of the repository (${ rootDependencies[ name ] ?? 'absent' })`
			);
		}
	}
	if ( ! tarFile( tgz, 'package/dist/cli.js' ).startsWith( '#!/usr/bin/env node\n' ) ) {
		problems.push( 'dist/cli.js has no #!/usr/bin/env node line' );
	}
	return problems;
}

/** Every line of SHA256SUMS matches its file, and every artifact has a line. */
export function checkChecksums( distDir: string, artifacts: string[] ): string[] {
	const problems: string[] = [];
	const lines = fs.readFileSync( path.join( distDir, 'SHA256SUMS' ), 'utf8' ).split( '\n' ).filter( Boolean );
	const listed = new Map( lines.map( ( line ) => [ line.slice( 66 ), line.slice( 0, 64 ) ] ) );
	for ( const file of artifacts ) {
		const expected = listed.get( path.basename( file ) );
		if ( ! expected ) {
			problems.push( `SHA256SUMS has no line for ${ path.basename( file ) }` );
		} else if ( expected !== sha256( file ) ) {
			problems.push( `SHA256SUMS: ${ path.basename( file ) } does not match` );
		}
	}
	return problems;
}
