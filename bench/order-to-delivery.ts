/**
 * Order event to delivery, end to end through WordPress: the time from the REST call that
 * creates or pays an order to the signed webhook's arrival at a local receiver, beside that
 * REST call's own duration (the floor: the event cannot arrive before WordPress has
 * written it).
 *
 * Run: npx ts-node --transpile-only bench/order-to-delivery.ts [--help]
 */
import fs from 'fs';
import http from 'http';
import type { AddressInfo } from 'net';
import { performance } from 'perf_hooks';
import { intFlag, parseFlags, portFlag } from '../scripts/lib/cli-args';
import { RestClient } from '../scripts/lib/rest-client';
import { stopChild } from '../scripts/lib/sidecar-process';
import { describeStack, startStack, type Stack, type StackOptions } from '../scripts/lib/stack';
import { stopWordPress } from '../scripts/lib/wp-env';
import { createApplicationPassword, loginCookies } from '../scripts/lib/wp-login';

const HELP = `Usage: npx ts-node --transpile-only bench/order-to-delivery.ts [options]

Starts its own WordPress (Playground runtime, fresh database, the WooCommerce-compatible
test fixture) and sidecar, subscribes a receiver on 127.0.0.1 to order.created and
order.paid, then, one order at a time: creates it (POST /wc-fixture/v1/orders), waits for
its order.created webhook, pays it (POST /wc-fixture/v1/orders/pay), waits for order.paid.
Prints, per event type, p50 / p95 / max of:
  rest      the REST call that changed the order (WordPress's own cost, the floor)
  delivery  from sending that call to the webhook's arrival at the receiver
Stops WordPress and the sidecar at the end, even on failure.

Options:
  --orders=<n>         orders (default 30, max 500)
  --name=<env>         environment name (default bench-order-delivery)
  --wp-port=<port>     WordPress port (default 8941)
  --sidecar-port=<port>  sidecar port (default 8841)
  --help               this text
`;

interface Arrival {
	type: string;
	orderId: number;
	at: number;
}

function startReceiver(): Promise< { url: string; arrivals: Arrival[]; server: http.Server } > {
	const arrivals: Arrival[] = [];
	const server = http.createServer( ( req, res ) => {
		const chunks: Buffer[] = [];
		req.on( 'data', ( chunk: Buffer ) => chunks.push( chunk ) );
		req.on( 'end', () => {
			const at = performance.now();
			const body = JSON.parse( Buffer.concat( chunks ).toString( 'utf8' ) ) as {
				type: string;
				data: { order: { id: number } };
			};
			arrivals.push( { type: body.type, orderId: body.data.order.id, at } );
			res.writeHead( 200 ).end( 'ok' );
		} );
	} );
	return new Promise( ( resolve ) =>
		server.listen( 0, '127.0.0.1', () =>
			resolve( { url: `http://127.0.0.1:${ ( server.address() as AddressInfo ).port }/hook`, arrivals, server } )
		)
	);
}

async function arrivalOf( arrivals: Arrival[], type: string, orderId: number, timeoutMs = 60_000 ): Promise< number > {
	const deadline = performance.now() + timeoutMs;
	for (;;) {
		const found = arrivals.find( ( a ) => a.type === type && a.orderId === orderId );
		if ( found ) {
			return found.at;
		}
		if ( performance.now() > deadline ) {
			throw new Error( `no ${ type } webhook for order ${ orderId } within ${ timeoutMs / 1000 } s` );
		}
		await new Promise( ( r ) => setTimeout( r, 2 ) );
	}
}

function percentile( sorted: number[], p: number ): number {
	return sorted[ Math.min( sorted.length - 1, Math.ceil( ( p / 100 ) * sorted.length ) - 1 ) ] ?? NaN;
}

function summary( values: number[] ): string {
	const sorted = [ ...values ].sort( ( a, b ) => a - b );
	const ms = ( v: number ) => `${ Math.round( v ) } ms`.padStart( 8 );
	return `p50 ${ ms( percentile( sorted, 50 ) ) }   p95 ${ ms( percentile( sorted, 95 ) ) }   max ${ ms( sorted[ sorted.length - 1 ] ?? NaN ) }`;
}

async function ensure< T >( call: Promise< { status: number; body: T } >, what: string ): Promise< T > {
	const result = await call;
	if ( result.status < 200 || result.status > 299 ) {
		throw new Error( `${ what }: HTTP ${ result.status } ${ JSON.stringify( result.body ).slice( 0, 300 ) }` );
	}
	return result.body;
}

async function main(): Promise< void > {
	const flags = parseFlags( process.argv.slice( 2 ), [ 'help', 'orders', 'name', 'wp-port', 'sidecar-port' ] );
	if ( flags.help ) {
		process.stdout.write( HELP );
		return;
	}
	const orders = intFlag( flags, 'orders', 30, 1, 500 );
	const name = typeof flags.name === 'string' ? flags.name : 'bench-order-delivery';

	const receiver = await startReceiver();
	let stack: Stack | undefined;
	try {
		const stackOptions: StackOptions = {
			name,
			runtime: 'playground',
			wpPort: portFlag( flags[ 'wp-port' ], 8941, 'wp-port' ),
			sidecarPort: portFlag( flags[ 'sidecar-port' ], 8841, 'sidecar-port' ),
			freshSite: true,
			sidecarEnv: { SIDECAR_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', SIDECAR_LOG_LEVEL: 'warn' },
		};
		// A fresh site numbers its orders from 1 again, so its event ids repeat an earlier
		// run's: the sidecar would rightly take them as duplicates. Start it empty too.
		fs.rmSync( describeStack( stackOptions ).sidecarDataDir, { recursive: true, force: true } );
		stack = await startStack( stackOptions );
		const cookie = await loginCookies( stack.siteUrl, 'admin', 'password' );
		const admin = new RestClient( stack.siteUrl, {
			username: 'admin',
			password: await createApplicationPassword( stack.siteUrl, cookie, 'bench' ),
		} );
		await ensure(
			admin.post( '/service-integration/v1/webhooks/endpoints', {
				url: receiver.url,
				event_types: [ 'order.created', 'order.paid' ],
			} ),
			'Creating the endpoint'
		);
		const [ product ] = (
			await ensure(
				admin.post< { products: Array< { id: number } > } >( '/wc-fixture/v1/products', {
					products: [ { name: 'Table chêne', sku: 'BENCH-1', price: '120.00' } ],
				} ),
				'Creating a product'
			)
		).products;

		const rest: Record< string, number[] > = { 'order.created': [], 'order.paid': [] };
		const delivery: Record< string, number[] > = { 'order.created': [], 'order.paid': [] };
		for ( let i = 0; i < orders; i++ ) {
			let started = performance.now();
			const { ids } = await ensure(
				admin.post< { ids: number[] } >( '/wc-fixture/v1/orders', {
					orders: [
						{
							status: 'pending',
							billing: { email: `bench${ i }@example.com` },
							line_items: [ { product_id: product?.id, quantity: 1 } ],
						},
					],
				} ),
				'Creating an order'
			);
			const orderId = ids[ 0 ] as number;
			rest[ 'order.created' ]?.push( performance.now() - started );
			delivery[ 'order.created' ]?.push(
				( await arrivalOf( receiver.arrivals, 'order.created', orderId ) ) - started
			);

			started = performance.now();
			await ensure( admin.post( '/wc-fixture/v1/orders/pay', { ids: [ orderId ] } ), 'Paying an order' );
			rest[ 'order.paid' ]?.push( performance.now() - started );
			delivery[ 'order.paid' ]?.push( ( await arrivalOf( receiver.arrivals, 'order.paid', orderId ) ) - started );
		}

		process.stdout.write(
			`\nOrder event to delivery through WordPress (Playground, one PHP worker), ${ orders } orders one at a time:\n`
		);
		for ( const type of [ 'order.created', 'order.paid' ] ) {
			process.stdout.write( `  ${ type.padEnd( 14 ) } rest      ${ summary( rest[ type ] ?? [] ) }\n` );
			process.stdout.write( `  ${ ''.padEnd( 14 ) } delivery  ${ summary( delivery[ type ] ?? [] ) }\n` );
		}
	} finally {
		receiver.server.close();
		if ( stack ) {
			await stopChild( stack.sidecar );
			await stopWordPress( stack.env, true ).catch( () => undefined );
		}
	}
}

main().catch( ( error: Error ) => {
	process.stderr.write( `bench/order-to-delivery: ${ error.message }\n` );
	process.exit( 1 );
} );
