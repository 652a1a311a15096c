import { adminClient } from '../support/clients';
import { commerce } from '../support/commerce';
import { withPluginActive } from '../support/plugins';
import { startSidecar, stopSidecar } from '../support/sidecar-control';
import { wp } from './run-wp';

const ROOT = '/service-integration/v1';

/**
 * A field/value table's value for a field: WP-CLI draws the table's borders on a terminal and
 * prints tab-separated rows otherwise (as here).
 */
function tableValue( stdout: string, field: string ): string | undefined {
	return new RegExp( `^\\|?\\s*${ field }(?:\\s*\\|\\s*|\\t)(.*?)\\s*\\|?$`, 'm' ).exec( stdout )?.[ 1 ];
}

describe( 'wp service-integration outbox, sidecar and paid-orders index (WP-CLI)', () => {
	it( 'lists the commands in help', async () => {
		expect( ( await wp( 'help', 'service-integration', 'outbox' ) ).stdout ).toMatch(
			/^\s+hand-over\s[\s\S]*^\s+status\s/m
		);
		expect( ( await wp( 'help', 'service-integration', 'sidecar' ) ).stdout ).toMatch( /^\s+status\s/m );
		expect( ( await wp( 'help', 'service-integration', 'paid-orders', 'index' ) ).stdout ).toMatch(
			/^\s+rebuild\s[\s\S]*^\s+status\s/m
		);
		expect( ( await wp( 'help', 'service-integration', 'paid-orders', 'index', 'rebuild' ) ).stdout ).toContain(
			'--[no-]keep-serving'
		);
	} );

	it( "outbox status: the REST route's answer, as JSON or a field/value table", async () => {
		// Events an earlier test left pending would be handed over by cron between the two reads.
		expect( ( await wp( 'service-integration', 'outbox', 'hand-over' ) ).status ).toBe( 0 );
		const json = await wp( 'service-integration', 'outbox', 'status', '--format=json' );
		const rest = await adminClient().get< Record< string, unknown > >( `${ ROOT }/webhooks/outbox` );
		// One object, as the route answers (as `wp post get --format=json` prints one post).
		expect( JSON.parse( json.stdout ) ).toEqual( rest.body );
		const table = await wp( 'service-integration', 'outbox', 'status' );
		expect( tableValue( table.stdout, 'pending' ) ).toMatch( /^\d+$/ );
		expect( tableValue( table.stdout, 'rejected' ) ).toMatch( /^\d+$/ );
		const yaml = await wp( 'service-integration', 'outbox', 'status', '--format=yaml' );
		expect( yaml.stdout ).toMatch( /pending: \d+/ );
	} );

	it( 'outbox hand-over: hands pending events over now and says how many went now, not the outbox’s total; the alias flush works too', async () => {
		// An order event handed over, so the outbox's total of handed-over events is at least 1.
		const [ product ] = await commerce().createProducts( [
			{ name: 'CLI hand-over', sku: `cli-hand-over-${ Date.now() }`, price: '5.00' },
		] );
		await commerce().createOrders( [
			{ status: 'pending', line_items: [ { product_id: product!.id, quantity: 1 } ] },
		] );
		const handed = await wp( 'service-integration', 'outbox', 'hand-over' );
		expect( handed ).toMatchObject( { status: 0, stderr: '' } );
		expect( handed.stdout ).toMatch(
			/^Success: Handed over now: \d+, parked as refused now: \d+, still pending: 0\.$/m
		);

		// Nothing is pending now: this hand-over moves nothing, whatever the outbox has kept.
		const again = await wp( 'service-integration', 'outbox', 'hand-over' );
		expect( again.stdout ).toMatch(
			/^Success: Handed over now: 0, parked as refused now: 0, still pending: 0\.$/m
		);
		expect( Number( tableValue( again.stdout, 'handed_over' ) ) ).toBeGreaterThanOrEqual( 1 );
		const json = await wp( 'service-integration', 'outbox', 'flush', '--format=json' );
		const answer = JSON.parse( json.stdout ) as Record< string, unknown >;
		expect( answer ).toMatchObject( { error: null, pending: 0, handed_over_now: 0, rejected_now: 0 } );
		expect( answer.handed_over ).toEqual( expect.any( Number ) );
		expect( answer.handed_over as number ).toBeGreaterThanOrEqual( 1 );
	} );

	it( 'sidecar status: reachable, with the version the REST route reports; exit code 1 while it is down', async () => {
		const json = await wp( 'service-integration', 'sidecar', 'status', '--format=json' );
		const rest = await adminClient().get< Record< string, unknown > >( `${ ROOT }/sidecar/status` );
		const status = JSON.parse( json.stdout ) as Record< string, unknown >;
		expect( Object.keys( status ).sort() ).toEqual( Object.keys( rest.body ).sort() );
		expect( status ).toMatchObject( { reachable: true, version: rest.body.version, url: rest.body.url } );
		expect( tableValue( ( await wp( 'service-integration', 'sidecar', 'status' ) ).stdout, 'reachable' ) ).toBe(
			'true'
		);

		await stopSidecar();
		try {
			const down = await wp( 'service-integration', 'sidecar', 'status' );
			expect( down.status ).toBe( 1 );
			expect( down.stderr ).toMatch( /^Error: .+\(sidecar_\w+, HTTP 5\d\d\)/ );
			const handOver = await wp( 'service-integration', 'outbox', 'hand-over' );
			// Nothing may be pending (success), or the sidecar's failure is named with exit code 1.
			expect( [ 0, 1 ] ).toContain( handOver.status );
		} finally {
			await startSidecar();
		}
	} );

	it( "paid-orders index status and rebuild: the REST route's answers; the rebuild starts a walk", async () => {
		// A walk left running by an earlier test would move the state between the reads compared
		// here (Action Scheduler runs it in the background): it is run to its end first.
		await withPluginActive( 'paid-index-probe/paid-index-probe', async () => {
			const walked = await adminClient().post< { state: { ready: boolean; walk: number | null } } >(
				'/paid-index-probe/v1/walk',
				{}
			);
			expect( walked.body.state ).toMatchObject( { ready: true, walk: null } );
		} );
		const json = await wp( 'service-integration', 'paid-orders', 'index', 'status', '--format=json' );
		const rest = await adminClient().get< Record< string, unknown > >( `${ ROOT }/paid-orders/index` );
		expect( JSON.parse( json.stdout ) ).toEqual( rest.body );
		expect( rest.body ).toMatchObject( { commerce_available: true, rows: expect.any( Number ) } );

		const rebuilt = await wp( 'service-integration', 'paid-orders', 'index', 'rebuild' );
		expect( rebuilt ).toMatchObject( { status: 0, stderr: '' } );
		expect( rebuilt.stdout ).toMatch( /^Success: The walk of every order has started/m );
		expect( tableValue( rebuilt.stdout, 'generation' ) ).toBe( String( Number( rest.body.generation ) + 1 ) );
		// Kept serving by default: a ready index stays ready during the walk.
		expect( rest.body.serving ).toBe( true );
		expect( tableValue( rebuilt.stdout, 'serving' ) ).toBe( 'true' );

		const refused = await adminClient().post< { code: string } >( `${ ROOT }/paid-orders/index/rebuild`, {
			keep_serving: 'perhaps',
		} );
		expect( [ refused.status, refused.body.code ] ).toEqual( [ 400, 'rest_invalid_param' ] );
	} );

	it( 'refuses a user who is not an administrator', async () => {
		for ( const command of [
			[ 'outbox', 'status' ],
			[ 'sidecar', 'status' ],
			[ 'paid-orders', 'index', 'status' ],
		] ) {
			const result = await wp( 'service-integration', ...command, '--no-user' );
			expect( result ).toMatchObject( { status: 1, stderr: expect.stringContaining( '--user=<login>' ) } );
		}
	} );
} );
