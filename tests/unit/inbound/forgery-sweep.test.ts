import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { Webhook } from 'standardwebhooks';
import { verifyInbound, type InboundScheme, type VerifyInput } from '../../../sidecar/src/inbound/verify';

/**
 * Generated forgeries: start from one genuine request per scheme, derive
 * hundreds of mutated ones, and require every one to be refused without
 * throwing. Seeded PRNG, so a failure names a reproducible case.
 *
 * Only signed material is mutated. Unsigned extras (x-github-delivery,
 * x-shopify-webhook-id, a fresh x-shopify-triggered-at, extra headers) do not
 * make a request forged, so they are not part of the sweep.
 */

const NOW = 1_700_000_000;
const TOLERANCE = 300;
const BODY = '{"id":"evt_9Zq1","type":"order.paid","data":{"order":1234,"total":"19.90","note":"ünïcode ✓"}}';
const OTHER_BODY = '{"id":"evt_9Zq2","type":"order.refunded","data":{"order":1234,"total":"19.90"}}';

function mulberry32( seed: number ): () => number {
	let a = seed >>> 0;
	return () => {
		a = ( a + 0x6d2b79f5 ) >>> 0;
		let t = a;
		t = Math.imul( t ^ ( t >>> 15 ), t | 1 );
		t ^= t + Math.imul( t ^ ( t >>> 7 ), t | 61 );
		return ( ( t ^ ( t >>> 14 ) ) >>> 0 ) / 4294967296;
	};
}
const rng = mulberry32( 0x5eed );
const randInt = ( n: number ): number => Math.floor( rng() * n );
const pick = < T >( items: readonly T[] ): T => items[ randInt( items.length ) ] as T;
const randomText = ( alphabet: string, length: number ): string =>
	Array.from( { length }, () => alphabet[ randInt( alphabet.length ) ] ).join( '' );

const HEX = '0123456789abcdef';
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const GARBAGE = `${ B64 }${ HEX.toUpperCase() }=,.;: -_tv\t"'\\{}[]%\u00e9\u2713\u0000\u202e`;

interface Fixture {
	scheme: InboundScheme;
	secret: string;
	base: VerifyInput;
	/** Headers covered by (or carrying) the signature. */
	signedHeaders: string[];
	/** Validly signed header set for another body, or another timestamp. */
	signFor: ( body: string, timestamp: number, secret: string ) => Record< string, string >;
	/** Random value with the right shape (so it reaches the MAC comparison). */
	lookalike: () => Record< string, string >;
	timestamped: boolean;
}

function standardWebhooks(): Fixture {
	const secret = `whsec_${ Buffer.from( randomText( B64, 32 ) ).toString( 'base64' ) }`;
	const id = 'msg_2b8fN0QdY1pD3rJm';
	const signFor = ( body: string, ts: number, key: string ) => ( {
		'webhook-id': id,
		'webhook-timestamp': String( ts ),
		'webhook-signature': new Webhook( key ).sign( id, new Date( ts * 1000 ), body ),
	} );
	return {
		scheme: 'standard-webhooks',
		secret,
		base: baseInput( secret, signFor( BODY, NOW, secret ) ),
		signedHeaders: [ 'webhook-id', 'webhook-timestamp', 'webhook-signature' ],
		signFor,
		lookalike: () => ( {
			'webhook-signature': `v1,${ Buffer.from( randomText( B64, 32 ) ).toString( 'base64' ).slice( 0, 43 ) }=`,
		} ),
		timestamped: true,
	};
}

function stripe(): Fixture {
	const secret = `whsec_${ randomText( HEX, 32 ) }`;
	const signFor = ( body: string, ts: number, key: string ) => ( {
		'stripe-signature': Stripe.webhooks.generateTestHeaderString( { payload: body, secret: key, timestamp: ts } ),
	} );
	return {
		scheme: 'stripe',
		secret,
		base: baseInput( secret, signFor( BODY, NOW, secret ) ),
		signedHeaders: [ 'stripe-signature' ],
		signFor,
		lookalike: () => ( { 'stripe-signature': `t=${ NOW },v1=${ randomText( HEX, 64 ) }` } ),
		timestamped: true,
	};
}

function bodyMac( scheme: InboundScheme, header: string, encoding: 'hex' | 'base64', prefix = '' ): Fixture {
	const secret = randomText( B64, 24 );
	const signFor = ( body: string, _ts: number, key: string ) => ( {
		[ header ]: `${ prefix }${ createHmac( 'sha256', key ).update( body ).digest( encoding ) }`,
	} );
	return {
		scheme,
		secret,
		base: baseInput( secret, signFor( BODY, NOW, secret ) ),
		signedHeaders: [ header ],
		signFor,
		lookalike: () => ( {
			[ header ]:
				encoding === 'hex'
					? `${ prefix }${ randomText( HEX, 64 ) }`
					: `${ randomText( B64, 43 ).slice( 0, 42 ) }A=`,
		} ),
		timestamped: false,
	};
}

function baseInput( secret: string, headers: Record< string, string > ): VerifyInput {
	return { rawBody: Buffer.from( BODY ), headers, secrets: [ secret ], toleranceSeconds: TOLERANCE, nowSeconds: NOW };
}

/** The configured secret with a single bit changed (a valid secret for that scheme). */
function nearMiss( f: Fixture ): string {
	if ( f.scheme === 'standard-webhooks' ) {
		const key = Buffer.from( f.secret.slice( 'whsec_'.length ), 'base64' );
		key[ 0 ] = ( key[ 0 ] as number ) ^ 1;
		return `whsec_${ key.toString( 'base64' ) }`;
	}
	return `${ f.secret.slice( 0, -1 ) }${ String.fromCharCode( f.secret.charCodeAt( f.secret.length - 1 ) ^ 1 ) }`;
}

function* mutations( f: Fixture ): Generator< [ string, VerifyInput ] > {
	const { base } = f;
	const withHeaders = ( h: Record< string, string | undefined > ): VerifyInput => ( {
		...base,
		headers: { ...base.headers, ...h },
	} );
	const body = base.rawBody;

	// Body: flip every byte once, plus random extra flips.
	for ( let i = 0; i < body.length; i += 1 ) {
		const copy = Buffer.from( body );
		copy[ i ] = ( copy[ i ] as number ) ^ ( 1 + randInt( 255 ) );
		yield [ `body byte ${ i } flipped`, { ...base, rawBody: copy } ];
	}
	const bodyVariants: Array< [ string, Buffer ] > = [
		[ 'body truncated', body.subarray( 0, body.length - 1 ) ],
		[ 'body first byte dropped', body.subarray( 1 ) ],
		[ 'body + newline', Buffer.concat( [ body, Buffer.from( '\n' ) ] ) ],
		[ 'body + space', Buffer.concat( [ body, Buffer.from( ' ' ) ] ) ],
		[ 'body doubled', Buffer.concat( [ body, body ] ) ],
		[ 'body empty', Buffer.alloc( 0 ) ],
		[ 'body re-serialized', Buffer.from( JSON.stringify( JSON.parse( BODY ), null, 1 ) ) ],
		[ 'body latin1 re-encoded', Buffer.from( BODY, 'latin1' ) ],
		[ 'other body', Buffer.from( OTHER_BODY ) ],
	];
	for ( const [ name, rawBody ] of bodyVariants ) {
		yield [ name, { ...base, rawBody } ];
	}

	// Signed headers: change one character, drop, duplicate, replace with garbage.
	for ( const name of f.signedHeaders ) {
		const value = base.headers[ name ] as string;
		for ( let n = 0; n < 120; n += 1 ) {
			const at = randInt( value.length );
			let ch = pick( [ ...GARBAGE ] );
			while ( ch === value[ at ] ) {
				ch = pick( [ ...GARBAGE ] );
			}
			yield [
				`${ name } char ${ at } -> ${ JSON.stringify( ch ) }`,
				withHeaders( { [ name ]: value.slice( 0, at ) + ch + value.slice( at + 1 ) } ),
			];
		}
		if ( /[A-Za-z0-9+/]=$/.test( value ) ) {
			// Same decoded bytes, different text: only canonical base64 may pass.
			const last = B64.indexOf( value[ value.length - 2 ] as string );
			for ( const low of [ 1, 2, 3 ] ) {
				const twin = `${ value.slice( 0, -2 ) }${ B64[ last ^ low ] }=`;
				yield [ `${ name } non-canonical base64 twin ^${ low }`, withHeaders( { [ name ]: twin } ) ];
			}
		}
		yield [ `${ name } dropped`, withHeaders( { [ name ]: undefined } ) ];
		yield [ `${ name } empty`, withHeaders( { [ name ]: '' } ) ];
		yield [ `${ name } truncated`, withHeaders( { [ name ]: value.slice( 0, -1 ) } ) ];
		yield [ `${ name } extended`, withHeaders( { [ name ]: `${ value }A` } ) ];
		if ( value.toUpperCase() !== value ) {
			yield [ `${ name } upper-cased`, withHeaders( { [ name ]: value.toUpperCase() } ) ];
		}
		yield [ `${ name } duplicated ", "`, withHeaders( { [ name ]: `${ value }, ${ value }` } ) ];
		yield [ `${ name } duplicated ","`, withHeaders( { [ name ]: `${ value },${ value }` } ) ];
		for ( let n = 0; n < 40; n += 1 ) {
			yield [ `${ name } garbage #${ n }`, withHeaders( { [ name ]: randomText( GARBAGE, randInt( 120 ) ) } ) ];
		}
	}
	yield [ 'no headers', { ...base, headers: {} } ];
	yield [
		'only garbage headers',
		{ ...base, headers: { [ randomText( HEX, 8 ) ]: randomText( GARBAGE, 40 ), 'x-signature': 'sha256=00' } },
	];

	// Well-formed but wrong: random MACs, wrong secrets, another body's signature.
	for ( let n = 0; n < 40; n += 1 ) {
		yield [ `lookalike #${ n }`, withHeaders( f.lookalike() ) ];
	}
	for ( let n = 0; n < 20; n += 1 ) {
		const wrong =
			f.scheme === 'standard-webhooks'
				? `whsec_${ Buffer.from( randomText( B64, 24 ) ).toString( 'base64' ) }`
				: randomText( B64, 24 );
		yield [ `wrong secret #${ n }`, withHeaders( f.signFor( BODY, NOW, wrong ) ) ];
	}
	yield [ 'secret one bit off', withHeaders( f.signFor( BODY, NOW, nearMiss( f ) ) ) ];
	yield [ 'signature of another body', withHeaders( f.signFor( OTHER_BODY, NOW, f.secret ) ) ];
	yield [ 'signature of empty body', withHeaders( f.signFor( '', NOW, f.secret ) ) ];

	if ( f.timestamped ) {
		const tsHeader = f.scheme === 'stripe' ? null : 'webhook-timestamp';
		for ( let n = 0; n < 40; n += 1 ) {
			const shift = ( rng() < 0.5 ? -1 : 1 ) * ( 1 + randInt( n < 20 ? TOLERANCE : 10_000_000 ) );
			const ts = NOW + shift;
			// Old signature, new timestamp: must fail on the MAC.
			const replayed = tsHeader
				? withHeaders( { [ tsHeader ]: String( ts ) } )
				: withHeaders( {
						'stripe-signature': ( base.headers[ 'stripe-signature' ] as string ).replace(
							`t=${ NOW }`,
							`t=${ ts }`
						),
					} );
			yield [ `timestamp shifted by ${ shift } without re-signing`, replayed ];
		}
		for ( const shift of [ -( TOLERANCE + 1 ), TOLERANCE + 1, -86_400, 86_400, -NOW ] ) {
			yield [ `genuinely signed but ${ shift }s off`, withHeaders( f.signFor( BODY, NOW + shift, f.secret ) ) ];
		}
	}
	if ( f.scheme === 'shopify' ) {
		for ( const age of [ TOLERANCE + 1, 3600, 86_400 * 30 ] ) {
			const stale = new Date( ( NOW - age ) * 1000 ).toISOString();
			yield [ `triggered-at ${ age }s old`, withHeaders( { 'x-shopify-triggered-at': stale } ) ];
		}
	}
}

const FIXTURES: Fixture[] = [
	standardWebhooks(),
	stripe(),
	bodyMac( 'github', 'x-hub-signature-256', 'hex', 'sha256=' ),
	bodyMac( 'shopify', 'x-shopify-hmac-sha256', 'base64' ),
	bodyMac( 'woocommerce', 'x-wc-webhook-signature', 'base64' ),
];

describe.each( FIXTURES )( 'forgery sweep: $scheme', ( fixture ) => {
	test( 'the genuine request is accepted (the sweep starts from a valid baseline)', () => {
		expect( verifyInbound( fixture.scheme, fixture.base ).ok ).toBe( true );
	} );

	test( 'every mutated request is refused, none throws, no message leaks the secret', () => {
		const accepted: string[] = [];
		const threw: string[] = [];
		const leaked: string[] = [];
		let count = 0;
		for ( const [ name, input ] of mutations( fixture ) ) {
			count += 1;
			try {
				const result = verifyInbound( fixture.scheme, input );
				if ( result.ok ) {
					accepted.push( name );
				} else if ( result.message.includes( fixture.secret ) || result.message.length === 0 ) {
					leaked.push( name );
				}
			} catch ( error ) {
				threw.push( `${ name }: ${ String( error ) }` );
			}
		}
		expect( count ).toBeGreaterThanOrEqual( 300 );
		expect( { accepted, threw, leaked } ).toEqual( { accepted: [], threw: [], leaked: [] } );
	} );
} );
