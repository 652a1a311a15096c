#!/usr/bin/env node
/**
 * A webhook receiver for trying outbound webhooks on this machine: it verifies each delivery
 * with the `standardwebhooks` library (the scheme the sidecar signs with), prints what it got,
 * and answers 204, or 400 when the signature does not verify.
 *
 *   node examples/webhook-receiver.mjs --secret whsec_... [--port 9000] [--exit-after N]
 */
import http from 'node:http';
import { parseArgs } from 'node:util';
import standardWebhooks from 'standardwebhooks';

const HELP = `Usage: node examples/webhook-receiver.mjs --secret <whsec_...> [--port 9000] [--exit-after N]

Listens on 127.0.0.1:<port>, verifies every POST with the endpoint's secret (Standard Webhooks:
webhook-id, webhook-timestamp, webhook-signature), prints "verified <type> <webhook-id>" and the
payload, and answers 204 (400 when the signature does not verify).
  --exit-after N   exit after N verified deliveries (for scripts)
`;

const { values } = parseArgs( {
	options: {
		secret: { type: 'string' },
		port: { type: 'string', default: '9000' },
		'exit-after': { type: 'string' },
		help: { type: 'boolean', short: 'h' },
	},
} );
if ( values.help ) {
	process.stdout.write( HELP );
	process.exit( 0 );
}
if ( ! values.secret ) {
	process.stderr.write( `--secret is required: the endpoint's secret (whsec_...), shown once when it is created.\n\n${ HELP }` );
	process.exit( 2 );
}

const webhook = new standardWebhooks.Webhook( values.secret );
const exitAfter = values[ 'exit-after' ] ? Number( values[ 'exit-after' ] ) : Infinity;
let verified = 0;

const server = http.createServer( ( request, response ) => {
	const chunks = [];
	request.on( 'data', ( chunk ) => chunks.push( chunk ) );
	request.on( 'end', () => {
		const body = Buffer.concat( chunks ).toString( 'utf8' );
		try {
			const event = webhook.verify( body, request.headers );
			verified++;
			process.stdout.write( `verified ${ event.type } ${ request.headers[ 'webhook-id' ] }\n${ JSON.stringify( event.data ) }\n` );
			response.writeHead( 204 ).end();
		} catch ( error ) {
			process.stdout.write( `REFUSED ${ request.method } ${ request.url }: ${ error.message }\n` );
			response.writeHead( 400, { 'content-type': 'text/plain' } ).end( 'bad signature\n' );
		}
		if ( verified >= exitAfter ) {
			server.close();
			server.closeAllConnections();
		}
	} );
} );
server.listen( Number( values.port ), '127.0.0.1', () => {
	process.stdout.write( `listening on http://127.0.0.1:${ values.port }/\n` );
} );
