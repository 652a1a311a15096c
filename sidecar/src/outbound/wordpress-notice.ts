import { randomUUID } from 'crypto';
import axios from 'axios';
import { CHANNEL_HEADERS, signChannelRequest } from '../channel/channel-signature';
import type { Logger } from '../logger';

export interface EndpointDisabledNotice {
	type: 'endpoint.disabled';
	endpoint_id: string;
	url: string;
	reason: string;
}

export type Notice = EndpointDisabledNotice;
export type Notifier = ( notice: Notice, signal?: AbortSignal ) => Promise< void >;

/** WordPress signs and checks the REST route, not the URL path (so ?rest_route= works too). */
export const CALLBACK_ROUTE = '/service-integration/v1/sidecar/callback';
const NOTICE_TIMEOUT_MS = 5000;

/**
 * Tells WordPress something it should show the site owner (an endpoint was disabled).
 * Best effort: one signed POST with a short timeout; a failure is logged, not retried,
 * because the endpoint's state is in GET /v1/endpoints anyway.
 */
export function createWordPressNotifier( options: { wordpressUrl?: string; sharedKey: string; log: Logger; timeoutMs?: number } ): Notifier {
	const { wordpressUrl, sharedKey, log } = options;
	return async ( notice, signal ) => {
		if ( ! wordpressUrl ) {
			log.warn( { notice: notice.type, endpoint_id: notice.endpoint_id }, 'no SIDECAR_WORDPRESS_URL: WordPress not notified' );
			return;
		}
		const url = `${ wordpressUrl.replace( /\/+$/, '' ) }/wp-json${ CALLBACK_ROUTE }`;
		const body = Buffer.from( JSON.stringify( notice ), 'utf8' );
		const timestamp = Math.floor( Date.now() / 1000 );
		const requestId = randomUUID();
		try {
			const response = await axios.post( url, body, {
				headers: {
					'content-type': 'application/json',
					[ CHANNEL_HEADERS.timestamp ]: String( timestamp ),
					[ CHANNEL_HEADERS.requestId ]: requestId,
					[ CHANNEL_HEADERS.signature ]: signChannelRequest( sharedKey, timestamp, requestId, 'POST', CALLBACK_ROUTE, body ),
				},
				timeout: options.timeoutMs ?? NOTICE_TIMEOUT_MS,
				proxy: false,
				maxRedirects: 0,
				validateStatus: () => true,
				responseType: 'text',
				signal,
			} );
			if ( response.status >= 200 && response.status < 300 ) {
				log.info( { notice: notice.type, endpoint_id: notice.endpoint_id, status: response.status }, 'WordPress notified' );
			} else {
				log.warn( { notice: notice.type, endpoint_id: notice.endpoint_id, status: response.status }, 'WordPress refused the notice' );
			}
		} catch ( error ) {
			log.warn( { notice: notice.type, endpoint_id: notice.endpoint_id, err: ( error as Error ).message }, 'could not notify WordPress' );
		}
	};
}
