import fs from 'fs';
import path from 'path';
import { environmentDir } from '../../../scripts/lib/paths';
import { hasBuild, MCP_ADAPTER_ARCHIVE, mcpAdapterBuild } from '../../../scripts/lib/builds';
import { describeProduction, startProduction, stopProduction } from '../../../scripts/production/stack';
import { stopChild } from '../../../scripts/lib/sidecar-process';
import { describeCommerce, describeWordPress, startStack, type Stack } from '../../../scripts/lib/stack';
import { chooseSite } from '../../../scripts/lib/site-choice';
import { siteDir, stopWordPress } from '../../../scripts/lib/wp-env';
import { createApplicationPassword, loginCookies } from '../../../scripts/lib/wp-login';
import {
	E2E_CRON_SECONDS,
	E2E_DB_PORT,
	E2E_ENV_NAME,
	E2E_PHP_FPM_PORT,
	E2E_RELEASE_DIR,
	E2E_RUNTIME,
	E2E_SIDECAR_ENV,
	E2E_SIDECAR_INSTANCES,
	E2E_SIDECAR_PORT,
	E2E_SIDECAR_STORE,
	E2E_WP_PORT,
	writeState,
} from './environment';

/**
 * Mounted where `npm start` mounts local-mu-plugins/ (one's own must-use plugins), which the
 * suite does not load: this folder's plugin shows that what is put there runs.
 */
const LOCAL_MU_PLUGINS_FIXTURE = path.join( __dirname, '..', '..', 'fixtures', 'local-mu-plugins' );

/**
 * Starts one real WordPress (fresh database) and one real sidecar for the whole run.
 * If anything fails here the run fails with the reason: the suite never skips its
 * end-to-end part. A failed start stops what it launched (startStack does for WordPress).
 */
export default async function globalSetup(): Promise< void > {
	if ( E2E_RUNTIME === 'production' ) {
		await productionSetup();
		return;
	}
	const sidecarLogFile = path.join( environmentDir( E2E_ENV_NAME ), 'sidecar.log' );
	fs.mkdirSync( path.dirname( sidecarLogFile ), { recursive: true } );
	fs.rmSync( sidecarLogFile, { force: true } );
	fs.rmSync( path.join( environmentDir( E2E_ENV_NAME ), 'sidecar-data' ), { recursive: true, force: true } );

	const site = chooseSite();
	let stack: Stack | undefined;
	try {
		stack = await startStack( {
			name: E2E_ENV_NAME,
			runtime: 'playground',
			wpPort: E2E_WP_PORT,
			sidecarPort: E2E_SIDECAR_PORT,
			woocommerceDir: site.woocommerceDir,
			wordpressDir: site.wordpressDir,
			orderStorage: site.orderStorage,
			freshSite: true,
			// The tests request wp-cron.php themselves (support/cron.ts), as the production runtime's cron loop does.
			systemCron: true,
			sidecarLogFile,
			sidecarEnv: E2E_SIDECAR_ENV,
			extraPlugins: testPlugins(),
			localMuPluginsDir: LOCAL_MU_PLUGINS_FIXTURE,
		} );
		const cookie = await loginCookies( stack.siteUrl, 'admin', 'password' );
		const applicationPassword = await createApplicationPassword( stack.siteUrl, cookie, 'e2e-admin' );
		const { commerce } = stack.site;
		writeState( {
			runtime: 'playground',
			siteUrl: stack.siteUrl,
			sidecarUrl: stack.sidecarUrl,
			sharedKey: stack.sharedKey,
			sharedKeyFile: stack.sharedKeyFile,
			sidecarDataDir: stack.sidecarDataDir,
			sidecarLogFile,
			sidecarPid: stack.sidecar.pid as number,
			admin: { username: 'admin', applicationPassword },
			commerce: commerce.plugin ?? 'none',
			commerceVersion: commerce.version,
			orderStorage: commerce.order_storage,
			wordpressVersion: stack.site.wordpress_version,
			wordpressDir: siteDir( stack.env ) as string,
		} );
		process.stdout.write(
			`\n  e2e environment ${ E2E_ENV_NAME }: ${ describeWordPress( stack ) }\n  ${ describeCommerce( stack ) }\n`
		);
		// The sidecar must not hold jest open; teardown stops it by pid.
		stack.sidecar.unref();
	} catch ( error ) {
		if ( stack ) {
			await stopChild( stack.sidecar );
			await stopWordPress( stack.env ).catch( () => undefined );
		}
		throw new Error( `The end-to-end environment could not start: ${ ( error as Error ).message }` );
	}
}

/**
 * E2E_RUNTIME=production: nginx + PHP-FPM + MariaDB, the plugin from the release zip and the
 * sidecar from the release tarball (scripts/production/stack.ts), with the same fresh databases,
 * test plugins (inactive) and sidecar settings as the Playground run. The release is built from
 * this checkout with npm run release unless E2E_RELEASE_DIR names one.
 */
async function productionSetup(): Promise< void > {
	const site = chooseSite();
	try {
		const stack = await startProduction( {
			name: E2E_ENV_NAME,
			wpPort: E2E_WP_PORT,
			sidecarPort: E2E_SIDECAR_PORT,
			fpmPort: E2E_PHP_FPM_PORT,
			dbPort: E2E_DB_PORT,
			fresh: true,
			releaseDir: E2E_RELEASE_DIR,
			wordpressDir: site.wordpressDir,
			woocommerceDir: site.woocommerceDir,
			orderStorage: site.orderStorage,
			extraPlugins: testPlugins(),
			localMuPluginsDir: LOCAL_MU_PLUGINS_FIXTURE,
			sidecarEnv: E2E_SIDECAR_ENV,
			cronSeconds: E2E_CRON_SECONDS,
			phpWorkers: 4,
			sidecarStore: E2E_SIDECAR_STORE,
			sidecarInstances: E2E_SIDECAR_INSTANCES,
		} );
		const cookie = await loginCookies( stack.siteUrl, 'admin', 'password' );
		const applicationPassword = await createApplicationPassword( stack.siteUrl, cookie, 'e2e-admin' );
		const { commerce } = stack.site;
		writeState( {
			runtime: 'production',
			siteUrl: stack.siteUrl,
			sidecarUrl: stack.sidecarUrl,
			sharedKey: stack.sharedKey,
			sharedKeyFile: stack.layout.sidecar.sharedKeyFile,
			sidecarDataDir: stack.layout.sidecar.dataDir,
			sidecarLogFile: stack.sidecar.log,
			sidecarPid: stack.sidecar.pid,
			sidecarCommand: { command: stack.sidecar.command, args: stack.sidecar.args, env: stack.sidecar.env },
			sidecarPeerPid: stack.sidecarPeer?.pid,
			admin: { username: 'admin', applicationPassword },
			commerce: commerce.plugin ?? 'none',
			commerceVersion: commerce.version,
			orderStorage: commerce.order_storage,
			wordpressVersion: stack.site.wordpress_version,
			wordpressDir: stack.layout.wordpress,
			server: `nginx ${ stack.versions.nginx }, PHP-FPM ${ stack.versions.php }, MariaDB ${ stack.versions.mariadb }`,
		} );
		process.stdout.write(
			`\n  e2e environment ${ E2E_ENV_NAME } (production runtime):\n  ${ describeProduction( stack ) }\n`
		);
	} catch ( error ) {
		await stopProduction( E2E_ENV_NAME ).catch( () => undefined );
		throw new Error(
			`The end-to-end environment (production runtime) could not start: ${ ( error as Error ).message }`
		);
	}
}

/**
 * Test-only plugins (e.g. role wideners) mounted inactive; tests switch them on and off. WordPress's
 * MCP Adapter (from ../shared/builds, unpacked under .cache/builds) is one of them where its build is
 * there: the MCP tests activate it on WordPress 6.9+.
 */
function testPlugins(): Record< string, string > {
	const dir = path.join( __dirname, '..', '..', 'fixtures', 'plugins' );
	const fixtures = fs.existsSync( dir )
		? Object.fromEntries(
				fs
					.readdirSync( dir, { withFileTypes: true } )
					.filter( ( entry ) => entry.isDirectory() )
					.map( ( entry ) => [ entry.name, path.join( dir, entry.name ) ] )
			)
		: {};
	return hasBuild( MCP_ADAPTER_ARCHIVE ) ? { ...fixtures, 'mcp-adapter': mcpAdapterBuild() } : fixtures;
}
