import type { Server } from 'http';
import { FORWARDED_HEADER_PREFIX } from '../../sidecar/src/contracts/constants';
import { loadConfig } from '../../sidecar/src/config';
import { checkReadiness } from '../../sidecar/src/http/probes';
import { createLogger } from '../../sidecar/src/logger';
import { createMetricsApp, listenMetrics } from '../../sidecar/src/metrics/http';
import { storeMetrics, type SidecarMetrics } from '../../sidecar/src/metrics/registry';
import { createOutboundRuntime, type OutboundRuntime } from '../../sidecar/src/outbound/runtime';
import { MysqlStore } from '../../sidecar/src/store/mysql/mysql-store';
import { sampleWebhook } from '../support/inbound-signers';
import { startMariaDb, type RunningMariaDb } from '../support/mariadb';
import { waitUntil } from '../support/wait-until';
import { apiClient, orderEvent, type ApiCall } from './support/api-client';
import { TEST_ENV, TEST_KEY } from './support/harness';
import { Scrape, scrape } from './support/prometheus';
import { startReceiver, type Receiver } from './support/receiver';
import { serveOnLoopback } from './support/loopback-server';
import { instanceApp } from './support/instance-app';

const TOKEN = 'shared-metrics-token-0123456789';
const M = ( suffix: string ) => `service_integration_${ suffix }`;
const log = createLogger( process.env.TEST_LOG ?? 'silent' );

interface Instance {
	url: string;
	api: ApiCall;
	store: MysqlStore;
	outbound: OutboundRuntime;
	metrics: SidecarMetrics;
	close: () => Promise< void >;
}

/**
 * One instance on the shared store, in this process, wired as cli-start.ts wires it:
 * one registry (storeMetrics) for its runtime and its app. Its dispatcher does not poll while
 * the file runs (an hour apart), so an instance delivers what was handed to it, or what a test
 * wakes it for: each test knows which instance made each attempt it counts. (A poll a minute apart
 * lets B claim some of what was handed to A once a busy machine stretches the file past a minute.)
 */
async function startInstance( databaseUrl: string, name: string, env: NodeJS.ProcessEnv ): Promise< Instance > {
	const config = loadConfig( { ...TEST_ENV, SIDECAR_LOG_LEVEL: 'silent', ...env } );
	const store = await MysqlStore.open( { url: databaseUrl } );
	const metrics = storeMetrics( store, log );
	const outbound = createOutboundRuntime( {
		config,
		log,
		store,
		metrics,
		instanceId: name,
		coordination: { kind: 'leases', pollMs: 3_600_000 },
	} );
	outbound.start();
	const app = instanceApp( store, config, log, outbound.dispatcher, metrics );
	const server = await serveOnLoopback( app );
	const { url } = server;
	return {
		url,
		api: apiClient( url, TEST_KEY ),
		store,
		outbound,
		metrics,
		close: async () => {
			await outbound.stop( 1000 );
			await server.close();
			await store.close().catch( () => undefined );
		},
	};
}

describe( '/metrics of two instances on one MariaDB', () => {
	let database: RunningMariaDb;
	let a: Instance;
	let b: Instance;
	const running: Instance[] = [];
	const receivers: Receiver[] = [];
	const servers: Server[] = [];
	let seq = 0;
	const nextId = ( prefix: string ) => `${ prefix }_${ Date.now().toString( 36 ) }_${ ++seq }`;

	beforeAll( async () => {
		database = await startMariaDb( { name: 'shared_metrics_test' } );
		a = await startInstance( database.url, 'instance-a', { SIDECAR_METRICS_TOKEN: TOKEN } );
		running.push( a );
		b = await startInstance( database.url, 'instance-b', { SIDECAR_METRICS_TOKEN: TOKEN } );
		running.push( b );
	}, 120_000 );

	afterAll( async () => {
		for ( const server of servers ) {
			server.closeAllConnections();
			server.close();
		}
		await Promise.all( running.map( ( instance ) => instance.close() ) );
		await Promise.all( receivers.map( ( started ) => started.close() ) );
		await database?.stop();
	}, 60_000 );

	const receiver = async ( handler?: Parameters< typeof startReceiver >[ 0 ] ) => {
		const started = await startReceiver( handler );
		receivers.push( started );
		return started;
	};
	const createEndpoint = async ( on: Instance, url: string ): Promise< string > => {
		const response = await on.api( 'POST', '/v1/endpoints', { url } );
		expect( response.status ).toBe( 201 );
		return response.body.id;
	};
	const scrapeOk = async ( on: Instance ): Promise< Scrape > => {
		const response = await scrape( on.url, TOKEN );
		expect( response.status ).toBe( 200 );
		return new Scrape( response.text );
	};
	const deliveryStatus = async ( on: Instance, eventId: string ): Promise< string | undefined > =>
		( ( await on.api( 'GET', `/v1/events/${ eventId }` ) ).body.deliveries as { status: string }[] )[ 0 ]?.status;

	it( 'asks for the bearer token, and answers 404 metrics_not_enabled on an instance without one', async () => {
		const missing = await scrape( b.url );
		expect( missing.status ).toBe( 401 );
		expect( JSON.parse( missing.text ).code ).toBe( 'metrics_token_missing' );
		for ( const wrong of [ `${ TOKEN }x`, TEST_KEY ] ) {
			const refused = await scrape( b.url, wrong );
			expect( refused.status ).toBe( 401 );
			expect( JSON.parse( refused.text ).code ).toBe( 'metrics_token_invalid' );
		}
		const ok = await scrape( b.url, TOKEN );
		expect( ok.status ).toBe( 200 );
		expect( ok.contentType ).toContain( 'text/plain' );
		expect( new Scrape( ok.text ).family( M( 'build_info' ) ) ).toBeDefined();
		const post = await fetch( `${ b.url }/metrics`, {
			method: 'POST',
			headers: { authorization: `Bearer ${ TOKEN }` },
		} );
		expect( post.status ).toBe( 405 );

		const plain = await startInstance( database.url, 'instance-no-token', {} );
		running.push( plain );
		const notEnabled = await scrape( plain.url, TOKEN );
		expect( notEnabled.status ).toBe( 404 );
		expect( JSON.parse( notEnabled.text ) ).toMatchObject( {
			code: 'metrics_not_enabled',
			data: { settings: [ 'SIDECAR_METRICS_TOKEN', 'SIDECAR_METRICS_PORT' ] },
		} );
	} );

	it( 'counts events handed to A and delivered by A in A’s counters, not in B’s', async () => {
		const target = await receiver();
		const endpointId = await createEndpoint( a, target.url );
		const ids = [ nextId( 'paid' ), nextId( 'paid' ) ];
		const handed = await a.api( 'POST', '/v1/events', {
			events: [
				orderEvent( ids[ 0 ] as string, 'order.paid', 1 ),
				orderEvent( ids[ 1 ] as string, 'order.paid', 2 ),
				orderEvent( nextId( 'bad' ), 'order.unknown', 3 ),
				{ id: 'no.dots', type: 'order.paid' },
			],
		} );
		expect( handed.status ).toBe( 202 );
		expect( handed.body.accepted ).toHaveLength( 2 );
		await target.waitFor( ( requests ) => requests.length >= 2 );
		await waitUntil( async () => ( await deliveryStatus( a, ids[ 1 ] as string ) ) === 'succeeded', 10_000 );

		const fromA = await scrapeOk( a );
		expect( fromA.value( M( 'events_ingested_total' ), { type: 'order.paid' } ) ).toBe( 2 );
		expect( fromA.value( M( 'events_rejected_total' ), { reason: 'invalid_event_type' } ) ).toBe( 1 );
		expect( fromA.value( M( 'events_rejected_total' ), { reason: 'invalid_body' } ) ).toBe( 1 );
		const endpoint = { endpoint_id: endpointId };
		expect( fromA.value( M( 'delivery_attempts_total' ), { ...endpoint, outcome: 'success' } ) ).toBe( 2 );
		expect( fromA.value( M( 'deliveries_total' ), { ...endpoint, outcome: 'success' } ) ).toBe( 2 );
		expect( fromA.count( M( 'delivery_duration_seconds' ), endpoint ) ).toBe( 2 );
		expect( fromA.count( M( 'event_to_first_attempt_seconds' ), endpoint ) ).toBe( 2 );

		const fromB = await scrapeOk( b );
		expect( fromB.value( M( 'events_ingested_total' ), { type: 'order.paid' } ) ).toBe( 0 );
		expect( fromB.value( M( 'delivery_attempts_total' ), { ...endpoint, outcome: 'success' } ) ).toBe( 0 );
		// The queue is the shared one: B sees A's endpoint, with nothing pending.
		expect( fromB.sample( M( 'queue_depth' ), endpoint )?.value ).toBe( '0' );
	} );

	it( 'shows through B what A queued, and counts in B what B delivered', async () => {
		const target = await receiver();
		const endpointId = await createEndpoint( a, target.url );
		const endpoint = { endpoint_id: endpointId };
		// A stops delivering: what is handed to it stays queued until another instance claims it.
		await a.outbound.dispatcher.stop( 1000 );
		const eventId = nextId( 'queued' );
		expect(
			( await a.api( 'POST', '/v1/events', { events: [ orderEvent( eventId, 'order.refunded', 9 ) ] } ) ).status
		).toBe( 202 );

		const queued = await scrapeOk( b );
		expect( queued.value( M( 'queue_depth' ), endpoint ) ).toBe( 1 );
		expect( queued.value( M( 'queue_oldest_due_age_seconds' ), endpoint ) ).toBeGreaterThanOrEqual( 0 );
		expect( target.requests ).toHaveLength( 0 );

		b.outbound.dispatcher.endpointsChanged(); // B's next poll, now
		await target.waitFor( ( requests ) => requests.length >= 1 );
		await waitUntil( async () => ( await deliveryStatus( b, eventId ) ) === 'succeeded', 10_000 );

		const fromB = await scrapeOk( b );
		expect( fromB.value( M( 'delivery_attempts_total' ), { ...endpoint, outcome: 'success' } ) ).toBe( 1 );
		expect( fromB.value( M( 'deliveries_total' ), { ...endpoint, outcome: 'success' } ) ).toBe( 1 );
		expect( fromB.value( M( 'events_ingested_total' ), { type: 'order.refunded' } ) ).toBe( 0 );
		expect( fromB.value( M( 'queue_depth' ), endpoint ) ).toBe( 0 );
		const fromA = await scrapeOk( a );
		expect( fromA.value( M( 'events_ingested_total' ), { type: 'order.refunded' } ) ).toBe( 1 );
		expect( fromA.value( M( 'delivery_attempts_total' ), { ...endpoint, outcome: 'success' } ) ).toBe( 0 );
		expect( fromA.value( M( 'queue_depth' ), endpoint ) ).toBe( 0 );
	} );

	it( 'counts a 410 as a give-up and a disable on the instance that made the attempt', async () => {
		const gone = await receiver( ( _req, res ) => void res.writeHead( 410 ).end( 'gone' ) );
		const endpointId = await createEndpoint( b, gone.url );
		b.outbound.dispatcher.endpointsChanged();
		const eventId = nextId( 'gone' );
		expect(
			( await b.api( 'POST', '/v1/events', { events: [ orderEvent( eventId, 'order.paid', 10 ) ] } ) ).status
		).toBe( 202 );
		await waitUntil(
			async () => ( await b.api( 'GET', `/v1/endpoints/${ endpointId }` ) ).body.status === 'disabled',
			10_000
		);
		const fromB = await scrapeOk( b );
		expect(
			fromB.value( M( 'delivery_give_ups_total' ), { endpoint_id: endpointId, reason: 'endpoint_gone' } )
		).toBe( 1 );
		expect( fromB.value( M( 'endpoint_disables_total' ), { reason: 'gone' } ) ).toBe( 1 );
		expect( ( await scrapeOk( a ) ).value( M( 'endpoint_disables_total' ), { reason: 'gone' } ) ).toBe( 0 );
	} );

	it( 'counts an inbound verification on the instance that answered it', async () => {
		const created = await a.api( 'POST', '/v1/inbound/sources', { id: 'counted', scheme: 'standard-webhooks' } );
		expect( created.status ).toBe( 201 );
		const webhook = sampleWebhook( 'standard-webhooks', created.body.secret as string, { eventId: 'msg_counted' } );
		const headers = Object.fromEntries(
			Object.entries( webhook.headers ).map( ( [ name, value ] ) => [ FORWARDED_HEADER_PREFIX + name, value ] )
		);
		const verify = ( on: Instance, source: string ) =>
			on.api( 'POST', `/v1/inbound/sources/${ source }/verify`, webhook.body, { headers } );
		expect( ( await verify( b, 'counted' ) ).status ).toBe( 200 );
		expect( ( await verify( a, 'nowhere' ) ).status ).toBe( 404 );

		const verified = { source: 'counted', outcome: 'verified', reason: 'none' };
		const unknown = { source: '_unknown', outcome: 'refused', reason: 'unknown_source' };
		const fromB = await scrapeOk( b );
		expect( fromB.value( M( 'inbound_verifications_total' ), verified ) ).toBe( 1 );
		expect( fromB.value( M( 'inbound_verifications_total' ), unknown ) ).toBe( 0 );
		const fromA = await scrapeOk( a );
		expect( fromA.value( M( 'inbound_verifications_total' ), verified ) ).toBe( 0 );
		expect( fromA.value( M( 'inbound_verifications_total' ), unknown ) ).toBe( 1 );
	} );

	it( 'serves /metrics and the shared readiness on a listener of its own; a scrape while MariaDB is down still answers', async () => {
		const listening = await listenMetrics(
			createMetricsApp( {
				log,
				metrics: b.metrics,
				token: TOKEN,
				readiness: () => checkReadiness( { store: b.store, dispatcher: b.outbound.dispatcher, log } ),
			} ),
			'127.0.0.1',
			0
		);
		servers.push( listening.server );
		const listenerUrl = `http://127.0.0.1:${ listening.port }`;
		expect( ( await fetch( `${ listenerUrl }/ready` ) ).status ).toBe( 200 );
		expect( ( await scrape( listenerUrl ) ).status ).toBe( 401 );
		const before = new Scrape( ( await scrape( listenerUrl, TOKEN ) ).text );
		expect( before.family( M( 'queue_depth' ) )?.metrics.length ).toBeGreaterThan( 0 );

		await database.stop();

		for ( const url of [ b.url, listenerUrl ] ) {
			const during = await scrape( url, TOKEN );
			expect( during.status ).toBe( 200 );
			const parsed = new Scrape( during.text );
			expect( parsed.family( M( 'queue_depth' ) )?.metrics ?? [] ).toHaveLength( 0 );
			expect( parsed.family( M( 'queue_oldest_due_age_seconds' ) )?.metrics ?? [] ).toHaveLength( 0 );
			// The counters are this process's and still answer.
			expect( parsed.value( M( 'endpoint_disables_total' ), { reason: 'gone' } ) ).toBe( 1 );
		}
		const ready = await fetch( `${ listenerUrl }/ready` );
		expect( ready.status ).toBe( 503 );
		expect( ( ( await ready.json() ) as { failed: string[] } ).failed ).toEqual( [ 'database', 'migrations' ] );
	} );
} );
