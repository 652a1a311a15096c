import fs from 'fs';
import os from 'os';
import path from 'path';
import { z } from 'zod';
import { DEFAULT_RETRY_POLICY } from './outbound/retry-policy';
import { ALLOW_PRIVATE_CIDRS_SETTING, parseAllowCidrs } from './outbound/url-guard';

/**
 * Configuration: defaults < JSON file (--config or SIDECAR_CONFIG) < environment.
 * Every key has one name in the environment (SIDECAR_PORT) and one in the file (port);
 * a bad value is reported under the name the user wrote it with.
 */
const intIn = ( min: number, max: number ) => z.coerce.number().int().min( min ).max( max );
const csvOf = < T extends z.ZodTypeAny >( item: T ) =>
	z.preprocess(
		( value ) =>
			typeof value === 'string'
				? value
						.split( ',' )
						.map( ( part ) => part.trim() )
						.filter( Boolean )
				: value,
		z.array( item )
	);

function isCidrOrIp( value: string ): boolean {
	try {
		parseAllowCidrs( value );
		return true;
	} catch {
		return false;
	}
}

/** Payloads are cleared after this many days unless SIDECAR_PAYLOAD_RETENTION_DAYS says otherwise. */
export const DEFAULT_PAYLOAD_RETENTION_DAYS = 30;

const METRICS_TOKEN_PATTERN = /^[\x21-\x7e]{16,}$/;

/**
 * mysql://user:password@host[:port]/database: the shared MySQL/MariaDB store. The messages never
 * repeat the value, which holds a password.
 */
export function databaseUrlProblem( value: string ): string | undefined {
	let url: URL;
	try {
		url = new URL( value );
	} catch {
		return 'must be a URL like mysql://user:password@host:3306/database';
	}
	if ( url.protocol !== 'mysql:' ) {
		return 'must start with mysql:// (MySQL 8.0+ or MariaDB 10.6+)';
	}
	if ( url.hostname === '' || url.username === '' ) {
		return 'must name a user and a host: mysql://user:password@host:3306/database';
	}
	if ( url.pathname.length < 2 || url.pathname.slice( 1 ).includes( '/' ) ) {
		return 'must name one database: mysql://user:password@host:3306/database';
	}
	return undefined;
}

/** The URL with its password replaced, for logs. */
export function redactDatabaseUrl( value: string ): string {
	try {
		const url = new URL( value );
		if ( url.password !== '' ) {
			url.password = '***';
		}
		return url.toString();
	} catch {
		return '(invalid URL)';
	}
}

export const CONFIG_SCHEMA = z.object( {
	host: z.string().min( 1 ).default( '127.0.0.1' ),
	port: intIn( 0, 65535 ).default( 8787 ),
	// No default here: it depends on the environment (standardDataDir), resolved in loadConfig.
	dataDir: z.string().min( 1 ).optional(),
	// Unset: the embedded SQLite store in dataDir. Set: the shared MySQL/MariaDB store.
	databaseUrl: z
		.string()
		.superRefine( ( value, context ) => {
			const problem = databaseUrlProblem( value );
			if ( problem ) {
				context.addIssue( { code: 'custom', message: problem } );
			}
		} )
		.optional(),
	sharedKey: z.string().min( 16, 'must be at least 16 characters' ).optional(),
	sharedKeyFile: z.string().min( 1 ).optional(),
	logLevel: z.enum( [ 'fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent' ] ).default( 'info' ),
	// Unset: standard output (the journal under systemd). Set: appended to, reopened on SIGHUP (logrotate).
	logFile: z.string().min( 1 ).optional(),
	maxBodyBytes: intIn( 1024, 64 * 1024 * 1024 ).default( 1024 * 1024 ),
	wordpressUrl: z.url().optional(),
	allowPrivateCidrs: csvOf(
		z.string().refine( isCidrOrIp, 'must be CIDRs or IP addresses, e.g. 10.0.0.0/8' )
	).default( [] ),
	deliveryTimeoutMs: intIn( 1000, 120_000 ).default( 15_000 ),
	// Seconds before attempt 1, 2, 3…; fractions allowed (tests use sub-second schedules).
	retryScheduleSeconds: csvOf(
		z.coerce
			.number()
			.min( 0 )
			.max( 7 * 86_400 )
	)
		.pipe( z.array( z.number() ).min( 1 ) )
		.optional(),
	retryJitterRatio: z.coerce.number().min( 0 ).max( 1 ).default( 0.2 ),
	overloadDelaySeconds: z.coerce.number().min( 0 ).max( 86_400 ).default( 60 ),
	inboundToleranceSeconds: intIn( 0, 86_400 ).default( 300 ),
	// NORMAL: in WAL mode a committed transaction survives a crash or SIGKILL of the
	// process (only the OS can lose it); FULL also survives power loss, at an fsync a commit.
	sqliteSynchronous: z
		.preprocess(
			( value ) => ( typeof value === 'string' ? value.toUpperCase() : value ),
			z.enum( [ 'NORMAL', 'FULL', 'EXTRA' ] )
		)
		.default( 'NORMAL' ),
	// SQLite's page cache. better-sqlite3 builds SQLite with a 16 MB default, which a busy queue
	// fills and never gives back (a sixth of the process's RSS); the OS page cache holds the file anyway.
	sqliteCacheMb: intIn( 1, 1024 ).default( 2 ),
	// An endpoint that has failed without a single success for this long is disabled.
	disableAfterHours: z.coerce
		.number()
		.positive()
		.max( 24 * 365 )
		.default( 120 ),
	// How long SIGTERM waits for in-flight deliveries before they are left for the next start.
	shutdownGraceMs: intIn( 0, 120_000 ).default( 10_000 ),
	// Upkeep period: endpoint health sweep, pruning, and the first retry delay of a notice to
	// WordPress (doubling up to 1 h). Fractions allowed (tests use sub-second periods).
	maintenanceIntervalSeconds: z.coerce.number().min( 0.05 ).max( 3600 ).default( 60 ),
	// Finished deliveries, their attempts and events are deleted after this many days.
	retentionDays: z.coerce.number().positive().max( 3650 ).default( 30 ),
	// Event payloads and attempts' response excerpts (personal data) are cleared after this many
	// days, while the metadata stays until retentionDays. Unset: 30, or retentionDays if shorter.
	payloadRetentionDays: z.coerce.number().positive().max( 3650 ).optional(),
	// Unset: no listener of its own; /metrics is then on the main port only with a token.
	metricsPort: intIn( 0, 65535 ).optional(),
	metricsHost: z.string().min( 1 ).default( '127.0.0.1' ),
	// Goes in an Authorization header: visible ASCII, no spaces.
	metricsToken: z
		.string()
		.regex( METRICS_TOKEN_PATTERN, 'must be at least 16 visible ASCII characters, without spaces' )
		.optional(),
	metricsTokenFile: z.string().min( 1 ).optional(),
} );

export type SidecarConfig = Omit<
	z.infer< typeof CONFIG_SCHEMA >,
	'sharedKey' | 'sharedKeyFile' | 'dataDir' | 'metricsToken' | 'metricsTokenFile' | 'payloadRetentionDays'
> & {
	sharedKey: string;
	dataDir: string;
	/** Always set once loaded: the default is 30 days, or retentionDays if shorter. */
	payloadRetentionDays: number;
	/** The bearer token /metrics asks for (from metricsToken or metricsTokenFile); undefined: none set. */
	metricsToken?: string;
};

/** The name of the installed command, of its folders (/etc/<name>, /var/lib/<name>) and of its systemd unit. */
export const SIDECAR_NAME = 'service-integration-sidecar';

/** systemd passes a directory setting as a colon-separated list; the first is the unit's own. */
function systemdDirectory( value: string | undefined ): string | undefined {
	const first = value?.split( ':' )[ 0 ];
	return first ? first : undefined;
}

function isRoot(): boolean {
	return typeof process.getuid === 'function' && process.getuid() === 0;
}

function homeDir( env: NodeJS.ProcessEnv ): string {
	return env.HOME || os.homedir();
}

/**
 * Where the database lives unless SIDECAR_DATA_DIR (or dataDir) says otherwise: the unit's
 * StateDirectory under systemd ($STATE_DIRECTORY), /var/lib/<name> for root, else the XDG
 * state directory ($XDG_STATE_HOME or ~/.local/state). Never inside the installed package:
 * `npm install -g` of the next version replaces that folder.
 */
export function standardDataDir( env: NodeJS.ProcessEnv ): string {
	const systemd = systemdDirectory( env.STATE_DIRECTORY );
	if ( systemd ) {
		return systemd;
	}
	if ( isRoot() ) {
		return path.join( '/var/lib', SIDECAR_NAME );
	}
	return path.join( env.XDG_STATE_HOME || path.join( homeDir( env ), '.local', 'state' ), SIDECAR_NAME );
}

/**
 * Where `init` writes config.json and shared-key and `start` looks for config.json:
 * SIDECAR_CONFIG_DIR, else the unit's ConfigurationDirectory ($CONFIGURATION_DIRECTORY),
 * /etc/<name> for root, else the XDG config directory ($XDG_CONFIG_HOME or ~/.config).
 */
export function standardConfigDir( env: NodeJS.ProcessEnv ): string {
	if ( env.SIDECAR_CONFIG_DIR ) {
		return path.resolve( env.SIDECAR_CONFIG_DIR );
	}
	const systemd = systemdDirectory( env.CONFIGURATION_DIRECTORY );
	if ( systemd ) {
		return systemd;
	}
	if ( isRoot() ) {
		return path.join( '/etc', SIDECAR_NAME );
	}
	return path.join( env.XDG_CONFIG_HOME || path.join( homeDir( env ), '.config' ), SIDECAR_NAME );
}

export const CONFIG_FILE_NAME = 'config.json';
export const SHARED_KEY_FILE_NAME = 'shared-key';

/**
 * Every setting: its environment name, the format of its value and what it does. --help prints
 * this with each default (from CONFIG_SCHEMA), so the help cannot drift from the parser.
 */
export const SETTINGS: Record<
	keyof z.infer< typeof CONFIG_SCHEMA >,
	{ env: string; format: string; help: string; defaultText?: string }
> = {
	host: {
		env: 'SIDECAR_HOST',
		format: 'IP address or host name',
		help: 'Listen address. Keep it on loopback: WordPress on the same machine is the only caller.',
	},
	port: { env: 'SIDECAR_PORT', format: 'port number, 0-65535', help: 'Listen port (0: any free port).' },
	dataDir: {
		env: 'SIDECAR_DATA_DIR',
		format: 'folder path',
		help: 'Where the SQLite database lives.',
		defaultText: 'the standard place (below)',
	},
	databaseUrl: {
		env: 'SIDECAR_DATABASE_URL',
		format: 'mysql://user:password@host:port/database',
		help: 'The shared MySQL 8.0+/MariaDB 10.6+ store, for several sidecars behind a load balancer (docs/production.md). Holds a password: prefer the config file (mode 0600) to the environment.',
		defaultText: 'none: the embedded SQLite store in the data folder',
	},
	sharedKey: {
		env: 'SIDECAR_SHARED_KEY',
		format: 'at least 16 characters',
		help: 'The key WordPress signs its calls with (SERVICE_INTEGRATION_SIDECAR_KEY in wp-config.php). Prefer SIDECAR_SHARED_KEY_FILE: an environment variable shows in process listings.',
		defaultText: 'none; this or SIDECAR_SHARED_KEY_FILE is required',
	},
	sharedKeyFile: {
		env: 'SIDECAR_SHARED_KEY_FILE',
		format: 'file path',
		help: 'A file holding the shared key (mode 0600).',
		defaultText: 'none',
	},
	logLevel: {
		env: 'SIDECAR_LOG_LEVEL',
		format: 'fatal, error, warn, info, debug, trace or silent',
		help: 'Least severe level written to the log (JSON lines).',
	},
	logFile: {
		env: 'SIDECAR_LOG_FILE',
		format: 'file path',
		help: 'Append the log to this file, reopened on SIGHUP (logrotate).',
		defaultText: 'standard output',
	},
	maxBodyBytes: {
		env: 'SIDECAR_MAX_BODY_BYTES',
		format: 'bytes, 1024-67108864',
		help: 'Largest request body accepted (413 above it).',
	},
	wordpressUrl: {
		env: 'SIDECAR_WORDPRESS_URL',
		format: 'URL, e.g. https://shop.example.com',
		help: 'The site, for notices to WordPress (an endpoint disabled, deliveries failing).',
		defaultText: 'none: no notices are sent',
	},
	allowPrivateCidrs: {
		env: ALLOW_PRIVATE_CIDRS_SETTING,
		format: 'comma-separated CIDRs or IP addresses, e.g. 127.0.0.0/8,::1/128,10.0.0.0/8',
		help: 'Private, loopback and link-local addresses outbound webhooks may be delivered to. Everything outside the public internet is refused otherwise (blocked_address), so a URL cannot reach services behind the firewall.',
		defaultText: 'none: public addresses only',
	},
	deliveryTimeoutMs: {
		env: 'SIDECAR_DELIVERY_TIMEOUT_MS',
		format: 'milliseconds, 1000-120000',
		help: 'How long a receiver has to answer one delivery attempt.',
	},
	retryScheduleSeconds: {
		env: 'SIDECAR_RETRY_SCHEDULE',
		format: 'comma-separated seconds, e.g. 0,5,300',
		help: 'Delay before each attempt; its length is the number of attempts.',
		defaultText: `${ DEFAULT_RETRY_POLICY.scheduleSeconds.join( ',' ) } (${ DEFAULT_RETRY_POLICY.scheduleSeconds.length } attempts)`,
	},
	retryJitterRatio: {
		env: 'SIDECAR_RETRY_JITTER_RATIO',
		format: 'number, 0-1',
		help: 'Random spread of each retry delay (0.2: plus or minus 20 %).',
	},
	overloadDelaySeconds: {
		env: 'SIDECAR_OVERLOAD_DELAY_SECONDS',
		format: 'seconds, 0-86400',
		help: 'Least delay after 429, 502, 503, 504 or a timeout.',
	},
	inboundToleranceSeconds: {
		env: 'SIDECAR_INBOUND_TOLERANCE_SECONDS',
		format: 'seconds, 0-86400',
		help: "How far an inbound webhook's signed timestamp may be from now.",
	},
	sqliteSynchronous: {
		env: 'SIDECAR_SQLITE_SYNCHRONOUS',
		format: 'NORMAL, FULL or EXTRA',
		help: 'SQLite durability: NORMAL survives a crash of the process, FULL also a power loss (an fsync a commit).',
	},
	sqliteCacheMb: {
		env: 'SIDECAR_SQLITE_CACHE_MB',
		format: 'MB, 1-1024',
		help: "SQLite's page cache (memory kept by the process; the OS caches the file too).",
	},
	disableAfterHours: {
		env: 'SIDECAR_DISABLE_AFTER_HOURS',
		format: 'hours, > 0',
		help: 'An endpoint failing without one success for this long is disabled.',
	},
	shutdownGraceMs: {
		env: 'SIDECAR_SHUTDOWN_GRACE_MS',
		format: 'milliseconds, 0-120000',
		help: 'How long SIGTERM waits for attempts in flight.',
	},
	maintenanceIntervalSeconds: {
		env: 'SIDECAR_MAINTENANCE_INTERVAL_SECONDS',
		format: 'seconds, 0.05-3600',
		help: 'Period of the upkeep: endpoint health, pruning, retrying notices to WordPress.',
	},
	retentionDays: {
		env: 'SIDECAR_RETENTION_DAYS',
		format: 'days, > 0',
		help: 'Finished deliveries, their attempts and events are deleted after this.',
	},
	payloadRetentionDays: {
		env: 'SIDECAR_PAYLOAD_RETENTION_DAYS',
		format: 'days, > 0, at most SIDECAR_RETENTION_DAYS',
		help: 'Event payloads (customer names, emails) and the response excerpts of attempts are cleared after this; event, delivery and attempt metadata stay until SIDECAR_RETENTION_DAYS. Events still pending or in flight keep their payload until they finish.',
		defaultText: `${ DEFAULT_PAYLOAD_RETENTION_DAYS }, or SIDECAR_RETENTION_DAYS if shorter`,
	},
	metricsPort: {
		env: 'SIDECAR_METRICS_PORT',
		format: 'port number, 0-65535',
		help: 'A listener of its own for GET /metrics (Prometheus), /health and /ready; with SIDECAR_METRICS_TOKEN set, /metrics asks for it there too.',
		defaultText: 'none: /metrics is on the main port, and only with SIDECAR_METRICS_TOKEN',
	},
	metricsHost: {
		env: 'SIDECAR_METRICS_HOST',
		format: 'IP address or host name',
		help: 'Listen address of the SIDECAR_METRICS_PORT listener.',
	},
	metricsToken: {
		env: 'SIDECAR_METRICS_TOKEN',
		format: 'at least 16 visible ASCII characters, no spaces; not the shared key',
		help: 'Bearer token GET /metrics asks for (Authorization: Bearer <token>). Set, /metrics is served on the main port too. Prefer SIDECAR_METRICS_TOKEN_FILE: an environment variable shows in process listings.',
		defaultText: 'none: /metrics on the main port answers 404',
	},
	metricsTokenFile: {
		env: 'SIDECAR_METRICS_TOKEN_FILE',
		format: 'file path',
		help: 'A file holding the metrics token.',
		defaultText: 'none',
	},
};

const ENV_NAMES = Object.fromEntries(
	Object.entries( SETTINGS ).map( ( [ key, setting ] ) => [ key, setting.env ] )
) as Record< keyof typeof SETTINGS, string >;

export class ConfigError extends Error {}

/** Describes every setting for --help: environment name, file key, format, default, what it does. */
export function describeSettings(): string {
	const defaults = CONFIG_SCHEMA.parse( {} ) as Record< string, unknown >;
	return Object.entries( SETTINGS )
		.map( ( [ key, setting ] ) => {
			const fallback =
				setting.defaultText ??
				( Array.isArray( defaults[ key ] ) ? defaults[ key ].join( ',' ) : String( defaults[ key ] ) );
			return `  ${ setting.env } (file key: ${ key })\n      ${ setting.help }\n      Format: ${ setting.format }. Default: ${ fallback }.`;
		} )
		.join( '\n' );
}

export function loadConfig( env: NodeJS.ProcessEnv, configFile?: string ): SidecarConfig {
	const raw: Record< string, unknown > = {};
	const origin: Record< string, string > = {};

	const file = configFile ?? env.SIDECAR_CONFIG;
	if ( file ) {
		let parsed: unknown;
		try {
			parsed = JSON.parse( fs.readFileSync( file, 'utf8' ) );
		} catch ( error ) {
			throw new ConfigError( `Cannot read config file ${ file }: ${ ( error as Error ).message }` );
		}
		if ( typeof parsed !== 'object' || parsed === null || Array.isArray( parsed ) ) {
			throw new ConfigError( `Config file ${ file } must hold a JSON object` );
		}
		for ( const [ key, value ] of Object.entries( parsed ) ) {
			if ( ! ( key in ENV_NAMES ) ) {
				throw new ConfigError(
					`Unknown key "${ key }" in ${ file }; known keys: ${ Object.keys( ENV_NAMES ).join( ', ' ) }`
				);
			}
			raw[ key ] = value;
			origin[ key ] = `"${ key }" in ${ file }`;
		}
	}
	for ( const [ key, envName ] of Object.entries( ENV_NAMES ) ) {
		const value = env[ envName ];
		if ( value !== undefined && value !== '' ) {
			raw[ key ] = value;
			origin[ key ] = envName;
		}
	}

	const result = CONFIG_SCHEMA.safeParse( raw );
	if ( ! result.success ) {
		const problems = result.error.issues.map( ( issue ) => {
			const key = String( issue.path[ 0 ] ?? '' );
			return `${ origin[ key ] ?? ENV_NAMES[ key as keyof typeof ENV_NAMES ] ?? key }: ${ issue.message }`;
		} );
		throw new ConfigError( `Invalid sidecar configuration:\n  ${ problems.join( '\n  ' ) }` );
	}

	const { sharedKey, sharedKeyFile, dataDir, metricsToken, metricsTokenFile, payloadRetentionDays, ...rest } =
		result.data;
	const name = ( key: keyof typeof ENV_NAMES ) => origin[ key ] ?? ENV_NAMES[ key ];
	if ( payloadRetentionDays !== undefined && payloadRetentionDays > rest.retentionDays ) {
		throw new ConfigError(
			`${ name( 'payloadRetentionDays' ) }: must not exceed the retention of the metadata (${ name( 'retentionDays' ) } = ${ rest.retentionDays } days)`
		);
	}
	const config: SidecarConfig = {
		...rest,
		payloadRetentionDays: payloadRetentionDays ?? Math.min( DEFAULT_PAYLOAD_RETENTION_DAYS, rest.retentionDays ),
		dataDir: dataDir ?? standardDataDir( env ),
		sharedKey: resolveSharedKey( sharedKey, sharedKeyFile ),
	};
	const token =
		metricsToken ??
		( metricsTokenFile === undefined
			? undefined
			: readMetricsToken( metricsTokenFile, name( 'metricsTokenFile' ) ) );
	if ( token !== undefined ) {
		if ( token === config.sharedKey ) {
			throw new ConfigError(
				`${ name( metricsToken === undefined ? 'metricsTokenFile' : 'metricsToken' ) }: the metrics token must not be the shared key`
			);
		}
		config.metricsToken = token;
	}
	if ( config.metricsPort !== undefined && config.metricsPort !== 0 && config.metricsPort === config.port ) {
		throw new ConfigError( `${ name( 'metricsPort' ) }: must differ from the main port (${ name( 'port' ) })` );
	}
	return config;
}

function readMetricsToken( file: string, setting: string ): string {
	let token: string;
	try {
		token = fs.readFileSync( file, 'utf8' ).trim();
	} catch ( error ) {
		throw new ConfigError( `${ setting }: cannot read ${ file }: ${ ( error as Error ).message }` );
	}
	if ( ! METRICS_TOKEN_PATTERN.test( token ) ) {
		throw new ConfigError(
			`${ setting }: the token in ${ file } must be at least 16 visible ASCII characters, without spaces`
		);
	}
	return token;
}

function resolveSharedKey( sharedKey?: string, sharedKeyFile?: string ): string {
	if ( sharedKey ) {
		return sharedKey;
	}
	if ( ! sharedKeyFile ) {
		throw new ConfigError(
			'SIDECAR_SHARED_KEY or SIDECAR_SHARED_KEY_FILE is required (the key WordPress signs its calls with)'
		);
	}
	let key: string;
	try {
		key = fs.readFileSync( sharedKeyFile, 'utf8' ).trim();
	} catch ( error ) {
		throw new ConfigError(
			`SIDECAR_SHARED_KEY_FILE: cannot read ${ sharedKeyFile }: ${ ( error as Error ).message }`
		);
	}
	if ( key.length < 16 ) {
		throw new ConfigError(
			`SIDECAR_SHARED_KEY_FILE: the key in ${ sharedKeyFile } must be at least 16 characters`
		);
	}
	return key;
}
