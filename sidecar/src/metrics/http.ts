import express, { type Request, type RequestHandler, type Response } from 'express';
import type { Server } from 'http';
import type { AddressInfo } from 'net';
import { constantTimeEqual } from '../inbound/constant-time';
import { sendError } from '../http/errors';
import { probeRoutes, type ProbeRoutes } from '../http/probes';
import { methodNotAllowed } from '../http/routes/helpers';
import { applyServerTimeouts } from '../http/server-timeouts';
import type { Logger } from '../logger';
import type { SidecarMetrics } from './registry';

export const METRICS_TOKEN_SETTING = 'SIDECAR_METRICS_TOKEN';
export const METRICS_PORT_SETTING = 'SIDECAR_METRICS_PORT';

/** The bearer token of an Authorization header, or undefined. */
function bearer( req: Request ): string | undefined {
	const match = /^Bearer +([^\s]+) *$/i.exec( req.get( 'authorization' ) ?? '' );
	return match?.[ 1 ];
}

/**
 * GET /metrics: the Prometheus text format. With a token, only for `Authorization: Bearer <token>`
 * (401 otherwise, compared in constant time). The token is its own setting, never the shared key.
 */
export function metricsHandler( metrics: SidecarMetrics, token: string | undefined ): RequestHandler {
	return async ( req: Request, res: Response ) => {
		if ( token !== undefined ) {
			const given = bearer( req );
			if ( given === undefined || ! constantTimeEqual( given, token ) ) {
				res.set( 'www-authenticate', 'Bearer realm="metrics"' );
				sendError(
					res,
					401,
					given === undefined ? 'metrics_token_missing' : 'metrics_token_invalid',
					`GET /metrics needs the header Authorization: Bearer <the token of ${ METRICS_TOKEN_SETTING }>.`
				);
				return;
			}
		}
		const text = await metrics.render();
		res.status( 200 ).set( 'content-type', metrics.contentType ).set( 'cache-control', 'no-store' ).send( text );
	};
}

/** /metrics on the main listener: behind the token when one is set, else a 404 naming the settings. */
export function mainPortMetricsRouter( metrics: SidecarMetrics, token: string | undefined ): express.Router {
	const router = express.Router();
	const route = router.route( '/metrics' );
	if ( token === undefined ) {
		route.get( ( _req, res ) => {
			sendError(
				res,
				404,
				'metrics_not_enabled',
				`Metrics are not served on this port: set ${ METRICS_TOKEN_SETTING } to serve GET /metrics here behind a bearer token, or ${ METRICS_PORT_SETTING } for a listener of their own.`,
				{ settings: [ METRICS_TOKEN_SETTING, METRICS_PORT_SETTING ] }
			);
		} );
	} else {
		route.get( metricsHandler( metrics, token ) );
	}
	route.all( methodNotAllowed( 'GET' ) );
	return router;
}

/**
 * What the metrics listener needs: its probes are the embedded store's (db and dispatcher) or,
 * on the shared store, the instance's own readiness check.
 */
export interface MetricsProbes {
	log: Logger;
	readiness: ProbeRoutes[ 'readiness' ];
}

export type MetricsAppContext = MetricsProbes & { metrics: SidecarMetrics; token: string | undefined };

/** The app of the SIDECAR_METRICS_PORT listener: /metrics (behind the token when one is set), /health, /ready. */
export function createMetricsApp( context: MetricsAppContext ): express.Express {
	const app = express();
	app.disable( 'x-powered-by' );
	app.set( 'trust proxy', false );
	app.use( probeRoutes( { readiness: context.readiness } ) );
	app.route( '/metrics' ).get( metricsHandler( context.metrics, context.token ) ).all( methodNotAllowed( 'GET' ) );
	app.use( ( _req: Request, res: Response ) => {
		sendError( res, 404, 'not_found', 'This listener serves /metrics, /health and /ready only.' );
	} );
	app.use( ( error: unknown, _req: Request, res: Response, _next: express.NextFunction ) => {
		context.log.error( { err: error }, 'metrics listener failed to answer' );
		sendError( res, 500, 'internal_error', 'The sidecar failed to handle this request; see its log.' );
	} );
	return app;
}

/** Listens on host:port (0: any free port); resolves with the server and its port once listening. */
export function listenMetrics(
	app: express.Express,
	host: string,
	port: number
): Promise< { server: Server; port: number } > {
	return new Promise( ( resolve, reject ) => {
		const server = applyServerTimeouts( app.listen( port, host ) );
		server.once( 'error', reject );
		server.once( 'listening', () => {
			server.off( 'error', reject );
			resolve( { server, port: ( server.address() as AddressInfo ).port } );
		} );
	} );
}
