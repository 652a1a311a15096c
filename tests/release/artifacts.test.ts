import { spawn, spawnSync } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import {
	checkChecksums,
	checkPluginZip,
	checkSidecarTarball,
	tarFile,
	unzipToTemp,
} from '../../scripts/lib/release-check';
import { parseMo } from '../../scripts/lib/gettext';
import { jsonFileName, SCRIPT_PATH, TEXT_DOMAIN } from '../../scripts/lib/i18n';
import { PLUGIN_SLUG, sha256 } from '../../scripts/lib/release-build';
import { pluginVersionPlaces } from '../../scripts/lib/release-version';
import { apiClient } from '../sidecar/support/api-client';
import { cleanEnv, currentRelease, packageVersion, RELEASE_PORT_BASE } from './support/release';
import { waitUntil } from '../support/wait-until';

/**
 * What `npm run release` made (built once by this project's global setup), as a site owner
 * gets it: the zip's and the package's contents and versions, the checksums, then the package
 * installed with `npm install -g --prefix <temporary folder>` from outside the repository with a
 * clean environment, its command run the way the systemd unit runs it, and the unit it prints
 * checked by systemd-analyze against the installed command.
 */
const SIDECAR_PORT = RELEASE_PORT_BASE + 5;
const ROOT = path.resolve( __dirname, '..', '..' );

describe( 'the release artifacts', () => {
	const release = currentRelease();
	const version = packageVersion();
	const rootDependencies = (
		JSON.parse( fs.readFileSync( path.join( ROOT, 'package.json' ), 'utf8' ) ) as {
			dependencies: Record< string, string >;
		}
	 ).dependencies;

	it( "are named after package.json's version, and SHA256SUMS checks with sha256sum -c", () => {
		expect( release.version ).toBe( version );
		expect( checkChecksums( release.dir, [ release.zip, release.tgz ] ) ).toEqual( [] );
		const check = spawnSync( 'sha256sum', [ '-c', 'SHA256SUMS' ], { cwd: release.dir, encoding: 'utf8' } );
		expect( check.stdout ).toBe( `${ path.basename( release.zip ) }: OK\n${ path.basename( release.tgz ) }: OK\n` );
		expect( check.status ).toBe( 0 );
	} );

	it( "the zip is the plugin folder as wp-admin uploads it, its version everywhere package.json's", () => {
		expect( checkPluginZip( release.zip, version ) ).toEqual( [] );
		const dir = unzipToTemp( release.zip );
		try {
			const plugin = path.join( dir, 'service-integration' );
			expect( fs.readdirSync( dir ) ).toEqual( [ 'service-integration' ] );
			expect( pluginVersionPlaces( plugin ).map( ( place ) => place.value ) ).toEqual( [
				version,
				version,
				version,
			] );
			expect( fs.readdirSync( plugin ).sort() ).toEqual( [
				'build',
				'includes',
				'languages',
				'readme.txt',
				'service-integration.php',
				'uninstall.php',
			] );
			// The built page and what WordPress enqueues it with.
			expect( fs.readFileSync( path.join( plugin, 'build', 'index.asset.php' ), 'utf8' ) ).toMatch(
				/'dependencies' => array\(.*'wp-api-fetch'.*\), 'version' => '[0-9a-f]+'/
			);
			const header = fs.readFileSync( path.join( plugin, 'service-integration.php' ), 'utf8' );
			expect( header ).toMatch( /^ \* WC requires at least: 9\.4$/m );
			expect( header ).toMatch( /^ \* WC tested up to:\s+10\.0$/m );
		} finally {
			fs.rmSync( dir, { recursive: true, force: true } );
		}
	} );

	it( 'the zip carries the French translations: the .mo for the PHP, the JSON for the built admin page', () => {
		const dir = unzipToTemp( release.zip );
		try {
			const languages = path.join( dir, PLUGIN_SLUG, 'languages' );
			expect( fs.readdirSync( languages ).sort() ).toEqual(
				expect.arrayContaining( [
					`${ TEXT_DOMAIN }.pot`,
					`${ TEXT_DOMAIN }-fr_FR.po`,
					`${ TEXT_DOMAIN }-fr_FR.mo`,
					jsonFileName( 'fr_FR' ),
				] )
			);
			// What the tree's npm run i18n made, unchanged.
			for ( const name of [ `${ TEXT_DOMAIN }-fr_FR.mo`, jsonFileName( 'fr_FR' ) ] ) {
				expect( sha256( path.join( languages, name ) ) ).toBe(
					sha256( path.join( ROOT, 'plugin', 'languages', name ) )
				);
			}
			// The .mo translates the PHP strings (the priority select's labels among them).
			const mo = parseMo( fs.readFileSync( path.join( languages, `${ TEXT_DOMAIN }-fr_FR.mo` ) ) );
			expect( mo.headers[ 'Plural-Forms' ] ).toBe( 'nplurals=2; plural=(n > 1);' );
			expect( mo.translations.get( 'manufacturing order priority\u0004High' )?.msgstr ).toEqual( [ 'Haute' ] );
			// The JSON is named after the script the zip ships (build/index.js), and covers its strings.
			const json = JSON.parse( fs.readFileSync( path.join( languages, jsonFileName( 'fr_FR' ) ), 'utf8' ) ) as {
				source: string;
				locale_data: { messages: Record< string, string[] > };
			};
			expect( json.source ).toBe( SCRIPT_PATH );
			const script = fs.readFileSync( path.join( dir, PLUGIN_SLUG, SCRIPT_PATH ), 'utf8' );
			for ( const [ msgid, msgstr ] of [
				[ 'Outbound endpoints', 'Webhooks sortants' ],
				[ 'Least-privilege check', 'Vérification du moindre privilège' ],
			] as const ) {
				expect( script ).toContain( msgid );
				expect( json.locale_data.messages[ msgid ] ).toEqual( [ msgstr ] );
			}
		} finally {
			fs.rmSync( dir, { recursive: true, force: true } );
		}
	} );

	it( 'the tarball is the sidecar alone: compiled JS, the unit, runtime dependencies pinned to what the lock tested', () => {
		expect( checkSidecarTarball( release.tgz, version, rootDependencies ) ).toEqual( [] );
		const shrinkwrap = JSON.parse( tarFile( release.tgz, 'package/npm-shrinkwrap.json' ) ) as {
			packages: Record< string, { version?: string; dev?: boolean } >;
		};
		const lock = JSON.parse( fs.readFileSync( path.join( ROOT, 'package-lock.json' ), 'utf8' ) ) as {
			packages: Record< string, { version?: string } >;
		};
		for ( const [ location, entry ] of Object.entries( shrinkwrap.packages ) ) {
			if ( location !== '' ) {
				expect( { location, version: entry.version, dev: entry.dev } ).toEqual( {
					location,
					version: lock.packages[ location ]?.version,
					dev: undefined,
				} );
			}
		}
		expect( Object.keys( shrinkwrap.packages ) ).not.toContain( 'node_modules/typescript' );
	} );

	describe( 'installed with npm install -g into a temporary prefix, from outside the repository', () => {
		let work: string;
		let bin: string;
		beforeAll( () => {
			work = fs.mkdtempSync( path.join( os.tmpdir(), 'si-release-install-' ) );
			const prefix = path.join( work, 'prefix' );
			fs.mkdirSync( prefix );
			const install = spawnSync(
				'npm',
				[ 'install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', release.tgz ],
				{
					cwd: work,
					env: cleanEnv(),
					encoding: 'utf8',
					// spawnSync blocks jest's own timer: the install bounds itself (better-sqlite3 compiles for 1-10 min).
					timeout: 1_200_000,
				}
			);
			if ( install.status !== 0 ) {
				throw new Error(
					`npm install -g failed (exit ${ install.status }):\n${ install.stdout }${ install.stderr }`
				);
			}
			bin = path.join( prefix, 'bin', 'service-integration-sidecar' );
		}, 1_300_000 );
		afterAll( () => fs.rmSync( work, { recursive: true, force: true } ) );

		it( 'gives a service-integration-sidecar command, with runtime dependencies only', () => {
			expect( fs.realpathSync( bin ) ).toBe(
				path.join( work, 'prefix', 'lib', 'node_modules', 'service-integration-sidecar', 'dist', 'cli.js' )
			);
			const run = spawnSync( bin, [ '--version' ], { env: cleanEnv(), encoding: 'utf8' } );
			expect( run.stdout ).toBe( `${ version }\n` );
			const installed = path.join( work, 'prefix', 'lib', 'node_modules', 'service-integration-sidecar' );
			expect( fs.readdirSync( installed ).sort() ).toEqual( [
				'README.md',
				'dist',
				'node_modules',
				'npm-shrinkwrap.json',
				'package.json',
				'packaging',
			] );
			expect(
				fs.existsSync(
					path.join( installed, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node' )
				)
			).toBe( true );
			for ( const devOnly of [ 'typescript', 'ts-node', 'jest', '@wordpress/scripts', 'adm-zip' ] ) {
				expect( fs.existsSync( path.join( installed, 'node_modules', devOnly ) ) ).toBe( false );
			}
		} );

		it( 'init, then start as the systemd unit would (state, configuration and credentials folders), answers with its version', async () => {
			const etc = path.join( work, 'etc' );
			const init = spawnSync( bin, [ 'init', '--port', String( SIDECAR_PORT ) ], {
				env: cleanEnv( { SIDECAR_CONFIG_DIR: etc } ),
				encoding: 'utf8',
			} );
			expect( init.status ).toBe( 0 );
			const key = fs.readFileSync( path.join( etc, 'shared-key' ), 'utf8' ).trim();
			expect( fs.statSync( path.join( etc, 'shared-key' ) ).mode & 0o777 ).toBe( 0o600 );
			expect( init.stdout ).toContain( `define( 'SERVICE_INTEGRATION_SIDECAR_KEY', '${ key }' );` );

			// The unit's ExecStart and Environment= lines, with systemd's folders made here.
			const unit = spawnSync( bin, [ 'systemd-unit' ], { env: cleanEnv(), encoding: 'utf8' } ).stdout;
			const execStart = /^ExecStart=(.+)$/m.exec( unit )?.[ 1 ]?.split( ' ' ) as string[];
			expect( execStart.slice( 0, 4 ) ).toEqual( [
				bin,
				'start',
				'--config',
				'/etc/service-integration-sidecar/config.json',
			] );
			const credentials = path.join( work, 'credentials' );
			fs.mkdirSync( credentials );
			fs.copyFileSync( path.join( etc, 'shared-key' ), path.join( credentials, 'shared-key' ) );
			const unitEnv = Object.fromEntries(
				[ ...unit.matchAll( /^Environment="?([A-Z_]+)=(.*?)"?$/gm ) ].map( ( match ) => [
					match[ 1 ] as string,
					( match[ 2 ] as string ).replace( '%d', credentials ),
				] )
			);
			expect( unitEnv ).toEqual( {
				NODE_OPTIONS: '--max-old-space-size=96 --max-semi-space-size=1',
				SIDECAR_SHARED_KEY_FILE: path.join( credentials, 'shared-key' ),
			} );
			const state = path.join( work, 'state' );
			fs.mkdirSync( state );
			const log = path.join( work, 'sidecar.log' );
			const out = fs.openSync( log, 'a' );
			const child = spawn( bin, [ 'start', '--config', path.join( etc, 'config.json' ) ], {
				cwd: '/',
				stdio: [ 'ignore', out, out ],
				env: cleanEnv( {
					...unitEnv,
					STATE_DIRECTORY: state,
					CONFIGURATION_DIRECTORY: etc,
					CREDENTIALS_DIRECTORY: credentials,
				} ),
			} );
			fs.closeSync( out );
			const exited = new Promise< number | null >( ( resolve ) =>
				child.once( 'exit', ( code ) => resolve( code ) )
			);
			try {
				let health: { status?: string; version?: string; pid?: number } = {};
				await waitUntil(
					async () => {
						health = await fetch( `http://127.0.0.1:${ SIDECAR_PORT }/health` ).then(
							( r ) => r.json() as Promise< typeof health >,
							() => ( {} )
						);
						if ( child.exitCode !== null ) {
							throw new Error( `the installed sidecar exited: ${ fs.readFileSync( log, 'utf8' ) }` );
						}
						return health.pid === child.pid;
					},
					30_000,
					'the installed sidecar answering /health',
					250
				);
				expect( health ).toEqual( { status: 'ok', version, pid: child.pid } );
				// The signed API answers with the key init wrote (read from the credentials folder).
				const status = await apiClient( `http://127.0.0.1:${ SIDECAR_PORT }`, key )( 'GET', '/v1/status' );
				expect( status.status ).toBe( 200 );
				expect( status.body.version ).toBe( version );
				expect(
					( await apiClient( `http://127.0.0.1:${ SIDECAR_PORT }`, 'x'.repeat( 32 ) )( 'GET', '/v1/status' ) )
						.status
				).toBe( 401 );
				// The database went to the unit's StateDirectory, nowhere near the installed code.
				expect( fs.existsSync( path.join( state, 'sidecar.db' ) ) ).toBe( true );
				const lines = fs
					.readFileSync( log, 'utf8' )
					.split( '\n' )
					.filter( Boolean )
					.map( ( line ) => JSON.parse( line ) as Record< string, unknown > );
				expect( lines.filter( ( line ) => line.msg === 'sidecar listening' ) ).toEqual( [
					expect.objectContaining( { version, dataDir: state, configFile: path.join( etc, 'config.json' ) } ),
				] );
			} finally {
				child.kill( 'SIGTERM' );
			}
			expect( await exited ).toBe( 0 );
		}, 120_000 );

		it( 'prints a systemd unit that systemd-analyze verify accepts with ExecStart on the installed command', () => {
			const unitFile = path.join( work, 'service-integration-sidecar.service' );
			fs.writeFileSync(
				unitFile,
				spawnSync( bin, [ 'systemd-unit' ], { env: cleanEnv(), encoding: 'utf8' } ).stdout
			);
			expect( fs.readFileSync( unitFile, 'utf8' ) ).toContain( `ExecStart=${ bin } start ` );
			const verify = spawnSync( 'systemd-analyze', [ 'verify', unitFile ], { encoding: 'utf8' } );
			expect( { status: verify.status, output: `${ verify.stdout }${ verify.stderr }`.trim() } ).toEqual( {
				status: 0,
				output: '',
			} );
		} );
	} );
} );
