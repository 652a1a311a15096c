import { deliveryListQuery } from '../../sidecar/src/store/sqlite/deliveries-store';
import { orderEvent } from './support/api-client';
import { startHarness } from './support/harness';
import { ManualClock } from './support/manual-clock';
import { startReceiver } from './support/receiver';
import { waitUntil } from '../support/wait-until';

describe( 'retention', () => {
	it( 'prunes finished deliveries, their attempts and their events past SIDECAR_RETENTION_DAYS, never pending work', async () => {
		const ok = await startReceiver();
		const down = await startReceiver( ( _req, res ) => void res.writeHead( 500 ).end() );
		// Retention 0.00001 days = 0.9 s, on a clock the test moves. Maintenance runs once when the
		// clock first moves and then not for an hour: the test runs the next round itself, so how
		// fast this machine delivers cannot change what is pruned. The failing endpoint's next
		// retry is an hour away, so its delivery stays pending.
		const clock = new ManualClock();
		const sidecar = await startHarness(
			{
				SIDECAR_RETENTION_DAYS: '0.00001',
				SIDECAR_MAINTENANCE_INTERVAL_SECONDS: '3600',
				SIDECAR_RETRY_SCHEDULE: '0,3600',
			},
			{ clock }
		);
		const count = ( sql: string ) => ( sidecar.stores.db.prepare( sql ).get() as { n: number } ).n;
		try {
			await sidecar.api( 'POST', '/v1/endpoints', { url: ok.url, event_types: [ 'order.paid' ] } );
			await sidecar.api( 'POST', '/v1/endpoints', { url: down.url, event_types: [ 'order.refunded' ] } );
			const paid = Array.from( { length: 30 }, ( _x, i ) => orderEvent( `old_paid_${ i }`, 'order.paid', i ) );
			await sidecar.api( 'POST', '/v1/events', {
				events: [ ...paid, orderEvent( 'old_refund', 'order.refunded', 99 ) ],
			} );
			await ok.waitFor( ( r ) => r.length === 30 );
			await down.waitFor( ( r ) => r.length === 1 );
			await waitUntil(
				() => count( "SELECT COUNT(*) AS n FROM deliveries WHERE status = 'succeeded'" ) === 30,
				15_000,
				'every success recorded'
			);
			expect( count( 'SELECT COUNT(*) AS n FROM attempts' ) ).toBe( 31 );

			// Let every row age past the retention, then run one maintenance round.
			await clock.advance( 1500 );
			await sidecar.outbound.maintenance.tick();

			expect( ( await sidecar.api( 'GET', '/v1/events/old_paid_0' ) ).status ).toBe( 404 );
			expect( count( 'SELECT COUNT(*) AS n FROM events' ) ).toBe( 1 );
			expect( count( "SELECT COUNT(*) AS n FROM deliveries WHERE status = 'succeeded'" ) ).toBe( 0 );
			expect( count( 'SELECT COUNT(*) AS n FROM attempts' ) ).toBe( 1 ); // the pending delivery's attempt
			const pending = await sidecar.api( 'GET', '/v1/events/old_refund' );
			expect( pending.status ).toBe( 200 );
			expect( pending.body.deliveries ).toEqual( [
				expect.objectContaining( { status: 'pending', attempt_count: 1 } ),
			] );
			expect( sidecar.logText() ).toMatch( /"msg":"pruned outbound history past retention"/ );
		} finally {
			await sidecar.close();
			await ok.close();
			await down.close();
		}
	} );

	it( 'refuses a retention or maintenance period out of range, under its own name', async () => {
		await expect( startHarness( { SIDECAR_RETENTION_DAYS: '0' } ) ).rejects.toThrow( /SIDECAR_RETENTION_DAYS/ );
		await expect( startHarness( { SIDECAR_MAINTENANCE_INTERVAL_SECONDS: 'soon' } ) ).rejects.toThrow(
			/SIDECAR_MAINTENANCE_INTERVAL_SECONDS/
		);
	} );
} );

describe( 'delivery list indexes', () => {
	// [label, filter, index the count uses, index the newest-first page uses]
	it.each( [
		[
			'a status filter',
			{ status: 'failed' as const },
			/USING (COVERING )?INDEX deliveries_by_status_/,
			/USING INDEX deliveries_by_status_id/,
		],
		[
			'an endpoint and a status',
			{ endpointId: 'ep_x', status: 'failed' as const },
			/deliveries_by_endpoint_status/,
			/deliveries_by_endpoint_status/,
		],
		[ 'an event type', { type: 'order.paid' as const }, /events_by_type/, /events_by_type/ ],
	] )(
		'reads %s through an index, without a full scan of deliveries',
		async ( _label, filter, countIndex, pageIndex ) => {
			const sidecar = await startHarness();
			try {
				const query = deliveryListQuery( filter );
				const plan = ( sql: string ) =>
					(
						sidecar.stores.db
							.prepare( `EXPLAIN QUERY PLAN ${ sql }` )
							.all( { ...query.params, limit: 20, offset: 0 } ) as { detail: string }[]
					 )
						.map( ( row ) => row.detail )
						.join( '\n' );
				expect( plan( query.count ) ).toMatch( countIndex );
				expect( plan( query.page ) ).toMatch( pageIndex );
				for ( const sql of [ query.count, query.page ] ) {
					expect( plan( sql ) ).not.toMatch( /SCAN d\b/ );
				}
			} finally {
				await sidecar.close();
			}
		}
	);
} );
