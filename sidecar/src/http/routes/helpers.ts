import type { Request, Response } from 'express';
import type { z } from 'zod';
import { EVENT_TYPES, isEventType, type EventType } from '../../contracts/constants';
import { HttpError, sendError } from '../errors';
import { parseJsonBody } from '../json-body';

/** For routes whose body fields are all optional: an empty body means {}. */
export function parseOptionalJsonBody< T extends z.ZodTypeAny >( req: Request, schema: T ): z.infer< T > {
	const empty = ! Buffer.isBuffer( req.body ) || req.body.length === 0;
	return parseJsonBody( empty ? ( { body: Buffer.from( '{}' ) } as Request ) : req, schema );
}

export function parseQuery< T extends z.ZodTypeAny >( req: Request, schema: T ): z.infer< T > {
	const result = schema.safeParse( req.query );
	if ( ! result.success ) {
		const problems = result.error.issues.map(
			( issue ) => `${ issue.path.join( '.' ) || '(query)' }: ${ issue.message }`
		);
		throw new HttpError( 400, 'invalid_query', `Invalid query string: ${ problems.join( '; ' ) }`, { problems } );
	}
	return result.data;
}

export function requireEventType( value: string, field: string ): EventType {
	if ( ! isEventType( value ) ) {
		throw new HttpError(
			400,
			'invalid_event_type',
			`${ field }: unknown event type "${ value }"; known types: ${ EVENT_TYPES.join( ', ' ) }.`,
			{
				field,
				allowed: EVENT_TYPES,
			}
		);
	}
	return value;
}

/** Answers a known path called with the wrong method: 405 with Allow, rather than a misleading 404. */
export function methodNotAllowed( ...allowed: string[] ) {
	return ( req: Request, res: Response ): void => {
		res.set( 'allow', allowed.join( ', ' ) );
		sendError(
			res,
			405,
			'method_not_allowed',
			`${ req.method } is not allowed here; use ${ allowed.join( ' or ' ) }.`,
			{ allowed }
		);
	};
}

export function iso( ms: number ): string;
export function iso( ms: number | null ): string | null;
export function iso( ms: number | null ): string | null {
	return ms === null ? null : new Date( ms ).toISOString();
}
