/**
 * The one door to the REST API: @wordpress/api-fetch, which wp-admin already configured
 * (REST root and nonce middlewares of the `wp-api-fetch` script), and one error type.
 */
import apiFetch from '@wordpress/api-fetch';
import { __ } from '@wordpress/i18n';

export const NAMESPACE = '/service-integration/v1';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** A refused or failed call, with WordPress's error code and the HTTP status when known. */
export class ApiError extends Error {
	readonly code: string;
	readonly status: number | null;
	readonly data: Record< string, unknown >;

	constructor( code: string, message: string, status: number | null, data: Record< string, unknown > = {} ) {
		super( message );
		this.name = 'ApiError';
		this.code = code;
		this.status = status;
		this.data = data;
	}
}

function isRecord( value: unknown ): value is Record< string, unknown > {
	return typeof value === 'object' && value !== null && ! Array.isArray( value );
}

/** The code of a problem found in a form before anything was sent. */
export const INVALID_INPUT = 'invalid_input';

/**
 * A form's own validation error: shown where a refused call's error would be, and in its
 * place (one error at a time), without an error code since no server gave one.
 */
export function invalidInput( message: string, field?: string ): ApiError {
	return new ApiError( INVALID_INPUT, message, null, field ? { field } : {} );
}

export function isInvalidInput( error: ApiError ): boolean {
	return error.code === INVALID_INPUT && error.status === null;
}

/** api-fetch rejects with the parsed error body ({code, message, data}) or its own {code, message}. */
export function toApiError( raw: unknown ): ApiError {
	if ( raw instanceof ApiError ) {
		return raw;
	}
	if ( isRecord( raw ) ) {
		const data = isRecord( raw.data ) ? raw.data : {};
		const status = typeof data.status === 'number' ? data.status : null;
		const code = typeof raw.code === 'string' ? raw.code : 'unknown_error';
		const message =
			typeof raw.message === 'string'
				? raw.message
				: typeof raw.code === 'string'
					? raw.code
					: __( 'Unknown error', 'service-integration' );
		return new ApiError( code, message, status, data );
	}
	if ( raw instanceof Error ) {
		return new ApiError( 'fetch_error', raw.message, null );
	}
	return new ApiError( 'unknown_error', String( raw ), null );
}

/** Calls `NAMESPACE + path`; resolves with the parsed body, rejects with an ApiError. */
export async function request< T >( method: Method, path: string, data?: unknown ): Promise< T > {
	try {
		return await apiFetch< T >( { path: NAMESPACE + path, method, ...( data === undefined ? {} : { data } ) } );
	} catch ( error ) {
		throw toApiError( error );
	}
}

/**
 * Calls `NAMESPACE + path` for a route whose refusals still answer its resource (POST
 * /webhooks/outbox answers the outbox's state with 409 or 503): resolves with the HTTP status
 * and the parsed body whatever the status; rejects only when the site did not answer JSON.
 */
export async function requestAnswer< T >( method: Method, path: string ): Promise< { status: number; body: T } > {
	let response: Response;
	try {
		response = await apiFetch< unknown, false >( { path: NAMESPACE + path, method, parse: false } );
	} catch ( error ) {
		// api-fetch rejects a non-2xx Response as it is when parse is false.
		if ( error instanceof Response ) {
			response = error;
		} else {
			throw toApiError( error );
		}
	}
	try {
		return { status: response.status, body: ( await response.json() ) as T };
	} catch ( error ) {
		throw toApiError( error );
	}
}

/** `?a=1&b=x` from the defined, non-empty values (empty string when there are none). */
export function queryString( params: Record< string, string | number | undefined | null > ): string {
	const search = new URLSearchParams();
	for ( const [ key, value ] of Object.entries( params ) ) {
		if ( value !== undefined && value !== null && value !== '' ) {
			search.set( key, String( value ) );
		}
	}
	const text = search.toString();
	return text ? `?${ text }` : '';
}

/** The route does not exist on this site (yet): a feature whose PHP part is not installed. */
export function isNotAvailable( error: unknown ): boolean {
	return error instanceof ApiError && error.code === 'rest_no_route';
}
