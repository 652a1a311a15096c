import { startReceiver, type Receiver } from '../../sidecar/support/receiver';
import { adminClient } from '../support/clients';
import { commerce } from '../support/commerce';
import { cronUntil } from '../support/cron';
import { withPluginActive } from '../support/plugins';
import { readState } from '../support/environment';
import { startSidecar, stopSidecar } from '../support/sidecar-control';
import { waitUntil } from '../../support/wait-until';

/**
 * The outbox hand-over from WordPress to the sidecar: refused events are parked instead of
 * blocking the rest, a request hands over at most one batch and never while another holds
 * the lock, WP-Cron drains the outbox by itself and prunes what was handed over.
 */

interface OutboxState {
	pending: number;
	handed_over: number;
	rejected: number;
	error?: string | null;
	rejected_events: Array< { event_id: string; type: string; error: string } >;
	write_failures: { count: number; last_event: string | null; last_error: string | null };
}

const OUTBOX = '/service-integration/v1/webhooks/outbox';
const FAULTS = 'outbound-faults/outbound-faults';
const PROBE = 'outbound-hand-over-probe/outbound-hand-over-probe';

async function outbox(): Promise< OutboxState > {
	const answer = await adminClient().get< OutboxState >( OUTBOX );
	expect( answer.status ).toBe( 200 );
	return answer.body;
}

let productSeq = 0;
/** Orders (one request, WooCommerce's hooks fired) of a product with this SKU prefix. */
async function ordersWithSku( prefix: string, count = 1 ): Promise< number[] > {
	const shop = commerce();
	const [ product ] = await shop.createProducts( [
		{ name: 'Beech stool', sku: `${ prefix }-${ Date.now() }-${ ++productSeq }`, price: '35.00' },
	] );
	const items = [ { product_id: ( product as { id: number } ).id, quantity: 1 } ];
	return shop.createOrders(
		Array.from( { length: count }, () => ( { status: 'pending' as const, line_items: items } ) )
	);
}

/**
 * Starts the sidecar (each instance asks WordPress for its outbox: sidecar.ready) while the
 * probe holds the hand-over lock, and releases it once WordPress has taken every instance's
 * request: the hand-over each asked for, which runs right after its answer, found the lock taken.
 */
async function startSidecarWithHandOverLockHeld(): Promise< void > {
	const readyNotices = async () =>
		( await adminClient().get< { count: number } >( '/outbound-probe/v1/ready-notices' ) ).body.count;
	const before = await readyNotices();
	expect( ( await adminClient().post< { held: boolean } >( '/outbound-probe/v1/lock' ) ).body ).toEqual( {
		held: true,
	} );
	try {
		await startSidecar();
		const instances = readState().sidecarPeerPid ? 2 : 1;
		await waitUntil(
			async () => ( await readyNotices() ) >= before + instances,
			20_000,
			'every instance’s sidecar.ready request taken',
			250
		);
	} finally {
		await adminClient().request( { method: 'DELETE', path: '/outbound-probe/v1/lock' } );
	}
}

/** Hand_Over::CRON_HOOK: the every-minute hand-over, which also prunes handed-over rows. */
const HAND_OVER_HOOK = 'service_integration_outbox_flush';

describe( 'outbox hand-over', () => {
	let receiver: Receiver;
	let endpointId: string;
	const deliveredFor = ( orderId: number ) =>
		receiver.requests.filter( ( r ) => r.body.includes( `"id":${ orderId },` ) );

	beforeAll( async () => {
		receiver = await startReceiver();
		const created = await adminClient().post< { id: string } >( '/service-integration/v1/webhooks/endpoints', {
			url: `${ receiver.url }/hand-over`,
			event_types: [ 'order.created' ],
		} );
		expect( created.status ).toBe( 201 );
		endpointId = created.body.id;
	} );

	afterAll( async () => {
		await adminClient().request( {
			method: 'DELETE',
			path: `/service-integration/v1/webhooks/endpoints/${ endpointId }`,
		} );
		await receiver.close();
	} );

	it( 'parks an event the sidecar refuses (a payload filter broke it) and still delivers the orders around it', async () => {
		await withPluginActive( FAULTS, async () => {
			const before = await outbox();
			// One batch with the bad event between two good ones.
			await stopSidecar();
			const orders: number[] = [];
			try {
				orders.push(
					...( await ordersWithSku( 'OAK' ) ),
					...( await ordersWithSku( 'INVALID-PAYLOAD' ) ),
					...( await ordersWithSku( 'OAK' ) )
				);
			} finally {
				await startSidecar();
			}
			const flushed = await adminClient().post< OutboxState >( OUTBOX );
			expect( flushed.status ).toBe( 200 );
			expect( flushed.body ).toMatchObject( { error: null, pending: 0, rejected: before.rejected + 1 } );
			expect( flushed.body.rejected_events[ 0 ] ).toMatchObject( {
				type: 'order.created',
				error: expect.stringMatching( /^invalid_body: .*timestamp/ ),
			} );
			const [ good1, bad, good2 ] = orders as [ number, number, number ];
			await receiver.waitFor(
				() => deliveredFor( good1 ).length === 1 && deliveredFor( good2 ).length === 1,
				30_000
			);

			// Alone in its batch (the sidecar refuses the whole request): parked too, and the next order goes through.
			const [ bad2 ] = ( await ordersWithSku( 'INVALID-PAYLOAD' ) ) as [ number ];
			const [ good3 ] = ( await ordersWithSku( 'OAK' ) ) as [ number ];
			await receiver.waitFor( () => deliveredFor( good3 ).length === 1, 30_000 );
			// The receiver can hear of good3 before the end-of-request hand-over has marked its row.
			await waitUntil( async () => ( await outbox() ).pending === 0, 10_000, 'the outbox empty', 250 );
			expect( await outbox() ).toMatchObject( { pending: 0, rejected: before.rejected + 2 } );
			// Parked rows are never sent again: another hand-over leaves them where they are.
			expect( ( await adminClient().post< OutboxState >( OUTBOX ) ).body ).toMatchObject( {
				error: null,
				pending: 0,
				rejected: before.rejected + 2,
			} );
			expect( deliveredFor( bad ) ).toEqual( [] );
			expect( deliveredFor( bad2 ) ).toEqual( [] );
		} );
	} );

	it( 'parks an event over the byte cap or that the sidecar refuses as too large (413), and sends a too-large batch again one event at a time', async () => {
		// The fixture raises the byte cap to 2 MiB, over the sidecar's 1 MiB body limit.
		await withPluginActive( FAULTS, async () => {
			const before = await outbox();
			await stopSidecar();
			const orders: number[] = [];
			try {
				orders.push(
					// Together one 1.2 MiB batch: the sidecar answers 413, so each goes alone.
					...( await ordersWithSku( 'PAD-400K', 3 ) ),
					// 1.2 MiB alone: under the cap, refused by the sidecar (413), parked.
					...( await ordersWithSku( 'PAD-1200K' ) ),
					// 2.2 MiB: over the cap, parked before anything is sent.
					...( await ordersWithSku( 'PAD-2200K' ) ),
					...( await ordersWithSku( 'OAK' ) )
				);
			} finally {
				// Its sidecar.ready asks WordPress to hand over what it holds.
				await startSidecar();
			}
			await waitUntil( async () => ( await outbox() ).pending === 0, 30_000, 'the outbox empty', 250 );
			const [ padded1, padded2, padded3, refused, overCap, plain ] = orders as [
				number,
				number,
				number,
				number,
				number,
				number,
			];
			await receiver.waitFor(
				() => [ padded1, padded2, padded3, plain ].every( ( order ) => deliveredFor( order ).length === 1 ),
				30_000
			);
			for ( const order of [ padded1, padded2, padded3 ] ) {
				const delivered = JSON.parse( deliveredFor( order )[ 0 ]!.body ) as { data: { padding: string } };
				expect( delivered.data.padding ).toHaveLength( 400 * 1024 );
			}
			const state = await outbox();
			expect( state.rejected ).toBe( before.rejected + 2 );
			const errors = state.rejected_events.slice( 0, 2 ).map( ( event ) => event.error );
			expect( errors ).toEqual(
				expect.arrayContaining( [
					expect.stringMatching( /^payload_too_large: \d+ bytes, over the 2097152-byte hand-over limit$/ ),
					expect.stringMatching( /^body_too_large: / ),
				] )
			);
			expect( deliveredFor( refused ) ).toEqual( [] );
			expect( deliveredFor( overCap ) ).toEqual( [] );
		} );
	} );

	it( 'counts and logs an event the outbox failed to store, without breaking the order', async () => {
		await withPluginActive( FAULTS, async () => {
			const before = ( await outbox() ).write_failures.count;
			const [ order ] = await ordersWithSku( 'OUTBOX-WRITE-FAIL' );
			expect( order ).toEqual( expect.any( Number ) ); // the order itself was created
			const failures = ( await outbox() ).write_failures;
			expect( failures.count ).toBe( before + 1 );
			expect( failures.last_event ).toMatch( /^evt_/ );
			expect( failures.last_error ).toMatch( /si_outbox_missing/ );
		} );
	} );

	it( 'hands over at most one batch at the end of a request, and nothing while another request holds the lock', async () => {
		// Start empty, with no pause left over from a failure.
		expect( ( await adminClient().post< OutboxState >( OUTBOX ) ).body ).toMatchObject( {
			error: null,
			pending: 0,
		} );
		await withPluginActive( PROBE, async () => {
			const locked = await adminClient().post< { held: boolean } >( '/outbound-probe/v1/lock' );
			expect( locked.body ).toEqual( { held: true } );
			let orders: number[] = [];
			try {
				orders = await ordersWithSku( 'BATCH', 101 );
				expect( ( await outbox() ).pending ).toBe( 101 ); // its end-of-request hand-over found the lock taken
				const busy = await adminClient().post< OutboxState >( OUTBOX );
				expect( busy.status ).toBe( 409 );
				expect( busy.body ).toMatchObject( { error: 'hand_over_in_progress', pending: 101 } );
			} finally {
				expect(
					(
						await adminClient().request< { released: boolean } >( {
							method: 'DELETE',
							path: '/outbound-probe/v1/lock',
						} )
					).body
				).toEqual( { released: true } );
			}
			const [ last ] = await ordersWithSku( 'BATCH' );
			// Under PHP-FPM the hand-over runs after fastcgi_finish_request(), so it may still be
			// under way when the order's response arrives: wait for it, then check it stopped there.
			let pending = -1;
			await waitUntil(
				async () => ( pending = ( await outbox() ).pending ) <= 2,
				30_000,
				() => `one batch handed over after the lock was released (pending: ${ pending })`,
				250
			);
			await receiver.waitFor(
				() => orders.slice( 0, 100 ).every( ( id ) => deliveredFor( id ).length === 1 ),
				60_000
			);
			expect( ( await outbox() ).pending ).toBe( 2 ); // one batch of 100, oldest first: the last order waits
			expect( deliveredFor( last as number ) ).toEqual( [] );
			expect( ( await adminClient().post< OutboxState >( OUTBOX ) ).body ).toMatchObject( {
				error: null,
				pending: 0,
			} );
			await receiver.waitFor(
				() => [ ...orders, last as number ].every( ( id ) => deliveredFor( id ).length === 1 ),
				60_000
			);
		} );
	} );

	it( 'hands over what waited while the sidecar was down as soon as it is back, with no cron run and no visitor', async () => {
		// The probe keeps WP-Cron from running any job: only the sidecar's sidecar.ready request,
		// as it starts, can make WordPress hand these over; reading the outbox hands nothing over.
		await withPluginActive( PROBE, async () => {
			const { pending } = await outbox();
			await stopSidecar();
			let orders: number[] = [];
			try {
				orders = [ ...( await ordersWithSku( 'READY' ) ), ...( await ordersWithSku( 'READY' ) ) ];
				expect( ( await outbox() ).pending ).toBe( pending + 2 );
			} finally {
				await startSidecar();
			}
			await receiver.waitFor( () => orders.every( ( id ) => deliveredFor( id ).length === 1 ), 20_000 );
			await waitUntil( async () => ( await outbox() ).pending === pending, 10_000, 'the outbox as before', 250 );
		} );
	} );

	it( 'WP-Cron hands over what waited while the sidecar was down, with nobody asking, then prunes handed-over rows', async () => {
		await withPluginActive( FAULTS, async () => {
			const { rejected, pending } = await outbox();
			await stopSidecar();
			let orders: number[] = [];
			// The hand-over lock is held while the sidecar comes back, so that the hand-over its
			// sidecar.ready request asks for finds it taken: cron alone is left to hand these over.
			await withPluginActive( PROBE, async () => {
				try {
					orders = [ ...( await ordersWithSku( 'CRON' ) ), ...( await ordersWithSku( 'CRON' ) ) ];
					expect( ( await outbox() ).pending ).toBe( pending + 2 );
				} finally {
					await startSidecarWithHandOverLockHeld();
				}
			} );
			expect( ( await outbox() ).pending ).toBe( pending + 2 );
			// Only cron from here: no POST /webhooks/outbox. The every-minute event may be up to a
			// minute away; past support/cron.ts's wait for wp-cron.php alone, WP-CLI runs it now.
			await cronUntil(
				async () => orders.every( ( id ) => deliveredFor( id ).length === 1 ),
				'the cron hand-over',
				{ catchUpHooks: [ HAND_OVER_HOOK ] }
			);
			// Retention 0 days (the fixture's filter): the next cron runs delete every handed-over row.
			await cronUntil(
				async () => {
					const state = await outbox();
					return state.pending === 0 && state.handed_over === 0;
				},
				'the cron prune',
				{ catchUpHooks: [ HAND_OVER_HOOK ] }
			);
			expect( ( await outbox() ).rejected ).toBe( rejected ); // parked rows are kept
		} );
	} );

	// It replaces the outbox table, dropping the rows it held: the other tests count from what they
	// find there, and the upgraded table is the one the plugin makes, so they may run after it.
	it( 'upgrades an outbox table from version 1 and hands over what it held', async () => {
		await withPluginActive( PROBE, async () => {
			const eventId = `evt_upgraded_${ Date.now() }`;
			const reset = await adminClient().post< { columns: string[] } >( '/outbound-probe/v1/outbox-v1', {
				event_id: eventId,
			} );
			expect( reset.status ).toBe( 200 );
			expect( reset.body.columns ).not.toContain( 'rejected_at' );

			// Any request upgrades it (init): the new column and index, the row kept.
			const schema = await adminClient().get< { version: string; columns: string[]; indexes: string[] } >(
				'/outbound-probe/v1/outbox-columns'
			);
			expect( schema.body.version ).toBe( '2' );
			expect( schema.body.columns ).toContain( 'rejected_at' );
			expect( schema.body.indexes ).toEqual( expect.arrayContaining( [ 'event_id', 'pending', 'queue' ] ) );
			expect( await outbox() ).toMatchObject( { pending: 1, rejected: 0 } );
			expect( ( await adminClient().post< OutboxState >( OUTBOX ) ).body ).toMatchObject( {
				error: null,
				pending: 0,
				handed_over: 1,
			} );
			await receiver.waitFor(
				( requests ) => requests.some( ( r ) => r.headers[ 'webhook-id' ] === eventId ),
				30_000
			);
		} );
	} );
} );
