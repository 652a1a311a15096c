import { classifyAttempt, giveUpReason } from '../../../sidecar/src/metrics/outcomes';
import { createMetrics, UNKNOWN_SOURCE_LABEL } from '../../../sidecar/src/metrics/registry';

describe( 'delivery outcome classes (the outcome label)', () => {
	it.each( [
		[ 200, 'success' ],
		[ 204, 'success' ],
		[ 301, 'http_other' ],
		[ 404, 'http_4xx' ],
		[ 410, 'http_4xx' ],
		[ 429, 'http_4xx' ],
		[ 500, 'http_5xx' ],
		[ 503, 'http_5xx' ],
		[ 0, 'http_other' ],
	] as const )( 'HTTP %d is %s', ( status, expected ) => {
		expect( classifyAttempt( { kind: 'response', status } ) ).toBe( expected );
	} );

	it.each( [
		[ 'EBLOCKED', 'blocked' ],
		[ 'ETIMEDOUT', 'timeout' ],
		[ 'ECONNABORTED', 'timeout' ],
		[ 'ENOTFOUND', 'dns' ],
		[ 'EAI_AGAIN', 'dns' ],
		[ 'ECONNREFUSED', 'connection_error' ],
		[ 'ECONNRESET', 'connection_error' ],
		[ 'CERT_HAS_EXPIRED', 'connection_error' ],
		[ 'ERESPONSETOOLARGE', 'connection_error' ],
		[ 'ERR_UNKNOWN', 'connection_error' ],
		[ 'ESIGNING', 'other' ],
		[ 'ERR_CANCELED', 'other' ],
	] as const )( 'network error %s is %s', ( code, expected ) => {
		expect( classifyAttempt( { kind: 'network-error', code } ) ).toBe( expected );
	} );

	it( 'names why a delivery was given up', () => {
		expect( giveUpReason( { action: 'succeeded' }, 'success' ) ).toBeNull();
		expect( giveUpReason( { action: 'retry', delaySeconds: 1, reason: 'HTTP 500' }, 'http_5xx' ) ).toBeNull();
		expect( giveUpReason( { action: 'give-up', reason: 'x' }, 'http_5xx' ) ).toBe( 'attempts_exhausted' );
		expect( giveUpReason( { action: 'give-up', reason: 'x' }, 'blocked' ) ).toBe( 'blocked' );
		expect( giveUpReason( { action: 'disable-endpoint', reason: 'x' }, 'http_4xx' ) ).toBe( 'endpoint_gone' );
	} );
} );

describe( 'the metrics registry', () => {
	it( 'is one per instance, so several sidecars in one process do not share counts', async () => {
		const a = createMetrics( { processMetrics: false } );
		const b = createMetrics( { processMetrics: false } );
		a.recordEventIngested( 'order.paid' );
		expect( await a.render() ).toMatch( /^service_integration_events_ingested_total\{type="order.paid"\} 1$/m );
		expect( await b.render() ).not.toMatch( /events_ingested_total\{/ );
	} );

	it( 'labels a verification for a source that does not exist with one fixed value, never the id from the URL', async () => {
		const metrics = createMetrics( { processMetrics: false } );
		metrics.recordInboundVerification( 'made-up-1', { ok: false, code: 'unknown_source' } );
		metrics.recordInboundVerification( 'made-up-2', { ok: false, code: 'unknown_source' } );
		metrics.recordInboundVerification( 'acme', { ok: false, code: 'invalid_signature' } );
		metrics.recordInboundVerification( 'acme', { ok: true } );
		metrics.recordInboundTimeout( 'acme', true );
		metrics.recordInboundTimeout( 'made-up-3', false );
		const text = await metrics.render();
		expect( text ).not.toContain( 'made-up' );
		expect( text ).toContain(
			`service_integration_inbound_verifications_total{source="${ UNKNOWN_SOURCE_LABEL }",outcome="refused",reason="unknown_source"} 2`
		);
		expect( text ).toContain(
			'service_integration_inbound_verifications_total{source="acme",outcome="refused",reason="invalid_signature"} 1'
		);
		expect( text ).toContain(
			'service_integration_inbound_verifications_total{source="acme",outcome="verified",reason="none"} 1'
		);
		// Asked after WordPress's deadline: not verified at all.
		expect( text ).toContain(
			'service_integration_inbound_verifications_total{source="acme",outcome="timed_out",reason="deadline_passed"} 1'
		);
		expect( text ).toContain(
			`service_integration_inbound_verifications_total{source="${ UNKNOWN_SOURCE_LABEL }",outcome="timed_out",reason="deadline_passed"} 1`
		);
	} );

	it( 'reads the queue gauges at scrape time: depth, and the age of the oldest due delivery (0 when none is due)', async () => {
		let rows = [
			{ endpointId: 'ep_a', pending: 3, firstAttemptAt: 10_000 },
			{ endpointId: 'ep_b', pending: 1, firstAttemptAt: 99_000 },
			{ endpointId: 'ep_c', pending: 0, firstAttemptAt: null },
		];
		const metrics = createMetrics( { processMetrics: false, queue: () => rows, now: () => 12_500 } );
		let text = await metrics.render();
		expect( text ).toContain( 'service_integration_queue_depth{endpoint_id="ep_a"} 3' );
		expect( text ).toContain( 'service_integration_queue_oldest_due_age_seconds{endpoint_id="ep_a"} 2.5' );
		expect( text ).toContain( 'service_integration_queue_oldest_due_age_seconds{endpoint_id="ep_b"} 0' );
		expect( text ).toContain( 'service_integration_queue_depth{endpoint_id="ep_c"} 0' );
		rows = [ { endpointId: 'ep_b', pending: 0, firstAttemptAt: null } ]; // ep_a deleted: its series goes
		text = await metrics.render();
		expect( text ).not.toContain( 'ep_a' );
	} );

	it( 'still answers when the queue cannot be read, without the queue gauges', async () => {
		const errors: unknown[] = [];
		const metrics = createMetrics( {
			processMetrics: false,
			queue: () => {
				throw new Error( 'The database connection is not open' );
			},
			onQueueError: ( error ) => errors.push( error ),
		} );
		const text = await metrics.render();
		expect( text ).toContain( 'service_integration_build_info' );
		expect( text ).not.toMatch( /^service_integration_queue_depth\{/m );
		expect( errors ).toHaveLength( 1 );
	} );
} );
