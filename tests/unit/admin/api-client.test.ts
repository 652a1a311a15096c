import { setLocaleData } from '@wordpress/i18n';
import { ApiError, toApiError } from '../../../plugin/admin/src/api/client';

/**
 * The admin page's error type: WordPress's code, message and status when the answer
 * has them, and a translatable text when it has none.
 */
describe( 'toApiError', () => {
	afterEach( () => {
		setLocaleData( {}, 'service-integration' );
	} );

	test( 'keeps the code, message and status of a WordPress error body', () => {
		const error = toApiError( {
			code: 'rest_forbidden',
			message: 'Sorry, you are not allowed to do that.',
			data: { status: 403 },
		} );
		expect( error ).toBeInstanceOf( ApiError );
		expect( [ error.code, error.message, error.status ] ).toEqual( [
			'rest_forbidden',
			'Sorry, you are not allowed to do that.',
			403,
		] );
	} );

	test( 'a body with a code and no message shows the code', () => {
		expect( toApiError( { code: 'sidecar_unreachable' } ).message ).toBe( 'sidecar_unreachable' );
	} );

	test( 'a body with neither says "Unknown error" in the site language', () => {
		expect( toApiError( {} ).message ).toBe( 'Unknown error' );
		setLocaleData( { 'Unknown error': [ 'Erreur inconnue' ] }, 'service-integration' );
		expect( toApiError( {} ) ).toMatchObject( { code: 'unknown_error', message: 'Erreur inconnue', status: null } );
	} );
} );
