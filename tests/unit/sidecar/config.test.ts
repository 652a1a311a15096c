import fs from 'fs';
import os from 'os';
import path from 'path';
import {
	CONFIG_SCHEMA,
	ConfigError,
	SETTINGS,
	describeSettings,
	loadConfig,
	redactDatabaseUrl,
} from '../../../sidecar/src/config';

const KEY = { SIDECAR_SHARED_KEY: 'k'.repeat( 32 ) };

describe( 'sidecar configuration', () => {
	it( 'applies safe defaults: loopback only, a 1 MiB body bound', () => {
		const config = loadConfig( KEY );
		expect( config.host ).toBe( '127.0.0.1' );
		expect( config.port ).toBe( 8787 );
		expect( config.maxBodyBytes ).toBe( 1024 * 1024 );
		expect( config.allowPrivateCidrs ).toEqual( [] );
	} );

	it( 'names the bad environment variable', () => {
		expect( () => loadConfig( { ...KEY, SIDECAR_PORT: 'eighty' } ) ).toThrow( /SIDECAR_PORT/ );
		expect( () => loadConfig( { ...KEY, SIDECAR_LOG_LEVEL: 'loud' } ) ).toThrow( /SIDECAR_LOG_LEVEL/ );
		expect( () => loadConfig( { ...KEY, SIDECAR_WORDPRESS_URL: 'not a url' } ) ).toThrow( /SIDECAR_WORDPRESS_URL/ );
	} );

	it( "reads SQLite's page cache size in MB: 2 by default, 1 to 1024, whole numbers", () => {
		expect( loadConfig( KEY ).sqliteCacheMb ).toBe( 2 );
		expect( loadConfig( { ...KEY, SIDECAR_SQLITE_CACHE_MB: '16' } ).sqliteCacheMb ).toBe( 16 );
		for ( const bad of [ '0', '1025', '1.5', 'big' ] ) {
			expect( () => loadConfig( { ...KEY, SIDECAR_SQLITE_CACHE_MB: bad } ) ).toThrow( /SIDECAR_SQLITE_CACHE_MB/ );
		}
	} );

	it( 'requires a shared key and refuses a short one', () => {
		expect( () => loadConfig( {} ) ).toThrow( ConfigError );
		expect( () => loadConfig( { SIDECAR_SHARED_KEY: 'short' } ) ).toThrow(
			/SIDECAR_SHARED_KEY: must be at least 16/
		);
	} );

	it( 'reads the key from a file, trimmed', () => {
		const file = path.join( fs.mkdtempSync( path.join( os.tmpdir(), 'sidecar-' ) ), 'key' );
		fs.writeFileSync( file, 'a'.repeat( 40 ) + '\n' );
		expect( loadConfig( { SIDECAR_SHARED_KEY_FILE: file } ).sharedKey ).toBe( 'a'.repeat( 40 ) );
		expect( () => loadConfig( { SIDECAR_SHARED_KEY_FILE: file + '.missing' } ) ).toThrow(
			/SIDECAR_SHARED_KEY_FILE: cannot read/
		);
	} );

	it( 'reads a JSON file, lets the environment win, and names a bad or unknown file key', () => {
		const dir = fs.mkdtempSync( path.join( os.tmpdir(), 'sidecar-' ) );
		const file = path.join( dir, 'config.json' );
		fs.writeFileSync( file, JSON.stringify( { port: 9000, logLevel: 'debug' } ) );
		expect( loadConfig( { ...KEY, SIDECAR_CONFIG: file } ) ).toMatchObject( { port: 9000, logLevel: 'debug' } );
		expect( loadConfig( { ...KEY, SIDECAR_CONFIG: file, SIDECAR_PORT: '9001' } ).port ).toBe( 9001 );

		fs.writeFileSync( file, JSON.stringify( { port: -1 } ) );
		expect( () => loadConfig( KEY, file ) ).toThrow( /"port" in .*config\.json/ );
		fs.writeFileSync( file, JSON.stringify( { prot: 1 } ) );
		expect( () => loadConfig( KEY, file ) ).toThrow( /Unknown key "prot"/ );
		fs.writeFileSync( file, '{ not json' );
		expect( () => loadConfig( KEY, file ) ).toThrow( /Cannot read config file/ );
	} );

	it( 'clears payloads after 30 days, or the metadata retention if shorter, and refuses a longer payload retention', () => {
		expect( loadConfig( KEY ).payloadRetentionDays ).toBe( 30 );
		expect( loadConfig( { ...KEY, SIDECAR_RETENTION_DAYS: '7' } ).payloadRetentionDays ).toBe( 7 );
		expect(
			loadConfig( { ...KEY, SIDECAR_RETENTION_DAYS: '90', SIDECAR_PAYLOAD_RETENTION_DAYS: '14' } )
		).toMatchObject( { retentionDays: 90, payloadRetentionDays: 14 } );
		expect( () => loadConfig( { ...KEY, SIDECAR_PAYLOAD_RETENTION_DAYS: '60' } ) ).toThrow(
			/SIDECAR_PAYLOAD_RETENTION_DAYS: must not exceed/
		);
		expect( () => loadConfig( { ...KEY, SIDECAR_PAYLOAD_RETENTION_DAYS: '-1' } ) ).toThrow(
			/SIDECAR_PAYLOAD_RETENTION_DAYS/
		);
	} );

	it( 'splits comma-separated lists', () => {
		const config = loadConfig( {
			...KEY,
			SIDECAR_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8, ::1/128',
			SIDECAR_RETRY_SCHEDULE: '0,5,60',
		} );
		expect( config.allowPrivateCidrs ).toEqual( [ '127.0.0.0/8', '::1/128' ] );
		expect( config.retryScheduleSeconds ).toEqual( [ 0, 5, 60 ] );
	} );

	it( 'reads the metrics settings: no listener and no token by default, a token from the environment or a file', () => {
		const defaults = loadConfig( KEY );
		expect( defaults.metricsPort ).toBeUndefined();
		expect( defaults.metricsHost ).toBe( '127.0.0.1' );
		expect( defaults.metricsToken ).toBeUndefined();
		expect( defaults ).not.toHaveProperty( 'metricsTokenFile' );

		const token = 'm'.repeat( 24 );
		expect( loadConfig( { ...KEY, SIDECAR_METRICS_TOKEN: token, SIDECAR_METRICS_PORT: '9464' } ) ).toMatchObject( {
			metricsToken: token,
			metricsPort: 9464,
		} );
		const file = path.join( fs.mkdtempSync( path.join( os.tmpdir(), 'sidecar-' ) ), 'metrics-token' );
		fs.writeFileSync( file, `${ token }\n` );
		expect( loadConfig( { ...KEY, SIDECAR_METRICS_TOKEN_FILE: file } ).metricsToken ).toBe( token );
	} );

	it( 'names the bad metrics setting: a short or spaced token, the shared key as token, a clashing port, an unreadable file', () => {
		expect( () => loadConfig( { ...KEY, SIDECAR_METRICS_TOKEN: 'short' } ) ).toThrow(
			/SIDECAR_METRICS_TOKEN: must be at least 16 visible ASCII/
		);
		expect( () => loadConfig( { ...KEY, SIDECAR_METRICS_TOKEN: 'has a space in it somewhere' } ) ).toThrow(
			/SIDECAR_METRICS_TOKEN:/
		);
		expect( () => loadConfig( { ...KEY, SIDECAR_METRICS_TOKEN: KEY.SIDECAR_SHARED_KEY } ) ).toThrow(
			/SIDECAR_METRICS_TOKEN: the metrics token must not be the shared key/
		);
		expect( () => loadConfig( { ...KEY, SIDECAR_METRICS_PORT: '8787' } ) ).toThrow(
			/SIDECAR_METRICS_PORT: must differ from the main port \(SIDECAR_PORT\)/
		);
		expect( () => loadConfig( { ...KEY, SIDECAR_METRICS_PORT: '70000' } ) ).toThrow( /SIDECAR_METRICS_PORT:/ );
		expect( loadConfig( { ...KEY, SIDECAR_PORT: '0', SIDECAR_METRICS_PORT: '0' } ).metricsPort ).toBe( 0 );
		expect( () => loadConfig( { ...KEY, SIDECAR_METRICS_TOKEN_FILE: '/nonexistent/metrics-token' } ) ).toThrow(
			/SIDECAR_METRICS_TOKEN_FILE: cannot read/
		);

		const dir = fs.mkdtempSync( path.join( os.tmpdir(), 'sidecar-' ) );
		const file = path.join( dir, 'config.json' );
		fs.writeFileSync( file, JSON.stringify( { metricsToken: KEY.SIDECAR_SHARED_KEY } ) );
		expect( () => loadConfig( KEY, file ) ).toThrow(
			/"metricsToken" in .*config\.json: the metrics token must not be the shared key/
		);
	} );

	it( 'selects the shared store with SIDECAR_DATABASE_URL, refusing anything but mysql://user@host/db, never echoing the password', () => {
		expect( loadConfig( KEY ).databaseUrl ).toBeUndefined();
		const url = 'mysql://sidecar:s3cr%40t-pw@db.internal:3307/sidecar';
		expect( loadConfig( { ...KEY, SIDECAR_DATABASE_URL: url } ).databaseUrl ).toBe( url );
		const bad = [
			[ 'postgres://sidecar:s3cr3t-pw@db/sidecar', /SIDECAR_DATABASE_URL: must start with mysql:\/\// ],
			[ 'mysql://db.internal/sidecar', /SIDECAR_DATABASE_URL: must name a user and a host/ ],
			[ 'mysql://sidecar:s3cr3t-pw@db.internal', /SIDECAR_DATABASE_URL: must name one database/ ],
			[ 'mysql://sidecar:s3cr3t-pw@db.internal/a/b', /SIDECAR_DATABASE_URL: must name one database/ ],
			[ 'not a url s3cr3t-pw', /SIDECAR_DATABASE_URL: must be a URL/ ],
		] as const;
		for ( const [ value, message ] of bad ) {
			let thrown: unknown;
			try {
				loadConfig( { ...KEY, SIDECAR_DATABASE_URL: value } );
			} catch ( error ) {
				thrown = error;
			}
			expect( thrown ).toBeInstanceOf( ConfigError );
			expect( ( thrown as Error ).message ).toMatch( message );
			expect( ( thrown as Error ).message ).not.toContain( 's3cr3t-pw' );
		}
		const dir = fs.mkdtempSync( path.join( os.tmpdir(), 'sidecar-' ) );
		const file = path.join( dir, 'config.json' );
		fs.writeFileSync( file, JSON.stringify( { databaseUrl: 'mysql://sidecar:s3cr3t-pw@db.internal' } ) );
		expect( () => loadConfig( KEY, file ) ).toThrow( /"databaseUrl" in .*config\.json: must name one database/ );
		expect( redactDatabaseUrl( url ) ).toBe( 'mysql://sidecar:***@db.internal:3307/sidecar' );
		expect( describeSettings() ).not.toMatch( /s3cr/ );
	} );

	it( 'documents every setting it reads in --help, each with its format and default', () => {
		const help = describeSettings();
		const keys = Object.keys( CONFIG_SCHEMA.shape ).sort();
		expect( Object.keys( SETTINGS ).sort() ).toEqual( keys );
		for ( const key of keys ) {
			const { env } = SETTINGS[ key as keyof typeof SETTINGS ];
			const entry = help
				.slice( help.indexOf( `  ${ env } (file key: ${ key })` ) )
				.split( /\n {2}(?=SIDECAR_)/ )[ 0 ] as string;
			expect( entry ).toMatch( /Format: .+\. Default: .+\./ );
		}
		expect( help ).toContain( 'Default: 1048576.' );
		expect( () => loadConfig( { ...KEY, [ SETTINGS.maxBodyBytes.env ]: '1' } ) ).toThrow(
			SETTINGS.maxBodyBytes.env
		);
	} );
} );
