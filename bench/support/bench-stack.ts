import fs from 'fs';
import { WOOCOMMERCE_BUILDS } from '../../scripts/lib/builds';
import { stopChild } from '../../scripts/lib/sidecar-process';
import { chooseSite, type OrderStorage, type SiteChoice } from '../../scripts/lib/site-choice';
import { describeStack, startStack, startStackSidecar, type StackOptions } from '../../scripts/lib/stack';
import { stopWordPress, type SiteReport } from '../../scripts/lib/wp-env';
import { startProduction, stopProduction } from '../../scripts/production/stack';
import { startNativeWordPress } from './native-wordpress';

/**
 * The WordPress + sidecar a benchmark runs against, on either runtime:
 *   playground  what npm start and the tests use (PHP as WebAssembly, one worker)
 *   native      Debian's PHP with its built-in server and several worker processes,
 *               so a route's own cost is not hidden behind Playground's per-request cost
 *   production  nginx + PHP-FPM 8.2 + MariaDB from Debian's packages, the plugin from the
 *               release zip and the sidecar from the release tarball (scripts/production, what
 *               E2E_RUNTIME=production and npm run production use)
 * Always a fresh database, WordPress's and the sidecar's. startBenchStack starts a site without a
 * shop, on any runtime; startShopStack a site with real WooCommerce, on the production runtime.
 */
export type BenchRuntime = 'playground' | 'native' | 'production';

export const RUNTIME_HELP = `  --runtime=<name>     WordPress runtime: playground (default; PHP as WebAssembly in one
                       worker, as npm start runs it) or native (Debian's php8.2-cli built-in
                       server, SQLite, --php-workers worker processes; installs php8.2-cli
                       php8.2-sqlite3 php8.2-mbstring php8.2-xml php8.2-curl with apt-get when run as root),
                       or production (nginx + PHP-FPM 8.2 + MariaDB from Debian's packages, as
                       npm run production runs them: the plugin from the release zip, the sidecar
                       from the release tarball; PHP-FPM on the WordPress port + 2, MariaDB + 3;
                       files under .cache/environments/<name>/production/)
                       On each, WordPress 6.5.5 without a shop (no WooCommerce).
  --php-workers=<n>    native runtime: PHP_CLI_SERVER_WORKERS; production: PHP-FPM's
                       pm.max_children (default 4)
`;

export function runtimeFlag( value: string | true | undefined ): BenchRuntime {
	if ( value === undefined ) {
		return 'playground';
	}
	if ( value === 'playground' || value === 'native' || value === 'production' ) {
		return value;
	}
	throw new Error( `--runtime must be playground, native or production, got "${ String( value ) }"` );
}

/**
 * The --runtime of a benchmark that needs a shop. Shops run WooCommerce on MySQL or MariaDB; the
 * playground and native runtimes run WordPress on SQLite through the SQLite Database Integration's
 * translation of every query (a REST call with WooCommerce loaded takes seconds in Playground), so
 * such a benchmark runs on the production runtime only, and refuses the others rather than measure
 * something else.
 */
export const SHOP_RUNTIME_HELP = `  --runtime=production the only runtime with a shop, and the default: nginx + PHP-FPM 8.2 +
                       MariaDB from Debian's packages, as npm run production runs them (the
                       plugin from the release zip, the sidecar from the release tarball; PHP-FPM
                       on the WordPress port + 2, MariaDB + 3; files under
                       .cache/environments/<name>/production/). playground and native are
                       refused: they run WordPress on SQLite through a translation layer, not on
                       the MariaDB a shop runs, and with WooCommerce loaded Playground takes
                       seconds a REST call
  --php-workers=<n>    PHP-FPM's pm.max_children (default 4)
`;

/** Stops what a run started on Ctrl-C or SIGTERM, then exits (130, 143): the production runtime's servers would outlive it. */
export function stopOnSignals( stop: () => Promise< void > ): void {
	process.once( 'SIGINT', () => void stop().then( () => process.exit( 130 ) ) );
	process.once( 'SIGTERM', () => void stop().then( () => process.exit( 143 ) ) );
}

/** A site with a shop: chooseSite() with a WooCommerce folder. */
export type ShopSite = SiteChoice & { woocommerceDir: string };

/**
 * What a benchmark that needs a shop runs: the production runtime (its --runtime flag: the other
 * runtimes refused, saying why and what to use) and chooseSite()'s WordPress and WooCommerce
 * (7.1 and 10.0.2 by default); a site without a shop is refused too.
 */
export function shopSite( runtimeValue: string | true | undefined, bench: string ): ShopSite {
	const runtime = runtimeValue === undefined ? 'production' : runtimeFlag( runtimeValue );
	if ( runtime !== 'production' ) {
		throw new Error(
			`${ bench } runs real WooCommerce on --runtime=production only (the default), not on ${ runtime }: that runtime runs WordPress on SQLite through a translation layer, not on the MariaDB a shop runs${ runtime === 'playground' ? ', and takes seconds a REST call with WooCommerce loaded' : '' }. Use --runtime=production.`
		);
	}
	const site = chooseSite();
	if ( ! site.woocommerceDir ) {
		throw new Error(
			`${ bench } needs a shop. ${ site.note ?? `WOOCOMMERCE_VERSION=none asks for a site without one: set it to ${ WOOCOMMERCE_BUILDS.join( ' or ' ) }, or set WOOCOMMERCE_DIR.` }`
		);
	}
	return { ...site, woocommerceDir: site.woocommerceDir };
}

export interface BenchStackOptions {
	runtime: BenchRuntime;
	name: string;
	wpPort: number;
	sidecarPort: number;
	phpWorkers: number;
	extraPlugins?: Record< string, string >;
	sidecarEnv?: NodeJS.ProcessEnv;
}

export interface ShopStackOptions extends Omit< BenchStackOptions, 'runtime' > {
	site: ShopSite;
	/** Release artifacts to install instead of building them from this tree. */
	releaseDir?: string;
}

export interface BenchStack {
	siteUrl: string;
	/** The sidecar's pid. */
	sidecarPid: number | undefined;
	/** e.g. "native PHP 8.2.36, 4 workers" */
	description: string;
	/** Stops WordPress and the sidecar. */
	stop: () => Promise< void >;
}

export interface ShopStack extends BenchStack {
	/** WooCommerce as the running site reports it. */
	shop: { version: string; orderStorage: OrderStorage };
}

function stackOptions( options: BenchStackOptions ): StackOptions {
	// The sidecar and its shared key are the same on both runtimes; only WordPress differs.
	return {
		name: options.name,
		runtime: 'playground',
		wpPort: options.wpPort,
		sidecarPort: options.sidecarPort,
		freshSite: true,
		extraPlugins: options.extraPlugins,
		sidecarEnv: options.sidecarEnv,
	};
}

/** A site without a shop (WordPress 6.5.5, as the benchmarks without one have always measured it), on any runtime. */
export async function startBenchStack( options: BenchStackOptions ): Promise< BenchStack > {
	if ( options.runtime === 'production' ) {
		return startProductionBenchStack( options );
	}
	// A fresh sidecar too: a database an earlier sidecar version migrated may not open.
	fs.rmSync( describeStack( stackOptions( options ) ).sidecarDataDir, { recursive: true, force: true } );
	if ( options.runtime === 'playground' ) {
		const stack = await startStack( stackOptions( options ) );
		return {
			siteUrl: stack.siteUrl,
			sidecarPid: stack.sidecar.pid,
			description: 'Playground (PHP 8.2 as WebAssembly), no shop',
			stop: async () => {
				await stopChild( stack.sidecar );
				await stopWordPress( stack.env, true ).catch( () => undefined );
			},
		};
	}

	const described = describeStack( stackOptions( options ) );
	const sidecar = await startStackSidecar( stackOptions( options ), described );
	try {
		const wordpress = await startNativeWordPress( {
			name: options.name,
			port: options.wpPort,
			sidecarUrl: described.sidecarUrl,
			sharedKey: described.sharedKey,
			extraPlugins: options.extraPlugins,
			fresh: true,
			workers: options.phpWorkers,
		} );
		return {
			siteUrl: wordpress.siteUrl,
			sidecarPid: sidecar.pid,
			description: `native PHP ${ wordpress.phpVersion } (built-in server, ${ options.phpWorkers } workers), no shop`,
			stop: async () => {
				await stopChild( sidecar );
				await wordpress.stop();
			},
		};
	} catch ( error ) {
		await stopChild( sidecar );
		throw error;
	}
}

/** A site with real WooCommerce (the site's choice from shopSite()), on the production runtime. */
export async function startShopStack( options: ShopStackOptions ): Promise< ShopStack > {
	const { report, ...stack } = await startProductionBenchStack( options, options.site );
	const { commerce } = report;
	if ( commerce.plugin !== 'woocommerce' || ! commerce.version || ! commerce.order_storage ) {
		await stack.stop();
		throw new Error( `The site started without WooCommerce (it reports ${ JSON.stringify( commerce ) })` );
	}
	return { ...stack, shop: { version: commerce.version, orderStorage: commerce.order_storage } };
}

/**
 * The production runtime (scripts/production/stack.ts), fresh databases and a fresh copy of
 * core, started as E2E_RUNTIME=production starts it; its sidecar is the one installed from
 * the release tarball, so stopping it is stopProduction's job. Without a site choice: WordPress
 * 6.5.5 without a shop.
 */
async function startProductionBenchStack(
	options: Omit< BenchStackOptions, 'runtime' > & { releaseDir?: string },
	site?: ShopSite
): Promise< BenchStack & { report: SiteReport } > {
	const stack = await startProduction( {
		name: options.name,
		wpPort: options.wpPort,
		sidecarPort: options.sidecarPort,
		fpmPort: options.wpPort + 2,
		dbPort: options.wpPort + 3,
		fresh: true,
		releaseDir: options.releaseDir,
		wordpressDir: site?.wordpressDir,
		woocommerceDir: site?.woocommerceDir,
		orderStorage: site?.orderStorage ?? 'hpos',
		extraPlugins: options.extraPlugins,
		sidecarEnv: options.sidecarEnv,
		cronSeconds: 60,
		phpWorkers: options.phpWorkers,
	} );
	const { commerce } = stack.site;
	const { versions } = stack;
	return {
		siteUrl: stack.siteUrl,
		sidecarPid: stack.sidecar.pid,
		description:
			`production runtime: WordPress ${ stack.site.wordpress_version } on nginx ${ versions.nginx }, PHP-FPM ${ versions.php } (${ options.phpWorkers } workers), MariaDB ${ versions.mariadb }; ` +
			`plugin ${ stack.release.version } from ${ stack.release.pluginZip }; ` +
			( commerce.plugin === 'woocommerce'
				? `WooCommerce ${ commerce.version } (${ commerce.order_storage === 'hpos' ? 'HPOS tables' : 'legacy post storage' })`
				: 'no shop' ),
		report: stack.site,
		stop: async () => {
			await stopProduction( options.name );
		},
	};
}
