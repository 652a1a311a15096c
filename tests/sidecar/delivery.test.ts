import fs from 'fs';
import path from 'path';
import { Webhook } from 'standardwebhooks';
import { CHANNEL_HEADERS, signChannelRequest } from '../../sidecar/src/channel/channel-signature';
import { orderEvent } from './support/api-client';
import {
	deliverySidecars,
	DELIVERY_STORES,
	type DeliverySidecar,
	type DeliverySidecars,
} from './support/delivery-sidecar';
import { TEST_KEY } from './support/harness';
import { ManualClock } from './support/manual-clock';
import { startReceiver, startWordPress, type Receiver, type ReceivedRequest } from './support/receiver';
import { sleep, waitUntil } from '../support/wait-until';

/**
 * Delivery behaviour of the real sidecar (app + dispatcher + store, in-process) against real
 * HTTP receivers on 127.0.0.1, on the embedded SQLite store and on the shared MariaDB store
 * (one instance, wired as cli-start.ts wires it). The same API calls, the same answers.
 * The standardwebhooks library is the signature oracle.
 */
describe.each( DELIVERY_STORES )( 'outbound delivery (%s store)', ( store ) => {
	let sidecars: DeliverySidecars;
	let sidecar: DeliverySidecar;
	let receiver: Receiver;
	let wordpress: Receiver;
	const secrets: string[] = [];
	let seq = 0;
	/**
	 * On the shared store an endpoint's max_concurrency limits each instance, not all of them
	 * together (each dispatcher counts its own attempts in flight): behind two instances an
	 * endpoint may have up to twice as many. The cases that count requests at once, or count that
	 * nothing more went out after a 410 with max_concurrency 1, run on one instance only.
	 */
	const twoInstances = store === 'shared, two instances';
	/** The release's one version: the repository's package.json (what `npm version` changes). */
	const packageVersion = (
		JSON.parse( fs.readFileSync( path.join( __dirname, '../../package.json' ), 'utf8' ) ) as { version: string }
	 ).version;
	const nextId = ( prefix = 'evt' ) => `${ prefix }_${ Date.now().toString( 36 ) }_${ ++seq }`;

	beforeAll( async () => {
		wordpress = await startWordPress( ( _req, res ) => void res.writeHead( 202 ).end( '{"received":true}' ) );
		sidecars = await deliverySidecars( store );
		sidecar = await sidecars.start( { SIDECAR_WORDPRESS_URL: wordpress.url } );
	} );

	afterAll( async () => {
		await sidecar?.close();
		await sidecars?.stop();
		await wordpress.close();
	} );

	beforeEach( async () => {
		receiver = await startReceiver();
	} );

	afterEach( async () => {
		// A failed test must not leave an endpoint behind that the next test's events fan out to.
		for ( const endpoint of ( await sidecar.api( 'GET', '/v1/endpoints' ) ).body.endpoints as { id: string }[] ) {
			await sidecar.api( 'DELETE', `/v1/endpoints/${ endpoint.id }` );
		}
		await receiver.close();
	} );

	async function createEndpoint( body: Record< string, unknown > = {} ): Promise< { id: string; secret: string } > {
		const response = await sidecar.api( 'POST', '/v1/endpoints', { url: receiver.url + '/hook', ...body } );
		expect( response.status ).toBe( 201 );
		secrets.push( response.body.secret );
		return response.body;
	}

	async function postEvents( events: unknown[] ): Promise< void > {
		const response = await sidecar.api( 'POST', '/v1/events', { events } );
		expect( response.status ).toBe( 202 );
	}

	async function deleteEndpoint( id: string ): Promise< void > {
		expect( ( await sidecar.api( 'DELETE', `/v1/endpoints/${ id }` ) ).status ).toBe( 200 );
	}

	const byId = ( id: string ) => ( requests: ReceivedRequest[] ) =>
		requests.filter( ( r ) => r.headers[ 'webhook-id' ] === id );

	it( 'delivers the exact payload, signed so that the standardwebhooks library verifies it', async () => {
		const endpoint = await createEndpoint();
		const event = orderEvent( nextId(), 'order.paid', 101, { total: '12.50', note: 'caf\u00e9 \u{1F600}' } );
		await postEvents( [ event ] );
		await receiver.waitFor( ( r ) => r.length === 1 );

		const [ request ] = receiver.requests as [ ReceivedRequest ];
		expect( request.method ).toBe( 'POST' );
		expect( request.path ).toBe( '/hook' );
		expect( request.headers[ 'content-type' ] ).toBe( 'application/json' );
		// The package's version, the same one /health reports.
		expect( request.headers[ 'user-agent' ] ).toBe( `wp-service-integration-sidecar/${ packageVersion }` );
		expect( ( await sidecar.api( 'GET', '/health' ) ).body.version ).toBe( packageVersion );
		expect( request.headers[ 'webhook-id' ] ).toBe( event.id );
		expect( Math.abs( Number( request.headers[ 'webhook-timestamp' ] ) - Date.now() / 1000 ) ).toBeLessThan( 5 );
		expect( request.body ).toBe(
			JSON.stringify( { type: event.type, timestamp: event.timestamp, data: event.data } )
		);
		expect( new Webhook( endpoint.secret ).verify( request.body, request.headers ) ).toEqual( {
			type: 'order.paid',
			timestamp: event.timestamp,
			data: event.data,
		} );
		expect( () =>
			new Webhook( 'whsec_' + Buffer.alloc( 32, 7 ).toString( 'base64' ) ).verify( request.body, request.headers )
		).toThrow();

		await waitUntil(
			async () =>
				( await sidecar.api( 'GET', `/v1/events/${ event.id }` ) ).body.deliveries[ 0 ]?.status === 'succeeded'
		);
		const detail = await sidecar.api( 'GET', `/v1/events/${ event.id }` );
		expect( detail.body.deliveries[ 0 ] ).toMatchObject( {
			endpoint_id: endpoint.id,
			attempt_count: 1,
			last_status_code: 200,
		} );
		expect( detail.body.deliveries[ 0 ].attempts ).toEqual( [
			expect.objectContaining( {
				attempt_number: 1,
				status_code: 200,
				response_excerpt: 'ok',
				trigger: 'scheduled',
				error_code: null,
			} ),
		] );
		await deleteEndpoint( endpoint.id );
	} );

	it( 'sends WooCommerce-style headers too when asked (wc_compat_signature)', async () => {
		const endpoint = await createEndpoint( { wc_compat_signature: true } );
		const event = orderEvent( nextId(), 'order.created', 102 );
		await postEvents( [ event ] );
		await receiver.waitFor( ( r ) => r.length === 1 );
		const [ request ] = receiver.requests as [ ReceivedRequest ];
		const crypto = await import( 'crypto' );
		expect( request.headers[ 'x-wc-webhook-signature' ] ).toBe(
			crypto.createHmac( 'sha256', endpoint.secret ).update( request.body ).digest( 'base64' )
		);
		expect( request.headers[ 'x-wc-webhook-topic' ] ).toBe( 'order.created' );
		expect( request.headers[ 'x-wc-webhook-id' ] ).toBe( endpoint.id );
		expect( request.headers[ 'x-wc-webhook-source' ] ).toBe( wordpress.url );
		new Webhook( endpoint.secret ).verify( request.body, request.headers );
		await deleteEndpoint( endpoint.id );
	} );

	it( 'retries after receiver failures with the same webhook-id, then gives up when the schedule is exhausted', async () => {
		let calls = 0;
		receiver.setHandler( ( _req, res ) => {
			calls++;
			if ( calls <= 2 ) {
				res.writeHead( 500 ).end( 'boom' );
			} else if ( calls === 3 ) {
				res.destroy(); // a connection reset also counts as a failure
			} else {
				res.writeHead( 200 ).end();
			}
		} );
		const endpoint = await createEndpoint();
		const first = orderEvent( nextId(), 'order.paid', 103 );
		await postEvents( [ first ] );
		// Schedule 0, 0.05, 0.1 = three attempts: 500, 500, reset → failed for good.
		await waitUntil(
			async () =>
				( await sidecar.api( 'GET', `/v1/events/${ first.id }` ) ).body.deliveries[ 0 ]?.status === 'failed'
		);
		const requests = byId( first.id )( receiver.requests );
		expect( requests ).toHaveLength( 3 );
		for ( const request of requests ) {
			new Webhook( endpoint.secret ).verify( request.body, request.headers );
		}
		expect( requests[ 1 ]!.at - requests[ 0 ]!.at ).toBeGreaterThanOrEqual( 45 );
		expect( requests[ 2 ]!.at - requests[ 1 ]!.at ).toBeGreaterThanOrEqual( 95 );

		const detail = ( await sidecar.api( 'GET', `/v1/events/${ first.id }` ) ).body.deliveries[ 0 ];
		expect( detail ).toMatchObject( {
			attempt_count: 3,
			status: 'failed',
			last_status_code: null,
			next_attempt_at: null,
		} );
		expect( detail.last_error ).toMatch( /attempts exhausted/ );
		expect(
			detail.attempts.map( ( a: { status_code: number | null; error_code: string | null } ) => [
				a.status_code,
				a.error_code,
			] )
		).toEqual( [
			[ 500, null ],
			[ 500, null ],
			[ null, 'ECONNRESET' ],
		] );
		expect( detail.attempts[ 0 ].response_excerpt ).toBe( 'boom' );
		expect( detail.attempts[ 0 ].next_attempt_at ).not.toBeNull();

		// The next event goes through on its first attempt (the receiver recovered).
		const second = orderEvent( nextId(), 'order.paid', 104 );
		await postEvents( [ second ] );
		await receiver.waitFor( ( r ) => byId( second.id )( r ).length === 1 );
		await deleteEndpoint( endpoint.id );
	} );

	it.each( [ 429, 503 ] )( 'honours Retry-After on %i (never retries sooner than asked)', async ( status ) => {
		let calls = 0;
		receiver.setHandler( ( _req, res ) => {
			calls++;
			if ( calls === 1 ) {
				res.writeHead( status, { 'retry-after': '1' } ).end();
			} else {
				res.writeHead( 200 ).end();
			}
		} );
		const endpoint = await createEndpoint();
		const event = orderEvent( nextId(), 'order.paid', 105 );
		await postEvents( [ event ] );
		await receiver.waitFor( ( r ) => r.length === 2, 5000 );
		const [ a, b ] = receiver.requests as [ ReceivedRequest, ReceivedRequest ];
		expect( a.headers[ 'webhook-id' ] ).toBe( b.headers[ 'webhook-id' ] );
		// The schedule alone would have retried after 50 ms.
		expect( b.at - a.at ).toBeGreaterThanOrEqual( 990 );
		await deleteEndpoint( endpoint.id );
	} );

	it( 'does not follow redirects: a 3xx is a failed attempt', async () => {
		receiver.setHandler( ( req, res ) => {
			if ( req.path === '/hook' ) {
				res.writeHead( 302, { location: '/elsewhere' } ).end();
			} else {
				res.writeHead( 200 ).end();
			}
		} );
		const endpoint = await createEndpoint();
		const event = orderEvent( nextId(), 'order.paid', 106 );
		await postEvents( [ event ] );
		await waitUntil(
			async () =>
				( await sidecar.api( 'GET', `/v1/events/${ event.id }` ) ).body.deliveries[ 0 ]?.status === 'failed'
		);
		expect( receiver.requests.map( ( r ) => r.path ) ).toEqual( [ '/hook', '/hook', '/hook' ] );
		const detail = ( await sidecar.api( 'GET', `/v1/events/${ event.id }` ) ).body.deliveries[ 0 ];
		expect( detail.last_status_code ).toBe( 302 );
		expect( detail.last_error ).toMatch( /redirects are not followed/ );
		await deleteEndpoint( endpoint.id );
	} );

	it( 'counts a timeout as a failure and retries', async () => {
		const slow = await sidecars.start( { SIDECAR_DELIVERY_TIMEOUT_MS: '1000', SIDECAR_RETRY_SCHEDULE: '0,0.05' } );
		try {
			let calls = 0;
			receiver.setHandler( async ( _req, res ) => {
				calls++;
				if ( calls === 1 ) {
					await sleep( 2500 );
				}
				if ( ! res.destroyed ) {
					res.writeHead( 200 ).end();
				}
			} );
			const created = await slow.api( 'POST', '/v1/endpoints', { url: receiver.url + '/hook' } );
			secrets.push( created.body.secret );
			const event = orderEvent( nextId(), 'order.paid', 107 );
			const started = Date.now();
			expect( ( await slow.api( 'POST', '/v1/events', { events: [ event ] } ) ).status ).toBe( 202 );
			await waitUntil(
				async () =>
					( await slow.api( 'GET', `/v1/events/${ event.id }` ) ).body.deliveries[ 0 ]?.status ===
					'succeeded',
				8000
			);
			const detail = ( await slow.api( 'GET', `/v1/events/${ event.id }` ) ).body.deliveries[ 0 ];
			expect(
				detail.attempts.map( ( a: { error_code: string | null; status_code: number | null } ) => [
					a.error_code,
					a.status_code,
				] )
			).toEqual( [
				[ 'ETIMEDOUT', null ],
				[ null, 200 ],
			] );
			expect( detail.attempts[ 0 ].duration_ms ).toBeGreaterThanOrEqual( 950 );
			expect( detail.attempts[ 0 ].duration_ms ).toBeLessThan( 2000 );
			expect( Date.now() - started ).toBeLessThan( 2500 );
		} finally {
			await slow.close();
		}
	} );

	it( 'keeps strict order per (endpoint, ordering key) under concurrency, even when attempts fail', async () => {
		// A third of the events fail their first attempt; replies take a random time.
		const failedOnce = new Set< string >();
		const succeeded = new Set< string >();
		receiver.setHandler( async ( req, res ) => {
			const id = req.headers[ 'webhook-id' ] as string;
			await sleep( Math.random() * 8 );
			if ( Number( id.split( '_' ).pop() ) % 3 === 0 && ! failedOnce.has( id ) ) {
				failedOnce.add( id );
				res.writeHead( 503 ).end();
				return;
			}
			succeeded.add( id );
			res.writeHead( 200 ).end();
		} );
		const endpoint = await createEndpoint( { max_concurrency: 8 } );
		const types = [ 'order.created', 'order.paid', 'order.refunded' ];
		const orders = 20;
		const run = ++seq;
		const idOf = ( order: number, step: number ) => `ord_${ run }_${ order }_${ step }_${ step * orders + order }`;
		const events = [];
		for ( let step = 0; step < types.length; step++ ) {
			for ( let order = 0; order < orders; order++ ) {
				events.push( orderEvent( idOf( order, step ), types[ step ] as string, order ) );
			}
		}
		// Small batches, as WordPress hands them over over time.
		for ( let i = 0; i < events.length; i += 7 ) {
			await postEvents( events.slice( i, i + 7 ) );
		}
		await waitUntil( () => succeeded.size === events.length, 15_000, 'all events delivered' );
		expect( failedOnce.size ).toBe( events.length / 3 );

		for ( let order = 0; order < orders; order++ ) {
			const ids = types.map( ( _t, step ) => idOf( order, step ) );
			// Every attempt of event 0 (retries included) comes before any of event 1, and so on.
			const sequence = receiver.requests
				.map( ( r ) => ids.indexOf( r.headers[ 'webhook-id' ] as string ) )
				.filter( ( i ) => i >= 0 );
			expect( sequence ).toEqual( [ ...sequence ].sort( ( a, b ) => a - b ) );
			expect( new Set( sequence ) ).toEqual( new Set( [ 0, 1, 2 ] ) );
		}
		expect( receiver.maxActive() ).toBeGreaterThan( 1 ); // the orders did run concurrently
		if ( ! twoInstances ) {
			expect( receiver.maxActive() ).toBeLessThanOrEqual( 8 );
		}
		await deleteEndpoint( endpoint.id );
	} );

	if ( ! twoInstances ) {
		it( "respects each endpoint's concurrency limit", async () => {
			const other = await startReceiver();
			try {
				const hold = async ( _req: ReceivedRequest, res: import( 'http' ).ServerResponse ) => {
					await sleep( 40 );
					res.writeHead( 200 ).end();
				};
				receiver.setHandler( hold );
				other.setHandler( hold );
				const three = await createEndpoint( { max_concurrency: 3 } );
				const created = await sidecar.api( 'POST', '/v1/endpoints', {
					url: other.url + '/hook',
					max_concurrency: 1,
				} );
				secrets.push( created.body.secret );
				const events = Array.from( { length: 24 }, () => ( {
					id: nextId( 'conc' ),
					type: 'order.created',
					timestamp: new Date().toISOString(),
					data: {},
				} ) );
				await postEvents( events );
				await receiver.waitFor( ( r ) => r.length === 24 );
				await other.waitFor( ( r ) => r.length === 24 );
				expect( receiver.maxActive() ).toBe( 3 );
				expect( other.maxActive() ).toBe( 1 );
				await deleteEndpoint( three.id );
				await deleteEndpoint( created.body.id );
			} finally {
				await other.close();
			}
		} );
	}

	it( 'signs with old and new secret during a rotation; each secret alone verifies', async () => {
		const endpoint = await createEndpoint();
		const rotated = await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/rotate-secret`, { grace_hours: 1 } );
		expect( rotated.status ).toBe( 200 );
		const newSecret = rotated.body.secret as string;
		secrets.push( newSecret );
		expect( newSecret ).not.toBe( endpoint.secret );
		expect( rotated.body.secrets ).toHaveLength( 2 );
		expect( rotated.body.secrets[ 1 ].expires_at ).not.toBeNull();

		const event = orderEvent( nextId(), 'order.paid', 108 );
		await postEvents( [ event ] );
		await receiver.waitFor( ( r ) => r.length === 1 );
		const [ request ] = receiver.requests as [ ReceivedRequest ];
		const signatures = request.headers[ 'webhook-signature' ]!.split( ' ' );
		expect( signatures ).toHaveLength( 2 );
		for ( const [ secret, signature ] of [
			[ newSecret, signatures[ 0 ] ],
			[ endpoint.secret, signatures[ 1 ] ],
		] as const ) {
			// Each secret verifies the request, and does so through its own signature alone.
			new Webhook( secret ).verify( request.body, request.headers );
			new Webhook( secret ).verify( request.body, {
				...request.headers,
				'webhook-signature': signature as string,
			} );
			expect( () =>
				new Webhook( secret ).verify( request.body, {
					...request.headers,
					'webhook-signature': signatures.find( ( s ) => s !== signature ) as string,
				} )
			).toThrow();
		}

		// A rotation without grace drops the secret it replaces at once; the original
		// keeps the hour of grace the first rotation gave it.
		const again = await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/rotate-secret`, { grace_hours: 0 } );
		secrets.push( again.body.secret );
		expect( again.body.secrets ).toHaveLength( 2 );
		const next = orderEvent( nextId(), 'order.paid', 109 );
		await postEvents( [ next ] );
		await receiver.waitFor( ( r ) => r.length === 2 );
		const second = receiver.requests[ 1 ] as ReceivedRequest;
		expect( second.headers[ 'webhook-signature' ]!.split( ' ' ) ).toHaveLength( 2 );
		new Webhook( again.body.secret ).verify( second.body, second.headers );
		new Webhook( endpoint.secret ).verify( second.body, second.headers );
		expect( () => new Webhook( newSecret ).verify( second.body, second.headers ) ).toThrow();
		await deleteEndpoint( endpoint.id );
	} );

	if ( ! twoInstances ) {
		it( 'disables the endpoint on 410, tells WordPress (signed), and re-enabling sends what was held back and what arrived meanwhile', async () => {
			let gone = true;
			receiver.setHandler( ( _req, res ) => void res.writeHead( gone ? 410 : 200 ).end() );
			const endpoint = await createEndpoint( { max_concurrency: 1 } );
			const noticesBefore = wordpress.requests.length;
			const events = [
				orderEvent( nextId(), 'order.created', 110 ),
				orderEvent( nextId(), 'order.paid', 110 ),
				orderEvent( nextId(), 'order.paid', 111 ),
			];
			await postEvents( events );
			await wordpress.waitFor( ( r ) => r.length === noticesBefore + 1 );
			expect( receiver.requests ).toHaveLength( 1 ); // nothing more after the 410

			const notice = wordpress.requests[ noticesBefore ] as ReceivedRequest;
			expect( notice.path ).toBe( '/wp-json/service-integration/v1/sidecar/callback' );
			expect( JSON.parse( notice.body ) ).toEqual( {
				type: 'endpoint.disabled',
				endpoint_id: endpoint.id,
				url: receiver.url + '/hook',
				reason: expect.stringMatching( /410/ ),
				// The 410 began and ended the failure streak.
				failing_since: expect.any( String ),
				last_error: { at: expect.any( String ), status: 410, message: expect.stringMatching( /^HTTP 410/ ) },
			} );
			const timestamp = Number( notice.headers[ CHANNEL_HEADERS.timestamp ] );
			expect( Math.abs( timestamp - Date.now() / 1000 ) ).toBeLessThan( 5 );
			expect( notice.headers[ CHANNEL_HEADERS.signature ] ).toBe(
				signChannelRequest(
					TEST_KEY,
					timestamp,
					notice.headers[ CHANNEL_HEADERS.requestId ] as string,
					'POST',
					'/service-integration/v1/sidecar/callback',
					Buffer.from( notice.body )
				)
			);

			const state = await sidecar.api( 'GET', `/v1/endpoints/${ endpoint.id }` );
			expect( state.body ).toMatchObject( {
				status: 'disabled',
				disabled_reason: expect.stringMatching( /410/ ),
			} );
			const held = await sidecar.api( 'GET', `/v1/deliveries?endpoint_id=${ endpoint.id }` );
			expect( held.body.deliveries.map( ( d: { status: string } ) => d.status ).sort() ).toEqual( [
				'cancelled',
				'cancelled',
				'failed',
			] );

			// New events get no delivery while the endpoint is disabled...
			const meanwhile = orderEvent( nextId(), 'order.paid', 112 );
			await postEvents( [ meanwhile ] );
			expect( ( await sidecar.api( 'GET', `/v1/deliveries?endpoint_id=${ endpoint.id }` ) ).body.total ).toBe(
				3
			);

			// ...and are sent on enable, after what was held back (a 410 is an automatic disable).
			gone = false;
			const enabled = await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/enable` );
			expect( enabled.body ).toMatchObject( {
				status: 'active',
				requeued: 4,
				redelivered: true,
				disabled_reason: null,
			} );
			await receiver.waitFor( ( r ) => r.length === 5 );
			// Same ids, and order 110's events still in order.
			expect( receiver.requests.slice( 1 ).map( ( r ) => r.headers[ 'webhook-id' ] ) ).toEqual(
				[ ...events, meanwhile ].map( ( e ) => e.id )
			);
			await deleteEndpoint( endpoint.id );
		} );

		it( 'refuses at connect time a hostname that resolves to loopback (no allow-list): EBLOCKED, given up at once', async () => {
			const strict = await sidecars.start( { SIDECAR_ALLOW_PRIVATE_CIDRS: '' } );
			try {
				const port = new URL( receiver.url ).port;
				const created = await strict.api( 'POST', '/v1/endpoints', { url: `http://localhost:${ port }/hook` } );
				expect( created.status ).toBe( 201 ); // a hostname passes the save-time check...
				secrets.push( created.body.secret );
				await strict.api( 'POST', '/v1/events', { events: [ orderEvent( 'blocked_1', 'order.paid', 1 ) ] } );
				await waitUntil(
					async () =>
						( await strict.api( 'GET', '/v1/events/blocked_1' ) ).body.deliveries[ 0 ]?.status === 'failed'
				);
				const delivery = ( await strict.api( 'GET', '/v1/events/blocked_1' ) ).body.deliveries[ 0 ];
				expect( delivery.attempts ).toEqual( [
					expect.objectContaining( { error_code: 'EBLOCKED', status_code: null } ),
				] );
				expect( delivery.last_error ).toMatch( /blocked by URL guard/ );
				expect( receiver.requests ).toHaveLength( 0 ); // ...but never reaches the address
			} finally {
				await strict.close();
			}
		} );
	}

	it( 'never writes a secret (endpoint secrets, the shared key) to the log', async () => {
		// Traffic of its own, logged at debug level: two secrets (a rotation), a delivery, a failure
		// retried, a 410 that disables the endpoint. Run with the rest, the log also holds theirs.
		let answer = 200;
		receiver.setHandler( ( _req, res ) => void res.writeHead( answer ).end() );
		const endpoint = await createEndpoint();
		const rotated = await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/rotate-secret` );
		expect( rotated.status ).toBe( 200 );
		secrets.push( rotated.body.secret );
		await postEvents( [ orderEvent( nextId(), 'order.paid', 1 ) ] );
		await receiver.waitFor( ( r ) => r.length === 1 );
		answer = 500;
		await postEvents( [ orderEvent( nextId(), 'order.paid', 2 ) ] );
		await receiver.waitFor( ( r ) => r.length >= 2 );
		answer = 410;
		await waitUntil(
			async () => ( await sidecar.api( 'GET', `/v1/endpoints/${ endpoint.id }` ) ).body.status === 'disabled',
			10_000,
			'the endpoint disabled'
		);

		const log = sidecar.logText();
		expect( log ).toMatch( /"msg":"delivered"/ );
		expect( log ).toMatch( /"msg":"delivery failed, will retry"/ );
		expect( log ).toMatch( /"msg":"endpoint disabled"/ );
		expect( secrets ).toEqual( expect.arrayContaining( [ endpoint.secret, rotated.body.secret ] ) );
		for ( const secret of secrets ) {
			expect( log ).not.toContain( secret );
			expect( log ).not.toContain( secret.slice( 'whsec_'.length ) );
		}
		expect( log ).not.toContain( TEST_KEY );
	} );
} );

describe.each( DELIVERY_STORES )( 'endpoint health (%s store)', ( store ) => {
	let sidecars: DeliverySidecars;

	beforeAll( async () => {
		sidecars = await deliverySidecars( store );
	} );

	afterAll( async () => {
		await sidecars?.stop();
	} );

	it( 'disables an endpoint that has failed without a success for longer than SIDECAR_DISABLE_AFTER_HOURS, and a success resets the streak', async () => {
		const wordpress = await startWordPress( ( _req, res ) => void res.writeHead( 202 ).end() );
		let healthy = false;
		const receiver = await startReceiver( ( _req, res ) => void res.writeHead( healthy ? 200 : 500 ).end() );
		// 0.0005 h = 1.8 s; a long schedule of 0.1 s retries keeps failing past it, as the test moves
		// the clock 0.1 s at a time.
		const clock = new ManualClock();
		const sidecar = await sidecars.start(
			{
				SIDECAR_WORDPRESS_URL: wordpress.url,
				SIDECAR_DISABLE_AFTER_HOURS: '0.0005',
				SIDECAR_RETRY_SCHEDULE: [ 0, ...Array( 60 ).fill( 0.1 ) ].join( ',' ),
			},
			clock
		);
		let endpoint: { id: string };
		const health = async () => ( await sidecar.api( 'GET', `/v1/endpoints/${ endpoint.id }` ) ).body;
		try {
			endpoint = ( await sidecar.api( 'POST', '/v1/endpoints', { url: receiver.url } ) ).body;
			await sidecar.api( 'POST', '/v1/events', { events: [ orderEvent( 'health_1', 'order.paid', 1 ) ] } );
			await clock.advanceUntil( () => receiver.requests.length >= 3, 'three attempts', 100 );
			const failing = ( await sidecar.api( 'GET', `/v1/endpoints/${ endpoint.id }` ) ).body;
			expect( failing.status ).toBe( 'active' );
			expect( failing.failing_since ).not.toBeNull();

			// One success clears the streak.
			healthy = true;
			await clock.advanceUntil( async () => ( await health() ).failing_since === null, 'the streak ended', 100 );

			healthy = false;
			const started = clock.now();
			await sidecar.api( 'POST', '/v1/events', { events: [ orderEvent( 'health_2', 'order.paid', 2 ) ] } );
			await clock.advanceUntil( () => wordpress.requests.length === 1, 'the endpoint.disabled notice', 100 );
			expect( clock.now() - started ).toBeGreaterThanOrEqual( 1800 );
			const disabled = ( await sidecar.api( 'GET', `/v1/endpoints/${ endpoint.id }` ) ).body;
			expect( disabled ).toMatchObject( {
				status: 'disabled',
				disabled_reason: expect.stringMatching( /failing without a success since/ ),
			} );
			expect( JSON.parse( ( wordpress.requests[ 0 ] as ReceivedRequest ).body ) ).toMatchObject( {
				type: 'endpoint.disabled',
				endpoint_id: endpoint.id,
			} );
			// The rest of the retry schedule and a few lease polls pass: nothing more goes out, and the
			// delivery stays where the disable left it, claimed by no instance.
			const count = receiver.requests.length;
			const left = ( await sidecar.api( 'GET', '/v1/events/health_2' ) ).body.deliveries[ 0 ];
			for ( let step = 0; step < 60; step++ ) {
				await clock.advance( 100 );
			}
			expect( ( await sidecar.api( 'GET', '/v1/events/health_2' ) ).body.deliveries[ 0 ] ).toEqual( left );
			expect( receiver.requests.length ).toBe( count );
		} finally {
			await sidecar.close();
			await receiver.close();
			await wordpress.close();
		}
	} );
} );
