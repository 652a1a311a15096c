import { adminClient } from '../support/clients';
import { readState } from '../support/environment';
import { provisionServiceAccount, type ServiceAccount } from '../support/service-account';

/**
 * Walks every route and method of the running site's REST index with the service
 * account's credentials. Everything must be refused except this explicit list: a new
 * route that opens up (from any plugin) makes this test fail.
 */
const ALLOWED = new Set( [
	'GET /',
	'GET /service-integration/v1',
	'GET /service-integration/v1/me',
	'GET /service-integration/v1/commandes-payees',
	'GET /wp/v2/commandes-fabrication',
	'POST /wp/v2/commandes-fabrication',
	'GET /wp/v2/commandes-fabrication/(?P<id>[\\d]+)',
	'POST /wp/v2/commandes-fabrication/(?P<id>[\\d]+)',
	'PUT /wp/v2/commandes-fabrication/(?P<id>[\\d]+)',
	'PATCH /wp/v2/commandes-fabrication/(?P<id>[\\d]+)',
	// WordPress 6.9+: the abilities listing (the plugin's own abilities are run by name, which
	// the sweep's sample names are not: those calls are refused).
	'GET /wp-abilities/v1/abilities',
] );

/**
 * Routes the allow-list lets through, called anyway: core must refuse them with one of
 * these codes. The id is the account's own record, the one case where a refusal is not
 * obvious (it may edit it, but holds no delete capability).
 */
const REFUSED_BY_CAPABILITY: Record< string, string[] > = {
	'DELETE /wp/v2/commandes-fabrication/(?P<id>[\\d]+)': [ 'rest_cannot_delete', 'rest_forbidden' ],
};
const OWN_RECORD_ROUTE = '/wp/v2/commandes-fabrication/(?P<id>[\\d]+)';

const SAMPLES = [
	'1',
	'hello',
	'hello-dolly/hello',
	'core/paragraph',
	'twentytwentyfour',
	'7e4b1c3a-0000-4000-8000-000000000000',
	'a',
];

/** Turns a route pattern into a concrete path, picking a sample each parameter accepts. */
function concretePath( pattern: string ): string {
	return pattern.replace( /\(\?P<(\w+)>((?:[^()]|\([^()]*\))*)\)/g, ( _match, _name: string, inner: string ) => {
		let regex: RegExp;
		try {
			regex = new RegExp( `^(?:${ inner })$` );
		} catch {
			return '1';
		}
		return SAMPLES.find( ( sample ) => regex.test( sample ) ) ?? '1';
	} );
}

describe( 'capability sweep over the whole REST index', () => {
	let account: ServiceAccount;
	let calls: Array< { key: string; method: string; path: string } >;
	let ownRecord: number;

	beforeAll( async () => {
		account = await provisionServiceAccount( 'sweep' );
		const created = await account.client.post< { id: number } >( '/wp/v2/commandes-fabrication', {
			title: 'Own record',
			status: 'publish',
		} );
		expect( created.status ).toBe( 201 );
		ownRecord = created.body.id;
		const index = await adminClient().get< { routes: Record< string, { methods: string[] } > } >( '/' );
		calls = Object.entries( index.body.routes ).flatMap( ( [ route, { methods } ] ) =>
			[ ...new Set( methods ) ]
				.filter( ( method ) => method !== 'OPTIONS' )
				.map( ( method ) => ( {
					key: `${ method } ${ route }`,
					method,
					path:
						route === OWN_RECORD_ROUTE
							? `/wp/v2/commandes-fabrication/${ ownRecord }?force=true`
							: concretePath( route ),
				} ) )
		);
	} );

	it( 'finds the routes that matter in the index', () => {
		const keys = calls.map( ( call ) => call.key );
		expect( keys ).toEqual(
			expect.arrayContaining( [
				'GET /wp/v2/users',
				'POST /wp/v2/plugins',
				'POST /wp/v2/settings',
				'GET /service-integration/v1/me',
			] )
		);
		expect( calls.length ).toBeGreaterThan( 100 );
	} );

	// A few hundred calls, one at a time: seconds on the production runtime, but under Playground
	// (PHP as WebAssembly, one worker) minutes on an idle machine and ten on a busy one. There the
	// sweep calls every route outside core's wp/v2 namespace (plugins' routes, WooCommerce's among
	// them), every manufacturing-order route, and every third core route and method; the refusal
	// is one rule applied before any route's own check, so a third of core's routes exercises it
	// as well as all of them. CI runs the whole sweep on the production runtime (.ci/run).
	// The bound is for a hang, not for speed.
	it( 'refuses every route and method outside the allowed list with rest_forbidden', async () => {
		const opened: string[] = [];
		const swept =
			readState().runtime === 'production'
				? calls
				: calls.filter(
						( call, index ) =>
							! call.key.includes( ' /wp/v2/' ) ||
							call.key.includes( 'commandes-fabrication' ) ||
							index % 3 === 0
					);
		for ( const call of swept ) {
			if ( ALLOWED.has( call.key ) ) {
				continue;
			}
			const result = await account.client.request< { code?: string } >( {
				method: call.method,
				path: call.path,
				data: [ 'POST', 'PUT', 'PATCH' ].includes( call.method ) ? { title: 'sweep' } : undefined,
			} );
			const codes = REFUSED_BY_CAPABILITY[ call.key ] ?? [ 'rest_forbidden' ];
			if ( result.status !== 403 || ! codes.includes( result.body?.code ?? '' ) ) {
				opened.push( `${ call.key } (${ call.path }) → ${ result.status } ${ result.body?.code ?? '' }` );
			}
		}
		expect( opened ).toEqual( [] );
		expect( calls.map( ( call ) => call.key ) ).toEqual(
			expect.arrayContaining( Object.keys( REFUSED_BY_CAPABILITY ) )
		);
		// The delete that was refused left the record in place.
		expect( ( await account.client.get( `/wp/v2/commandes-fabrication/${ ownRecord }` ) ).status ).toBe( 200 );
	}, 1_800_000 );
} );
