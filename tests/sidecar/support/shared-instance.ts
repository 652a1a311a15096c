import { Writable } from 'stream';
import { loadConfig, type SidecarConfig } from '../../../sidecar/src/config';
import { createLogger } from '../../../sidecar/src/logger';
import { MysqlStore } from '../../../sidecar/src/store/mysql/mysql-store';
import { apiClient, type ApiCall } from './api-client';
import { TEST_ENV, TEST_KEY } from './harness';
import { serveOnLoopback } from './loopback-server';
import { instanceApp, leasedDispatcher } from './instance-app';

export interface SharedInstance {
	url: string;
	config: SidecarConfig;
	api: ApiCall;
	store: MysqlStore;
	/** Everything this instance logged so far (JSON lines, debug level). */
	logText: () => string;
	close: () => Promise< void >;
}

/**
 * One sidecar instance on the shared store, in this process: its own pool, app and log, on a
 * random loopback port. Its dispatcher is built but not started (the routes only wake it).
 */
export async function startSharedInstance(
	databaseUrl: string,
	name: string,
	env: NodeJS.ProcessEnv = {}
): Promise< SharedInstance > {
	const config = loadConfig( { ...TEST_ENV, ...env } );
	const lines: string[] = [];
	const log = createLogger(
		'debug',
		new Writable( {
			write( chunk: Buffer, _encoding, callback ) {
				lines.push( chunk.toString( 'utf8' ) );
				callback();
			},
		} )
	);
	const store = await MysqlStore.open( { url: databaseUrl } );
	const dispatcher = leasedDispatcher( store, config, log, name );
	const app = instanceApp( store, config, log, dispatcher );
	const server = await serveOnLoopback( app, { serverTimeouts: true } );
	const { url } = server;
	return {
		url,
		config,
		api: apiClient( url, TEST_KEY ),
		store,
		logText: () => lines.join( '' ),
		close: async () => {
			await server.close();
			await store.close();
		},
	};
}
