import { Webhook } from 'standardwebhooks';
import { CHANNEL_HEADERS, signChannelResponse } from '../../sidecar/src/channel/channel-signature';
import { orderEvent } from './support/api-client';
import { startHarness, type Harness } from './support/harness';
import { startReceiver, type Receiver } from './support/receiver';
import { sleep, waitUntil } from '../support/wait-until';

/** The /v1 API WordPress calls, against the real app, dispatcher and SQLite. */
describe( 'sidecar /v1 API', () => {
	let sidecar: Harness;
	let receiver: Receiver;

	beforeAll( async () => {
		receiver = await startReceiver();
		sidecar = await startHarness();
	} );

	afterAll( async () => {
		await sidecar.close();
		await receiver.close();
	} );

	/** Row counts and last changes of every table: "nothing written" means this does not move. */
	function snapshot(): unknown {
		return sidecar.stores.db
			.prepare(
				`SELECT (SELECT COUNT(*) FROM events) AS events, (SELECT COUNT(*) FROM endpoints) AS endpoints,
				 (SELECT COUNT(*) FROM endpoint_secrets) AS secrets, (SELECT COUNT(*) FROM deliveries) AS deliveries,
				 (SELECT COUNT(*) FROM attempts) AS attempts, (SELECT group_concat(updated_at || status || url || event_types) FROM endpoints) AS endpoint_state,
				 (SELECT group_concat(updated_at || status) FROM deliveries) AS delivery_state`
			)
			.get();
	}

	async function deliveryStatus( eventId: string ): Promise< string | undefined > {
		return ( await sidecar.api( 'GET', `/v1/events/${ eventId }` ) ).body.deliveries[ 0 ]?.status;
	}

	describe( 'endpoints', () => {
		it( 'creates an endpoint, shows its secret once, and only masked afterwards', async () => {
			const created = await sidecar.api( 'POST', '/v1/endpoints', {
				url: receiver.url + '/crud',
				event_types: [ 'order.paid', 'order.refunded', 'order.paid' ],
				description: 'Zapier',
				max_concurrency: 2,
			} );
			expect( created.status ).toBe( 201 );
			expect( created.body ).toMatchObject( {
				id: expect.stringMatching( /^ep_[0-9a-f]{24}$/ ),
				url: receiver.url + '/crud',
				description: 'Zapier',
				event_types: [ 'order.paid', 'order.refunded' ],
				status: 'active',
				max_concurrency: 2,
				wc_compat_signature: false,
				failing_since: null,
				secret: expect.stringMatching( /^whsec_[A-Za-z0-9+/]{43}=$/ ),
			} );
			const { id, secret } = created.body as { id: string; secret: string };
			expect( created.body.secrets ).toEqual( [
				{
					masked: expect.stringMatching( /^whsec_….{4}$/ ),
					created_at: expect.any( String ),
					expires_at: null,
				},
			] );

			const one = await sidecar.api( 'GET', `/v1/endpoints/${ id }` );
			const all = await sidecar.api( 'GET', '/v1/endpoints' );
			const rotated = await sidecar.api( 'POST', `/v1/endpoints/${ id }/rotate-secret` );
			const afterRotation = await sidecar.api( 'GET', `/v1/endpoints/${ id }` );
			for ( const response of [ one, all, afterRotation ] ) {
				expect( response.status ).toBe( 200 );
				expect( response.text ).not.toContain( secret );
				expect( response.text ).not.toContain( secret.slice( 6, 20 ) );
				expect( response.text ).not.toContain( rotated.body.secret );
				expect( response.text ).not.toContain( '"secret"' );
			}
			expect( one.body.secret ).toBeUndefined();
			expect( all.body.endpoints.map( ( e: { id: string } ) => e.id ) ).toContain( id );
			// Default grace period: 24 h.
			const expires = Date.parse( afterRotation.body.secrets[ 1 ].expires_at );
			expect( Math.abs( expires - Date.now() - 24 * 3_600_000 ) ).toBeLessThan( 60_000 );

			const patched = await sidecar.api( 'PATCH', `/v1/endpoints/${ id }`, {
				description: 'Make',
				event_types: [],
				wc_compat_signature: true,
			} );
			expect( patched.status ).toBe( 200 );
			expect( patched.body ).toMatchObject( {
				description: 'Make',
				event_types: [],
				wc_compat_signature: true,
				max_concurrency: 2,
				url: receiver.url + '/crud',
			} );

			const disabled = await sidecar.api( 'POST', `/v1/endpoints/${ id }/disable`, { reason: 'maintenance' } );
			expect( disabled.body ).toMatchObject( { status: 'disabled', disabled_reason: 'maintenance' } );
			expect( ( await sidecar.api( 'POST', `/v1/endpoints/${ id }/disable` ) ).body.disabled_reason ).toBe(
				'maintenance'
			); // idempotent
			const enabled = await sidecar.api( 'POST', `/v1/endpoints/${ id }/enable` );
			expect( enabled.body ).toMatchObject( { status: 'active', disabled_reason: null, requeued: 0 } );

			expect( ( await sidecar.api( 'DELETE', `/v1/endpoints/${ id }` ) ).body ).toEqual( { deleted: true, id } );
			expect( ( await sidecar.api( 'GET', `/v1/endpoints/${ id }` ) ).status ).toBe( 404 );
		} );

		it( 'refuses a URL to 127.0.0.1 unless the address is allow-listed', async () => {
			const strict = await startHarness( { SIDECAR_ALLOW_PRIVATE_CIDRS: '' } );
			try {
				for ( const url of [
					'http://127.0.0.1:9/hook',
					'http://[::1]/',
					'http://169.254.169.254/latest',
					'http://10.0.0.1/',
				] ) {
					const response = await strict.api( 'POST', '/v1/endpoints', { url } );
					expect( response.status ).toBe( 400 );
					expect( response.body.code ).toBe( 'blocked_address' );
				}
				expect( ( await strict.api( 'GET', '/v1/endpoints' ) ).body.endpoints ).toEqual( [] );
				expect(
					( await strict.api( 'POST', '/v1/endpoints', { url: 'https://hooks.example.com/x' } ) ).status
				).toBe( 201 );
			} finally {
				await strict.close();
			}
			expect( ( await sidecar.api( 'POST', '/v1/endpoints', { url: 'http://10.0.0.1/' } ) ).body.code ).toBe(
				'blocked_address'
			);
		} );
	} );

	describe( 'a body over the size limit', () => {
		// The harness's limit, SIDECAR_MAX_BODY_BYTES by default (1 MiB).
		const LIMIT = 1024 * 1024;
		const events = ( bytes: number ) => ( {
			events: [ orderEvent( `too_large_${ bytes }`, 'order.paid', 1, { blob: 'x'.repeat( bytes ) } ) ],
		} );

		it( 'is refused with a 413 signed for the request, which WordPress can trust, and nothing is stored', async () => {
			const response = await sidecar.api( 'POST', '/v1/events', events( LIMIT ) );
			expect( response.status ).toBe( 413 );
			expect( response.body.code ).toBe( 'body_too_large' );
			const requestId = response.headers.get( CHANNEL_HEADERS.requestId ) as string;
			const timestamp = Number( response.headers.get( CHANNEL_HEADERS.timestamp ) );
			expect( response.headers.get( CHANNEL_HEADERS.signature ) ).toBe(
				signChannelResponse( sidecar.config.sharedKey, timestamp, requestId, 413, Buffer.from( response.text ) )
			);
			expect( ( await sidecar.api( 'GET', `/v1/events/too_large_${ LIMIT }` ) ).status ).toBe( 404 );
		} );

		it( 'past twice the limit, is refused by the body reader before the signature is read: unsigned', async () => {
			const response = await sidecar.api( 'POST', '/v1/events', events( 2 * LIMIT ) );
			expect( response.status ).toBe( 413 );
			expect( response.body.code ).toBe( 'body_too_large' );
			expect( response.headers.get( CHANNEL_HEADERS.signature ) ).toBeNull();
		} );

		it( 'with a wrong signature, is refused as unsigned (401), not measured', async () => {
			const response = await sidecar.api( 'POST', '/v1/events', events( LIMIT ), { key: 'not-the-key' } );
			expect( response.status ).toBe( 401 );
			expect( response.body.code ).toBe( 'channel_signature_invalid' );
		} );
	} );

	describe( 'bad input is refused with a clear 4xx and nothing is stored', () => {
		let endpointId: string;
		let eventId: string;
		const event = ( overrides: Record< string, unknown > = {} ) => ( {
			...orderEvent( 'bad_input_probe', 'order.paid', 1 ),
			...overrides,
		} );

		beforeAll( async () => {
			endpointId = ( await sidecar.api( 'POST', '/v1/endpoints', { url: receiver.url + '/bad' } ) ).body.id;
			eventId = 'known_event';
			await sidecar.api( 'POST', '/v1/events', { events: [ orderEvent( eventId, 'order.paid', 1 ) ] } );
			await waitUntil( async () => ( await deliveryStatus( eventId ) ) === 'succeeded' );
		} );

		afterAll( async () => {
			await sidecar.api( 'DELETE', `/v1/endpoints/${ endpointId }` );
		} );

		const cases: [ string, string, () => string, unknown, number, string ][] = [
			[ 'malformed JSON', 'POST', () => '/v1/events', '{"events": [', 400, 'invalid_json' ],
			[ 'an empty body', 'POST', () => '/v1/events', '', 400, 'invalid_json' ],
			[ 'a JSON array', 'POST', () => '/v1/events', '[]', 400, 'invalid_body' ],
			[
				'an unknown top-level field',
				'POST',
				() => '/v1/events',
				{ events: [ event() ], dry_run: true },
				400,
				'invalid_body',
			],
			[ 'no events', 'POST', () => '/v1/events', { events: [] }, 400, 'invalid_body' ],
			[
				'501 events',
				'POST',
				() => '/v1/events',
				{ events: Array.from( { length: 501 }, ( _x, i ) => event( { id: `many_${ i }` } ) ) },
				400,
				'invalid_body',
			],
			// A batch with some valid events is a 202 that lists the bad ones: see 'events' below.
			[
				'a body over the size limit',
				'POST',
				() => '/v1/events',
				{ events: [ event( { data: { blob: 'x'.repeat( 1024 * 1024 ) } } ) ] },
				413,
				'body_too_large',
			],
			[
				'a wrong method on /v1/events',
				'PUT',
				() => '/v1/events',
				{ events: [ event() ] },
				405,
				'method_not_allowed',
			],
			[ 'GET of an unknown event', 'GET', () => '/v1/events/nope', undefined, 404, 'event_not_found' ],
			[ 'DELETE of an event', 'DELETE', () => `/v1/events/${ eventId }`, undefined, 405, 'method_not_allowed' ],
			[ 'replay of an unknown event', 'POST', () => '/v1/events/nope/replay', {}, 404, 'event_not_found' ],
			[
				'replay to an unknown endpoint',
				'POST',
				() => `/v1/events/${ eventId }/replay`,
				{ endpoint_id: 'ep_nope' },
				404,
				'endpoint_not_found',
			],
			[
				'replay with an unknown field',
				'POST',
				() => `/v1/events/${ eventId }/replay`,
				{ force: true },
				400,
				'invalid_body',
			],
			[ 'replay with malformed JSON', 'POST', () => `/v1/events/${ eventId }/replay`, '{', 400, 'invalid_json' ],
			[ 'GET on replay', 'GET', () => `/v1/events/${ eventId }/replay`, undefined, 405, 'method_not_allowed' ],
			[ 'replay-since without since', 'POST', () => '/v1/replay', {}, 400, 'invalid_body' ],
			[ 'replay-since with a bad date', 'POST', () => '/v1/replay', { since: 'last week' }, 400, 'invalid_body' ],
			[
				'replay-since with an unknown endpoint',
				'POST',
				() => '/v1/replay',
				{ since: new Date( 0 ).toISOString(), endpoint_id: 'ep_nope' },
				404,
				'endpoint_not_found',
			],
			[
				'replay-since with an unknown field',
				'POST',
				() => '/v1/replay',
				{ since: new Date( 0 ).toISOString(), all: true },
				400,
				'invalid_body',
			],
			[ 'an endpoint without url', 'POST', () => '/v1/endpoints', { description: 'x' }, 400, 'invalid_body' ],
			[ 'an endpoint with malformed JSON', 'POST', () => '/v1/endpoints', 'url=http://x', 400, 'invalid_json' ],
			[
				'an endpoint with an unknown field',
				'POST',
				() => '/v1/endpoints',
				{ url: 'https://example.com/', secret: 'whsec_mine' },
				400,
				'invalid_body',
			],
			[ 'an endpoint with a relative URL', 'POST', () => '/v1/endpoints', { url: '/hook' }, 400, 'invalid_url' ],
			[
				'an endpoint with an ftp URL',
				'POST',
				() => '/v1/endpoints',
				{ url: 'ftp://example.com/' },
				400,
				'unsupported_scheme',
			],
			[
				'an endpoint with credentials in the URL',
				'POST',
				() => '/v1/endpoints',
				{ url: 'https://u:p@example.com/' },
				400,
				'credentials_in_url',
			],
			[
				'an endpoint with an unknown event type',
				'POST',
				() => '/v1/endpoints',
				{ url: 'https://example.com/', event_types: [ 'order.paid', 'order.lost' ] },
				400,
				'invalid_event_type',
			],
			[
				'an endpoint with max_concurrency 0',
				'POST',
				() => '/v1/endpoints',
				{ url: 'https://example.com/', max_concurrency: 0 },
				400,
				'invalid_body',
			],
			[
				'an endpoint with a string flag',
				'POST',
				() => '/v1/endpoints',
				{ url: 'https://example.com/', wc_compat_signature: 'yes' },
				400,
				'invalid_body',
			],
			[
				'a wrong method on /v1/endpoints',
				'DELETE',
				() => '/v1/endpoints',
				undefined,
				405,
				'method_not_allowed',
			],
			[
				'GET of an unknown endpoint',
				'GET',
				() => '/v1/endpoints/ep_nope',
				undefined,
				404,
				'endpoint_not_found',
			],
			[
				'PATCH of an unknown endpoint',
				'PATCH',
				() => '/v1/endpoints/ep_nope',
				{ description: 'x' },
				404,
				'endpoint_not_found',
			],
			[
				'DELETE of an unknown endpoint',
				'DELETE',
				() => '/v1/endpoints/ep_nope',
				undefined,
				404,
				'endpoint_not_found',
			],
			[ 'an empty PATCH', 'PATCH', () => `/v1/endpoints/${ endpointId }`, {}, 400, 'invalid_body' ],
			[
				'a PATCH of the status',
				'PATCH',
				() => `/v1/endpoints/${ endpointId }`,
				{ status: 'disabled' },
				400,
				'invalid_body',
			],
			[
				'a PATCH to a blocked URL',
				'PATCH',
				() => `/v1/endpoints/${ endpointId }`,
				{ url: 'http://169.254.169.254/' },
				400,
				'blocked_address',
			],
			[
				'a PATCH with an unknown event type',
				'PATCH',
				() => `/v1/endpoints/${ endpointId }`,
				{ event_types: [ 'x' ] },
				400,
				'invalid_event_type',
			],
			[
				'a PATCH with malformed JSON',
				'PATCH',
				() => `/v1/endpoints/${ endpointId }`,
				'{"description":',
				400,
				'invalid_json',
			],
			[
				'PUT on an endpoint',
				'PUT',
				() => `/v1/endpoints/${ endpointId }`,
				{ url: 'https://example.com/' },
				405,
				'method_not_allowed',
			],
			[
				'rotation of an unknown endpoint',
				'POST',
				() => '/v1/endpoints/ep_nope/rotate-secret',
				{},
				404,
				'endpoint_not_found',
			],
			[
				'rotation with a negative grace',
				'POST',
				() => `/v1/endpoints/${ endpointId }/rotate-secret`,
				{ grace_hours: -1 },
				400,
				'invalid_body',
			],
			[
				'rotation with a string grace',
				'POST',
				() => `/v1/endpoints/${ endpointId }/rotate-secret`,
				{ grace_hours: '24' },
				400,
				'invalid_body',
			],
			[
				'GET on rotate-secret',
				'GET',
				() => `/v1/endpoints/${ endpointId }/rotate-secret`,
				undefined,
				405,
				'method_not_allowed',
			],
			[
				'enabling an unknown endpoint',
				'POST',
				() => '/v1/endpoints/ep_nope/enable',
				undefined,
				404,
				'endpoint_not_found',
			],
			[
				'enabling with a body field',
				'POST',
				() => `/v1/endpoints/${ endpointId }/enable`,
				{ now: true },
				400,
				'invalid_body',
			],
			[
				'disabling an unknown endpoint',
				'POST',
				() => '/v1/endpoints/ep_nope/disable',
				undefined,
				404,
				'endpoint_not_found',
			],
			[
				'disabling with an unknown field',
				'POST',
				() => `/v1/endpoints/${ endpointId }/disable`,
				{ why: 'x' },
				400,
				'invalid_body',
			],
			[
				'disabling with malformed JSON',
				'POST',
				() => `/v1/endpoints/${ endpointId }/disable`,
				'{',
				400,
				'invalid_json',
			],
			[ 'per_page over 100', 'GET', () => '/v1/deliveries?per_page=101', undefined, 400, 'invalid_query' ],
			[ 'page 0', 'GET', () => '/v1/deliveries?page=0', undefined, 400, 'invalid_query' ],
			[ 'a non-numeric page', 'GET', () => '/v1/deliveries?page=two', undefined, 400, 'invalid_query' ],
			[
				'an unknown delivery status',
				'GET',
				() => '/v1/deliveries?status=lost',
				undefined,
				400,
				'invalid_query',
			],
			[ 'an unknown query parameter', 'GET', () => '/v1/deliveries?sort=asc', undefined, 400, 'invalid_query' ],
			[
				'a repeated query parameter',
				'GET',
				() => '/v1/deliveries?status=failed&status=pending',
				undefined,
				400,
				'invalid_query',
			],
			[
				'an unknown type filter',
				'GET',
				() => '/v1/deliveries?type=order.lost',
				undefined,
				400,
				'invalid_event_type',
			],
			[
				'an unknown endpoint filter',
				'GET',
				() => '/v1/deliveries?endpoint_id=ep_nope',
				undefined,
				404,
				'endpoint_not_found',
			],
			[ 'POST on /v1/deliveries', 'POST', () => '/v1/deliveries', {}, 405, 'method_not_allowed' ],
			[ 'POST on /v1/status', 'POST', () => '/v1/status', {}, 405, 'method_not_allowed' ],
			[ 'an unknown route', 'GET', () => '/v1/webhooks', undefined, 404, 'not_found' ],
		];

		it.each(
			cases.map(
				( [ label, method, path, body, status, code ] ) => [ label, status, code, method, path, body ] as const
			)
		)( '%s → %i %s', async ( _label, status, code, method, path, body ) => {
			const before = snapshot();
			const response = await sidecar.api( method, path(), body );
			expect( { status: response.status, code: response.body?.code } ).toEqual( { status, code } );
			expect( response.body.message ).toEqual( expect.any( String ) );
			expect( response.body.data.status ).toBe( status );
			expect( snapshot() ).toEqual( before );
		} );

		// A valid envelope always answers 202 {accepted, duplicates, rejected}, even when every
		// event in it is refused: the outbox reads one shape and parks the rejected rows.
		it.each( [
			[ 'an unknown event type', { type: 'order.shipped' }, 'invalid_event_type' ],
			[ 'an unknown field in an event', { extra: 1 }, 'invalid_body' ],
			[ 'an id with a dot', { id: 'a.b' }, 'invalid_body' ],
			[ 'an id over 100 characters', { id: 'x'.repeat( 101 ) }, 'invalid_body' ],
			[ 'a bad timestamp', { timestamp: 'yesterday' }, 'invalid_body' ],
			[ 'data that is not an object', { data: 'x' }, 'invalid_body' ],
		] )(
			'a batch of one event with %s → 202, listed in rejected, nothing stored',
			async ( _label, fields, code ) => {
				const before = snapshot();
				const response = await sidecar.api( 'POST', '/v1/events', { events: [ event( fields ) ] } );
				expect( response.status ).toBe( 202 );
				expect( response.body ).toEqual( {
					accepted: [],
					duplicates: [],
					rejected: [ { index: 0, id: expect.anything(), code, message: expect.any( String ) } ],
				} );
				expect( snapshot() ).toEqual( before );
			}
		);

		it( 'lists every rejected event of an all-bad batch in rejected, with a 202', async () => {
			const before = snapshot();
			const response = await sidecar.api( 'POST', '/v1/events', {
				events: [
					event( { id: 'bad_1', type: 'nope' } ),
					{ id: 'bad_2' },
					{ type: 'order.paid', timestamp: new Date().toISOString(), data: {} },
				],
			} );
			expect( response.status ).toBe( 202 );
			expect( response.body ).toEqual( {
				accepted: [],
				duplicates: [],
				rejected: [
					{
						index: 0,
						id: 'bad_1',
						code: 'invalid_event_type',
						message: expect.stringContaining( 'events.0.type: unknown event type "nope"' ),
					},
					{
						index: 1,
						id: 'bad_2',
						code: 'invalid_body',
						message: expect.stringContaining( 'events.1.type' ),
					},
					{ index: 2, id: null, code: 'invalid_body', message: expect.stringContaining( 'events.2.id' ) },
				],
			} );
			expect( snapshot() ).toEqual( before );
		} );

		it.each( [
			[ 'no signature', { key: false as const }, 'channel_signature_missing' ],
			[ 'a wrong key', { key: 'another-key-that-is-long-enough' }, 'channel_signature_invalid' ],
			[ 'a signature over another body', { signBody: '{"other":true}' }, 'channel_signature_invalid' ],
		] )( 'every route refuses a call with %s (401) before reading it', async ( _label, options, code ) => {
			const routes: [ string, string, unknown ][] = [
				[ 'POST', '/v1/events', { events: [ event( { id: 'unsigned_1' } ) ] } ],
				[ 'GET', `/v1/events/${ eventId }`, undefined ],
				[ 'POST', `/v1/events/${ eventId }/replay`, {} ],
				[ 'POST', '/v1/replay', { since: new Date( 0 ).toISOString() } ],
				[ 'GET', '/v1/endpoints', undefined ],
				[ 'POST', '/v1/endpoints', { url: 'https://example.com/' } ],
				[ 'GET', `/v1/endpoints/${ endpointId }`, undefined ],
				[ 'PATCH', `/v1/endpoints/${ endpointId }`, { description: 'x' } ],
				[ 'DELETE', `/v1/endpoints/${ endpointId }`, undefined ],
				[ 'POST', `/v1/endpoints/${ endpointId }/rotate-secret`, {} ],
				[ 'POST', `/v1/endpoints/${ endpointId }/enable`, {} ],
				[ 'POST', `/v1/endpoints/${ endpointId }/disable`, {} ],
				[ 'GET', '/v1/deliveries', undefined ],
				[ 'GET', '/v1/status', undefined ],
			];
			for ( const [ method, path, body ] of routes ) {
				const before = snapshot();
				const response = await sidecar.api( method, path, body, options );
				expect( snapshot() ).toEqual( before );
				expect( [ method, path, response.status, response.body.code ] ).toEqual( [ method, path, 401, code ] );
			}
		} );
	} );

	describe( 'events', () => {
		let endpoint: { id: string; secret: string };

		beforeAll( async () => {
			endpoint = ( await sidecar.api( 'POST', '/v1/endpoints', { url: receiver.url + '/events' } ) ).body;
		} );

		afterAll( async () => {
			await sidecar.api( 'DELETE', `/v1/endpoints/${ endpoint.id }` );
		} );

		const received = ( id: string ) => receiver.requests.filter( ( r ) => r.headers[ 'webhook-id' ] === id );

		/** An event of the test's own, posted and delivered to this block's endpoint. */
		async function delivered( event: ReturnType< typeof orderEvent > ): Promise< void > {
			expect( ( await sidecar.api( 'POST', '/v1/events', { events: [ event ] } ) ).body.accepted ).toEqual( [
				event.id,
			] );
			await waitUntil(
				async () => ( await deliveryStatus( event.id ) ) === 'succeeded',
				10_000,
				`${ event.id } delivered`
			);
		}

		it( 'accepts an event posted twice only once, and delivers it once', async () => {
			const batch = {
				events: [ orderEvent( 'twice_1', 'order.created', 7 ), orderEvent( 'twice_2', 'order.paid', 7 ) ],
			};
			const first = await sidecar.api( 'POST', '/v1/events', batch );
			expect( first.status ).toBe( 202 );
			expect( first.body ).toEqual( { accepted: [ 'twice_1', 'twice_2' ], duplicates: [], rejected: [] } );
			const again = await sidecar.api( 'POST', '/v1/events', {
				events: [
					...batch.events,
					orderEvent( 'twice_3', 'order.refunded', 7 ),
					orderEvent( 'twice_3', 'order.refunded', 7 ),
				],
			} );
			expect( again.body ).toEqual( {
				accepted: [ 'twice_3' ],
				duplicates: [ 'twice_1', 'twice_2', 'twice_3' ],
				rejected: [],
			} );
			await receiver.waitFor( ( r ) => r.some( ( x ) => x.headers[ 'webhook-id' ] === 'twice_3' ) );
			await waitUntil( async () => ( await deliveryStatus( 'twice_3' ) ) === 'succeeded' );
			for ( const id of [ 'twice_1', 'twice_2', 'twice_3' ] ) {
				expect( received( id ) ).toHaveLength( 1 );
				expect( ( await sidecar.api( 'GET', `/v1/events/${ id }` ) ).body.deliveries ).toHaveLength( 1 );
			}
		} );

		it( 'stores and delivers the valid events of a batch, and reports each bad one instead of refusing the batch', async () => {
			const good = [ orderEvent( 'mixed_ok_1', 'order.paid', 30 ), orderEvent( 'mixed_ok_2', 'order.paid', 31 ) ];
			const response = await sidecar.api( 'POST', '/v1/events', {
				events: [
					good[ 0 ],
					{ ...orderEvent( 'mixed_bad_type', 'order.paid', 32 ), type: 'order.shipped' },
					good[ 1 ],
					{ ...orderEvent( 'mixed_bad_time', 'order.paid', 33 ), timestamp: 'not a date' },
					{ type: 'order.paid', timestamp: new Date().toISOString(), data: {} },
					'not an object',
				],
			} );
			expect( response.status ).toBe( 202 );
			expect( response.body ).toEqual( {
				accepted: [ 'mixed_ok_1', 'mixed_ok_2' ],
				duplicates: [],
				rejected: [
					{
						index: 1,
						id: 'mixed_bad_type',
						code: 'invalid_event_type',
						message: expect.stringContaining( 'unknown event type "order.shipped"' ),
					},
					{
						index: 3,
						id: 'mixed_bad_time',
						code: 'invalid_body',
						message: expect.stringContaining( 'events.3.timestamp' ),
					},
					{ index: 4, id: null, code: 'invalid_body', message: expect.stringContaining( 'events.4.id' ) },
					{ index: 5, id: null, code: 'invalid_body', message: expect.any( String ) },
				],
			} );
			await receiver.waitFor( ( r ) =>
				[ 'mixed_ok_1', 'mixed_ok_2' ].every( ( id ) => r.some( ( x ) => x.headers[ 'webhook-id' ] === id ) )
			);
			for ( const id of [ 'mixed_bad_type', 'mixed_bad_time' ] ) {
				expect( ( await sidecar.api( 'GET', `/v1/events/${ id }` ) ).status ).toBe( 404 );
				expect( received( id ) ).toHaveLength( 0 );
			}
			// Sent again (WordPress got no answer): the good ones are duplicates, the bad ones still rejected.
			const again = await sidecar.api( 'POST', '/v1/events', {
				events: [ good[ 0 ], { ...orderEvent( 'mixed_bad_type', 'order.paid', 32 ), type: 'order.shipped' } ],
			} );
			expect( again.body ).toMatchObject( {
				accepted: [],
				duplicates: [ 'mixed_ok_1' ],
				rejected: [ { index: 1, id: 'mixed_bad_type', code: 'invalid_event_type' } ],
			} );
		} );

		it( 'shows an event with its deliveries and attempts', async () => {
			await delivered( orderEvent( 'shown_1', 'order.created', 8 ) );
			const detail = await sidecar.api( 'GET', '/v1/events/shown_1' );
			expect( detail.status ).toBe( 200 );
			expect( detail.body.event ).toMatchObject( {
				id: 'shown_1',
				type: 'order.created',
				ordering_key: 'order:8',
				data: { order_id: 8, event: 'shown_1' },
			} );
			expect( detail.body.deliveries ).toEqual( [
				expect.objectContaining( {
					event_id: 'shown_1',
					endpoint_id: endpoint.id,
					status: 'succeeded',
					attempt_count: 1,
					attempts: [
						expect.objectContaining( { attempt_number: 1, status_code: 200, trigger: 'scheduled' } ),
					],
				} ),
			] );
		} );

		it( 'replays one event with the same id, as a manual attempt', async () => {
			await delivered( orderEvent( 'replayed_1', 'order.created', 9 ) );
			const before = received( 'replayed_1' ).length;
			const replay = await sidecar.api( 'POST', '/v1/events/replayed_1/replay' );
			expect( replay.status ).toBe( 200 );
			expect( replay.body ).toEqual( { requeued: 1 } );
			await receiver.waitFor( () => received( 'replayed_1' ).length === before + 1 );
			const last = received( 'replayed_1' ).pop()!;
			new Webhook( endpoint.secret ).verify( last.body, last.headers );
			await waitUntil(
				async () =>
					( await sidecar.api( 'GET', '/v1/events/replayed_1' ) ).body.deliveries[ 0 ].attempts.length === 2
			);
			const attempts = ( await sidecar.api( 'GET', '/v1/events/replayed_1' ) ).body.deliveries[ 0 ].attempts;
			expect( attempts.map( ( a: { trigger: string } ) => a.trigger ) ).toEqual( [ 'scheduled', 'manual' ] );

			// To one chosen endpoint, even one created after the event.
			const late = await startReceiver();
			try {
				const lateEndpoint = ( await sidecar.api( 'POST', '/v1/endpoints', { url: late.url } ) ).body;
				expect(
					( await sidecar.api( 'POST', '/v1/events/replayed_1/replay', { endpoint_id: lateEndpoint.id } ) )
						.body
				).toEqual( { requeued: 1 } );
				await late.waitFor( ( r ) => r.length === 1 );
				expect( late.requests[ 0 ]!.headers[ 'webhook-id' ] ).toBe( 'replayed_1' );
				new Webhook( lateEndpoint.secret ).verify( late.requests[ 0 ]!.body, late.requests[ 0 ]!.headers );
				await sidecar.api( 'POST', `/v1/endpoints/${ lateEndpoint.id }/disable` );
				const refused = await sidecar.api( 'POST', '/v1/events/replayed_1/replay', {
					endpoint_id: lateEndpoint.id,
				} );
				expect( [ refused.status, refused.body.code ] ).toEqual( [ 409, 'endpoint_disabled' ] );
				await sidecar.api( 'DELETE', `/v1/endpoints/${ lateEndpoint.id }` );
			} finally {
				await late.close();
			}
		} );

		it( 'replays every failed delivery since a date', async () => {
			let up = false;
			const flaky = await startReceiver( ( _req, res ) => void res.writeHead( up ? 200 : 500 ).end() );
			try {
				const flakyEndpoint = (
					await sidecar.api( 'POST', '/v1/endpoints', { url: flaky.url, event_types: [ 'order.refunded' ] } )
				).body;
				const since = new Date().toISOString();
				const events = [
					orderEvent( 'since_1', 'order.refunded', 8 ),
					orderEvent( 'since_2', 'order.refunded', 9 ),
				];
				await sidecar.api( 'POST', '/v1/events', { events } );
				await waitUntil( async () => {
					const list = await sidecar.api(
						'GET',
						`/v1/deliveries?endpoint_id=${ flakyEndpoint.id }&status=failed`
					);
					return list.body.total === 2;
				} );
				expect( flaky.requests ).toHaveLength( 6 ); // 3 attempts each
				up = true;
				const later = await sidecar.api( 'POST', '/v1/replay', {
					since: new Date( Date.now() + 60_000 ).toISOString(),
				} );
				expect( later.body ).toEqual( { requeued: 0 } );
				const replay = await sidecar.api( 'POST', '/v1/replay', { since, endpoint_id: flakyEndpoint.id } );
				expect( replay.body ).toEqual( { requeued: 2 } );
				await flaky.waitFor( ( r ) => r.length === 8 );
				await waitUntil(
					async () =>
						(
							await sidecar.api(
								'GET',
								`/v1/deliveries?endpoint_id=${ flakyEndpoint.id }&status=succeeded`
							)
						).body.total === 2
				);
				expect(
					flaky.requests
						.slice( 6 )
						.map( ( r ) => r.headers[ 'webhook-id' ] )
						.sort()
				).toEqual( [ 'since_1', 'since_2' ] );
				// The replayed attempt is manual and restarts the retry schedule.
				const attempts = ( await sidecar.api( 'GET', '/v1/events/since_1' ) ).body.deliveries.find(
					( d: { endpoint_id: string } ) => d.endpoint_id === flakyEndpoint.id
				).attempts;
				expect(
					attempts.map(
						( a: { trigger: string; status_code: number } ) => `${ a.trigger }:${ a.status_code }`
					)
				).toEqual( [ 'scheduled:500', 'scheduled:500', 'scheduled:500', 'manual:200' ] );
				await sidecar.api( 'DELETE', `/v1/endpoints/${ flakyEndpoint.id }` );
			} finally {
				await flaky.close();
			}
		} );

		it( 'replays what failed since a time by when it failed, not when the event was received', async () => {
			let release: () => void = () => undefined;
			const held = new Promise< void >( ( resolve ) => ( release = resolve ) );
			let up = false;
			const slow = await startReceiver( async ( _req, res ) => {
				await held; // the first attempt hangs until the test has taken its `since`
				res.writeHead( up ? 200 : 500 ).end();
			} );
			try {
				const slowEndpoint = (
					await sidecar.api( 'POST', '/v1/endpoints', { url: slow.url, event_types: [ 'order.created' ] } )
				).body;
				await sidecar.api( 'POST', '/v1/events', {
					events: [ orderEvent( 'late_fail_1', 'order.created', 40 ) ],
				} );
				await slow.waitFor( ( r ) => r.length === 1 );
				await sleep( 5 ); // `since` strictly after the event was received
				const since = new Date().toISOString();
				release();
				await waitUntil(
					async () =>
						( await sidecar.api( 'GET', `/v1/deliveries?endpoint_id=${ slowEndpoint.id }&status=failed` ) )
							.body.total === 1
				);
				up = true;
				const replay = await sidecar.api( 'POST', '/v1/replay', { since, endpoint_id: slowEndpoint.id } );
				expect( replay.body ).toEqual( { requeued: 1 } );
				await waitUntil(
					async () =>
						(
							await sidecar.api(
								'GET',
								`/v1/deliveries?endpoint_id=${ slowEndpoint.id }&status=succeeded`
							)
						).body.total === 1
				);
				await sidecar.api( 'DELETE', `/v1/endpoints/${ slowEndpoint.id }` );
			} finally {
				release();
				await slow.close();
			}
		} );

		it( 'fans out by subscribed type only', async () => {
			const paidOnly = await startReceiver();
			try {
				const paid = (
					await sidecar.api( 'POST', '/v1/endpoints', { url: paidOnly.url, event_types: [ 'order.paid' ] } )
				).body;
				await sidecar.api( 'POST', '/v1/events', {
					events: [ orderEvent( 'fan_1', 'order.created', 10 ), orderEvent( 'fan_2', 'order.paid', 10 ) ],
				} );
				await receiver.waitFor( ( r ) => r.some( ( x ) => x.headers[ 'webhook-id' ] === 'fan_2' ) );
				await paidOnly.waitFor( ( r ) => r.length === 1 );
				expect( paidOnly.requests[ 0 ]!.headers[ 'webhook-id' ] ).toBe( 'fan_2' );
				expect( ( await sidecar.api( 'GET', '/v1/events/fan_1' ) ).body.deliveries ).toHaveLength( 1 );
				expect( ( await sidecar.api( 'GET', '/v1/events/fan_2' ) ).body.deliveries ).toHaveLength( 2 );
				await sidecar.api( 'DELETE', `/v1/endpoints/${ paid.id }` );
			} finally {
				await paidOnly.close();
			}
		} );
	} );

	it( 'never shows or logs a secret after the answer that created it', async () => {
		const endpoint = ( await sidecar.api( 'POST', '/v1/endpoints', { url: receiver.url + '/secrets' } ) ).body;
		const rotated = ( await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/rotate-secret` ) ).body;
		await sidecar.api( 'POST', '/v1/events', { events: [ orderEvent( 'secret_probe', 'order.paid', 1 ) ] } );
		await waitUntil( async () => ( await deliveryStatus( 'secret_probe' ) ) === 'succeeded' );
		const texts = [
			( await sidecar.api( 'GET', '/v1/endpoints' ) ).text,
			( await sidecar.api( 'GET', `/v1/endpoints/${ endpoint.id }` ) ).text,
			( await sidecar.api( 'GET', '/v1/events/secret_probe' ) ).text,
			( await sidecar.api( 'GET', '/v1/deliveries' ) ).text,
			( await sidecar.api( 'GET', '/v1/status' ) ).text,
			( await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/disable` ) ).text,
			( await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/enable` ) ).text,
			sidecar.logText(),
		];
		for ( const text of texts ) {
			for ( const secret of [ endpoint.secret, rotated.secret ] as string[] ) {
				expect( text ).not.toContain( secret.slice( 'whsec_'.length, 'whsec_'.length + 12 ) );
			}
			expect( text ).not.toContain( sidecar.config.sharedKey );
		}
		await sidecar.api( 'DELETE', `/v1/endpoints/${ endpoint.id }` );
	} );

	describe( 'deliveries and status', () => {
		it( 'lists deliveries newest first, filtered and paged, with a total', async () => {
			const ep = ( await sidecar.api( 'POST', '/v1/endpoints', { url: receiver.url + '/list' } ) ).body;
			const events = Array.from( { length: 5 }, ( _x, i ) =>
				orderEvent( `list_${ i }`, i % 2 ? 'order.paid' : 'order.created', 20 + i )
			);
			await sidecar.api( 'POST', '/v1/events', { events } );
			await waitUntil(
				async () =>
					( await sidecar.api( 'GET', `/v1/deliveries?endpoint_id=${ ep.id }&status=succeeded` ) ).body
						.total === 5
			);

			const page1 = await sidecar.api( 'GET', `/v1/deliveries?endpoint_id=${ ep.id }&per_page=2` );
			expect( page1.body ).toMatchObject( { total: 5, page: 1, per_page: 2 } );
			expect( page1.body.deliveries.map( ( d: { event_id: string } ) => d.event_id ) ).toEqual( [
				'list_4',
				'list_3',
			] );
			const page3 = await sidecar.api( 'GET', `/v1/deliveries?endpoint_id=${ ep.id }&per_page=2&page=3` );
			expect( page3.body.deliveries.map( ( d: { event_id: string } ) => d.event_id ) ).toEqual( [ 'list_0' ] );
			const paid = await sidecar.api( 'GET', `/v1/deliveries?endpoint_id=${ ep.id }&type=order.paid` );
			expect( paid.body.deliveries.map( ( d: { event_id: string } ) => d.event_id ) ).toEqual( [
				'list_3',
				'list_1',
			] );
			expect( paid.body.deliveries[ 0 ] ).toMatchObject( {
				event_type: 'order.paid',
				endpoint_id: ep.id,
				status: 'succeeded',
				attempt_count: 1,
				last_status_code: 200,
			} );
			expect( ( await sidecar.api( 'GET', '/v1/deliveries' ) ).body.total ).toBeGreaterThanOrEqual( 5 );
			await sidecar.api( 'DELETE', `/v1/endpoints/${ ep.id }` );
		} );

		it( "shows each endpoint's recent success rate and last error", async () => {
			let calls = 0;
			const bumpy = await startReceiver( ( _req, res ) => {
				calls++;
				// 1st: 200; 2nd: 500 (retried); 3rd: 200; then a network error (connection cut); then 200.
				if ( calls === 2 ) {
					res.writeHead( 500 ).end( 'boom:   database\n locked' );
				} else if ( calls === 4 ) {
					res.destroy();
				} else {
					res.writeHead( 200 ).end( 'ok' );
				}
			} );
			try {
				const ep = (
					await sidecar.api( 'POST', '/v1/endpoints', { url: bumpy.url, event_types: [ 'order.refunded' ] } )
				).body;
				expect( ep.health ).toEqual( { recent_attempts: 0, recent_success_rate: null, last_error: null } );

				await sidecar.api( 'POST', '/v1/events', {
					events: [ orderEvent( 'health_a', 'order.refunded', 50 ) ],
				} );
				await waitUntil( async () => ( await deliveryStatus( 'health_a' ) ) === 'succeeded' );
				expect( ( await sidecar.api( 'GET', `/v1/endpoints/${ ep.id }` ) ).body.health ).toEqual( {
					recent_attempts: 1,
					recent_success_rate: 1,
					last_error: null,
				} );

				await sidecar.api( 'POST', '/v1/events', {
					events: [ orderEvent( 'health_b', 'order.refunded', 51 ) ],
				} );
				await waitUntil( async () => ( await deliveryStatus( 'health_b' ) ) === 'succeeded' );
				const afterB = ( await sidecar.api( 'GET', `/v1/endpoints/${ ep.id }` ) ).body.health;
				expect( afterB ).toEqual( {
					recent_attempts: 3,
					recent_success_rate: 0.667,
					last_error: { at: expect.any( String ), status: 500, message: 'HTTP 500: boom: database locked' },
				} );

				await sidecar.api( 'POST', '/v1/events', {
					events: [ orderEvent( 'health_c', 'order.refunded', 52 ) ],
				} );
				await waitUntil( async () => ( await deliveryStatus( 'health_c' ) ) === 'succeeded' );
				const listed = ( await sidecar.api( 'GET', '/v1/endpoints' ) ).body.endpoints.find(
					( e: { id: string } ) => e.id === ep.id
				);
				expect( listed.health ).toEqual( {
					recent_attempts: 5,
					recent_success_rate: 0.6,
					last_error: {
						at: expect.any( String ),
						status: null,
						message: expect.stringMatching( /^network error / ),
					},
				} );
				await sidecar.api( 'DELETE', `/v1/endpoints/${ ep.id }` );
			} finally {
				await bumpy.close();
			}
		} );

		it( 'reports queue depth and endpoint health in /v1/status', async () => {
			const down = await startReceiver( ( _req, res ) => void res.writeHead( 500 ).end() );
			const slow = await startHarness( { SIDECAR_RETRY_SCHEDULE: '0,60' } );
			try {
				const a = ( await slow.api( 'POST', '/v1/endpoints', { url: down.url } ) ).body;
				const b = ( await slow.api( 'POST', '/v1/endpoints', { url: down.url } ) ).body;
				await slow.api( 'POST', `/v1/endpoints/${ b.id }/disable` );
				await slow.api( 'POST', '/v1/events', {
					events: [ orderEvent( 'st_1', 'order.paid', 1 ), orderEvent( 'st_2', 'order.paid', 2 ) ],
				} );
				await down.waitFor( ( r ) => r.length === 2 );
				await waitUntil( () => slow.dispatcher.inFlightCount() === 0 );
				const status = await slow.api( 'GET', '/v1/status' );
				expect( status.status ).toBe( 200 );
				expect( status.body ).toEqual( {
					version: expect.any( String ),
					uptime_s: expect.any( Number ),
					queue: { pending: 2, in_flight: 0, failed: 0, cancelled: 0 },
					endpoints: { active: 1, disabled: 1 },
				} );
				expect( a.id ).toBeDefined();
			} finally {
				await slow.close();
				await down.close();
			}
		} );
	} );
} );
