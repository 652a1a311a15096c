/**
 * What every scheme's unit test shares: how a request is built, and the cases every
 * scheme owes the same answer to (schemeCases).
 */
import { verifyInbound, type InboundScheme, type VerifyInput } from '../../../sidecar/src/inbound/verify';

/** The clock every scheme's test verifies at (2023-11-14T22:13:20Z). */
export const NOW = 1_700_000_000;

export type RequestBuilder = (
	overrides?: Partial< VerifyInput >,
	headers?: Record< string, string | undefined >
) => VerifyInput;

/**
 * Requests for one scheme: `body` with the headers `signed()` gives, verified with `secret` at
 * NOW with a 300 s tolerance; then these fields and headers changed (undefined: the header is absent).
 */
export function requestBuilder( body: string, secret: string, signed: () => Record< string, string > ): RequestBuilder {
	return ( overrides = {}, headers = {} ) => ( {
		rawBody: Buffer.from( body ),
		headers: { ...signed(), ...headers },
		secrets: [ secret ],
		toleranceSeconds: 300,
		nowSeconds: NOW,
		...overrides,
	} );
}

/**
 * The cases every signature scheme owes the same answer to, whatever its header looks
 * like: exact bytes, rotation, and the refusals for a missing, malformed, duplicated or
 * wrong signature. Each scheme's test calls this inside its own describe, with a request
 * its provider's own recipe signed, and keeps only the cases that are its own.
 */
export interface SchemeUnderTest {
	scheme: InboundScheme;
	/** A request the scheme accepts, signed with `secret`, with these fields changed. */
	request: ( overrides?: Partial< VerifyInput > ) => VerifyInput;
	signatureHeader: string;
	secret: string;
	/** A secret that did not sign the request. */
	otherSecret: string;
	/** The signed body's JSON written with other whitespace. */
	respelled: string[];
	/** The signed body with one value changed. */
	tampered: string;
	/** Values of the signature header the scheme refuses as malformed_signature. */
	malformed: string[];
}

export function schemeCases( subject: SchemeUnderTest ): void {
	const verify = ( overrides: Partial< VerifyInput > = {} ) =>
		verifyInbound( subject.scheme, subject.request( overrides ) );
	const withSignature = ( value: string | undefined ) => {
		const input = subject.request();
		return verifyInbound( subject.scheme, {
			...input,
			headers: { ...input.headers, [ subject.signatureHeader ]: value },
		} );
	};

	test( 'refuses the same JSON re-serialized with different whitespace', () => {
		for ( const body of subject.respelled ) {
			expect( verify( { rawBody: Buffer.from( body ) } ) ).toMatchObject( {
				ok: false,
				code: 'invalid_signature',
			} );
		}
	} );

	test( 'rotation: passes when the second configured secret signed it', () => {
		expect( verify( { secrets: [ subject.otherSecret, subject.secret ] } ).ok ).toBe( true );
	} );

	describe( 'failures', () => {
		test( 'missing header is missing_signature', () => {
			expect( withSignature( undefined ) ).toMatchObject( { ok: false, code: 'missing_signature' } );
		} );

		test.each( subject.malformed )( '%j is malformed_signature', ( value ) => {
			expect( withSignature( value ) ).toMatchObject( { ok: false, code: 'malformed_signature' } );
		} );

		test( 'a duplicated header joined by the HTTP layer is malformed, not silently accepted', () => {
			const signature = subject.request().headers[ subject.signatureHeader ] as string;
			for ( const joined of [ `${ signature },${ signature }`, `${ signature }, ${ signature }` ] ) {
				expect( withSignature( joined ) ).toMatchObject( { ok: false, code: 'malformed_signature' } );
			}
		} );

		test( 'wrong secret is invalid_signature', () => {
			expect( verify( { secrets: [ subject.otherSecret ] } ) ).toMatchObject( {
				ok: false,
				code: 'invalid_signature',
			} );
		} );

		test( 'tampered body is invalid_signature', () => {
			expect( verify( { rawBody: Buffer.from( subject.tampered ) } ) ).toMatchObject( {
				ok: false,
				code: 'invalid_signature',
			} );
		} );

		test( 'empty secrets list is refused', () => {
			expect( verify( { secrets: [] } ) ).toMatchObject( { ok: false, code: 'invalid_signature' } );
		} );

		test( 'failure messages never contain the secret', () => {
			const result = verify( { rawBody: Buffer.from( 'x' ) } );
			expect( result.ok ).toBe( false );
			expect( JSON.stringify( result ) ).not.toContain( subject.secret );
		} );
	} );
}
