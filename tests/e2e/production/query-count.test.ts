import { PLAYGROUND_COOKIE } from '../../../scripts/lib/wp-env';
import { productionSql } from '../../../scripts/production/stack';
import { E2E_ENV_NAME, readState } from '../support/environment';
import { setPluginActive } from '../support/plugins';

/**
 * The plugin adds no database query to a plain front-end page view: the same anonymous
 * request makes exactly as many queries with the plugin active as with it inactive. Counted
 * by the query-counter test plugin ($wpdb->num_queries, and each query with SAVEQUERIES,
 * which the production runtime's wp-config.php turns on for the probe's header), on MariaDB
 * with E2E_RUNTIME=production.
 *
 * Skipped on Playground: the count that matters is MariaDB's (SQLite there runs behind a
 * translation layer), and the file took 198 s under Playground (each plugin switch is a slow
 * request there), which CI's Playground run cannot spare. CI runs this folder on the
 * production runtime (.ci/run).
 *
 * Before the fix, the three version options (service_integration_version,
 * service_integration_outbox_db, service_integration_inbound_db) were stored with autoload off
 * and read on every request: three `SELECT option_value FROM wp_options WHERE option_name = …`.
 */
const PLUGIN = 'service-integration/service-integration';
const COUNTER = 'query-counter/query-counter';
const PROBE_HEADER = 'x-service-integration-query-probe';
const ON_PRODUCTION = readState().runtime === 'production';
const AUTOLOADED = [ 'yes', 'on', 'auto-on', 'auto' ];
const VERSION_OPTIONS = [
	'service_integration_version',
	'service_integration_outbox_db',
	'service_integration_inbound_db',
];

interface QueryReport {
	num_queries: number;
	savequeries: boolean;
	queries: Array< { sql: string; caller: string } >;
}

async function probe( path: string ): Promise< QueryReport > {
	const response = await fetch( `${ readState().siteUrl }${ path }`, {
		headers: { [ PROBE_HEADER ]: '1', cookie: PLAYGROUND_COOKIE },
		redirect: 'manual',
	} );
	const body = await response.text();
	expect( response.status ).toBe( 200 );
	const match = /<!-- query-counter (\{.*\}) -->/s.exec( body );
	if ( ! match ) {
		throw new Error( `GET ${ path } carried no query-counter report (is the test plugin active?)` );
	}
	return JSON.parse( match[ 1 ] as string ) as QueryReport;
}

/**
 * The count once the site has settled: a page view right after (de)activation may still do
 * one-time work (rewrite rules, transients), so views repeat until two in a row agree.
 * A POST comes first, as on any live site (WordPress's own spawn_cron() POSTs to wp-cron.php):
 * real WooCommerce's bundled Jetpack connection flags every change of `active_plugins` with an
 * autoloaded transient and clears it on the next POST only
 * (Automattic\Jetpack\Connection\Plugin_Storage::maybe_update_active_connected_plugins()).
 * While the flag is there no view queries it, once it is gone each view does, so without the
 * POST the count depends on whether some other request happened to clear it.
 */
async function settledReport( path: string ): Promise< QueryReport > {
	await (
		await fetch( `${ readState().siteUrl }/wp-cron.php`, {
			method: 'POST',
			headers: { cookie: PLAYGROUND_COOKIE },
		} )
	).text();
	let previous = await probe( path );
	for ( let attempt = 0; attempt < 6; attempt++ ) {
		const next = await probe( path );
		if ( next.num_queries === previous.num_queries && sameShapes( next, previous ) ) {
			return next;
		}
		previous = next;
	}
	throw new Error(
		`GET ${ path } never made the same number of queries twice in a row (last ${ previous.num_queries })`
	);
}

/**
 * Whether two views made the same queries, numbers aside (a one-time write, such as a cron
 * event re-added after a concurrent cron run dropped it, is not the settled state even when
 * another query happens to balance the count).
 */
function sameShapes( a: QueryReport, b: QueryReport ): boolean {
	const shapes = ( report: QueryReport ) => report.queries.map( ( { sql } ) => sql.replace( /\d+/g, '#' ) ).sort();
	return JSON.stringify( shapes( a ) ) === JSON.stringify( shapes( b ) );
}

/** Queries in `a` that `b` does not have (as a multiset of SQL texts), with their callers. */
function extra( a: QueryReport, b: QueryReport ): string[] {
	const left = new Map< string, number >();
	for ( const { sql } of b.queries ) {
		left.set( sql, ( left.get( sql ) ?? 0 ) + 1 );
	}
	return a.queries
		.filter( ( { sql } ) => {
			const count = left.get( sql ) ?? 0;
			left.set( sql, count - 1 );
			return count <= 0;
		} )
		.map( ( { sql, caller } ) => `${ sql }\n    by ${ caller }` );
}

/**
 * One view with the plugin active, between two without it. The site does background work of its
 * own (real WooCommerce's Action Scheduler migration checks query until their action has run,
 * WP-Cron runs every minute), so a change between two views is not always the plugin's: the
 * pair counts only when the views without the plugin, before and after, made the same queries.
 */
async function withAndWithoutPlugin( path: string ): Promise< { active: QueryReport; inactive: QueryReport } > {
	let drift: string[] = [];
	for ( let attempt = 0; attempt < 4; attempt++ ) {
		await setPluginActive( PLUGIN, false );
		const before = await settledReport( path );
		await setPluginActive( PLUGIN, true );
		const active = await settledReport( path );
		await setPluginActive( PLUGIN, false );
		const after = await settledReport( path );
		await setPluginActive( PLUGIN, true );
		drift = [ ...extra( before, after ), ...extra( after, before ) ];
		if ( drift.length === 0 ) {
			return { active, inactive: after };
		}
	}
	throw new Error( `GET ${ path } without the plugin kept changing between views:\n${ drift.join( '\n' ) }` );
}

( ON_PRODUCTION ? describe : describe.skip )( 'queries per front-end request (production runtime: MariaDB)', () => {
	beforeAll( async () => {
		await setPluginActive( COUNTER, true );
	} );

	afterAll( async () => {
		await setPluginActive( PLUGIN, true );
		await setPluginActive( COUNTER, false );
	} );

	it.each( [
		[ 'the home page', '/' ],
		[ 'a post', '/hello-world/' ],
	] )( '%s: not one query more with the plugin active than without it', async ( _what, path ) => {
		const { active, inactive } = await withAndWithoutPlugin( path );

		// The production runtime's wp-config.php turns SAVEQUERIES on for the probe's header.
		expect( active.savequeries ).toBe( true );
		// The queries the plugin adds, with their callers, so a failure says which ones.
		expect( extra( active, inactive ) ).toEqual( [] );
		expect(
			active.queries.map( ( { sql } ) => sql ).filter( ( sql ) => sql.includes( 'service_integration' ) )
		).toEqual( [] );
		expect( active.num_queries ).toBe( inactive.num_queries );
	} );

	// SQL on the site's database through MariaDB's client, as an older version left it.
	it( 'a site whose version options were stored with autoload off (0.1.0) switches them on its next request, then makes no query for them', async () => {
		const autoload = () =>
			Object.fromEntries(
				productionSql(
					E2E_ENV_NAME,
					`SELECT option_name, autoload FROM wp_options WHERE option_name IN (${ VERSION_OPTIONS.map( ( name ) => `'${ name }'` ).join( ', ' ) })`
				)
					.trim()
					.split( '\n' )
					.map( ( line ) => line.split( '\t' ) )
			);
		await setPluginActive( PLUGIN, true );
		productionSql(
			E2E_ENV_NAME,
			`UPDATE wp_options SET autoload = 'no' WHERE option_name IN (${ VERSION_OPTIONS.map( ( name ) => `'${ name }'` ).join( ', ' ) })`
		);
		expect( autoload() ).toEqual( Object.fromEntries( VERSION_OPTIONS.map( ( name ) => [ name, 'no' ] ) ) );

		await probe( '/' );

		// 'yes' before WordPress 6.6, 'on' since (wp_autoload_values_to_autoload()).
		expect(
			Object.fromEntries(
				Object.entries( autoload() ).map( ( [ name, value ] ) => [
					name,
					AUTOLOADED.includes( value as string ),
				] )
			)
		).toEqual( Object.fromEntries( VERSION_OPTIONS.map( ( name ) => [ name, true ] ) ) );
		const after = await settledReport( '/' );
		expect(
			after.queries.map( ( { sql } ) => sql ).filter( ( sql ) => sql.includes( 'service_integration' ) )
		).toEqual( [] );
	} );
} );
