import { adminClient, anonymousClient } from './clients';
import { readState } from './environment';
import type { RestClient, RestResult } from '../../../scripts/lib/rest-client';
import { sleep } from '../../support/wait-until';

/**
 * The shop side of the tests: real WooCommerce (from ../shared/builds, or WOOCOMMERCE_DIR), driven
 * the way a shop is, through WooCommerce's own `/wc/v3` REST API with the administrator's
 * application password.
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

/** WooCommerce's own offline gateways: cash on delivery, bank transfer (BACS), cheque. */
export type OfflineGateway = 'cod' | 'bacs' | 'cheque';

/** A customer's order at the checkout. */
export interface CheckoutInput {
	payment_method: OfflineGateway;
	line_items: Array< { product_id: number; quantity: number } >;
	billing?: Address;
}

/** An order as the commerce system's own REST API shows it (the /wc/v3 shape). */
export type CommerceOrder = Record< string, unknown > & { id: number; status: string; date_modified_gmt: string };

export interface CommerceDriver {
	/** The plugin as the /wp/v2/plugins route names it. */
	readonly plugin: string;
	createProducts: ( products: ProductInput[] ) => Promise< Product[] >;
	/** Creates orders through WooCommerce's batch route, 100 a request (`set_paid` pays them as the REST API does). */
	createOrders: ( orders: OrderInput[] ) => Promise< number[] >;
	/** payment_complete() on each order, through the REST API's `set_paid`. */
	pay: ( ids: number[] ) => Promise< void >;
	setStatus: ( id: number, status: OrderStatus ) => Promise< void >;
	/** Changes an order's billing address and saves the order. */
	setBilling: ( id: number, billing: Address ) => Promise< void >;
	/** Changes a product's SKU. */
	setSku: ( productId: number, sku: string ) => Promise< void >;
	refund: ( id: number, amount: string ) => Promise< void >;
	getOrder: ( id: number ) => Promise< CommerceOrder >;
	/** Every order the store lists for this query (/wc/v3/orders, all its pages), e.g. `{ status: 'processing,completed' }`. */
	listOrders: ( query: Record< string, string > ) => Promise< CommerceOrder[] >;
	/** One refund as the store's REST API shows it (/wc/v3/orders/<id>/refunds/<refund id>). */
	getRefund: ( orderId: number, refundId: number ) => Promise< { id: number; amount: string; reason: string } >;
	/** Another identity's attempt to change an order through the commerce system's own routes. */
	attemptStatusChange: ( client: RestClient, id: number, status: OrderStatus ) => Promise< RestResult >;
	/** Enables payment gateways, as the owner does in WooCommerce > Settings > Payments. */
	enableGateways: ( ids: OfflineGateway[] ) => Promise< void >;
	/**
	 * A guest's checkout through WooCommerce's Store API, as the shop's checkout block makes it:
	 * the cart (its Cart-Token, in place of the page's nonce), the lines added to it, then the
	 * checkout with the payment method, which runs the gateway's process_payment(). Returns the
	 * order's id.
	 */
	checkout: ( input: CheckoutInput ) => Promise< number >;
	/** Plugins that declared compatibility with custom order tables (WooCommerce's FeaturesController). */
	hposCompatiblePlugins: () => Promise< string[] >;
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

class WooCommerceDriver implements CommerceDriver {
	readonly plugin = 'woocommerce/woocommerce';

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

	async listOrders( query: Record< string, string > ): Promise< CommerceOrder[] > {
		const orders: CommerceOrder[] = [];
		for ( let page = 1; ; page++ ) {
			const params = new URLSearchParams( { ...query, per_page: '100', page: String( page ) } );
			const body = ensure(
				await adminClient().get< CommerceOrder[] >( `/wc/v3/orders?${ params.toString() }` ),
				'Listing orders'
			);
			orders.push( ...body );
			if ( body.length < 100 ) {
				return orders;
			}
		}
	}

	async getRefund( orderId: number, refundId: number ): Promise< { id: number; amount: string; reason: string } > {
		return ensure(
			await adminClient().get< { id: number; amount: string; reason: string } >(
				`/wc/v3/orders/${ orderId }/refunds/${ refundId }`
			),
			'Reading a refund'
		);
	}

	async enableGateways( ids: OfflineGateway[] ): Promise< void > {
		for ( const id of ids ) {
			ensure(
				await adminClient().request( {
					method: 'PUT',
					path: `/wc/v3/payment_gateways/${ id }`,
					data: { enabled: true },
				} ),
				`Enabling the ${ id } gateway`
			);
		}
	}

	async checkout( input: CheckoutInput ): Promise< number > {
		const shopper = anonymousClient();
		const cart = await shopper.get( '/wc/store/v1/cart' );
		const token = cart.headers.get( 'cart-token' );
		if ( cart.status !== 200 || ! token ) {
			throw new Error(
				`The Store API gave no cart token: HTTP ${ cart.status } ${ JSON.stringify( cart.body ) }`
			);
		}
		const headers = { 'cart-token': token };
		for ( const line of input.line_items ) {
			ensure(
				await shopper.request( {
					method: 'POST',
					path: '/wc/store/v1/cart/add-item',
					data: { id: line.product_id, quantity: line.quantity },
					headers,
				} ),
				'Adding to the cart'
			);
		}
		const { email = 'guest@example.com', ...address } = {
			first_name: 'Grace',
			last_name: 'Hopper',
			address_1: '1 rue de la Paix',
			city: 'Paris',
			postcode: '75002',
			country: 'FR',
			...input.billing,
		};
		const order = ensure(
			await shopper.request< { order_id: number } >( {
				method: 'POST',
				path: '/wc/store/v1/checkout',
				data: {
					billing_address: { ...address, email },
					shipping_address: address,
					payment_method: input.payment_method,
				},
				headers,
			} ),
			`Checking out with ${ input.payment_method }`
		);
		return order.order_id;
	}

	attemptStatusChange( client: RestClient, id: number, status: OrderStatus ): Promise< RestResult > {
		return client.request( { method: 'PUT', path: `/wc/v3/orders/${ id }`, data: { status } } );
	}

	async hposCompatiblePlugins(): Promise< string[] > {
		// The local environment's site report asks WooCommerce's FeaturesController (administrators only).
		const report = ensure(
			await adminClient().get< { hpos_compatible_plugins?: string[] } >(
				'/service-integration-local/v1/environment'
			),
			'Reading the site report'
		);
		return report.hpos_compatible_plugins ?? [];
	}
}

/** The site's shop; a test that needs one on a site without (WOOCOMMERCE_VERSION=none) fails saying so. */
export function commerce(): CommerceDriver {
	if ( readState().commerce !== 'woocommerce' ) {
		throw new Error(
			'This test needs a shop, and the e2e site runs without WooCommerce (WOOCOMMERCE_VERSION=none): run it with WooCommerce.'
		);
	}
	return new WooCommerceDriver();
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
