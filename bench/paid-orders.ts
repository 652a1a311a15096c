/**
 * Paid-orders endpoint benchmark: the plugin's GET /service-integration/v1/commandes-payees
 * against the route an automation would call instead, GET /wc/v3/orders filtered to the paid
 * statuses, and the plugin's incremental-sync order (orderby=date_paid with a cursor) at
 * several depths of the backlog, on one running WordPress, interleaved, pages of 100.
 *
 * Run: npx ts-node --transpile-only bench/paid-orders.ts [--help]
 *
 * The site runs real WooCommerce (scripts/lib/site-choice.ts) on the production runtime; orders
 * are seeded through WooCommerce's API (bench/support/wc-seed).
 */
import { execFileSync } from 'child_process';
import path from 'path';
import { performance } from 'perf_hooks';
import { isDeepStrictEqual } from 'util';
import { intFlag, intListFlag, parseFlags, portFlag, textFlag } from '../scripts/lib/cli-args';
import { ROOT } from '../scripts/lib/paths';
import { SITE_CHOICE_HELP } from '../scripts/lib/site-choice';
import { createApplicationPassword, loginCookies } from '../scripts/lib/wp-login';
import { stopProduction } from '../scripts/production/stack';
import {
	SHOP_RUNTIME_HELP,
	shopSite,
	startShopStack,
	stopOnSignals,
	type ShopSite,
	type ShopStack,
} from './support/bench-stack';
import { releaseAtCommit } from './support/release-at';
import { expectedFromStore, type StoreOrder } from '../tests/support/paid-order-shape';
import {
	defaultSeedCache,
	findSeedDump,
	relaxedDurability,
	restoreSeedDump,
	saveSeedDump,
	seedWithPhpCli,
	stopSeeders,
	type SeedCacheKey,
} from './support/wc-seed-cache';
import {
	assertSequenceEngine,
	CUSTOMER_FIRST_NAMES as FIRST,
	CUSTOMER_LAST_NAMES as LAST,
	multiplyOrders,
	TEMPLATE_ORDERS,
} from './support/wc-sql-multiply';
import { productionLayout } from '../scripts/production/layout';
import { mariadbSql } from '../scripts/production/services';

const HELP = `Usage: [WOOCOMMERCE_VERSION=10.0.2|9.4.3] [WOOCOMMERCE_HPOS=on|off] \\
       npx ts-node --transpile-only bench/paid-orders.ts [options]

Starts its own shop, WordPress with real WooCommerce (by default WordPress 7.1 and WooCommerce
10.0.2 from ../shared/builds; see Environment) on nginx + PHP-FPM + MariaDB (fresh databases),
and sidecar, seeds orders (a third paid: processing or completed, created over 400 days as for a
million-order shop, paid one to ten minutes later, with some ties), and at each scale measures,
interleaved request by request, pages of 100:
  (a) GET /wp-json/service-integration/v1/commandes-payees?page=N          (service account)
  (b) GET /wp-json/wc/v3/orders?status=processing,completed&page=N         (administrator)
  (c) GET .../commandes-payees?orderby=date_paid&paid_after=<cursor>&after_id=<cursor>
      the incremental sync, at five depths of the backlog (start, 25 %, 50 %, 75 %, the
      last full page), with cursors taken from one walk of the whole sync order first;
      (a) and (b) are measured at the same page numbers
  (a0), (c0) (a) and (c) with with_total=false: no count, no X-WP-Total
plus a trivial authenticated request per identity (GET /service-integration/v1/me), the
fixed cost of a WordPress request. Prints median and p95 latency, bytes per page, the ratios,
how each route grows from the smallest to the largest scale, the SQL queries each request ran
(tests/fixtures/plugins/query-counter, one extra untimed request per route and depth) and the
EXPLAIN of the plugin's own ones, the index walk's figures (the daily check run to its end:
time, Action Scheduler runs, peak memory), and the plugin's cost on a checkout (paid orders
created through WooCommerce's API with and without the plugin's callbacks, interleaved, then
deleted). Stops WordPress and the sidecar at the end, even on failure.

Seeding: ${ TEMPLATE_ORDERS } template orders through WooCommerce's API in the bench-only plugin
bench/support/wc-seed (one php-cli process, seed-cli.php: wc_create_order(), add_product(),
addresses, shipping line, payment method, calculate_totals() with a 20 % VAT rate, date paid,
status), dumped (mariadb-dump) into --seed-cache and restored from there by later runs; then every
order above them copied from its template in SQL (bench/support/wc-sql-multiply.ts: INSERT …
SELECT with MariaDB's sequence engine, into the order storage's tables, the items and the
plugin's index, each copy with its own id, number, dates and customer), checked: a sample read
back through /wc/v3/orders/<id> and wc_get_order() is its template but for those fields, and
the index holds exactly WooCommerce's paid orders (wc_get_orders() for the paid statuses).

Options:
${ SHOP_RUNTIME_HELP }  --scales=<n,n,...>   order counts to measure at (default 10000,100000,1000000)
  --compare-at=<n>     scale whose ratios are the headline (default 100000)
  --rounds=<n>         interleaved rounds per scale, the depths in turn (default 30)
  --per-page=<n>       page size (default 100)
  --seed-cache=<dir>   where seeded databases are dumped and restored from (default
                       $XDG_CACHE_HOME or ~/.cache, then service-integration/wc-seed: outside
                       the checkout, so a fresh clone on the same machine reuses it; one gzipped
                       mariadb-dump per WooCommerce version, order storage, scale, seed version
                       and spread)
  --no-seed-cache      seed the templates, dump nothing
  --no-walk            skip the index walk before each scale (the copies' index rows are
                       written with them; the check against WooCommerce's paid orders still runs)
  --walk-runs=<n>      stop each scale's walk after n Action Scheduler runs (its figures are
                       then per run: a walk of a large shop takes many)
  --checkout-pairs=<n> checkouts with and without the plugin at each scale (default 20)
  --only=checkout      measure only the checkout at each scale (no walk, no route measured;
                       the stack, the seed and the copies' check as usual): with --scales=1000
                       and a seed cache, the smallest run
  --buffer-pool-mb=<n> MariaDB's InnoDB buffer pool while the bench runs (default 1024)
  --plugin-commit=<rev>  install the plugin and sidecar released from this commit (git
                       archive + npm run release, outside the repository) instead of this
                       working tree
  --release-dir=<dir>  install these release artifacts
  --no-query-count     skip the untimed query-count requests
  --name=<env>         environment name (default bench-orders)
  --wp-port=<port>     WordPress port (default 8921; PHP-FPM takes it + 2, MariaDB + 3)
  --sidecar-port=<port>  sidecar port (default 8821)
  --json               also print the results as JSON
  --keep               leave WordPress and the sidecar running at the end (prints how to reach
                       them), for investigation; stop them later with --stop
  --stop               stop what an earlier --keep run left running (same --name) and exit
  --kept-checkout      on the shop an earlier --keep run left running (same --name), with its
                       orders: only the checkout pairs (--checkout-pairs), printed, then exit
  --help               this text

Environment (what the site runs, as for npm start and npm run production):
${ SITE_CHOICE_HELP }
Targets (issue 39): (a) and (c) at most 1.3x /me at every scale and depth, the largest scale
within 1.2x of the smallest; (a) at least 10x faster than (b) at 100,000 orders and more; no
route query of the plugin's expecting to read the whole index; the walk's runs bounded in time
and memory; a checkout at most 5 ms dearer with the plugin.
`;

interface Options {
	/** What the shop runs; its runtime is the production runtime. */
	site: ShopSite;
	phpWorkers: number;
	scales: number[];
	compareAt: number;
	rounds: number;
	perPage: number;
	pluginCommit: string | undefined;
	releaseDir: string | undefined;
	queryCount: boolean;
	/** Whether each scale runs the index's daily walk to its end before it is measured. */
	walk: boolean;
	/** At most this many Action Scheduler runs of the index walk per scale. */
	walkRuns: number;
	/** Checkouts with and without the plugin's callbacks, at each scale. */
	checkoutPairs: number;
	/** Whether only the checkout is measured (no index walk, no route). */
	onlyCheckout: boolean;
	/** InnoDB buffer pool of the bench's MariaDB while it runs (MiB). */
	bufferPoolMb: number;
	/** Folder of mariadb-dump files of seeded sites, or undefined: no cache. */
	seedCache: string | undefined;
	name: string;
	wpPort: number;
	sidecarPort: number;
	json: boolean;
	keep: boolean;
	stop: boolean;
	keptCheckout: boolean;
}

function parseOptions( argv: string[] ): Options | undefined {
	const flags = parseFlags( argv, [
		'help',
		'runtime',
		'php-workers',
		'scales',
		'compare-at',
		'rounds',
		'per-page',
		'plugin-commit',
		'release-dir',
		'no-query-count',
		'no-walk',
		'walk-runs',
		'checkout-pairs',
		'only',
		'buffer-pool-mb',
		'name',
		'wp-port',
		'sidecar-port',
		'json',
		'keep',
		'stop',
		'kept-checkout',
		'seed-cache',
		'no-seed-cache',
	] );
	if ( flags.help ) {
		return undefined;
	}
	const int = ( name: string, fallback: number, min: number, max: number ): number =>
		intFlag( flags, name, fallback, min, max );
	const scales = intListFlag( flags, 'scales', [ 10_000, 100_000, 1_000_000 ], 1000, SEED_SPREAD );
	scales.sort( ( a, b ) => a - b );
	const compareAt = int(
		'compare-at',
		scales.includes( 100_000 ) ? 100_000 : ( scales[ scales.length - 1 ] as number ),
		1000,
		SEED_SPREAD
	);
	if ( ! scales.includes( compareAt ) ) {
		throw new Error( '--compare-at must be one of --scales' );
	}
	const text = ( name: string ): string | undefined => textFlag( flags, name );
	const pluginCommit = text( 'plugin-commit' );
	const releaseDir = text( 'release-dir' );
	if ( pluginCommit && releaseDir ) {
		throw new Error( '--plugin-commit or --release-dir, not both' );
	}
	const only = text( 'only' );
	if ( only !== undefined && only !== 'checkout' ) {
		throw new Error( '--only takes one value: checkout' );
	}
	return {
		site: shopSite( flags.runtime, 'bench/paid-orders.ts' ),
		phpWorkers: int( 'php-workers', 4, 1, 32 ),
		scales,
		compareAt,
		rounds: int( 'rounds', 30, 5, 1000 ),
		perPage: int( 'per-page', 100, 1, 100 ),
		pluginCommit,
		releaseDir,
		queryCount: flags[ 'no-query-count' ] !== true,
		walk: flags[ 'no-walk' ] !== true,
		walkRuns: int( 'walk-runs', 1_000_000, 1, 1_000_000 ),
		checkoutPairs: int( 'checkout-pairs', 20, 2, 500 ),
		onlyCheckout: only === 'checkout',
		bufferPoolMb: int( 'buffer-pool-mb', 1024, 128, 16384 ),
		seedCache:
			flags[ 'no-seed-cache' ] === true ? undefined : path.resolve( text( 'seed-cache' ) ?? defaultSeedCache() ),
		name: typeof flags.name === 'string' ? flags.name : 'bench-orders',
		wpPort: portFlag( flags[ 'wp-port' ], 8921, 'wp-port' ),
		sidecarPort: portFlag( flags[ 'sidecar-port' ], 8821, 'sidecar-port' ),
		json: flags.json === true,
		keep: flags.keep === true,
		stop: flags.stop === true,
		keptCheckout: flags[ 'kept-checkout' ] === true,
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

/** `probe`: ask the query counter (tests/fixtures/plugins/query-counter) for its report; never on a timed request. */
/** At most this many dead kept-alive connections a GET may meet before one answers. */
const STALE_CONNECTIONS = 8;

async function request(
	siteUrl: string,
	who: Identity,
	route: string,
	init: { method?: string; body?: unknown; probe?: boolean } = {}
): Promise< Timed > {
	const headers: Record< string, string > = {
		accept: 'application/json',
		authorization: 'Basic ' + Buffer.from( `${ who.username }:${ who.password }` ).toString( 'base64' ),
	};
	if ( init.probe ) {
		headers[ 'x-service-integration-query-probe' ] = '1';
	}
	let body: string | undefined;
	if ( init.body !== undefined ) {
		body = JSON.stringify( init.body );
		headers[ 'content-type' ] = 'application/json';
	}
	const send = (): Promise< Response > =>
		fetch( `${ siteUrl }/wp-json${ route }`, { method: init.method ?? 'GET', headers, body, redirect: 'manual' } );
	let started = performance.now();
	// Kept-alive connections nginx closed while the bench was seeding for minutes in a
	// synchronous child process (undici could not expire them meanwhile): each one a GET meets
	// fails with "fetch failed" and leaves the pool, so a GET is sent again, up to
	// STALE_CONNECTIONS times, and timed from the attempt that answered.
	const answer = async (): Promise< Response > => {
		for ( let attempt = 0; ; attempt++ ) {
			try {
				return await send();
			} catch ( error ) {
				if ( ( init.method ?? 'GET' ) !== 'GET' || attempt >= STALE_CONNECTIONS ) {
					throw error;
				}
				started = performance.now();
			}
		}
	};
	const answered = await answer();
	const buffer = Buffer.from( await answered.arrayBuffer() );
	const ms = performance.now() - started;
	return { ms, bytes: buffer.length, status: answered.status, body: buffer.toString( 'utf8' ) };
}

/**
 * Whether page (a) says of each order what page (b), the store's own REST API, says of it, field
 * by field (the endpoint's fields worked out from the store's, as the e2e tests do).
 */
function sameFields( aBody: string, bBody: string ): boolean {
	try {
		const served = JSON.parse( aBody ) as unknown;
		const store = JSON.parse( bBody ) as StoreOrder[];
		return Array.isArray( store ) && isDeepStrictEqual( served, store.map( expectedFromStore ) );
	} catch {
		return false;
	}
}

/**
 * Brings the plugin's paid-orders index in step with the orders seeded or restored (a restored
 * dump may hold another index layout, or none): the daily check's walk,
 * run to its end through the paid-index-probe test plugin, a few Action Scheduler runs per
 * request.
 */
async function walkPaidIndex( site: string, admin: Identity, maxRuns: number ): Promise< WalkFigures > {
	type Walked = {
		runs: number;
		rows: number;
		run_seconds: number[];
		peak_memory_mb: number;
		memory_limit: string;
		state: { ready: boolean; walk: number | null };
	};
	log( 'Bringing the paid-orders index in step: the daily check’s walk, run to its end' );
	const started = performance.now();
	const figures: WalkFigures = {
		seconds: 0,
		runs: [],
		peakMemoryMb: 0,
		memoryLimit: '',
		rows: 0,
		finished: false,
		position: 0,
	};
	let body: { check?: boolean; runs: number } = { check: true, runs: 3 };
	let lastLog = 0;
	for (;;) {
		const walked = await json< Walked >( site, admin, '/paid-index-probe/v1/walk', { method: 'POST', body } );
		body = { runs: 3 };
		figures.runs.push( ...walked.run_seconds );
		figures.peakMemoryMb = Math.max( figures.peakMemoryMb, walked.peak_memory_mb );
		figures.memoryLimit = walked.memory_limit;
		figures.rows = walked.rows;
		if ( walked.state.walk === null ) {
			if ( ! walked.state.ready ) {
				throw new Error( 'The paid-orders index walk ended but the index is not ready' );
			}
			figures.finished = true;
			break;
		}
		figures.position = walked.state.walk;
		if ( figures.runs.length >= maxRuns ) {
			// A daily check stopped on the way: the index serves meanwhile, as it does during one.
			break;
		}
		if ( performance.now() - lastLog > 30_000 ) {
			lastLog = performance.now();
			log( `  at id ${ walked.state.walk.toLocaleString( 'en' ) }, ${ figures.runs.length } runs so far` );
		}
	}
	figures.seconds = ( performance.now() - started ) / 1000;
	log(
		`  ${ figures.finished ? 'walked to its end' : `stopped after ${ figures.runs.length } runs at order id ${ figures.position.toLocaleString( 'en' ) }` }: ${ figures.rows.toLocaleString( 'en' ) } rows, ${ figures.seconds.toFixed( 0 ) } s, ${ figures.runs.length } Action Scheduler runs, longest ${ Math.max( ...figures.runs ).toFixed( 1 ) } s, peak memory ${ figures.peakMemoryMb } MiB of ${ figures.memoryLimit }`
	);
	return figures;
}

interface WalkFigures {
	seconds: number;
	/** Seconds each Action Scheduler run of the walk took. */
	runs: number[];
	peakMemoryMb: number;
	memoryLimit: string;
	rows: number;
	/** Whether it reached its end (else it stopped after --walk-runs runs, at order id `position`). */
	finished: boolean;
	position: number;
}

/**
 * The plugin's cost on a checkout (checkout-cost.php): the same paid order created through
 * WooCommerce's API with the plugin's callbacks and without, interleaved; the orders deleted after.
 */
function checkoutCost( envName: string, spec: Record< string, unknown >, pairs: number ): CheckoutCost {
	const docroot = productionLayout( envName ).wordpress;
	const out = execFileSync(
		'php',
		[ path.join( __dirname, 'support', 'wc-seed', 'checkout-cost.php' ), docroot, String( pairs ) ],
		{ encoding: 'utf8', input: JSON.stringify( spec ), maxBuffer: 16 * 1024 * 1024 }
	);
	return JSON.parse( out.trim().split( '\n' ).pop() as string ) as CheckoutCost;
}

/** What checkout-cost.php prints: each arm's times, and the plugin's steps in the arm with it. */
interface CheckoutCost {
	with: number[];
	without: number[];
	/** By "<hook> <Class::method>": one entry per checkout with the plugin. */
	steps: Record< string, { calls: number[]; ms: number[]; queries: number[] } >;
}

/** A difference in ms with its sign, e.g. +3.8 or −5.3. */
function signedMs( ms: number ): string {
	return `${ ms < 0 ? '−' : '+' }${ Math.abs( ms ).toFixed( 1 ) }`;
}

/** The checkout's lines of the report: both arms' medians, then each step's. */
function checkoutLines( checkout: CheckoutCost, pad: string ): string[] {
	const withPlugin = median( checkout.with );
	const without = median( checkout.without );
	const lines = [
		`${ pad }  checkout (a paid order through WooCommerce's API), median of ${ checkout.with.length } pairs: ${ withPlugin.toFixed( 1 ) } ms with the plugin, ${ without.toFixed( 1 ) } ms without: ${ signedMs( withPlugin - without ) } ms (target: at most 5 ms)`,
		`${ pad }    its steps, median per checkout (calls, ms, SQL queries):`,
	];
	for ( const [ name, step ] of Object.entries( checkout.steps ) ) {
		lines.push(
			`${ pad }      ${ name }: ${ median( step.calls ) } calls, ${ median( step.ms ).toFixed( 2 ) } ms, ${ median( step.queries ) } queries`
		);
	}
	return lines;
}

/**
 * --kept-checkout: the checkout pairs again on the shop a --keep run left running, whatever
 * orders it holds (the same order spec as a full run's: seedOrder( 1 ) over the bench catalogue).
 */
function checkoutOnKeptShop( options: Options ): void {
	const layout = productionLayout( options.name );
	// The bench catalogue (setUp()'s SKUs ATL-100 to ATL-123, in that order), as a full run's products.
	const products = mariadbSql(
		layout,
		"SELECT post_id FROM wordpress.wp_postmeta WHERE meta_key = '_sku' AND meta_value LIKE 'ATL-%' ORDER BY meta_value"
	)
		.trim()
		.split( '\n' )
		.filter( Boolean )
		.map( ( id ) => ( { id: Number( id ) } ) );
	if ( products.length === 0 ) {
		throw new Error( `No bench catalogue in the shop "${ options.name }": is a --keep run of it still running?` );
	}
	const orders = mariadbSql(
		layout,
		"SELECT COUNT(*) FROM wordpress.wp_posts WHERE post_type IN ( 'shop_order', 'shop_order_placehold' )"
	).trim();
	log(
		`The plugin's cost on a checkout in the kept shop "${ options.name }" (${ Number( orders ).toLocaleString( 'en' ) } orders): ${ options.checkoutPairs } pairs`
	);
	const cost = checkoutCost( options.name, seedOrder( 1, SEED_SPREAD, products, Date.now() ), options.checkoutPairs );
	for ( const line of checkoutLines( cost, '' ) ) {
		log( line );
	}
	if ( options.json ) {
		process.stdout.write( `${ JSON.stringify( { orders: Number( orders ), checkout: cost } ) }\n` );
	}
}

/**
 * EXPLAIN of each SELECT a route ran (the query counter's SAVEQUERIES list): the most rows the
 * optimizer expects to read in one query, and each query's access path, so a query that scans
 * the table shows up whatever it costs on this run.
 */
function explainRoute( envName: string, queries: string[] ): { maxRows: number; plans: string[] } {
	const layout = productionLayout( envName );
	let maxRows = 0;
	const plans: string[] = [];
	for ( const sql of queries ) {
		if ( ! /^\s*SELECT/i.test( sql ) ) {
			continue;
		}
		const rows = mariadbSql( layout, `USE wordpress; EXPLAIN ${ sql }` )
			.trim()
			.split( '\n' )
			.map( ( line ) => line.split( '\t' ) );
		// id select_type table type possible_keys key key_len ref rows Extra
		for ( const row of rows ) {
			const estimate = Number( row[ 8 ] ?? 0 );
			maxRows = Math.max( maxRows, estimate );
			plans.push(
				`${ row[ 2 ] }: ${ row[ 3 ] } ${ row[ 5 ] } rows ${ estimate } ${ row[ 9 ] ?? '' } | ${ sql.replace( /\s+/g, ' ' ).slice( 0, 160 ) }`
			);
		}
	}
	return { maxRows, plans };
}

/** seedOrder's spread: every order's dates are those of a million-order shop's, whatever the scales. */
const SEED_SPREAD = 1_000_000;

/**
 * The InnoDB buffer pool of the bench's own MariaDB (resized online): scripts/production gives it
 * Debian's 128 MiB, which a shop with hundreds of thousands of orders does not run on.
 */
function setBufferPool( envName: string, mb: number ): void {
	mariadbSql( productionLayout( envName ), `SET GLOBAL innodb_buffer_pool_size = ${ mb * 1048576 }` );
	log( `MariaDB's InnoDB buffer pool: ${ mb } MiB` );
}

function verifyCli( envName: string, args: string[] ): unknown {
	const docroot = productionLayout( envName ).wordpress;
	const out = execFileSync(
		'php',
		[
			'-d',
			'memory_limit=2048M',
			path.join( __dirname, 'support', 'wc-seed', 'verify-cli.php' ),
			docroot,
			...args,
		],
		{ encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }
	);
	return JSON.parse( out.trim().split( '\n' ).pop() as string ) as unknown;
}

/**
 * The order fields a copy has of its own (wc-sql-multiply.ts): everything else must be its
 * template's, through wc_get_order() (verify-cli.php) and through /wc/v3/orders/<id>.
 */
const VARIED_DATA = new Set( [
	'id',
	'number',
	'order_key',
	'date_created',
	'date_modified',
	'date_paid',
	'date_completed',
	'billing.first_name',
	'billing.last_name',
	'billing.email',
	'shipping.first_name',
	'shipping.last_name',
	'transaction_id',
	'meta_data._service_integration_paid_at',
	'meta_data._stripe_customer_id',
] );

/** A /wc/v3/orders/<id> answer without what a copy has of its own, and without item and meta ids. */
function comparableRest( order: Record< string, unknown > ): unknown {
	const drop = [
		'id',
		'number',
		'order_key',
		'date_created',
		'date_created_gmt',
		'date_modified',
		'date_modified_gmt',
		'date_paid',
		'date_paid_gmt',
		'date_completed',
		'date_completed_gmt',
		'transaction_id',
		// The order-pay link names the order's id and key.
		'payment_url',
		'_links',
	];
	const copy = JSON.parse( JSON.stringify( order ) ) as Record< string, unknown >;
	for ( const key of drop ) {
		delete copy[ key ];
	}
	for ( const who of [ 'billing', 'shipping' ] ) {
		const address = copy[ who ] as Record< string, unknown >;
		delete address.first_name;
		delete address.last_name;
		delete address.email;
	}
	const ids = ( value: unknown ): unknown => {
		if ( Array.isArray( value ) ) {
			return value.map( ids );
		}
		if ( value && typeof value === 'object' ) {
			const entries = Object.entries( value as Record< string, unknown > )
				.filter( ( [ key ] ) => key !== 'id' )
				.map( ( [ key, inner ] ) => [ key, ids( inner ) ] );
			return Object.fromEntries( entries );
		}
		return value;
	};
	copy.meta_data = ( copy.meta_data as Array< { key: string } > ).filter(
		( m ) => m.key !== '_service_integration_paid_at' && m.key !== '_stripe_customer_id'
	);
	return ids( copy );
}

/**
 * Proves a sample of the copies are the orders seedOrder() describes: each read back through
 * wc_get_order() and /wc/v3/orders/<id> equals its template but for the varied fields, and its
 * varied fields are seedOrder()'s for its index (customer email, creation and payment dates).
 */
async function checkCopies(
	site: string,
	admin: Identity,
	envName: string,
	orders: number,
	spread: number,
	products: SeedProduct[],
	now: number,
	storage: 'hpos' | 'legacy'
): Promise< void > {
	const layout = productionLayout( envName );
	const templateIds = mariadbSql( layout, 'SELECT order_id FROM wordpress.si_bench_templates ORDER BY t' )
		.trim()
		.split( '\n' )
		.map( Number );
	// The copies of the 12 templates with the highest ids' orders, plus 12 spread over the ids.
	const lastTemplate = Math.max( ...templateIds );
	// The orders themselves are in the storage's own table (legacy storage has no wc_orders rows).
	const newest =
		storage === 'hpos'
			? `SELECT id FROM wordpress.wp_wc_orders WHERE type = 'shop_order' AND id > ${ lastTemplate } ORDER BY id DESC LIMIT 12`
			: `SELECT ID FROM wordpress.wp_posts WHERE post_type = 'shop_order' AND ID > ${ lastTemplate } ORDER BY ID DESC LIMIT 12`;
	const sample = mariadbSql( layout, newest )
		.trim()
		.split( '\n' )
		.concat(
			mariadbSql(
				layout,
				`SELECT ID FROM wordpress.wp_posts WHERE post_type IN ('shop_order', 'shop_order_placehold') AND ID > ${ lastTemplate } AND MOD( ID, ${ Math.max( 1, Math.floor( orders / 12 ) ) } ) = 7 LIMIT 12`
			)
				.trim()
				.split( '\n' )
		)
		.filter( Boolean )
		.map( Number );
	if ( sample.length < 12 ) {
		throw new Error( `Only ${ sample.length } copies found to read back (${ storage } storage)` );
	}
	const pairs: Array< [ number, number, number ] > = [];
	for ( const id of sample ) {
		const copy = await json< Record< string, unknown > >( site, admin, `/wc/v3/orders/${ id }` );
		const email = ( copy.billing as { email: string } ).email;
		const index = Number( /\.(\d+)@example\.com$/.exec( email )?.[ 1 ] ?? NaN );
		const templateId = templateIds[ index % TEMPLATE_ORDERS ] as number;
		const template = await json< Record< string, unknown > >( site, admin, `/wc/v3/orders/${ templateId }` );
		const differing = differences( comparableRest( copy ), comparableRest( template ) );
		if ( differing.length ) {
			throw new Error(
				`Copy ${ id } (index ${ index }) differs from its template ${ templateId } through /wc/v3/orders beyond its own fields: ${ differing.slice( 0, 20 ).join( '; ' ) }`
			);
		}
		const spec = seedOrder( index, spread, products, now );
		const same = ( a: unknown, b: unknown ): boolean => String( a ?? '' ) === String( b ?? '' );
		if (
			! same( email, ( spec.billing as { email: string } ).email ) ||
			! same( copy.date_created_gmt, String( spec.date_created ).replace( /Z$/, '' ) ) ||
			! same( copy.date_paid_gmt, spec.date_paid ? String( spec.date_paid ).replace( /Z$/, '' ) : '' )
		) {
			throw new Error(
				`Copy ${ id } is not seedOrder(${ index })'s order: ${ email } ${ String( copy.date_created_gmt ) } ${ String( copy.date_paid_gmt ) } against ${ JSON.stringify( [ ( spec.billing as { email: string } ).email, spec.date_created, spec.date_paid ] ) }`
			);
		}
		pairs.push( [ id, templateId, index ] );
	}
	const loaded = verifyCli( envName, [
		'copies',
		JSON.stringify( pairs.map( ( [ copy, template ] ) => [ copy, template ] ) ),
	] ) as Array< { copy: number; differences?: string[]; error?: string } >;
	for ( const result of loaded ) {
		const unexpected = ( result.differences ?? [ result.error ?? 'no answer' ] ).filter(
			( key ) => ! VARIED_DATA.has( key )
		);
		if ( unexpected.length ) {
			throw new Error(
				`Copy ${ result.copy } read through wc_get_order() differs from its template in ${ unexpected.join( ', ' ) }`
			);
		}
	}
	log(
		`  ${ pairs.length } copies read back through /wc/v3/orders/<id> and wc_get_order(): each its template's order but for id, number, key, dates, customer and payment ids, which are seedOrder()'s for its index`
	);
}

/** Paths where two JSON values differ, with both values. */
function differences( a: unknown, b: unknown, at = '' ): string[] {
	if ( a && b && typeof a === 'object' && typeof b === 'object' ) {
		const keys = new Set( [ ...Object.keys( a ), ...Object.keys( b ) ] );
		return [ ...keys ].flatMap( ( key ) =>
			differences(
				( a as Record< string, unknown > )[ key ],
				( b as Record< string, unknown > )[ key ],
				`${ at }.${ key }`
			)
		);
	}
	return isDeepStrictEqual( a, b ) ? [] : [ `${ at }: ${ JSON.stringify( a ) } vs ${ JSON.stringify( b ) }` ];
}

/** The plugin's index holds exactly the orders WooCommerce's own paid-status query returns (verify-cli.php index). */
async function checkIndexMatchesStore( envName: string, storage: string ): Promise< void > {
	const started = performance.now();
	const found = verifyCli( envName, [ 'index' ] ) as {
		store: number;
		index: number;
		only_store: number[];
		only_index: number[];
	};
	if ( found.store !== found.index || found.only_store.length || found.only_index.length ) {
		throw new Error(
			`The paid-orders index does not hold WooCommerce's paid orders (${ storage }): ${ JSON.stringify( found ) }`
		);
	}
	log(
		`  the paid-orders index holds exactly WooCommerce's ${ found.store.toLocaleString( 'en' ) } paid orders (wc_get_orders() for the paid statuses; checked in ${ ( ( performance.now() - started ) / 1000 ).toFixed( 0 ) } s)`
	);
}

async function json< T >(
	siteUrl: string,
	who: Identity,
	route: string,
	init: { method?: string; body?: unknown } = {},
	expected = [ 200, 201 ]
): Promise< T > {
	const result = await request( siteUrl, who, route, init );
	if ( ! expected.includes( result.status ) ) {
		throw new Error(
			`${ init.method ?? 'GET' } ${ route } answered HTTP ${ result.status }: ${ result.body.slice( 0, 300 ) }`
		);
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

const CITIES: Array< [ string, string, string ] > = [
	[ 'Lyon', '69002', 'FR' ],
	[ 'Paris', '75011', 'FR' ],
	[ 'Bruxelles', '1000', 'BE' ],
	[ 'Berlin', '10115', 'DE' ],
	[ 'Nantes', '44000', 'FR' ],
	[ 'Genève', '1201', 'CH' ],
];
const USER_AGENT =
	'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
// Paid share: 3 statuses in 9 (processing x2, completed x1).
const STATUSES = [
	'processing',
	'processing',
	'completed',
	'pending',
	'on-hold',
	'cancelled',
	'failed',
	'refunded',
	'pending',
];

/** Created over the last 400 days, oldest first, at distinct seconds (Unix time). */
function createdAt( index: number, total: number, now: number ): number {
	return Math.floor( now / 1000 ) - 400 * 86400 + Math.floor( ( index / total ) * 399 * 86400 );
}

/**
 * Paid one to ten minutes after creation, at distinct seconds, except one paid order in
 * twelve (index % 36 === 0, whose next order is paid too): paid in the same second as the
 * next one, so the sync cursor (date_paid, id) meets ties.
 */
function paidAt( index: number, total: number, now: number ): number {
	const own = ( i: number ): number => createdAt( i, total, now ) + 60 + ( i % 540 );
	return index % 36 === 0 ? own( index + 1 ) : own( index );
}

interface SeedProduct {
	id: number;
}

/** Order number `index` of a site seeded with `total` orders' spread: the same order in every run for the same clock. */
function seedOrder( index: number, total: number, products: SeedProduct[], now: number ): Record< string, unknown > {
	const rand = random( 20261122 + index );
	const first = FIRST[ index % FIRST.length ] as string;
	const last = LAST[ Math.floor( index / FIRST.length ) % LAST.length ] as string;
	const [ city, postcode, country ] = CITIES[ index % CITIES.length ] as [ string, string, string ];
	const email = `${ first.toLowerCase() }.${ last.toLowerCase() }.${ index }@example.com`;
	const status = STATUSES[ index % STATUSES.length ] as string;
	const paid = status === 'processing' || status === 'completed';
	const created = createdAt( index, total, now );
	const lines = 1 + Math.floor( rand() * 3 );
	const lineItems = Array.from( { length: lines }, ( _, n ) => {
		const product = products[ Math.floor( rand() * products.length ) ] as SeedProduct;
		const quantity = 1 + Math.floor( rand() * 4 );
		return {
			product_id: product.id,
			quantity,
			meta_data: [
				...( n === 0 ? [ { key: 'pa_finish', value: [ 'oak', 'walnut', 'ash' ][ index % 3 ] } ] : [] ),
				...( paid ? [ { key: '_reduced_stock', value: String( quantity ) } ] : [] ),
			],
		};
	} );
	const address = {
		first_name: first,
		last_name: last,
		company: index % 5 === 0 ? 'Atelier Durand SARL' : '',
		address_1: `${ 1 + ( index % 120 ) } rue de la République`,
		address_2: index % 4 === 0 ? 'Bâtiment B' : '',
		city,
		state: '',
		postcode,
		country,
	};
	return {
		status,
		currency: 'EUR',
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
		...( paid
			? { date_paid: new Date( paidAt( index, total, now ) * 1000 ).toISOString().replace( /\.\d{3}Z$/, 'Z' ) }
			: {} ),
		line_items: lineItems,
		shipping_lines: [ { method_id: 'flat_rate', method_title: 'Colissimo', instance_id: '3', total: '9.90' } ],
		meta_data: [
			{ key: 'is_vat_exempt', value: 'no' },
			{ key: '_wc_order_attribution_source_type', value: 'organic' },
			{ key: '_wc_order_attribution_referrer', value: 'https://www.google.com/' },
			{ key: '_wc_order_attribution_utm_source', value: 'google' },
			{ key: '_wc_order_attribution_session_entry', value: 'https://atelier.example/produit/chaise-chene/' },
			{
				key: '_wc_order_attribution_session_start_time',
				value: new Date( ( created - 900 ) * 1000 ).toISOString().replace( 'T', ' ' ).slice( 0, 19 ),
			},
			{ key: '_wc_order_attribution_session_pages', value: String( 2 + ( index % 9 ) ) },
			{ key: '_wc_order_attribution_session_count', value: String( 1 + ( index % 3 ) ) },
			{ key: '_wc_order_attribution_user_agent', value: USER_AGENT },
			{ key: '_wc_order_attribution_device_type', value: index % 3 ? 'Desktop' : 'Mobile' },
			...( paid
				? [
						{ key: '_stripe_customer_id', value: `cus_${ index.toString( 36 ) }` },
						{ key: '_stripe_fee', value: '1.12' },
						{ key: '_stripe_net', value: '58.78' },
						{ key: '_stripe_currency', value: 'EUR' },
					]
				: [] ),
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

/** SQL queries of one request: all of them, and (when SAVEQUERIES lists them) those run inside the REST route's callback. */
interface QueryCount {
	total: number;
	route: number | null;
	/** The route's own queries (with SAVEQUERIES). */
	sql: string[];
}

/** Depths of the backlog the sync (c) is measured at; (a) and (b) at the same page numbers. */
const DEPTHS = [
	{ label: 'start', at: 0 },
	{ label: '25 %', at: 0.25 },
	{ label: '50 %', at: 0.5 },
	{ label: '75 %', at: 0.75 },
	{ label: 'end', at: 1 },
];

interface Cursor {
	paid_after: string;
	after_id?: number;
}

interface DepthResult {
	label: string;
	/** 1-based page number: (a) and (b) ask for it; (c) starts at the cursor before it. */
	page: number;
	cursor: Cursor;
	a: number[];
	c: number[];
	queries: { a?: QueryCount; b?: QueryCount; c?: QueryCount; a0?: QueryCount; c0?: QueryCount };
}

interface ScaleResult {
	orders: number;
	paid: number;
	pages: number;
	a: Series;
	b: Series;
	c: Series;
	/** (a) and (c) with with_total=false: no count. */
	a0: Series;
	c0: Series;
	/** (a0) served (a)'s orders and (c0) the walk's page at every cursor. */
	sameUncounted: boolean;
	/** The most rows EXPLAIN expects one route query of (a), (a0), (c), (c0) to read, and the plans. */
	explain: { maxRows: number; plans: string[] } | undefined;
	indexWalk: WalkFigures | undefined;
	checkout: CheckoutCost | undefined;
	serviceBaseline: number[];
	adminBaseline: number[];
	/** (a) and (b) returned the same orders on every page. */
	samePages: boolean;
	/** (a) said of every order what (b), the store's own API, said of it (tests/support/paid-order-shape). */
	sameFields: boolean;
	/** (c) returned, at every cursor, the page the walk had found there. */
	sameSyncPages: boolean;
	depths: DepthResult[];
	walk: { pages: number; orders: number; distinct: number; tiedPairs: number; ms: number[] };
}

function summary( series: { ms: number[]; bytes?: number[] } ): { median: number; p95: number; bytes: number } {
	return {
		median: median( series.ms ),
		p95: percentile( series.ms, 95 ),
		bytes: series.bytes ? median( series.bytes ) : NaN,
	};
}

// ---------------------------------------------------------------------------

interface Run {
	runtime: string;
	commerce: string;
	plugin: string;
	started: string;
}

function git( args: string[] ): string {
	try {
		return execFileSync( 'git', args, {
			cwd: ROOT,
			encoding: 'utf8',
			stdio: [ 'ignore', 'pipe', 'ignore' ],
		} ).trim();
	} catch {
		return '';
	}
}

async function main(): Promise< void > {
	const options = parseOptions( process.argv.slice( 2 ) );
	if ( ! options ) {
		process.stdout.write( HELP );
		return;
	}
	if ( options.stop ) {
		await stopProduction( options.name );
		log( `Stopped "${ options.name }"` );
		return;
	}
	if ( options.keptCheckout ) {
		checkoutOnKeptShop( options );
		return;
	}
	const siteChoice = options.site;

	// What is measured: the plugin as released from a commit, given artifacts, or this tree.
	let releaseDir = options.releaseDir;
	let plugin: string;
	if ( options.pluginCommit ) {
		const built = releaseAtCommit( options.pluginCommit );
		releaseDir = built.dir;
		plugin = `released from commit ${ built.commit.slice( 0, 9 ) }`;
	} else if ( releaseDir ) {
		plugin = `release artifacts from ${ releaseDir }`;
	} else {
		// Changed and new files by name (porcelain's status columns would lose their first space to git()'s trim).
		const dirty = [
			...git( [ 'diff', '--name-only', 'HEAD', '--', 'plugin', 'sidecar' ] ).split( '\n' ),
			...git( [ 'ls-files', '--others', '--exclude-standard', '--', 'plugin', 'sidecar' ] ).split( '\n' ),
		].filter( Boolean );
		plugin = `working tree at ${ git( [ 'rev-parse', '--short', 'HEAD' ] ) || 'unknown commit' }${ dirty.length ? ` plus uncommitted changes (${ dirty.join( ', ' ) })` : ' (clean)' }`;
	}

	let stack: ShopStack | undefined;
	const stop = async (): Promise< void > => {
		// The seeder first: it writes to the stack's database until it is stopped.
		await stopSeeders();
		if ( stack ) {
			const current = stack;
			stack = undefined;
			await current.stop();
		}
	};
	stopOnSignals( stop );

	try {
		log(
			`Starting the shop "${ options.name }" (production runtime) on port ${ options.wpPort } (fresh database; WordPress ${ siteChoice.wordpressDir ? `from ${ siteChoice.wordpressDir }` : '6.5.5' }, WooCommerce from ${ siteChoice.woocommerceDir }); plugin: ${ plugin }`
		);
		const fixtures = path.join( ROOT, 'tests', 'fixtures', 'plugins' );
		stack = await startShopStack( {
			name: options.name,
			wpPort: options.wpPort,
			sidecarPort: options.sidecarPort,
			phpWorkers: options.phpWorkers,
			site: siteChoice,
			releaseDir,
			extraPlugins: {
				'query-counter': path.join( fixtures, 'query-counter' ),
				'paid-index-probe': path.join( fixtures, 'paid-index-probe' ),
				'si-bench-wc-seed': path.join( __dirname, 'support', 'wc-seed' ),
			},
		} );
		const site = stack.siteUrl;
		const { shop } = stack;
		const run: Run = {
			runtime: stack.description,
			commerce: `WooCommerce ${ shop.version } (${ shop.orderStorage === 'hpos' ? 'HPOS' : 'legacy post storage' })`,
			plugin,
			started: new Date().toISOString(),
		};
		log( `WordPress runtime: ${ run.runtime }` );
		const catalogue = Array.from( { length: 24 }, ( _, i ) => ( {
			name: `${ [ 'Chaise', 'Table', 'Banc', 'Étagère', 'Lampe', 'Tabouret' ][ i % 6 ] } ${ [ 'chêne', 'noyer', 'frêne', 'hêtre' ][ Math.floor( i / 6 ) ] }`,
			sku: `ATL-${ String( 100 + i ) }`,
			price: ( 25 + i * 17.5 ).toFixed( 2 ),
		} ) );
		// Identities, plugins and the catalogue; again after a seed dump replaced the database
		// (its users' application passwords are not this run's; its products keep their SKUs).
		const setUp = async (): Promise< { admin: Identity; service: Identity; products: SeedProduct[] } > => {
			// Application password names are unique per user, and a restored database has the earlier run's.
			const label = `bench ${ new Date().toISOString() }`;
			const cookie = await loginCookies( site, 'admin', 'password' );
			const adminIdentity: Identity = {
				username: 'admin',
				password: await createApplicationPassword( site, cookie, label ),
			};
			for ( const id of [
				'query-counter/query-counter',
				'paid-index-probe/paid-index-probe',
				'si-bench-wc-seed/si-bench-wc-seed',
			] ) {
				await json( site, adminIdentity, `/wp/v2/plugins/${ id }`, {
					method: 'POST',
					body: { status: 'active' },
				} );
			}
			await json( site, adminIdentity, '/service-integration/v1/service-account', { method: 'POST' } );
			const created = await json< { username: string; password: string } >(
				site,
				adminIdentity,
				'/service-integration/v1/service-account/application-passwords',
				{ method: 'POST', body: { name: label } }
			);
			const catalogueIds = (
				await json< { products: SeedProduct[] } >( site, adminIdentity, '/si-bench-wc/v1/setup', {
					method: 'POST',
					body: { products: catalogue },
				} )
			).products.map( ( p ) => ( { id: p.id } ) );
			return {
				admin: adminIdentity,
				service: { username: created.username, password: created.password },
				products: catalogueIds,
			};
		};
		let { admin, service, products } = await setUp();

		let now = Date.now();
		const finalScale = options.scales[ options.scales.length - 1 ] as number;
		// Creation dates are spread over 400 days for a million orders, whatever the scales, so
		// that the templates and every copy are the same orders in every run (and in the cache).
		const spread = SEED_SPREAD;
		const cacheKey = ( orders: number ): SeedCacheKey | undefined =>
			options.seedCache
				? { woocommerceVersion: shop.version, orderStorage: shop.orderStorage, orders, spread }
				: undefined;
		let seeded = 0;
		// Templates seeded through WooCommerce's API by this run, not restored from the seed cache.
		let seededHere = 0;
		let seedMs = 0;
		// Copies written in SQL by this run, and the time it took.
		const multiplied = { orders: 0, ms: 0 };
		const results: ScaleResult[] = [];
		assertSequenceEngine( options.name );
		setBufferPool( options.name, options.bufferPoolMb );

		for ( const scale of options.scales ) {
			if ( seeded < TEMPLATE_ORDERS ) {
				const key = cacheKey( TEMPLATE_ORDERS );
				const dump = key ? findSeedDump( options.seedCache as string, key, seeded ) : undefined;
				if ( dump && dump.orders === TEMPLATE_ORDERS ) {
					const started = performance.now();
					log(
						`Restoring the ${ dump.orders.toLocaleString( 'en' ) } template orders from ${ dump.file } (mariadb-dump of an earlier run)`
					);
					restoreSeedDump( options.name, dump, site );
					( { admin, service, products } = await setUp() );
					now = dump.now;
					seeded = dump.orders;
					log( `  restored in ${ ( ( performance.now() - started ) / 1000 ).toFixed( 0 ) } s` );
				} else {
					const specs = function* (): Generator< Record< string, unknown > > {
						for ( let index = 0; index < TEMPLATE_ORDERS; index++ ) {
							yield seedOrder( index, spread, products, now );
						}
					};
					log(
						`Seeding the ${ TEMPLATE_ORDERS } template orders in one php-cli process (WooCommerce API: wc_create_order, add_product, calculate_totals; analytics import and outbound events unhooked)`
					);
					const started = performance.now();
					relaxedDurability( options.name, true );
					try {
						await seedWithPhpCli( options.name, specs(), () => undefined );
					} finally {
						relaxedDurability( options.name, false );
					}
					seedMs += performance.now() - started;
					seededHere = TEMPLATE_ORDERS;
					seeded = TEMPLATE_ORDERS;
					log( `  ${ seeded } templates in ${ ( seedMs / 1000 ).toFixed( 0 ) } s` );
					// The index walk the activation started, to its end, before the templates are dumped.
					await walkPaidIndex( site, admin, Infinity );
					if ( key ) {
						const saved = saveSeedDump( options.seedCache as string, options.name, key, now );
						log( `  dumped to ${ saved.file }` );
					}
				}
			}
			if ( seeded < scale ) {
				log(
					`Multiplying the templates in SQL: orders ${ seeded.toLocaleString( 'en' ) } to ${ scale.toLocaleString( 'en' ) } (bench/support/wc-sql-multiply.ts)`
				);
				const started = performance.now();
				const from = seeded;
				let lastReport = 0;
				relaxedDurability( options.name, true );
				try {
					multiplyOrders( {
						envName: options.name,
						orderStorage: shop.orderStorage === 'hpos' ? 'hpos' : 'legacy',
						from,
						to: scale,
						spread,
						now,
						onBatch: ( done ) => {
							const ms = performance.now() - started;
							if ( ms - lastReport >= 30_000 || done === scale ) {
								lastReport = ms;
								log(
									`  ${ done.toLocaleString( 'en' ) } / ${ scale.toLocaleString( 'en' ) } orders, ${ ( ( ms / ( done - from ) ) * 1000 ).toFixed( 0 ) } µs an order`
								);
							}
						},
					} );
				} finally {
					relaxedDurability( options.name, false );
				}
				const ms = performance.now() - started;
				multiplied.orders += scale - from;
				multiplied.ms += ms;
				seeded = scale;
				log(
					`  ${ ( scale - from ).toLocaleString( 'en' ) } copies written in ${ ( ms / 1000 ).toFixed( 0 ) } s`
				);
				await checkCopies(
					site,
					admin,
					options.name,
					scale,
					spread,
					products,
					now,
					shop.orderStorage === 'hpos' ? 'hpos' : 'legacy'
				);
			}
			if ( options.onlyCheckout ) {
				log(
					`The plugin's cost on a checkout at ${ scale.toLocaleString( 'en' ) } orders: ${ options.checkoutPairs } pairs of paid orders, with and without its callbacks`
				);
				const checkout = checkoutCost(
					options.name,
					seedOrder( 1, spread, products, now ),
					options.checkoutPairs
				);
				process.stdout.write( checkoutLines( checkout, '' ).join( '\n' ) + '\n' );
				if ( options.json ) {
					process.stdout.write( JSON.stringify( { orders: scale, run, checkout }, null, 2 ) + '\n' );
				}
				continue;
			}
			const indexWalk = options.walk ? await walkPaidIndex( site, admin, options.walkRuns ) : undefined;
			await checkIndexMatchesStore( options.name, shop.orderStorage );
			log(
				`Measuring at ${ scale.toLocaleString( 'en' ) } orders: one walk of the sync order, then ${ options.rounds } interleaved rounds`
			);
			const measured = await measure( site, service, admin, scale, options );
			measured.indexWalk = indexWalk;
			log(
				`  the plugin's cost on a checkout: ${ options.checkoutPairs } pairs of paid orders, with and without its callbacks`
			);
			measured.checkout = checkoutCost(
				options.name,
				seedOrder( 1, spread, products, now ),
				options.checkoutPairs
			);
			results.push( measured );
			if ( scale !== finalScale ) {
				// The scales measured so far, in case a long seeding to the next is stopped.
				log( `Results so far (${ results.length } of ${ options.scales.length } scales):` );
				report( results, { ...options, json: false }, { seeded: seededHere, seedMs, multiplied }, run );
			}
		}

		if ( ! options.onlyCheckout ) {
			report( results, options, { seeded: seededHere, seedMs, multiplied }, run );
		}
		const failed = results.filter(
			( r ) =>
				! r.samePages || ! r.sameFields || ! r.sameSyncPages || ! r.sameUncounted || r.walk.distinct !== r.paid
		);
		if ( failed.length ) {
			process.stderr.write(
				`\n✗ A check failed at ${ failed.map( ( r ) => r.orders.toLocaleString( 'en' ) ).join( ', ' ) } orders (see "same orders" and "sync walk" above): the timings measure a wrong answer.\n`
			);
			process.exitCode = 1;
		}
		if ( options.keep && stack ) {
			log(
				`Kept running: ${ site } (admin ${ admin.username } / ${ admin.password }; service account ${ service.username } / ${ service.password }); sidecar pid ${ stack.sidecarPid }`
			);
			stack = undefined;
		}
	} finally {
		if ( options.keep && stack ) {
			// Kept after a failure too, for investigation.
			log( `Kept running after a failure: ${ stack.siteUrl }; stop it with --stop --name=${ options.name }` );
			stack = undefined;
		}
		await stop();
	}
}

type Item = { id: number; date_paid?: string | null };

async function measure(
	site: string,
	service: Identity,
	admin: Identity,
	orders: number,
	options: Options
): Promise< ScaleResult > {
	const perPage = options.perPage;
	const ours = ( page: number ): string =>
		`/service-integration/v1/commandes-payees?per_page=${ perPage }&page=${ page }`;
	const wc = ( page: number ): string =>
		`/wc/v3/orders?status=processing,completed&per_page=${ perPage }&page=${ page }`;
	const uncounted = ( route: string ): string => `${ route }&with_total=false`;
	const sync = ( cursor: Cursor | undefined ): string => {
		const query = new URLSearchParams( { orderby: 'date_paid', per_page: String( perPage ) } );
		if ( cursor ) {
			query.set( 'paid_after', cursor.paid_after );
			if ( cursor.after_id !== undefined ) {
				query.set( 'after_id', String( cursor.after_id ) );
			}
		}
		return `/service-integration/v1/commandes-payees?${ query.toString() }`;
	};
	const items = ( body: string ): Item[] => JSON.parse( body ) as Item[];
	const ids = ( body: string ): string =>
		items( body )
			.map( ( o ) => o.id )
			.join();

	const paid = await fetchTotal( site, service, ours( 1 ) );
	const pages = Math.max( 1, Math.ceil( paid / perPage ) );

	// One walk of the whole sync order, as a client catching up on the backlog: the cursor
	// before each page (the first page's: its first order's payment time, inclusive).
	const cursors: Cursor[] = [];
	const walkPages: string[] = [];
	const walk = { pages: 0, orders: 0, distinct: 0, tiedPairs: 0, ms: [] as number[] };
	const seen = new Set< number >();
	let cursor: Cursor | undefined;
	let previous: Item | undefined;
	for (;;) {
		const r = check( await request( site, service, uncounted( sync( cursor ) ) ), 'sync walk' );
		const page = items( r.body );
		if ( page.length === 0 ) {
			break;
		}
		const first = page[ 0 ] as Item;
		const last = page[ page.length - 1 ] as Item;
		if ( ! first.date_paid || ! last.date_paid ) {
			throw new Error( `The sync order returned an order without date_paid: ${ r.body.slice( 0, 200 ) }` );
		}
		cursors.push( cursor ?? { paid_after: first.date_paid } );
		walkPages.push( ids( r.body ) );
		walk.ms.push( r.ms );
		for ( const item of page ) {
			seen.add( item.id );
			if ( previous && previous.date_paid === item.date_paid ) {
				walk.tiedPairs++;
			}
			previous = item;
		}
		walk.orders += page.length;
		if ( page.length < perPage ) {
			break;
		}
		cursor = { paid_after: last.date_paid, after_id: last.id };
		if ( walkPages.length > pages + 5 ) {
			throw new Error(
				`The sync walk went past ${ walkPages.length } pages for ${ paid } paid orders: the cursor does not advance`
			);
		}
	}
	walk.pages = walkPages.length;
	walk.distinct = seen.size;
	log(
		`  sync walk: ${ walk.pages } pages, ${ walk.orders } orders (${ walk.distinct } distinct; the plain listing counts ${ paid }), ${ walk.tiedPairs } pairs paid in the same second, median ${ median( walk.ms ).toFixed( 0 ) } ms a page`
	);
	if ( walk.pages === 0 ) {
		throw new Error( 'The sync order returned no order' );
	}

	// The depths: page indexes (0-based) into the walk; "end" is the last full page.
	const lastFull = walkPages.reduce(
		( found, page, index ) => ( page.split( ',' ).length === perPage ? index : found ),
		0
	);
	const depths: DepthResult[] = DEPTHS.map( ( depth ) => {
		const index = Math.min( lastFull, Math.round( depth.at * lastFull ) );
		return { label: depth.label, page: index + 1, cursor: cursors[ index ] as Cursor, a: [], c: [], queries: {} };
	} );

	// Warm-up for the three routes.
	for ( let i = 0; i < 2; i++ ) {
		check( await request( site, service, ours( 1 ) ), 'endpoint' );
		check( await request( site, admin, wc( 1 ) ), '/wc/v3/orders' );
		check( await request( site, service, sync( cursors[ 0 ] ) ), 'sync' );
	}

	const result: ScaleResult = {
		orders,
		paid,
		pages,
		a: { ms: [], bytes: [] },
		b: { ms: [], bytes: [] },
		c: { ms: [], bytes: [] },
		a0: { ms: [], bytes: [] },
		c0: { ms: [], bytes: [] },
		sameUncounted: true,
		explain: undefined,
		indexWalk: undefined,
		checkout: undefined,
		serviceBaseline: [],
		adminBaseline: [],
		samePages: true,
		sameFields: true,
		sameSyncPages: true,
		depths,
		walk,
	};
	for ( let round = 0; round < options.rounds; round++ ) {
		const depth = depths[ round % depths.length ] as DepthResult;
		const walkIndex = depth.page - 1;
		let aBody = '';
		let bBody = '';
		let cBody = '';
		let a0Body = '';
		let c0Body = '';
		const steps: Array< () => Promise< void > > = [
			async () => {
				const r = check( await request( site, service, ours( depth.page ) ), 'endpoint' );
				result.a.ms.push( r.ms );
				result.a.bytes.push( r.bytes );
				depth.a.push( r.ms );
				aBody = r.body;
			},
			async () => {
				const r = check( await request( site, admin, wc( depth.page ) ), '/wc/v3/orders' );
				result.b.ms.push( r.ms );
				result.b.bytes.push( r.bytes );
				bBody = r.body;
			},
			async () => {
				const r = check( await request( site, service, sync( depth.cursor ) ), 'sync' );
				result.c.ms.push( r.ms );
				result.c.bytes.push( r.bytes );
				depth.c.push( r.ms );
				cBody = r.body;
			},
			async () => {
				const r = check(
					await request( site, service, uncounted( ours( depth.page ) ) ),
					'endpoint, with_total=false'
				);
				result.a0.ms.push( r.ms );
				result.a0.bytes.push( r.bytes );
				a0Body = r.body;
			},
			async () => {
				const r = check(
					await request( site, service, uncounted( sync( depth.cursor ) ) ),
					'sync, with_total=false'
				);
				result.c0.ms.push( r.ms );
				result.c0.bytes.push( r.bytes );
				c0Body = r.body;
			},
			async () => {
				result.serviceBaseline.push(
					check( await request( site, service, '/service-integration/v1/me' ), 'baseline' ).ms
				);
			},
			async () => {
				result.adminBaseline.push(
					check( await request( site, admin, '/service-integration/v1/me' ), 'baseline' ).ms
				);
			},
		];
		// Each route takes each position in turn, so none always follows another.
		for ( let k = 0; k < steps.length; k++ ) {
			await ( steps[ ( k + round ) % steps.length ] as () => Promise< void > )();
		}
		if ( ids( aBody ) !== ids( bBody ) ) {
			result.samePages = false;
		}
		if ( ! sameFields( aBody, bBody ) ) {
			result.sameFields = false;
		}
		if ( ids( cBody ) !== walkPages[ walkIndex ] ) {
			result.sameSyncPages = false;
		}
		if ( a0Body !== aBody || c0Body !== cBody ) {
			result.sameUncounted = false;
		}
	}

	if ( options.queryCount ) {
		for ( const depth of depths ) {
			depth.queries.a = queryCount( await request( site, service, ours( depth.page ), { probe: true } ) );
			depth.queries.b = queryCount( await request( site, admin, wc( depth.page ), { probe: true } ) );
			depth.queries.c = queryCount( await request( site, service, sync( depth.cursor ), { probe: true } ) );
			depth.queries.a0 = queryCount(
				await request( site, service, uncounted( ours( depth.page ) ), { probe: true } )
			);
			depth.queries.c0 = queryCount(
				await request( site, service, uncounted( sync( depth.cursor ) ), { probe: true } )
			);
		}
		const ourSql = depths.flatMap( ( d ) =>
			[ d.queries.a, d.queries.c, d.queries.a0, d.queries.c0 ].flatMap( ( q ) => q?.sql ?? [] )
		);
		result.explain = explainRoute( options.name, [ ...new Set( ourSql ) ] );
	}
	return result;
}

/**
 * The query counter's report (tests/fixtures/plugins/query-counter), appended to the body of a
 * request carrying its header. On the production runtime that header also turns SAVEQUERIES on,
 * so each query's caller tells those run inside the route's callback from WordPress's boot.
 */
function queryCount( result: Timed ): QueryCount | undefined {
	const match = /<!-- query-counter (\{.*\}) -->\s*$/s.exec( result.body );
	if ( result.status !== 200 || ! match ) {
		return undefined;
	}
	const probe = JSON.parse( match[ 1 ] as string ) as {
		num_queries: number;
		savequeries: boolean;
		queries: Array< { sql: string; caller: string } >;
	};
	const inRoute = probe.queries.filter( ( q ) => q.caller.includes( 'WP_REST_Server->respond_to_request' ) );
	return {
		total: probe.num_queries,
		route: probe.savequeries && probe.queries.length > 0 ? inRoute.length : null,
		sql: inRoute.map( ( q ) => q.sql ),
	};
}

async function fetchTotal( site: string, who: Identity, route: string ): Promise< number > {
	const response = await fetch( `${ site }/wp-json${ route }`, {
		headers: {
			authorization: 'Basic ' + Buffer.from( `${ who.username }:${ who.password }` ).toString( 'base64' ),
		},
	} );
	await response.arrayBuffer();
	return Number( response.headers.get( 'x-wp-total' ) );
}

function check( result: Timed, what: string ): Timed {
	if ( result.status !== 200 ) {
		throw new Error( `The ${ what } answered HTTP ${ result.status }: ${ result.body.slice( 0, 300 ) }` );
	}
	return result;
}

function report(
	results: ScaleResult[],
	options: Options,
	seeding: { seeded: number; seedMs: number; multiplied: { orders: number; ms: number } },
	run: Run
): void {
	const ms = ( n: number ): string => `${ n.toFixed( 0 ).padStart( 6 ) } ms`;
	const kb = ( n: number ): string => `${ ( n / 1024 ).toFixed( 1 ).padStart( 7 ) } KiB`;
	const x = ( n: number ): string => `${ n.toFixed( 2 ) }x`;
	const q = ( count: QueryCount | undefined ): string =>
		count ? `${ count.total }${ count.route !== null ? ` (${ count.route } in the route)` : '' }` : '?';
	const range = ( counts: Array< QueryCount | undefined > ): string => {
		const totals = counts.filter( ( c ): c is QueryCount => c !== undefined );
		if ( totals.length === 0 ) {
			return '';
		}
		const lo = Math.min( ...totals.map( ( c ) => c.total ) );
		const hi = Math.max( ...totals.map( ( c ) => c.total ) );
		return `${ lo === hi ? lo : `${ lo }-${ hi }` } queries`;
	};
	const lines: string[] = [];
	lines.push( '' );
	lines.push( `Paid-orders endpoint, ${ run.started }` );
	lines.push( `WordPress runtime: ${ run.runtime }` );
	lines.push( `Commerce: ${ run.commerce }; plugin: ${ run.plugin }` );
	lines.push(
		`Pages of ${ options.perPage }, ${ options.rounds } interleaved rounds per scale over ${ DEPTHS.length } depths; (a) and (b) at the depth's page number, (c) at the cursor before it`
	);
	lines.push( '' );
	lines.push(
		'  orders    paid  route                                median       p95     body/page   SQL queries a request'
	);
	for ( const r of results ) {
		const a = summary( r.a );
		const b = summary( r.b );
		const c = summary( r.c );
		const pad = ''.padStart( 16 );
		lines.push(
			`${ String( r.orders ).padStart( 8 ) } ${ String( r.paid ).padStart( 7 ) }  ${ '(a) commandes-payees?page=N'.padEnd( 34 ) } ${ ms( a.median ) } ${ ms( a.p95 ) } ${ kb( a.bytes ) }   ${ range( r.depths.map( ( d ) => d.queries.a ) ) }`
		);
		lines.push(
			`${ pad }  ${ '(b) /wc/v3/orders (WooCommerce)'.padEnd( 34 ) } ${ ms( b.median ) } ${ ms( b.p95 ) } ${ kb( b.bytes ) }   ${ range( r.depths.map( ( d ) => d.queries.b ) ) }`
		);
		lines.push(
			`${ pad }  ${ '(c) sync, orderby=date_paid+cursor'.padEnd( 34 ) } ${ ms( c.median ) } ${ ms( c.p95 ) } ${ kb( c.bytes ) }   ${ range( r.depths.map( ( d ) => d.queries.c ) ) }`
		);
		const a0 = summary( r.a0 );
		const c0 = summary( r.c0 );
		const me = median( r.serviceBaseline );
		lines.push(
			`${ pad }  ${ '(a0) (a) with with_total=false'.padEnd( 34 ) } ${ ms( a0.median ) } ${ ms( a0.p95 ) } ${ kb( a0.bytes ) }   ${ range( r.depths.map( ( d ) => d.queries.a0 ) ) }`
		);
		lines.push(
			`${ pad }  ${ '(c0) (c) with with_total=false'.padEnd( 34 ) } ${ ms( c0.median ) } ${ ms( c0.p95 ) } ${ kb( c0.bytes ) }   ${ range( r.depths.map( ( d ) => d.queries.c0 ) ) }`
		);
		lines.push(
			`${ pad }  trivial request (/me), service account / admin: ${ ms( me ) } / ${ ms( median( r.adminBaseline ) ) }`
		);
		lines.push(
			`${ pad }  against /me (service account), median: (a) ${ x( a.median / me ) }, (c) ${ x( c.median / me ) }, (a0) ${ x( a0.median / me ) }, (c0) ${ x( c0.median / me ) } (target: at most 1.3x)`
		);
		if ( r.explain ) {
			lines.push(
				`${ pad }  EXPLAIN of the routes' own queries ((a), (c), (a0), (c0)): at most ${ r.explain.maxRows.toLocaleString( 'en' ) } rows expected in one query`
			);
			for ( const plan of r.explain.plans ) {
				lines.push( `${ pad }    ${ plan }` );
			}
		}
		if ( r.indexWalk ) {
			const w = r.indexWalk;
			lines.push(
				`${ pad }  index walk (daily check), ${ w.finished ? 'to its end' : `${ w.runs.length } runs, up to order id ${ w.position.toLocaleString( 'en' ) }` }: ${ w.rows.toLocaleString( 'en' ) } rows, ${ w.seconds.toFixed( 0 ) } s, ${ w.runs.length } Action Scheduler runs (median ${ median( w.runs ).toFixed( 1 ) } s, longest ${ Math.max( ...w.runs ).toFixed( 1 ) } s), peak memory ${ w.peakMemoryMb } MiB of ${ w.memoryLimit }`
			);
		}
		if ( r.checkout ) {
			lines.push( ...checkoutLines( r.checkout, pad ) );
		}
		lines.push(
			`${ pad }  (b)/(a): median ${ x( b.median / a.median ) }, p95 ${ x( b.p95 / a.p95 ) }, size ${ x( b.bytes / a.bytes ) }   (c)/(a): median ${ x( c.median / a.median ) }, p95 ${ x( c.p95 / a.p95 ) }`
		);
		lines.push(
			`${ pad }  above the trivial request: (a) +${ ( a.median - median( r.serviceBaseline ) ).toFixed( 0 ) } ms, (b) +${ ( b.median - median( r.adminBaseline ) ).toFixed( 0 ) } ms, (c) +${ ( c.median - median( r.serviceBaseline ) ).toFixed( 0 ) } ms`
		);
		lines.push( `${ pad }  by depth, median (a) / (c) [queries (a) / (b) / (c)]:` );
		for ( const d of r.depths ) {
			lines.push(
				`${ pad }    ${ d.label.padEnd( 5 ) } page ${ String( d.page ).padStart( 4 ) }: ${ ms( median( d.a ) ) } / ${ ms( median( d.c ) ) }   [${ q( d.queries.a ) } / ${ q( d.queries.b ) } / ${ q( d.queries.c ) }]`
			);
		}
		lines.push(
			`${ pad }  same orders (a) vs (b) on every page: ${ r.samePages ? 'yes' : 'NO' }, with the same fields: ${ r.sameFields ? 'yes' : 'NO' }; (c) same page as the walk at every cursor: ${ r.sameSyncPages ? 'yes' : 'NO' }; (a0) and (c0) the same pages as (a) and (c): ${ r.sameUncounted ? 'yes' : 'NO' }`
		);
		lines.push(
			`${ pad }  sync walk: ${ r.walk.pages } pages, ${ r.walk.orders } orders (${ r.walk.distinct } distinct; ${ r.walk.distinct === r.paid ? 'all' : `NOT the ${ r.paid }` } paid orders), ${ r.walk.tiedPairs } pairs paid in the same second; median ${ ms( median( r.walk.ms ) ) } a page`
		);
	}
	const headline = results.find( ( r ) => r.orders === options.compareAt );
	if ( headline ) {
		const a = summary( headline.a );
		const b = summary( headline.b );
		lines.push( '' );
		lines.push(
			`At ${ headline.orders.toLocaleString( 'en' ) } orders: (a) is ${ x( b.median / a.median ) } faster than (b) at the median, ${ x( b.p95 / a.p95 ) } at p95, and ${ x( b.bytes / a.bytes ) } smaller (target: 5x faster); (c)/(a) ${ x( summary( headline.c ).median / a.median ) } at the median, ${ x( summary( headline.c ).p95 / a.p95 ) } at p95 (target: at most 1.3x).`
		);
	}
	if ( results.length > 1 ) {
		const first = results[ 0 ] as ScaleResult;
		const last = results[ results.length - 1 ] as ScaleResult;
		const growth = ( pick: ( r: ScaleResult ) => Series ): string => {
			const from = summary( pick( first ) );
			const to = summary( pick( last ) );
			return `median ${ x( to.median / from.median ) }, p95 ${ x( to.p95 / from.p95 ) }`;
		};
		lines.push(
			`Flatness, ${ last.orders.toLocaleString( 'en' ) } vs ${ first.orders.toLocaleString( 'en' ) } orders: (a) ${ growth( ( r ) => r.a ) }; (c) ${ growth( ( r ) => r.c ) }; (a0) ${ growth( ( r ) => r.a0 ) }; (c0) ${ growth( ( r ) => r.c0 ) }; (b) ${ growth( ( r ) => r.b ) }; /me ${ growth( ( r ) => ( { ms: r.serviceBaseline, bytes: [] } ) ) } (target: at most 1.2x)`
		);
		lines.push(
			`Per page, median (a) / (c): ${ results.map( ( r ) => `${ r.orders.toLocaleString( 'en' ) }: ${ median( r.a.ms ).toFixed( 0 ) } / ${ median( r.c.ms ).toFixed( 0 ) } ms` ).join( ', ' ) }`
		);
	}
	lines.push(
		`Seeding in this run: ${ seeding.seeded } template orders through WooCommerce's API in ${ ( seeding.seedMs / 1000 ).toFixed( 0 ) } s (0: restored from the seed cache); ${ seeding.multiplied.orders.toLocaleString( 'en' ) } copies written in SQL in ${ ( seeding.multiplied.ms / 1000 ).toFixed( 0 ) } s (${ seeding.multiplied.orders ? ( ( seeding.multiplied.ms / seeding.multiplied.orders ) * 1000 ).toFixed( 0 ) : '-' } µs an order).`
	);
	process.stdout.write( lines.join( '\n' ) + '\n' );
	if ( options.json ) {
		process.stdout.write(
			JSON.stringify(
				{
					run,
					seeding,
					results: results.map( ( r ) => ( {
						orders: r.orders,
						paid: r.paid,
						a: summary( r.a ),
						b: summary( r.b ),
						c: summary( r.c ),
						a0: summary( r.a0 ),
						c0: summary( r.c0 ),
						explain: r.explain,
						indexWalk: r.indexWalk,
						checkout: r.checkout,
						baselineService: median( r.serviceBaseline ),
						baselineAdmin: median( r.adminBaseline ),
						samePages: r.samePages,
						sameFields: r.sameFields,
						sameSyncPages: r.sameSyncPages,
						walk: {
							pages: r.walk.pages,
							orders: r.walk.orders,
							distinct: r.walk.distinct,
							tiedPairs: r.walk.tiedPairs,
							medianMs: median( r.walk.ms ),
						},
						depths: r.depths.map( ( d ) => ( {
							label: d.label,
							page: d.page,
							cursor: d.cursor,
							a: summary( { ms: d.a } ).median,
							c: summary( { ms: d.c } ).median,
							queries: d.queries,
						} ) ),
					} ) ),
				},
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
