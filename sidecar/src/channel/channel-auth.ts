import type { NextFunction, Request, Response } from 'express';
import {
	CHANNEL_HEADERS,
	CHANNEL_TOLERANCE_SECONDS,
	signaturesMatch,
	signChannelRequest,
	signChannelResponse,
} from './channel-signature';
import { sendError } from '../http/errors';

/**
 * Express middleware for routes only WordPress may call: checks the request's
 * signature and timestamp, then signs whatever the route answers, bound to the
 * request id, so PHP can trust the verdict it reads back.
 */
export function channelAuth( key: string, nowSeconds: () => number = () => Math.floor( Date.now() / 1000 ) ) {
	return ( req: Request, res: Response, next: NextFunction ): void => {
		const timestamp = Number( req.get( CHANNEL_HEADERS.timestamp ) );
		const requestId = req.get( CHANNEL_HEADERS.requestId ) ?? '';
		const signature = req.get( CHANNEL_HEADERS.signature ) ?? '';
		const body = Buffer.isBuffer( req.body ) ? req.body : Buffer.alloc( 0 );

		if ( ! signature || ! requestId || ! Number.isInteger( timestamp ) ) {
			sendError(
				res,
				401,
				'channel_signature_missing',
				'This API only accepts calls signed with the shared key (x-si-timestamp, x-si-request-id, x-si-signature).'
			);
			return;
		}
		if ( Math.abs( nowSeconds() - timestamp ) > CHANNEL_TOLERANCE_SECONDS ) {
			sendError(
				res,
				401,
				'channel_signature_expired',
				`The request timestamp is more than ${ CHANNEL_TOLERANCE_SECONDS } s away from the sidecar's clock.`
			);
			return;
		}
		const expected = signChannelRequest( key, timestamp, requestId, req.method, req.originalUrl, body );
		if ( ! signaturesMatch( expected, signature ) ) {
			sendError(
				res,
				401,
				'channel_signature_invalid',
				'The request signature does not match; check that WordPress and the sidecar use the same shared key.'
			);
			return;
		}

		const send = res.send.bind( res );
		res.send = ( payload?: unknown ): Response => {
			const text = Buffer.isBuffer( payload )
				? payload
				: Buffer.from( typeof payload === 'string' ? payload : JSON.stringify( payload ?? '' ) );
			const now = nowSeconds();
			res.set( CHANNEL_HEADERS.timestamp, String( now ) );
			res.set( CHANNEL_HEADERS.requestId, requestId );
			res.set( CHANNEL_HEADERS.signature, signChannelResponse( key, now, requestId, res.statusCode, text ) );
			return send( text );
		};
		next();
	};
}
