import mysql from 'mysql2/promise';
import { createLogger } from '../../sidecar/src/logger';
import { storeTrouble } from '../../sidecar/src/http/store-unavailable';
import { Maintenance } from '../../sidecar/src/outbound/maintenance';
import { ENDPOINT_BACKLOG_INLINE_ROWS } from '../../sidecar/src/store/endpoint-backlog';
import type { QueueStore } from '../../sidecar/src/store/queue-store';
import { seedQueue } from '../support/seed-queue';
import { orderEvent } from './support/api-client';
import { startHarness } from './support/harness';
import { startSharedInstance } from './support/shared-instance';
import { STORE_KINDS, useBackend, createTestEndpoint, type Backend } from './support/stores-under-test';

/** Large enough that every bounded step has to repeat; small enough to seed in about a second. */
const QUEUED = 20_000;
const NOW = 1_000_000;

const silent = createLogger( 'silent' );

function event( id: string ) {
	return { id, type: 'order.paid' as const, timestamp: '2026-11-24T10:00:00Z', orderingKey: null, data: { id } };
}

async function countDeliveries( backend: Backend, endpointId: string, status?: string ): Promise< number > {
	const rows = await backend.sql< { n: number | string } >(
		`SELECT COUNT(*) AS n FROM deliveries WHERE endpoint_id = ?${ status === undefined ? '' : ' AND status = ?' }`,
		status === undefined ? [ endpointId ] : [ endpointId, status ]
	);
	return Number( rows[ 0 ]?.n );
}

/** An endpoint with QUEUED pending deliveries, due now. */
async function endpointWithQueue( backend: Backend, store: QueueStore, prefix: string ) {
	const endpoint = await createTestEndpoint( store, [], NOW );
	await seedQueue( {
		kind: store.kind,
		sql: ( query, params ) => backend.sql( query, params ),
		endpointId: endpoint.id,
		count: QUEUED,
		prefix,
		now: NOW,
		dueAt: NOW,
	} );
	return endpoint;
}

/**
 * A queue of many deliveries on one endpoint, on both stores: disabling and deleting it do a
 * bounded amount of work at once and leave the rest to maintenance in bounded batches
 * (EndpointBacklog); retention deletes in bounded batches and never touches the queue.
 */
describe.each( STORE_KINDS )( 'a large queue on %s', ( kind ) => {
	const backend = useBackend( kind );

	it( 'disables an endpoint at once and cancels the rest of its queue in batches, stopping at an enable', async () => {
		const store = await backend.open();
		const endpoint = await endpointWithQueue( backend, store, 'dis-' );

		expect( await store.disableEndpoint( endpoint.id, 'disabled by an administrator', 'owner', NOW ) ).toBe( true );
		expect( ( await store.getEndpoint( endpoint.id, NOW ) )?.status ).toBe( 'disabled' );
		expect( await countDeliveries( backend, endpoint.id, 'cancelled' ) ).toBe( ENDPOINT_BACKLOG_INLINE_ROWS );

		expect( await store.endpointBacklog.cancelDisabled( 1000, NOW ) ).toBe( 1000 );
		expect( await countDeliveries( backend, endpoint.id, 'pending' ) ).toBe(
			QUEUED - ENDPOINT_BACKLOG_INLINE_ROWS - 1000
		);

		// Enabled in between: what is still pending is its queue again, not the backlog's.
		await store.enableEndpoint( endpoint.id, NOW, false );
		expect( await store.endpointBacklog.cancelDisabled( 1000, NOW ) ).toBe( 0 );
		expect( await countDeliveries( backend, endpoint.id, 'pending' ) ).toBe(
			QUEUED - ENDPOINT_BACKLOG_INLINE_ROWS - 1000
		);

		// Disabled again, by the health sweep's path this time: the notice, and the rest in batches.
		await store.failureStreaks.markFailing( endpoint.id, NOW );
		expect( await store.failureStreaks.disableWithNotice( endpoint.id, NOW, () => 'failing for too long' ) ).toBe(
			true
		);
		let batches = 0;
		for ( let cancelled = -1; cancelled !== 0; batches++ ) {
			cancelled = await store.endpointBacklog.cancelDisabled( 5000, NOW );
			expect( cancelled ).toBeLessThanOrEqual( 5000 );
		}
		expect( batches ).toBeGreaterThan( 2 );
		expect( await countDeliveries( backend, endpoint.id, 'pending' ) ).toBe( 0 );
		expect( await countDeliveries( backend, endpoint.id, 'cancelled' ) ).toBe( QUEUED );
		expect( ( await store.notices.due( NOW, 10 ) ).map( ( queued ) => queued.notice.type ) ).toContain(
			'endpoint.disabled'
		);
	} );

	it( 'deletes an endpoint at once (gone for every read, queued nothing), then its deliveries in batches, from any instance', async () => {
		const store = await backend.open();
		const doomed = await endpointWithQueue( backend, store, 'del-' );
		const kept = await createTestEndpoint( store, [], NOW );
		await store.insertBatch( [ event( 'kept-1' ) ], NOW, NOW );

		expect( await store.deleteEndpoint( doomed.id, NOW ) ).toEqual( { deleted: true, droppedNotices: 0 } );
		expect( await store.getEndpoint( doomed.id, NOW ) ).toBeUndefined();
		expect( ( await store.listEndpoints( NOW ) ).map( ( endpoint ) => endpoint.id ) ).toEqual( [ kept.id ] );
		expect( ( await store.queueByEndpoint() ).map( ( row ) => row.endpointId ) ).toEqual( [ kept.id ] );
		expect( await store.deleteEndpoint( doomed.id, NOW ) ).toEqual( { deleted: false, droppedNotices: 0 } );
		expect( await store.updateEndpoint( doomed.id, { description: 'back?' }, NOW ) ).toBeUndefined();
		expect( ( await store.enableEndpoint( doomed.id, NOW ) ).enabled ).toBe( false );
		expect( ( await store.insertBatch( [ event( 'after-delete' ) ], NOW, NOW ) ).endpointIds ).toEqual( [
			kept.id,
		] );
		// Its queue and the delivery of kept-1, less what the delete removed at once.
		expect( await countDeliveries( backend, doomed.id ) ).toBe( QUEUED + 1 - ENDPOINT_BACKLOG_INLINE_ROWS );

		// Another instance (or this one after a restart) finishes the job: the mark is in the database.
		const other = await backend.open();
		let removed = 0;
		for ( let round = 0; round < 100; round++ ) {
			const purged = await other.endpointBacklog.purgeDeleted( 5000 );
			expect( purged.deliveries ).toBeLessThanOrEqual( 5000 );
			if ( purged.endpoints > 0 ) {
				removed = purged.endpoints;
				break;
			}
		}
		expect( removed ).toBe( 1 );
		expect( await countDeliveries( backend, doomed.id ) ).toBe( 0 );
		expect( await backend.sql( 'SELECT id FROM endpoints WHERE id = ?', [ doomed.id ] ) ).toEqual( [] );
		expect( await countDeliveries( backend, kept.id ) ).toBe( 2 );
		expect( await other.endpointBacklog.purgeDeleted( 5000 ) ).toEqual( { deliveries: 0, endpoints: 0 } );
	} );

	it( "settles a deleted endpoint's queue in maintenance ticks, a bounded batch per transaction", async () => {
		const store = await backend.open();
		const doomed = await endpointWithQueue( backend, store, 'tick-' );
		await store.deleteEndpoint( doomed.id, NOW );
		const maintenance = new Maintenance( {
			store,
			log: silent,
			intervalMs: 60_000,
			retentionMs: 30 * 86_400_000,
			disableAfterMs: 86_400_000,
			kickNotices: () => undefined,
			pruneBatch: 2000,
		} );
		expect( await maintenance.tick() ).toBe( true );
		expect( await countDeliveries( backend, doomed.id ) ).toBe( 0 );
		expect( await backend.sql( 'SELECT id FROM endpoints WHERE id = ?', [ doomed.id ] ) ).toEqual( [] );
	} );

	it( 'prunes finished deliveries in bounded batches and never a queued one', async () => {
		const store = await backend.open();
		const endpoint = await endpointWithQueue( backend, store, 'prune-' );
		// The first 300 finished before NOW + 1, the retention's limit here; the rest is the queue.
		await backend.sql(
			`UPDATE deliveries SET status = 'succeeded', next_attempt_at = NULL, updated_at = 1 WHERE endpoint_id = ? AND event_id IN (${ Array.from(
				{ length: 300 },
				() => '?'
			).join( ', ' ) })`,
			[ endpoint.id, ...Array.from( { length: 300 }, ( _, index ) => `prune-${ index + 1 }` ) ]
		);
		expect( await store.prune( NOW + 1, 100 ) ).toEqual( { deliveries: 100, events: 100 } );
		expect( await store.prune( NOW + 1, 500 ) ).toEqual( { deliveries: 200, events: 200 } );
		expect( await store.prune( NOW + 1, 500 ) ).toEqual( { deliveries: 0, events: 0 } );
		expect( await countDeliveries( backend, endpoint.id, 'pending' ) ).toBe( QUEUED - 300 );
	} );

	if ( kind === 'mysql' ) {
		it( 'has the server stop a statement at the deadline (a lock wait here), releasing its locks: 503 store_busy, not unreachable', async () => {
			const store = await backend.open();
			const endpoint = await createTestEndpoint( store, [], NOW );
			const locker = await mysql.createConnection( backend.url as string );
			try {
				await locker.beginTransaction();
				await locker.query( 'SELECT id FROM endpoints WHERE id = ? FOR UPDATE', [ endpoint.id ] );

				const error = await store
					.disableEndpoint( endpoint.id, 'disabled by an administrator', 'owner', NOW )
					.then(
						() => null,
						( failure: unknown ) => failure
					);
				expect( ( error as { errno?: number } ).errno ).toBe( 1969 ); // ER_STATEMENT_TIMEOUT
				expect( storeTrouble( error ) ).toBe( 'busy' );

				// Stopped on the server, not only abandoned by the client: it no longer waits (the user sees
				// its own threads). Abandoned, it waited up to innodb_lock_wait_timeout (50 s) for the lock.
				expect(
					await backend.sql(
						"SELECT ID FROM information_schema.PROCESSLIST WHERE INFO LIKE 'UPDATE endpoints SET status%'"
					)
				).toEqual( [] );
				await locker.rollback();
			} finally {
				await locker.end();
			}
			// The pool's connection is still good, and the endpoint's row free.
			expect( await store.disableEndpoint( endpoint.id, 'disabled by an administrator', 'owner', NOW ) ).toBe(
				true
			);
		} );

		it( 'answers a hand-over that cannot be stored 503 store_busy, and /ready says not ready (ingest) until one is stored', async () => {
			await backend.open(); // migrated
			const instance = await startSharedInstance( backend.url as string, 'ingest' );
			const locker = await mysql.createConnection( backend.url as string );
			try {
				const readyFailed = async () =>
					( ( await ( await fetch( `${ instance.url }/ready` ) ).json() ) as { failed: string[] } ).failed;
				expect( await readyFailed() ).not.toContain( 'ingest' );

				await locker.query( 'LOCK TABLES events WRITE' );
				const refused = await instance.api( 'POST', '/v1/events', {
					events: [ orderEvent( 'locked-out', 'order.paid', 1 ) ],
				} );
				expect( refused.status ).toBe( 503 );
				expect( refused.body.code ).toBe( 'store_busy' );
				expect( refused.headers.get( 'retry-after' ) ).toBe( '2' );
				const ready = await fetch( `${ instance.url }/ready` );
				const body = ( await ready.json() ) as { failed: string[]; checks: { name: string; ok: boolean }[] };
				expect( ready.status ).toBe( 503 );
				expect( body.failed ).toContain( 'ingest' );
				expect( body.checks.find( ( check ) => check.name === 'database' )?.ok ).toBe( true );

				await locker.query( 'UNLOCK TABLES' );
				expect(
					(
						await instance.api( 'POST', '/v1/events', {
							events: [ orderEvent( 'let-in', 'order.paid', 2 ) ],
						} )
					).status
				).toBe( 202 );
				expect( await readyFailed() ).not.toContain( 'ingest' );
			} finally {
				await locker.end();
				await instance.close();
			}
		} );
	}
} );

describe( '/ready on the embedded store', () => {
	it( 'says not ready (ingest) while hand-overs cannot be stored, and ready again once one is', async () => {
		const sidecar = await startHarness();
		try {
			sidecar.stores.db.exec(
				"CREATE TRIGGER refuse_events BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'disk full'); END"
			);
			const refused = await sidecar.api( 'POST', '/v1/events', {
				events: [ orderEvent( 'refused', 'order.paid', 1 ) ],
			} );
			expect( refused.status ).toBe( 500 );
			const ready = await fetch( `${ sidecar.url }/ready` );
			expect( ready.status ).toBe( 503 );
			expect( ( ( await ready.json() ) as { failed: string[] } ).failed ).toEqual( [ 'ingest' ] );

			sidecar.stores.db.exec( 'DROP TRIGGER refuse_events' );
			expect(
				( await sidecar.api( 'POST', '/v1/events', { events: [ orderEvent( 'stored', 'order.paid', 2 ) ] } ) )
					.status
			).toBe( 202 );
			expect( ( await fetch( `${ sidecar.url }/ready` ) ).status ).toBe( 200 );
		} finally {
			await sidecar.close();
		}
	} );
} );
