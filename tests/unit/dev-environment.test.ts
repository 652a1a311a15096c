import { spawnSync } from 'child_process';
import { EventEmitter } from 'events';
import type { ChildProcess } from 'child_process';
import fs from 'fs';
import path from 'path';
import { envFlag } from '../../scripts/lib/cli-args';
import { commandFor, emptyEnvironment, sidecarStoppedFile } from '../../scripts/lib/dev-environment';
import { superviseSidecar, type SidecarEvents } from '../../scripts/lib/dev-sidecar';
import { environmentDir, LOCAL_MU_PLUGINS_DIR, ROOT } from '../../scripts/lib/paths';
import { sidecarEnvironment, sidecarSettings, withoutSidecarSettings } from '../../scripts/lib/sidecar-process';
import { environmentMappings } from '../../scripts/lib/wp-env';

/** An environment folder of this test's own under .cache/environments, removed after each test. */
const NAME = `unit-dev-environment-${ process.pid }`;
const DIR = environmentDir( NAME );
afterEach( () => fs.rmSync( DIR, { recursive: true, force: true } ) );

describe( 'the settings a sidecar started again by npm run sidecar -- start runs with', () => {
	const options = {
		port: 9211,
		dataDir: '/env/sidecar-data',
		sharedKeyFile: '/env/shared-key',
		logFile: '/env/sidecar.log',
		extraEnv: { SIDECAR_WORDPRESS_URL: 'http://localhost:9210' },
	};
	const startShell = { PATH: '/bin', HOME: '/root', SIDECAR_LOG_LEVEL: 'debug', SIDECAR_PORT: '1' };
	const recorded = sidecarSettings( sidecarEnvironment( options, startShell ) );

	it( 'are recorded from its options and from the shell that ran npm start, the options winning', () => {
		expect( recorded ).toEqual( {
			SIDECAR_HOST: '127.0.0.1',
			SIDECAR_PORT: '9211',
			SIDECAR_DATA_DIR: '/env/sidecar-data',
			SIDECAR_SHARED_KEY_FILE: '/env/shared-key',
			SIDECAR_WORDPRESS_URL: 'http://localhost:9210',
			SIDECAR_LOG_LEVEL: 'debug',
		} );
	} );

	it( "are exactly the recorded ones, none of the shell's that starts it again", () => {
		const laterShell = { PATH: '/usr/bin', SIDECAR_LOG_LEVEL: 'fatal', SIDECAR_METRICS_PORT: '9999' };
		const env = sidecarEnvironment( { ...options, extraEnv: recorded }, withoutSidecarSettings( laterShell ) );
		expect( sidecarSettings( env ) ).toEqual( recorded );
		expect( env.PATH ).toBe( '/usr/bin' );
	} );
} );

describe( 'the environment named on the command line', () => {
	it( 'is dev by default, or a folder name given with --env', () => {
		expect( envFlag( {} ) ).toBe( 'dev' );
		expect( envFlag( { env: 'e2e-devenv' } ) ).toBe( 'e2e-devenv' );
		expect( () => envFlag( { env: '../elsewhere' } ) ).toThrow( /--env must name an environment folder/ );
		expect( () => envFlag( { env: true } ) ).toThrow( /--env must name an environment folder/ );
	} );

	it( 'is in the commands the scripts suggest only when it is not dev, after the `--` npm needs', () => {
		expect( commandFor( 'dev', 'npm stop' ) ).toBe( 'npm stop' );
		expect( commandFor( 'other', 'npm stop' ) ).toBe( 'npm stop -- --env=other' );
		expect( commandFor( 'other', 'npm run sidecar -- start' ) ).toBe( 'npm run sidecar -- start --env=other' );
	} );
} );

describe( 'npm start -- --fresh', () => {
	it( "empties the site, the sidecar's data and the admin application password, and keeps the rest", () => {
		const files = {
			site: path.join( DIR, 'wordpress', 'wp-content', 'database', '.ht.sqlite' ),
			sidecarData: path.join( DIR, 'sidecar-data', 'sidecar.db' ),
			password: path.join( DIR, 'admin-application-password' ),
			sharedKey: path.join( DIR, 'shared-key' ),
			log: path.join( DIR, 'sidecar.log' ),
		};
		for ( const file of Object.values( files ) ) {
			fs.mkdirSync( path.dirname( file ), { recursive: true } );
			fs.writeFileSync( file, 'old\n' );
		}
		const line = emptyEnvironment( NAME );
		expect( fs.existsSync( path.join( DIR, 'wordpress' ) ) ).toBe( false );
		expect( fs.existsSync( path.join( DIR, 'sidecar-data' ) ) ).toBe( false );
		expect( fs.existsSync( files.password ) ).toBe( false );
		expect( fs.existsSync( files.sharedKey ) ).toBe( true );
		expect( fs.existsSync( files.log ) ).toBe( true );
		expect( line ).toBe(
			`fresh start: emptied the site (WordPress and its SQLite database, .cache/environments/${ NAME }/wordpress), ` +
				`the sidecar's data (.cache/environments/${ NAME }/sidecar-data) and the admin application password`
		);
	} );
} );

describe( 'must-use plugins of one’s own', () => {
	it( "are mounted from a folder of one's own beside the local environment's, which keep wp-content/mu-plugins", () => {
		const mappings = environmentMappings( { localMuPluginsDir: LOCAL_MU_PLUGINS_DIR } );
		expect( mappings[ 'wp-content/mu-plugins' ] ).toBe( path.join( ROOT, 'scripts', 'wp-env', 'mu-plugins' ) );
		expect( mappings[ 'wp-content/local-mu-plugins' ] ).toBe( LOCAL_MU_PLUGINS_DIR );
		expect( environmentMappings( {} ) ).not.toHaveProperty( [ 'wp-content/local-mu-plugins' ] );
	} );

	it( 'go in local-mu-plugins/, which git ignores but for its README', () => {
		const ignored = ( file: string ) =>
			spawnSync( 'git', [ 'check-ignore', '--quiet', path.join( 'local-mu-plugins', file ) ], { cwd: ROOT } )
				.status;
		expect( ignored( 'my-plugin.php' ) ).toBe( 0 );
		expect( ignored( 'README.md' ) ).toBe( 1 );
	} );
} );

describe( "npm start's watch on its sidecar", () => {
	const events = () => ( { stopped: jest.fn(), started: jest.fn(), crashed: jest.fn() } ) satisfies SidecarEvents;

	it( 'reports an exit nobody asked for as a crash, with its exit code', () => {
		const child = new EventEmitter() as ChildProcess;
		const seen = events();
		const unwatch = superviseSidecar( NAME, child, seen );
		child.emit( 'exit', 1, null );
		unwatch();
		expect( seen.crashed ).toHaveBeenCalledWith( 'the sidecar exited with code 1' );
		expect( seen.stopped ).not.toHaveBeenCalled();
	} );

	it( 'reports an exit after npm run sidecar -- stop as a stop, and npm start keeps running', () => {
		fs.mkdirSync( DIR, { recursive: true } );
		fs.writeFileSync( sidecarStoppedFile( NAME ), 'stopped on purpose\n' );
		const child = new EventEmitter() as ChildProcess;
		const seen = events();
		const unwatch = superviseSidecar( NAME, child, seen );
		child.emit( 'exit', null, 'SIGTERM' );
		unwatch();
		expect( seen.stopped ).toHaveBeenCalledTimes( 1 );
		expect( seen.crashed ).not.toHaveBeenCalled();
	} );
} );
