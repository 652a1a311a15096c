import { CHANNEL_HEADERS, signChannelRequest } from '../../sidecar/src/channel/channel-signature';
import { HAND_OVER_REQUEST_RETRIES_MS } from '../../sidecar/src/outbound/hand-over-request';
import { CALLBACK_ROUTE } from '../../sidecar/src/outbound/wordpress-notice';
import { orderEvent } from './support/api-client';
import { startHarness, TEST_KEY } from './support/harness';
import { ManualClock } from './support/manual-clock';
import { isHandOverRequest, startReceiver, startWordPress, type ReceivedRequest } from './support/receiver';
import { waitUntil } from '../support/wait-until';

/** Fast upkeep for tests: a 0.1 s maintenance period, which is also the first notice retry delay. */
const FAST = { SIDECAR_MAINTENANCE_INTERVAL_SECONDS: '0.1' };

/** The notice is signed like every channel call: WordPress checks it against the shared key. */
function expectSignedNotice( request: ReceivedRequest ): void {
	expect( request.path ).toBe( `/wp-json${ CALLBACK_ROUTE }` );
	const timestamp = Number( request.headers[ CHANNEL_HEADERS.timestamp ] );
	expect( request.headers[ CHANNEL_HEADERS.signature ] ).toBe(
		signChannelRequest(
			TEST_KEY,
			timestamp,
			request.headers[ CHANNEL_HEADERS.requestId ] as string,
			'POST',
			CALLBACK_ROUTE,
			Buffer.from( request.body )
		)
	);
}

describe( 'endpoint health sweep', () => {
	it( 'disables an endpoint failing for longer than SIDECAR_DISABLE_AFTER_HOURS even when no attempt follows, and tells WordPress', async () => {
		const wordpress = await startWordPress( ( _req, res ) => void res.writeHead( 202 ).end() );
		const receiver = await startReceiver( ( _req, res ) => void res.writeHead( 500 ).end() );
		// One attempt, then nothing more is ever sent; 0.0003 h = 1,080 ms of failure streak. The
		// sweep runs at start and then only when the test asks, on a clock the test moves.
		const clock = new ManualClock();
		const started = clock.now();
		const sidecar = await startHarness(
			{
				SIDECAR_MAINTENANCE_INTERVAL_SECONDS: '3600',
				SIDECAR_WORDPRESS_URL: wordpress.url,
				SIDECAR_RETRY_SCHEDULE: '0',
				SIDECAR_DISABLE_AFTER_HOURS: '0.0003',
			},
			{ clock }
		);
		try {
			const endpoint = ( await sidecar.api( 'POST', '/v1/endpoints', { url: receiver.url } ) ).body;
			await sidecar.api( 'POST', '/v1/events', { events: [ orderEvent( 'sweep_1', 'order.paid', 1 ) ] } );
			await waitUntil(
				async () =>
					( await sidecar.api( 'GET', '/v1/events/sweep_1' ) ).body.deliveries[ 0 ]?.status === 'failed'
			);
			const failing = ( await sidecar.api( 'GET', `/v1/endpoints/${ endpoint.id }` ) ).body;
			// The streak began at the round that recorded the one attempt.
			expect( failing ).toMatchObject( { status: 'active', failing_since: new Date( started ).toISOString() } );

			// A millisecond short of the limit the sweep leaves it alone; at the limit it disables it.
			await clock.advance( 1079 );
			await sidecar.outbound.maintenance.tick();
			expect( ( await sidecar.api( 'GET', `/v1/endpoints/${ endpoint.id }` ) ).body ).toMatchObject( {
				status: 'active',
			} );
			expect( sidecar.stores.notices.pendingCount() ).toBe( 0 );
			await clock.advance( 1 );
			await sidecar.outbound.maintenance.tick();

			await wordpress.waitFor( ( r ) => r.length === 1 );
			expect( JSON.parse( ( wordpress.requests[ 0 ] as ReceivedRequest ).body ) ).toEqual( {
				type: 'endpoint.disabled',
				endpoint_id: endpoint.id,
				url: receiver.url + '/',
				reason: expect.stringMatching( /^failing without a success since / ),
				failing_since: failing.failing_since,
				last_error: { at: expect.any( String ), status: 500, message: 'HTTP 500' },
			} );
			// The last error is the one attempt's.
			const sent = JSON.parse( ( wordpress.requests[ 0 ] as ReceivedRequest ).body );
			expect(
				Math.abs( Date.parse( sent.last_error.at ) - ( receiver.requests[ 0 ] as ReceivedRequest ).at )
			).toBeLessThan( 1_000 );
			expectSignedNotice( wordpress.requests[ 0 ] as ReceivedRequest );
			expect( ( await sidecar.api( 'GET', `/v1/endpoints/${ endpoint.id }` ) ).body ).toMatchObject( {
				status: 'disabled',
				disabled_by: 'auto',
			} );
			expect( receiver.requests ).toHaveLength( 1 ); // disabled with no further attempt
		} finally {
			await sidecar.close();
			await receiver.close();
			await wordpress.close();
		}
	} );
} );

describe( 'notices to WordPress', () => {
	it( 'retries the endpoint.disabled notice until WordPress acknowledges it, then stops', async () => {
		let calls = 0;
		const wordpress = await startWordPress( ( _req, res ) => void res.writeHead( ++calls <= 2 ? 503 : 202 ).end() );
		const gone = await startReceiver( ( _req, res ) => void res.writeHead( 410 ).end() );
		const sidecar = await startHarness( { ...FAST, SIDECAR_WORDPRESS_URL: wordpress.url } );
		try {
			const endpoint = ( await sidecar.api( 'POST', '/v1/endpoints', { url: gone.url } ) ).body;
			await sidecar.api( 'POST', '/v1/events', { events: [ orderEvent( 'notice_1', 'order.paid', 1 ) ] } );
			await wordpress.waitFor( ( r ) => r.length === 3 );
			await waitUntil( () => sidecar.stores.notices.pendingCount() === 0 );
			const bodies = wordpress.requests.map( ( r ) => JSON.parse( r.body ) );
			expect( new Set( wordpress.requests.map( ( r ) => r.body ) ).size ).toBe( 1 ); // the same notice each time
			expect( bodies[ 0 ] ).toMatchObject( {
				type: 'endpoint.disabled',
				endpoint_id: endpoint.id,
				reason: expect.stringMatching( /410/ ),
				// Disabled on the 410 itself: that attempt began and ended the streak.
				failing_since: expect.any( String ),
				last_error: { at: expect.any( String ), status: 410, message: 'HTTP 410' },
			} );
			wordpress.requests.forEach( expectSignedNotice );
			expect( new Set( wordpress.requests.map( ( r ) => r.headers[ CHANNEL_HEADERS.requestId ] ) ).size ).toBe(
				3
			);
			// Acknowledged: later maintenance rounds send nothing more.
			await sidecar.outbound.maintenance.tick();
			await sidecar.outbound.maintenance.tick();
			expect( wordpress.requests ).toHaveLength( 3 );
		} finally {
			await sidecar.close();
			await gone.close();
			await wordpress.close();
		}
	} );

	it( 'stops retrying the notices of an endpoint once it is deleted', async () => {
		// WordPress refuses every notice, so the sidecar keeps retrying (0.1 s, doubling), as the
		// test moves the clock.
		const wordpress = await startWordPress( ( _req, res ) => void res.writeHead( 503 ).end() );
		const gone = await startReceiver( ( _req, res ) => void res.writeHead( 410 ).end() );
		const clock = new ManualClock();
		const sidecar = await startHarness( { ...FAST, SIDECAR_WORDPRESS_URL: wordpress.url }, { clock } );
		// The clock moves 0.1 s at a time: each maintenance round kicks the sender.
		const advanceUntil = ( done: () => boolean, what: string ) => clock.advanceUntil( done, what, 100 );
		try {
			const endpoint = ( await sidecar.api( 'POST', '/v1/endpoints', { url: gone.url } ) ).body;
			const kept = ( await sidecar.api( 'POST', '/v1/endpoints', { url: gone.url + '/kept' } ) ).body;
			await sidecar.api( 'POST', '/v1/events', { events: [ orderEvent( 'deleted_notice', 'order.paid', 1 ) ] } );
			const about = ( id: string ) =>
				wordpress.requests.filter( ( r ) => {
					const notice = JSON.parse( r.body ) as { type: string; endpoint_id: string };
					return notice.type === 'endpoint.disabled' && notice.endpoint_id === id;
				} ).length;
			await advanceUntil( () => about( endpoint.id ) >= 2 && about( kept.id ) >= 2, 'both notices retried' );
			expect( sidecar.stores.notices.pendingCount() ).toBe( 2 );

			expect( ( await sidecar.api( 'DELETE', `/v1/endpoints/${ endpoint.id }` ) ).status ).toBe( 200 );
			// Only the deleted endpoint's notice goes, replaced by its endpoint.deleted notice; the other one is still retried.
			expect( sidecar.stores.notices.pendingCount() ).toBe( 2 );
			const sentBefore = about( endpoint.id );
			const keptBefore = about( kept.id );
			// A round sends every notice due, one after the other: once the kept notice went out in two
			// more rounds, a round that would have sent the deleted one too has ended.
			await advanceUntil( () => about( kept.id ) >= keptBefore + 2, 'the kept notice retried twice' );
			// At most one send already in flight when the DELETE ran may still land.
			expect( about( endpoint.id ) - sentBefore ).toBeLessThanOrEqual( 1 );
			const afterGrace = about( endpoint.id );
			const keptAfterGrace = about( kept.id );
			await advanceUntil( () => about( kept.id ) >= keptAfterGrace + 2, 'the kept notice retried twice more' );
			expect( about( endpoint.id ) ).toBe( afterGrace );
		} finally {
			await sidecar.close();
			await gone.close();
			await wordpress.close();
		}
	} );

	it( 'tells WordPress when an endpoint is enabled again and when it is deleted, after its disabled notice', async () => {
		const wordpress = await startWordPress( ( _req, res ) => void res.writeHead( 202 ).end() );
		const gone = await startReceiver( ( _req, res ) => void res.writeHead( 410 ).end() );
		const sidecar = await startHarness( { ...FAST, SIDECAR_WORDPRESS_URL: wordpress.url } );
		try {
			const endpoint = ( await sidecar.api( 'POST', '/v1/endpoints', { url: gone.url } ) ).body;
			await sidecar.api( 'POST', '/v1/events', { events: [ orderEvent( 'enable_notice', 'order.paid', 1 ) ] } );
			await wordpress.waitFor( ( r ) => r.length === 1 );

			expect(
				( await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/enable`, { redeliver: false } ) ).status
			).toBe( 200 );
			await wordpress.waitFor( ( r ) => r.length === 2 );
			expect( ( await sidecar.api( 'DELETE', `/v1/endpoints/${ endpoint.id }` ) ).status ).toBe( 200 );
			await wordpress.waitFor( ( r ) => r.length === 3 );
			await waitUntil( () => sidecar.stores.notices.pendingCount() === 0 );

			expect( wordpress.requests.map( ( r ) => JSON.parse( r.body ) ) ).toEqual( [
				expect.objectContaining( { type: 'endpoint.disabled', endpoint_id: endpoint.id } ),
				{ type: 'endpoint.enabled', endpoint_id: endpoint.id },
				{ type: 'endpoint.deleted', endpoint_id: endpoint.id },
			] );
			wordpress.requests.forEach( expectSignedNotice );
		} finally {
			await sidecar.close();
			await gone.close();
			await wordpress.close();
		}
	} );

	it( 'drops a disabled notice still unacknowledged when the endpoint is enabled: WordPress gets the enabled one only', async () => {
		let refuse = true;
		const wordpress = await startWordPress( ( _req, res ) => void res.writeHead( refuse ? 503 : 202 ).end() );
		const gone = await startReceiver( ( _req, res ) => void res.writeHead( 410 ).end() );
		const sidecar = await startHarness( { ...FAST, SIDECAR_WORDPRESS_URL: wordpress.url } );
		try {
			const endpoint = ( await sidecar.api( 'POST', '/v1/endpoints', { url: gone.url } ) ).body;
			await sidecar.api( 'POST', '/v1/events', { events: [ orderEvent( 'enable_drops', 'order.paid', 1 ) ] } );
			await wordpress.waitFor( ( r ) => r.length >= 1 );
			expect(
				( await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/enable`, { redeliver: false } ) ).status
			).toBe( 200 );
			expect( sidecar.stores.notices.pendingCount() ).toBe( 1 );
			refuse = false;
			const before = wordpress.requests.length;
			await waitUntil( () => sidecar.stores.notices.pendingCount() === 0 );
			// At most one disabled notice already in flight may land before the enabled one.
			const acknowledged = wordpress.requests
				.slice( before )
				.map( ( r ) => JSON.parse( r.body ) as { type: string } );
			expect( acknowledged.at( -1 ) ).toEqual( { type: 'endpoint.enabled', endpoint_id: endpoint.id } );
		} finally {
			await sidecar.close();
			await gone.close();
			await wordpress.close();
		}
	} );

	it( 'keeps an unacknowledged notice across a restart and sends it then', async () => {
		const down = await startWordPress( ( _req, res ) => void res.writeHead( 500 ).end() );
		const gone = await startReceiver( ( _req, res ) => void res.writeHead( 410 ).end() );
		const first = await startHarness( { ...FAST, SIDECAR_WORDPRESS_URL: down.url } );
		const wordpress = await startWordPress( ( _req, res ) => void res.writeHead( 202 ).end() );
		let endpointId = '';
		try {
			endpointId = ( await first.api( 'POST', '/v1/endpoints', { url: gone.url } ) ).body.id;
			await first.api( 'POST', '/v1/events', { events: [ orderEvent( 'restart_notice', 'order.paid', 1 ) ] } );
			await down.waitFor( ( r ) => r.length >= 1 );
		} finally {
			await first.close( { keepData: true } );
		}
		const second = await startHarness(
			{ ...FAST, SIDECAR_WORDPRESS_URL: wordpress.url },
			{ dataDir: first.dataDir }
		);
		try {
			await wordpress.waitFor( ( r ) => r.length === 1 );
			expect( JSON.parse( ( wordpress.requests[ 0 ] as ReceivedRequest ).body ) ).toMatchObject( {
				type: 'endpoint.disabled',
				endpoint_id: endpointId,
			} );
			await waitUntil( () => second.stores.notices.pendingCount() === 0 );
		} finally {
			await second.close();
			await Promise.all( [ down.close(), gone.close(), wordpress.close() ] );
		}
	} );
} );

describe( 'the hand-over request', () => {
	it( 'asks WordPress, signed, to hand over what its outbox holds as soon as the sidecar starts', async () => {
		const wordpress = await startWordPress();
		const sidecar = await startHarness( { SIDECAR_WORDPRESS_URL: wordpress.url } );
		try {
			await waitUntil(
				() => wordpress.apart.length === 1,
				5000,
				() => 'the sidecar.ready notice'
			);
			const request = wordpress.apart[ 0 ] as ReceivedRequest;
			expect( JSON.parse( request.body ) ).toEqual( { type: 'sidecar.ready' } );
			expectSignedNotice( request );
			// Nothing is queued for it: the notices table stays empty.
			expect( sidecar.stores.notices.pendingCount() ).toBe( 0 );
		} finally {
			await sidecar.close();
			await wordpress.close();
		}
	} );

	it( 'asks again on its schedule until WordPress takes it, then stops asking', async () => {
		let refusals = 2;
		const wordpress = await startReceiver(
			( _req, res ) => void res.writeHead( refusals-- > 0 ? 503 : 202 ).end()
		);
		const clock = new ManualClock();
		const sidecar = await startHarness(
			{ SIDECAR_MAINTENANCE_INTERVAL_SECONDS: '3600', SIDECAR_WORDPRESS_URL: wordpress.url },
			{ clock }
		);
		const [ first, second ] = HAND_OVER_REQUEST_RETRIES_MS as [ number, number ];
		const asked = () => wordpress.requests.filter( isHandOverRequest ).length;
		try {
			await waitUntil(
				() => asked() === 1,
				5000,
				() => 'the first request, at start'
			);
			// Not before its delay: a millisecond short of it, then the last millisecond.
			await clock.advance( first - 1 );
			expect( asked() ).toBe( 1 );
			await clock.advance( 1 );
			await waitUntil(
				() => asked() === 2,
				5000,
				() => 'the second request'
			);
			await clock.advance( second );
			await waitUntil(
				() => asked() === 3,
				5000,
				() => 'the third request, which WordPress takes'
			);
			wordpress.requests.forEach( expectSignedNotice );
			// Taken: however long the sidecar runs, it asks no more.
			await clock.advance( 24 * 3_600_000 );
			expect( asked() ).toBe( 3 );
		} finally {
			await sidecar.close();
			await wordpress.close();
		}
	} );

	it( 'gives up after its last try and leaves the outbox to WordPress’s cron', async () => {
		const wordpress = await startReceiver( ( _req, res ) => void res.writeHead( 503 ).end() );
		const clock = new ManualClock();
		const sidecar = await startHarness(
			{ SIDECAR_MAINTENANCE_INTERVAL_SECONDS: '3600', SIDECAR_WORDPRESS_URL: wordpress.url },
			{ clock }
		);
		const tries = HAND_OVER_REQUEST_RETRIES_MS.length + 1;
		const asked = () => wordpress.requests.filter( isHandOverRequest ).length;
		try {
			for ( const [ retry, delay ] of HAND_OVER_REQUEST_RETRIES_MS.entries() ) {
				await waitUntil(
					() => asked() === retry + 1,
					5000,
					() => `try ${ retry + 1 }`
				);
				await clock.advance( delay );
			}
			await waitUntil(
				() => asked() === tries,
				5000,
				() => 'the last try'
			);
			await waitUntil( () => sidecar.logText().includes( 'did not take the request to hand over' ) );
			await clock.advance( 24 * 3_600_000 );
			expect( asked() ).toBe( tries );
		} finally {
			await sidecar.close();
			await wordpress.close();
		}
	} );
} );
