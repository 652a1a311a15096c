import type { RestError, RestResult } from '../../../scripts/lib/rest-client';

/** A refusal the WordPress way: an error code and 401 (anonymous) or 403 (authenticated). */
export function expectRefused(
	result: RestResult< unknown >,
	code = 'rest_forbidden',
	statuses: number[] = [ 401, 403 ]
): void {
	const body = result.body as RestError;
	expect( { status: statuses.includes( result.status ) ? 'refused' : result.status, code: body?.code } ).toEqual( {
		status: 'refused',
		code,
	} );
}
