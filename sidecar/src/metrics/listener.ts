import type { Server } from 'http';
import type { SidecarConfig } from '../config';
import { createMetricsApp, listenMetrics, type MetricsProbes } from './http';
import type { SidecarMetrics } from './registry';

/**
 * Starts the SIDECAR_METRICS_PORT listener when that setting is set (both start paths call
 * this): /metrics, /health and /ready on a port of their own. A port that cannot be had ends
 * the process, as the main port does. close() is safe before the listener is up.
 */
export function startMetricsListener(
	config: Pick< SidecarConfig, 'metricsHost' | 'metricsPort' | 'metricsToken' >,
	context: MetricsProbes & { metrics: SidecarMetrics }
): { close: () => void } {
	let server: Server | undefined;
	let closed = false;
	if ( config.metricsPort !== undefined ) {
		const { log } = context;
		listenMetrics(
			createMetricsApp( { ...context, token: config.metricsToken } ),
			config.metricsHost,
			config.metricsPort
		).then(
			( listening ) => {
				server = listening.server;
				if ( closed ) {
					server.close();
					return;
				}
				log.info(
					{ host: config.metricsHost, port: listening.port, token: config.metricsToken !== undefined },
					'metrics listening'
				);
			},
			( error: unknown ) => {
				log.fatal(
					{ err: error, host: config.metricsHost, port: config.metricsPort },
					'cannot listen for metrics'
				);
				process.exit( 1 );
			}
		);
	}
	return {
		close() {
			closed = true;
			server?.closeAllConnections();
			server?.close();
		},
	};
}
