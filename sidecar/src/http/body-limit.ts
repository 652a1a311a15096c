import type { NextFunction, Request, Response } from 'express';
import { sendError } from './errors';

/**
 * Refuses a body over the limit once the request's signature is checked (channelAuth), so the
 * 413 is signed like every other answer on the channel: the body reader's own 413 comes before
 * the signature can be checked, and WordPress cannot trust an unsigned answer.
 */
export function bodyWithinLimit( maxBodyBytes: number ) {
	return ( req: Request, res: Response, next: NextFunction ): void => {
		if ( Buffer.isBuffer( req.body ) && req.body.length > maxBodyBytes ) {
			sendError( res, 413, 'body_too_large', `The request body exceeds ${ maxBodyBytes } bytes.` );
			return;
		}
		next();
	};
}
