import fs from 'fs';
import os from 'os';
import path from 'path';
import { runCli } from '../../sidecar/src/cli';
import { loadConfig, standardConfigDir, standardDataDir } from '../../sidecar/src/config';
import { SIDECAR_VERSION } from '../../sidecar/src/version';

/** Runs the installed command's logic in-process, capturing what it prints. */
function cli( argv: string[], env: NodeJS.ProcessEnv ): { code: number | null; out: string; err: string } {
	let out = '';
	let err = '';
	const stdout = jest
		.spyOn( process.stdout, 'write' )
		.mockImplementation( ( chunk: string | Uint8Array ) => ( ( out += String( chunk ) ), true ) );
	const stderr = jest
		.spyOn( process.stderr, 'write' )
		.mockImplementation( ( chunk: string | Uint8Array ) => ( ( err += String( chunk ) ), true ) );
	try {
		return {
			code: runCli( argv, env, { standardConfigFile: true, name: 'service-integration-sidecar' } ),
			out,
			err,
		};
	} finally {
		stdout.mockRestore();
		stderr.mockRestore();
	}
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

describe( 'service-integration-sidecar command line', () => {
	let dir: string;
	let env: NodeJS.ProcessEnv;
	beforeEach( () => {
		dir = fs.mkdtempSync( path.join( os.tmpdir(), 'si-cli-' ) );
		env = { HOME: path.join( dir, 'home' ), SIDECAR_CONFIG_DIR: path.join( dir, 'etc' ) };
	} );
	afterEach( () => fs.rmSync( dir, { recursive: true, force: true } ) );

	it( 'has --help and --version on every command', () => {
		for ( const command of [ [], [ 'init' ], [ 'start' ], [ 'wp-config' ], [ 'systemd-unit' ] ] ) {
			const help = cli( [ ...command, '--help' ], env );
			expect( help.code ).toBe( 0 );
			expect( help.out ).toContain( `Usage: service-integration-sidecar ${ command[ 0 ] ?? '<command>' }` );
			expect( cli( [ ...command, '--version' ], env ) ).toMatchObject( {
				code: 0,
				out: `${ SIDECAR_VERSION }\n`,
			} );
		}
		expect( cli( [ 'start', '--help' ], env ).out ).toContain( 'SIDECAR_DATA_DIR' );
		expect( cli( [ 'frobnicate' ], env ) ).toMatchObject( {
			code: 2,
			err: expect.stringContaining( 'Unknown command "frobnicate"' ),
		} );
		expect( cli( [ 'init', '--colour' ], env ) ).toMatchObject( {
			code: 2,
			err: expect.stringContaining( 'Unknown argument "--colour" for init' ),
		} );
		expect( cli( [], env ) ).toMatchObject( { code: 2, err: expect.stringContaining( 'a command is needed' ) } );
	} );

	it( 'init writes config.json and a 0600 shared key, and prints the exact wp-config.php lines', () => {
		const result = cli( [ 'init', '--port', '8790', '--wordpress-url=https://shop.example.com' ], env );
		expect( result ).toMatchObject( { code: 0, err: '' } );
		const configFile = path.join( dir, 'etc', 'config.json' );
		const keyFile = path.join( dir, 'etc', 'shared-key' );
		expect( fs.statSync( keyFile ).mode & 0o777 ).toBe( 0o600 );
		const key = fs.readFileSync( keyFile, 'utf8' ).trim();
		expect( key.length ).toBeGreaterThanOrEqual( 32 );
		expect( JSON.parse( fs.readFileSync( configFile, 'utf8' ) ) ).toEqual( {
			host: '127.0.0.1',
			port: 8790,
			sharedKeyFile: keyFile,
			wordpressUrl: 'https://shop.example.com',
		} );
		expect( result.out ).toContain(
			`define( 'SERVICE_INTEGRATION_SIDECAR_URL', 'http://127.0.0.1:8790' );\ndefine( 'SERVICE_INTEGRATION_SIDECAR_KEY', '${ key }' );\n`
		);

		// What `start` will load from it: the same key the lines give WordPress.
		const config = loadConfig( { HOME: env.HOME }, configFile );
		expect( config ).toMatchObject( { port: 8790, sharedKey: key, wordpressUrl: 'https://shop.example.com' } );
		expect( cli( [ 'wp-config', `--config=${ configFile }` ], env ).out ).toBe(
			`define( 'SERVICE_INTEGRATION_SIDECAR_URL', 'http://127.0.0.1:8790' );\ndefine( 'SERVICE_INTEGRATION_SIDECAR_KEY', '${ key }' );\n`
		);

		// A second init must not silently change what WordPress was told.
		expect( cli( [ 'init' ], env ) ).toMatchObject( {
			code: 2,
			err: expect.stringContaining( 'exists; pass --force' ),
		} );
		expect( cli( [ 'init', '--force', '--port', '8791' ], env ).out ).toContain( `'${ key }'` );
		expect( fs.readFileSync( keyFile, 'utf8' ).trim() ).toBe( key );
		cli( [ 'init', '--force', '--new-key' ], env );
		expect( fs.readFileSync( keyFile, 'utf8' ).trim() ).not.toBe( key );
		expect( fs.statSync( keyFile ).mode & 0o777 ).toBe( 0o600 );
	} );

	it( 'init refuses a bad value, naming it, and writes no config', () => {
		expect( cli( [ 'init', '--port', 'eighty' ], env ) ).toMatchObject( {
			code: 2,
			err: expect.stringContaining( '--port must be a port number' ),
		} );
		const bad = cli( [ 'init', '--wordpress-url', 'not a url' ], env );
		expect( bad.code ).toBe( 2 );
		expect( bad.err ).toContain( `"wordpressUrl" in ${ path.join( dir, 'etc', 'config.json' ) }` );
		expect( fs.existsSync( path.join( dir, 'etc', 'config.json' ) ) ).toBe( false );
	} );

	it( 'init listening on every address still gives WordPress a loopback URL', () => {
		expect( cli( [ 'init', '--host', '0.0.0.0' ], env ).out ).toContain( "'http://127.0.0.1:8787'" );
	} );

	it( 'systemd-unit prints the shipped unit with ExecStart on this installation', () => {
		const unit = cli( [ 'systemd-unit' ], env ).out;
		expect( unit ).toMatch(
			/^ExecStart=\S+ \S+ start --config \/etc\/service-integration-sidecar\/config\.json$/m
		);
		expect( unit ).not.toContain( 'ExecStart=/usr/bin/service-integration-sidecar' );
		expect( unit ).toContain( 'ProtectSystem=strict' );
	} );
} );

describe( 'standard places for config, data and logs', () => {
	const sidecarDir = path.resolve( __dirname, '..', '..', 'sidecar' );

	it( "data defaults outside the code: the unit's StateDirectory, else the XDG state folder or /var/lib", () => {
		expect( standardDataDir( { STATE_DIRECTORY: '/var/lib/service-integration-sidecar:/var/lib/other' } ) ).toBe(
			'/var/lib/service-integration-sidecar'
		);
		if ( asRoot ) {
			expect( standardDataDir( { HOME: '/home/someone' } ) ).toBe( '/var/lib/service-integration-sidecar' );
		} else {
			expect( standardDataDir( { HOME: '/home/someone' } ) ).toBe(
				'/home/someone/.local/state/service-integration-sidecar'
			);
			expect( standardDataDir( { HOME: '/home/someone', XDG_STATE_HOME: '/xdg/state' } ) ).toBe(
				'/xdg/state/service-integration-sidecar'
			);
		}
		const config = loadConfig( { SIDECAR_SHARED_KEY: 'k'.repeat( 32 ), HOME: '/home/someone' } );
		expect( config.dataDir ).toBe( standardDataDir( { HOME: '/home/someone' } ) );
		// The old default, sidecar/data inside the code, is what `npm install -g` of an upgrade replaces.
		expect( config.dataDir.startsWith( sidecarDir ) ).toBe( false );
		expect(
			loadConfig( {
				SIDECAR_SHARED_KEY: 'k'.repeat( 32 ),
				SIDECAR_DATA_DIR: '/srv/x',
				STATE_DIRECTORY: '/var/lib/y',
			} ).dataDir
		).toBe( '/srv/x' );
	} );

	it( "config: SIDECAR_CONFIG_DIR, the unit's ConfigurationDirectory, else /etc or the XDG config folder", () => {
		expect( standardConfigDir( { SIDECAR_CONFIG_DIR: '/opt/conf', CONFIGURATION_DIRECTORY: '/etc/x' } ) ).toBe(
			'/opt/conf'
		);
		expect( standardConfigDir( { CONFIGURATION_DIRECTORY: '/etc/service-integration-sidecar' } ) ).toBe(
			'/etc/service-integration-sidecar'
		);
		expect( standardConfigDir( { HOME: '/home/someone', XDG_CONFIG_HOME: '/xdg/config' } ) ).toBe(
			asRoot ? '/etc/service-integration-sidecar' : '/xdg/config/service-integration-sidecar'
		);
	} );

	it( 'a log file is a setting with its own name, reported by that name when bad', () => {
		expect(
			loadConfig( { SIDECAR_SHARED_KEY: 'k'.repeat( 32 ), SIDECAR_LOG_FILE: '/var/log/si.log' } ).logFile
		).toBe( '/var/log/si.log' );
		const file = path.join( fs.mkdtempSync( path.join( os.tmpdir(), 'si-cfg-' ) ), 'config.json' );
		fs.writeFileSync( file, JSON.stringify( { logFile: '' } ) );
		expect( () => loadConfig( { SIDECAR_SHARED_KEY: 'k'.repeat( 32 ) }, file ) ).toThrow(
			`"logFile" in ${ file }`
		);
	} );
} );
