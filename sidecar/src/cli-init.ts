import crypto from 'crypto';
import fs from 'fs';
import net from 'net';
import path from 'path';
import { CONFIG_FILE_NAME, ConfigError, SHARED_KEY_FILE_NAME, loadConfig } from './config';

export interface InitOptions {
	configDir: string;
	host: string;
	port: number;
	dataDir?: string;
	wordpressUrl?: string;
	/** Overwrite an existing config.json (the key is kept unless newKey). */
	force: boolean;
	/** Replace an existing shared key: WordPress's wp-config.php must then be updated too. */
	newKey: boolean;
}

export interface InitResult {
	configFile: string;
	keyFile: string;
	keyCreated: boolean;
	wpConfig: string;
}

/** The URL WordPress calls: a wildcard listen address is reached on loopback. */
export function sidecarUrl( host: string, port: number ): string {
	let reachable = host;
	if ( host === '0.0.0.0' ) {
		reachable = '127.0.0.1';
	} else if ( host === '::' ) {
		reachable = '::1';
	}
	return `http://${ net.isIPv6( reachable ) ? `[${ reachable }]` : reachable }:${ port }`;
}

/** The lines a site owner pastes into wp-config.php (the constants Sidecar_Client reads). */
export function wpConfigLines( url: string, key: string ): string {
	// PHP single-quoted strings: only \ and ' need escaping (a generated key has neither).
	const php = ( value: string ) => `'${ value.replace( /\\/g, '\\\\' ).replace( /'/g, "\\'" ) }'`;
	return [
		`define( 'SERVICE_INTEGRATION_SIDECAR_URL', ${ php( url ) } );`,
		`define( 'SERVICE_INTEGRATION_SIDECAR_KEY', ${ php( key ) } );`,
	].join( '\n' );
}

function writeFileAtomic( file: string, content: string, mode: number ): void {
	const temp = `${ file }.${ process.pid }.tmp`;
	fs.writeFileSync( temp, content, { mode } );
	fs.chmodSync( temp, mode ); // the umask may have taken bits away; never adds any
	fs.renameSync( temp, file );
}

/**
 * Writes <configDir>/shared-key (0600, kept when it exists so a re-run does not break the
 * site) and <configDir>/config.json (0644: it holds no secret, only the key file's path), and
 * checks the result loads as `start` will load it.
 */
export function initConfig( options: InitOptions, env: NodeJS.ProcessEnv ): InitResult {
	const configDir = path.resolve( options.configDir );
	const configFile = path.join( configDir, CONFIG_FILE_NAME );
	const keyFile = path.join( configDir, SHARED_KEY_FILE_NAME );
	if ( fs.existsSync( configFile ) && ! options.force ) {
		throw new ConfigError(
			`${ configFile } exists; pass --force to overwrite it (the shared key is kept unless --new-key)`
		);
	}
	fs.mkdirSync( configDir, { recursive: true, mode: 0o755 } );

	let key = '';
	if ( fs.existsSync( keyFile ) && ! options.newKey ) {
		key = fs.readFileSync( keyFile, 'utf8' ).trim();
		fs.chmodSync( keyFile, 0o600 );
	}
	const keyCreated = key === '';
	if ( keyCreated ) {
		key = crypto.randomBytes( 32 ).toString( 'base64url' );
		writeFileAtomic( keyFile, key + '\n', 0o600 );
	}

	const config: Record< string, unknown > = { host: options.host, port: options.port, sharedKeyFile: keyFile };
	if ( options.dataDir ) {
		config.dataDir = path.resolve( options.dataDir );
	}
	if ( options.wordpressUrl ) {
		config.wordpressUrl = options.wordpressUrl;
	}
	// Validated before it is written, with the environment `start` would see minus SIDECAR_*
	// overrides, so a bad --port or --wordpress-url is reported under its config-file key.
	const content = JSON.stringify( config, null, '\t' ) + '\n';
	const probe = path.join( configDir, `.${ CONFIG_FILE_NAME }.${ process.pid }.check` );
	fs.writeFileSync( probe, content, { mode: 0o600 } );
	try {
		loadConfig(
			Object.fromEntries( Object.entries( env ).filter( ( [ name ] ) => ! name.startsWith( 'SIDECAR_' ) ) ),
			probe
		);
	} catch ( error ) {
		if ( error instanceof ConfigError ) {
			throw new ConfigError( error.message.split( probe ).join( configFile ) );
		}
		throw error;
	} finally {
		fs.rmSync( probe, { force: true } );
	}
	writeFileAtomic( configFile, content, 0o644 );

	return {
		configFile,
		keyFile,
		keyCreated,
		wpConfig: wpConfigLines( sidecarUrl( options.host, options.port ), key ),
	};
}

/** wp-config.php lines for an existing config file (`service-integration-sidecar wp-config`). */
export function wpConfigFromConfigFile( configFile: string, env: NodeJS.ProcessEnv ): string {
	const config = loadConfig(
		Object.fromEntries( Object.entries( env ).filter( ( [ name ] ) => ! name.startsWith( 'SIDECAR_' ) ) ),
		configFile
	);
	return wpConfigLines( sidecarUrl( config.host, config.port ), config.sharedKey );
}
