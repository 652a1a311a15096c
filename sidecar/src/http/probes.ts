import { Router } from 'express';
import type { Logger } from '../logger';
import type { QueueStore } from '../store/queue-store';
import { SIDECAR_VERSION } from '../version';
import { methodNotAllowed } from './routes/helpers';

export interface ReadinessCheck {
	name: 'database' | 'migrations' | 'dispatcher' | 'ingest';
	ok: boolean;
	/** Why it failed: a fixed sentence, never an error message (it could name a path or a host). */
	message?: string;
}

export interface ReadinessContext {
	store: Pick< QueueStore, 'ping' | 'schemaVersion' >;
	dispatcher: { isRunning: () => boolean; ingestProblem: () => string | null };
	log: Logger;
}

/**
 * Readiness, the same on both stores: the database answers a trivial query, its schema is the
 * latest this code knows, the dispatcher is running (started, not stopping), and the last
 * hand-over of events was stored (a database can answer SELECT 1 and still time out every
 * write: IngestHealth). Cheap: two statements, no table read; asked at once, each check
 * reported on its own.
 */
export async function checkReadiness(
	context: ReadinessContext
): Promise< { ready: boolean; checks: ReadinessCheck[] } > {
	const attempt = async (
		name: ReadinessCheck[ 'name' ],
		run: () => Promise< string | null >
	): Promise< ReadinessCheck > => {
		try {
			const problem = await run();
			return problem === null ? { name, ok: true } : { name, ok: false, message: problem };
		} catch ( error ) {
			context.log.debug( { err: error, check: name }, 'readiness check failed' );
			return { name, ok: false, message: `the ${ name } check could not run` };
		}
	};
	const checks = await Promise.all( [
		attempt( 'database', async () => {
			await context.store.ping();
			return null;
		} ),
		attempt( 'migrations', async () => {
			const { current, latest } = await context.store.schemaVersion();
			return current === latest ? null : `the database schema is at version ${ current }, not ${ latest }`;
		} ),
		attempt( 'dispatcher', async () =>
			context.dispatcher.isRunning() ? null : 'the delivery dispatcher is not running'
		),
		attempt( 'ingest', async () => context.dispatcher.ingestProblem() ),
	] );
	return { ready: checks.every( ( check ) => check.ok ), checks };
}

export interface ProbeRoutes {
	readiness: () => Promise< { ready: boolean; checks: ReadinessCheck[] } >;
	/** Added to the /health answer (the instance id on the shared store). */
	health?: Record< string, string >;
}

/**
 * /health (liveness: the process answers; no database work) and /ready (readiness, 200 or
 * 503 with every check), on either store. Open: they say nothing about secrets or the configuration.
 */
export function probeRoutes( probes: ProbeRoutes ): Router {
	const router = Router();
	// pid lets a supervisor tell its own sidecar from a stale one still holding the port.
	router
		.route( '/health' )
		.get( ( _req, res ) => {
			res.set( 'cache-control', 'no-store' ).json( {
				status: 'ok',
				version: SIDECAR_VERSION,
				pid: process.pid,
				...probes.health,
			} );
		} )
		.all( methodNotAllowed( 'GET' ) );
	router
		.route( '/ready' )
		.get( async ( _req, res ) => {
			const { ready, checks } = await probes.readiness();
			res.status( ready ? 200 : 503 )
				.set( 'cache-control', 'no-store' )
				.json( {
					status: ready ? 'ready' : 'not_ready',
					checks,
					failed: checks.filter( ( check ) => ! check.ok ).map( ( check ) => check.name ),
				} );
		} )
		.all( methodNotAllowed( 'GET' ) );
	return router;
}
