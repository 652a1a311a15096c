/**
 * Signs webhooks the way each provider does, with the provider's own library where
 * one exists: `standardwebhooks` (Webhook#sign), `stripe`
 * (webhooks.generateTestHeaderString), GitHub's `@octokit/webhooks-methods` (sign, in a
 * child process: see octokit-sign.ts). Shopify and WooCommerce publish no signing
 * library: node:crypto, per their documentation.
 */
import { createHash, createHmac, randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { Webhook } from 'standardwebhooks';
import type { InboundScheme } from '../../sidecar/src/inbound/verify';
import { octokitSign } from './octokit-sign';

export interface SignedWebhook {
	body: string;
	/** The provider's headers (lower-case names), content-type excluded. */
	headers: Record< string, string >;
}

export interface SampleWebhook extends SignedWebhook {
	/** What the receiver should derive (deliveryId: the provider's unsigned delivery id, kept for display). */
	expected: { eventId: string; deliveryId?: string; type: string; data: Record< string, unknown > };
}

export interface SampleOptions {
	/** The event id; for GitHub and Shopify, whose ids are unsigned, the delivery id header. */
	eventId?: string;
	type?: string;
	data?: Record< string, unknown >;
	/** Unix seconds of signing (defaults to now). */
	timestamp?: number;
}

const nowSeconds = () => Math.floor( Date.now() / 1000 );

export function signStandardWebhook(
	secret: string,
	id: string,
	body: string,
	timestamp = nowSeconds()
): SignedWebhook {
	return {
		body,
		headers: {
			'webhook-id': id,
			'webhook-timestamp': String( timestamp ),
			'webhook-signature': new Webhook( secret ).sign( id, new Date( timestamp * 1000 ), body ),
		},
	};
}

export function signStripe( secret: string, body: string, timestamp = nowSeconds() ): SignedWebhook {
	return {
		body,
		headers: {
			'stripe-signature': Stripe.webhooks.generateTestHeaderString( { payload: body, secret, timestamp } ),
		},
	};
}

export function signGithub( secret: string, body: string, event: string, delivery: string ): SignedWebhook {
	return {
		body,
		headers: {
			'x-hub-signature-256': octokitSign( [ [ secret, body ] ] )[ 0 ] as string,
			'x-github-event': event,
			'x-github-delivery': delivery,
			'x-github-hook-id': '123456',
		},
	};
}

export function signShopify(
	secret: string,
	body: string,
	topic: string,
	webhookId: string,
	triggeredAt = new Date()
): SignedWebhook {
	return {
		body,
		headers: {
			'x-shopify-hmac-sha256': createHmac( 'sha256', secret ).update( body ).digest( 'base64' ),
			'x-shopify-topic': topic,
			'x-shopify-webhook-id': webhookId,
			'x-shopify-triggered-at': triggeredAt.toISOString(),
			'x-shopify-shop-domain': 'example.myshopify.com',
			'x-shopify-api-version': '2025-01',
		},
	};
}

/** WooCommerce signs trim(wp_json_encode(payload)) with base64 HMAC-SHA256; the delivery id changes on every send. */
export function signWoocommerce( secret: string, body: string, topic: string ): SignedWebhook {
	const [ resource = 'order', event = 'created' ] = topic.split( '.' );
	return {
		body,
		headers: {
			'x-wc-webhook-signature': createHmac( 'sha256', secret ).update( body ).digest( 'base64' ),
			'x-wc-webhook-topic': topic,
			'x-wc-webhook-resource': resource,
			'x-wc-webhook-event': event,
			'x-wc-webhook-id': '17',
			'x-wc-webhook-delivery-id': createHash( 'md5' ).update( randomUUID() ).digest( 'hex' ),
			'x-wc-webhook-source': 'https://shop.example.com/',
		},
	};
}

/** The event id of schemes without a signed one: the digest of the signed body. */
export function digestId( body: string ): string {
	return 'sha256:' + createHash( 'sha256' ).update( body ).digest( 'hex' );
}

/** A typical webhook of each provider, signed, with what a receiver must make of it. */
export function sampleWebhook( scheme: InboundScheme, secret: string, options: SampleOptions = {} ): SampleWebhook {
	const eventId = options.eventId ?? `evt_${ randomUUID().replace( /-/g, '' ) }`;
	const data = options.data ?? { order_id: 4321, total: '19.90', nested: { paid: true, items: [ 1, 2 ] } };
	const timestamp = options.timestamp ?? nowSeconds();
	switch ( scheme ) {
		case 'standard-webhooks': {
			const type = options.type ?? 'order.paid';
			const body = JSON.stringify( { type, timestamp: new Date( timestamp * 1000 ).toISOString(), data } );
			return { ...signStandardWebhook( secret, eventId, body, timestamp ), expected: { eventId, type, data } };
		}
		case 'stripe': {
			const type = options.type ?? 'payment_intent.succeeded';
			const body = JSON.stringify( {
				id: eventId,
				object: 'event',
				api_version: '2024-06-20',
				created: timestamp,
				type,
				data,
				livemode: false,
			} );
			return { ...signStripe( secret, body, timestamp ), expected: { eventId, type, data } };
		}
		case 'github': {
			const type = options.type ?? 'issues.opened';
			const [ event = 'issues', action ] = type.split( '.' );
			// Distinct bodies give distinct events: the body digest is the event id (the delivery id is unsigned).
			const unique = { ...data, id: data.id ?? eventId };
			const body = JSON.stringify( action ? { action, ...unique } : unique );
			return {
				...signGithub( secret, body, event, eventId ),
				expected: { eventId: digestId( body ), deliveryId: eventId, type, data: JSON.parse( body ) },
			};
		}
		case 'shopify': {
			const type = options.type ?? 'orders/paid';
			const body = JSON.stringify( { ...data, id: data.id ?? eventId } );
			return {
				...signShopify( secret, body, type, eventId, new Date( timestamp * 1000 ) ),
				expected: { eventId: digestId( body ), deliveryId: eventId, type, data: JSON.parse( body ) },
			};
		}
		case 'woocommerce': {
			const type = options.type ?? 'order.updated';
			// Distinct bodies give distinct ids: WooCommerce's only stable id is the body digest.
			const body = JSON.stringify( { ...data, id: data.id ?? eventId } );
			return {
				...signWoocommerce( secret, body, type ),
				expected: { eventId: digestId( body ), type, data: JSON.parse( body ) },
			};
		}
	}
}

/** Provider-issued secrets, in each provider's own format (Stripe, GitHub, Shopify and WooCommerce issue them). */
export function providerSecret( scheme: InboundScheme ): string | undefined {
	const random = ( n: number ) => createHash( 'sha256' ).update( randomUUID() ).digest( 'hex' ).slice( 0, n );
	switch ( scheme ) {
		case 'stripe':
			return `whsec_${ random( 32 ) }`;
		case 'github':
			return `gh-${ random( 40 ) }`;
		case 'shopify':
			return `shpss_${ random( 32 ) }`;
		case 'woocommerce':
			return `k&${ random( 20 ) }$R}4c#Zp[`;
		default:
			return undefined; // Standard Webhooks: the receiver generates it and gives it to the sender.
	}
}
