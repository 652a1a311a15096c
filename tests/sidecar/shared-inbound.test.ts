import mysql from 'mysql2/promise';
import { FORWARDED_HEADER_PREFIX, INBOUND_SCHEMES } from '../../sidecar/src/contracts/constants';
import { providerSecret, sampleWebhook, type SignedWebhook } from '../support/inbound-signers';
import { startMariaDb, type RunningMariaDb } from '../support/mariadb';
import type { ApiCall, ApiResponse } from './support/api-client';
import { startHarness, type Harness } from './support/harness';
import { startSharedInstance, type SharedInstance as Instance } from './support/shared-instance';

/** Small, so that the oversized-body case costs little; the same on both stores. */
const MAX_BODY_BYTES = 4096;
const ENV = { SIDECAR_MAX_BODY_BYTES: String( MAX_BODY_BYTES ) };
const startInstance = ( url: string, name: string ) => startSharedInstance( url, name, ENV );

const forwarded = ( webhook: SignedWebhook ) =>
	Object.fromEntries(
		Object.entries( webhook.headers ).map( ( [ name, value ] ) => [ FORWARDED_HEADER_PREFIX + name, value ] )
	);
const verifyOn = ( api: ApiCall, source: string, webhook: SignedWebhook ) =>
	api( 'POST', `/v1/inbound/sources/${ source }/verify`, webhook.body, { headers: forwarded( webhook ) } );
const outcome = ( answer: ApiResponse ) => ( { status: answer.status, code: answer.body?.code as unknown } );

/**
 * The inbound side on the shared store: sources, secrets and the verification log live in
 * MariaDB, so what is changed through instance A is what instance B verifies with at once,
 * and what B logs is what A lists. Bad input answers as on the embedded store.
 */
describe( 'inbound webhooks through two instances on one MariaDB', () => {
	let database: RunningMariaDb;
	let admin: mysql.Connection;
	let a: Instance;
	let b: Instance;

	beforeAll( async () => {
		database = await startMariaDb( { name: 'shared_inbound_test' } );
		a = await startInstance( database.url, 'instance-a' );
		b = await startInstance( database.url, 'instance-b' );
		admin = await mysql.createConnection( database.url );
	} );

	afterAll( async () => {
		await admin?.end();
		await a?.close();
		await b?.close();
		await database?.stop();
	} );

	const sql = async < T = Record< string, unknown > >( query: string, params: unknown[] = [] ) =>
		( await admin.query( query, params ) )[ 0 ] as T[];

	it( 'verifies on B a webhook for a source created through A; B’s log entry is listed and answered through A', async () => {
		const created = await a.api( 'POST', '/v1/inbound/sources', {
			id: 'across',
			scheme: 'standard-webhooks',
			description: 'made on A',
		} );
		expect( created.status ).toBe( 201 );
		const secret = created.body.secret as string;
		const { secret: _shownOnce, ...view } = created.body;
		expect( ( await b.api( 'GET', '/v1/inbound/sources/across' ) ).body ).toEqual( view );
		expect( ( await b.api( 'GET', '/v1/inbound/sources' ) ).body.sources ).toContainEqual( view );

		const webhook = sampleWebhook( 'standard-webhooks', secret, { eventId: 'msg_across_1' } );
		const verified = await verifyOn( b.api, 'across', webhook );
		expect( verified.status ).toBe( 200 );
		expect( verified.body ).toMatchObject( {
			source: 'across',
			event_id: 'msg_across_1',
			log_id: expect.any( Number ),
		} );

		const listed = await a.api( 'GET', '/v1/inbound/log?source=across' );
		expect( listed.body ).toMatchObject( { total: 1, page: 1, per_page: 20 } );
		expect( listed.body.entries ).toEqual( [
			{
				id: verified.body.log_id,
				at: expect.any( String ),
				source: 'across',
				outcome: 'unconfirmed',
				status: 200,
				code: null,
				event_id: 'msg_across_1',
				answer_status: null,
			},
		] );
		// WordPress may report its answer to either instance.
		expect(
			( await a.api( 'POST', `/v1/inbound/log/${ verified.body.log_id }/answer`, { status: 202 } ) ).body
		).toMatchObject( { id: verified.body.log_id, outcome: 'verified', answer_status: 202 } );
		expect( ( await b.api( 'GET', '/v1/inbound/log?source=across' ) ).body.entries[ 0 ] ).toMatchObject( {
			outcome: 'verified',
			answer_status: 202,
		} );
	} );

	it.each( [ ...INBOUND_SCHEMES ] )( '%s: a source created through A verifies on B', async ( scheme ) => {
		const id = `scheme-${ scheme }`;
		const given = providerSecret( scheme );
		const created = await a.api( 'POST', '/v1/inbound/sources', { id, scheme, secret: given } );
		expect( created.status ).toBe( 201 );
		const webhook = sampleWebhook( scheme, given ?? ( created.body.secret as string ) );
		const answer = await verifyOn( b.api, id, webhook );
		expect( { status: answer.status, event_id: answer.body.event_id, type: answer.body.type } ).toEqual( {
			status: 200,
			event_id: webhook.expected.eventId,
			type: webhook.expected.type,
		} );
	} );

	it( 'refuses on B the secret rotated away through A with no grace, and verifies the new one', async () => {
		const first = providerSecret( 'github' ) as string;
		const second = providerSecret( 'github' ) as string;
		expect(
			( await a.api( 'POST', '/v1/inbound/sources', { id: 'gh', scheme: 'github', secret: first } ) ).status
		).toBe( 201 );
		expect( ( await verifyOn( b.api, 'gh', sampleWebhook( 'github', first ) ) ).status ).toBe( 200 );

		const rotated = await a.api( 'POST', '/v1/inbound/sources/gh/rotate-secret', {
			secret: second,
			grace_hours: 0,
		} );
		expect( rotated.status ).toBe( 200 );
		expect( rotated.text ).not.toContain( second );
		expect( outcome( await verifyOn( b.api, 'gh', sampleWebhook( 'github', first ) ) ) ).toEqual( {
			status: 401,
			code: 'invalid_signature',
		} );
		expect( ( await verifyOn( b.api, 'gh', sampleWebhook( 'github', second ) ) ).status ).toBe( 200 );
		expect( ( await b.api( 'GET', '/v1/inbound/sources/gh' ) ).body.secrets ).toEqual( rotated.body.secrets );
		// The old secret is gone from the store, not just filtered out.
		expect( await sql( "SELECT origin, expires_at FROM inbound_source_secrets WHERE source_id = 'gh'" ) ).toEqual( [
			{ origin: 'provided', expires_at: null },
		] );
	} );

	it( 'accepts on B both secrets during a grace set through A; a shorter grace through B shortens every older one', async () => {
		const created = await a.api( 'POST', '/v1/inbound/sources', { id: 'graceful', scheme: 'standard-webhooks' } );
		const oldSecret = created.body.secret as string;
		const rotated = await a.api( 'POST', '/v1/inbound/sources/graceful/rotate-secret', { grace_hours: 48 } );
		const newSecret = rotated.body.secret as string;
		for ( const secret of [ oldSecret, newSecret ] ) {
			expect( ( await verifyOn( b.api, 'graceful', sampleWebhook( 'standard-webhooks', secret ) ) ).status ).toBe(
				200
			);
		}
		const again = await b.api( 'POST', '/v1/inbound/sources/graceful/rotate-secret', { grace_hours: 1 } );
		const expiries = ( again.body.secrets as Array< { expires_at: string | null } > ).map( ( s ) => s.expires_at );
		expect( expiries ).toHaveLength( 3 );
		expect( expiries[ 0 ] ).toBeNull();
		// The first secret's 48 h grace is cut to the new 1 h: both older secrets end together.
		expect( expiries[ 2 ] ).toBe( expiries[ 1 ] );
		expect( Date.parse( expiries[ 1 ] as string ) - Date.now() ).toBeLessThanOrEqual( 3_600_000 );
		// And a later, longer grace never extends them.
		const longer = await a.api( 'POST', '/v1/inbound/sources/graceful/rotate-secret', { grace_hours: 48 } );
		const later = ( longer.body.secrets as Array< { expires_at: string | null } > ).map( ( s ) => s.expires_at );
		expect( later.slice( 2 ) ).toEqual( [ expiries[ 1 ], expiries[ 1 ] ] );
		expect( ( await a.api( 'GET', '/v1/inbound/sources/graceful' ) ).body.secrets ).toEqual( longer.body.secrets );
		expect( ( await b.api( 'GET', '/v1/inbound/sources/graceful' ) ).body.secrets ).toEqual( longer.body.secrets );
	} );

	it( 'applies on B a disable, an enable and a tolerance made through A to the very next request', async () => {
		const created = await a.api( 'POST', '/v1/inbound/sources', { id: 'switched', scheme: 'standard-webhooks' } );
		const secret = created.body.secret as string;
		// Signed two minutes ago: inside the default 300 s, outside 60 s.
		const webhook = sampleWebhook( 'standard-webhooks', secret, {
			timestamp: Math.floor( Date.now() / 1000 ) - 120,
		} );
		expect( ( await verifyOn( b.api, 'switched', webhook ) ).status ).toBe( 200 );

		expect( ( await a.api( 'PATCH', '/v1/inbound/sources/switched', { status: 'disabled' } ) ).status ).toBe( 200 );
		expect( outcome( await verifyOn( b.api, 'switched', webhook ) ) ).toEqual( {
			status: 403,
			code: 'source_disabled',
		} );

		expect(
			( await a.api( 'PATCH', '/v1/inbound/sources/switched', { status: 'active', tolerance_seconds: 60 } ) )
				.status
		).toBe( 200 );
		expect( outcome( await verifyOn( b.api, 'switched', webhook ) ) ).toEqual( {
			status: 401,
			code: 'stale_timestamp',
		} );
		const fresh = sampleWebhook( 'standard-webhooks', secret );
		expect( ( await verifyOn( b.api, 'switched', fresh ) ).status ).toBe( 200 );

		const refusals = await a.api( 'GET', '/v1/inbound/log?source=switched&outcome=refused' );
		expect( refusals.body.entries.map( ( e: { code: string } ) => e.code ) ).toEqual( [
			'stale_timestamp',
			'source_disabled',
		] );
	} );

	it( 'refuses on B a source deleted through A as unknown, its secrets gone', async () => {
		const created = await a.api( 'POST', '/v1/inbound/sources', { id: 'doomed', scheme: 'standard-webhooks' } );
		const webhook = sampleWebhook( 'standard-webhooks', created.body.secret as string );
		expect( ( await a.api( 'DELETE', '/v1/inbound/sources/doomed' ) ).body ).toEqual( {
			deleted: true,
			id: 'doomed',
		} );
		expect( outcome( await verifyOn( b.api, 'doomed', webhook ) ) ).toEqual( {
			status: 404,
			code: 'unknown_source',
		} );
		expect( outcome( await b.api( 'GET', '/v1/inbound/sources/doomed' ) ) ).toEqual( {
			status: 404,
			code: 'source_not_found',
		} );
		expect( await sql( "SELECT COUNT(*) AS n FROM inbound_source_secrets WHERE source_id = 'doomed'" ) ).toEqual( [
			{ n: 0 },
		] );
	} );

	it( 'creates an id once when A and B are asked at the same moment: one 201, one 409, one secret', async () => {
		for ( let round = 0; round < 5; round++ ) {
			const id = `race-${ round }`;
			const answers = await Promise.all(
				[ a, b ].map( ( instance ) =>
					instance.api( 'POST', '/v1/inbound/sources', { id, scheme: 'standard-webhooks' } )
				)
			);
			expect( answers.map( ( answer ) => answer.status ).sort() ).toEqual( [ 201, 409 ] );
			expect( answers.find( ( answer ) => answer.status === 409 )?.body.code ).toBe( 'source_exists' );
			expect(
				await sql( 'SELECT COUNT(*) AS n FROM inbound_source_secrets WHERE source_id = ?', [ id ] )
			).toEqual( [ { n: 1 } ] );
		}
	} );

	it( 'never logs a secret, generated or provided, nor writes one to the verification log', async () => {
		const provided = providerSecret( 'shopify' ) as string;
		expect(
			( await a.api( 'POST', '/v1/inbound/sources', { id: 'quiet', scheme: 'shopify', secret: provided } ) )
				.status
		).toBe( 201 );
		const rotated = await b.api( 'POST', '/v1/inbound/sources/quiet/rotate-secret' );
		const generated = rotated.body.secret as string;
		expect( ( await verifyOn( a.api, 'quiet', sampleWebhook( 'shopify', generated ) ) ).status ).toBe( 200 );
		expect( ( await verifyOn( b.api, 'quiet', sampleWebhook( 'shopify', provided ) ) ).status ).toBe( 200 );
		const written = a.logText() + b.logText() + JSON.stringify( await sql( 'SELECT * FROM inbound_log' ) );
		expect( written ).toContain( 'inbound source secret rotated' );
		expect( written ).not.toContain( provided );
		expect( written ).not.toContain( generated );
	} );
} );

/**
 * Bad input on the shared store answers exactly as on the embedded one (same status, code,
 * message and details) and writes nothing but what the embedded store writes: a refused
 * verification of a source id leaves its one log row, everything else leaves no row at all.
 */
describe( 'inbound bad input: the same answers on both stores', () => {
	let database: RunningMariaDb;
	let admin: mysql.Connection;
	let shared: Instance;
	let embedded: Harness;
	const secrets: Record< string, string > = {};

	beforeAll( async () => {
		database = await startMariaDb( { name: 'shared_inbound_parity' } );
		shared = await startInstance( database.url, 'instance-parity' );
		admin = await mysql.createConnection( database.url );
		embedded = await startHarness( { ...ENV, SIDECAR_LOG_LEVEL: 'silent' } );
		for ( const api of [ shared.api, embedded.api ] ) {
			const created = await api( 'POST', '/v1/inbound/sources', { id: 'present', scheme: 'standard-webhooks' } );
			expect( created.status ).toBe( 201 );
			secrets[ api === shared.api ? 'shared' : 'embedded' ] = created.body.secret as string;
			// A WooCommerce secret (any characters) is no Standard Webhooks key.
			const woo = await api( 'POST', '/v1/inbound/sources', {
				id: 'woo',
				scheme: 'woocommerce',
				secret: providerSecret( 'woocommerce' ),
			} );
			expect( woo.status ).toBe( 201 );
		}
	} );

	afterAll( async () => {
		await embedded?.close();
		await admin?.end();
		await shared?.close();
		await database?.stop();
	} );

	/** Rows per inbound table, and the source's secrets as stored: what a half-done write would change. */
	const snapshot = async ( store: 'shared' | 'embedded' ) => {
		const query =
			'SELECT (SELECT COUNT(*) FROM inbound_sources) AS sources, (SELECT COUNT(*) FROM inbound_source_secrets) AS secrets, ' +
			'(SELECT COUNT(*) FROM inbound_log) AS log, ' +
			"(SELECT COUNT(*) FROM inbound_source_secrets WHERE source_id = 'present' AND expires_at IS NULL) AS current_secrets";
		const row =
			store === 'shared'
				? ( ( await admin.query( query ) )[ 0 ] as Record< string, unknown >[] )[ 0 ]
				: ( embedded.stores.db.prepare( query ).get() as Record< string, unknown > );
		return Object.fromEntries( Object.entries( row ?? {} ).map( ( [ key, value ] ) => [ key, Number( value ) ] ) );
	};

	const forged = () => sampleWebhook( 'standard-webhooks', 'whsec_' + Buffer.alloc( 32, 7 ).toString( 'base64' ) );
	type Request = [ method: string, path: string, body?: unknown, headers?: Record< string, string > ];
	const cases: Array< [ label: string, request: () => Request, status: number, code: string, logRows?: number ] > = [
		[ 'an unknown source', () => [ 'GET', '/v1/inbound/sources/nope' ], 404, 'source_not_found' ],
		[
			'a patch of an unknown source',
			() => [ 'PATCH', '/v1/inbound/sources/nope', { status: 'disabled' } ],
			404,
			'source_not_found',
		],
		[ 'a delete of an unknown source', () => [ 'DELETE', '/v1/inbound/sources/nope' ], 404, 'source_not_found' ],
		[
			'a rotation of an unknown source',
			() => [ 'POST', '/v1/inbound/sources/nope/rotate-secret' ],
			404,
			'source_not_found',
		],
		[ 'an id that is no slug', () => [ 'GET', '/v1/inbound/sources/NOT%20A%20SLUG' ], 404, 'source_not_found' ],
		[
			'a verification for an unknown source',
			() => {
				const webhook = forged();
				return [ 'POST', '/v1/inbound/sources/nope/verify', webhook.body, forwarded( webhook ) ];
			},
			404,
			'unknown_source',
			1,
		],
		[
			'a bad signature',
			() => {
				const webhook = forged();
				return [ 'POST', '/v1/inbound/sources/present/verify', webhook.body, forwarded( webhook ) ];
			},
			401,
			'invalid_signature',
			1,
		],
		[ 'malformed JSON on create', () => [ 'POST', '/v1/inbound/sources', '{"id":' ], 400, 'invalid_json' ],
		[ 'malformed JSON on patch', () => [ 'PATCH', '/v1/inbound/sources/present', '{status' ], 400, 'invalid_json' ],
		[
			'malformed JSON on rotate',
			() => [ 'POST', '/v1/inbound/sources/present/rotate-secret', '{' ],
			400,
			'invalid_json',
		],
		[
			'an unknown scheme',
			() => [ 'POST', '/v1/inbound/sources', { id: 'x1', scheme: 'paypal' } ],
			400,
			'invalid_body',
		],
		[
			'an id that is no slug, on create',
			() => [ 'POST', '/v1/inbound/sources', { id: 'Acme Shop', scheme: 'github' } ],
			400,
			'invalid_body',
		],
		[
			'an unknown field',
			() => [ 'POST', '/v1/inbound/sources', { id: 'x1', scheme: 'github', url: 'x' } ],
			400,
			'invalid_body',
		],
		[
			'an unusable secret',
			() => [ 'POST', '/v1/inbound/sources', { id: 'x1', scheme: 'github', secret: 'abc' } ],
			400,
			'invalid_secret',
		],
		[
			'a taken id',
			() => [ 'POST', '/v1/inbound/sources', { id: 'present', scheme: 'github' } ],
			409,
			'source_exists',
		],
		[ 'an empty patch', () => [ 'PATCH', '/v1/inbound/sources/present', {} ], 400, 'invalid_body' ],
		[
			'a tolerance out of range',
			() => [ 'PATCH', '/v1/inbound/sources/present', { tolerance_seconds: -1 } ],
			400,
			'invalid_body',
		],
		[
			'a scheme the secret does not suit',
			() => [ 'PATCH', '/v1/inbound/sources/woo', { scheme: 'standard-webhooks' } ],
			400,
			'invalid_secret',
		],
		[
			'an unusable rotated secret',
			() => [ 'POST', '/v1/inbound/sources/present/rotate-secret', { secret: 'whsec_not-base64!!' } ],
			400,
			'invalid_secret',
		],
		[
			'a grace out of range',
			() => [ 'POST', '/v1/inbound/sources/present/rotate-secret', { grace_hours: -1 } ],
			400,
			'invalid_body',
		],
		[
			'an oversized body',
			() => [
				'POST',
				'/v1/inbound/sources',
				{ id: 'big', scheme: 'github', description: 'x'.repeat( MAX_BODY_BYTES ) },
			],
			413,
			'body_too_large',
		],
		[
			'an oversized webhook',
			() => [ 'POST', '/v1/inbound/sources/present/verify', 'x'.repeat( MAX_BODY_BYTES + 1 ) ],
			413,
			'body_too_large',
		],
		[ 'a bad log query', () => [ 'GET', '/v1/inbound/log?per_page=101' ], 400, 'invalid_query' ],
		[
			'an answer for an unknown log entry',
			() => [ 'POST', '/v1/inbound/log/999999999/answer', { status: 202 } ],
			404,
			'log_entry_not_found',
		],
		[
			'an answer with a bad body',
			() => [ 'POST', '/v1/inbound/log/1/answer', { status: 99 } ],
			400,
			'invalid_body',
		],
		[ 'PUT on the sources', () => [ 'PUT', '/v1/inbound/sources' ], 405, 'method_not_allowed' ],
		[ 'POST on a source', () => [ 'POST', '/v1/inbound/sources/present' ], 405, 'method_not_allowed' ],
		[ 'GET on verify', () => [ 'GET', '/v1/inbound/sources/present/verify' ], 405, 'method_not_allowed' ],
		[
			'GET on rotate-secret',
			() => [ 'GET', '/v1/inbound/sources/present/rotate-secret' ],
			405,
			'method_not_allowed',
		],
		[ 'DELETE on the log', () => [ 'DELETE', '/v1/inbound/log' ], 405, 'method_not_allowed' ],
	];

	it.each( cases )( '%s', async ( _label, request, status, code, logRows = 0 ) => {
		const [ method, path, body, headers ] = request();
		const answers: Record< string, ApiResponse > = {};
		const changes: Record< string, Record< string, number > > = {};
		for ( const store of [ 'shared', 'embedded' ] as const ) {
			const api = store === 'shared' ? shared.api : embedded.api;
			const before = await snapshot( store );
			answers[ store ] = await api( method, path, body, { headers } );
			const after = await snapshot( store );
			changes[ store ] = Object.fromEntries(
				Object.keys( after ).map( ( key ) => [ key, ( after[ key ] ?? 0 ) - ( before[ key ] ?? 0 ) ] )
			);
		}
		const { shared: onShared, embedded: onEmbedded } = answers as Record< 'shared' | 'embedded', ApiResponse >;
		expect( outcome( onShared ) ).toEqual( { status, code } );
		expect( onShared.body ).toEqual( onEmbedded.body );
		expect( onShared.headers.get( 'allow' ) ).toBe( onEmbedded.headers.get( 'allow' ) );
		expect( changes.shared ).toEqual( { sources: 0, secrets: 0, log: logRows, current_secrets: 0 } );
		expect( changes.embedded ).toEqual( changes.shared );
	} );

	it( 'names the bad field in a 400 on both stores', async () => {
		for ( const api of [ shared.api, embedded.api ] ) {
			const answer = await api( 'POST', '/v1/inbound/sources', {
				id: 'x2',
				scheme: 'github',
				tolerance_seconds: 'soon',
			} );
			expect( answer.body.message ).toContain( 'tolerance_seconds' );
			const secret = await api( 'POST', '/v1/inbound/sources', { id: 'x2', scheme: 'github', secret: 'abc' } );
			expect( secret.body.data ).toMatchObject( { status: 400, field: 'secret' } );
		}
	} );

	it( 'still verifies with the secrets the refusals left in place', async () => {
		for ( const [ api, secret ] of [
			[ shared.api, secrets.shared ],
			[ embedded.api, secrets.embedded ],
		] as const ) {
			expect(
				( await verifyOn( api, 'present', sampleWebhook( 'standard-webhooks', secret as string ) ) ).status
			).toBe( 200 );
		}
	} );
} );

describe( 'inbound webhooks on the shared store while its database is down', () => {
	let database: RunningMariaDb;
	let instance: Instance;

	beforeAll( async () => {
		database = await startMariaDb( { name: 'shared_inbound_outage' } );
		instance = await startInstance( database.url, 'instance-outage' );
	} );

	afterAll( async () => {
		await instance?.close();
		await database?.stop();
	} );

	it( 'answers 503 with Retry-After, so that WordPress has the sender send again', async () => {
		const created = await instance.api( 'POST', '/v1/inbound/sources', {
			id: 'away',
			scheme: 'standard-webhooks',
		} );
		expect( created.status ).toBe( 201 );
		const webhook = sampleWebhook( 'standard-webhooks', created.body.secret as string );
		expect( ( await verifyOn( instance.api, 'away', webhook ) ).status ).toBe( 200 );

		await database.stop();
		const answer = await verifyOn( instance.api, 'away', webhook );
		expect( outcome( answer ) ).toEqual( { status: 503, code: 'store_unavailable' } );
		expect( answer.headers.get( 'retry-after' ) ).toBe( '5' );
		expect( outcome( await instance.api( 'GET', '/v1/inbound/log' ) ) ).toEqual( {
			status: 503,
			code: 'store_unavailable',
		} );
	} );
} );
