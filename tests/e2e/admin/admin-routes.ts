import { PLAYGROUND_COOKIE } from '../../../scripts/lib/wp-env';

/**
 * Every administrator route of the plugin, read from the REST index of its namespace, so
 * a route added later is covered without editing a list. Each comes with a path whose
 * parameters match the route's pattern and a body holding its required arguments (core
 * validates arguments before the permission check: a request missing one would get 400,
 * not the 403 under test).
 */
export const NAMESPACE = 'service-integration/v1';

/** Routes that are not the admin page's: the service account's own and the sidecar's signed callback (tested elsewhere). */
export const NOT_ADMIN_ROUTES = [
	`/${ NAMESPACE }`,
	`/${ NAMESPACE }/me`,
	`/${ NAMESPACE }/commandes-payees`,
	`/${ NAMESPACE }/sidecar/callback`,
];

export interface AdminCall {
	method: string;
	path: string;
	data?: Record< string, unknown >;
}

interface ArgSchema {
	type?: string | string[];
	required?: boolean;
	enum?: unknown[];
	format?: string;
	minimum?: number;
	minLength?: number;
	pattern?: string;
}

interface IndexRoute {
	endpoints: Array< { methods: string[]; args?: Record< string, ArgSchema > | unknown[] } >;
}

/** Values that satisfy most path patterns; the first that matches is used. */
const PATH_SAMPLES = [ '1', 'sample', '00000000-0000-4000-8000-000000000000', 'sidecar' ];

function samplePath( route: string ): string {
	return route.replace( /\(\?P<(\w+)>([^)]*(?:\([^)]*\)[^)]*)*)\)/g, ( whole, name: string, pattern: string ) => {
		const value = PATH_SAMPLES.find( ( sample ) => new RegExp( `^(?:${ pattern })$` ).test( sample ) );
		if ( value === undefined ) {
			throw new Error( `No sample value matches ${ name } in ${ route }: add one to PATH_SAMPLES.` );
		}
		return value;
	} );
}

function sampleValue( name: string, schema: ArgSchema ): unknown {
	if ( schema.enum && schema.enum.length > 0 ) {
		return schema.enum[ 0 ];
	}
	const type = Array.isArray( schema.type ) ? schema.type[ 0 ] : schema.type;
	switch ( type ) {
		case 'integer':
		case 'number':
			return schema.minimum ?? 1;
		case 'boolean':
			return true;
		case 'array':
			return [];
		case 'object':
			return {};
		default:
			if ( schema.format === 'uri' ) {
				return 'https://attacker.example/hook';
			}
			if ( schema.format === 'date-time' ) {
				return '2020-01-01T00:00:00Z';
			}
			if ( schema.pattern ) {
				throw new Error( `Required argument ${ name } has a pattern: give it a sample in admin-routes.ts.` );
			}
			return 'x'.repeat( Math.max( 1, schema.minLength ?? 1 ) );
	}
}

function sampleBody(
	args: Record< string, ArgSchema > | unknown[] | undefined
): Record< string, unknown > | undefined {
	if ( ! args || Array.isArray( args ) ) {
		return undefined;
	}
	const required = Object.entries( args ).filter( ( [ , schema ] ) => schema.required );
	return required.length > 0
		? Object.fromEntries( required.map( ( [ name, schema ] ) => [ name, sampleValue( name, schema ) ] ) )
		: undefined;
}

export async function adminCalls( siteUrl: string ): Promise< AdminCall[] > {
	const response = await fetch( `${ siteUrl }/wp-json/${ NAMESPACE }`, {
		headers: { cookie: PLAYGROUND_COOKIE, accept: 'application/json' },
	} );
	if ( response.status !== 200 ) {
		throw new Error( `The REST index of ${ NAMESPACE } answered HTTP ${ response.status }` );
	}
	const index = ( await response.json() ) as { routes: Record< string, IndexRoute > };
	const calls: AdminCall[] = [];
	for ( const [ route, { endpoints } ] of Object.entries( index.routes ) ) {
		if ( NOT_ADMIN_ROUTES.includes( route ) ) {
			continue;
		}
		for ( const endpoint of endpoints ) {
			const data = sampleBody( endpoint.args );
			for ( const method of endpoint.methods ) {
				const path = samplePath( route );
				// A GET carries its arguments in the query string.
				if ( method === 'GET' && data ) {
					calls.push( {
						method,
						path: `${ path }?${ new URLSearchParams( Object.entries( data ).map( ( [ k, v ] ) => [ k, String( v ) ] ) ) }`,
					} );
				} else {
					calls.push( { method, path, ...( data ? { data } : {} ) } );
				}
			}
		}
	}
	return calls;
}
