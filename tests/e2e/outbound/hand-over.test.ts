import { startReceiver, type Receiver } from '../../sidecar/support/receiver';
import { adminClient } from '../support/clients';
import { commerce } from '../support/commerce';
import { withPluginActive } from '../support/plugins';
import { startSidecar, stopSidecar } from '../support/sidecar-control';

/**
 * The outbox hand-over from WordPress to the sidecar: refused events are parked instead of
 * blocking the rest, and an event the outbox could not store is counted.
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

async function outbox(): Promise< OutboxState > {
	const answer = await adminClient().get< OutboxState >( OUTBOX );
	expect( answer.status ).toBe( 200 );
	return answer.body;
}

let productSeq = 0;
/** Orders (one request, WooCommerce's hooks fired) of a product with this SKU prefix. */
async function ordersWithSku( prefix: string, count = 1 ): Promise< number[] > {
	const shop = commerce();
	const [ product ] = await shop.createProducts( [ { name: 'Beech stool', sku: `${ prefix }-${ Date.now() }-${ ++productSeq }`, price: '35.00' } ] );
	const items = [ { product_id: ( product as { id: number } ).id, quantity: 1 } ];
	return shop.createOrders( Array.from( { length: count }, () => ( { status: 'pending' as const, line_items: items } ) ) );
}

describe( 'outbox hand-over', () => {
	let receiver: Receiver;
	let endpointId: string;
	const deliveredFor = ( orderId: number ) => receiver.requests.filter( ( r ) => r.body.includes( `"id":${ orderId },` ) );

	beforeAll( async () => {
		receiver = await startReceiver();
		const created = await adminClient().post< { id: string } >( '/service-integration/v1/webhooks/endpoints', { url: `${ receiver.url }/hand-over`, event_types: [ 'order.created' ] } );
		expect( created.status ).toBe( 201 );
		endpointId = created.body.id;
	} );

	afterAll( async () => {
		await adminClient().request( { method: 'DELETE', path: `/service-integration/v1/webhooks/endpoints/${ endpointId }` } );
		await receiver.close();
	} );

	it( 'parks an event the sidecar refuses (a payload filter broke it) and still delivers the orders around it', async () => {
		await withPluginActive( FAULTS, async () => {
			const before = await outbox();
			// One batch with the bad event between two good ones.
			await stopSidecar();
			const orders: number[] = [];
			try {
				orders.push( ...( await ordersWithSku( 'OAK' ) ), ...( await ordersWithSku( 'INVALID-PAYLOAD' ) ), ...( await ordersWithSku( 'OAK' ) ) );
			} finally {
				await startSidecar();
			}
			const flushed = await adminClient().post< OutboxState >( OUTBOX );
			expect( flushed.status ).toBe( 200 );
			expect( flushed.body ).toMatchObject( { error: null, pending: 0, rejected: before.rejected + 1 } );
			expect( flushed.body.rejected_events[ 0 ] ).toMatchObject( { type: 'order.created', error: expect.stringMatching( /^invalid_body: .*timestamp/ ) } );
			const [ good1, bad, good2 ] = orders as [ number, number, number ];
			await receiver.waitFor( () => deliveredFor( good1 ).length === 1 && deliveredFor( good2 ).length === 1, 30_000 );

			// Alone in its batch (the sidecar refuses the whole request): parked too, and the next order goes through.
			const [ bad2 ] = ( await ordersWithSku( 'INVALID-PAYLOAD' ) ) as [ number ];
			const [ good3 ] = ( await ordersWithSku( 'OAK' ) ) as [ number ];
			await receiver.waitFor( () => deliveredFor( good3 ).length === 1, 30_000 );
			const after = await outbox();
			expect( after ).toMatchObject( { pending: 0, rejected: before.rejected + 2 } );
			// Parked rows are never sent again: another hand-over leaves them where they are.
			expect( ( await adminClient().post< OutboxState >( OUTBOX ) ).body ).toMatchObject( { error: null, pending: 0, rejected: before.rejected + 2 } );
			expect( deliveredFor( bad ) ).toEqual( [] );
			expect( deliveredFor( bad2 ) ).toEqual( [] );
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
} );
