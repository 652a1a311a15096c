import apiFetch, { type APIFetchOptions } from '@wordpress/api-fetch';

/**
 * The automation tool of the tests: @wordpress/api-fetch with a Node fetch handler
 * (its default handler breaks on Node 20 network errors) that sends HTTP Basic
 * credentials, and returns status, headers and body instead of throwing on 4xx,
 * because the tests assert on refusals as much as on successes.
 */
export interface RestResult< T = unknown > {
	status: number;
	headers: Headers;
	body: T;
	/** The body as sent, before parsing (what curl would print). */
	text: string;
}

export interface RestError {
	code: string;
	message: string;
	data?: { status?: number; [ key: string ]: unknown };
}

type ClientOptions = APIFetchOptions & { restRoot: string };

apiFetch.setFetchHandler( async ( raw ) => {
	const options = raw as ClientOptions;
	const headers: Record< string, string > = {
		accept: 'application/json',
		...( options.headers as Record< string, string > ),
	};
	let body = options.body as string | undefined;
	if ( options.data !== undefined ) {
		body = JSON.stringify( options.data );
		headers[ 'content-type' ] = 'application/json';
	}
	const url = options.url ?? joinPath( options.restRoot, options.path ?? '/' );
	const response = await fetch( url, { method: options.method ?? 'GET', headers, body, redirect: 'manual' } );
	const text = await response.text();
	let parsed: unknown = text;
	try {
		parsed = text ? JSON.parse( text ) : null;
	} catch {
		// Not JSON: keep the text so a failing assertion shows what came back.
	}
	return { status: response.status, headers: response.headers, body: parsed, text } satisfies RestResult;
} );

/** Pretty REST URLs, as an automation tool would use them. */
function joinPath( restRoot: string, path: string ): string {
	return `${ restRoot }wp-json${ path }`;
}

export type Credentials = { username: string; password: string } | { cookie: string; nonce: string } | null;

export class RestClient {
	constructor(
		readonly siteUrl: string,
		private readonly credentials: Credentials
	) {}

	request< T = unknown >( options: {
		method?: string;
		path: string;
		data?: unknown;
		body?: string;
		headers?: Record< string, string >;
	} ): Promise< RestResult< T > > {
		const headers: Record< string, string > = { ...options.headers };
		if ( this.credentials && 'username' in this.credentials ) {
			headers.authorization =
				'Basic ' +
				Buffer.from( `${ this.credentials.username }:${ this.credentials.password }` ).toString( 'base64' );
		} else if ( this.credentials ) {
			headers.cookie = this.credentials.cookie;
			headers[ 'x-wp-nonce' ] = this.credentials.nonce;
		}
		return apiFetch( {
			...options,
			headers,
			restRoot: `${ this.siteUrl }/`,
		} as ClientOptions ) as Promise< RestResult< T > >;
	}

	get< T = unknown >( path: string ): Promise< RestResult< T > > {
		return this.request< T >( { path } );
	}

	post< T = unknown >( path: string, data?: unknown ): Promise< RestResult< T > > {
		return this.request< T >( { method: 'POST', path, data } );
	}
}
