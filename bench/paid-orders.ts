/**
 * Paid-orders endpoint benchmark: the plugin's GET /service-integration/v1/commandes-payees
 * against the route an automation would call instead, GET /wc/v3/orders filtered to the paid
 * statuses, on one running WordPress, side by side and interleaved, pages of 100.
 *
 * Run: npx ts-node --transpile-only bench/paid-orders.ts [--help]
 *
 * Against the WooCommerce-compatible TEST FIXTURE (the only commerce plugin available
 * offline) the comparison is with the fixture's stand-in for /wc/v3/orders
 * (/wc-fixture/v1/wc-v3-orders), which builds the same response shape as WooCommerce's
 * controller from the same orders; it is not WooCommerce itself.
 */
import fs from 'fs';
import path from 'path';
import { performance } from 'perf_hooks';
import { parseFlags, portFlag } from '../scripts/lib/cli-args';
import { environmentDir } from '../scripts/lib/paths';
import { PLAYGROUND_COOKIE } from '../scripts/lib/wp-env';
import { createApplicationPassword, loginCookies } from '../scripts/lib/wp-login';
import { RUNTIME_HELP, runtimeFlag, startBenchStack, stopKeptWordPress, type BenchRuntime, type BenchStack } from './support/bench-stack';

const HELP = `Usage: npx ts-node --transpile-only bench/paid-orders.ts [options]

Starts its own WordPress (Playground runtime, or native PHP with --runtime=native; fresh
database, the WooCommerce-compatible test fixture) and sidecar, seeds orders (about a third
paid: processing or completed), and measures, interleaved request by request on the same
pages of 100 paid orders:
  (a) GET /wp-json/service-integration/v1/commandes-payees   (service account)
  (b) GET /wp-json/wc-fixture/v1/wc-v3-orders?status=processing,completed
      the fixture's stand-in for GET /wc/v3/orders          (administrator)
plus a trivial authenticated request per identity (GET /service-integration/v1/me) to show
the fixed cost of a WordPress request that both pay. Prints median and p95 latency, bytes
per page, and the ratios (b)/(a), at each scale, and how (a) grows with the order count.
Stops WordPress and the sidecar at the end, even on failure.

Options:
${ RUNTIME_HELP }  --scales=<n,n,...>   order counts to measure at (default 1000,10000,50000); the
                       side-by-side headline is taken at --compare-at
  --compare-at=<n>     scale whose ratios are the headline (default 10000)
  --rounds=<n>         interleaved rounds per scale (default 25)
  --per-page=<n>       page size (default 100)
  --chunk=<n>          orders per seeding request (default 1000)
  --max-seed-minutes=<n>  stop seeding larger scales after this long (default 20)
  --name=<env>         environment name (default bench-orders)
  --wp-port=<port>     WordPress port (default 8921)
  --sidecar-port=<port>  sidecar port (default 8821)
  --json               also print the results as JSON
  --keep               leave WordPress and the sidecar running at the end (prints how to reach
                       them), for investigation; stop them later with --stop
  --stop               stop what an earlier --keep run left running (same --runtime/--name/ports)
                       and exit
  --help               this text

Targets: (a) at least 3x faster (median and p95) and at least 10x smaller than (b);
(a) flat per page from 1,000 to 50,000 orders.
`;

interface Options {
	runtime: BenchRuntime;
	phpWorkers: number;
	scales: number[];
	compareAt: number;
	rounds: number;
	perPage: number;
	chunk: number;
	maxSeedMinutes: number;
	name: string;
	wpPort: number;
	sidecarPort: number;
	json: boolean;
	keep: boolean;
	stop: boolean;
}

function parseOptions( argv: string[] ): Options | undefined {
	const flags = parseFlags( argv, [ 'help', 'runtime', 'php-workers', 'scales', 'compare-at', 'rounds', 'per-page', 'chunk', 'max-seed-minutes', 'name', 'wp-port', 'sidecar-port', 'json', 'keep', 'stop' ] );
	if ( flags.help ) {
		return undefined;
	}
	const int = ( name: string, fallback: number, min: number, max: number ): number => {
		const value = flags[ name ];
		if ( value === undefined ) {
			return fallback;
		}
		const n = Number( value );
		if ( ! Number.isInteger( n ) || n < min || n > max ) {
			throw new Error( `--${ name } must be an integer from ${ min } to ${ max }, got "${ String( value ) }"` );
		}
		return n;
	};
	const scales = typeof flags.scales === 'string' ? flags.scales.split( ',' ).map( Number ) : [ 1000, 10000, 50000 ];
	if ( scales.some( ( n ) => ! Number.isInteger( n ) || n < 300 || n > 200_000 ) || scales.length === 0 ) {
		throw new Error( '--scales must be a comma-separated list of integers from 300 to 200000' );
	}
	scales.sort( ( a, b ) => a - b );
	const compareAt = int( 'compare-at', scales.includes( 10000 ) ? 10000 : ( scales[ 0 ] as number ), 300, 200_000 );
	if ( ! scales.includes( compareAt ) ) {
		throw new Error( '--compare-at must be one of --scales' );
	}
	return {
		runtime: runtimeFlag( flags.runtime ),
		phpWorkers: int( 'php-workers', 4, 1, 32 ),
		scales,
		compareAt,
		rounds: int( 'rounds', 25, 3, 1000 ),
		perPage: int( 'per-page', 100, 1, 100 ),
		chunk: int( 'chunk', 1000, 50, 5000 ),
		maxSeedMinutes: int( 'max-seed-minutes', 20, 1, 600 ),
		name: typeof flags.name === 'string' ? flags.name : 'bench-orders',
		wpPort: portFlag( flags[ 'wp-port' ], 8921, 'wp-port' ),
		sidecarPort: portFlag( flags[ 'sidecar-port' ], 8821, 'sidecar-port' ),
		json: flags.json === true,
		keep: flags.keep === true,
		stop: flags.stop === true,
	};
}

// ---------------------------------------------------------------------------
// HTTP

interface Identity {
	username: string;
	password: string;
}

interface Timed {
	ms: number;
	bytes: number;
	status: number;
	body: string;
}

async function request( siteUrl: string, who: Identity, path: string, init: { method?: string; body?: unknown } = {} ): Promise< Timed > {
	const headers: Record< string, string > = {
		accept: 'application/json',
		cookie: PLAYGROUND_COOKIE,
		authorization: 'Basic ' + Buffer.from( `${ who.username }:${ who.password }` ).toString( 'base64' ),
	};
	let body: string | undefined;
	if ( init.body !== undefined ) {
		body = JSON.stringify( init.body );
		headers[ 'content-type' ] = 'application/json';
	}
	const started = performance.now();
	const response = await fetch( `${ siteUrl }/wp-json${ path }`, { method: init.method ?? 'GET', headers, body, redirect: 'manual' } );
	const buffer = Buffer.from( await response.arrayBuffer() );
	const ms = performance.now() - started;
	return { ms, bytes: buffer.length, status: response.status, body: buffer.toString( 'utf8' ) };
}

async function json< T >( siteUrl: string, who: Identity, path: string, init: { method?: string; body?: unknown } = {}, expected = [ 200, 201 ] ): Promise< T > {
	const result = await request( siteUrl, who, path, init );
	if ( ! expected.includes( result.status ) ) {
		throw new Error( `${ init.method ?? 'GET' } ${ path } answered HTTP ${ result.status }: ${ result.body.slice( 0, 300 ) }` );
	}
	return JSON.parse( result.body ) as T;
}

// ---------------------------------------------------------------------------
// Seed data: orders as a WooCommerce checkout makes them in an EU shop (VAT, a shipping
// line, Stripe payment, order attribution meta that WooCommerce 8.5+ records by default).

/** A small deterministic PRNG (mulberry32), so every run seeds and samples the same way. */
function random( seed: number ): () => number {
	let a = seed >>> 0;
	return () => {
		a = ( a + 0x6d2b79f5 ) >>> 0;
		let t = a;
		t = Math.imul( t ^ ( t >>> 15 ), t | 1 );
		t ^= t + Math.imul( t ^ ( t >>> 7 ), t | 61 );
		return ( ( t ^ ( t >>> 14 ) ) >>> 0 ) / 4294967296;
	};
}

const FIRST = [ 'Ada', 'Grace', 'Alan', 'Margaret', 'Linus', 'Hedy', 'Tim', 'Barbara', 'Dennis', 'Frances', 'Ken', 'Radia' ];
const LAST = [ 'Lovelace', 'Hopper', 'Turing', 'Hamilton', 'Torvalds', 'Lamarr', 'Berners-Lee', 'Liskov', 'Ritchie', 'Allen', 'Thompson', 'Perlman' ];
const CITIES: Array< [ string, string, string ] > = [
	[ 'Lyon', '69002', 'FR' ],
	[ 'Paris', '75011', 'FR' ],
	[ 'Bruxelles', '1000', 'BE' ],
	[ 'Berlin', '10115', 'DE' ],
	[ 'Nantes', '44000', 'FR' ],
	[ 'Genève', '1201', 'CH' ],
];
const USER_AGENT = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
// Paid share: 3 statuses in 9 (processing x2, completed x1).
const STATUSES = [ 'processing', 'processing', 'completed', 'pending', 'on-hold', 'cancelled', 'failed', 'refunded', 'pending' ];

interface SeedProduct {
	id: number;
	price: number;
}

function seedOrder( index: number, total: number, products: SeedProduct[], rand: () => number, now: number ): Record< string, unknown > {
	const first = FIRST[ index % FIRST.length ] as string;
	const last = LAST[ Math.floor( index / FIRST.length ) % LAST.length ] as string;
	const [ city, postcode, country ] = CITIES[ index % CITIES.length ] as [ string, string, string ];
	const email = `${ first.toLowerCase() }.${ last.toLowerCase() }.${ index }@example.com`;
	const status = STATUSES[ index % STATUSES.length ] as string;
	const paid = status === 'processing' || status === 'completed';
	// Created over the last 400 days, oldest first; paid one to ten minutes later.
	const created = Math.floor( now / 1000 ) - 400 * 86400 + Math.floor( ( index / total ) * 399 * 86400 );
	const lines = 1 + Math.floor( rand() * 3 );
	const lineItems = Array.from( { length: lines }, ( _, n ) => {
		const product = products[ Math.floor( rand() * products.length ) ] as SeedProduct;
		const quantity = 1 + Math.floor( rand() * 4 );
		const net = product.price * quantity;
		return {
			product_id: product.id,
			quantity,
			total: net.toFixed( 2 ),
			tax: ( net * 0.2 ).toFixed( 2 ),
			meta_data: [
				...( n === 0 ? [ { key: 'pa_finish', value: [ 'oak', 'walnut', 'ash' ][ index % 3 ] } ] : [] ),
				...( paid ? [ { key: '_reduced_stock', value: String( quantity ) } ] : [] ),
			],
		};
	} );
	const address = { first_name: first, last_name: last, company: index % 5 === 0 ? 'Atelier Durand SARL' : '', address_1: `${ 1 + ( index % 120 ) } rue de la République`, address_2: index % 4 === 0 ? 'Bâtiment B' : '', city, state: '', postcode, country };
	return {
		status,
		currency: 'EUR',
		customer_id: 0,
		billing: { ...address, email, phone: `+33 6 ${ String( 10000000 + index ).slice( -8 ) }` },
		shipping: { ...address, phone: '' },
		payment_method: 'stripe',
		payment_method_title: 'Credit card (Stripe)',
		transaction_id: paid ? `pi_3P${ index.toString( 36 ).padStart( 8, '0' ) }QZ` : '',
		customer_ip_address: `203.0.113.${ index % 250 }`,
		customer_user_agent: USER_AGENT,
		customer_note: index % 7 === 0 ? 'Please deliver in the morning.' : '',
		cart_hash: ( index * 2654435761 ).toString( 16 ).padStart( 32, '0' ).slice( 0, 32 ),
		date_created: new Date( created * 1000 ).toISOString().replace( /\.\d{3}Z$/, 'Z' ),
		...( paid ? { date_paid: new Date( ( created + 60 + ( index % 540 ) ) * 1000 ).toISOString().replace( /\.\d{3}Z$/, 'Z' ) } : {} ),
		line_items: lineItems,
		shipping_lines: [ { method_id: 'flat_rate', method_title: 'Colissimo', instance_id: '3', total: '9.90', tax: '1.98' } ],
		tax_lines: [ { rate_id: 1, rate_code: `${ country }-TVA-1`, label: 'TVA', tax_total: lineItems.reduce( ( sum, l ) => sum + Number( l.tax ), 0 ).toFixed( 2 ), shipping_tax_total: '1.98', rate_percent: 20 } ],
		meta_data: [
			{ key: 'is_vat_exempt', value: 'no' },
			{ key: '_wc_order_attribution_source_type', value: 'organic' },
			{ key: '_wc_order_attribution_referrer', value: 'https://www.google.com/' },
			{ key: '_wc_order_attribution_utm_source', value: 'google' },
			{ key: '_wc_order_attribution_session_entry', value: 'https://atelier.example/produit/chaise-chene/' },
			{ key: '_wc_order_attribution_session_start_time', value: new Date( ( created - 900 ) * 1000 ).toISOString().replace( 'T', ' ' ).slice( 0, 19 ) },
			{ key: '_wc_order_attribution_session_pages', value: String( 2 + ( index % 9 ) ) },
			{ key: '_wc_order_attribution_session_count', value: String( 1 + ( index % 3 ) ) },
			{ key: '_wc_order_attribution_user_agent', value: USER_AGENT },
			{ key: '_wc_order_attribution_device_type', value: index % 3 ? 'Desktop' : 'Mobile' },
			...( paid ? [ { key: '_stripe_customer_id', value: `cus_${ index.toString( 36 ) }` }, { key: '_stripe_fee', value: '1.12' }, { key: '_stripe_net', value: '58.78' }, { key: '_stripe_currency', value: 'EUR' } ] : [] ),
		],
	};
}

// ---------------------------------------------------------------------------
// Statistics

function percentile( values: number[], p: number ): number {
	const sorted = [ ...values ].sort( ( a, b ) => a - b );
	if ( sorted.length === 0 ) {
		return NaN;
	}
	const rank = Math.min( sorted.length - 1, Math.max( 0, Math.ceil( ( p / 100 ) * sorted.length ) - 1 ) );
	return sorted[ rank ] as number;
}

const median = ( values: number[] ): number => percentile( values, 50 );

interface Series {
	ms: number[];
	bytes: number[];
}

interface ScaleResult {
	orders: number;
	paid: number;
	pages: number;
	ours: Series;
	standIn: Series;
	oursBaseline: number[];
	adminBaseline: number[];
	samePages: boolean;
}

function summary( series: Series ): { median: number; p95: number; bytes: number } {
	return { median: median( series.ms ), p95: percentile( series.ms, 95 ), bytes: median( series.bytes ) };
}

// ---------------------------------------------------------------------------

async function main(): Promise< void > {
	const options = parseOptions( process.argv.slice( 2 ) );
	if ( ! options ) {
		process.stdout.write( HELP );
		return;
	}
	const pidFile = path.join( environmentDir( options.name ), 'bench-sidecar.pid' );
	if ( options.stop ) {
		await stopKeptWordPress( options );
		if ( fs.existsSync( pidFile ) ) {
			try {
				process.kill( Number( fs.readFileSync( pidFile, 'utf8' ) ), 'SIGTERM' );
			} catch {
				// Already gone.
			}
			fs.rmSync( pidFile );
		}
		log( `Stopped "${ options.name }"` );
		return;
	}
	if ( process.env.WOOCOMMERCE_DIR ) {
		throw new Error( 'This benchmark seeds through the fixture’s bulk route; run it without WOOCOMMERCE_DIR.' );
	}

	let stack: BenchStack | undefined;
	const stop = async (): Promise< void > => {
		if ( stack ) {
			const current = stack;
			stack = undefined;
			await current.stop();
		}
	};
	process.once( 'SIGINT', () => void stop().then( () => process.exit( 130 ) ) );

	try {
		log( `Starting WordPress "${ options.name }" (${ options.runtime } runtime) on port ${ options.wpPort } (fresh database, WooCommerce-compatible test fixture)` );
		stack = await startBenchStack( { runtime: options.runtime, name: options.name, wpPort: options.wpPort, sidecarPort: options.sidecarPort, phpWorkers: options.phpWorkers } );
		const site = stack.siteUrl;
		const cookie = await loginCookies( site, 'admin', 'password' );
		const admin: Identity = { username: 'admin', password: await createApplicationPassword( site, cookie, 'bench' ) };
		await json( site, admin, '/service-integration/v1/service-account', { method: 'POST' } );
		const created = await json< { username: string; password: string } >( site, admin, '/service-integration/v1/service-account/application-passwords', { method: 'POST', body: { name: 'bench' } } );
		const service: Identity = { username: created.username, password: created.password };

		const catalogue = Array.from( { length: 24 }, ( _, i ) => ( { name: `${ [ 'Chaise', 'Table', 'Banc', 'Étagère', 'Lampe', 'Tabouret' ][ i % 6 ] } ${ [ 'chêne', 'noyer', 'frêne', 'hêtre' ][ Math.floor( i / 6 ) ] }`, sku: `ATL-${ String( 100 + i ) }`, price: ( 25 + i * 17.5 ).toFixed( 2 ) } ) );
		const products = ( await json< { products: Array< { id: number; price: string } > } >( site, admin, '/wc-fixture/v1/products', { method: 'POST', body: { products: catalogue } } ) ).products.map( ( p ) => ( { id: p.id, price: Number( p.price ) } ) );

		const rand = random( 20261122 );
		const now = Date.now();
		const finalScale = options.scales[ options.scales.length - 1 ] as number;
		let seeded = 0;
		let seedMs = 0;
		const seedStarted = Date.now();
		const results: ScaleResult[] = [];
		const skipped: number[] = [];

		for ( const scale of options.scales ) {
			if ( ( Date.now() - seedStarted ) / 60000 > options.maxSeedMinutes ) {
				skipped.push( scale );
				continue;
			}
			log( `Seeding to ${ scale.toLocaleString( 'en' ) } orders (${ options.chunk } per request, one transaction each, no hooks)` );
			while ( seeded < scale ) {
				const count = Math.min( options.chunk, scale - seeded );
				const orders = Array.from( { length: count }, ( _, i ) => seedOrder( seeded + i, finalScale, products, rand, now ) );
				const started = performance.now();
				await json( site, admin, '/wc-fixture/v1/orders', { method: 'POST', body: { orders, hooks: false } } );
				seedMs += performance.now() - started;
				seeded += count;
				if ( seeded % 5000 === 0 || seeded === scale ) {
					log( `  ${ seeded.toLocaleString( 'en' ) } orders (${ ( seedMs / 1000 ).toFixed( 0 ) } s of seeding so far)` );
				}
				if ( ( Date.now() - seedStarted ) / 60000 > options.maxSeedMinutes && seeded < scale ) {
					break;
				}
			}
			if ( seeded < scale ) {
				skipped.push( scale );
				log( `  seeding budget (${ options.maxSeedMinutes } min) spent at ${ seeded } orders: ${ scale } not measured` );
				continue;
			}
			log( `Measuring at ${ scale.toLocaleString( 'en' ) } orders: ${ options.rounds } interleaved rounds` );
			results.push( await measure( site, service, admin, scale, options ) );
		}

		report( results, skipped, options, { seeded, seedMs }, stack.description );
		if ( options.keep && stack ) {
			log( `Kept running: ${ site } (admin ${ admin.username } / ${ admin.password }; service account ${ service.username } / ${ service.password }); sidecar pid ${ stack.sidecar.pid }` );
			fs.writeFileSync( pidFile, String( stack.sidecar.pid ) );
			stack.detach();
			stack = undefined;
		}
	} finally {
		await stop();
	}
}

async function measure( site: string, service: Identity, admin: Identity, orders: number, options: Options ): Promise< ScaleResult > {
	const ours = ( page: number ): string => `/service-integration/v1/commandes-payees?per_page=${ options.perPage }&page=${ page }`;
	const standIn = ( page: number ): string => `/wc-fixture/v1/wc-v3-orders?status=processing,completed&per_page=${ options.perPage }&page=${ page }`;

	const paid = await fetchTotal( site, service, ours( 1 ) );
	const pages = Math.max( 1, Math.ceil( paid / options.perPage ) );
	// Warm-up for both routes, on pages that exist (a page past the last one is refused).
	for ( let i = 0; i < 3; i++ ) {
		check( await request( site, service, ours( 1 + ( i % pages ) ) ), 'endpoint' );
		check( await request( site, admin, standIn( 1 + ( i % pages ) ) ), 'stand-in' );
	}

	const pick = random( orders );
	const result: ScaleResult = { orders, paid, pages, ours: { ms: [], bytes: [] }, standIn: { ms: [], bytes: [] }, oursBaseline: [], adminBaseline: [], samePages: true };
	for ( let round = 0; round < options.rounds; round++ ) {
		const page = 1 + Math.floor( pick() * pages );
		let oursBody = '';
		let standInBody = '';
		const steps: Array< () => Promise< void > > = [
			async () => {
				const r = check( await request( site, service, ours( page ) ), 'endpoint' );
				result.ours.ms.push( r.ms );
				result.ours.bytes.push( r.bytes );
				oursBody = r.body;
			},
			async () => {
				const r = check( await request( site, admin, standIn( page ) ), 'stand-in' );
				result.standIn.ms.push( r.ms );
				result.standIn.bytes.push( r.bytes );
				standInBody = r.body;
			},
			async () => {
				result.oursBaseline.push( check( await request( site, service, '/service-integration/v1/me' ), 'baseline' ).ms );
			},
			async () => {
				result.adminBaseline.push( check( await request( site, admin, '/service-integration/v1/me' ), 'baseline' ).ms );
			},
		];
		// Alternate which route goes first, so neither always follows the other.
		for ( const i of round % 2 === 0 ? [ 0, 1, 2, 3 ] : [ 1, 0, 3, 2 ] ) {
			await ( steps[ i ] as () => Promise< void > )();
		}
		const ids = ( body: string ): string => ( JSON.parse( body ) as Array< { id: number } > ).map( ( o ) => o.id ).join();
		if ( ids( oursBody ) !== ids( standInBody ) ) {
			result.samePages = false;
		}
	}
	return result;
}

async function fetchTotal( site: string, who: Identity, path: string ): Promise< number > {
	const response = await fetch( `${ site }/wp-json${ path }`, { headers: { cookie: PLAYGROUND_COOKIE, authorization: 'Basic ' + Buffer.from( `${ who.username }:${ who.password }` ).toString( 'base64' ) } } );
	await response.arrayBuffer();
	return Number( response.headers.get( 'x-wp-total' ) );
}

function check( result: Timed, what: string ): Timed {
	if ( result.status !== 200 ) {
		throw new Error( `The ${ what } answered HTTP ${ result.status }: ${ result.body.slice( 0, 300 ) }` );
	}
	return result;
}

function report( results: ScaleResult[], skipped: number[], options: Options, seeding: { seeded: number; seedMs: number }, runtime: string ): void {
	const ms = ( n: number ): string => `${ n.toFixed( 0 ).padStart( 6 ) } ms`;
	const kb = ( n: number ): string => `${ ( n / 1024 ).toFixed( 1 ).padStart( 7 ) } KiB`;
	const x = ( n: number ): string => `${ n.toFixed( 2 ) }x`;
	const lines: string[] = [];
	lines.push( '' );
	lines.push( 'Paid-orders endpoint vs the fixture’s stand-in for GET /wc/v3/orders?status=processing,completed' );
	lines.push( `WordPress runtime: ${ runtime }` );
	lines.push( `pages of ${ options.perPage }, ${ options.rounds } interleaved rounds per scale, random pages, same page for both routes` );
	lines.push( 'NOTE: against the WooCommerce-compatible TEST FIXTURE, (b) is the fixture’s stand-in (same response shape as' );
	lines.push( '      WooCommerce’s v3 orders controller, same orders), not WooCommerce itself.' );
	lines.push( '' );
	lines.push( '  orders    paid  route                          median       p95     body/page   same orders' );
	for ( const r of results ) {
		const a = summary( r.ours );
		const b = summary( r.standIn );
		lines.push( `${ String( r.orders ).padStart( 8 ) } ${ String( r.paid ).padStart( 7 ) }  (a) commandes-payees          ${ ms( a.median ) } ${ ms( a.p95 ) } ${ kb( a.bytes ) }   ${ r.samePages ? 'yes' : 'NO' }` );
		lines.push( `${ ''.padStart( 16 ) }  (b) stand-in /wc/v3/orders    ${ ms( b.median ) } ${ ms( b.p95 ) } ${ kb( b.bytes ) }` );
		lines.push( `${ ''.padStart( 16 ) }  trivial request (/me), service account / admin: ${ ms( median( r.oursBaseline ) ) } / ${ ms( median( r.adminBaseline ) ) }` );
		lines.push( `${ ''.padStart( 16 ) }  ratios (b)/(a): latency median ${ x( b.median / a.median ) }, p95 ${ x( b.p95 / a.p95 ) }, size ${ x( b.bytes / a.bytes ) };` );
		lines.push( `${ ''.padStart( 16 ) }  above a trivial request: (a) +${ ( a.median - median( r.oursBaseline ) ).toFixed( 0 ) } ms, (b) +${ ( b.median - median( r.adminBaseline ) ).toFixed( 0 ) } ms, ratio ${ x( ( b.median - median( r.adminBaseline ) ) / Math.max( 1, a.median - median( r.oursBaseline ) ) ) }` );
	}
	const headline = results.find( ( r ) => r.orders === options.compareAt );
	if ( headline ) {
		const a = summary( headline.ours );
		const b = summary( headline.standIn );
		lines.push( '' );
		lines.push( `At ${ headline.orders.toLocaleString( 'en' ) } orders: (a) is ${ x( b.median / a.median ) } faster at the median, ${ x( b.p95 / a.p95 ) } at p95, and ${ x( b.bytes / a.bytes ) } smaller (targets: 3x, 3x, 10x).` );
	}
	if ( results.length > 1 ) {
		const base = median( ( results[ 0 ] as ScaleResult ).ours.ms );
		lines.push( `Growth of (a) per page: ${ results.map( ( r ) => `${ r.orders.toLocaleString( 'en' ) }: ${ median( r.ours.ms ).toFixed( 0 ) } ms (${ x( median( r.ours.ms ) / base ) })` ).join( ', ' ) }` );
	}
	if ( skipped.length ) {
		lines.push( `Not measured (seeding budget of ${ options.maxSeedMinutes } min spent): ${ skipped.join( ', ' ) } orders.` );
	}
	lines.push( `Seeding: ${ seeding.seeded.toLocaleString( 'en' ) } orders in ${ ( seeding.seedMs / 1000 ).toFixed( 0 ) } s.` );
	process.stdout.write( lines.join( '\n' ) + '\n' );
	if ( options.json ) {
		process.stdout.write(
			JSON.stringify(
				results.map( ( r ) => ( { orders: r.orders, paid: r.paid, ours: summary( r.ours ), standIn: summary( r.standIn ), baselineService: median( r.oursBaseline ), baselineAdmin: median( r.adminBaseline ), samePages: r.samePages } ) ),
				null,
				2
			) + '\n'
		);
	}
}

function log( message: string ): void {
	process.stdout.write( `▸ ${ message }\n` );
}

main().catch( ( error: Error ) => {
	process.stderr.write( `\n✗ ${ error.stack ?? error.message }\n` );
	process.exitCode = 1;
} );
