import path from 'path';
import { environmentDir } from '../lib/paths';

/**
 * Where one production-runtime environment keeps everything: .cache/environments/<name>/production/.
 * Nothing is written outside it (no /etc, no /var/lib): MariaDB's datadir, PHP-FPM's and nginx's
 * configs, pid files and logs, the WordPress docroot, the sidecar's install prefix and data.
 */
export interface ProductionLayout {
	root: string;
	/** What `start` launched (ports, pids, urls), read by `stop` and the e2e teardown. */
	runningFile: string;
	mariadb: {
		dir: string;
		config: string;
		datadir: string;
		tmpdir: string;
		socket: string;
		pidFile: string;
		log: string;
	};
	phpFpm: { dir: string; config: string; pidFile: string; log: string };
	nginx: { dir: string; config: string; pidFile: string; errorLog: string; accessLog: string };
	/** The WordPress docroot (wp-content/debug.log lives here). */
	wordpress: string;
	/** The sidecar's config folder (what `service-integration-sidecar init --config-dir` writes), data and log. */
	sidecar: {
		dir: string;
		configDir: string;
		configFile: string;
		sharedKeyFile: string;
		dataDir: string;
		log: string;
		pidFile: string;
		/** A second instance's log and pid (with the shared store: two sidecars on the runtime's MariaDB). */
		peer: { log: string; pidFile: string };
	};
	cron: { log: string; pidFile: string };
	/** Where `npm run release -- --out` writes when no release directory is given. */
	release: string;
}

export function productionLayout( name: string ): ProductionLayout {
	const root = path.join( environmentDir( name ), 'production' );
	const mariadb = path.join( root, 'mariadb' );
	const phpFpm = path.join( root, 'php-fpm' );
	const nginx = path.join( root, 'nginx' );
	const sidecar = path.join( root, 'sidecar' );
	return {
		root,
		runningFile: path.join( root, 'running.json' ),
		mariadb: {
			dir: mariadb,
			config: path.join( mariadb, 'my.cnf' ),
			datadir: path.join( mariadb, 'data' ),
			tmpdir: path.join( mariadb, 'tmp' ),
			socket: path.join( mariadb, 'mariadb.sock' ),
			pidFile: path.join( mariadb, 'mariadbd.pid' ),
			log: path.join( mariadb, 'mariadbd.log' ),
		},
		phpFpm: {
			dir: phpFpm,
			config: path.join( phpFpm, 'php-fpm.conf' ),
			pidFile: path.join( phpFpm, 'php-fpm.pid' ),
			log: path.join( phpFpm, 'php-fpm.log' ),
		},
		nginx: {
			dir: nginx,
			config: path.join( nginx, 'nginx.conf' ),
			pidFile: path.join( nginx, 'nginx.pid' ),
			errorLog: path.join( nginx, 'error.log' ),
			accessLog: path.join( nginx, 'access.log' ),
		},
		wordpress: path.join( root, 'wordpress' ),
		sidecar: {
			dir: sidecar,
			configDir: path.join( sidecar, 'config' ),
			configFile: path.join( sidecar, 'config', 'config.json' ),
			sharedKeyFile: path.join( sidecar, 'config', 'shared-key' ),
			dataDir: path.join( sidecar, 'data' ),
			log: path.join( sidecar, 'sidecar.log' ),
			pidFile: path.join( sidecar, 'sidecar.pid' ),
			peer: { log: path.join( sidecar, 'sidecar-2.log' ), pidFile: path.join( sidecar, 'sidecar-2.pid' ) },
		},
		cron: { log: path.join( root, 'cron.log' ), pidFile: path.join( root, 'cron.pid' ) },
		release: path.join( root, 'release' ),
	};
}
