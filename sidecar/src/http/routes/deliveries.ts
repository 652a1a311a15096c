import { Router } from 'express';
import type { DeliveryPageView } from '../../contracts/views';
import { DELIVERY_QUERY } from '../../contracts/requests';
import { HttpError } from '../errors';
import type { QueueRouteContext } from './context';
import { methodNotAllowed, parseQuery, requireEventType } from './helpers';
import { deliveryView } from './views';

/** The delivery log, newest first, for the WordPress admin screens; on either store. */
export function deliveriesRouter( context: QueueRouteContext ): Router {
	const { store } = context;
	const router = Router();

	router
		.route( '/deliveries' )
		.get( async ( req, res ) => {
			const query = parseQuery( req, DELIVERY_QUERY );
			const type = query.type === undefined ? undefined : requireEventType( query.type, 'type' );
			if ( query.endpoint_id !== undefined && ! ( await store.getEndpoint( query.endpoint_id, Date.now() ) ) ) {
				throw new HttpError( 404, 'endpoint_not_found', `No endpoint with id "${ query.endpoint_id }".` );
			}
			const { deliveries, total } = await store.listDeliveries( {
				endpointId: query.endpoint_id,
				type,
				status: query.status,
				page: query.page,
				perPage: query.per_page,
			} );
			res.json( {
				deliveries: deliveries.map( deliveryView ),
				total,
				page: query.page,
				per_page: query.per_page,
			} satisfies DeliveryPageView );
		} )
		.all( methodNotAllowed( 'GET' ) );

	return router;
}
