import crypto from 'crypto';
import { CHANNEL_HEADERS, signChannelRequest } from '../../../sidecar/src/channel/channel-signature';

export interface ApiResponse< T = any > {
	status: number;
	body: T;
	text: string;
	headers: Headers;
}

export interface CallOptions {
	/** Sign with this key instead of the right one; false = no signature headers. */
	key?: string | false;
	headers?: Record< string, string >;
	/** Sign these bytes instead of the body actually sent (a tampered request). */
	signBody?: string;
}

/** Calls the sidecar's /v1 API the way WordPress does: every request signed with the shared key. */
export function apiClient( baseUrl: string, sharedKey: string ) {
	return async function call< T = any >(
		method: string,
		path: string,
		body?: unknown,
		options: CallOptions = {}
	): Promise< ApiResponse< T > > {
		const raw = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify( body );
		const headers: Record< string, string > = { 'content-type': 'application/json', ...options.headers };
		const key = options.key === undefined ? sharedKey : options.key;
		if ( key !== false ) {
			const timestamp = Math.floor( Date.now() / 1000 );
			const requestId = crypto.randomUUID();
			headers[ CHANNEL_HEADERS.timestamp ] = String( timestamp );
			headers[ CHANNEL_HEADERS.requestId ] = requestId;
			headers[ CHANNEL_HEADERS.signature ] = signChannelRequest(
				key,
				timestamp,
				requestId,
				method,
				path,
				Buffer.from( options.signBody ?? raw )
			);
		}
		const response = await fetch( baseUrl + path, { method, headers, body: raw === '' ? undefined : raw } );
		const text = await response.text();
		let parsed: unknown;
		try {
			parsed = text === '' ? undefined : JSON.parse( text );
		} catch {
			parsed = undefined;
		}
		return { status: response.status, body: parsed as T, text, headers: response.headers };
	};
}

export type ApiCall = ReturnType< typeof apiClient >;

/** An event as WordPress would hand it over. */
export function orderEvent(
	id: string,
	type: string,
	orderId: number | string,
	extra: Record< string, unknown > = {}
) {
	return {
		id,
		type,
		timestamp: new Date().toISOString(),
		ordering_key: `order:${ orderId }`,
		data: { order_id: orderId, event: id, ...extra },
	};
}
