import crypto from 'crypto';
import {
	findPersonalFields,
	isRedactionMarker,
	nameValues,
	redactJson,
	redactText,
	redactionMarker,
} from '../../../sidecar/src/privacy/personal-data';

const sha = ( value: string ) => crypto.createHash( 'sha256' ).update( value ).digest( 'hex' );

const ORDER = {
	type: 'order.paid',
	timestamp: '2026-01-01T00:00:00Z',
	data: {
		order_id: 42,
		billing: {
			first_name: 'Ada',
			last_name: 'Lovelace',
			email: 'Ada@Example.com',
			phone: '+44 1',
			city: 'London',
			country: 'GB',
		},
		shipping: { first_name: 'Ada', last_name: 'Lovelace', city: 'London' },
		note: 'call ada@example.com first',
		items: [ { sku: 'X', quantity: 1 } ],
	},
};

describe( 'personal data in stored JSON', () => {
	it( 'marks a value with the SHA-256 of its lowercased, trimmed text, so equal values compare equal', () => {
		expect( redactionMarker( ' Ada@Example.com ' ) ).toBe( `redacted:sha256:${ sha( 'ada@example.com' ) }` );
		expect( redactionMarker( 'ADA@example.com' ) ).toBe( redactionMarker( 'ada@example.com' ) );
		expect( isRedactionMarker( redactionMarker( 'x' ) ) ).toBe( true );
		expect( isRedactionMarker( 'redacted:sha256:nothex' ) ).toBe( false );
	} );

	it( 'finds the name and email of the objects holding the email, case-insensitively, and nothing for a longer address', () => {
		expect( findPersonalFields( ORDER, 'ADA@example.COM' ) ).toEqual( [
			{ name: 'Ada Lovelace', email: 'Ada@Example.com', phone: '+44 1' },
		] );
		expect( findPersonalFields( ORDER, 'da@example.com' ) ).toEqual( [] );
		expect( findPersonalFields( { customer: { name: 'Bob', email: 'bob@x.io' } }, 'bob@x.io' ) ).toEqual( [
			{ name: 'Bob', email: 'bob@x.io' },
		] );
		expect( findPersonalFields( [ 'bob@x.io' ], 'bob@x.io' ) ).toEqual( [] ); // a bare string is no object with fields
		expect( nameValues( ORDER, 'ada@example.com' ) ).toEqual( [ 'Ada', 'Lovelace' ] );
	} );

	it( 'replaces the personal fields of the object holding the email and the email anywhere; ids and other values stay', () => {
		const { value, replaced } = redactJson( ORDER, 'ada@example.com' );
		const data = ( value as typeof ORDER ).data;
		expect( data.order_id ).toBe( 42 );
		expect( data.items ).toEqual( ORDER.data.items );
		expect( data.billing ).toEqual( {
			first_name: redactionMarker( 'Ada' ),
			last_name: redactionMarker( 'Lovelace' ),
			email: redactionMarker( 'ada@example.com' ),
			phone: redactionMarker( '+44 1' ),
			city: redactionMarker( 'London' ),
			country: 'GB',
		} );
		expect( data.note ).toBe( `call ${ redactionMarker( 'ada@example.com' ) } first` );
		expect( JSON.stringify( value ).toLowerCase() ).not.toContain( 'ada@example.com' );
		expect( replaced ).toEqual( expect.arrayContaining( [ 'Ada', 'Lovelace', 'Ada@Example.com' ] ) );
		// Idempotent: nothing left to find, a second pass changes nothing.
		expect( findPersonalFields( value, 'ada@example.com' ) ).toEqual( [] );
		expect( redactJson( value, 'ada@example.com' ).value ).toEqual( value );
	} );

	it( 'redacts values inside free text (response excerpts), case-insensitively, longest first', () => {
		expect(
			redactText( 'unknown customer ADA@example.com (Ada Lovelace)', [
				'ada@example.com',
				'Ada Lovelace',
				'Ada',
			] )
		).toBe( `unknown customer ${ redactionMarker( 'ada@example.com' ) } (${ redactionMarker( 'Ada Lovelace' ) })` );
		expect( redactText( 'nothing here', [ 'ada@example.com' ] ) ).toBe( 'nothing here' );
	} );
} );
