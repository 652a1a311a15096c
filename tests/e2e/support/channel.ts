import crypto from 'crypto';
import { CHANNEL_HEADERS, signChannelRequest } from '../../../sidecar/src/channel/channel-signature';

/** Builds the signed headers PHP would send, for calling the channel directly from a test. */
export function signedHeaders(
	key: string,
	method: string,
	path: string,
	body: string,
	timestamp = Math.floor( Date.now() / 1000 )
): Record< string, string > {
	const requestId = crypto.randomUUID();
	return {
		[ CHANNEL_HEADERS.timestamp ]: String( timestamp ),
		[ CHANNEL_HEADERS.requestId ]: requestId,
		[ CHANNEL_HEADERS.signature ]: signChannelRequest(
			key,
			timestamp,
			requestId,
			method,
			path,
			Buffer.from( body )
		),
	};
}
