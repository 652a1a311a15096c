import { adminClient } from '../support/clients';
import { commerce, type CommerceOrder, type Product } from '../support/commerce';
import { listPaid, type PaidOrder } from '../support/paid-orders';
import { expectedFromStore } from '../../support/paid-order-shape';
import { setPluginActive, withPluginActive } from '../support/plugins';
import { provisionServiceAccount, type ServiceAccount } from '../support/service-account';

/**
 * The paid-orders index records what it was built from (WooCommerce, its order storage): a site
 * whose commerce setup changes reads other orders, and the index must not serve the rows of
 * orders the store no longer has. A test plugin makes WooCommerce run the other order storage
 * (posts on an HPOS site, HPOS on a posts site), where the orders created before are not paid
 * orders (HPOS leaves placeholder posts, which the posts storage reads as empty drafts).
 */
describe( 'paid-orders endpoint: the order storage changes under the index', () => {
	const driver = commerce();
	const run = Date.now().toString( 36 );
	const FLIP = 'order-storage-flip/order-storage-flip';
	const PROBE = 'paid-index-probe/paid-index-probe';
	let account: ServiceAccount;
	let product: Product;

	interface ProbeState {
		state: { ready: boolean; walk: number | null; generation: number; source: Record< string, string > };
	}

	beforeAll( async () => {
		account = await provisionServiceAccount( 'paid-orders-storage' );
		[ product ] = ( await driver.createProducts( [
			{ name: 'Storage bench', sku: `BENCH-${ run }`, price: '80.00' },
		] ) ) as [ Product ];
	} );

	/** Every paid order the endpoint serves, in id order (plain listing), and through the sync order. */
	async function served(): Promise< { plain: PaidOrder[]; sync: number[] } > {
		const plain: PaidOrder[] = [];
		for ( let page = 1; ; page++ ) {
			const result = await listPaid( account.client, { orderby: 'id', order: 'asc', per_page: 100, page } );
			expect( result.status ).toBe( 200 );
			plain.push( ...result.body );
			if ( result.body.length < 100 ) {
				break;
			}
		}
		const sync = await listPaid( account.client, {
			orderby: 'date_paid',
			paid_after: '2001-09-09T01:46:40Z',
			per_page: 100,
			_fields: 'id',
		} );
		expect( sync.status ).toBe( 200 );
		return { plain, sync: sync.body.map( ( order ) => order.id ) };
	}

	/** Every paid order the store has, as the endpoint should show it, in id order. */
	async function storeHas(): Promise< PaidOrder[] > {
		const orders: CommerceOrder[] = await driver.listOrders( { status: 'processing,completed' } );
		return orders.map( expectedFromStore ).sort( ( a, b ) => a.id - b.id );
	}

	async function probe(): Promise< ProbeState > {
		return ( await adminClient().get< ProbeState >( '/paid-index-probe/v1/state' ) ).body;
	}

	async function walk(): Promise< ProbeState > {
		const walked = await adminClient().post< ProbeState >( '/paid-index-probe/v1/walk', {} );
		expect( walked.status ).toBe( 200 );
		return walked.body;
	}

	it( 'serves none of the orders the storage it now reads does not have, and what the store has once walked', async () => {
		const before = await driver.createOrders(
			[ 1, 2 ].map( ( quantity ) => ( {
				status: 'processing' as const,
				billing: { first_name: 'Old', last_name: 'Storage', email: `old-${ run }-${ quantity }@example.com` },
				line_items: [ { product_id: product.id, quantity } ],
			} ) )
		);
		const built = await withPluginActive( PROBE, async () => ( await walk() ).state );
		expect( built.ready ).toBe( true );
		const servedBefore = await served();
		expect( servedBefore.plain.map( ( order ) => order.id ) ).toEqual( expect.arrayContaining( before ) );

		await setPluginActive( FLIP, true );
		try {
			await withPluginActive( PROBE, async () => {
				const [ other ] = await driver.createOrders( [
					{
						status: 'processing',
						billing: { first_name: 'New', last_name: 'Storage', email: `new-${ run }@example.com` },
						line_items: [ { product_id: product.id, quantity: 3 } ],
					},
				] );

				// Before any walk: the index was built from the other storage, so WooCommerce serves.
				const now = await served();
				const store = await storeHas();
				// WooCommerce reads the earlier orders' ids as empty drafts (HPOS's placeholder posts) or not at all.
				expect( store.map( ( order ) => order.id ) ).toContain( other );
				expect( store.some( ( order ) => before.includes( order.id ) ) ).toBe( false );
				expect( now.plain.some( ( order ) => before.includes( order.id ) ) ).toBe( false );
				expect( now.plain ).toEqual( store );
				expect( now.sync.some( ( id ) => before.includes( id ) ) ).toBe( false );
				// A new walk, for the storage read now (Action Scheduler may already be running or
				// have finished it: the answers above are what show nothing stale was served).
				const restarted = ( await probe() ).state;
				expect( restarted.generation ).toBeGreaterThan( built.generation );
				expect( restarted.source.storage ).toBeDefined();
				expect( restarted.source.storage ).not.toBe( built.source.storage );

				// Once walked: served from the index, the rows of the other storage's orders swept.
				expect( ( await walk() ).state ).toEqual( expect.objectContaining( { ready: true, walk: null } ) );
				const rows = await adminClient().get< Array< { order_id: number } > >(
					`/paid-index-probe/v1/rows?ids[]=${ before[ 0 ] }&ids[]=${ before[ 1 ] }&ids[]=${ other }`
				);
				expect( rows.body.map( ( row ) => row.order_id ) ).toEqual( [ other ] );
				const walked = await served();
				expect( walked.plain ).toEqual( await storeHas() );
				expect( walked.sync.some( ( id ) => before.includes( id ) ) ).toBe( false );
			} );
		} finally {
			await setPluginActive( FLIP, false );
			// Back on the site's own storage: walked again for the tests after this one.
			await withPluginActive( PROBE, async () => {
				await served();
				await walk();
			} );
		}
		const back = await served();
		expect( back.plain.map( ( order ) => order.id ) ).toEqual( expect.arrayContaining( before ) );
		expect( back.plain.map( ( order ) => order.id ) ).toEqual( servedBefore.plain.map( ( order ) => order.id ) );
	} );
} );
