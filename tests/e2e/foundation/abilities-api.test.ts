import { adminClient } from '../support/clients';
import { debugLogMark, phpProblemsSince } from '../support/debug-log';
import { readState } from '../support/environment';

/** Whether a WordPress version has the Abilities API (6.9 and later). */
function hasAbilitiesApi( version: string ): boolean {
	const [ major = 0, minor = 0 ] = version.split( '.' ).map( Number );
	return major > 6 || ( major === 6 && minor >= 9 );
}

/**
 * The plugin registers its abilities where WordPress has the Abilities API (6.9+); before, it
 * registers nothing, adds no route and logs no PHP problem.
 */
describe( 'the Abilities API and the plugin’s abilities', () => {
	const { wordpressVersion } = readState();

	it( `${ hasAbilitiesApi( wordpressVersion ) ? 'are' : 'are absent' } on WordPress ${ wordpressVersion }, without a PHP problem`, async () => {
		const mark = debugLogMark();
		const index = await adminClient().get< { namespaces: string[] } >( '/' );
		const listing = await adminClient().get< Array< { name: string } > | { code: string } >(
			'/wp-abilities/v1/abilities?per_page=100'
		);
		if ( hasAbilitiesApi( wordpressVersion ) ) {
			expect( index.body.namespaces ).toContain( 'wp-abilities/v1' );
			expect( ( listing.body as Array< { name: string } > ).map( ( ability ) => ability.name ) ).toEqual(
				expect.arrayContaining( [
					'service-integration/list-paid-orders',
					'service-integration/create-manufacturing-order',
					'service-integration/get-manufacturing-order',
				] )
			);
		} else {
			expect( index.body.namespaces ).not.toContain( 'wp-abilities/v1' );
			expect( [ listing.status, ( listing.body as { code: string } ).code ] ).toEqual( [ 404, 'rest_no_route' ] );
		}
		expect( phpProblemsSince( mark ) ).toEqual( [] );
	} );
} );
