import type http from 'http';
import { FORWARDED_HEADER_PREFIX } from '../../sidecar/src/contracts/constants';
import { signStandardWebhook } from '../support/inbound-signers';
import { orderEvent } from './support/api-client';
import { startHarness, TEST_KEY, type Harness } from './support/harness';
import { Scrape, scrape } from './support/prometheus';
import { startReceiver, type Receiver } from './support/receiver';
import { waitUntil } from '../support/wait-until';

const TOKEN = 'metrics-token-0123456789abcdef';
const M = ( suffix: string ) => `service_integration_${ suffix }`;

/**
 * GET /metrics of the real sidecar (app + dispatcher + SQLite in-process) with real loopback
 * receivers: the bearer token, the values moving by what was sent, and no secret in the output.
 */
describe( 'sidecar metrics', () => {
	let sidecar: Harness;
	const secrets: string[] = [];
	const receivers: Receiver[] = [];
	let seq = 0;
	const nextId = ( prefix: string ) => `${ prefix }_${ Date.now().toString( 36 ) }_${ ++seq }`;

	beforeAll( async () => {
		sidecar = await startHarness( { SIDECAR_METRICS_TOKEN: TOKEN }, { processMetrics: true } );
	} );

	afterAll( async () => {
		await sidecar.close();
		await Promise.all( receivers.map( ( started ) => started.close() ) );
	} );

	async function receiver( handler?: Parameters< typeof startReceiver >[ 0 ] ): Promise< Receiver > {
		const started = await startReceiver( handler );
		receivers.push( started );
		return started;
	}

	async function createEndpoint( on: Harness, url: string, body: Record< string, unknown > = {} ): Promise< string > {
		const response = await on.api( 'POST', '/v1/endpoints', { url, ...body } );
		expect( response.status ).toBe( 201 );
		secrets.push( response.body.secret );
		return response.body.id;
	}

	const deliveryStatus = async ( on: Harness, eventId: string, endpointId: string ): Promise< string | undefined > =>
		(
			( await on.api( 'GET', `/v1/events/${ eventId }` ) ).body.deliveries as {
				endpoint_id: string;
				status: string;
			}[]
		 ).find( ( delivery ) => delivery.endpoint_id === endpointId )?.status;

	const scrapeOk = async ( baseUrl = sidecar.url, token: string | undefined = TOKEN ): Promise< Scrape > => {
		const response = await scrape( baseUrl, token );
		expect( response.status ).toBe( 200 );
		return new Scrape( response.text );
	};

	it( 'asks for the bearer token: none or a wrong one (the shared key too) is 401, the right one 200 in the text format', async () => {
		const missing = await scrape( sidecar.url );
		expect( missing.status ).toBe( 401 );
		expect( JSON.parse( missing.text ) ).toMatchObject( {
			code: 'metrics_token_missing',
			message: expect.stringContaining( 'SIDECAR_METRICS_TOKEN' ),
		} );
		for ( const wrong of [ TOKEN.slice( 0, -1 ), `${ TOKEN }x`, TEST_KEY ] ) {
			const refused = await scrape( sidecar.url, wrong );
			expect( refused.status ).toBe( 401 );
			expect( JSON.parse( refused.text ).code ).toBe( 'metrics_token_invalid' );
			expect( refused.text ).not.toContain( TOKEN );
		}
		const basic = await fetch( `${ sidecar.url }/metrics`, {
			headers: { authorization: `Basic ${ Buffer.from( `x:${ TOKEN }` ).toString( 'base64' ) }` },
		} );
		expect( basic.status ).toBe( 401 );
		expect( basic.headers.get( 'www-authenticate' ) ).toBe( 'Bearer realm="metrics"' );

		const ok = await scrape( sidecar.url, TOKEN );
		expect( ok.status ).toBe( 200 );
		expect( ok.contentType ).toBe( 'text/plain; version=0.0.4; charset=utf-8' );
		const parsed = new Scrape( ok.text );
		expect( parsed.sample( M( 'build_info' ) )?.labels ).toEqual( { version: expect.any( String ) } );
		// Process metrics (collectDefaultMetrics), under the same prefix.
		expect( parsed.family( M( 'process_cpu_user_seconds_total' ) )?.type ).toBe( 'COUNTER' );
		expect( parsed.family( M( 'nodejs_heap_size_used_bytes' ) )?.type ).toBe( 'GAUGE' );
		expect(
			(
				await fetch( `${ sidecar.url }/metrics`, {
					method: 'POST',
					headers: { authorization: `Bearer ${ TOKEN }` },
				} )
			).status
		).toBe( 405 );
	} );

	it( 'moves by what was sent: events, attempts and deliveries by outcome, give-ups, disables, durations, inbound verifications', async () => {
		const ok = await receiver();
		const failing = await receiver( ( _request, res ) => void res.writeHead( 500 ).end( 'boom' ) );
		const gone = await receiver( ( _request, res ) => void res.writeHead( 410 ).end( 'gone' ) );
		const okId = await createEndpoint( sidecar, `${ ok.url }/hook?token=query-secret-1`, {
			event_types: [ 'order.paid' ],
		} );
		const failingId = await createEndpoint( sidecar, `${ failing.url }/hook`, { event_types: [ 'order.paid' ] } );
		const goneId = await createEndpoint( sidecar, `${ gone.url }/hook`, { event_types: [ 'order.refunded' ] } );
		const before = await scrapeOk();

		// One paid event to two endpoints (a success; three 500s, then given up), one bad event in the same batch.
		const paid = orderEvent( nextId( 'paid' ), 'order.paid', 1 );
		const batch = await sidecar.api( 'POST', '/v1/events', {
			events: [ paid, { ...orderEvent( 'bad_1', 'order.nope', 2 ) } ],
		} );
		expect( batch.body ).toMatchObject( { accepted: [ paid.id ], rejected: [ { code: 'invalid_event_type' } ] } );
		expect( ( await sidecar.api( 'POST', '/v1/events', { events: [ paid ] } ) ).body.duplicates ).toEqual( [
			paid.id,
		] ); // not counted again
		await waitUntil(
			async () => ( await deliveryStatus( sidecar, paid.id, okId ) ) === 'succeeded',
			10_000,
			'delivered'
		);
		await waitUntil(
			async () => ( await deliveryStatus( sidecar, paid.id, failingId ) ) === 'failed',
			10_000,
			'given up'
		);
		// A refund to an endpoint answering 410: given up, the endpoint disabled.
		const refunded = orderEvent( nextId( 'refund' ), 'order.refunded', 1 );
		await sidecar.api( 'POST', '/v1/events', { events: [ refunded ] } );
		await waitUntil(
			async () => ( await sidecar.api( 'GET', `/v1/endpoints/${ goneId }` ) ).body.status === 'disabled',
			10_000,
			'disabled'
		);
		// And one by its owner.
		expect( ( await sidecar.api( 'POST', `/v1/endpoints/${ okId }/disable` ) ).status ).toBe( 200 );

		// Inbound: verified, refused (a wrong secret), and a source that does not exist.
		const source = await sidecar.api( 'POST', '/v1/inbound/sources', {
			id: 'metrics-sw',
			scheme: 'standard-webhooks',
		} );
		expect( source.status ).toBe( 201 );
		secrets.push( source.body.secret );
		const forward = ( headers: Record< string, string > ) =>
			Object.fromEntries(
				Object.entries( headers ).map( ( [ name, value ] ) => [ FORWARDED_HEADER_PREFIX + name, value ] )
			);
		const body = JSON.stringify( { type: 'invoice.paid', data: { id: 1 } } );
		const signed = signStandardWebhook( source.body.secret, 'msg_metrics_1', body );
		const forged = signStandardWebhook(
			'whsec_' + Buffer.alloc( 32, 9 ).toString( 'base64' ),
			'msg_metrics_2',
			body
		);
		const verify = ( id: string, webhook: typeof signed ) =>
			sidecar.api( 'POST', `/v1/inbound/sources/${ id }/verify`, webhook.body, {
				headers: forward( webhook.headers ),
			} );
		expect( ( await verify( 'metrics-sw', signed ) ).status ).toBe( 200 );
		expect( ( await verify( 'metrics-sw', forged ) ).status ).toBe( 401 );
		expect( ( await verify( 'no-such-source', signed ) ).status ).toBe( 404 );

		const after = await scrapeOk();
		const delta = ( name: string, labels: Record< string, string > = {} ) =>
			after.value( M( name ), labels ) - before.value( M( name ), labels );
		const countDelta = ( name: string, labels: Record< string, string > ) =>
			after.count( M( name ), labels ) - before.count( M( name ), labels );

		expect( delta( 'events_ingested_total', { type: 'order.paid' } ) ).toBe( 1 );
		expect( delta( 'events_ingested_total', { type: 'order.refunded' } ) ).toBe( 1 );
		expect( delta( 'events_rejected_total', { reason: 'invalid_event_type' } ) ).toBe( 1 );

		expect( delta( 'delivery_attempts_total', { endpoint_id: okId, outcome: 'success' } ) ).toBe( 1 );
		expect( delta( 'delivery_attempts_total', { endpoint_id: failingId, outcome: 'http_5xx' } ) ).toBe( 3 ); // schedule 0, 0.05, 0.1
		expect( delta( 'delivery_attempts_total', { endpoint_id: goneId, outcome: 'http_4xx' } ) ).toBe( 1 );
		expect( delta( 'deliveries_total', { endpoint_id: okId, outcome: 'success' } ) ).toBe( 1 );
		expect( delta( 'deliveries_total', { endpoint_id: failingId, outcome: 'http_5xx' } ) ).toBe( 1 );
		expect( delta( 'deliveries_total', { endpoint_id: goneId, outcome: 'http_4xx' } ) ).toBe( 1 );
		expect( delta( 'delivery_give_ups_total', { endpoint_id: failingId, reason: 'attempts_exhausted' } ) ).toBe(
			1
		);
		expect( delta( 'delivery_give_ups_total', { endpoint_id: goneId, reason: 'endpoint_gone' } ) ).toBe( 1 );
		expect( delta( 'delivery_give_ups_total', { endpoint_id: okId, reason: 'attempts_exhausted' } ) ).toBe( 0 );
		expect( delta( 'endpoint_disables_total', { reason: 'gone' } ) ).toBe( 1 );
		expect( delta( 'endpoint_disables_total', { reason: 'owner' } ) ).toBe( 1 );
		expect( delta( 'endpoint_disables_total', { reason: 'failing' } ) ).toBe( 0 );
		// Nothing here is blocked: this sidecar allows loopback.
		expect( delta( 'delivery_attempts_total', { endpoint_id: okId, outcome: 'blocked' } ) ).toBe( 0 );

		expect( countDelta( 'delivery_duration_seconds', { endpoint_id: okId } ) ).toBe( 1 );
		expect( countDelta( 'delivery_duration_seconds', { endpoint_id: failingId } ) ).toBe( 3 );
		// First attempts only: one a delivery, whatever its retries.
		expect( countDelta( 'event_to_first_attempt_seconds', { endpoint_id: okId } ) ).toBe( 1 );
		expect( countDelta( 'event_to_first_attempt_seconds', { endpoint_id: failingId } ) ).toBe( 1 );
		const firstAttempt = after.histogram( M( 'event_to_first_attempt_seconds' ), { endpoint_id: okId } );
		expect( Number( firstAttempt?.sum ) ).toBeGreaterThanOrEqual( 0 );
		expect( Number( firstAttempt?.sum ) ).toBeLessThan( 5 );
		expect( firstAttempt?.buckets?.[ '+Inf' ] ).toBe( firstAttempt?.count );
		expect( after.family( M( 'delivery_duration_seconds' ) )?.type ).toBe( 'HISTOGRAM' );

		expect(
			delta( 'inbound_verifications_total', { source: 'metrics-sw', outcome: 'verified', reason: 'none' } )
		).toBe( 1 );
		expect(
			delta( 'inbound_verifications_total', {
				source: 'metrics-sw',
				outcome: 'refused',
				reason: 'invalid_signature',
			} )
		).toBe( 1 );
		expect(
			delta( 'inbound_verifications_total', { source: '_unknown', outcome: 'refused', reason: 'unknown_source' } )
		).toBe( 1 );
		expect( after.text ).not.toContain( 'no-such-source' );

		// Label values are bounded: endpoint ids, never a URL or an event id.
		expect( after.text ).not.toContain( paid.id );
		expect( after.text ).not.toContain( 'query-secret-1' );
		expect( after.text ).not.toContain( '127.0.0.1' );
	} );

	it( 'reads the queue at scrape time: pending deliveries per endpoint and how long the oldest due one has waited', async () => {
		const held: http.ServerResponse[] = [];
		const slow = await receiver( ( _request, res ) => void held.push( res ) );
		const slowId = await createEndpoint( sidecar, `${ slow.url }/hook`, {
			event_types: [ 'order.created' ],
			max_concurrency: 1,
		} );
		const idle = await scrapeOk();
		expect( idle.value( M( 'queue_depth' ), { endpoint_id: slowId } ) ).toBe( 0 );
		expect( idle.sample( M( 'queue_depth' ), { endpoint_id: slowId } ) ).toBeDefined(); // every endpoint has its series
		expect( idle.value( M( 'queue_oldest_due_age_seconds' ), { endpoint_id: slowId } ) ).toBe( 0 );

		const events = [
			orderEvent( nextId( 'created' ), 'order.created', 7 ),
			orderEvent( nextId( 'created' ), 'order.created', 8 ),
		];
		await sidecar.api( 'POST', '/v1/events', { events } );
		await slow.waitFor( ( requests ) => requests.length === 1 ); // the first is in flight, the second waits for the slot
		// The waiting delivery's age grows from 0: the gauge follows it (scraped until it passed 0.25 s).
		let backlog = await scrapeOk();
		await waitUntil(
			async () =>
				( backlog = await scrapeOk() ).value( M( 'queue_oldest_due_age_seconds' ), { endpoint_id: slowId } ) >=
				0.25,
			5000,
			'queue_oldest_due_age_seconds of the waiting delivery past 0.25 s',
			50
		);
		expect( backlog.value( M( 'queue_depth' ), { endpoint_id: slowId } ) ).toBe( 1 );

		slow.setHandler( ( _request, res ) => void res.writeHead( 200 ).end() );
		for ( const res of held ) {
			res.writeHead( 200 ).end();
		}
		await slow.waitFor( ( requests ) => requests.length === 2 );
		await waitUntil(
			async () => ( await deliveryStatus( sidecar, events[ 1 ]!.id, slowId ) ) === 'succeeded',
			10_000,
			'both delivered'
		);
		const drained = await scrapeOk();
		expect( drained.value( M( 'queue_depth' ), { endpoint_id: slowId } ) ).toBe( 0 );
		expect( drained.value( M( 'queue_oldest_due_age_seconds' ), { endpoint_id: slowId } ) ).toBe( 0 );

		await sidecar.api( 'DELETE', `/v1/endpoints/${ slowId }` );
		expect( ( await scrapeOk() ).sample( M( 'queue_depth' ), { endpoint_id: slowId } ) ).toBeUndefined();
	} );

	it( 'serves its own listener with SIDECAR_METRICS_PORT; without a token the main port answers 404 naming the settings; a blocked address counts', async () => {
		// No allow-list: localhost resolves to loopback, which the URL guard refuses at connect time.
		const strict = await startHarness( { SIDECAR_ALLOW_PRIVATE_CIDRS: '', SIDECAR_METRICS_PORT: '0' } );
		try {
			expect( strict.metricsUrl ).toMatch( /^http:\/\/127\.0\.0\.1:\d+$/ );
			const metricsUrl = strict.metricsUrl as string;
			const onMain = await fetch( `${ strict.url }/metrics` );
			expect( onMain.status ).toBe( 404 );
			const refusal = ( await onMain.json() ) as { code: string; message: string; data: { settings: string[] } };
			expect( refusal ).toMatchObject( {
				code: 'metrics_not_enabled',
				data: { settings: [ 'SIDECAR_METRICS_TOKEN', 'SIDECAR_METRICS_PORT' ] },
			} );
			expect( refusal.message ).toContain( 'SIDECAR_METRICS_TOKEN' );
			expect( ( await fetch( `${ metricsUrl }/ready` ) ).status ).toBe( 200 );
			expect( ( await fetch( `${ metricsUrl }/health` ) ).status ).toBe( 200 );
			expect( ( await fetch( `${ metricsUrl }/v1/status` ) ).status ).toBe( 404 ); // the API is not on this listener

			const before = await scrapeOk( metricsUrl, undefined );
			const target = await receiver();
			const endpointId = await createEndpoint( strict, `http://localhost:${ new URL( target.url ).port }/hook` );
			const event = orderEvent( nextId( 'blocked' ), 'order.paid', 9 );
			await strict.api( 'POST', '/v1/events', { events: [ event ] } );
			await waitUntil(
				async () => ( await deliveryStatus( strict, event.id, endpointId ) ) === 'failed',
				10_000,
				'blocked'
			);
			const after = await scrapeOk( metricsUrl, undefined );
			const delta = ( name: string, labels: Record< string, string > ) =>
				after.value( M( name ), labels ) - before.value( M( name ), labels );
			expect( delta( 'delivery_attempts_total', { endpoint_id: endpointId, outcome: 'blocked' } ) ).toBe( 1 );
			expect( delta( 'deliveries_total', { endpoint_id: endpointId, outcome: 'blocked' } ) ).toBe( 1 );
			expect( delta( 'delivery_give_ups_total', { endpoint_id: endpointId, reason: 'blocked' } ) ).toBe( 1 );
			expect( target.requests ).toHaveLength( 0 );
			// Its own registry: the first sidecar counted none of this, and this one has no process metrics.
			expect(
				( await scrapeOk() ).value( M( 'delivery_attempts_total' ), {
					endpoint_id: endpointId,
					outcome: 'blocked',
				} )
			).toBe( 0 );
			expect( after.family( M( 'process_cpu_user_seconds_total' ) ) ).toBeUndefined();
		} finally {
			await strict.close();
		}

		// With both settings, the token is asked for on the metrics listener too.
		const both = await startHarness( { SIDECAR_METRICS_PORT: '0', SIDECAR_METRICS_TOKEN: TOKEN } );
		try {
			expect( ( await scrape( both.metricsUrl as string ) ).status ).toBe( 401 );
			expect( ( await scrape( both.metricsUrl as string, TOKEN ) ).status ).toBe( 200 );
			expect( ( await scrape( both.url, TOKEN ) ).status ).toBe( 200 );
		} finally {
			await both.close();
		}
	} );

	it( 'never shows a secret: endpoint and inbound secrets, the shared key, the metrics token', async () => {
		// Secrets of its own, used: an endpoint with a delivery, an inbound source with a verification.
		// Run with the rest, everything they sent through this sidecar is in the scrape too.
		const ok = await receiver();
		const endpointId = await createEndpoint( sidecar, `${ ok.url }/hook`, { event_types: [ 'order.paid' ] } );
		const paid = orderEvent( nextId( 'secretless' ), 'order.paid', 1 );
		await sidecar.api( 'POST', '/v1/events', { events: [ paid ] } );
		await waitUntil(
			async () => ( await deliveryStatus( sidecar, paid.id, endpointId ) ) === 'succeeded',
			10_000,
			'delivered'
		);
		const source = await sidecar.api( 'POST', '/v1/inbound/sources', {
			id: `secretless-${ ++seq }`,
			scheme: 'standard-webhooks',
		} );
		expect( source.status ).toBe( 201 );
		secrets.push( source.body.secret );
		const signed = signStandardWebhook(
			source.body.secret,
			`msg_secretless_${ seq }`,
			JSON.stringify( { type: 'invoice.paid', data: { id: 1 } } )
		);
		const headers = Object.fromEntries(
			Object.entries( signed.headers ).map( ( [ name, value ] ) => [ FORWARDED_HEADER_PREFIX + name, value ] )
		);
		expect(
			( await sidecar.api( 'POST', `/v1/inbound/sources/${ source.body.id }/verify`, signed.body, { headers } ) )
				.status
		).toBe( 200 );

		const text = ( await scrapeOk() ).text;
		expect( secrets.length ).toBeGreaterThanOrEqual( 2 );
		for ( const secret of secrets ) {
			expect( text ).not.toContain( secret );
			expect( text ).not.toContain( secret.slice( 'whsec_'.length ) );
		}
		expect( text ).not.toContain( TEST_KEY );
		expect( text ).not.toContain( TOKEN );
		expect( text ).not.toContain( sidecar.dataDir );
	} );
} );
