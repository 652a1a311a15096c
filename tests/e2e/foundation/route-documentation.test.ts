import { responseSchemas } from '../../../scripts/lib/sidecar-responses';
import type { RestResult } from '../../../scripts/lib/rest-client';
import { schemaErrors } from '../support/answer-schema';
import { adminClient } from '../support/clients';
import { provisionServiceAccount } from '../support/service-account';

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

/**
 * The answers PHP owns follow the schema their route publishes (the admin page's types are
 * generated from the same schemas), and take `context` and `_fields` as core's routes do.
 */
describe( 'the answers of the routes PHP owns', () => {
	const NS = '/service-integration/v1';

	it( 'match the schema their route gives on OPTIONS', async () => {
		const admin = adminClient();
		const account = await provisionServiceAccount( 'answer-schemas' );
		const answers: Array< [ string, string, RestResult ] > = [];
		const call = async ( method: string, path: string, schemaPath = path.replace( /\?.*$/, '' ) ) => {
			const answer = await admin.request( { method, path, data: method === 'GET' ? undefined : {} } );
			answers.push( [ `${ method } ${ path }`, schemaPath, answer ] );
			return answer;
		};
		await call( 'GET', `${ NS }/service-account` );
		await call( 'GET', `${ NS }/service-account?context=edit` );
		const created = await admin.post< { uuid: string } >( `${ NS }/service-account/application-passwords`, {
			name: 'answer-schemas-2',
		} );
		answers.push( [ 'POST application-passwords', `${ NS }/service-account/application-passwords`, created ] );
		await call(
			'DELETE',
			`${ NS }/service-account/application-passwords/${ created.body.uuid }`,
			`${ NS }/service-account/application-passwords/${ created.body.uuid }`
		);
		await call( 'DELETE', `${ NS }/service-account/widening` );
		await call( 'POST', `${ NS }/service-account/check` );
		await call( 'GET', `${ NS }/webhooks/outbox` );
		await call( 'GET', `${ NS }/paid-orders/index` );
		await call( 'GET', `${ NS }/sidecar/status` );
		for ( const test of [ 'sidecar', 'outbox', 'cron' ] ) {
			await call( 'GET', `${ NS }/site-health/${ test }` );
		}
		const me = await account.client.get( `${ NS }/me` );
		answers.push( [ 'GET /me as the service account', `${ NS }/me`, me ] );
		answers.push( [ 'GET /me as an administrator', `${ NS }/me`, await admin.get( `${ NS }/me` ) ] );

		const problems: string[] = [];
		for ( const [ label, schemaPath, answer ] of answers ) {
			if ( answer.status >= 300 ) {
				problems.push( `${ label }: HTTP ${ answer.status } ${ answer.text.slice( 0, 200 ) }` );
				continue;
			}
			problems.push(
				...( await schemaErrors( schemaPath, answer.body ) ).map( ( error ) => `${ label }: ${ error }` )
			);
		}
		expect( problems ).toEqual( [] );
		await admin.request( {
			method: 'DELETE',
			path: `${ NS }/service-account/application-passwords/${ account.uuid }`,
		} );
	} );

	it( 'take _fields and context as core routes do; an unknown context is refused', async () => {
		const admin = adminClient();
		const only = await admin.get< Record< string, unknown > >( `${ NS }/service-account?_fields=role_exists` );
		expect( { status: only.status, keys: Object.keys( only.body ) } ).toEqual( {
			status: 200,
			keys: [ 'role_exists' ],
		} );
		const nested = await admin.get< Record< string, unknown > >(
			`${ NS }/webhooks/outbox?_fields=pending,write_failures.count`
		);
		expect( nested.body ).toEqual( {
			pending: expect.any( Number ),
			write_failures: { count: expect.any( Number ) },
		} );

		for ( const path of [
			'service-account',
			'me',
			'webhooks/outbox',
			'paid-orders/index',
			'site-health/cron',
			'sidecar/status',
		] ) {
			const edit = await admin.get( `${ NS }/${ path }?context=edit` );
			const bogus = await admin.get< { code: string; data: { params: Record< string, string > } } >(
				`${ NS }/${ path }?context=bogus`
			);
			expect( {
				path,
				edit: edit.status,
				bogus: bogus.status,
				code: bogus.body.code,
				param: Object.keys( bogus.body.data?.params ?? {} ),
			} ).toEqual( {
				path,
				edit: 200,
				bogus: 400,
				code: 'rest_invalid_param',
				param: [ 'context' ],
			} );
		}
	} );
} );
