import fs from 'fs';
import path from 'path';
import Database from 'better-sqlite3';
import { Webhook } from 'standardwebhooks';
import { RestClient } from '../../scripts/lib/rest-client';
import { createApplicationPassword } from '../../scripts/lib/wp-login';
import { chooseSite } from '../../scripts/lib/site-choice';
import { productionLayout } from '../../scripts/production/layout';
import { stopSidecarProcess } from '../../scripts/production/sidecar';
import { startProduction, stopProduction, type ProductionStack } from '../../scripts/production/stack';
import { activatePlugin, adminCookie } from '../../scripts/production/wordpress';
import { MIGRATIONS } from '../../sidecar/src/store/sqlite/migrations';
import { startReceiver, type Receiver, type ReceiverHandler } from '../sidecar/support/receiver';
import { sleep, waitUntil } from '../support/wait-until';
import { INBOUND_SWEEP_MS } from '../e2e/support/inbound';
import { signStandardWebhook } from '../support/inbound-signers';
import {
	buildEarlierRelease,
	currentRelease,
	DEFAULT_UPGRADE_FROM,
	RELEASE_ENV_NAME,
	RELEASE_PORT_BASE,
} from './support/release';

/**
 * A site running an earlier commit's artifacts (its plugin zip uploaded in wp-admin, its sidecar
 * installed from its tarball, on the production runtime: nginx + PHP-FPM + MariaDB), with data
 * (an endpoint and its deliveries, outbox rows left pending while the sidecar was down, an
 * inbound source and event), is upgraded the way docs/production.md says: the new zip uploaded
 * ("Replace current with uploaded"), the new tarball installed, the sidecar restarted on the
 * same data folder. Nothing is lost, each schema migration runs once, deliveries continue.
 *
 * The data and the upgrade are the set-up (`beforeAll`), which records what the earlier site
 * showed; each test then checks one outcome on its own, so any one passes alone and in any
 * order. Only the last test writes (a new order, a new inbound event), and the others do not
 * count what it adds.
 */
const NAME = `${ RELEASE_ENV_NAME }-upgrade`;
const FROM = process.env.RELEASE_UPGRADE_FROM || DEFAULT_UPGRADE_FROM;
const PROBE_PLUGIN = 'upgrade-probe/upgrade-probe.php';
const SOURCE = 'upgrade-src';

interface ProbeState {
	dbdelta: Record< string, number >;
	options: { version: string; outbox_db: string; inbound_db: string; paid_index_db: string | false };
	paid_index: { state: { ready?: boolean; walk?: number | null } | false; ids: number[] };
	outbox: Array< { id: number; event_id: string; type: string; pending: boolean } >;
	inbound: Array< { id: number; source: string; event_id: string; type: string; status: string } >;
}

interface Endpoint {
	id: string;
	secret: string;
	status: string;
	url: string;
}

interface Delivered {
	id: string;
	type: string;
	data: { order: { id: number } };
}

/** What the site runs (scripts/lib/site-choice.ts); the upgrade places orders, so it needs a shop. */
function shop(): ReturnType< typeof chooseSite > {
	const site = chooseSite();
	if ( ! site.woocommerceDir ) {
		throw new Error(
			'The upgrade test places orders: it needs WooCommerce (WOOCOMMERCE_VERSION or WOOCOMMERCE_DIR).'
		);
	}
	return site;
}

function startOptions( releaseDir: string, fresh: boolean ) {
	return {
		name: NAME,
		wpPort: RELEASE_PORT_BASE,
		sidecarPort: RELEASE_PORT_BASE + 1,
		fpmPort: RELEASE_PORT_BASE + 2,
		dbPort: RELEASE_PORT_BASE + 3,
		fresh,
		releaseDir,
		...shop(),
		extraPlugins: { 'upgrade-probe': path.join( __dirname, 'fixtures', 'upgrade-probe' ) },
		// Receivers on loopback, and retries within seconds.
		sidecarEnv: {
			SIDECAR_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8',
			SIDECAR_RETRY_SCHEDULE: '0,1,2,3',
			SIDECAR_DELIVERY_TIMEOUT_MS: '3000',
		},
		// Cron hands pending outbox rows over and processes inbound events; every 2 s so the test need not wait a minute.
		cronSeconds: 2,
		phpWorkers: 4,
	};
}

function ok< T >( result: { status: number; body: T }, what: string, expected = [ 200, 201, 202 ] ): T {
	if ( ! expected.includes( result.status ) ) {
		throw new Error( `${ what }: HTTP ${ result.status } ${ JSON.stringify( result.body ) }` );
	}
	return result.body;
}

/** A paid order placed through WooCommerce's REST API, as the shop's administrator places one. */
async function newPaidOrder( admin: RestClient, label: string ): Promise< number > {
	const product = ok(
		await admin.post< { id: number } >( '/wc/v3/products', {
			name: `Upgrade ${ label }`,
			sku: `UPG-${ label }-${ Date.now() }`,
			regular_price: '30.00',
		} ),
		'Creating a product'
	);
	const order = ok(
		await admin.post< { id: number } >( '/wc/v3/orders', {
			status: 'pending',
			line_items: [ { product_id: product.id, quantity: 1 } ],
		} ),
		'Creating an order'
	);
	ok(
		await admin.request( { method: 'PUT', path: `/wc/v3/orders/${ order.id }`, data: { set_paid: true } } ),
		'Paying'
	);
	return order.id;
}

function sidecarSchemaVersion(): number {
	const db = new Database( path.join( productionLayout( NAME ).sidecar.dataDir, 'sidecar.db' ), {
		readonly: true,
		fileMustExist: true,
	} );
	try {
		return db.pragma( 'user_version', { simple: true } ) as number;
	} finally {
		db.close();
	}
}

async function health( stack: ProductionStack ): Promise< { version: string; pid: number } > {
	return ( await fetch( `${ stack.sidecarUrl }/health` ) ).json() as Promise< { version: string; pid: number } >;
}

describe( `upgrade from ${ FROM }'s artifacts to this tree's, on the production runtime`, () => {
	const current = currentRelease();
	let earlier: Awaited< ReturnType< typeof buildEarlierRelease > >;
	let receiver: Receiver;
	let before: ProductionStack;
	let after: ProductionStack;
	let admin: RestClient;
	let endpoint: Endpoint;
	let sourceSecret: string;
	const orders: Record< 'delivered' | 'pending' | 'afterUpgrade', number > = {
		delivered: 0,
		pending: 0,
		afterUpgrade: 0,
	};
	/** The earlier site just before the upgrade, with its sidecar down and two outbox rows pending. */
	let snapshot: { probe: ProbeState; sidecarSchema: number; sidecarVersion: string };

	const probe = async (): Promise< ProbeState > =>
		ok( await admin.get< ProbeState >( '/si-upgrade-probe/v1/state' ), 'Reading the probe' );
	// Each delivery is verified as it arrives, as a receiver does: the library refuses a timestamp
	// over five minutes old, which the first deliveries are by the end of a slow run.
	const arrivals: Delivered[] = [];
	const refusedArrivals: string[] = [];
	const verifyOnArrival: ReceiverHandler = ( request, res ) => {
		try {
			arrivals.push( {
				id: request.headers[ 'webhook-id' ] as string,
				...( new Webhook( endpoint.secret ).verify( request.body, request.headers ) as Omit<
					Delivered,
					'id'
				> ),
			} );
			res.writeHead( 200 ).end( 'ok' );
		} catch ( error ) {
			refusedArrivals.push( `${ request.headers[ 'webhook-id' ] }: ${ ( error as Error ).message }` );
			res.writeHead( 400 ).end( 'invalid signature' );
		}
	};
	const delivered = ( orderId: number ): Delivered[] =>
		arrivals.filter( ( event ) => event.data.order.id === orderId );
	const sendInbound = async ( eventId: string, type: string ) => {
		const body = JSON.stringify( { type, timestamp: new Date().toISOString(), data: { eventId } } );
		const signed = signStandardWebhook( sourceSecret, eventId, body );
		return fetch( `${ before.siteUrl }/wp-json/service-integration-inbound/v1/${ SOURCE }`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...signed.headers },
			body,
		} );
	};

	beforeAll( async () => {
		earlier = await buildEarlierRelease( FROM );
		receiver = await startReceiver( verifyOnArrival );
		before = await startProduction( startOptions( earlier.dir, true ) );
		const cookie = await adminCookie( before.siteUrl );
		await activatePlugin( before.siteUrl, cookie, PROBE_PLUGIN );
		admin = new RestClient( before.siteUrl, {
			username: 'admin',
			password: await createApplicationPassword( before.siteUrl, cookie, 'release-upgrade' ),
		} );

		// Data on the earlier release: an endpoint with the first order's deliveries.
		const sidecarVersion = ( await health( before ) ).version;
		endpoint = ok(
			await admin.post< Endpoint >( '/service-integration/v1/webhooks/endpoints', {
				url: `${ receiver.url }/hooks`,
			} ),
			'Creating an endpoint'
		);
		orders.delivered = await newPaidOrder( admin, 'delivered' );
		await waitUntil(
			() => delivered( orders.delivered ).length >= 2,
			60_000,
			"the first order's events at the receiver"
		);

		// An inbound source and one event, processed.
		const source = ok(
			await admin.post< { secret: string } >( '/service-integration/v1/inbound/sources', {
				id: SOURCE,
				scheme: 'standard-webhooks',
			} ),
			'Creating a source'
		);
		sourceSecret = source.secret;
		const received = await sendInbound( 'evt_upgrade_before', 'test.before' );
		if ( received.status !== 202 ) {
			throw new Error( `The earlier release refused the inbound event: HTTP ${ received.status }` );
		}
		// Usually the receiving route's kick runs it within seconds. A kick can be lost: a wp-cron.php
		// run that started earlier writes back its own copy of the cron option (WordPress core's
		// cron race, likelier with this test's 2 s loop on a busy machine); the plugin's five-minute
		// sweep then processes the event, so the wait covers one sweep.
		await waitUntil(
			async () =>
				( await probe() ).inbound.some(
					( row ) => row.event_id === 'evt_upgrade_before' && row.status === 'processed'
				),
			INBOUND_SWEEP_MS + 60_000,
			'the inbound event processed by cron'
		);

		// The sidecar goes down: the next order's events wait in the plugin's outbox.
		await stopSidecarProcess( productionLayout( NAME ) );
		orders.pending = await newPaidOrder( admin, 'pending' );
		snapshot = { probe: await probe(), sidecarSchema: sidecarSchemaVersion(), sidecarVersion };

		// The upgrade.
		after = await startProduction( startOptions( current.dir, false ) );
	}, 4_200_000 );

	afterAll( async () => {
		await stopProduction( NAME );
		await receiver?.close();
	}, 120_000 );

	it( `the site runs ${ FROM }'s release with data: an endpoint with deliveries, outbox rows pending, an inbound event`, () => {
		expect( before.release.version ).toBe( earlier.version );
		expect( before.plugin ).toBe( 'installed' );
		expect( snapshot.sidecarVersion ).toBe( earlier.version );
		expect( snapshot.probe.options.version ).toBe( earlier.version );
		expect( snapshot.probe.outbox.filter( ( row ) => row.pending ).map( ( row ) => row.type ) ).toEqual( [
			'order.created',
			'order.paid',
		] );
		expect( snapshot.probe.inbound ).toEqual( [
			expect.objectContaining( { source: SOURCE, event_id: 'evt_upgrade_before', status: 'processed' } ),
		] );
	} );

	it( "upgrades: the new zip replaces the plugin in wp-admin, the new tarball's sidecar starts on the same data", async () => {
		expect( after.plugin ).toBe( 'replaced' );
		expect( after.release.version ).toBe( current.version );
		expect( after.sidecar.prefix ).not.toBe( before.sidecar.prefix );
		// The new sidecar opened the database the old one wrote (as its own start line says).
		const layout = productionLayout( NAME );
		const starts = fs
			.readFileSync( layout.sidecar.log, 'utf8' )
			.split( '\n' )
			.filter( ( line ) => line.includes( '"sidecar listening"' ) )
			.map( ( line ) => JSON.parse( line ) as { version: string; dataDir: string } );
		expect( starts.map( ( start ) => start.version ) ).toEqual( [ earlier.version, current.version ] );
		expect( starts.map( ( start ) => start.dataDir ) ).toEqual( [
			layout.sidecar.dataDir,
			layout.sidecar.dataDir,
		] );
		expect( await health( after ) ).toMatchObject( { version: current.version } );
		const plugin = ok(
			await admin.get< { version: string; status: string } >(
				'/wp/v2/plugins/service-integration/service-integration'
			),
			'Reading the plugin'
		);
		expect( plugin ).toMatchObject( { version: current.version, status: 'active' } );
	}, 120_000 );

	it( "runs each migration once: the plugin's tables once after the version change, the sidecar's schema to the current version", async () => {
		// Requests keep coming (the cron loop every 2 s, these calls): none may migrate again.
		await waitUntil(
			async () => ( await probe() ).options.version === current.version,
			30_000,
			'the stored plugin version'
		);
		await sleep( 6000 );
		for ( let i = 0; i < 5; i++ ) {
			await admin.get( '/service-integration/v1/webhooks/outbox' );
		}
		const state = await probe();
		const table = ( name: string ) =>
			Object.keys( state.dbdelta ).find( ( key ) => key.endsWith( name ) ) as string;
		expect( Object.keys( snapshot.probe.dbdelta ) ).toEqual( [] ); // nothing migrated between the install and the upgrade
		expect( state.dbdelta ).toEqual( {
			[ table( 'si_outbox' ) ]: 1,
			[ table( 'si_inbound_events' ) ]: 1,
			[ table( 'si_paid_orders' ) ]: 1,
			[ table( 'si_idempotency_keys' ) ]: 1,
		} );
		expect( state.options ).toEqual( {
			version: current.version,
			outbox_db: expect.any( String ),
			inbound_db: expect.any( String ),
			paid_index_db: expect.any( String ),
			idempotency_db: expect.any( String ),
		} );

		expect( sidecarSchemaVersion() ).toBe( MIGRATIONS.length );
		expect( sidecarSchemaVersion() ).toBeGreaterThanOrEqual( snapshot.sidecarSchema );
	}, 120_000 );

	it( 'loses nothing: endpoint and its secret, delivery history, outbox rows, inbound source and event', async () => {
		const endpoints = ok(
			await admin.get< Array< Endpoint > | { endpoints: Endpoint[] } >(
				'/service-integration/v1/webhooks/endpoints'
			),
			'Listing endpoints'
		);
		const list = Array.isArray( endpoints ) ? endpoints : endpoints.endpoints;
		expect( list.map( ( item ) => ( { id: item.id, url: item.url, status: item.status } ) ) ).toEqual( [
			{ id: endpoint.id, url: endpoint.url, status: 'active' },
		] );

		const history = ok(
			await admin.get< { deliveries?: unknown[] } | unknown[] >(
				`/service-integration/v1/webhooks/deliveries?endpoint_id=${ endpoint.id }&per_page=100`
			),
			'Listing deliveries'
		);
		expect( ( Array.isArray( history ) ? history : ( history.deliveries ?? [] ) ).length ).toBeGreaterThanOrEqual(
			2
		);

		const state = await probe();
		// Every outbox row of before is still there, with the same event ids.
		expect( state.outbox.slice( 0, snapshot.probe.outbox.length ).map( ( row ) => row.event_id ) ).toEqual(
			snapshot.probe.outbox.map( ( row ) => row.event_id )
		);
		expect( state.inbound ).toEqual(
			expect.arrayContaining( [
				expect.objectContaining( { source: SOURCE, event_id: 'evt_upgrade_before', status: 'processed' } ),
			] )
		);
		// The rows of before, unchanged, and none repeated: the only row added since is the event
		// the delivery test sends after the upgrade, when it has run.
		expect( state.inbound.slice( 0, snapshot.probe.inbound.length ) ).toEqual( snapshot.probe.inbound );
		expect(
			state.inbound
				.slice( snapshot.probe.inbound.length )
				.filter( ( row ) => row.event_id !== 'evt_upgrade_after' )
		).toEqual( [] );
		const sources = ok(
			await admin.get< Array< { id: string } > | { sources: Array< { id: string } > } >(
				'/service-integration/v1/inbound/sources'
			),
			'Listing sources'
		);
		expect( ( Array.isArray( sources ) ? sources : sources.sources ).map( ( item ) => item.id ) ).toContain(
			SOURCE
		);
	}, 120_000 );

	it( 'fills the paid-orders index with the orders paid before the upgrade (its walk, run by Action Scheduler from cron)', async () => {
		expect( snapshot.probe.paid_index.ids ).toEqual( [] );
		await waitUntil(
			async () =>
				( await probe() ).paid_index.state !== false &&
				( ( await probe() ).paid_index.state as { ready?: boolean } ).ready === true,
			240_000,
			'the paid-orders index walk'
		);
		expect( ( await probe() ).paid_index.ids ).toEqual(
			expect.arrayContaining( [ orders.delivered, orders.pending ] )
		);
	}, 300_000 );

	it( "continues delivering: the pending rows go out signed with the endpoint's old secret, then new events too", async () => {
		await waitUntil(
			() => delivered( orders.pending ).length >= 2,
			120_000,
			"the pending order's events at the receiver"
		);
		expect( delivered( orders.pending ).map( ( event ) => event.type ) ).toEqual( [
			'order.created',
			'order.paid',
		] );
		expect( ( await probe() ).outbox.filter( ( row ) => row.pending ) ).toEqual( [] );

		orders.afterUpgrade = await newPaidOrder( admin, 'after' );
		await waitUntil(
			() => delivered( orders.afterUpgrade ).length >= 2,
			60_000,
			"a new order's events at the receiver"
		);
		// Each business event once: the upgrade resent nothing already delivered.
		expect( delivered( orders.delivered ).map( ( event ) => event.type ) ).toEqual( [
			'order.created',
			'order.paid',
		] );
		expect( refusedArrivals ).toEqual( [] );

		// Inbound: the source's secret still verifies; the event is stored and processed.
		expect( ( await sendInbound( 'evt_upgrade_after', 'test.after' ) ).status ).toBe( 202 );
		await waitUntil(
			async () =>
				( await probe() ).inbound.some(
					( row ) => row.event_id === 'evt_upgrade_after' && row.status === 'processed'
				),
			60_000,
			'the new inbound event processed'
		);
	}, 300_000 );
} );
