import { maskSecret } from '../../../sidecar/src/secret-mask';
import { generateSecret } from '../../../sidecar/src/outbound/signing';
import { generateSourceSecret } from '../../../sidecar/src/inbound/source-secrets';

/** One mask for every secret the sidecar shows: outbound endpoints' and inbound sources'. */
describe( 'maskSecret', () => {
	it( 'shows the prefix and the last 4 characters only', () => {
		expect( maskSecret( 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' ) ).toBe( 'whsec_…LaSw' );
		expect( maskSecret( '0123456789abcdef0123' ) ).toBe( '…0123' );
		// A non-whsec secret (GitHub, Shopify, WooCommerce) gets no invented prefix.
		expect( maskSecret( 'plain-woo-secret-value-1234' ) ).toBe( '…1234' );
	} );

	it( 'reveals nothing of a short secret', () => {
		expect( maskSecret( 'whsec_short' ) ).toBe( 'whsec_…' );
		expect( maskSecret( 'tiny' ) ).toBe( '…' );
		expect( maskSecret( '' ) ).toBe( '…' );
	} );

	it( 'gives an endpoint secret and a source secret the same shape', () => {
		const shape = /^whsec_…[A-Za-z0-9+/=]{4}$/;
		const outbound = generateSecret();
		const inbound = generateSourceSecret( 'standard-webhooks' );
		expect( maskSecret( outbound ) ).toMatch( shape );
		expect( maskSecret( inbound ) ).toMatch( shape );
		expect( maskSecret( outbound ) ).not.toContain( outbound.slice( 6, -4 ) );
	} );
} );
