import { redactionMarker } from '../../sidecar/src/privacy/personal-data';
import type { NewEvent } from '../../sidecar/src/model/events';
import type { QueueStore } from '../../sidecar/src/store/queue-store';
import { STORE_KINDS, useBackend } from './support/stores-under-test';

const LEASE = { instanceId: 'instance-a', leaseMs: 60_000 };
const EMAIL = 'Grace.Hopper@Example.com';

function paidOrder( id: string, email: string, first = 'Grace', last = 'Hopper' ): NewEvent {
	return {
		id,
		type: 'order.paid',
		timestamp: '2026-11-24T10:00:00Z',
		orderingKey: `order:${ id }`,
		data: { order_id: id, billing: { first_name: first, last_name: last, email, city: 'Arlington' } },
	};
}

/** Stores the orders and sends each once: the receiver's answer (and, when failing, the error) names the customer. */
async function deliver( store: QueueStore, orders: NewEvent[], status: 'succeeded' | 'failed' ) {
	const target = await store.createEndpoint(
		{
			url: 'https://hooks.example/x',
			description: '',
			eventTypes: [],
			maxConcurrency: 4,
			wcCompatSignature: false,
			secret: 'whsec_test',
		},
		500
	);
	await store.insertBatch( orders, 1000, 1000 );
	for ( const claimed of await store.claimDue( target.id, 1100, 10, LEASE ) ) {
		const { billing } = ( JSON.parse( claimed.payload ) as { data: { billing: Record< string, string > } } ).data;
		const excerpt = `mailed ${ billing.email } (${ billing.first_name } ${ billing.last_name })`;
		await store.complete(
			{
				deliveryId: claimed.id,
				endpointId: target.id,
				status,
				attemptNumber: 1,
				cycleAttempts: 1,
				trigger: 'scheduled',
				startedAt: 1200,
				durationMs: 5,
				statusCode: status === 'succeeded' ? 200 : 422,
				errorCode: null,
				responseExcerpt: excerpt,
				nextAttemptAt: null,
				lastError: status === 'failed' ? `refused: ${ excerpt }` : null,
				now: 1200,
			},
			LEASE
		);
	}
}

/** The privacy requests of both stores (QueueStore.privacy): the same records, the same markers. */
describe.each( STORE_KINDS )( 'privacy export and erasure on the %s store', ( kind ) => {
	const backend = useBackend( kind );

	it( 'finds the events and attempts holding the email, case-insensitively, and no longer address', async () => {
		const store = await backend.open();
		await deliver(
			store,
			[
				paidOrder( 'evt_p1', EMAIL ),
				paidOrder( 'evt_p2', EMAIL.toLowerCase() ),
				paidOrder( 'evt_other', 'x' + EMAIL, 'Al', 'Other' ),
			],
			'succeeded'
		);
		const records = await store.privacy.find( 'GRACE.HOPPER@example.com' );
		expect( records.filter( ( r ) => r.kind === 'event' ) ).toEqual( [
			{
				kind: 'event',
				id: 'evt_p1',
				type: 'order.paid',
				received_at: new Date( 1000 ).toISOString(),
				fields: { name: 'Grace Hopper', email: EMAIL },
			},
			{
				kind: 'event',
				id: 'evt_p2',
				type: 'order.paid',
				received_at: new Date( 1000 ).toISOString(),
				fields: { name: 'Grace Hopper', email: EMAIL.toLowerCase() },
			},
		] );
		// Free text: the other customer's longer address contains the email, so its excerpt counts.
		expect(
			records.filter( ( r ) => r.kind === 'attempt' ).map( ( r ) => [ r.event_id, r.fields.response_excerpt ] )
		).toEqual( [
			[ 'evt_p1', `mailed ${ EMAIL } (Grace Hopper)` ],
			[ 'evt_p2', `mailed ${ EMAIL.toLowerCase() } (Grace Hopper)` ],
			[ 'evt_other', `mailed x${ EMAIL } (Al Other)` ],
		] );
		expect( await store.privacy.find( 'nobody@example.com' ) ).toEqual( [] );
	} );

	it( 'erases payloads, excerpts and last errors with markers; ids, types and other customers stay', async () => {
		const store = await backend.open();
		await deliver(
			store,
			[ paidOrder( 'evt_e1', EMAIL ), paidOrder( 'evt_keep', 'someone@example.com', 'Al', 'Other' ) ],
			'failed'
		);
		expect( await store.privacy.erase( EMAIL.toUpperCase(), 5000 ) ).toEqual( {
			redacted_events: 1,
			redacted_attempts: 1,
		} );
		const erased = await store.getEvent( 'evt_e1' );
		expect( erased ).toMatchObject( { id: 'evt_e1', orderingKey: 'order:evt_e1', redactedAt: 5000 } );
		expect( JSON.parse( erased!.payload ).data.billing ).toEqual( {
			first_name: redactionMarker( 'Grace' ),
			last_name: redactionMarker( 'Hopper' ),
			email: redactionMarker( EMAIL ),
			city: redactionMarker( 'Arlington' ),
		} );
		const [ delivery ] = await store.deliveriesOfEvent( 'evt_e1' );
		const marked = `mailed ${ redactionMarker( EMAIL ) } (${ redactionMarker( 'Grace Hopper' ) })`;
		expect( delivery?.attempts[ 0 ]?.responseExcerpt ).toBe( marked );
		expect( delivery?.lastError ).toBe( `refused: ${ marked }` );

		const kept = await store.deliveriesOfEvent( 'evt_keep' );
		expect( kept[ 0 ]?.attempts[ 0 ]?.responseExcerpt ).toBe( 'mailed someone@example.com (Al Other)' );
		expect( ( await store.getEvent( 'evt_keep' ) )?.redactedAt ).toBeNull();
		expect( await store.privacy.find( EMAIL ) ).toEqual( [] );
		expect( await store.privacy.erase( EMAIL, 6000 ) ).toEqual( { redacted_events: 0, redacted_attempts: 0 } );
		// The id stays known: the same event handed over again is a duplicate.
		expect( ( await store.insertBatch( [ paidOrder( 'evt_e1', EMAIL ) ], 7000, 7000 ) ).duplicates ).toEqual( [
			'evt_e1',
		] );
	} );
} );
