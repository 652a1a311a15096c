import fs from 'fs';
import os from 'os';
import path from 'path';
import { Writable } from 'stream';
import { loadConfig, type SidecarConfig } from '../../../sidecar/src/config';
import { createApp } from '../../../sidecar/src/http/app';
import { checkReadiness } from '../../../sidecar/src/http/probes';
import { createLogger } from '../../../sidecar/src/logger';
import { createMetricsApp, listenMetrics } from '../../../sidecar/src/metrics/http';
import { createMetrics, type SidecarMetrics } from '../../../sidecar/src/metrics/registry';
import type { Clock } from '../../../sidecar/src/outbound/clock';
import type { Dispatcher } from '../../../sidecar/src/outbound/dispatcher';
import { createOutboundRuntime, type OutboundRuntime } from '../../../sidecar/src/outbound/runtime';
import type { Notifier } from '../../../sidecar/src/outbound/wordpress-notice';
import { openDatabase } from '../../../sidecar/src/store/sqlite/database';
import { sqliteQueueStore } from '../../../sidecar/src/store/sqlite/sqlite-queue-store';
import { createStores, type Stores } from '../../../sidecar/src/store/sqlite/stores';
import { apiClient, type ApiCall } from './api-client';
import { serveOnLoopback } from './loopback-server';

export const TEST_KEY = 'test-shared-key-0123456789abcdef';

/** Fast settings for tests: tiny retry schedule, no jitter, no overload penalty, loopback allowed. */
export const TEST_ENV: NodeJS.ProcessEnv = {
	SIDECAR_SHARED_KEY: TEST_KEY,
	SIDECAR_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8',
	SIDECAR_RETRY_SCHEDULE: '0,0.05,0.1',
	SIDECAR_RETRY_JITTER_RATIO: '0',
	SIDECAR_OVERLOAD_DELAY_SECONDS: '0',
	SIDECAR_LOG_LEVEL: 'debug',
	SIDECAR_DELIVERY_TIMEOUT_MS: '5000',
};

export interface Harness {
	url: string;
	config: SidecarConfig;
	stores: Stores;
	dispatcher: Dispatcher;
	outbound: OutboundRuntime;
	metrics: SidecarMetrics;
	/** The SIDECAR_METRICS_PORT listener's base URL, when that setting is given (0: any free port). */
	metricsUrl?: string;
	api: ApiCall;
	dataDir: string;
	/** Everything logged so far (JSON lines). */
	logText: () => string;
	/** Stops dispatcher, server and database, and removes the data dir unless `keepData` (to restart on it). */
	close: ( options?: { graceMs?: number; keepData?: boolean } ) => Promise< void >;
}

/** The real app + dispatcher + SQLite in this process, on a random loopback port. */
export interface HarnessOptions {
	dataDir?: string;
	notifier?: Notifier;
	/** false: the outbound workers are built but not started (harness.outbound.start() starts them). */
	start?: boolean;
	/** collectDefaultMetrics in this sidecar's registry (off by default in tests). */
	processMetrics?: boolean;
	/** The outbound workers' time (a ManualClock to move it by hand); the system's by default. */
	clock?: Clock;
}

export async function startHarness( env: NodeJS.ProcessEnv = {}, options: HarnessOptions = {} ): Promise< Harness > {
	const dataDir = options.dataDir ?? fs.mkdtempSync( path.join( os.tmpdir(), 'sidecar-test-' ) );
	const config = loadConfig( { ...TEST_ENV, SIDECAR_DATA_DIR: dataDir, SIDECAR_PORT: '0', ...env } );
	const lines: string[] = [];
	const sink = new Writable( {
		write( chunk: Buffer, _encoding, callback ) {
			lines.push( chunk.toString( 'utf8' ) );
			callback();
		},
	} );
	const log = createLogger( config.logLevel, sink );
	const db = openDatabase( { dataDir, synchronous: config.sqliteSynchronous, cacheSizeMb: config.sqliteCacheMb } );
	const stores = createStores( db );
	// As cli-start.ts wires it; no process metrics (each registry would watch GC and the event loop again).
	const metrics = createMetrics( {
		queue: () => stores.deliveries.queueByEndpoint(),
		processMetrics: options.processMetrics ?? false,
	} );
	const store = sqliteQueueStore( stores );
	const outbound = createOutboundRuntime( {
		config,
		log,
		store,
		metrics,
		notifier: options.notifier,
		clock: options.clock,
	} );
	if ( options.start ?? true ) {
		outbound.start();
	}
	const { dispatcher } = outbound;
	const app = createApp( { config, log, startedAt: Date.now(), store, dispatcher, metrics } );
	const server = await serveOnLoopback( app, { serverTimeouts: true } );
	const { url } = server;
	const metricsListener =
		config.metricsPort === undefined
			? undefined
			: await listenMetrics(
					createMetricsApp( {
						log,
						metrics,
						token: config.metricsToken,
						readiness: () => checkReadiness( { store, dispatcher, log } ),
					} ),
					config.metricsHost,
					config.metricsPort
				);
	let closed = false;
	return {
		url,
		config,
		stores,
		dispatcher,
		outbound,
		metrics,
		...( metricsListener ? { metricsUrl: `http://${ config.metricsHost }:${ metricsListener.port }` } : {} ),
		api: apiClient( url, TEST_KEY ),
		dataDir,
		logText: () => lines.join( '' ),
		close: async ( closeOptions = {} ) => {
			if ( closed ) {
				return;
			}
			closed = true;
			await outbound.stop( closeOptions.graceMs ?? 2000 );
			await server.close();
			if ( metricsListener ) {
				metricsListener.server.closeAllConnections();
				await new Promise< void >( ( resolve ) => metricsListener.server.close( () => resolve() ) );
			}
			db.close();
			if ( ! closeOptions.keepData ) {
				fs.rmSync( dataDir, { recursive: true, force: true } );
			}
		},
	};
}
