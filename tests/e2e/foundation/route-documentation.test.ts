import { responseSchemas } from '../../../scripts/lib/sidecar-responses';
import { adminClient } from '../support/clients';

interface RouteIndex {
	routes: Record< string, { methods: string[] } >;
}

interface Endpoint {
	methods: string[];
	args?: Record< string, { type?: unknown; description?: string } > | [];
}

interface OptionsAnswer {
	namespace: string;
	methods: string[];
	endpoints: Endpoint[];
	schema?: { title?: string; type?: string; properties?: Record< string, unknown > };
}

const NAMESPACES = [ 'service-integration/v1', 'service-integration-inbound/v1' ];

/** A concrete path for a route's pattern: each URL parameter gets a value its pattern accepts. */
function concretePath( route: string ): string {
	return route.replace( /\(\?P<(\w+)>([^)]*)\)/g, ( _match, _name: string, pattern: string ) => {
		if ( pattern.includes( '0-9a-f-]{36}' ) ) {
			return '00000000-0000-4000-8000-000000000000';
		}
		if ( pattern.startsWith( '[0-9]' ) ) {
			return '1';
		}
		if ( /^[a-z-]+(\|[a-z-]+)+$/.test( pattern ) ) {
			return pattern.split( '|' )[ 0 ] as string; // one of a list of names
		}
		return 'route-doc-1';
	} );
}

/**
 * OPTIONS documents every route of the plugin: what each method takes (args) and what the route
 * answers (schema), as WordPress core's own controllers do.
 */
describe( 'OPTIONS on every route of the plugin', () => {
	const routes: string[] = [];

	beforeAll( async () => {
		for ( const namespace of NAMESPACES ) {
			const index = await adminClient().get< RouteIndex >( `/${ namespace }` );
			expect( index.status ).toBe( 200 );
			routes.push( ...Object.keys( index.body.routes ).filter( ( route ) => route !== `/${ namespace }` ) );
		}
	} );

	it( 'finds the routes of both namespaces', () => {
		expect( routes ).toEqual(
			expect.arrayContaining( [
				'/service-integration/v1/webhooks/endpoints',
				'/service-integration/v1/webhooks/outbox',
				'/service-integration/v1/inbound/events',
				'/service-integration/v1/inbound/sources',
				'/service-integration/v1/service-account',
				'/service-integration/v1/sidecar/callback',
				expect.stringMatching( /^\/service-integration-inbound\/v1\/\(\?P<source>/ ),
			] )
		);
		expect( routes.length ).toBeGreaterThan( 20 );
	} );

	it( 'answers each with a schema and the args of each method', async () => {
		const undocumented: string[] = [];
		for ( const route of routes ) {
			const answer = await adminClient().request< OptionsAnswer >( {
				method: 'OPTIONS',
				path: concretePath( route ),
			} );
			if ( answer.status !== 200 ) {
				undocumented.push( `${ route }: OPTIONS answered ${ answer.status }` );
				continue;
			}
			const { schema, endpoints } = answer.body;
			if ( ! Array.isArray( endpoints ) ) {
				undocumented.push(
					`${ route }: OPTIONS answered without endpoints: ${ JSON.stringify( answer.body ).slice( 0, 300 ) }`
				);
				continue;
			}
			if ( ! schema || typeof schema.title !== 'string' || typeof schema.properties !== 'object' ) {
				undocumented.push( `${ route }: no schema with a title and properties` );
			}
			for ( const endpoint of endpoints ) {
				if ( endpoint.args === undefined ) {
					undocumented.push( `${ route } ${ endpoint.methods.join( ',' ) }: no args` );
					continue;
				}
				for ( const [ name, arg ] of Object.entries( endpoint.args ) ) {
					if ( arg.type === undefined ) {
						undocumented.push( `${ route } ${ endpoint.methods.join( ',' ) }: arg ${ name } has no type` );
					}
				}
			}
		}
		expect( undocumented ).toEqual( [] );
	} );

	it( 'describes the body an endpoint is created with', async () => {
		const answer = await adminClient().request< OptionsAnswer >( {
			method: 'OPTIONS',
			path: '/service-integration/v1/webhooks/endpoints',
		} );
		const post = answer.body.endpoints.find( ( endpoint ) => endpoint.methods.includes( 'POST' ) );
		expect( post?.args ).toMatchObject( {
			url: { type: 'string' },
			event_types: { type: 'array', items: { enum: [ 'order.created', 'order.paid', 'order.refunded' ] } },
		} );
		expect( answer.body.schema?.title ).toBe( 'webhook-endpoints' );
	} );

	it( "answers, on the sidecar's proxy routes, the response schemas generated from the sidecar's answers", async () => {
		const proxied = {
			'/service-integration/v1/webhooks/endpoints': 'webhook-endpoints',
			'/service-integration/v1/webhooks/endpoints/00000000-0000-4000-8000-000000000000/replay':
				'webhook-endpoint-replay',
			'/service-integration/v1/webhooks/events/evt_route_doc': 'webhook-event',
			'/service-integration/v1/inbound/sources/route-doc-1': 'inbound-source',
		};
		for ( const [ path, title ] of Object.entries( proxied ) ) {
			const answer = await adminClient().request< OptionsAnswer >( { method: 'OPTIONS', path } );
			expect( answer.status ).toBe( 200 );
			expect( answer.body.schema ).toEqual( {
				$schema: 'http://json-schema.org/draft-04/schema#',
				...responseSchemas()[ title ],
			} );
		}
	} );
} );
