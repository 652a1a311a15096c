import type { Response } from 'express';

/** One error shape for the whole API, close to WordPress's: {code, message, data: {status}}. */
export function sendError(
	res: Response,
	status: number,
	code: string,
	message: string,
	details?: Record< string, unknown >
): void {
	res.status( status ).json( { code, message, data: { status, ...details } } );
}

export class HttpError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
		readonly details?: Record< string, unknown >
	) {
		super( message );
	}
}
