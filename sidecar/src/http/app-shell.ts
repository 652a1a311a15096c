import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from '../logger';
import { HttpError, sendError } from './errors';
import { isDeadlock } from '../store/mysql/mysql-transaction';
import type { StoreErrorCode } from '../contracts/constants';
import { STORE_BUSY_RETRY_AFTER_SECONDS, STORE_RETRY_AFTER_SECONDS, storeTrouble } from './store-unavailable';

/**
 * What both apps (embedded and shared store) share around their routes: the Express settings and
 * the per-request debug line before them, the 404 fallback and the error handler after them.
 */
export function createAppShell( log: Logger ): express.Express {
	const app = express();
	app.disable( 'x-powered-by' );
	app.set( 'trust proxy', false );
	// Answers are signed and never cached: no ETag (a SHA-1 of every response body otherwise).
	app.set( 'etag', false );

	// The per-request log line is debug: below that level, no listener on every response.
	if ( log.isLevelEnabled( 'debug' ) ) {
		app.use( ( req, res, next ) => {
			const started = process.hrtime.bigint();
			res.on( 'finish', () => {
				log.debug(
					{
						method: req.method,
						path: req.path,
						status: res.statusCode,
						ms: Number( process.hrtime.bigint() - started ) / 1e6,
					},
					'request'
				);
			} );
			next();
		} );
	}
	return app;
}

export interface FinishAppOptions {
	log: Logger;
	maxBodyBytes: number;
	/**
	 * The shared store: a database that does not answer is a 503 with Retry-After (WordPress's
	 * outbox keeps the events and sends them again), not a 500.
	 */
	storeMayBeAway: boolean;
}

/** The 404 fallback and the error handler, mounted after every route. */
export function finishApp( app: express.Express, options: FinishAppOptions ): void {
	const { log, maxBodyBytes } = options;
	app.use( ( _req: Request, res: Response ) => {
		sendError( res, 404, 'not_found', 'No such route on the sidecar.' );
	} );

	app.use( ( error: unknown, req: Request, res: Response, _next: NextFunction ) => {
		if ( error instanceof HttpError ) {
			sendError( res, error.status, error.code, error.message, error.details );
			return;
		}
		if ( options.storeMayBeAway && isDeadlock( error ) ) {
			// It answers: a concurrent change took the same rows in another order, and the retries
			// (mysql-transaction.ts) met it each time. Nothing was stored; the next try normally passes.
			log.warn( { err: error, method: req.method, path: req.path }, 'deadlock on the shared store: 503' );
			res.set( 'retry-after', '1' );
			sendError(
				res,
				503,
				'store_busy' satisfies StoreErrorCode,
				'A concurrent change to the same rows held this one back (a database deadlock); nothing was stored. Retry.',
				{ retry_after: 1 }
			);
			return;
		}
		const trouble = options.storeMayBeAway ? storeTrouble( error ) : null;
		if ( trouble === 'busy' ) {
			// It answers, but a statement of this request ran past its limit or waited too long for a
			// row lock (a long queue, a concurrent batch): not an outage, and nothing was stored.
			log.warn( { err: error, method: req.method, path: req.path }, 'the shared store is busy: 503' );
			res.set( 'retry-after', String( STORE_BUSY_RETRY_AFTER_SECONDS ) );
			sendError(
				res,
				503,
				'store_busy' satisfies StoreErrorCode,
				"The sidecar's database is busy (a statement timed out or waited too long for a lock); nothing was stored. Retry shortly.",
				{ retry_after: STORE_BUSY_RETRY_AFTER_SECONDS }
			);
			return;
		}
		if ( trouble === 'unavailable' ) {
			log.warn( { err: error, method: req.method, path: req.path }, 'the shared store does not answer: 503' );
			res.set( 'retry-after', String( STORE_RETRY_AFTER_SECONDS ) );
			sendError(
				res,
				503,
				'store_unavailable' satisfies StoreErrorCode,
				'The sidecar cannot reach its database; nothing was stored. Retry later.',
				{ retry_after: STORE_RETRY_AFTER_SECONDS }
			);
			return;
		}
		const typed = error as { type?: string; status?: number; message?: string };
		if ( typed.type === 'entity.too.large' ) {
			sendError( res, 413, 'body_too_large', `The request body exceeds ${ maxBodyBytes } bytes.` );
			return;
		}
		if ( typeof typed.status === 'number' && typed.status >= 400 && typed.status < 500 ) {
			sendError( res, typed.status, 'bad_request', typed.message ?? 'Bad request.' );
			return;
		}
		log.error( { err: error, method: req.method, path: req.path }, 'unhandled error' );
		sendError( res, 500, 'internal_error', 'The sidecar failed to handle this request; see its log.' );
	} );
}
