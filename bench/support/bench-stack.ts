import fs from 'fs';
import { stopChild } from '../../scripts/lib/sidecar-process';
import { describeStack, startStack, startStackSidecar, type StackOptions } from '../../scripts/lib/stack';
import { stopWordPress, type OrderStorage } from '../../scripts/lib/wp-env';
import { startProduction, stopProduction } from '../../scripts/production/stack';
import { startNativeWordPress, stopNativeWordPress } from './native-wordpress';

/**
 * The WordPress + sidecar a benchmark runs against, on either runtime:
 *   playground  what npm start and the tests use (PHP as WebAssembly, one worker)
 *   native      Debian's PHP with its built-in server and several worker processes,
 *               so a route's own cost is not hidden behind Playground's per-request cost
 *   production  nginx + PHP-FPM 8.2 + MariaDB from Debian's packages, the plugin from the
 *               release zip and the sidecar from the release tarball (scripts/production, what
 *               E2E_RUNTIME=production and npm run production use); real WooCommerce with
 *               WOOCOMMERCE_DIR (WORDPRESS_DIR, WOOCOMMERCE_HPOS as there)
 * Always a fresh database, WordPress's and the sidecar's.
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

export interface BenchStackOptions {
	runtime: BenchRuntime;
	name: string;
	wpPort: number;
	sidecarPort: number;
	phpWorkers: number;
	extraPlugins?: Record< string, string >;
	sidecarEnv?: NodeJS.ProcessEnv;
	/** Production runtime only: a real WooCommerce folder (WOOCOMMERCE_DIR) instead of the fixture. */
	woocommerceDir?: string;
	/** Production runtime only: a WordPress core tree to copy (WORDPRESS_DIR). */
	wordpressDir?: string;
	/** Production runtime only: real WooCommerce's order storage (WOOCOMMERCE_HPOS). */
	orderStorage?: OrderStorage;
	/** Production runtime only: release artifacts to install instead of building them from this tree. */
	releaseDir?: string;
}

export interface BenchStack {
	siteUrl: string;
	/** The sidecar's pid (for --keep). */
	sidecarPid: number | undefined;
	/** e.g. "native PHP 8.2.36, 4 workers" */
	description: string;
	/** The commerce plugin the site runs, as it reports itself (production runtime), else the fixture. */
	commerce: { plugin: 'woocommerce' | 'fixture'; version: string | null; orderStorage: string | null };
	/** Stops WordPress and the sidecar. */
	stop: () => Promise< void >;
	/** Lets the bench exit with both still running (--keep); `stopKeptWordPress` and the sidecar's pid end them later. */
	detach: () => void;
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

const FIXTURE: BenchStack[ 'commerce' ] = { plugin: 'fixture', version: null, orderStorage: 'fixture' };

export async function startBenchStack( options: BenchStackOptions ): Promise< BenchStack > {
	if ( options.runtime === 'production' ) {
		return startProductionBenchStack( options );
	}
	if ( options.woocommerceDir || options.wordpressDir ) {
		throw new Error(
			`WOOCOMMERCE_DIR and WORDPRESS_DIR are supported by the benchmarks on --runtime=production only (not ${ options.runtime })`
		);
	}
	// A fresh sidecar too: a database an earlier sidecar version migrated may not open.
	fs.rmSync( describeStack( stackOptions( options ) ).sidecarDataDir, { recursive: true, force: true } );
	if ( options.runtime === 'playground' ) {
		const stack = await startStack( stackOptions( options ) );
		return {
			siteUrl: stack.siteUrl,
			sidecarPid: stack.sidecar.pid,
			description: 'Playground (PHP 8.2 as WebAssembly)',
			commerce: FIXTURE,
			stop: async () => {
				await stopChild( stack.sidecar );
				await stopWordPress( stack.env, true ).catch( () => undefined );
			},
			detach: () => stack.sidecar.unref(),
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
			description: `native PHP ${ wordpress.phpVersion } (built-in server, ${ options.phpWorkers } workers)`,
			commerce: FIXTURE,
			stop: async () => {
				await stopChild( sidecar );
				await wordpress.stop();
			},
			detach: () => sidecar.unref(),
		};
	} catch ( error ) {
		await stopChild( sidecar );
		throw error;
	}
}

/**
 * The production runtime (scripts/production/stack.ts), fresh databases and a fresh copy of
 * core, started as E2E_RUNTIME=production starts it; its sidecar is the one installed from
 * the release tarball, so stopping it is stopProduction's job.
 */
async function startProductionBenchStack( options: BenchStackOptions ): Promise< BenchStack > {
	const stack = await startProduction( {
		name: options.name,
		wpPort: options.wpPort,
		sidecarPort: options.sidecarPort,
		fpmPort: options.wpPort + 2,
		dbPort: options.wpPort + 3,
		fresh: true,
		releaseDir: options.releaseDir,
		wordpressDir: options.wordpressDir,
		woocommerceDir: options.woocommerceDir,
		orderStorage: options.orderStorage ?? 'hpos',
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
				: `WooCommerce-compatible test fixture ${ commerce.version ?? '' }` ),
		commerce:
			commerce.plugin === 'woocommerce'
				? { plugin: 'woocommerce', version: commerce.version, orderStorage: commerce.order_storage }
				: FIXTURE,
		stop: async () => {
			await stopProduction( options.name );
		},
		detach: () => undefined,
	};
}

/** Stops the WordPress an earlier --keep run of this environment left (the caller stops the sidecar by pid; on the production runtime, this stops it too). */
export async function stopKeptWordPress(
	options: Pick< BenchStackOptions, 'runtime' | 'name' | 'wpPort' | 'sidecarPort' | 'phpWorkers' >
): Promise< void > {
	if ( options.runtime === 'production' ) {
		await stopProduction( options.name );
		return;
	}
	if ( options.runtime === 'native' ) {
		await stopNativeWordPress( options.name );
		return;
	}
	const { env } = describeStack( stackOptions( options ) );
	await stopWordPress( env, true );
}
