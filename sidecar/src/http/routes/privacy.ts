import { Router } from 'express';
import { z } from 'zod';
import { parseJsonBody } from '../json-body';
import type { QueueRouteContext } from './context';
import { methodNotAllowed } from './helpers';

const EMAIL = z
	.string()
	.trim()
	.min( 3 )
	.max( 254 )
	.regex( /^[^\s@]+@[^\s@]+$/, 'must be an email address' );

const EXPORT_SCHEMA = z.strictObject( {
	email: EMAIL,
	page: z.number().int().min( 1 ).default( 1 ),
	per_page: z.number().int().min( 1 ).max( 100 ).default( 50 ),
} );

const ERASE_SCHEMA = z.strictObject( { email: EMAIL } );

/**
 * WordPress's personal data exporter and eraser, over the signed channel only (like all of
 * /v1): WordPress calls these from core's privacy tools, which require the privacy
 * capabilities. 400 invalid_body names the bad field; 405 for another method. On either store.
 */
export function privacyRouter( context: QueueRouteContext ): Router {
	const { store, log } = context;
	const router = Router();

	/** The events and attempts holding the email, a page at a time: {records, total, done}. */
	router
		.route( '/privacy/export' )
		.post( async ( req, res ) => {
			const body = parseJsonBody( req, EXPORT_SCHEMA );
			const records = await store.privacy.find( body.email );
			const start = ( body.page - 1 ) * body.per_page;
			res.json( {
				records: records.slice( start, start + body.per_page ),
				total: records.length,
				done: start + body.per_page >= records.length,
			} );
		} )
		.all( methodNotAllowed( 'POST' ) );

	/** Replaces the customer's data by redaction markers, in one transaction: {redacted_events, redacted_attempts}. */
	router
		.route( '/privacy/erase' )
		.post( async ( req, res ) => {
			const body = parseJsonBody( req, ERASE_SCHEMA );
			const result = await store.privacy.erase( body.email, Date.now() );
			log.info( result, 'erased personal data on request' ); // never the email itself
			res.json( result );
		} )
		.all( methodNotAllowed( 'POST' ) );

	return router;
}
