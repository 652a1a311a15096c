import { MAX_TYPE_LENGTH, normaliseInbound } from '../../../sidecar/src/inbound/normalise';
import { INBOUND_SCHEMES } from '../../../sidecar/src/contracts/constants';
import type { InboundScheme } from '../../../sidecar/src/inbound/verify';

const raw = ( value: unknown ): Buffer => Buffer.from( typeof value === 'string' ? value : JSON.stringify( value ) );

describe( 'normaliseInbound: {type, data} for every scheme', () => {
	test.each( [ 'standard-webhooks', 'stripe' ] as InboundScheme[] )(
		'%s: type and data come from the body; data sits at /data',
		( scheme ) => {
			const body = {
				id: 'evt_1',
				type: 'payment_intent.succeeded',
				data: { object: { id: 'pi_1', amount: 1200 } },
				livemode: false,
			};
			expect( normaliseInbound( scheme, raw( body ), {} ) ).toEqual( {
				ok: true,
				type: 'payment_intent.succeeded',
				data: { object: { id: 'pi_1', amount: 1200 } },
				dataPointer: '/data',
			} );
		}
	);

	test( 'a body that is not valid UTF-8 is invalid_utf8, whatever the scheme; valid multi-byte text passes', () => {
		const bad = [ [ 0x80 ], [ 0xc3, 0x28 ], [ 0xe2, 0x82 ], [ 0xed, 0xa0, 0x80 ], [ 0xff ] ];
		for ( const scheme of [ 'standard-webhooks', 'github', 'woocommerce' ] as InboundScheme[] ) {
			for ( const bytes of bad ) {
				const body = Buffer.concat( [
					Buffer.from( '{"type":"a","data":{"s":"' ),
					Buffer.from( bytes ),
					Buffer.from( '"}}' ),
				] );
				expect(
					normaliseInbound( scheme, body, { 'x-github-event': 'push', 'x-wc-webhook-topic': 'a' } )
				).toMatchObject( { ok: false, code: 'invalid_utf8' } );
			}
		}
		expect(
			normaliseInbound( 'standard-webhooks', raw( { type: 'a', data: { s: 'Größe – 東京 😀' } } ), {} )
		).toMatchObject( { ok: true, data: { s: 'Größe – 東京 😀' } } );
	} );

	test( 'github: x-github-event plus the body action; data is the whole body', () => {
		const body = { action: 'opened', issue: { number: 7 } };
		expect( normaliseInbound( 'github', raw( body ), { 'x-github-event': 'issues' } ) ).toEqual( {
			ok: true,
			type: 'issues.opened',
			data: body,
			dataPointer: '',
		} );
	} );

	test( 'github: without an action (push, ping) the type is the event header alone', () => {
		for ( const body of [ { ref: 'refs/heads/main' }, { action: '' }, { action: 42 } ] ) {
			expect( normaliseInbound( 'github', raw( body ), { 'x-github-event': 'push' } ) ).toMatchObject( {
				ok: true,
				type: 'push',
				data: body,
			} );
		}
	} );

	test( 'shopify: x-shopify-topic; data is the body', () => {
		const body = { id: 820982911946154500, email: 'jon@example.com' };
		expect( normaliseInbound( 'shopify', raw( body ), { 'x-shopify-topic': 'orders/create' } ) ).toEqual( {
			ok: true,
			type: 'orders/create',
			data: body,
			dataPointer: '',
		} );
	} );

	test( 'woocommerce: x-wc-webhook-topic; data is the body', () => {
		const body = { id: 4321, status: 'processing' };
		expect( normaliseInbound( 'woocommerce', raw( body ), { 'x-wc-webhook-topic': ' order.created ' } ) ).toEqual( {
			ok: true,
			type: 'order.created',
			data: body,
			dataPointer: '',
		} );
	} );

	// Whatever the scheme, and with every type header present, a body that is not a JSON object.
	const notAnObject: Array< [ string, 'invalid_json' | 'invalid_payload', string[] ] > = [
		[
			'a body that is not JSON',
			'invalid_json',
			[ '', '{', '{"type":"a",}', 'type=a&data=b', '\ufeff{"type":"a","data":{}}', 'NaN' ],
		],
		[
			'JSON that is not an object',
			'invalid_payload',
			[ '[]', '[{"type":"a","data":{}}]', 'null', '"text"', '42', 'true' ],
		],
	];
	test.each(
		INBOUND_SCHEMES.flatMap( ( scheme ) =>
			notAnObject.map( ( [ what, code, bodies ] ) => [ scheme, what, code, bodies ] as const )
		)
	)( '%s: %s is %s', ( scheme, _what, code, bodies ) => {
		const typeHeaders = { 'x-github-event': 'push', 'x-shopify-topic': 't', 'x-wc-webhook-topic': 't' };
		for ( const body of bodies ) {
			expect( normaliseInbound( scheme, raw( body ), typeHeaders ) ).toMatchObject( { ok: false, code } );
		}
	} );

	test.each( [ 'standard-webhooks', 'stripe' ] as InboundScheme[] )(
		'%s: missing or mistyped type/data is invalid_payload',
		( scheme ) => {
			const bodies = [
				{ data: {} },
				{ type: '', data: {} },
				{ type: 42, data: {} },
				{ type: null, data: {} },
				{ type: [ 'a' ], data: {} },
				{ type: 'a' },
				{ type: 'a', data: null },
				{ type: 'a', data: [] },
				{ type: 'a', data: 'x' },
				{ type: 'a', data: 1 },
				{ type: 'x'.repeat( MAX_TYPE_LENGTH + 1 ), data: {} },
				{ type: 'line\nbreak', data: {} },
				{ type: 'nul\u0000', data: {} },
			];
			for ( const body of bodies ) {
				expect( normaliseInbound( scheme, raw( body ), {} ) ).toMatchObject( {
					ok: false,
					code: 'invalid_payload',
				} );
			}
			expect( normaliseInbound( scheme, raw( { type: 'x'.repeat( MAX_TYPE_LENGTH ), data: {} } ), {} ).ok ).toBe(
				true
			);
		}
	);

	test.each( [
		[ 'github', 'x-github-event' ],
		[ 'shopify', 'x-shopify-topic' ],
		[ 'woocommerce', 'x-wc-webhook-topic' ],
	] as Array< [ InboundScheme, string ] > )(
		'%s: a missing, empty or mangled %s header is invalid_payload',
		( scheme, header ) => {
			for ( const value of [ undefined, '', '   ', 'a\tb', 'x'.repeat( MAX_TYPE_LENGTH + 1 ) ] ) {
				expect( normaliseInbound( scheme, raw( { id: 1 } ), { [ header ]: value } ) ).toMatchObject( {
					ok: false,
					code: 'invalid_payload',
				} );
			}
		}
	);

	test( 'github: an empty event header is refused even when the body has an action', () => {
		for ( const value of [ '', ' ', undefined ] ) {
			expect(
				normaliseInbound( 'github', raw( { action: 'opened' } ), { 'x-github-event': value } )
			).toMatchObject( { ok: false, code: 'invalid_payload' } );
		}
	} );

	test( 'the type never comes from a header for body-typed schemes (a header cannot override a signed body)', () => {
		const result = normaliseInbound( 'stripe', raw( { type: 'charge.succeeded', data: {} } ), {
			'x-github-event': 'push',
			'x-shopify-topic': 'orders/create',
		} );
		expect( result ).toMatchObject( { ok: true, type: 'charge.succeeded' } );
	} );
} );
