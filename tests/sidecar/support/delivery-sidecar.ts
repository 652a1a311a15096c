import { Writable } from 'stream';
import mysql from 'mysql2/promise';
import { loadConfig } from '../../../sidecar/src/config';
import type { Clock } from '../../../sidecar/src/outbound/clock';
import { createLogger } from '../../../sidecar/src/logger';
import { createOutboundRuntime } from '../../../sidecar/src/outbound/runtime';
import { MysqlStore } from '../../../sidecar/src/store/mysql/mysql-store';
import { startMariaDb, type RunningMariaDb } from '../../support/mariadb';
import { apiClient, type ApiCall } from './api-client';
import { startHarness, TEST_ENV, TEST_KEY } from './harness';
import { serveOnLoopback } from './loopback-server';
import { instanceApp } from './instance-app';

export type DeliveryStore = 'embedded' | 'shared' | 'shared, two instances';
export const DELIVERY_STORES: DeliveryStore[] = [ 'embedded', 'shared', 'shared, two instances' ];

/** What the delivery tests see of a sidecar: its API and its log, whichever store it runs on. */
export interface DeliverySidecar {
	api: ApiCall;
	/** Everything logged so far (JSON lines, debug level). */
	logText: () => string;
	close: () => Promise< void >;
}

export interface DeliverySidecars {
	/**
	 * A sidecar with TEST_ENV plus `env`, on a store of its own (its endpoints and queue are its
	 * alone); its outbound workers on `clock` (both instances on the same), the system's by default.
	 */
	start: ( env?: NodeJS.ProcessEnv, clock?: Clock ) => Promise< DeliverySidecar >;
	/** Stops what `start` needs beyond the sidecars (the MariaDB server). */
	stop: () => Promise< void >;
}

/**
 * The sidecars of a delivery test: the embedded one (app + dispatcher + SQLite, the harness),
 * one instance on the shared MariaDB store wired as cli-start.ts wires it (pool,
 * dispatcher, notice sender, maintenance, app), or two such instances on one database behind a
 * round-robin "load balancer": each API call goes to the other instance than the one before, and
 * both dispatchers deliver. Each sidecar gets a database of its own on one MariaDB server, so
 * that a second sidecar with other settings does not deliver the first one's queue.
 */
export async function deliverySidecars( kind: DeliveryStore ): Promise< DeliverySidecars > {
	if ( kind === 'embedded' ) {
		return { start: ( env = {}, clock ) => startHarness( env, { clock } ), stop: async () => undefined };
	}
	const name = 'delivery_test';
	let server: RunningMariaDb | undefined;
	let databases = 0;
	return {
		start: async ( env = {}, clock ) => {
			server ??= await startMariaDb( { name } );
			const url = new URL( server.url );
			const database = `${ name }_${ ++databases }`;
			const admin = await mysql.createConnection( server.url );
			try {
				await admin.query( `CREATE DATABASE \`${ database }\`` );
			} finally {
				await admin.end();
			}
			url.pathname = `/${ database }`;
			if ( kind === 'shared' ) {
				return startSharedDeliverySidecar( url.toString(), `instance-${ databases }`, env, clock );
			}
			const a = await startSharedDeliverySidecar( url.toString(), `instance-${ databases }-a`, env, clock );
			const b = await startSharedDeliverySidecar( url.toString(), `instance-${ databases }-b`, env, clock );
			return behindRoundRobin( [ a, b ] );
		},
		stop: async () => {
			await server?.stop();
		},
	};
}

function behindRoundRobin( instances: DeliverySidecar[] ): DeliverySidecar {
	let turn = 0;
	const api = ( ( ...args: Parameters< ApiCall > ) =>
		( instances[ turn++ % instances.length ] as DeliverySidecar ).api( ...args ) ) as ApiCall;
	return {
		api,
		logText: () => instances.map( ( instance ) => instance.logText() ).join( '' ),
		close: async () => {
			await Promise.all( instances.map( ( instance ) => instance.close() ) );
		},
	};
}

async function startSharedDeliverySidecar(
	databaseUrl: string,
	instanceId: string,
	env: NodeJS.ProcessEnv,
	clock: Clock | undefined
): Promise< DeliverySidecar > {
	const config = loadConfig( { ...TEST_ENV, SIDECAR_PORT: '0', ...env } );
	const lines: string[] = [];
	const log = createLogger(
		config.logLevel,
		new Writable( {
			write( chunk: Buffer, _encoding, callback ) {
				lines.push( chunk.toString( 'utf8' ) );
				callback();
			},
		} )
	);
	const store = await MysqlStore.open( { url: databaseUrl } );
	const outbound = createOutboundRuntime( { config, log, store, instanceId, clock } );
	outbound.start();
	const app = instanceApp( store, config, log, outbound.dispatcher );
	const server = await serveOnLoopback( app, { serverTimeouts: true } );
	let closed = false;
	return {
		api: apiClient( server.url, TEST_KEY ),
		logText: () => lines.join( '' ),
		close: async () => {
			if ( closed ) {
				return;
			}
			closed = true;
			await outbound.stop( 2000 );
			await server.close();
			await store.close();
		},
	};
}
