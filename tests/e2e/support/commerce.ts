import { adminClient } from './clients';
import { readState } from './environment';
import type { RestClient, RestResult } from '../../../scripts/lib/rest-client';
import { sleep } from '../../support/wait-until';

/**
 * The commerce side of the tests, written once against two implementations:
 * - `fixture`: the WooCommerce-compatible TEST FIXTURE's driver routes (`wc-fixture/v1`);
 * - `woocommerce`: a real WooCommerce (`WOOCOMMERCE_DIR`), through its own `/wc/v3` REST API
 *   with the administrator's application password.
 * The suite picks the one global setup mounted (`readState().commerce`).
 */
export type OrderStatus = 'pending' | 'processing' | 'on-hold' | 'completed' | 'cancelled' | 'refunded' | 'failed';

export interface ProductInput {
	name: string;
	sku: string;
	price: string;
}

export interface Product {
	id: number;
	sku: string;
	name: string;
}

export interface Address {
	first_name?: string;
	last_name?: string;
	email?: string;
	address_1?: string;
	city?: string;
	postcode?: string;
	country?: string;
}

export interface OrderInput {
	status: OrderStatus;
	/** As in WooCommerce's REST create: payment_complete() once the order is saved. */
	set_paid?: boolean;
	billing?: Address;
	line_items: Array< { product_id: number; quantity: number } >;
}

/** An order as the commerce system's own REST API shows it (the /wc/v3 shape). */
export type CommerceOrder = Record< string, unknown > & { id: number; status: string; date_modified_gmt: string };

export interface CommerceDriver {
	readonly kind: 'fixture' | 'woocommerce';
	/** The plugin as the /wp/v2/plugins route names it. */
	readonly plugin: string;
	/** Whether pay() can fix the payment time (the fixture can; WooCommerce's REST API cannot). */
	readonly canSetPaymentTime: boolean;
	createProducts: ( products: ProductInput[] ) => Promise< Product[] >;
	/** Creates orders (processing/completed ones are paid at creation, as WooCommerce does). */
	createOrders: ( orders: OrderInput[] ) => Promise< number[] >;
	/**
	 * Creates many orders fast: the fixture writes them in bulk without hooks, as an import that
	 * writes the store's tables does; WooCommerce creates them through its REST batch route.
	 */
	importOrders: ( orders: OrderInput[] ) => Promise< number[] >;
	/** payment_complete() on each order; `paidAt` (fixture only) is the payment time to record. */
	pay: ( ids: number[], paidAt?: Date ) => Promise< void >;
	setStatus: ( id: number, status: OrderStatus ) => Promise< void >;
	/** Changes an order's billing address and saves the order. */
	setBilling: ( id: number, billing: Address ) => Promise< void >;
	/** Changes a product's SKU. */
	setSku: ( productId: number, sku: string ) => Promise< void >;
	refund: ( id: number, amount: string ) => Promise< void >;
	getOrder: ( id: number ) => Promise< CommerceOrder >;
	/** One refund as the store's REST API shows it (/wc/v3/orders/<id>/refunds/<refund id>). */
	getRefund: ( orderId: number, refundId: number ) => Promise< { id: number; amount: string; reason: string } >;
	/** Another identity's attempt to change an order through the commerce system's own routes. */
	attemptStatusChange: ( client: RestClient, id: number, status: OrderStatus ) => Promise< RestResult >;
	/** Plugins that declared compatibility with custom order tables, or null when not observable. */
	hposCompatiblePlugins: () => Promise< string[] | null >;
}

function ensure< T >( result: RestResult< T >, what: string, statuses = [ 200, 201 ] ): T {
	if ( ! statuses.includes( result.status ) ) {
		throw new Error(
			`${ what } failed: HTTP ${ result.status } ${ JSON.stringify( result.body ).slice( 0, 500 ) }`
		);
	}
	return result.body;
}

function chunks< T >( items: T[], size: number ): T[][] {
	const out: T[][] = [];
	for ( let i = 0; i < items.length; i += size ) {
		out.push( items.slice( i, i + size ) );
	}
	return out;
}

class FixtureDriver implements CommerceDriver {
	readonly kind = 'fixture' as const;
	readonly plugin = 'woocommerce-fixture/woocommerce-fixture';
	readonly canSetPaymentTime = true;

	async createProducts( products: ProductInput[] ): Promise< Product[] > {
		return ensure(
			await adminClient().post< { products: Product[] } >( '/wc-fixture/v1/products', { products } ),
			'Creating products'
		).products;
	}

	async createOrders( orders: OrderInput[] ): Promise< number[] > {
		return ensure(
			await adminClient().post< { ids: number[] } >( '/wc-fixture/v1/orders', { orders } ),
			'Creating orders'
		).ids;
	}

	async importOrders( orders: OrderInput[] ): Promise< number[] > {
		return ensure(
			await adminClient().post< { ids: number[] } >( '/wc-fixture/v1/orders', { orders, hooks: false } ),
			'Importing orders'
		).ids;
	}

	async pay( ids: number[], paidAt?: Date ): Promise< void > {
		const body = paidAt ? { ids, date_paid: paidAt.toISOString().replace( /\.\d{3}Z$/, 'Z' ) } : { ids };
		ensure( await adminClient().post( '/wc-fixture/v1/orders/pay', body ), 'Paying orders' );
	}

	async setStatus( id: number, status: OrderStatus ): Promise< void > {
		ensure( await adminClient().post( `/wc-fixture/v1/orders/${ id }/status`, { status } ), 'Changing a status' );
	}

	async setBilling( id: number, billing: Address ): Promise< void > {
		ensure(
			await adminClient().post( `/wc-fixture/v1/orders/${ id }/billing`, { billing } ),
			'Changing a billing address'
		);
	}

	async setSku( productId: number, sku: string ): Promise< void > {
		ensure( await adminClient().post( `/wc-fixture/v1/products/${ productId }/sku`, { sku } ), 'Changing a SKU' );
	}

	async refund( id: number, amount: string ): Promise< void > {
		ensure(
			await adminClient().post( `/wc-fixture/v1/orders/${ id }/refund`, { amount: Number( amount ) } ),
			'Refunding'
		);
	}

	async getOrder( id: number ): Promise< CommerceOrder > {
		return ensure(
			await adminClient().get< CommerceOrder >( `/wc-fixture/v1/orders/${ id }` ),
			'Reading an order'
		);
	}

	async getRefund( orderId: number, refundId: number ): Promise< { id: number; amount: string; reason: string } > {
		return ensure(
			await adminClient().get< { id: number; amount: string; reason: string } >(
				`/wc-fixture/v1/orders/${ orderId }/refunds/${ refundId }`
			),
			'Reading a refund'
		);
	}

	attemptStatusChange( client: RestClient, id: number, status: OrderStatus ): Promise< RestResult > {
		return client.post( `/wc-fixture/v1/orders/${ id }/status`, { status } );
	}

	async hposCompatiblePlugins(): Promise< string[] > {
		const declared = ensure(
			await adminClient().get< Record< string, Record< string, boolean > > >( '/wc-fixture/v1/features' ),
			'Reading features'
		);
		return Object.entries( declared.custom_order_tables ?? {} )
			.filter( ( [ , compatible ] ) => compatible )
			.map( ( [ plugin ] ) => plugin );
	}
}

class WooCommerceDriver implements CommerceDriver {
	readonly kind = 'woocommerce' as const;
	readonly plugin = 'woocommerce/woocommerce';
	readonly canSetPaymentTime = false;

	async createProducts( products: ProductInput[] ): Promise< Product[] > {
		const created: Product[] = [];
		for ( const batch of chunks( products, 100 ) ) {
			const body = ensure(
				await adminClient().post< { create: Product[] } >( '/wc/v3/products/batch', {
					create: batch.map( ( p ) => ( {
						name: p.name,
						sku: p.sku,
						regular_price: p.price,
						type: 'simple',
					} ) ),
				} ),
				'Creating products'
			);
			created.push( ...body.create.map( ( p ) => ( { id: p.id, sku: p.sku, name: p.name } ) ) );
		}
		return created;
	}

	async createOrders( orders: OrderInput[] ): Promise< number[] > {
		const ids: number[] = [];
		for ( const batch of chunks( orders, 100 ) ) {
			const body = ensure(
				await adminClient().post< { create: Array< { id: number; error?: unknown } > } >(
					'/wc/v3/orders/batch',
					{
						create: batch.map( ( o ) => ( {
							status: o.status,
							set_paid: o.set_paid,
							billing: o.billing,
							line_items: o.line_items,
						} ) ),
					}
				),
				'Creating orders'
			);
			for ( const order of body.create ) {
				if ( ! order.id ) {
					throw new Error( `Creating an order failed: ${ JSON.stringify( order.error ) }` );
				}
				ids.push( order.id );
			}
		}
		return ids;
	}

	importOrders( orders: OrderInput[] ): Promise< number[] > {
		return this.createOrders( orders );
	}

	async pay( ids: number[] ): Promise< void > {
		for ( const batch of chunks( ids, 100 ) ) {
			ensure(
				await adminClient().post( '/wc/v3/orders/batch', {
					update: batch.map( ( id ) => ( { id, set_paid: true } ) ),
				} ),
				'Paying orders'
			);
		}
	}

	async setStatus( id: number, status: OrderStatus ): Promise< void > {
		ensure(
			await adminClient().request( { method: 'PUT', path: `/wc/v3/orders/${ id }`, data: { status } } ),
			'Changing a status'
		);
	}

	async setBilling( id: number, billing: Address ): Promise< void > {
		ensure(
			await adminClient().request( { method: 'PUT', path: `/wc/v3/orders/${ id }`, data: { billing } } ),
			'Changing a billing address'
		);
	}

	async setSku( productId: number, sku: string ): Promise< void > {
		ensure(
			await adminClient().request( { method: 'PUT', path: `/wc/v3/products/${ productId }`, data: { sku } } ),
			'Changing a SKU'
		);
	}

	async refund( id: number, amount: string ): Promise< void > {
		ensure(
			await adminClient().post( `/wc/v3/orders/${ id }/refunds`, { amount, api_refund: false } ),
			'Refunding'
		);
	}

	async getOrder( id: number ): Promise< CommerceOrder > {
		return ensure( await adminClient().get< CommerceOrder >( `/wc/v3/orders/${ id }` ), 'Reading an order' );
	}

	async getRefund( orderId: number, refundId: number ): Promise< { id: number; amount: string; reason: string } > {
		return ensure(
			await adminClient().get< { id: number; amount: string; reason: string } >(
				`/wc/v3/orders/${ orderId }/refunds/${ refundId }`
			),
			'Reading a refund'
		);
	}

	attemptStatusChange( client: RestClient, id: number, status: OrderStatus ): Promise< RestResult > {
		return client.request( { method: 'PUT', path: `/wc/v3/orders/${ id }`, data: { status } } );
	}

	async hposCompatiblePlugins(): Promise< null > {
		return null;
	}
}

export function commerce(): CommerceDriver {
	return readState().commerce === 'woocommerce' ? new WooCommerceDriver() : new FixtureDriver();
}

/** Resolves once the wall clock has entered a new second, and returns that second. */
export async function nextSecond(): Promise< Date > {
	const now = Date.now();
	const next = Math.floor( now / 1000 ) * 1000 + 1000;
	await sleep( next - now + 5 );
	return new Date( next );
}

/** ISO 8601 in UTC without milliseconds, as the endpoint prints dates. */
export function iso( date: Date ): string {
	return date.toISOString().replace( /\.\d{3}Z$/, 'Z' );
}
