import { Router } from 'express';
import type { Logger } from '../logger';
import type { Db } from '../store/database';
import { MIGRATIONS } from '../store/migrations';
import type { QueueStore } from '../store/queue-store';
import { SIDECAR_VERSION } from '../version';
import { methodNotAllowed } from './routes/helpers';

export interface ProbeContext {
	db: Db;
	dispatcher: { isRunning: () => boolean };
	log: Logger;
}

export interface ReadinessCheck {
	name: 'database' | 'migrations' | 'dispatcher';
	ok: boolean;
	/** Why it failed: a fixed sentence, never an error message (it could name a path). */
	message?: string;
}

/**
 * Readiness: the database answers a trivial query, its schema is the latest this code knows,
 * and the dispatcher is running (started, not stopping). Cheap: two statements, no table read.
 */
export function checkReadiness( context: ProbeContext ): { ready: boolean; checks: ReadinessCheck[] } {
	const checks: ReadinessCheck[] = [];
	const attempt = ( name: ReadinessCheck[ 'name' ], run: () => string | null ) => {
		try {
			const problem = run();
			checks.push( problem === null ? { name, ok: true } : { name, ok: false, message: problem } );
		} catch ( error ) {
			context.log.debug( { err: error, check: name }, 'readiness check failed' );
			checks.push( { name, ok: false, message: `the ${ name } check could not run` } );
		}
	};
	attempt( 'database', () => {
		const row = context.db.prepare( 'SELECT 1 AS ok' ).get() as { ok: number } | undefined;
		return row?.ok === 1 ? null : 'the database did not answer a trivial query';
	} );
	attempt( 'migrations', () => {
		const version = context.db.pragma( 'user_version', { simple: true } ) as number;
		return version === MIGRATIONS.length
			? null
			: `the database schema is at version ${ version }, not ${ MIGRATIONS.length }`;
	} );
	attempt( 'dispatcher', () => ( context.dispatcher.isRunning() ? null : 'the delivery dispatcher is not running' ) );
	return { ready: checks.every( ( check ) => check.ok ), checks };
}

/** The shared store's readiness: the database answers, its schema is current, the dispatcher runs. */
export async function checkSharedReadiness( context: {
	store: Pick< QueueStore, 'ping' | 'schemaVersion' >;
	dispatcher: { isRunning: () => boolean };
	log: Logger;
} ): Promise< { ready: boolean; checks: ReadinessCheck[] } > {
	const checks: ReadinessCheck[] = [];
	try {
		await context.store.ping();
		checks.push( { name: 'database', ok: true } );
		const { current, latest } = await context.store.schemaVersion();
		checks.push(
			current === latest
				? { name: 'migrations', ok: true }
				: {
						name: 'migrations',
						ok: false,
						message: `the database schema is at version ${ current }, not ${ latest }`,
					}
		);
	} catch ( error ) {
		context.log.debug( { err: error }, 'readiness: the shared store does not answer' );
		checks.push( { name: 'database', ok: false, message: 'the shared database does not answer' } );
	}
	checks.push(
		context.dispatcher.isRunning()
			? { name: 'dispatcher', ok: true }
			: { name: 'dispatcher', ok: false, message: 'the delivery dispatcher is not running' }
	);
	return { ready: checks.every( ( check ) => check.ok ), checks };
}

export interface ProbeRoutes {
	readiness: () => Promise< { ready: boolean; checks: ReadinessCheck[] } >;
	/** Added to the /health answer (the shared store's instance id). */
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

/** The probes of the embedded store (the main port and the metrics listener). */
export function probesRouter( context: ProbeContext ): Router {
	return probeRoutes( { readiness: async () => checkReadiness( context ) } );
}
