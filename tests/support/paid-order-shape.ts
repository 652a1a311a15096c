/**
 * The paid-orders endpoint's item, and how to work it out from what the store's own REST API says
 * of the same order: shared by the e2e tests and bench/paid-orders.ts, which compare the two.
 */
import type { PaidOrder } from '../../plugin/admin/src/api/generated/views';

/** The item as its schema says (the type generated from plugin/includes/Rest/Schemas/class-paid-order.php). */
export type { PaidOrder };

/** An order as WooCommerce's REST API shows it (/wc/v3/orders). */
export type StoreOrder = Record< string, unknown > & { id: number; status: string };

/** The order meta in which the plugin records an order's paid moment (a UTC timestamp). */
export const PAID_MOMENT_META = '_service_integration_paid_at';

/**
 * What the paid-orders endpoint should say of an order, worked out from the store's own REST
 * view of it (the /wc/v3 shape): the same fields, named and typed as the endpoint names them.
 * `paid_at` is the paid moment the plugin recorded in the order's meta, which /wc/v3 lists in
 * `meta_data`, else `date_paid` (orders paid before moments were recorded).
 */
export function expectedFromStore( order: StoreOrder ): PaidOrder {
	const utc = ( value: unknown ): string | null =>
		typeof value === 'string' && value !== '' ? `${ value.replace( /Z$/, '' ) }Z` : null;
	const billing = ( order.billing ?? {} ) as Record< string, string >;
	const meta = ( ( order.meta_data ?? [] ) as Array< { key: string; value: unknown } > ).find(
		( entry ) => entry.key === PAID_MOMENT_META
	);
	const recorded = meta ? new Date( Number( meta.value ) * 1000 ).toISOString().replace( /\.\d{3}Z$/, 'Z' ) : null;
	return {
		id: order.id,
		number: String( order.number ),
		status: order.status,
		date_paid: utc( order.date_paid_gmt ),
		paid_at: recorded ?? utc( order.date_paid_gmt ),
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
