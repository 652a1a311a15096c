/**
 * Order event to delivery, end to end through WordPress: the time from the REST call that
 * creates or pays an order to the signed webhook's arrival at a local receiver, beside that
 * REST call's own duration (the floor: the event cannot arrive before WordPress has
 * written it).
 *
 * Run: npx ts-node --transpile-only bench/order-to-delivery.ts [--help]
 */
import http from 'http';
import type { AddressInfo } from 'net';
import { performance } from 'perf_hooks';
import { intFlag, parseFlags, portFlag } from '../scripts/lib/cli-args';
import { RestClient } from '../scripts/lib/rest-client';
import { SITE_CHOICE_HELP } from '../scripts/lib/site-choice';
import { createApplicationPassword, loginCookies } from '../scripts/lib/wp-login';
import { SHOP_RUNTIME_HELP, shopSite, startShopStack, stopOnSignals, type ShopStack } from './support/bench-stack';

const HELP = `Usage: [WOOCOMMERCE_VERSION=10.0.2|9.4.3] [WOOCOMMERCE_HPOS=on|off] \\
       npx ts-node --transpile-only bench/order-to-delivery.ts [options]

Starts its own shop, WordPress with real WooCommerce (by default WordPress 7.1 and WooCommerce
10.0.2 from ../shared/builds; see Environment) on nginx + PHP-FPM + MariaDB (fresh databases),
and sidecar, subscribes a receiver on 127.0.0.1 to order.created and order.paid, creates a
product (POST /wc/v3/products), then, one order at a time, through WooCommerce's REST API as
the administrator: creates it (POST /wc/v3/orders/batch, status pending), waits for its
order.created webhook, pays it (POST /wc/v3/orders/batch, set_paid), waits for order.paid.
Prints, per event type, p50 / p95 / max of:
  rest      the REST call that changed the order (WordPress's own cost, the floor)
  delivery  from sending that call to the webhook's arrival at the receiver
Stops WordPress and the sidecar at the end, even on failure.

Options:
${ SHOP_RUNTIME_HELP }  --orders=<n>         orders (default 30, max 500)
  --name=<env>         environment name (default bench-order-delivery)
  --wp-port=<port>     WordPress port (default 8941; PHP-FPM takes it + 2, MariaDB + 3)
  --sidecar-port=<port>  sidecar port (default 8841)
  --help               this text

Environment (what the site runs, as for npm start and npm run production):
${ SITE_CHOICE_HELP }`;

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

/**
 * Creates or updates one order through WooCommerce's batch route, as the e2e tests' shop driver
 * does (tests/e2e/support/commerce.ts); returns its id. The batch answers 200 with an error in
 * the order's entry when that order fails.
 */
async function batchOne(
	admin: RestClient,
	action: 'create' | 'update',
	order: Record< string, unknown >,
	what: string
): Promise< number > {
	const answer = await ensure(
		admin.post< Record< string, Array< { id: number; error?: unknown } > | undefined > >( '/wc/v3/orders/batch', {
			[ action ]: [ order ],
		} ),
		what
	);
	const [ done ] = answer[ action ] ?? [];
	if ( ! done?.id ) {
		throw new Error( `${ what }: ${ JSON.stringify( done?.error ?? answer ).slice( 0, 300 ) }` );
	}
	return done.id;
}

async function main(): Promise< void > {
	const flags = parseFlags( process.argv.slice( 2 ), [
		'help',
		'runtime',
		'php-workers',
		'orders',
		'name',
		'wp-port',
		'sidecar-port',
	] );
	if ( flags.help ) {
		process.stdout.write( HELP );
		return;
	}
	const site = shopSite( flags.runtime, 'bench/order-to-delivery.ts' );
	const orders = intFlag( flags, 'orders', 30, 1, 500 );

	const receiver = await startReceiver();
	let stack: ShopStack | undefined;
	const stop = async (): Promise< void > => {
		receiver.server.close();
		const current = stack;
		stack = undefined;
		await current?.stop();
	};
	stopOnSignals( stop );
	try {
		// Fresh databases, the sidecar's too: a fresh site numbers its orders from 1 again, and
		// an earlier run's sidecar would rightly take their event ids as duplicates.
		stack = await startShopStack( {
			name: typeof flags.name === 'string' ? flags.name : 'bench-order-delivery',
			wpPort: portFlag( flags[ 'wp-port' ], 8941, 'wp-port' ),
			sidecarPort: portFlag( flags[ 'sidecar-port' ], 8841, 'sidecar-port' ),
			phpWorkers: intFlag( flags, 'php-workers', 4, 1, 32 ),
			site,
			sidecarEnv: { SIDECAR_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', SIDECAR_LOG_LEVEL: 'warn' },
		} );
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
		const product = await ensure(
			admin.post< { id: number } >( '/wc/v3/products', {
				name: 'Table chêne',
				sku: 'BENCH-1',
				regular_price: '120.00',
				type: 'simple',
			} ),
			'Creating a product'
		);

		const rest: Record< string, number[] > = { 'order.created': [], 'order.paid': [] };
		const delivery: Record< string, number[] > = { 'order.created': [], 'order.paid': [] };
		for ( let i = 0; i < orders; i++ ) {
			let started = performance.now();
			const orderId = await batchOne(
				admin,
				'create',
				{
					status: 'pending',
					billing: { email: `bench${ i }@example.com` },
					line_items: [ { product_id: product.id, quantity: 1 } ],
				},
				'Creating an order'
			);
			rest[ 'order.created' ]?.push( performance.now() - started );
			delivery[ 'order.created' ]?.push(
				( await arrivalOf( receiver.arrivals, 'order.created', orderId ) ) - started
			);

			started = performance.now();
			await batchOne( admin, 'update', { id: orderId, set_paid: true }, 'Paying an order' );
			rest[ 'order.paid' ]?.push( performance.now() - started );
			delivery[ 'order.paid' ]?.push( ( await arrivalOf( receiver.arrivals, 'order.paid', orderId ) ) - started );
		}

		process.stdout.write(
			`\nOrder event to delivery through WordPress, ${ orders } orders one at a time\n${ stack.description }:\n`
		);
		for ( const type of [ 'order.created', 'order.paid' ] ) {
			process.stdout.write( `  ${ type.padEnd( 14 ) } rest      ${ summary( rest[ type ] ?? [] ) }\n` );
			process.stdout.write( `  ${ ''.padEnd( 14 ) } delivery  ${ summary( delivery[ type ] ?? [] ) }\n` );
		}
	} finally {
		await stop();
	}
}

main().catch( ( error: Error ) => {
	process.stderr.write( `bench/order-to-delivery: ${ error.message }\n` );
	process.exit( 1 );
} );
