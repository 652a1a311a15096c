import { createHmac, randomBytes } from 'node:crypto';
import { FORWARDED_HEADER_PREFIX } from '../../sidecar/src/inbound/receive';
import { INBOUND_SCHEMES, type InboundScheme } from '../../sidecar/src/inbound/verify';
import {
	providerSecret,
	sampleWebhook,
	signGithub,
	signShopify,
	signStandardWebhook,
	signStripe,
	signWoocommerce,
	type SignedWebhook,
} from '../support/inbound-signers';
import { startHarness, type Harness } from './support/harness';

/**
 * Forged, replayed, tampered and malformed deliveries, generated in bulk against the
 * real verify route: every one refused with the right status and code, logged as
 * refused, and nothing verified but the controls.
 */
interface Case {
	label: string;
	source: string;
	webhook: SignedWebhook;
	status: number;
	/** One code, or the codes any of which is right (e.g. garbage in a signature header). */
	code: string | string[];
	/** Send the headers without the forwarding prefix. */
	unprefixed?: boolean;
}

const TOLERANCE = 300;
const SIGNATURE_HEADER: Record< InboundScheme, string > = {
	'standard-webhooks': 'webhook-signature',
	stripe: 'stripe-signature',
	github: 'x-hub-signature-256',
	shopify: 'x-shopify-hmac-sha256',
	woocommerce: 'x-wc-webhook-signature',
};
const TYPE_HEADER: Partial< Record< InboundScheme, string > > = { github: 'x-github-event', shopify: 'x-shopify-topic', woocommerce: 'x-wc-webhook-topic' };
const now = () => Math.floor( Date.now() / 1000 );

/** Signs `body` for `scheme` with the same non-body headers as `like`. */
function resign( scheme: InboundScheme, secret: string, body: string, like: SignedWebhook, timestamp = now() ): SignedWebhook {
	switch ( scheme ) {
		case 'standard-webhooks':
			return signStandardWebhook( secret, like.headers[ 'webhook-id' ] as string, body, timestamp );
		case 'stripe':
			return signStripe( secret, body, timestamp );
		case 'github':
			return { ...signGithub( secret, body, like.headers[ 'x-github-event' ] as string, like.headers[ 'x-github-delivery' ] as string ) };
		case 'shopify':
			return signShopify( secret, body, like.headers[ 'x-shopify-topic' ] as string, like.headers[ 'x-shopify-webhook-id' ] as string, new Date( timestamp * 1000 ) );
		case 'woocommerce':
			return signWoocommerce( secret, body, like.headers[ 'x-wc-webhook-topic' ] as string );
	}
}

function withHeaders( webhook: SignedWebhook, changes: Record< string, string | undefined > ): SignedWebhook {
	const headers = { ...webhook.headers };
	for ( const [ name, value ] of Object.entries( changes ) ) {
		if ( value === undefined ) {
			delete headers[ name ];
		} else {
			headers[ name ] = value;
		}
	}
	return { body: webhook.body, headers };
}

function flipChar( text: string, index: number ): string {
	const char = text[ index ] as string;
	const replacement = char === 'a' ? 'b' : char === '"' ? "'" : char === '1' ? '2' : 'a';
	return text.slice( 0, index ) + replacement + text.slice( index + 1 );
}

function casesFor( scheme: InboundScheme, source: string, secret: string ): Case[] {
	const valid = sampleWebhook( scheme, secret, { data: { order_id: 987654, items: [ { sku: 'CHAIR-OAK', quantity: 4 } ], note: 'forgery sweep' } } );
	const signatureHeader = SIGNATURE_HEADER[ scheme ];
	const signature = valid.headers[ signatureHeader ] as string;
	const cases: Case[] = [];
	const add = ( label: string, webhook: SignedWebhook, status: number, code: string | string[], extra: Partial< Case > = {} ) =>
		cases.push( { label: `${ scheme }: ${ label }`, source, webhook, status, code, ...extra } );

	// Tampered bodies, signature unchanged: one changed character at 40 places.
	for ( let i = 0; i < 40; i++ ) {
		const index = Math.floor( ( i / 40 ) * valid.body.length );
		add( `body char ${ index } changed`, { body: flipChar( valid.body, index ), headers: valid.headers }, 401, 'invalid_signature' );
	}
	for ( const [ label, body ] of [
		[ 'trailing newline', valid.body + '\n' ],
		[ 'leading space', ' ' + valid.body ],
		[ 're-serialised with indentation', JSON.stringify( JSON.parse( valid.body ), null, 2 ) ],
		[ 'keys reordered', JSON.stringify( Object.fromEntries( Object.entries( JSON.parse( valid.body ) as object ).reverse() ) ) ],
		[ 'a value changed', valid.body.replace( '987654', '987655' ) ],
		[ 'empty body', '' ],
		[ 'truncated', valid.body.slice( 0, -1 ) ],
	] as const ) {
		add( label, { body, headers: valid.headers }, 401, 'invalid_signature' );
	}

	// Forged and mangled signatures.
	const otherSecret = providerSecret( scheme ) ?? 'whsec_' + randomBytes( 32 ).toString( 'base64' );
	add( 'signed with another secret', resign( scheme, otherSecret, valid.body, valid ), 401, 'invalid_signature' );
	add( 'signature header missing', withHeaders( valid, { [ signatureHeader ]: undefined } ), 401, 'missing_signature' );
	add( 'signature header empty', withHeaders( valid, { [ signatureHeader ]: '' } ), 401, [ 'missing_signature', 'malformed_signature' ] );
	add( 'signature truncated', withHeaders( valid, { [ signatureHeader ]: signature.slice( 0, -2 ) } ), 401, 'malformed_signature' );
	add( 'signature with junk appended', withHeaders( valid, { [ signatureHeader ]: signature + ',junk' } ), 401, [ 'malformed_signature', 'invalid_signature' ] );
	add( 'signature of another body', withHeaders( valid, { [ signatureHeader ]: resign( scheme, secret, '{"type":"x","data":{}}', valid ).headers[ signatureHeader ] } ), 401, 'invalid_signature' );
	add( 'signature header sent without forwarding', valid, 401, 'missing_signature', { unprefixed: true } );
	add( 'sent to an unknown source', valid, 404, 'unknown_source', { source: 'forge-unknown' } );
	add( 'sent to a disabled source', valid, 403, 'source_disabled', { source: `${ source }-off` } );
	for ( let i = 0; i < 6; i++ ) {
		const garbage = randomBytes( 8 + i * 6 ).toString( i % 2 ? 'hex' : 'base64' );
		add( `random signature ${ i }`, withHeaders( valid, { [ signatureHeader ]: garbage } ), 401, [ 'malformed_signature', 'invalid_signature', 'missing_signature' ] );
	}

	// Scheme-specific: timestamps, ids, replays.
	if ( scheme === 'standard-webhooks' ) {
		add( 'replayed after the tolerance', resign( scheme, secret, valid.body, valid, now() - TOLERANCE - 60 ), 401, 'stale_timestamp' );
		add( 'timestamp in the future', resign( scheme, secret, valid.body, valid, now() + TOLERANCE + 60 ), 401, 'stale_timestamp' );
		add( 'timestamp changed after signing', withHeaders( valid, { 'webhook-timestamp': String( now() + 1 ) } ), 401, 'invalid_signature' );
		add( 'id changed after signing', withHeaders( valid, { 'webhook-id': 'msg_other' } ), 401, 'invalid_signature' );
		add( 'timestamp not a number', withHeaders( valid, { 'webhook-timestamp': 'yesterday' } ), 401, 'malformed_signature' );
		add( 'timestamp in milliseconds', withHeaders( valid, { 'webhook-timestamp': String( Date.now() ) } ), 401, [ 'malformed_signature', 'invalid_signature' ] );
		add( 'no webhook-id', withHeaders( valid, { 'webhook-id': undefined } ), 401, 'missing_event_id' );
		add( 'no webhook-timestamp', withHeaders( valid, { 'webhook-timestamp': undefined } ), 401, 'missing_signature' );
		add( 'id with a dot', withHeaders( valid, { 'webhook-id': 'msg.1' } ), 401, 'malformed_signature' );
		add( 'only a v1a (asymmetric) entry', withHeaders( valid, { 'webhook-signature': signature.replace( 'v1,', 'v1a,' ) } ), 401, 'missing_signature' );
	}
	if ( scheme === 'stripe' ) {
		add( 'replayed after the tolerance', resign( scheme, secret, valid.body, valid, now() - TOLERANCE - 60 ), 401, 'stale_timestamp' );
		add( 'timestamp in the future', resign( scheme, secret, valid.body, valid, now() + TOLERANCE + 60 ), 401, 'stale_timestamp' );
		add( 'timestamp changed after signing', withHeaders( valid, { 'stripe-signature': signature.replace( /^t=\d+/, `t=${ now() + 1 }` ) } ), 401, 'invalid_signature' );
		add( 'only a v0 signature', withHeaders( valid, { 'stripe-signature': signature.replace( 'v1=', 'v0=' ) } ), 401, 'missing_signature' );
		add( 'two timestamps (joined headers)', withHeaders( valid, { 'stripe-signature': `${ signature },t=${ now() }` } ), 401, 'malformed_signature' );
		add( 'no timestamp', withHeaders( valid, { 'stripe-signature': signature.replace( /^t=\d+,/, '' ) } ), 401, 'malformed_signature' );
	}
	if ( scheme === 'github' ) {
		add( 'legacy SHA-1 header only', withHeaders( valid, { 'x-hub-signature-256': undefined, 'x-hub-signature': 'sha1=' + createHmac( 'sha1', secret ).update( valid.body ).digest( 'hex' ) } ), 401, 'missing_signature' );
		add( 'upper-case hex', withHeaders( valid, { 'x-hub-signature-256': signature.toUpperCase().replace( 'SHA256=', 'sha256=' ) } ), 401, 'malformed_signature' );
	}
	if ( scheme === 'shopify' ) {
		add( 'replayed after the tolerance (x-shopify-triggered-at)', resign( scheme, secret, valid.body, valid, now() - TOLERANCE - 60 ), 401, 'stale_timestamp' );
	}

	// Validly signed but not a {type, data} event.
	for ( const body of [ '{', '{"type":"a",}', 'not json', '\u00ef\u00bb\u00bf{}', 'type=a&data=b' ] ) {
		add( `signed malformed JSON ${ JSON.stringify( body ) }`, resign( scheme, secret, body, valid ), 400, 'invalid_json' );
	}
	for ( const body of [ '[]', 'null', '"text"', '7' ] ) {
		add( `signed JSON that is not an object ${ body }`, resign( scheme, secret, body, valid ), 400, 'invalid_payload' );
	}
	const typeHeader = TYPE_HEADER[ scheme ];
	if ( typeHeader ) {
		add( `signed, without ${ typeHeader }`, withHeaders( resign( scheme, secret, valid.body, valid ), { [ typeHeader ]: undefined } ), 400, 'invalid_payload' );
		add( `signed, empty ${ typeHeader }`, withHeaders( resign( scheme, secret, valid.body, valid ), { [ typeHeader ]: '' } ), 400, 'invalid_payload' );
	} else {
		for ( const body of [ { data: {} }, { type: '', data: {} }, { type: 7, data: {} }, { type: 'a' }, { type: 'a', data: [] }, { type: 'a', data: 'x' }, { type: 'a', data: null } ] ) {
			add( `signed, bad type/data ${ JSON.stringify( body ) }`, resign( scheme, secret, JSON.stringify( body ), valid ), 400, 'invalid_payload' );
		}
	}
	return cases;
}

describe( 'inbound forgery sweep (sidecar)', () => {
	let sidecar: Harness;
	const secrets = {} as Record< InboundScheme, string >;

	beforeAll( async () => {
		sidecar = await startHarness( { SIDECAR_INBOUND_TOLERANCE_SECONDS: String( TOLERANCE ), SIDECAR_LOG_LEVEL: 'info' } );
		for ( const scheme of INBOUND_SCHEMES ) {
			const given = providerSecret( scheme );
			const created = await sidecar.api( 'POST', '/v1/inbound/sources', { id: `forge-${ scheme }`, scheme, secret: given } );
			expect( created.status ).toBe( 201 );
			secrets[ scheme ] = given ?? ( created.body.secret as string );
			// The same secret on a disabled source: refused for being disabled, not for the signature.
			const disabled = await sidecar.api( 'POST', '/v1/inbound/sources', { id: `forge-${ scheme }-off`, scheme, secret: secrets[ scheme ], status: 'disabled' } );
			expect( disabled.status ).toBe( 201 );
		}
	} );

	afterAll( async () => {
		await sidecar.close();
	} );

	const send = ( source: string, webhook: SignedWebhook, unprefixed = false ) =>
		sidecar.api( 'POST', `/v1/inbound/sources/${ source }/verify`, webhook.body, {
			headers: unprefixed ? webhook.headers : Object.fromEntries( Object.entries( webhook.headers ).map( ( [ n, v ] ) => [ FORWARDED_HEADER_PREFIX + n, v ] ) ),
		} );

	it( 'refuses every generated forgery with the right status and code, and verifies only the controls', async () => {
		const cases = INBOUND_SCHEMES.flatMap( ( scheme ) => casesFor( scheme, `forge-${ scheme }`, secrets[ scheme ] ) );
		expect( cases.length ).toBeGreaterThanOrEqual( 300 );

		// Controls: the unmodified webhooks verify, so every refusal below is the mutation's doing.
		for ( const scheme of INBOUND_SCHEMES ) {
			const control = await send( `forge-${ scheme }`, sampleWebhook( scheme, secrets[ scheme ] ) );
			expect( { scheme, status: control.status } ).toEqual( { scheme, status: 200 } );
		}

		const mismatches: unknown[] = [];
		for ( let i = 0; i < cases.length; i += 25 ) {
			await Promise.all(
				cases.slice( i, i + 25 ).map( async ( c ) => {
					const answer = await send( c.source, c.webhook, c.unprefixed );
					const codes = Array.isArray( c.code ) ? c.code : [ c.code ];
					if ( answer.status !== c.status || ! codes.includes( answer.body?.code ) ) {
						mismatches.push( { label: c.label, expected: [ c.status, c.code ], got: [ answer.status, answer.body?.code ] } );
					}
				} )
			);
		}
		expect( mismatches ).toEqual( [] );

		const outcomes = sidecar.stores.db.prepare( "SELECT outcome, COUNT(*) AS n FROM inbound_log WHERE source LIKE 'forge-%' GROUP BY outcome ORDER BY outcome" ).all();
		expect( outcomes ).toEqual( [
			{ outcome: 'refused', n: cases.length },
			{ outcome: 'verified', n: INBOUND_SCHEMES.length },
		] );
		// Refusals leave only their log row: no secret, no payload anywhere in the log.
		const logged = JSON.stringify( sidecar.stores.db.prepare( 'SELECT * FROM inbound_log' ).all() ) + sidecar.logText();
		expect( logged ).not.toContain( 'forgery sweep' );
		for ( const secret of Object.values( secrets ) ) {
			expect( logged ).not.toContain( secret );
		}
	} );
} );
