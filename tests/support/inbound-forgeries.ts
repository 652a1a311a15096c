import { createHmac, randomBytes } from 'node:crypto';
import type { InboundScheme } from '../../sidecar/src/inbound/verify';
import {
	providerSecret,
	sampleWebhook,
	signGithub,
	signShopify,
	signStandardWebhook,
	signStripe,
	signWoocommerce,
	type SignedWebhook,
} from './inbound-signers';

/**
 * The generator of forged, replayed, tampered and malformed webhooks shared by the
 * sidecar-level sweep (tests/sidecar/inbound-forgery.test.ts) and the sweep through
 * WordPress (tests/e2e/inbound/forgery-sweep.test.ts): one genuine webhook per scheme,
 * mutated only in what the signature covers or what the receiver checks.
 */
export interface ForgeryCase {
	label: string;
	source: string;
	webhook: SignedWebhook;
	status: number;
	/** One code, or the codes any of which is right (e.g. garbage in a signature header). */
	code: string | string[];
	/** Send the headers without the forwarding prefix. */
	unprefixed?: boolean;
}

export const SIGNATURE_HEADER: Record< InboundScheme, string > = {
	'standard-webhooks': 'webhook-signature',
	stripe: 'stripe-signature',
	github: 'x-hub-signature-256',
	shopify: 'x-shopify-hmac-sha256',
	woocommerce: 'x-wc-webhook-signature',
};
const TYPE_HEADER: Partial< Record< InboundScheme, string > > = {
	github: 'x-github-event',
	shopify: 'x-shopify-topic',
	woocommerce: 'x-wc-webhook-topic',
};
const now = () => Math.floor( Date.now() / 1000 );

/** Signs `body` for `scheme` with the same non-body headers as `like`. */
export function resign(
	scheme: InboundScheme,
	secret: string,
	body: string,
	like: SignedWebhook,
	timestamp = now()
): SignedWebhook {
	switch ( scheme ) {
		case 'standard-webhooks':
			return signStandardWebhook( secret, like.headers[ 'webhook-id' ] as string, body, timestamp );
		case 'stripe':
			return signStripe( secret, body, timestamp );
		case 'github':
			return {
				...signGithub(
					secret,
					body,
					like.headers[ 'x-github-event' ] as string,
					like.headers[ 'x-github-delivery' ] as string
				),
			};
		case 'shopify':
			return signShopify(
				secret,
				body,
				like.headers[ 'x-shopify-topic' ] as string,
				like.headers[ 'x-shopify-webhook-id' ] as string,
				new Date( timestamp * 1000 )
			);
		case 'woocommerce':
			return signWoocommerce( secret, body, like.headers[ 'x-wc-webhook-topic' ] as string );
	}
}

export function withHeaders( webhook: SignedWebhook, changes: Record< string, string | undefined > ): SignedWebhook {
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

export interface ForgeryOptions {
	/** Timestamp tolerance of the receiver, in seconds (replays are made just outside it). */
	toleranceSeconds?: number;
	/** How many single-character body tamperings (spread over the body). */
	tamperedPositions?: number;
	/**
	 * How far outside the tolerance replayed and future timestamps are. A slow run must not
	 * send a "future" case late enough for it to fall back within the tolerance.
	 */
	marginSeconds?: number;
}

/**
 * Forged, replayed, tampered and malformed deliveries for one source of `scheme` signed
 * with `secret`, each with the refusal the receiver owes it. Expects `${ source }-off`
 * to be a disabled source with the same secret, and `forge-unknown` not to exist.
 */
export function forgeryCases(
	scheme: InboundScheme,
	source: string,
	secret: string,
	options: ForgeryOptions = {}
): ForgeryCase[] {
	const TOLERANCE = options.toleranceSeconds ?? 300;
	const tampered = options.tamperedPositions ?? 40;
	const outside = TOLERANCE + ( options.marginSeconds ?? 60 );
	const valid = sampleWebhook( scheme, secret, {
		data: { order_id: 987654, items: [ { sku: 'CHAIR-OAK', quantity: 4 } ], note: 'forgery sweep' },
	} );
	const signatureHeader = SIGNATURE_HEADER[ scheme ];
	const signature = valid.headers[ signatureHeader ] as string;
	const cases: ForgeryCase[] = [];
	const add = (
		label: string,
		webhook: SignedWebhook,
		status: number,
		code: string | string[],
		extra: Partial< ForgeryCase > = {}
	) => cases.push( { label: `${ scheme }: ${ label }`, source, webhook, status, code, ...extra } );

	// Tampered bodies, signature unchanged: one changed character at `tampered` places.
	for ( let i = 0; i < tampered; i++ ) {
		const index = Math.floor( ( i / tampered ) * valid.body.length );
		add(
			`body char ${ index } changed`,
			{ body: flipChar( valid.body, index ), headers: valid.headers },
			401,
			'invalid_signature'
		);
	}
	for ( const [ label, body ] of [
		[ 'trailing newline', valid.body + '\n' ],
		[ 'leading space', ' ' + valid.body ],
		[ 're-serialised with indentation', JSON.stringify( JSON.parse( valid.body ), null, 2 ) ],
		[
			'keys reordered',
			JSON.stringify( Object.fromEntries( Object.entries( JSON.parse( valid.body ) as object ).reverse() ) ),
		],
		[ 'a value changed', valid.body.replace( '987654', '987655' ) ],
		[ 'empty body', '' ],
		[ 'truncated', valid.body.slice( 0, -1 ) ],
	] as const ) {
		add( label, { body, headers: valid.headers }, 401, 'invalid_signature' );
	}

	// Forged and mangled signatures.
	const otherSecret = providerSecret( scheme ) ?? 'whsec_' + randomBytes( 32 ).toString( 'base64' );
	add( 'signed with another secret', resign( scheme, otherSecret, valid.body, valid ), 401, 'invalid_signature' );
	add(
		'signature header missing',
		withHeaders( valid, { [ signatureHeader ]: undefined } ),
		401,
		'missing_signature'
	);
	add( 'signature header empty', withHeaders( valid, { [ signatureHeader ]: '' } ), 401, [
		'missing_signature',
		'malformed_signature',
	] );
	add(
		'signature truncated',
		withHeaders( valid, { [ signatureHeader ]: signature.slice( 0, -2 ) } ),
		401,
		'malformed_signature'
	);
	add( 'signature with junk appended', withHeaders( valid, { [ signatureHeader ]: signature + ',junk' } ), 401, [
		'malformed_signature',
		'invalid_signature',
	] );
	add(
		'signature of another body',
		withHeaders( valid, {
			[ signatureHeader ]: resign( scheme, secret, '{"type":"x","data":{}}', valid ).headers[ signatureHeader ],
		} ),
		401,
		'invalid_signature'
	);
	add( 'signature header sent without forwarding', valid, 401, 'missing_signature', { unprefixed: true } );
	add( 'sent to an unknown source', valid, 404, 'unknown_source', { source: 'forge-unknown' } );
	add( 'sent to a disabled source', valid, 403, 'source_disabled', { source: `${ source }-off` } );
	for ( let i = 0; i < 6; i++ ) {
		const garbage = randomBytes( 8 + i * 6 ).toString( i % 2 ? 'hex' : 'base64' );
		add( `random signature ${ i }`, withHeaders( valid, { [ signatureHeader ]: garbage } ), 401, [
			'malformed_signature',
			'invalid_signature',
			'missing_signature',
		] );
	}

	// Scheme-specific: timestamps, then headers changed after signing.
	const timestamp = TIMESTAMP[ scheme ];
	if ( timestamp ) {
		add(
			`replayed after the tolerance${ timestamp.signed ? '' : ` (${ timestamp.header })` }`,
			resign( scheme, secret, valid.body, valid, now() - outside ),
			401,
			'stale_timestamp'
		);
		if ( timestamp.signed ) {
			add(
				'timestamp in the future',
				resign( scheme, secret, valid.body, valid, now() + outside ),
				401,
				'stale_timestamp'
			);
		}
	}
	for ( const [ label, changes, code ] of alteredHeaders( scheme, secret, valid.body, signature ) ) {
		add( label, withHeaders( valid, changes ), 401, code );
	}

	// Validly signed but not a {type, data} event.
	for ( const body of [ '{', '{"type":"a",}', 'not json', '\u00ef\u00bb\u00bf{}', 'type=a&data=b' ] ) {
		add(
			`signed malformed JSON ${ JSON.stringify( body ) }`,
			resign( scheme, secret, body, valid ),
			400,
			'invalid_json'
		);
	}
	for ( const body of [ '[]', 'null', '"text"', '7' ] ) {
		add(
			`signed JSON that is not an object ${ body }`,
			resign( scheme, secret, body, valid ),
			400,
			'invalid_payload'
		);
	}
	const typeHeader = TYPE_HEADER[ scheme ];
	if ( typeHeader ) {
		add(
			`signed, without ${ typeHeader }`,
			withHeaders( resign( scheme, secret, valid.body, valid ), { [ typeHeader ]: undefined } ),
			400,
			'invalid_payload'
		);
		add(
			`signed, empty ${ typeHeader }`,
			withHeaders( resign( scheme, secret, valid.body, valid ), { [ typeHeader ]: '' } ),
			400,
			'invalid_payload'
		);
	} else {
		for ( const body of [
			{ data: {} },
			{ type: '', data: {} },
			{ type: 7, data: {} },
			{ type: 'a' },
			{ type: 'a', data: [] },
			{ type: 'a', data: 'x' },
			{ type: 'a', data: null },
		] ) {
			add(
				`signed, bad type/data ${ JSON.stringify( body ) }`,
				resign( scheme, secret, JSON.stringify( body ), valid ),
				400,
				'invalid_payload'
			);
		}
	}
	return cases;
}

/**
 * Where a scheme's timestamp is, and whether the signature covers it (an unsigned one is
 * only a hint against old replays, so the future is not refused).
 */
const TIMESTAMP: Partial< Record< InboundScheme, { header: string; signed: boolean } > > = {
	'standard-webhooks': { header: 'webhook-timestamp', signed: true },
	stripe: { header: 'stripe-signature', signed: true },
	shopify: { header: 'x-shopify-triggered-at', signed: false },
};

/** Headers of a validly signed webhook changed after signing, each with the refusal it owes. */
function alteredHeaders(
	scheme: InboundScheme,
	secret: string,
	body: string,
	signature: string
): Array< [ string, Record< string, string | undefined >, string | string[] ] > {
	switch ( scheme ) {
		case 'standard-webhooks':
			return [
				[
					'timestamp changed after signing',
					{ 'webhook-timestamp': String( now() + 1 ) },
					'invalid_signature',
				],
				[ 'id changed after signing', { 'webhook-id': 'msg_other' }, 'invalid_signature' ],
				[ 'timestamp not a number', { 'webhook-timestamp': 'yesterday' }, 'malformed_signature' ],
				[
					'timestamp in milliseconds',
					{ 'webhook-timestamp': String( Date.now() ) },
					[ 'malformed_signature', 'invalid_signature' ],
				],
				[ 'no webhook-id', { 'webhook-id': undefined }, 'missing_event_id' ],
				[ 'no webhook-timestamp', { 'webhook-timestamp': undefined }, 'missing_signature' ],
				[ 'id with a dot', { 'webhook-id': 'msg.1' }, 'malformed_signature' ],
				[
					'only a v1a (asymmetric) entry',
					{ 'webhook-signature': signature.replace( 'v1,', 'v1a,' ) },
					'missing_signature',
				],
			];
		case 'stripe':
			return [
				[
					'timestamp changed after signing',
					{ 'stripe-signature': signature.replace( /^t=\d+/, `t=${ now() + 1 }` ) },
					'invalid_signature',
				],
				[
					'only a v0 signature',
					{ 'stripe-signature': signature.replace( 'v1=', 'v0=' ) },
					'missing_signature',
				],
				[
					'two timestamps (joined headers)',
					{ 'stripe-signature': `${ signature },t=${ now() }` },
					'malformed_signature',
				],
				[ 'no timestamp', { 'stripe-signature': signature.replace( /^t=\d+,/, '' ) }, 'malformed_signature' ],
			];
		case 'github':
			return [
				[
					'legacy SHA-1 header only',
					{
						'x-hub-signature-256': undefined,
						'x-hub-signature': 'sha1=' + createHmac( 'sha1', secret ).update( body ).digest( 'hex' ),
					},
					'missing_signature',
				],
				[
					'upper-case hex',
					{ 'x-hub-signature-256': signature.toUpperCase().replace( 'SHA256=', 'sha256=' ) },
					'malformed_signature',
				],
			];
		default:
			return [];
	}
}
