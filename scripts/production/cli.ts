import { parseFlags, portFlag } from '../lib/cli-args';
import { fail, step, done } from '../lib/progress';
import { productionLayout } from './layout';
import { PRODUCTION_PACKAGES } from './services';
import { chooseSite, SITE_CHOICE_HELP } from '../lib/site-choice';

const HELP = `Usage: npm run production -- <start|stop|status> [options]

The plugin and the sidecar as a site owner runs them, on a LEMP stack from Debian's packages:
nginx + PHP-FPM 8.2 + MariaDB, each started without systemd from a folder of its own
(.cache/environments/<env>/production/), on loopback ports, and stopped by pid.

start   Installs what is missing with apt-get (as root):
        ${ PRODUCTION_PACKAGES.slice( 0, 5 ).join( ' ' ) }
        ${ PRODUCTION_PACKAGES.slice( 5 ).join( ' ' ) }.
        Builds the release (npm run release: plugin zip, sidecar tarball, SHA256SUMS) unless
        --release-dir names one. Starts MariaDB, installs the sidecar from the tarball with
        \`npm install -g --prefix\`, runs its \`init\` (config.json, shared key, the wp-config.php
        lines) and \`start --config\`, copies WordPress (see Environment) and
        runs wp_install() on MariaDB, starts PHP-FPM and nginx, starts a cron loop calling
        wp-cron.php (DISABLE_WP_CRON is set), then as the administrator in wp-admin activates
        WooCommerce (on a site with a shop), uploads the plugin zip (Plugins > Add New > Upload Plugin) and
        activates it. Prints the URLs and the admin login.
stop    Stops the environment's processes by their recorded pids (each checked in
        /proc/<pid>/cmdline first). Data stays; the next start without --fresh keeps it.
status  Says what runs.

Options:
  --env=<name>           environment name (default production); e2e runs use their own
  --wp-port=<port>       nginx (WordPress) on 127.0.0.1 (default 8890)
  --sidecar-port=<port>  the sidecar on 127.0.0.1 (default 8790)
  --fpm-port=<port>      PHP-FPM on 127.0.0.1 (default: WordPress's port + 2)
  --db-port=<port>       MariaDB on 127.0.0.1 (default: WordPress's port + 3)
  --fresh                empty databases (WordPress's and the sidecar's) and a new copy of core
  --release-dir=<dir>    install these artifacts (zip, tgz, SHA256SUMS) instead of building them
  --cron-seconds=<n>     seconds between wp-cron.php calls (default 60, a crontab's minute)
  --php-workers=<n>      PHP-FPM pm.max_children (default 4)
  --fresh-sidecar-install  a new npm prefix even when this exact tarball was installed before
  --sidecar-store=<store>  sqlite (default: in the sidecar's data folder) or mariadb (the shared
                         store: a database "sidecar" with its own user on the runtime's MariaDB)
  --sidecar-instances=<n>  1 (default), or 2 with --sidecar-store=mariadb: a second sidecar on
                         WordPress's port + 5 delivers from the same store
  --help                 this text

Environment (what the site runs):
${ SITE_CHOICE_HELP }
TEST-ONLY settings of this runtime (never for a real site; docs/production.md has the real steps):
WP_ENVIRONMENT_TYPE=local (Application Passwords over plain HTTP on loopback), the local
environment's must-use plugins (site report, no calls to wordpress.org, WooCommerce's order
storage), and PHP-FPM running as root when started as root.
`;

async function main(): Promise< void > {
	const [ command, ...rest ] = process.argv.slice( 2 );
	if ( ! command || command === '--help' || command === '-h' || rest.includes( '--help' ) ) {
		process.stdout.write( HELP );
		return;
	}
	// Loaded once --help is answered: they take a second or two to load.
	const { describeProduction, readRunning, startProduction, stopProduction } = await import( './stack' );
	const flags = parseFlags( rest, [
		'env',
		'wp-port',
		'sidecar-port',
		'fpm-port',
		'db-port',
		'fresh',
		'release-dir',
		'cron-seconds',
		'php-workers',
		'fresh-sidecar-install',
		'sidecar-store',
		'sidecar-instances',
	] );
	const name = typeof flags.env === 'string' ? flags.env : 'production';
	if ( command === 'stop' ) {
		step( `Stopping production environment "${ name }"` );
		const stopped = await stopProduction( name );
		done( stopped.length ? stopped.join( '\n  ✓ ' ) : 'nothing was running' );
		return;
	}
	if ( command === 'status' ) {
		const running = readRunning( name );
		process.stdout.write(
			running
				? `  ${ describeProduction( running ) }\n`
				: `Production environment "${ name }" is not running (no ${ productionLayout( name ).runningFile }).\n`
		);
		return;
	}
	if ( command !== 'start' ) {
		throw new Error( `Unknown command "${ command }": start, stop or status (see --help)` );
	}
	const wpPort = portFlag( flags[ 'wp-port' ], 8890, 'wp-port' );
	const positive = ( value: string | true | undefined, fallback: number, flag: string ) => {
		const number = value === undefined ? fallback : Number( value );
		if ( ! ( number > 0 ) ) {
			throw new Error( `--${ flag } must be a positive number` );
		}
		return number;
	};
	const sidecarStore = flags[ 'sidecar-store' ] ?? 'sqlite';
	if ( sidecarStore !== 'sqlite' && sidecarStore !== 'mariadb' ) {
		throw new Error( '--sidecar-store must be sqlite or mariadb' );
	}
	const sidecarInstances = flags[ 'sidecar-instances' ] ?? '1';
	if ( sidecarInstances !== '1' && ! ( sidecarInstances === '2' && sidecarStore === 'mariadb' ) ) {
		throw new Error(
			'--sidecar-instances must be 1, or 2 with --sidecar-store=mariadb (SQLite serves one instance)'
		);
	}
	const started = Date.now();
	const stack = await startProduction( {
		name,
		wpPort,
		sidecarPort: portFlag( flags[ 'sidecar-port' ], 8790, 'sidecar-port' ),
		fpmPort: portFlag( flags[ 'fpm-port' ], wpPort + 2, 'fpm-port' ),
		dbPort: portFlag( flags[ 'db-port' ], wpPort + 3, 'db-port' ),
		fresh: flags.fresh === true,
		releaseDir: typeof flags[ 'release-dir' ] === 'string' ? flags[ 'release-dir' ] : undefined,
		...chooseSite(),
		cronSeconds: positive( flags[ 'cron-seconds' ], 60, 'cron-seconds' ),
		phpWorkers: Math.round( positive( flags[ 'php-workers' ], 4, 'php-workers' ) ),
		freshSidecarInstall: flags[ 'fresh-sidecar-install' ] === true,
		sidecarStore,
		sidecarInstances: sidecarInstances === '2' ? 2 : 1,
	} );
	process.stdout.write(
		`\nProduction runtime "${ name }" is up (${ ( ( Date.now() - started ) / 1000 ).toFixed( 0 ) } s):\n  ${ describeProduction( stack ) }\n` +
			`  wp-admin: ${ stack.siteUrl }/wp-admin/ (admin / password)\n` +
			`  logs: ${ stack.layout.wordpress }/wp-content/debug.log, ${ stack.sidecar.log }, ${ stack.layout.nginx.errorLog }\n` +
			`Stop it with: npm run production -- stop${ name === 'production' ? '' : ` --env=${ name }` }\n`
	);
}

main().catch( ( error: Error ) => fail( error.message ) );
