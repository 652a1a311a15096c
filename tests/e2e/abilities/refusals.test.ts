import { adminClient, anonymousClient } from '../support/clients';
import { withPluginActive } from '../support/plugins';
import { provisionServiceAccount, type ServiceAccount } from '../support/service-account';
import type { RestError } from '../../../scripts/lib/rest-client';
import { ABILITIES, GET_MANUFACTURING_ORDER, LIST_PAID_ORDERS, runAbility, transcript } from './abilities';

/**
 * Least privilege holds on the Abilities API: the service account lists and runs the plugin's
 * abilities and nothing else, core's included (one needs manage_options, one only a signed-in
 * user), whatever a widening plugin does.
 */
describe( 'abilities the service account may not run', () => {
	let account: ServiceAccount;

	beforeAll( async () => {
		account = await provisionServiceAccount( 'abilities-refusals' );
	} );

	async function expectForbidden( path: string, method = 'GET' ): Promise< void > {
		const result = await account.client.request< RestError >( { method, path } );
		transcript( method, path, undefined, result );
		expect( [ result.status, result.body.code ] ).toEqual( [ 403, 'rest_forbidden' ] );
	}

	it( 'refuses core’s abilities, to run or to describe, and the categories, with rest_forbidden', async () => {
		await expectForbidden( `${ ABILITIES }/core/get-site-info/run` );
		await expectForbidden( `${ ABILITIES }/core/get-user-info/run` );
		await expectForbidden( `${ ABILITIES }/core/get-environment-info/run` );
		await expectForbidden( `${ ABILITIES }/core/get-site-info` );
		await expectForbidden( '/wp-abilities/v1/categories' );
		await expectForbidden( '/wp-abilities/v1' );
		// An ability name the allow-list must not take for one of the plugin's.
		await expectForbidden( `${ ABILITIES }/service-integration/list-paid-orders-and-more/run` );
	} );

	it( 'refuses the plugin’s abilities to whoever lacks the route’s capability', async () => {
		const anonymous = await runAbility< RestError >( anonymousClient(), LIST_PAID_ORDERS, {}, 'GET', '' );
		expect( anonymous.status ).toBe( 401 );
		// The administrator holds no lire_commandes_payees, as on the REST route.
		const admin = await runAbility< RestError >( adminClient(), LIST_PAID_ORDERS, {}, 'GET', '-u "$ADMIN"' );
		expect( [ admin.status, admin.body.code ] ).toEqual( [ 403, 'rest_forbidden' ] );
		const rest = await adminClient().get< RestError >( '/service-integration/v1/commandes-payees' );
		expect( [ rest.status, rest.body.code ] ).toEqual( [ 403, 'rest_forbidden' ] );
	} );

	it( 'still refuses core’s abilities while a plugin widens the role', async () => {
		await withPluginActive( 'role-widener-filter/role-widener-filter', async () => {
			await expectForbidden( `${ ABILITIES }/core/get-site-info/run` );
			await expectForbidden( `${ ABILITIES }/core/get-user-info/run` );
			const listed = await account.client.get< Array< { name: string } > >( `${ ABILITIES }?per_page=100` );
			expect( listed.body.every( ( ability ) => ability.name.startsWith( 'service-integration/' ) ) ).toBe(
				true
			);
		} );
		await adminClient().request( { method: 'DELETE', path: '/service-integration/v1/service-account/widening' } );
	} );

	it( 'refuses core’s abilities by the ability lock when a plugin opens their route', async () => {
		await withPluginActive( 'allowed-routes-widener/allowed-routes-widener', async () => {
			// The route is open now; the Abilities API's permission filter still refuses.
			await expectForbidden( `${ ABILITIES }/core/get-site-info/run` );
			await expectForbidden( `${ ABILITIES }/core/get-user-info/run` );
			// The plugin's own abilities keep working.
			const own = await runAbility< RestError >( account.client, GET_MANUFACTURING_ORDER, { id: 987654321 } );
			expect( own.body.code ).toBe( 'rest_post_invalid_id' );
		} );
	} );

	it( 'is part of the least-privilege check a site owner runs', async () => {
		const report = await adminClient().post< {
			passed: boolean;
			results: Array< { method: string; route: string; expected: string; status: number; code: string | null } >;
		} >( '/service-integration/v1/service-account/check' );
		expect( report.body.passed ).toBe( true );
		const abilities = report.body.results
			.filter( ( result ) => result.route.startsWith( '/wp-abilities/' ) )
			.map( ( r ) => `${ r.method } ${ r.route } ${ r.expected } ${ r.status } ${ r.code ?? '' }`.trim() );
		expect( abilities ).toEqual( [
			'GET /wp-abilities/v1/abilities allowed 200',
			'GET /wp-abilities/v1/abilities/core/get-site-info/run refused 403 rest_forbidden',
			'GET /wp-abilities/v1/abilities/core/get-user-info/run refused 403 rest_forbidden',
		] );
	} );
} );
