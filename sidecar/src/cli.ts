#!/usr/bin/env node
import fs from 'fs';
import path from 'path';
import {
	CONFIG_FILE_NAME,
	ConfigError,
	SHARED_KEY_FILE_NAME,
	SIDECAR_NAME,
	describeSettings,
	loadConfig,
	standardConfigDir,
	standardDataDir,
} from './config';
import { initConfig, wpConfigFromConfigFile } from './cli-init';
import { startSidecar } from './cli-start';
import { DATABASE_FILE } from './store/sqlite/database';
import { SIDECAR_VERSION } from './version';

/**
 * The installed command (`bin` of the npm package): init | start | wp-config | systemd-unit,
 * each with --help and --version. `sidecar/src/main.ts` runs `start` for the development
 * scripts, without looking for a config file in the standard place.
 */

export interface CliOptions {
	/** Whether `start` reads <standard config dir>/config.json when no --config or SIDECAR_CONFIG is given. */
	standardConfigFile: boolean;
	/** The command name in help texts. */
	name: string;
}

const UNIT_FILE = path.resolve( __dirname, '..', 'packaging', `${ SIDECAR_NAME }.service` );
const UNIT_EXEC = `/usr/bin/${ SIDECAR_NAME }`;

function places( env: NodeJS.ProcessEnv ): string {
	const configDir = standardConfigDir( env );
	return `Standard places (for this user and environment):
  config file  ${ path.join( configDir, CONFIG_FILE_NAME ) }
  shared key   ${ path.join( configDir, SHARED_KEY_FILE_NAME ) } (mode 0600)
      the folder: SIDECAR_CONFIG_DIR, else $CONFIGURATION_DIRECTORY (systemd),
      else /etc/${ SIDECAR_NAME } for root, else $XDG_CONFIG_HOME/${ SIDECAR_NAME } (~/.config)
  database     ${ path.join( env.SIDECAR_DATA_DIR || standardDataDir( env ), DATABASE_FILE ) }
      the folder: SIDECAR_DATA_DIR (or dataDir), else $STATE_DIRECTORY (systemd),
      else /var/lib/${ SIDECAR_NAME } for root, else $XDG_STATE_HOME/${ SIDECAR_NAME } (~/.local/state)
  logs         standard output (the journal under systemd), or SIDECAR_LOG_FILE (reopened on SIGHUP)`;
}

const HELP: Record< string, ( name: string, env: NodeJS.ProcessEnv ) => string > = {
	main: ( name, env ) => `Usage: ${ name } <command> [options]

The Service Integration sidecar: the signed API the Service Integration WordPress plugin
calls to hand over outbound webhook events (delivered as signed Standard Webhooks, with
retries) and to verify inbound ones.

Commands:
  init          Write a config file and a shared key, print the wp-config.php lines
  start         Run the sidecar in the foreground (what the systemd unit runs)
  wp-config     Print the wp-config.php lines for an existing config file
  systemd-unit  Print the systemd unit, its ExecStart pointing at this installation

Options of every command:
  -h, --help     This help, or a command's (${ name } <command> --help)
  -v, --version  Print the version (${ SIDECAR_VERSION })

${ places( env ) }

As root, on a systemd host:
  ${ name } init --wordpress-url https://shop.example.com
  ${ name } systemd-unit > /etc/systemd/system/${ SIDECAR_NAME }.service
  systemctl daemon-reload && systemctl enable --now ${ SIDECAR_NAME }
`,
	init: ( name, env ) => `Usage: ${ name } init [options]

Writes config.json and shared-key (a new random key, mode 0600) into the config folder,
checks config.json loads, and prints the two lines to add to wp-config.php. An existing
config.json is refused unless --force; an existing shared key is kept unless --new-key
(a new key must also go into wp-config.php).

Options:
  --config-dir <dir>      Where to write (default: ${ standardConfigDir( env ) })
  --host <address>        Listen address (default: 127.0.0.1; keep it on loopback)
  --port <n>              Port (default: 8787)
  --data-dir <dir>        Database folder, written into config.json (default: not written,
                          so the standard place applies: ${ standardDataDir( env ) })
  --wordpress-url <url>   The site's URL, for notices (SIDECAR_WORDPRESS_URL)
  --force                 Overwrite an existing config.json
  --new-key               Replace an existing shared key
  -h, --help, -v, --version
`,
	start: ( name, env ) => `Usage: ${ name } start [--config <file.json>]

Runs the sidecar in the foreground until SIGTERM or SIGINT, which let attempts in flight
finish (up to SIDECAR_SHUTDOWN_GRACE_MS). Outbound events are stored in SQLite
(<data dir>/${ DATABASE_FILE }, WAL) before WordPress gets its 202, then delivered as signed
Standard Webhooks with retries; attempts interrupted by a crash are sent again after the
next start. Every SIDECAR_MAINTENANCE_INTERVAL_SECONDS it disables endpoints failing for
longer than SIDECAR_DISABLE_AFTER_HOURS, deletes delivered history older than
SIDECAR_RETENTION_DAYS, and retries notices WordPress has not acknowledged yet.

Settings: defaults < the JSON config file < environment variables. The file is --config,
else SIDECAR_CONFIG, else ${ path.join( standardConfigDir( env ), CONFIG_FILE_NAME ) } when it exists.
A bad value is reported under the name it was given with. Settings:
${ describeSettings() }

${ places( env ) }
`,
	'wp-config': ( name, env ) => `Usage: ${ name } wp-config [--config <file.json>]

Prints the wp-config.php lines (SERVICE_INTEGRATION_SIDECAR_URL and _KEY) for a config file
(default: ${ path.join( standardConfigDir( env ), CONFIG_FILE_NAME ) }), from the file alone: SIDECAR_*
environment variables are not applied.
`,
	'systemd-unit': ( name ) => `Usage: ${ name } systemd-unit

Prints the systemd unit shipped with this package (packaging/${ SIDECAR_NAME }.service) with
ExecStart pointing at this installation's command, for /etc/systemd/system/. It runs
\`start --config /etc/${ SIDECAR_NAME }/config.json\` as a dynamic user, with the shared key
passed as a credential (LoadCredential), the database in StateDirectory (/var/lib/${ SIDECAR_NAME }),
logs in the journal, and restarts on failure.
`,
};

const FLAGS: Record< string, Record< string, 'value' | 'switch' > > = {
	main: {},
	init: {
		'config-dir': 'value',
		host: 'value',
		port: 'value',
		'data-dir': 'value',
		'wordpress-url': 'value',
		force: 'switch',
		'new-key': 'switch',
	},
	start: { config: 'value' },
	'wp-config': { config: 'value' },
	'systemd-unit': {},
};

interface Parsed {
	command: string;
	help: boolean;
	version: boolean;
	flags: Record< string, string | true >;
}

function parse( argv: string[] ): Parsed {
	const parsed: Parsed = { command: 'main', help: false, version: false, flags: {} };
	for ( let i = 0; i < argv.length; i++ ) {
		const arg = argv[ i ] as string;
		if ( arg === '--help' || arg === '-h' ) {
			parsed.help = true;
			continue;
		}
		if ( arg === '--version' || arg === '-v' ) {
			parsed.version = true;
			continue;
		}
		if ( ! arg.startsWith( '-' ) && parsed.command === 'main' && Object.keys( parsed.flags ).length === 0 ) {
			if ( ! ( arg in FLAGS ) || arg === 'main' ) {
				throw new ConfigError(
					`Unknown command "${ arg }"; commands: ${ Object.keys( FLAGS )
						.filter( ( c ) => c !== 'main' )
						.join( ', ' ) } (see --help)`
				);
			}
			parsed.command = arg;
			continue;
		}
		const match = /^--([a-z-]+)(?:=(.*))?$/s.exec( arg );
		const kind = match ? FLAGS[ parsed.command ]?.[ match[ 1 ] as string ] : undefined;
		if ( ! match || ! kind ) {
			throw new ConfigError(
				`Unknown argument "${ arg }"${ parsed.command === 'main' ? '' : ` for ${ parsed.command }` }; see --help`
			);
		}
		const name = match[ 1 ] as string;
		if ( kind === 'switch' ) {
			if ( match[ 2 ] !== undefined ) {
				throw new ConfigError( `--${ name } takes no value` );
			}
			parsed.flags[ name ] = true;
		} else {
			const value = match[ 2 ] ?? argv[ ++i ];
			if ( value === undefined || value === '' ) {
				throw new ConfigError( `--${ name } needs a value` );
			}
			parsed.flags[ name ] = value;
		}
	}
	return parsed;
}

function flag( parsed: Parsed, name: string ): string | undefined {
	const value = parsed.flags[ name ];
	return typeof value === 'string' ? value : undefined;
}

function portOf( value: string | undefined ): number {
	if ( value === undefined ) {
		return 8787;
	}
	const port = Number( value );
	if ( ! /^\d+$/.test( value ) || port < 1 || port > 65535 ) {
		throw new ConfigError( `--port must be a port number (1-65535), got "${ value }"` );
	}
	return port;
}

/** The unit with ExecStart on the command that is running now. */
export function systemdUnit( execPath: string ): string {
	const unit = fs.readFileSync( UNIT_FILE, 'utf8' );
	if ( ! unit.includes( `ExecStart=${ UNIT_EXEC } ` ) ) {
		throw new Error( `${ UNIT_FILE } has no "ExecStart=${ UNIT_EXEC } " line` );
	}
	return unit.split( `ExecStart=${ UNIT_EXEC } ` ).join( `ExecStart=${ execPath } ` );
}

/** How systemd should start this installation: the bin itself, or node with this script. */
function currentExec(): string {
	const script = process.argv[ 1 ] ? path.resolve( process.argv[ 1 ] ) : '';
	return path.basename( script ) === SIDECAR_NAME ? script : `${ process.execPath } ${ script }`;
}

/**
 * Runs one command. Returns the exit code, or null when `start` is running (the process
 * then lives until a signal).
 */
export function runCli( argv: string[], env: NodeJS.ProcessEnv, options: CliOptions ): number | null {
	const out = ( text: string ) => process.stdout.write( text );
	let parsed: Parsed;
	try {
		parsed = parse( argv );
		if ( parsed.help ) {
			out( ( HELP[ parsed.command ] as ( typeof HELP )[ string ] )( options.name, env ) );
			return 0;
		}
		if ( parsed.version ) {
			out( SIDECAR_VERSION + '\n' );
			return 0;
		}
		switch ( parsed.command ) {
			case 'main':
				process.stderr.write(
					`${ options.name }: a command is needed: init, start, wp-config or systemd-unit (see --help)\n`
				);
				return 2;
			case 'init': {
				const result = initConfig(
					{
						configDir: flag( parsed, 'config-dir' ) ?? standardConfigDir( env ),
						host: flag( parsed, 'host' ) ?? '127.0.0.1',
						port: portOf( flag( parsed, 'port' ) ),
						dataDir: flag( parsed, 'data-dir' ),
						wordpressUrl: flag( parsed, 'wordpress-url' ),
						force: parsed.flags.force === true,
						newKey: parsed.flags[ 'new-key' ] === true,
					},
					env
				);
				out( `Wrote ${ result.configFile }\n` );
				out(
					result.keyCreated
						? `Wrote ${ result.keyFile } (a new shared key, mode 0600)\n`
						: `Kept the shared key in ${ result.keyFile } (mode 0600)\n`
				);
				out(
					`\nAdd these lines to wp-config.php, above "/* That's all, stop editing! */":\n\n${ result.wpConfig }\n\n`
				);
				out( `Then run: ${ options.name } start --config ${ result.configFile }\n` );
				out(
					`or, as root with systemd: ${ options.name } systemd-unit > /etc/systemd/system/${ SIDECAR_NAME }.service\n`
				);
				out(
					`                          systemctl daemon-reload && systemctl enable --now ${ SIDECAR_NAME }\n`
				);
				return 0;
			}
			case 'wp-config':
				out(
					wpConfigFromConfigFile(
						flag( parsed, 'config' ) ?? path.join( standardConfigDir( env ), CONFIG_FILE_NAME ),
						env
					) + '\n'
				);
				return 0;
			case 'systemd-unit':
				out( systemdUnit( currentExec() ) );
				return 0;
			case 'start': {
				let configFile = flag( parsed, 'config' ) ?? env.SIDECAR_CONFIG;
				if ( ! configFile && options.standardConfigFile ) {
					const standard = path.join( standardConfigDir( env ), CONFIG_FILE_NAME );
					configFile = fs.existsSync( standard ) ? standard : undefined;
				}
				const config = loadConfig( env, configFile );
				startSidecar( config, { configFile } );
				return null;
			}
		}
		return 2;
	} catch ( error ) {
		if ( error instanceof ConfigError ) {
			process.stderr.write( `${ options.name }: ${ error.message }\n` );
			return 2;
		}
		throw error;
	}
}

if ( require.main === module ) {
	const code = runCli( process.argv.slice( 2 ), process.env, { standardConfigFile: true, name: SIDECAR_NAME } );
	if ( code !== null ) {
		process.exitCode = code;
	}
}
