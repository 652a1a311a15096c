import { Webhook } from 'standardwebhooks';
import type { Receiver, ReceivedRequest } from '../../sidecar/support/receiver';
import { adminClient } from './clients';
import type { PaidOrder } from '../../support/paid-order-shape';
import { waitUntil } from '../../support/wait-until';

/**
 * Outbound webhooks as a receiver sees them: endpoints registered through WordPress (as an
 * administrator), and the deliveries a local HTTP receiver got, verified with the Standard
 * Webhooks reference library.
 */
export interface Endpoint {
	id: string;
	secret: string;
	status: string;
}

export interface Delivered {
	id: string;
	type: string;
	timestamp: string;
	data: { order: PaidOrder; refund?: { id: number; amount: string | null; full: boolean } };
}

const ENDPOINTS = '/service-integration/v1/webhooks/endpoints';

export async function createEndpoint( url: string, eventTypes?: string[] ): Promise< Endpoint > {
	const created = await adminClient().post< Endpoint >( ENDPOINTS, { url, event_types: eventTypes } );
	expect( created.status ).toBe( 201 );
	expect( created.body.secret ).toMatch( /^whsec_/ );
	return created.body;
}

export async function deleteEndpoint( id: string ): Promise< void > {
	await adminClient().request( { method: 'DELETE', path: `${ ENDPOINTS }/${ id }` } );
}

/**
 * Verifies the deliveries of these orders with the Standard Webhooks reference library, unchanged.
 * Only theirs: the library refuses timestamps over 5 minutes old, which an earlier test's
 * deliveries are by then on a slow site (real WooCommerce under Playground).
 */
export function verified( receiver: Receiver, secret: string, orderIds: number[] ): Delivered[] {
	const webhook = new Webhook( secret );
	const ofTheseOrders = ( request: ReceivedRequest ) =>
		orderIds.some( ( id ) => request.body.includes( `"id":${ id },` ) );
	return receiver.requests.filter( ofTheseOrders ).map( ( request: ReceivedRequest ) => {
		const payload = webhook.verify( request.body, request.headers ) as Omit< Delivered, 'id' >;
		return { id: request.headers[ 'webhook-id' ] as string, ...payload };
	} );
}

/**
 * Resolves once every event WordPress has written so far has been delivered to the endpoint:
 * the outbox handed over (its POST hands over now) and no delivery of the endpoint pending or in
 * flight in the sidecar. Then what a receiver has is all it will get for those events.
 */
export async function allDelivered( endpointId: string ): Promise< void > {
	const admin = adminClient();
	await waitUntil(
		async () => {
			const outbox = await admin.post< { pending: number } >( '/service-integration/v1/webhooks/outbox' );
			if ( outbox.status !== 200 || outbox.body.pending > 0 ) {
				return false;
			}
			for ( const status of [ 'pending', 'in_flight' ] ) {
				const left = await admin.get< { total: number } >(
					`/service-integration/v1/webhooks/deliveries?endpoint_id=${ endpointId }&status=${ status }&per_page=1`
				);
				if ( left.status !== 200 || left.body.total > 0 ) {
					return false;
				}
			}
			return true;
		},
		60_000,
		'every event written so far delivered',
		500
	);
}
