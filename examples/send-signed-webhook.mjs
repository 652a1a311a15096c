#!/usr/bin/env node
/**
 * Sends one inbound webhook the way a Standard Webhooks sender does: the body
 * {"type": ..., "data": ...}, signed with the source's secret, to the site's receiving route.
 * Prints the HTTP status the sender got and the answer.
 *
 *   node examples/send-signed-webhook.mjs --url <receiving URL> --secret whsec_... --type contact.updated --data '{"id":42}' [--id msg_...]
 */
import crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import standardWebhooks from 'standardwebhooks';

const HELP = `Usage: node examples/send-signed-webhook.mjs --url <url> --secret <whsec_...> --type <type> [--data <json>] [--id <message id>]

Signs {"type": <type>, "data": <data>} with the secret (Standard Webhooks) and POSTs it to the URL.
Sending the same --id twice is a duplicate, which the site acknowledges without handling it again.
`;

const { values } = parseArgs( {
	options: {
		url: { type: 'string' },
		secret: { type: 'string' },
		type: { type: 'string' },
		data: { type: 'string', default: '{}' },
		id: { type: 'string' },
		help: { type: 'boolean', short: 'h' },
	},
} );
if ( values.help ) {
	process.stdout.write( HELP );
	process.exit( 0 );
}
for ( const required of [ 'url', 'secret', 'type' ] ) {
	if ( ! values[ required ] ) {
		process.stderr.write( `--${ required } is required.\n\n${ HELP }` );
		process.exit( 2 );
	}
}
let data;
try {
	data = JSON.parse( values.data );
} catch ( error ) {
	process.stderr.write( `--data must be JSON: ${ error.message }\n` );
	process.exit( 2 );
}

const id = values.id ?? `msg_${ crypto.randomUUID() }`;
const body = JSON.stringify( { type: values.type, data } );
const now = new Date();
const signature = new standardWebhooks.Webhook( values.secret ).sign( id, now, body );
const response = await fetch( values.url, {
	method: 'POST',
	headers: {
		'content-type': 'application/json',
		'webhook-id': id,
		'webhook-timestamp': String( Math.floor( now.getTime() / 1000 ) ),
		'webhook-signature': signature,
	},
	body,
} );
process.stdout.write( `${ response.status } ${ await response.text() }\n` );
process.exit( response.ok ? 0 : 1 );
