/**
 * The paid-orders endpoint's item, and how to work it out from what the store's own REST API says
 * of the same order: shared by the e2e tests and bench/paid-orders.ts, which compare the two.
 */
export interface PaidOrder {
	id: number;
	number: string;
	status: string;
	date_paid: string | null;
	date_modified: string | null;
	currency: string;
	total: string;
	customer: { first_name: string; last_name: string; email: string };
	line_items: Array< {
		product_id: number;
		variation_id: number;
		sku: string | null;
		name: string;
		quantity: number;
	} >;
}

/** An order as WooCommerce's REST API shows it (/wc/v3/orders). */
export type StoreOrder = Record< string, unknown > & { id: number; status: string };

/**
 * What the paid-orders endpoint should say of an order, worked out from the store's own REST
 * view of it (the /wc/v3 shape): the same fields, named and typed as the endpoint names them.
 */
export function expectedFromStore( order: StoreOrder ): PaidOrder {
	const utc = ( value: unknown ): string | null =>
		typeof value === 'string' && value !== '' ? `${ value.replace( /Z$/, '' ) }Z` : null;
	const billing = ( order.billing ?? {} ) as Record< string, string >;
	return {
		id: order.id,
		number: String( order.number ),
		status: order.status,
		date_paid: utc( order.date_paid_gmt ),
		date_modified: utc( order.date_modified_gmt ),
		currency: String( order.currency ),
		total: String( order.total ),
		customer: {
			first_name: billing.first_name ?? '',
			last_name: billing.last_name ?? '',
			email: billing.email ?? '',
		},
		line_items: ( ( order.line_items ?? [] ) as Array< Record< string, unknown > > ).map( ( line ) => ( {
			product_id: Number( line.product_id ),
			variation_id: Number( line.variation_id ?? 0 ),
			sku: typeof line.sku === 'string' ? line.sku : null,
			name: String( line.name ),
			quantity: Number( line.quantity ),
		} ) ),
	};
}
