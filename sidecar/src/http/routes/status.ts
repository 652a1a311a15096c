import { Router } from 'express';
import type { StatusView } from '../../contracts/views';
import { SIDECAR_VERSION } from '../../version';
import type { RouteContext } from './context';
import { methodNotAllowed } from './helpers';

/** What WordPress shows on its status screen: version, uptime, queue depth, endpoint health. */
export function statusRouter( context: RouteContext ): Router {
	const router = Router();
	router
		.route( '/status' )
		.get( ( _req, res ) => {
			res.json( {
				version: SIDECAR_VERSION,
				uptime_s: Math.round( ( Date.now() - context.startedAt ) / 1000 ),
				queue: context.stores.deliveries.countByStatus(),
				endpoints: context.stores.endpoints.counts(),
			} satisfies StatusView );
		} )
		.all( methodNotAllowed( 'GET' ) );
	return router;
}
