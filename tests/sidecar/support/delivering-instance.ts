import { loadConfig } from '../../../sidecar/src/config';
import { createLogger } from '../../../sidecar/src/logger';
import type { Dispatcher } from '../../../sidecar/src/outbound/dispatcher';
import { MysqlStore } from '../../../sidecar/src/store/mysql/mysql-store';
import { apiClient, type ApiCall } from './api-client';
import { TEST_ENV, TEST_KEY } from './harness';
import { serveOnLoopback } from './loopback-server';
import { instanceApp, leasedDispatcher } from './instance-app';

const config = loadConfig( { ...TEST_ENV, SIDECAR_LOG_LEVEL: 'silent' } );
const log = createLogger( process.env.TEST_LOG ?? 'silent' );

export interface DeliveringInstance {
	api: ApiCall;
	dispatcher: Dispatcher;
	close: () => Promise< void >;
}

/**
 * One sidecar instance on the shared store, in this process: its own pool, app and
 * dispatcher, the dispatcher exposed and polling every pollMs once the test starts it (so
 * that a test can show which instance delivers what another queued).
 */
export async function startDeliveringInstance(
	url: string,
	name: string,
	pollMs: number
): Promise< DeliveringInstance > {
	const store = await MysqlStore.open( { url } );
	const dispatcher = leasedDispatcher( store, config, log, name, pollMs );
	const app = instanceApp( store, config, log, dispatcher );
	const server = await serveOnLoopback( app, { serverTimeouts: true } );
	return {
		api: apiClient( server.url, TEST_KEY ),
		dispatcher,
		close: async () => {
			await dispatcher.stop( 1000 );
			await server.close();
			await store.close();
		},
	};
}
