import type { Server } from 'http';
import { ConfigError, describeSettings, loadConfig } from './config';
import { createApp } from './http/app';
import { createLogger } from './logger';
import { SIDECAR_VERSION } from './version';

const HELP = `Usage: sidecar [--config <file.json>] [--help] [--version]

Runs the Service Integration sidecar: the signed API WordPress calls to hand over
outbound webhook events and to verify inbound ones.

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
	const app = createApp( { config, log, startedAt: Date.now() } );
	const server: Server = app.listen( config.port, config.host, () => {
		const address = server.address();
		const port = typeof address === 'object' && address ? address.port : config.port;
		log.info( { host: config.host, port, version: SIDECAR_VERSION, dataDir: config.dataDir }, 'sidecar listening' );
	} );
	server.on( 'error', ( error ) => {
		log.fatal( { err: error }, 'cannot listen' );
		process.exit( 1 );
	} );

	const shutdown = ( signal: string ) => {
		log.info( { signal }, 'shutting down' );
		server.close( () => process.exit( 0 ) );
		setTimeout( () => process.exit( 0 ), 5000 ).unref();
	};
	process.on( 'SIGTERM', () => shutdown( 'SIGTERM' ) );
	process.on( 'SIGINT', () => shutdown( 'SIGINT' ) );
}

main();
