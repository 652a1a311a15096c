import type { Request } from 'express';
import type { z } from 'zod';
import { HttpError } from './errors';

/**
 * Bodies arrive as raw bytes (signatures are computed over them); this parses and
 * validates them, turning every failure into a 400 that names the bad field.
 */
export function parseJsonBody< T extends z.ZodTypeAny >( req: Request, schema: T ): z.infer< T > {
	const raw = Buffer.isBuffer( req.body ) ? req.body.toString( 'utf8' ) : '';
	let data: unknown;
	try {
		data = JSON.parse( raw );
	} catch {
		throw new HttpError( 400, 'invalid_json', 'The request body is not valid JSON.' );
	}
	const result = schema.safeParse( data );
	if ( ! result.success ) {
		const problems = result.error.issues.map(
			( issue ) => `${ issue.path.join( '.' ) || '(body)' }: ${ issue.message }`
		);
		throw new HttpError( 400, 'invalid_body', `Invalid request body: ${ problems.join( '; ' ) }`, { problems } );
	}
	return result.data;
}
