import { debugLogMark, phpProblemsSince } from '../support/debug-log';
import { withPluginActive } from '../support/plugins';
import { provisionServiceAccount, type ServiceAccount } from '../support/service-account';

const ROUTE = '/wp/v2/commandes-fabrication';

/**
 * Site code adds fields with the service_integration_manufacturing_order_fields filter
 * (here a fixture plugin: `workshop` written without a `type`, `batch_size` an integer).
 * The automation sets them at creation in the same request, and nothing warns.
 */
describe( 'fields added by site code', () => {
	let account: ServiceAccount;

	beforeAll( async () => {
		account = await provisionServiceAccount( 'extra-fields' );
	} );

	it( 'are set at creation in one request; a field without a type is a string; no PHP warning', async () => {
		const mark = debugLogMark();
		await withPluginActive( 'manufacturing-extra-field/manufacturing-extra-field', async () => {
			const created = await account.client.post< { id: number; meta: Record< string, unknown > } >( ROUTE, {
				title: 'Order 77',
				status: 'publish',
				meta: { source_order_id: 77, workshop: 'Lyon', batch_size: 12 },
			} );
			expect( created.status ).toBe( 201 );
			expect( created.body.meta ).toMatchObject( { source_order_id: 77, workshop: 'Lyon', batch_size: 12 } );

			const read = await account.client.get< { meta: Record< string, unknown > } >(
				`${ ROUTE }/${ created.body.id }`
			);
			expect( read.body.meta ).toMatchObject( { workshop: 'Lyon', batch_size: 12 } );

			// The site's own rules hold too, before anything is written.
			const invalid = await account.client.post< { code: string; message: string } >( ROUTE, {
				title: 'Bad batch',
				meta: { batch_size: 0 },
			} );
			expect( [ invalid.status, invalid.body.code ] ).toEqual( [ 400, 'rest_out_of_bounds' ] );
			expect( invalid.body.message ).toContain( 'meta.batch_size' );

			const schema = await account.client.request< {
				schema: { properties: { meta: { properties: Record< string, { type: string } > } } };
			} >( { method: 'OPTIONS', path: ROUTE } );
			expect( schema.body.schema.properties.meta.properties.workshop?.type ).toBe( 'string' );
		} );
		expect( phpProblemsSince( mark ) ).toEqual( [] );
	} );
} );
