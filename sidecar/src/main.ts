import type { Server } from 'http';
import { ConfigError, describeSettings, loadConfig } from './config';
import { createApp } from './http/app';
import { createLogger } from './logger';
import { createOutboundRuntime } from './outbound/runtime';
import { openDatabase, DATABASE_FILE, type Db } from './store/database';
import { createStores } from './store/stores';
import { SIDECAR_VERSION } from './version';

const HELP = `Usage: sidecar [--config <file.json>] [--help] [--version]

Runs the Service Integration sidecar: the signed API WordPress calls to hand over
outbound webhook events and to verify inbound ones.

Outbound events are stored in SQLite (<SIDECAR_DATA_DIR>/${ DATABASE_FILE }, WAL) before
WordPress gets its 202, then delivered as signed Standard Webhooks with retries;
attempts interrupted by a crash are sent again after the next start. SIGTERM or
SIGINT lets attempts in flight finish (up to SIDECAR_SHUTDOWN_GRACE_MS), then exits.
Every SIDECAR_MAINTENANCE_INTERVAL_SECONDS it disables endpoints failing for longer
than SIDECAR_DISABLE_AFTER_HOURS, deletes delivered history older than
SIDECAR_RETENTION_DAYS, and retries notices WordPress has not acknowledged yet.

Settings come from environment variables, or from a JSON file given with --config
(or SIDECAR_CONFIG); the environment wins. Settings:
${ describeSettings() }

Example:
  SIDECAR_SHARED_KEY_FILE=.cache/shared-key npm run sidecar
`;

function parseArgs( argv: string[] ): { help: boolean; version: boolean; configFile?: string } {
	const args = { help: false, version: false, configFile: undefined as string | undefined };
	for ( let i = 0; i < argv.length; i++ ) {
		const arg = argv[ i ];
		if ( arg === '--help' || arg === '-h' ) {
			args.help = true;
		} else if ( arg === '--version' ) {
			args.version = true;
		} else if ( arg === '--config' ) {
			args.configFile = argv[ ++i ];
		} else if ( arg?.startsWith( '--config=' ) ) {
			args.configFile = arg.slice( '--config='.length );
		} else {
			throw new ConfigError( `Unknown argument "${ arg }"; see --help` );
		}
	}
	return args;
}

function main(): void {
	let args: ReturnType< typeof parseArgs >;
	let config: ReturnType< typeof loadConfig >;
	try {
		args = parseArgs( process.argv.slice( 2 ) );
		if ( args.help ) {
			process.stdout.write( HELP );
			return;
		}
		if ( args.version ) {
			process.stdout.write( SIDECAR_VERSION + '\n' );
			return;
		}
		config = loadConfig( process.env, args.configFile );
	} catch ( error ) {
		if ( error instanceof ConfigError ) {
			process.stderr.write( `sidecar: ${ error.message }\n` );
			process.exit( 2 );
		}
		throw error;
	}

	const log = createLogger( config.logLevel );
	let db: Db;
	try {
		db = openDatabase( { dataDir: config.dataDir, synchronous: config.sqliteSynchronous } );
	} catch ( error ) {
		log.fatal( { err: error, dataDir: config.dataDir }, 'cannot open the database' );
		process.exit( 1 );
	}
	const stores = createStores( db );
	const outbound = createOutboundRuntime( { config, log, stores } );
	outbound.start(); // re-queues what a crash left in flight before anything is sent
	const app = createApp( { config, log, startedAt: Date.now(), stores, dispatcher: outbound.dispatcher } );
	const server: Server = app.listen( config.port, config.host, () => {
		const address = server.address();
		const port = typeof address === 'object' && address ? address.port : config.port;
		log.info( { host: config.host, port, version: SIDECAR_VERSION, dataDir: config.dataDir }, 'sidecar listening' );
	} );
	server.on( 'error', ( error ) => {
		log.fatal( { err: error }, 'cannot listen' );
		process.exit( 1 );
	} );

	// Order: finish (or abandon, past the grace period) attempts in flight and notices being
	// sent while the API still answers, then close the server, then the database nothing
	// writes to any more. Unsent notices stay in the database for the next start.
	let stopping = false;
	const shutdown = async ( signal: string ) => {
		if ( stopping ) {
			return;
		}
		stopping = true;
		log.info( { signal }, 'shutting down' );
		setTimeout( () => process.exit( 1 ), config.shutdownGraceMs + 5000 ).unref();
		await outbound.stop( config.shutdownGraceMs );
		await new Promise< void >( ( resolve ) => {
			server.close( () => resolve() );
			server.closeIdleConnections();
			setTimeout( () => server.closeAllConnections(), 2000 ).unref();
		} );
		db.close();
		log.info( 'stopped' );
		process.exit( 0 );
	};
	process.on( 'SIGTERM', () => void shutdown( 'SIGTERM' ) );
	process.on( 'SIGINT', () => void shutdown( 'SIGINT' ) );
}

main();
