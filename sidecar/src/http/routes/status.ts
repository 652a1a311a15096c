import { Router } from 'express';
import type { StatusView } from '../../contracts/views';
import { SIDECAR_VERSION } from '../../version';
import type { RouteContext } from './context';
import { methodNotAllowed } from './helpers';

/** What WordPress shows on its status screen: version, uptime, queue depth, endpoint health. */
export function statusRouter( context: Pick< RouteContext, 'store' | 'startedAt' > ): Router {
	const { store } = context;
	const router = Router();
	router
		.route( '/status' )
		.get( async ( _req, res ) => {
			const endpoints = await store.listEndpoints( Date.now() );
			res.json( {
				version: SIDECAR_VERSION,
				uptime_s: Math.round( ( Date.now() - context.startedAt ) / 1000 ),
				queue: await store.countByStatus(),
				endpoints: {
					active: endpoints.filter( ( endpoint ) => endpoint.status === 'active' ).length,
					disabled: endpoints.filter( ( endpoint ) => endpoint.status === 'disabled' ).length,
				},
			} satisfies StatusView );
		} )
		.all( methodNotAllowed( 'GET' ) );
	return router;
}
