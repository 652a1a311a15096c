import { randomUUID } from 'crypto';
import http from 'http';
import https from 'https';
import { CHANNEL_HEADERS, signChannelRequest } from '../channel/channel-signature';
import type { SidecarConfig } from '../config';
import type { ChannelNotice } from '../model/notices';
import { postOnce } from './http-post';
import { USER_AGENT } from './signing';

/** acknowledged: WordPress answered 2xx; anything else is retried by the notice sender. */
export type NoticeResult = { acknowledged: true } | { acknowledged: false; error: string };
export type Notifier = ( notice: ChannelNotice, signal?: AbortSignal ) => Promise< NoticeResult >;

/** WordPress signs and checks the REST route, not the URL path (so ?rest_route= works too). */
export const CALLBACK_ROUTE = '/service-integration/v1/sidecar/callback';
const NOTICE_TIMEOUT_MS = 5000;
// node:http, like deliveries: axios alone would add ~15 MB to the sidecar's RSS for this rare call.
const AGENTS = { httpAgent: http.globalAgent, httpsAgent: https.globalAgent };
const MAX_RESPONSE_BYTES = 64 * 1024;

/** The notifier the configuration asks for: none without SIDECAR_WORDPRESS_URL (notices then wait in the store). */
export function notifierFromConfig(
	config: Pick< SidecarConfig, 'wordpressUrl' | 'sharedKey' >
): Notifier | undefined {
	return config.wordpressUrl
		? createWordPressNotifier( { wordpressUrl: config.wordpressUrl, sharedKey: config.sharedKey } )
		: undefined;
}

/**
 * One signed POST of a notice to WordPress's callback route, with a short timeout.
 * Never throws: the outcome says whether WordPress acknowledged it.
 */
export function createWordPressNotifier( options: {
	wordpressUrl: string;
	sharedKey: string;
	timeoutMs?: number;
} ): Notifier {
	const { wordpressUrl, sharedKey } = options;
	const url = `${ wordpressUrl.replace( /\/+$/, '' ) }/wp-json${ CALLBACK_ROUTE }`;
	return async ( notice, signal ) => {
		const body = Buffer.from( JSON.stringify( notice ), 'utf8' );
		const timestamp = Math.floor( Date.now() / 1000 );
		const requestId = randomUUID();
		const timeout = AbortSignal.timeout( options.timeoutMs ?? NOTICE_TIMEOUT_MS );
		try {
			const response = await postOnce( url, body, {
				headers: {
					'content-type': 'application/json',
					'user-agent': USER_AGENT,
					[ CHANNEL_HEADERS.timestamp ]: String( timestamp ),
					[ CHANNEL_HEADERS.requestId ]: requestId,
					[ CHANNEL_HEADERS.signature ]: signChannelRequest(
						sharedKey,
						timestamp,
						requestId,
						'POST',
						CALLBACK_ROUTE,
						body
					),
				},
				agents: AGENTS,
				signal: signal ? AbortSignal.any( [ signal, timeout ] ) : timeout,
				maxResponseBytes: MAX_RESPONSE_BYTES,
			} );
			if ( response.status >= 200 && response.status < 300 ) {
				return { acknowledged: true };
			}
			return { acknowledged: false, error: `HTTP ${ response.status }` };
		} catch ( error ) {
			if ( timeout.aborted ) {
				return {
					acknowledged: false,
					error: `timeout of ${ options.timeoutMs ?? NOTICE_TIMEOUT_MS } ms exceeded`,
				};
			}
			return { acknowledged: false, error: ( error as Error ).message || 'request failed' };
		}
	};
}
