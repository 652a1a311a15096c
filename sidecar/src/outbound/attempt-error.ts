import type { AttemptErrorView } from '../contracts/views';
import type { EndpointHealth } from '../model/health';

export type { AttemptErrorView };

/** "HTTP 503: <start of the answer>" or the network error code, short enough for a status line. */
export function attemptErrorMessage( status: number | null, errorCode: string | null, excerpt: string | null ): string {
	if ( status === null ) {
		return `network error ${ errorCode ?? 'unknown' }`;
	}
	const text = ( excerpt ?? '' ).replace( /\s+/g, ' ' ).trim().slice( 0, 200 );
	return text === '' ? `HTTP ${ status }` : `HTTP ${ status }: ${ text }`;
}

export function attemptErrorView( error: NonNullable< EndpointHealth[ 'lastError' ] > ): AttemptErrorView {
	return {
		at: new Date( error.at ).toISOString(),
		status: error.status,
		message: attemptErrorMessage( error.status, error.errorCode, error.excerpt ),
	};
}
